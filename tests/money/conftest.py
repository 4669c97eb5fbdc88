"""Tables for the money tests: players with accounts, a chouette's worth of them, and a
shorthand for recording its events through the services, as the phones would."""

import pytest


@pytest.fixture
def five(anna, bruno, carla, dario, elena):
    """Five players in the order of their opening roll: Anna the box, Bruno the captain."""
    return [anna, bruno, carla, dario, elena]


@pytest.fixture
def chouette(director, five):
    """A single-cube chouette of five (the seed's settings), stakes 1.00 a point, its
    opening roll recorded: Anna the box, Bruno the captain, then Carla, Dario, Elena."""
    from money.models import TableKind
    from money.services import table_act, table_start
    from rules.chouette import ChouetteSettings, Opening

    table = table_start(
        user=director,
        kind=TableKind.CHOUETTE,
        name="Venerdì sera",
        settings=ChouetteSettings(),
        players=five,
        stake_cents=100,
    )
    dice = (6, 5, 4, 3, 2)
    opening = Opening(rolls=tuple((str(p.pk), die) for p, die in zip(five, dice, strict=True)))
    return table_act(user=director, table=table, event=opening)


@pytest.fixture
def act(director):
    """``act(table, event)``: one event recorded by the director, the table returned fresh."""
    from money.models import Table
    from money.services import table_act

    def record(table, *events, user=None):
        for event in events:
            table = table_act(user=user or director, table=table, event=event)
        return Table.objects.get(pk=table.pk)

    return record


def pid(player):
    """The engine's id of a player."""
    return str(player.pk)


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
    from money.models import TableKind
    from money.services import table_start
    from rules.chouette import ChouetteSettings

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
