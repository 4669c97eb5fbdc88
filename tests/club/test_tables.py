"""Downloads a spreadsheet opens safely: no cell of a name or club runs as a formula."""

import csv
import datetime
import io

import django_tables2
import pytest
from django.urls import reverse
from django.utils import translation
from django_tables2.rows import BoundRow
from hypothesis import given
from hypothesis import strategies as st

from club.policy import SYSTEM
from club.services import player_create
from club.tables import DateColumn

pytestmark = pytest.mark.django_db

HOSTILE = ['=HYPERLINK("http://evil.example","Click")', "+1+1", "-2+3", "@SUM(A1:A9)"]


def rows(response):
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.getvalue().decode())))


def test_the_players_download_neutralises_formulas(client):
    for index, text in enumerate(HOSTILE):
        player_create(name=f"{text} {index}", club=text, user=SYSTEM)
    player_create(name="Anna Rossi", club="Circolo Milano", user=SYSTEM)
    table = rows(client.get(reverse("players"), {"_export": "csv"}))
    cells = [cell for row in table[1:] for cell in row]
    assert "Anna Rossi" in cells and "Circolo Milano" in cells  # ordinary text untouched
    starts = [cell[0] for cell in cells if cell]
    assert not [s for s in starts if s in "=+-@"], cells
    assert f"'{HOSTILE[0]}" in cells  # kept, readable, but as text


def test_the_matches_and_standings_downloads_neutralise_formulas(
    client, event_with, director, finish
):
    from tournaments.models import Event
    from tournaments.services import event_draw

    people = [player_create(name=f"=cmd|' /C calc'!A{i}", user=SYSTEM) for i in range(4)]
    event = event_with(Event.Format.SWISS, people, swiss_rounds=1)
    event_draw(event=event, seed=1, user=director)
    for match in event.places.all():
        finish(match.match, match.match.player_a)
    for url in (reverse("matches"), reverse("event", args=[event.pk])):
        table = rows(client.get(url, {"_export": "csv"}))
        assert not [c for row in table for c in row if c[:1] in ("=", "+", "-", "@")], table
        assert any(c.startswith("'=cmd") for row in table for c in row)


def test_only_csv_is_offered(client):
    response = client.get(reverse("players"), {"_export": "xlsx"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")


# --- club.tables.DateColumn: django-tables2's text without a template per cell -------------


@given(
    day=st.dates(min_value=datetime.date(1900, 1, 1), max_value=datetime.date(2100, 12, 31)),
    language=st.sampled_from(["en", "it"]),
    short=st.booleans(),
)
def test_a_date_cell_reads_as_django_tables2_s_own(day, language, short):
    """The same text as django-tables2's DateColumn (its template), page and download."""

    class Theirs(django_tables2.Table):
        date = django_tables2.DateColumn(short=short, linkify=lambda: "/there/")

    class Ours(django_tables2.Table):
        date = DateColumn(short=short, linkify=lambda: "/there/")

    rows = [{"date": day}]
    with translation.override(language):
        theirs = BoundRow(rows[0], table=Theirs(rows))
        ours = BoundRow(rows[0], table=Ours(rows))
        assert ours.get_cell("date") == theirs.get_cell("date")
        assert ours.get_cell_value("date") == theirs.get_cell_value("date") == day.isoformat()


def test_a_missing_date_is_the_column_s_default_as_before():
    class Theirs(django_tables2.Table):
        date = django_tables2.DateColumn(default="<none>")

    class Ours(django_tables2.Table):
        date = DateColumn(default="<none>")

    rows = [{"date": None}]
    assert BoundRow(rows[0], table=Ours(rows)).get_cell("date") == BoundRow(
        rows[0], table=Theirs(rows)
    ).get_cell("date")
