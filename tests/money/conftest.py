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


# --- the pages' tests (tests/money/test_views.py, test_permissions.py) ---------------------

from tests.money.pages import NAMES, PASSWORD  # noqa: E402


@pytest.fixture
def people(db, django_user_model):
    """Five players, each with an account named after them in lower case."""
    from club.policy import SYSTEM
    from club.services import player_create, player_update

    made = {}
    for name in NAMES:
        player = player_create(name=name, user=SYSTEM)
        account = django_user_model.objects.create_user(name.lower(), password=PASSWORD)
        player_update(player=player, account=account, user=SYSTEM)
        player.refresh_from_db()
        made[name] = player
    return made


@pytest.fixture
def start_table(director):
    """start_table(players, kind="chouette", **settings): a table started by the director."""
    from rules.chouette import ChouetteSettings

    from money.models import TableKind
    from money.services import table_start

    def start(players, kind=TableKind.CHOUETTE, stake_cents=100, **settings):
        return table_start(
            user=director,
            kind=kind,
            name="Venerdì sera" if kind == TableKind.CHOUETTE else "Anna – Bruno",
            settings=ChouetteSettings(**settings),
            players=list(players),
            stake_cents=stake_cents,
        )

    return start
