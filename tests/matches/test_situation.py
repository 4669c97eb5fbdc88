"""The next game's context comes from one selector (issue 26.2): the score before it, the
Crawford game, post-Crawford, the Holland rule, and the cubes and endings that may be
entered. Every form that enters a game offers what it allows: the director's entry, the
correction of a game, the players' report, the board."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import BoardGame, Game, Match, ResultReport
from matches.selectors import CUBES, game_situation, match_score_sheet
from rules.match import Match as RulesMatch
from tests.helpers import page_words

from .test_reports import duel, knockout  # noqa: F401 (the players' fixtures)

pytestmark = pytest.mark.django_db

ENDINGS = ("single", "gammon", "backgammon", "drop", "resigned-1", "resigned-2", "resigned-3")


def offered(page: str, name: str) -> list[str]:
    """The values a page's select ``name`` offers ([] when it has none)."""
    found = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    return re.findall(r'<option value="([^"]*)"', found.group(1)) if found else []


def assert_crawford(page: str) -> None:
    assert offered(page, "cube") == ["1"] and "drop" not in offered(page, "result")
    assert "The Crawford game: no doubling (WBF 24)." in page


def assert_cube_live(page: str) -> None:
    assert offered(page, "cube") == [str(v) for v in CUBES]
    assert offered(page, "result") == list(ENDINGS)
    assert "The Crawford game: no doubling" not in page


# --- through the views ----------------------------------------------------------------------


def test_the_director_s_entry_offers_the_cube_only_post_crawford(director_client, match5, record):
    record(match5, 0, cube=4)  # 4-0: game 2 is the Crawford game
    assert_crawford(director_client.get(match5.get_absolute_url()).content.decode())
    refused = director_client.post(
        reverse("game_new", args=[match5.pk]), {"number": 2, "winner": 1, "cube": 2}
    )
    assert refused.status_code == 400  # no result: the form again, still without a cube
    assert offered(refused.content.decode(), "cube") == ["1", "2"]  # 2 as it was sent
    record(match5, 1)  # 4-1: game 3 is post-Crawford
    assert_cube_live(director_client.get(match5.get_absolute_url()).content.decode())


def test_the_correction_of_game_n_offers_what_game_n_allowed(director_client, match5, record):
    record(match5, 0, cube=2)  # 2-0
    record(match5, 0, cube=2)  # 4-0
    record(match5, 1)  # the Crawford game: 4-1
    record(match5, 1, cube=2)  # post-Crawford: 4-3

    def page(number: int) -> str:
        url = reverse("game_edit", args=[match5.pk, number])
        return director_client.get(url).content.decode()

    assert_cube_live(page(2))
    assert_crawford(page(3))
    assert_cube_live(page(4))


def test_the_players_report_offers_the_cube_only_post_crawford(duel, client):  # noqa: F811
    match, a = duel["match"], duel["a"]
    url = reverse("report", args=[match.pk])
    client.force_login(a)
    assert_cube_live(client.get(url).content.decode())
    client.post(url, {"number": 1, "winner": 0, "cube": 2, "result": "single"})  # 2-0, waiting
    page = client.get(url).content.decode()
    assert "Report game 2" in page_words(client.get(url))
    assert_crawford(page)  # game 2, after the report still waiting, is the Crawford game
    refused = client.post(url, {"number": 2, "winner": 1, "cube": 2, "result": "single"})
    assert refused.status_code == 400
    assert "Game 2 is the Crawford game: no doubling (WBF 24)." in page_words(refused)
    client.post(url, {"number": 2, "winner": 1, "cube": 1, "result": "single"})  # 2-1
    assert_cube_live(client.get(url).content.decode())


@pytest.mark.parametrize(
    ("games", "double"),
    [([(0, 4)], False), ([(0, 4), (1, 1)], True)],
    ids=["crawford", "post-crawford"],
)
def test_the_board_offers_the_double_only_post_crawford(
    director_client, match5, record, games, double
):
    for winner, cube in games:  # 4-0: the Crawford game; 4-1: post-Crawford
        record(match5, winner, cube=cube)
    director_client.post(reverse("board_start", args=[match5.pk]))
    for action, data in (("opening", {"die1": 6, "die2": 1}), ("play", {"play": "13/7 8/7"})):
        board = BoardGame.objects.get(match=match5)
        url = reverse("board_act", args=[match5.pk, board.number])
        director_client.post(url, {"action": action, "version": board.version, **data})
    page = director_client.get(reverse("board", args=[match5.pk])).content.decode()
    assert 'value="roll"' in page and ('value="double"' in page) is double


# --- a report that cannot be checked ----------------------------------------------------------


