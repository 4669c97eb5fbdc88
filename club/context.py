"""Template context: what the visitor may create (the "New ..." buttons) and whether they are
a player (the header's link to their own page), in one query a request; and the mark in
place of the CSRF token on a page rendered to be kept for other visitors."""

from typing import Any

from django.http import HttpRequest

from .kept import TOKEN_MARK
from .policy import header_standing


def permissions(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None:
        return {"may_create": False, "my_player_id": None}
    may_create, player_id = header_standing(user)
    return {"may_create": may_create, "my_player_id": player_id}


def token_mark(request: HttpRequest) -> dict[str, Any]:
    """On a page rendered to be kept (``request.page_marked``: :mod:`club.kept`, the live
    pages), the forms carry a mark where each visitor's own token is put in; listed after
    Django's own ``csrf`` context processor, so this one's ``csrf_token`` wins."""
    return {"csrf_token": TOKEN_MARK} if getattr(request, "page_marked", False) else {}
