"""What the tables' page tests share: five players with accounts, a chouette started by a
director, and a tap on the table's page as a phone sends it (issue 27)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

PASSWORD = "tavola-reale-42"
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena")


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


def version(table) -> int:
    from money.models import Table

    return Table.objects.get(pk=table.pk).version


def tap(client, table, event, **extra):
    """The table's button for ``event`` pressed (as its form posts it)."""
    data = {"event": json.dumps(event.to_dict()), "version": version(table), **extra}
    return client.post(reverse("money:act", args=[table.pk]), data)


def opening(client, table, dice):
    """The opening roll: {player: die}."""
    data = {f"die_{player.pk}": die for player, die in dice.items()}
    data["version"] = version(table)
    return client.post(reverse("money:opening", args=[table.pk]), data)


def result(client, table, winner, level="single", resigned=False):
    data = {"winner": winner, "level": level, "version": version(table)}
    if resigned:
        data["resigned"] = "on"
    return client.post(reverse("money:end", args=[table.pk]), data)


def pid(player) -> str:
    return str(player.pk)
