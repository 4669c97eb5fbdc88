"""Template context: what the visitor may create (the "New ..." buttons) and whether they are
a player (the header's link to their own page), in one query a request."""

from typing import Any

from django.http import HttpRequest

from .policy import header_standing


def permissions(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None:
        return {"may_create": False, "my_player_id": None}
    may_create, player_id = header_standing(user)
    return {"may_create": may_create, "my_player_id": player_id}
