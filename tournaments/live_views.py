"""The live pages of a tournament for players and the room: what is being played now, and
the wall display (with the director's announcements). Both refresh themselves with
conditional requests (:mod:`tournaments.live`).

Each view parses the request, asks the policy, calls one service or selector, and renders.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.policy import can_direct, require, sign_in_required

from .announcements import announcement_post, announcement_withdraw, announcements_shown
from .dashboard import tournament_dashboard
from .forms import AnnouncementForm
from .live import by_tournament, live, live_page, wall_seconds
from .models import Announcement, Tournament
from .tournament_views import tournament_page
from .wall import tournament_wall


@live(by_tournament)
def now_playing(request: HttpRequest, pk: int) -> HttpResponse:
    """Every match in play or seated at a table, across the events: table, players, score."""
    found = get_object_or_404(Tournament, pk=pk)
    room = tournament_dashboard(tournament=found, now=timezone.now())
    context: dict[str, object] = {
        "tournament": found,
        "seats": room.seats,
        "announcements": list(announcements_shown(tournament=found)),
    }
    return live_page(request, context, "now_playing.html", "includes/now_playing.html")


@live(by_tournament)
def wall(request: HttpRequest, pk: int) -> HttpResponse:
    """The playing room's wall display: each event's bracket, pairings and standings and the
    matches now playing in turn, in large type, with the announcements on show."""
    found = get_object_or_404(Tournament, pk=pk)
    context: dict[str, object] = {
        "tournament": found,
        "screens": tournament_wall(tournament=found),
        "seats": tournament_dashboard(tournament=found, now=timezone.now()).seats,
        "announcements": list(announcements_shown(tournament=found)),
        "wall_seconds": wall_seconds(),
    }
    return live_page(request, context, "wall.html", "includes/wall.html")


@sign_in_required
@require_POST
def announcement_new(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = AnnouncementForm(request.POST)
    if form.is_valid():
        try:
            announcement_post(
                tournament=found,
                text=form.cleaned_data["text"],
                minutes=form.cleaned_data["minutes"],
                user=request.user,
            )
        except ValidationError as refused:
            form.add_error(None, refused)
        else:
            messages.success(request, _("The announcement is on the wall display."))
            return redirect(f"{found.get_absolute_url()}#announcements")
    # the tournament's page again, the text kept in the form with what is wrong
    return tournament_page(request, found, announcement_form=form, status=400)


@sign_in_required
@require_POST
def announcement_withdraw_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    notice = get_object_or_404(Announcement, pk=number, tournament=found)
    try:
        announcement_withdraw(announcement=notice, user=request.user)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("The announcement is withdrawn."))
    return redirect(f"{found.get_absolute_url()}#announcements")
