"""Reading players: what pages and forms ask of the club's register."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Player


def player_namesakes(*, name: str, exclude: int | None = None) -> QuerySet[Player]:
    """Players registered under the same name (case and spacing aside): maybe the same person."""
    found = Player.objects.filter(name__iexact=" ".join(name.split()))
    return found.exclude(pk=exclude) if exclude is not None else found
