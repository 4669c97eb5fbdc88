"""The event page's round and entry tables have their rows written in Python
(templates/tables/rows.html): the page is the same, byte for byte, as when django-tables2's
template writes every cell (templates/tables/stacked.html), for a visitor and a director, in
English and Italian: walkovers, byes, tables, results, a Swiss's pairing reasons."""

import random
import re

import pytest
from django.core.cache import cache

from tournaments.models import Entry, Event
from tournaments.queries.events import event_entries, event_matches
from tournaments.services import entry_withdraw, event_draw, event_pair_next_round
from tournaments.tables import EntryTable, PairingTable
from tournaments.venue import tournament_tables_set

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def pages(client, event):
    found = []
    for language in ("en", "it"):
        answer = client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 200
        found.append(TOKEN.sub("token", answer.content.decode()))
    return found


@pytest.fixture
def events(tournament, event_with, field, director, finish):
    tournament_tables_set(tournament=tournament, count=2, user=director)
    double = event_with(Event.Format.DOUBLE, field(6), lengths=(3, 5, 7))
    event_draw(event=double, seed=4, user=director)
    rng = random.Random(29)
    for match in [m for m in event_matches(event=double) if not m.decided][:2]:
        finish(match, rng.choice((match.player_a, match.player_b)), loser_points=1)
    waiting = [m for m in event_matches(event=double) if not m.decided]
    gone = Entry.objects.get(event=double, player=waiting[0].player_a)
    entry_withdraw(entry=gone, user=director)  # a walkover
    swiss = event_with(Event.Format.SWISS, field(5, prefix="S"), swiss_rounds=3)
    event_draw(event=swiss, seed=2, user=director)  # round 1 and its bye
    for match in event_matches(event=swiss):
        finish(match, match.player_b, loser_points=2)
    event_pair_next_round(event=swiss, user=director)  # with its reasons
    return [double, swiss]


def test_the_event_page_is_the_same_with_its_rows_written_in_python(
    events, client, director_client, monkeypatch
):
    viewers = (client, director_client)
    fast = [pages(viewer, event) for event in events for viewer in viewers]
    for table in (PairingTable, EntryTable):
        assert table._meta.template_name == "tables/rows.html"
        monkeypatch.setattr(table._meta, "template_name", "tables/stacked.html")
    cache.clear()  # the pages are kept under their ETag (tournaments.live): render them again
    slow = [pages(viewer, event) for event in events for viewer in viewers]
    assert fast == slow
    double, swiss = fast[1][0], fast[3][0]  # as their director sees them, in English
    assert ">walkover: " in double
    assert ">3–1</td>" in double or ">1–3</td>" in double
    assert 'data-label="why this pairing"' in swiss


def test_a_round_s_cells_are_django_tables2_s_own(events):
    """Each ``cell_<column>`` of the pairing table gives what django-tables2 gives."""
    for event in events:
        for match in event_matches(event=event):
            table = PairingTable([match])
            row = next(iter(table.rows))
            for column in table.columns:
                fast = getattr(table, f"cell_{column.name}")
                assert str(fast(match)) == str(row.get_cell(column.name)), column.name


def test_an_entry_s_cells_are_django_tables2_s_own(events):
    """Each ``cell_<column>`` of the entries table gives what django-tables2 gives."""
    for event in events:
        for entry in event_entries(event=event):
            table = EntryTable([entry])
            row = next(iter(table.rows))
            for name in ("seed", "player", "rating", "status"):
                fast = getattr(table, f"cell_{name}")
                assert str(fast(entry)) == str(row.get_cell(name)), name
