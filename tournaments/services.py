"""Writing players."""

from django.db import transaction

from .models import Player


def player_create(
    *, name: str, club: str = "", country: str = "", email: str = "", phone: str = ""
) -> Player:
    with transaction.atomic():
        return Player.objects.create(
            name=name.strip(), club=club, country=country, email=email, phone=phone
        )
