"""A player's page lists their matches a page at a time, newest first, while its figures
(played, won, lost) stay over all of them, counted by the database (issue 29): the page's
queries do not grow with the player's history."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

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
from tournaments.views import PER_PAGE

pytestmark = pytest.mark.django_db

START = datetime.date(2026, 1, 1)


def rows(page: str) -> list[str]:
    """The body rows of the player's matches table, as the HTML of each."""
    table = re.search(r'<table[^>]*id="player-matches".*?</table>', page, re.S).group(0)
    body = re.search(r"<tbody.*?</tbody>", table, re.S).group(0)
    return re.findall(r"<tr[^>]*>.*?</tr>", body, re.S)


def match_links(page: str) -> list[int]:
    """The matches the table lists, in its order (each row's date links to its match)."""
    found = [re.search(r'href="/matches/(\d+)/"', row) for row in rows(page)]
    return [int(link.group(1)) for link in found if link]


def fact(page: str, name: str) -> str:
    return re.search(rf'<dd class="{name}">([^<]*)</dd>', page).group(1).strip()


def history(player, others, count: int) -> list[Match]:
    """``count`` matches of ``player``, one a day from START, won and lost in turn, some by
    their games (with a penalty), some by their final score; oldest first."""
    made = []
    for n in range(count):
        other = others[n % len(others)]
        a_side = n % 3 != 0  # the player on either side of the sheet
        a, b = (player, other) if a_side else (other, player)
        match = match_create(player_a=a, player_b=b, length=3, user=SYSTEM)
        Match.objects.filter(pk=match.pk).update(date=START + datetime.timedelta(days=n))
        match.refresh_from_db()
        player_wins = n % 2 == 0
        winner = (0 if a_side else 1) if player_wins else (1 if a_side else 0)
        if n % 4 == 1:  # by games and a penalty point
            match_penalty_award(
                match=match, side=1 - winner, points=1, reason="lateness", user=SYSTEM
            )
            game_record(match=match, number=1, winner=winner, cube=2, result="single", user=SYSTEM)
        else:
            scores = (3, 1) if winner == 0 else (1, 3)
            match_record_final_score(match=match, score_a=scores[0], score_b=scores[1], user=SYSTEM)
        made.append(match)
    return made


@pytest.fixture
def people(db):
    return [player_create(name=name, user=SYSTEM) for name in ("Ada", "Bea", "Cleo", "Dora")]


def test_every_way_a_match_ends_is_counted_as_its_score_sheet_decides(people):
    """Games of every kind, penalty points that win, a forfeit, a retirement, a walkover, a
    final score, a match in play and one not begun: the database's count is the sheets'."""
    ada, bea, cleo, _dora = people
    made = [
        match_create(player_a=ada, player_b=other, length=5, user=SYSTEM)
        for other in [bea, cleo] * 6
    ]
    game_record(match=made[0], number=1, winner=0, cube=2, result="gammon", user=SYSTEM)
    game_record(match=made[0], number=2, winner=1, cube=1, result="backgammon", user=SYSTEM)
    game_record(
        match=made[0], number=3, winner=1, cube=1, result="resignation", resigned=2, user=SYSTEM
    )
    game_record(match=made[1], number=1, winner=0, cube=4, result="drop", user=SYSTEM)
    game_record(match=made[1], number=2, winner=1, cube=1, result="single", user=SYSTEM)
    game_record(match=made[1], number=3, winner=0, cube=2, result="single", user=SYSTEM)
    match_penalty_award(match=made[2], side=0, points=2, reason="director", note="x", user=SYSTEM)
    game_record(match=made[2], number=1, winner=0, cube=4, result="single", user=SYSTEM)
    match_penalty_award(match=made[2], side=0, points=3, reason="director", note="x", user=SYSTEM)
    game_record(match=made[3], number=1, winner=0, cube=2, result="gammon", user=SYSTEM)
    match_forfeit(match=made[3], side=0, reason="time", user=SYSTEM)
    game_record(match=made[4], number=1, winner=1, cube=2, result="gammon", user=SYSTEM)
    match_retire(match=made[4], side=1, user=SYSTEM)
    match_walkover(match=made[5], winner=1, user=SYSTEM)
    match_walkover(match=made[6], winner=0, user=SYSTEM)
    match_record_final_score(match=made[7], score_a=2, score_b=5, user=SYSTEM)
    game_record(match=made[8], number=1, winner=0, cube=2, result="single", user=SYSTEM)  # in play
    for player in people:
        sheets = player_record(player=player, matches=list(player_matches(player=player)))
        counted = player_record_counted(player=player)
        assert (counted.won, counted.lost) == sheets
        assert counted.played == sum(sheets)
    assert player_record_counted(player=ada).played == 8  # the in-play and unbegun not counted