@pytest.fixture
def broken(duel, record):  # noqa: F811
    """Game 1 recorded (2-0), then a report still waiting whose game 2, the Crawford game,
    was doubled: the rules refuse it. The site never writes it (a report is checked when
    made, and a result written voids it), but a report carried over from elsewhere can."""
    match, a = duel["match"], duel["a"]
    record(match, 0, cube=2)
    ResultReport.objects.create(
        match=match,
        side=0,
        reported_by=a,
        kind=ResultReport.Kind.GAMES,
        first_game=2,
        games=[{"winner": 1, "cube": 2, "result": "single", "resigned": None}],
        match_version=Match.objects.get(pk=match.pk).version,
    )
    return duel


def test_a_report_that_cannot_be_checked_gets_the_rules_refusal_and_no_cube(broken, client):
    match, a, b = broken["match"], broken["a"], broken["b"]
    url = reverse("report", args=[match.pk])
    client.force_login(a)
    page = client.get(url)
    said = page_words(page)
    assert page.status_code == 200
    assert "Game 2 is the Crawford game: no doubling (WBF 24)." in said
    assert "Report game 3" not in said and offered(page.content.decode(), "cube") == []
    sent = client.post(url, {"number": 3, "winner": 0, "cube": 2, "result": "single"})
    assert sent.status_code == 400
    assert "Game 2 is the Crawford game: no doubling (WBF 24)." in page_words(sent)
    assert offered(sent.content.decode(), "cube") == []
    assert ResultReport.objects.get(match=match, status="pending").games[-1]["cube"] == 2
    client.force_login(b)  # the opponent reads the same refusal
    assert "Game 2 is the Crawford game: no doubling (WBF 24)." in page_words(client.get(url))


def test_the_broken_state_is_a_problem_with_the_rules_words(broken):
    match = Match.objects.get(pk=broken["match"].pk)
    report = ResultReport.objects.get(match=match, status="pending")
    situation = game_situation(match=match, pending=report)
    assert (situation.problem, situation.playable, situation.cubes) == ("unchecked", False, ())
    assert situation.refusal == "Game 2 is the Crawford game: no doubling (WBF 24)."
    recorded = game_situation(match=match)  # without the report: game 2, the Crawford game
    assert (recorded.number, recorded.crawford, recorded.cubes) == (2, True, (1,))


# --- the selector against the engine ------------------------------------------------------------


def _outcome(draw, crawford: bool) -> tuple[int, str, int | None]:
    """A game's cube, result and resignation level, as the rules allow them in this game."""
    result = draw(st.sampled_from(["single", "gammon", "backgammon", "drop", "resignation"]))
    if crawford and result == "drop":
        result = "single"
    cube = 1 if crawford else draw(st.sampled_from(CUBES[:4]))
    resigned = draw(st.integers(1, 3)) if result == "resignation" else None
    return cube, result, resigned


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), length=st.sampled_from([1, 3, 5, 7, 9]), holland=st.booleans())
def test_the_situation_is_the_engine_s_for_every_game(data, length, holland, anna, bruno):
    match = Match.objects.create(player_a=anna, player_b=bruno, length=length, holland=holland)
    engine = RulesMatch(length, holland=holland)
    games: list[Game] = []
    played = data.draw(st.integers(0, 2 * length))
    while not engine.over and len(games) < played:
        cube, result, resigned = _outcome(data.draw, engine.next_game.crawford)
        game = Game(
            match=match,
            number=len(games) + 1,
            winner=data.draw(st.integers(0, 1)),
            cube=cube,
            result=result,
            resigned=resigned,
        )
        games.append(game)
        engine = engine.add(game.as_result())
    Game.objects.bulk_create(games)
    match = Match.objects.get(pk=match.pk)
    rows = match_score_sheet(match=match).rows
    for number in range(1, len(games) + 2):
        situation = game_situation(match=match, number=number)
        before = RulesMatch(length, tuple(g.as_result() for g in games[: number - 1]))
        if before.over:
            assert situation.problem == "over" and situation.score == before.score
            continue
        expected = before.next_game
        assert situation.playable and situation.number == number == expected.number
        assert situation.score == expected.score
        assert (situation.crawford, situation.post_crawford) == (
            expected.crawford,
            expected.post_crawford,
        )
        assert (situation.length, situation.holland) == (length, holland)
        assert situation.cubes == ((1,) if expected.crawford else CUBES)
        assert ("drop" in situation.results) is not expected.crawford
        assert situation.context.crawford == expected.crawford
        if number <= len(rows):  # the sheet's line says the same
            row = rows[number - 1]
            assert (row.score_before, row.crawford, row.post_crawford) == (
                situation.score,
                situation.crawford,
                situation.post_crawford,
            )
    assert game_situation(match=match).number == len(games) + 1


def test_a_game_with_no_games_before_it_is_missing(match5):
    assert game_situation(match=match5, number=3).problem == "missing"
    assert game_situation(match=match5, number=1).playable


def test_a_match_with_its_result_recorded_another_way_has_no_next_game(match5, director):
    from matches.services import match_walkover

    match_walkover(match=match5, winner=0, user=director, version=match5.version)
    situation = game_situation(match=Match.objects.get(pk=match5.pk))
    assert situation.problem == "recorded" and situation.cubes == ()
