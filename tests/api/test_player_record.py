"""The API's player detail counts matches won and lost as the player's page does: one aggregate
in the database (issue 29), the same figures as every match's score sheet, and a query count
that does not grow with the player's history."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from club.models import Player
from club.policy import SYSTEM
from club.services import player_create
from matches.models import Match
from matches.penalties import match_forfeit, match_penalty_award
from matches.selectors import player_matches, player_record
from matches.services import (
    game_record,
    match_create,
    match_record_final_score,
    match_retire,
    match_walkover,
)
from tournaments.queries.players import player_record_counted

pytestmark = pytest.mark.django_db

API = "/api/v1/"


def figures(client, player) -> tuple[int, int]:
    response = client.get(f"{API}players/{player.pk}")
    assert response.status_code == 200, response.content
    found = response.json()
    return found["matches_won"], found["matches_lost"]


def sheets(player) -> tuple[int, int]:
    """Won and lost as every match's score sheet decides it: the slow twin."""
    return player_record(player=player, matches=list(player_matches(player=player)))


@pytest.fixture
def people(db):
    return [player_create(name=name, user=SYSTEM) for name in ("Ada", "Bea", "Cleo")]


def ending(match: Match, how: str, me: int) -> None:
    """End (or not) one of Ada's 3-point matches as ``how`` says; ``me`` is Ada's side."""
    you = 1 - me

    def games(*played: tuple[int, int, str]) -> None:
        for number, (winner, cube, result) in enumerate(played, start=1):
            fresh = Match.objects.get(pk=match.pk)
            game_record(
                match=fresh, number=number, winner=winner, cube=cube, result=result, user=SYSTEM
            )

    fresh = Match.objects.get(pk=match.pk)
    if how == "won by games":
        games((me, 1, "gammon"), (you, 1, "single"), (me, 1, "single"))
    elif how == "lost by games":
        games((you, 1, "backgammon"))
    elif how == "won with a penalty":
        match_penalty_award(match=fresh, side=you, points=2, reason="lateness", user=SYSTEM)
        games((me, 1, "single"))
    elif how == "lost by retiring":
        games((me, 1, "single"))
        match_retire(match=Match.objects.get(pk=match.pk), side=me, user=SYSTEM)
    elif how == "won by the other's retiring":
        match_retire(match=fresh, side=you, user=SYSTEM)
    elif how == "lost by forfeit":
        games((me, 2, "single"))
        match_forfeit(match=Match.objects.get(pk=match.pk), side=me, reason="time", user=SYSTEM)
    elif how == "won by the other's forfeit":
        match_forfeit(match=fresh, side=you, reason="lateness", user=SYSTEM)
    elif how == "won by walkover":
        match_walkover(match=fresh, winner=me, user=SYSTEM)
    elif how == "lost by final score":
        score = {me: 1, you: 3}
        match_record_final_score(match=fresh, score_a=score[0], score_b=score[1], user=SYSTEM)
    elif how == "unfinished":
        games((you, 1, "single"))
    else:
        assert how == "not begun", how


ENDINGS = [
    "won by games",
    "lost by games",
    "won with a penalty",
    "lost by retiring",
    "won by the other's retiring",
    "lost by forfeit",
    "won by the other's forfeit",
    "won by walkover",
    "lost by final score",
    "unfinished",
    "not begun",
]


def play(ada: Player, other: Player, how: str, *, me: int = 0) -> Match:
    a, b = (ada, other) if me == 0 else (other, ada)
    match = match_create(player_a=a, player_b=b, length=3, user=SYSTEM)
    ending(match, how, me)
    return match


def test_every_way_a_match_ends_counts_as_the_player_s_page_and_the_sheets(client, people):
    """Wins, losses, a retirement, a forfeit, a walkover, a final score, a match in play and
    one not begun, with Ada on either side: the API's figures are the page's and the sheets'."""
    ada, bea, cleo = people
    for me, other in ((0, bea), (1, cleo)):
        for how in ENDINGS:
            play(ada, other, how, me=me)
    counted = player_record_counted(player=ada)
    assert figures(client, ada) == (counted.won, counted.lost) == sheets(ada)
    # five wins and four losses a side; the unfinished and the unbegun count for neither
    assert figures(client, ada) == (10, 8)
    for other in (bea, cleo):
        assert figures(client, other) == sheets(other) == (4, 5)


@settings(max_examples=30)
@given(
    played=st.lists(
        st.tuples(st.sampled_from(ENDINGS), st.integers(0, 1), st.integers(1, 2)), max_size=8
    )
)
def test_any_history_counts_as_its_score_sheets(played):
    """A property: whatever Ada's matches and however they ended, the API says what the
    sheets say, for her and for each opponent."""
    from django.core.cache import cache
    from django.test import Client

    cache.clear()  # each example's requests start unthrottled
    client = Client()
    with transaction.atomic():
        ada, bea, cleo = [player_create(name=n, user=SYSTEM) for n in ("Ada", "Bea", "Cleo")]
        others = {1: bea, 2: cleo}
        for how, me, other in played:
            play(ada, others[other], how, me=me)
        for player in (ada, bea, cleo):
            assert figures(client, player) == sheets(player)
        transaction.set_rollback(True)


def queries_for(client, player) -> list[str]:
    with CaptureQueriesContext(connection) as seen:
        figures(client, player)
    return [query["sql"] for query in seen.captured_queries]


def test_the_player_costs_the_same_queries_for_3_matches_or_30(client, people):
    ada, bea, cleo = people
    for n in range(3):
        play(ada, bea, ENDINGS[n % len(ENDINGS)], me=n % 2)
    for n in range(30):
        play(cleo, bea, ENDINGS[n % len(ENDINGS)], me=n % 2)
    few, many = queries_for(client, ada), queries_for(client, cleo)
    assert len(few) == len(many)
    # the ETag's key, the player, one aggregate: no match, game or penalty row is loaded
    assert len(many) == 3
    assert not [sql for sql in many if sql.startswith(('SELECT "matches_', "SELECT DISTINCT"))]
    assert figures(client, cleo) == sheets(cleo) and sum(sheets(cleo)) > 20