def test_the_matches_come_a_page_at_a_time_newest_first_the_figures_over_all(client, people):
    ada, *others = people
    made = history(ada, others, 60)
    newest = [m.pk for m in reversed(made)]
    page = client.get(ada.get_absolute_url()).content.decode()
    assert match_links(page) == newest[:PER_PAGE]
    assert (fact(page, "played"), fact(page, "won"), fact(page, "lost")) == ("60", "30", "30")
    third = client.get(ada.get_absolute_url(), {"matches-page": 3}).content.decode()
    assert match_links(third) == newest[2 * PER_PAGE :]
    assert fact(third, "won") == "30"
    # the pager links to the next page of the matches, keeping the table's own page number
    assert "matches-page=2" in page


def test_no_address_makes_one_page_hold_the_whole_history(client, people):
    ada, *others = people
    made = history(ada, others, 30)
    newest = [m.pk for m in reversed(made)]
    url = ada.get_absolute_url()
    whole = client.get(url, {"matches-per_page": 1000, "per_page": 1000}).content.decode()
    assert len(rows(whole)) == PER_PAGE
    assert match_links(client.get(url, {"matches-page": "x"}).content.decode()) == newest[:PER_PAGE]
    past = client.get(url, {"matches-page": 99}).content.decode()
    assert match_links(past) == newest[PER_PAGE:]  # past the end: the last page
    assert client.get(url, {"matches-page": -1}).status_code == 200


def test_the_rating_history_pages_on_its_own(client, people):
    """Each table has its own page number: the ratings' second page leaves the matches on
    their first."""
    ada, *others = people
    made = history(ada, others, 30)
    page = client.get(ada.get_absolute_url(), {"page": 2}).content.decode()
    assert match_links(page) == [m.pk for m in reversed(made)][:PER_PAGE]
    ratings = re.search(r'<table[^>]*id="rating-history".*?</table>', page, re.S).group(0)
    assert (
        len(re.findall(r"<tr[^>]*>", re.search(r"<tbody.*?</tbody>", ratings, re.S).group(0))) == 5
    )


def queries_for(client, player) -> int:
    with CaptureQueriesContext(connection) as seen:
        assert client.get(player.get_absolute_url()).status_code == 200
    return len(seen.captured_queries)


@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "director"])
def test_the_page_costs_the_same_queries_for_5_matches_or_60(client, director, people, signed_in):
    ada, bea, cleo, dora = people
    history(ada, [bea], 5)
    history(cleo, [dora, bea], 60)
    if signed_in:
        client.force_login(director)
    few, many = queries_for(client, ada), queries_for(client, cleo)
    assert few == many


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Matches played", "Matches won", "Matches lost"]),
        ("it", ["Partite giocate", "Partite vinte", "Partite perse"]),
    ],
)
def test_the_figures_in_english_and_italian(client, people, language, words):
    ada, *others = people
    history(ada, others, 3)
    page = client.get(ada.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in page
    assert fact(page, "played") == "3"
