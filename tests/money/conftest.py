"""Tables for the money tests: players with accounts, a chouette's worth of them."""

import pytest


@pytest.fixture
def carla(db):
    from club.policy import SYSTEM
    from club.services import player_create

    return player_create(name="Carla Verdi", club="", country="", user=SYSTEM)


@pytest.fixture
def dario(db):
    from club.policy import SYSTEM
    from club.services import player_create

    return player_create(name="Dario Neri", club="", country="", user=SYSTEM)


@pytest.fixture
def elena(db):
    from club.policy import SYSTEM
    from club.services import player_create

    return player_create(name="Elena Gialli", club="", country="", user=SYSTEM)


@pytest.fixture
def account(django_user_model):
    """An account linked to a player: ``account(anna)`` is Anna signed in."""

    def make(player):
        user = django_user_model.objects.create_user(
            player.name.split()[0].lower(), password="pw-player-1"
        )
        player.user = user
        player.save(update_fields=["user"])
        return user

    return make
