"""Reading players."""

from django.db.models import QuerySet

from .models import Player


def player_list() -> QuerySet[Player]:
    return Player.objects.all()
