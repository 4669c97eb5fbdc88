"""Who may change things: directors (a group) and staff. Everyone else reads."""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied


def is_director(user) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return user.groups.filter(name=settings.DIRECTORS_GROUP).exists()


def director_required(view):
    """Anonymous visitors are sent to sign in; signed-in non-directors get 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    wrapper.director_only = True  # the permission test walks the URLs and checks this
    return wrapper


def players_required(view):
    """Anonymous visitors sign in first; the service decides who may act, and for which side."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    wrapper.players_only = True  # the permission test walks the URLs and checks this
    return wrapper


def directs(user, tournament) -> bool:
    """A tournament is run by its directors (staff may step in); one with none, by any."""
    if not is_director(user):
        return False
    if user.is_staff or user.is_superuser:
        return True
    ids = set(tournament.directors.values_list("pk", flat=True))
    return not ids or user.pk in ids


def check_directs(user, tournament) -> None:
    if not directs(user, tournament):
        raise PermissionDenied
