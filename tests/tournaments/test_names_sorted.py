"""Names sort as people read them, accents and case aside: "Éric" among the e's, not after
"Zoë" (Player.sort_name, rules.text.folded), on every page that lists players."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from club.models import Player
from club.policy import SYSTEM
from club.services import player_create, player_update
from tests.helpers import page_words
from tournaments.models import Event

pytestmark = pytest.mark.django_db

# as people read them; code points would put Éric, Ángel and Òscar after Zoë, and
# "ettore" after every capital
AS_READ = ["Ángel Ruiz", "Anna Rossi", "Éric Lefèvre", "ettore Neri", "Òscar Puig", "Zoë Müller"]


def registered(names=AS_READ):
    return [player_create(name=name, user=SYSTEM) for name in reversed(names)]


def order_on(page: str, names) -> list[str]:
    """The names as the page shows them, top to bottom."""
    found = {name: page.find(name) for name in names}
    assert all(at >= 0 for at in found.values()), found
    return sorted(names, key=found.get)


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_players_list_sorts_names_as_read_both_ways(client, language):
    registered()
    client.cookies["django_language"] = language
    page = page_words(client.get(reverse("players")))
    assert order_on(page, AS_READ) == AS_READ
    by_name = page_words(client.get(reverse("players"), {"sort": "name"}))
    assert order_on(by_name, AS_READ) == AS_READ
    backwards = page_words(client.get(reverse("players"), {"sort": "-name"}))
    assert order_on(backwards, AS_READ) == AS_READ[::-1]


def test_a_renamed_player_moves_to_where_the_new_name_reads(client, director):
    players = registered()
    zoe = next(p for p in players if p.name == "Zoë Müller")
    player_update(player=zoe, user=director, name="Åsa Müller", club="", country="")
    assert Player.objects.get(pk=zoe.pk).sort_name == "asa muller"
    page = page_words(client.get(reverse("players")))
    assert order_on(page, ["Ángel Ruiz", "Anna Rossi", "Åsa Müller"]) == [
        "Ángel Ruiz",
        "Anna Rossi",
        "Åsa Müller",
    ]


def test_an_event_s_entries_and_its_pickers_sort_names_as_read(event_with, director_client):
    players = registered()
    entered, left = players[:4], players[4:]  # Zoë, Òscar, ettore, Éric entered
    event = event_with(Event.Format.SINGLE, entered, check_in=False)
    page = director_client.get(event.get_absolute_url()).content.decode()
    table = re.search(r'id="entries-table".*?</table>', page, re.S).group(0)
    assert order_on(table, [p.name for p in entered]) == [
        "Éric Lefèvre",
        "ettore Neri",
        "Òscar Puig",
        "Zoë Müller",
    ]
    picker = re.search(r'<div id="id_players" class="pick-list">.*?</fieldset>', page, re.S)
    assert order_on(picker.group(0), [p.name for p in left]) == ["Ángel Ruiz", "Anna Rossi"]
    assert list(event.entries.values_list("player__name", flat=True)) == [
        "Éric Lefèvre",
        "ettore Neri",
        "Òscar Puig",
        "Zoë Müller",
    ]  # Entry.Meta.ordering, which every other list of entries inherits


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_registered_player_a_sort_key():
    executor = MigrationExecutor(connection)
    before = [("club", "0003_imported_history_kept_uploads")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("club", "Player")
    for name in ("Zoë Müller", "Éric Lefèvre"):
        old.objects.create(name=name)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert list(Player.objects.values_list("name", "sort_name")) == [
        ("Éric Lefèvre", "eric lefevre"),
        ("Zoë Müller", "zoe muller"),
    ]
