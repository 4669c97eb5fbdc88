"""A withdrawn player stays in a Swiss's standings, ranked on what they played, and is
marked as withdrawn there: on the page (English and Italian), in the CSV and in the API."""

import csv
import io
import random
import re

import pytest

from tournaments.models import Entry, Event
from tournaments.services import entry_withdraw, event_draw

from .helpers import play_everything

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss_with_a_withdrawal(event_with, finish, director):
    """A 6-player Swiss of 3 rounds, round 1 played, then one of its players withdraws."""
    event = event_with(Event.Format.SWISS, 6, swiss_rounds=3)
    event_draw(event=event, seed=7, user=director)
    play_everything(event, finish, random.Random(7))
    gone = Entry.objects.filter(event=event).select_related("player").order_by("seed").first()
    entry_withdraw(entry=gone, user=director)
    return event, gone.player


def standings_rows(html: str) -> dict[str, str]:
    """Each row of the standings table as text, by the player's name in it."""
    table = re.search(r'<table[^>]*class="table standings".*?</table>', html, re.S).group(0)
    rows = {}
    for row in re.findall(r"<tr.*?</tr>", table, re.S)[1:]:
        cells = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
        name = re.search(r'<a href="/players/\d+/">([^<]+)</a>', row).group(1)
        rows[name] = cells
    return rows


@pytest.mark.parametrize(("language", "word"), [("en", "withdrawn"), ("it", "ritirato")])
def test_the_standings_page_marks_a_withdrawn_player(
    client, swiss_with_a_withdrawal, language, word
):
    event, gone = swiss_with_a_withdrawal
    page = client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    rows = standings_rows(page.content.decode())
    assert len(rows) == 6  # still ranked on the round they played
    assert word in rows[gone.name]
    assert [name for name, cells in rows.items() if word in cells] == [gone.name]


def test_the_standings_csv_has_a_withdrawn_column(client, swiss_with_a_withdrawal):
    event, gone = swiss_with_a_withdrawal
    response = client.get(event.get_absolute_url() + "?_export=csv")
    rows = list(csv.reader(io.StringIO(response.getvalue().decode())))
    column = rows[0].index("withdrawn")
    flags = {row[1]: row[column] for row in rows[1:]}
    assert flags.pop(gone.name) == "yes"
    assert set(flags.values()) == {""} and len(flags) == 5


def test_the_api_standings_say_who_has_withdrawn(client, swiss_with_a_withdrawal):
    event, gone = swiss_with_a_withdrawal
    table = client.get(f"/api/v1/events/{event.pk}/standings").json()["table"]
    assert len(table) == 6
    assert {row["player"]["id"]: row["withdrawn"] for row in table} == {
        row["player"]["id"]: row["player"]["id"] == gone.pk for row in table
    }
