"""A round robin's ties as its page shows them (issue 25, point 4): the tie-breaks applied
again among the players still level, a place shared only when every tie-break leaves them
level (and the page says who decides it then), and the cross-table of each pool."""

import csv
import io
import random
from typing import get_args

import pytest

from api.schemas import DecidedBy
from tests.helpers import page_words
from tournaments.models import Event
from tournaments.pairing.standings import Decider
from tournaments.queries.events import event_matches
from tournaments.services import event_draw

from .helpers import between, play_everything, tables_cells

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool(event_with, field, director):
    """pool(count): a round robin of one pool, seeded by rating (P01 is seed 1), drawn, and
    play(winner, loser, loser_points), which finishes their match to 7."""

    def make(count):
        players = field(count)
        event = event_with(
            Event.Format.ROUND_ROBIN, players, pools=1, lengths=(7,), seeding=Event.Seeding.RATING
        )
        event_draw(event=event, user=director)
        return event, players

    return make


def play(event, finish, winner, loser, loser_points=0):
    finish(between(event, winner, loser), winner, loser_points)


def standings(event, client, language="en"):
    """The standings table's rows: place, player, ..., what placed them."""
    page = client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    return tables_cells(page.content.decode(), "table standings")[0][1:]


def test_after_a_cycle_the_two_still_level_are_ranked_by_the_match_between_them(
    client, pool, finish
):
    """P01, P02 and P03 beat each other in a circle and all beat P04. P01 and P02 are level
    on wins, head-to-head wins and points difference (+9 each), and P02 beat P01: P02 is 1st
    and P01 2nd, not both 1st in seed order."""
    event, (p1, p2, p3, p4) = pool(4)
    play(event, finish, p2, p1, 2)
    play(event, finish, p1, p3, 0)
    play(event, finish, p3, p2, 4)
    for player in (p1, p2, p3):
        play(event, finish, player, p4)
    rows = standings(event, client)
    assert [(row[0], row[1]) for row in rows] == [
        ("1", "P02"),
        ("2", "P01"),
        ("3", "P03"),
        ("4", "P04"),
    ]
    assert [row[-1] for row in rows] == [
        "head-to-head",
        "head-to-head",
        "head-to-head points difference",
        "wins",
    ]
    words = page_words(client.get(event.get_absolute_url()))
    assert (
        "separated by these tie-breaks, in this order: head-to-head: their wins in the matches "
        "among just those players; the points difference in those matches; the points "
        "difference in all their matches; the points scored in all their matches." in words
    )
    assert "those still level start again from the first, among themselves only" in words
    italian = standings(event, client, "it")
    assert [(row[0], row[1], row[-1]) for row in italian[:2]] == [
        ("1", "P02", "scontri diretti"),
        ("2", "P01", "scontri diretti"),
    ]
    download = client.get(event.get_absolute_url() + "?_export=csv")
    table = list(csv.reader(io.StringIO(download.getvalue().decode())))
    placed = table[0].index("placed by")
    assert [(row[0], row[1], row[placed]) for row in table[1:3]] == [
        ("1", "P02", "head-to-head"),
        ("2", "P01", "head-to-head"),
    ]
    api = client.get(f"/api/v1/events/{event.pk}/standings").json()["table"]
    assert [(r["rank"], r["player"]["name"], r["shared"], r["decided_by"]) for r in api] == [
        (1, "P02", False, "head_to_head"),
        (2, "P01", False, "head_to_head"),
        (3, "P03", False, "head_to_head_difference"),
        (4, "P04", False, "wins"),
    ]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            [
                "Level after every tie-break: P01, P02, P03 share place 1. "
                "The director decides between them, or a play-off.",
                "share the place (shown as “=2”): the director decides between them, "
                "by a play-off match",
            ],
        ),
        (
            "it",
            [
                "Pari dopo ogni criterio di spareggio: P01, P02, P03 condividono il posto 1. "
                "Decide tra loro il direttore, o una partita di spareggio.",
                "condividono il posto (indicato come “=2”): decide il direttore, con una "
                "partita di spareggio",
            ],
        ),
    ],
)
def test_a_full_tie_shares_the_place_and_says_who_decides(client, pool, finish, language, words):
    event, (p1, p2, p3) = pool(3)
    play(event, finish, p1, p2, 3)
    play(event, finish, p2, p3, 3)
    play(event, finish, p3, p1, 3)
    rows = standings(event, client, language)
    assert [(row[0], row[1]) for row in rows] == [("=1", "P01"), ("=1", "P02"), ("=1", "P03")]
    said = page_words(client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language))
    assert all(sentence in said for sentence in words)
    api = client.get(f"/api/v1/events/{event.pk}/standings").json()["table"]
    assert {(r["rank"], r["shared"], r["decided_by"]) for r in api} == {(1, True, "shared")}


