"""What the tables' page tests share: a tap on the table's page as a phone sends it, the
opening roll and a result as their forms post them (issue 27). The fixtures (``people``,
``start_table``) are in conftest.py."""

from __future__ import annotations

import json

from django.urls import reverse

PASSWORD = "tavola-reale-42"
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena")


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
