"""Issue 29: a CSV download is streamed a chunk of rows at a time and holds at most
``EXPORT_MAX_ROWS`` rows (the filters applied); past it the file ends saying so."""

import csv
import datetime
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

import club.tables
from club.policy import SYSTEM
from club.services import player_create
from club.tables import PlayerTable
from matches.selectors import match_list
from matches.services import match_create
from matches.tables import MatchTable

pytestmark = pytest.mark.django_db


def played(count, director, record):
    """``count`` matches between new players, a day apart, each won 8-0 in one game."""
    people = [player_create(name=f"Player {i:03d}", user=SYSTEM) for i in range(count + 1)]
    start = datetime.date(2026, 1, 1)
    matches = []
    for i in range(count):
        match = match_create(
            player_a=people[i],
            player_b=people[i + 1],
            length=5,
            date=start + datetime.timedelta(days=i),
            user=director,
        )
        record(match, 0, cube=4, result="gammon")
        matches.append(match)
    return matches


def body(response):
    assert response.streaming
    return b"".join(response.streaming_content).decode()


def rows(response):
    return list(csv.reader(io.StringIO(body(response))))


def test_the_matches_download_is_streamed_with_the_same_columns_as_before(
    rf, client, director, record
):
    """The same bytes as django-tables2's own export (what the site wrote before issue 29)."""
    played(4, director, record)
    table = MatchTable(match_list())
    RequestConfig(rf.get("/"), paginate={"per_page": 25}).configure(table)
    before = TableExport("csv", table).export()
    response = client.get(reverse("matches"), {"_export": "csv"})
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="matches.csv"'
    after = body(response)
    assert after == before
    assert after.splitlines()[0] == "date,player,opponent,length,score,status"
    assert len(after.splitlines()) == 5


def test_the_players_download_has_the_same_columns_as_before(rf, client, anna, bruno):
    from tournaments.queries.players import player_list

    table = PlayerTable(player_list())
    RequestConfig(rf.get("/"), paginate={"per_page": 25}).configure(table)
    before = TableExport("csv", table).export()
    assert body(client.get(reverse("players"), {"_export": "csv"})) == before


def test_past_the_bound_the_file_ends_saying_so(client, director, record, settings):
    settings.EXPORT_MAX_ROWS = 3
    played(5, director, record)
    table = rows(client.get(reverse("matches"), {"_export": "csv"}))
    assert len(table) == 1 + 3 + 1
    assert table[1][0] == "2026-01-05"  # newest first, as the list
    assert table[-1] == [
        "Only the first 3 rows: narrow the list with its filters to download the rest."
    ]


def test_the_bound_line_is_in_the_visitors_language(client, director, record, settings):
    settings.EXPORT_MAX_ROWS = 2
    played(3, director, record)
    table = rows(client.get(reverse("matches"), {"_export": "csv"}, HTTP_ACCEPT_LANGUAGE="it"))
    assert table[0][0] == "data"
    assert table[-1] == [
        "Solo le prime 2 righe: restringi l’elenco con i filtri per scaricare le altre."
    ]


def test_the_bound_counts_after_the_filters(client, director, record, settings):
    settings.EXPORT_MAX_ROWS = 2
    played(5, director, record)
    table = rows(client.get(reverse("matches"), {"_export": "csv", "player": "Player 002"}))
    assert [row[1:3] for row in table[1:]] == [
        ["Player 002", "Player 003"],
        ["Player 001", "Player 002"],
    ]  # exactly the bound: nothing left out, so no last line


@pytest.mark.parametrize("page", ["players", "ratings"])
def test_every_list_download_has_the_bound(client, director, record, settings, page):
    settings.EXPORT_MAX_ROWS = 2
    played(3, director, record)  # 4 players, each rated
    table = rows(client.get(reverse(page), {"_export": "csv"}))
    assert len(table) == 1 + 2 + 1 and table[-1][0].startswith("Only the first 2 rows")


def test_the_standings_download_is_streamed(client, event_with, settings):
    from tournaments.models import Event
    from tournaments.services import event_draw

    settings.EXPORT_MAX_ROWS = 2
    event = event_with(Event.Format.SWISS, 4, swiss_rounds=1)
    event_draw(event=event, user=SYSTEM)
    table = rows(client.get(reverse("event", args=[event.pk]), {"_export": "csv"}))
    assert len(table) == 1 + 2 + 1 and table[-1][0].startswith("Only the first 2 rows")


def queries_of(client, query):
    with CaptureQueriesContext(connection) as seen:
        lines = body(client.get(reverse("matches"), query)).splitlines()
    return len(seen), len(lines)


def test_the_queries_do_not_grow_with_the_rows(client, director, record):
    played(5, director, record)
    few, lines = queries_of(client, {"_export": "csv"})
    assert lines == 6
    played(40, director, record)
    many, lines = queries_of(client, {"_export": "csv"})
    assert lines == 46
    assert many == few


def test_rows_are_read_a_chunk_at_a_time(client, director, record, monkeypatch):
    """Only the chunk being written is in memory: its query and prefetches, then the next."""
    monkeypatch.setattr(club.tables, "EXPORT_CHUNK_ROWS", 4)
    played(12, director, record)
    with CaptureQueriesContext(connection) as seen:
        response = client.get(reverse("matches"), {"_export": "csv"})
        content = iter(response.streaming_content)
        for _ in range(1 + 4):  # the header and the first chunk
            next(content)
        first_chunk = len(seen)
        rest = list(content)
    assert len(rest) == 8
    per_chunk = (len(seen) - first_chunk) // 2
    assert per_chunk > 0 and len(seen) - first_chunk == 2 * per_chunk
    # the view itself read the first chunk (a failing query is an error page, not a cut file)
    assert first_chunk >= per_chunk


def test_the_page_says_how_to_narrow_a_download(client, match5):
    page = client.get(reverse("matches")).content.decode()
    assert "at most 10,000 rows: narrow the list with the" in page
    italian = client.get(reverse("matches"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "al massimo 10.000 righe: restringi l’elenco con i filtri" in italian