def test_the_api_names_each_tie_break_the_pairing_code_knows():
    assert set(get_args(DecidedBy)) == {decider.value for decider in Decider}


def test_a_tie_mid_event_says_nothing_of_a_play_off_yet(client, pool, finish):
    event, (p1, p2, p3, p4) = pool(4)
    play(event, finish, p1, p4, 3)
    play(event, finish, p2, p3, 3)
    rows = standings(event, client)
    assert [(row[0], row[1]) for row in rows] == [
        ("=1", "P01"),
        ("=1", "P02"),
        ("=3", "P03"),
        ("=3", "P04"),
    ]
    assert "Level after every tie-break" not in page_words(client.get(event.get_absolute_url()))


def test_the_cross_table_shows_each_pool_s_results_from_both_sides(
    client, event_with, finish, director
):
    """Seven players in two pools: a table each, the row's player's points first."""
    event = event_with(Event.Format.ROUND_ROBIN, 7, pools=2, lengths=(7,))
    event_draw(event=event, seed=25, user=director)
    rng = random.Random(25)
    for match in event_matches(event=event):
        finish(match, rng.choice((match.player_a, match.player_b)), rng.randrange(7))
    page = client.get(event.get_absolute_url()).content.decode()
    tables = tables_cells(page, "crosstable")
    assert sorted(len(table) - 1 for table in tables) == [3, 4]  # a heading row and a player each
    cells = {}
    for heading, *rows in tables:
        assert heading[1:-2] == [str(n) for n in range(1, len(rows) + 1)]
        names = [row[0].split(" ", 1)[1] for row in rows]
        for number, row in enumerate(rows):
            assert row[0] == f"{number + 1} {names[number]}"
            assert row[1 + number] == ""  # the diagonal: nobody plays themselves
            cells |= {
                (names[number], other): cell
                for other, cell in zip(names, row[1:-2], strict=True)
                if other != names[number]
            }
    matches = list(event_matches(event=event))
    assert len(cells) == 2 * len(matches) == 2 * (3 + 6)
    for match in matches:
        a, b = match.player_a.name, match.player_b.name
        score = (match.final_score_a, match.final_score_b)
        won, lost = ("W", "L") if score[0] > score[1] else ("L", "W")
        assert cells[a, b] == f"{won} {score[0]}–{score[1]}"
        assert cells[b, a] == f"{lost} {score[1]}–{score[0]}"
    italian = client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it")
    italian_cells = [
        c for t in tables_cells(italian.content.decode(), "crosstable") for r in t for c in r
    ]
    assert any(c.startswith("V 7–") for c in italian_cells)
    assert any(c.startswith("P ") and c.endswith("–7") for c in italian_cells)


def test_the_cross_table_marks_a_match_still_to_play(client, pool, finish):
    event, _ = pool(3)
    play_everything(event, finish, random.Random(1), limit=1)
    page = client.get(event.get_absolute_url()).content.decode()
    (table,) = tables_cells(page, "crosstable")
    played = [c for row in table[1:] for c in row[1:4] if c.startswith(("W ", "L "))]
    waiting = [c for row in table[1:] for c in row[1:4] if c == "–"]
    assert (len(played), len(waiting)) == (2, 4)
