"""Match scoring: odd lengths, the one Crawford game, post-Crawford, capped points, the winner."""

import pytest

from rules import InvalidMatchLengthError, MatchOverError
from rules.match import GameResult, Match, check_match_length, score_possible


def win(player, points=1):
    return GameResult(winner=player, points=points)


@pytest.mark.parametrize("length", [0, -3, 2, 4, 10, "7", 7.0, True])
def test_only_odd_positive_lengths_wbf_3(length):
    with pytest.raises(InvalidMatchLengthError, match="WBF 3"):
        check_match_length(length)


def test_crawford_game_is_the_first_after_reaching_length_minus_one_wbf_24():
    match = Match(5, (win(0, 2), win(0, 2)))  # 4-0
    assert match.next_game.crawford and match.crawford_game == 3
    match = match.add(win(1))  # the Crawford game, 4-1
    assert match.games[2].crawford
    assert not match.next_game.crawford and match.next_game.post_crawford
    match = match.add(win(1, 2)).add(win(1))  # 4-4: still post-Crawford, never a second one
    assert [g.crawford for g in match.games] == [False, False, True, False, False]
    assert match.next_game.post_crawford and not match.next_game.crawford


def test_exactly_one_crawford_game_when_both_reach_length_minus_one():
    match = Match(7, (win(0, 6), win(1, 6), win(1, 1)))
    assert sum(g.crawford for g in match.games) == 1
    assert match.games[1].crawford and match.winner == 1


def test_winning_the_crawford_game_ends_the_match():
    match = Match(3, (win(0, 2), win(0)))
    assert match.games[1].crawford and match.winner == 0 and match.over


def test_points_beyond_the_length_carry_no_value_galore_4():
    match = Match(5, (win(0, 3), win(0, 4)))
    assert match.score == (5, 0) and match.games[1].points == 2 and match.winner == 0


def test_a_game_after_the_match_is_over_is_refused():
    with pytest.raises(MatchOverError, match="game 2 was recorded after the match was won 1-0"):
        Match(1, (win(0), win(1)))
    with pytest.raises(MatchOverError):
        Match(1, (win(0),)).next_game  # noqa: B018


def test_jumping_past_length_minus_one_makes_no_crawford_game():
    match = Match(5, (win(0, 2), win(1, 2), win(0, 4)))
    assert match.winner == 0 and not any(g.crawford for g in match.games)


def test_one_point_match_has_no_crawford_game():
    assert not Match(1).next_game.crawford


@pytest.mark.parametrize(
    "length, score, possible",
    [
        (5, (5, 3), True),
        (5, (5, 5), False),
        (5, (6, 2), False),
        (5, (4, 4), True),
        (5, (-1, 0), False),
    ],
)
def test_score_possible(length, score, possible):
    assert score_possible(length, score) is possible


def test_score_before_each_game_is_derived():
    match = Match(7, (win(0, 2), win(1, 1), win(1, 4)))
    assert [g.score_before for g in match.games] == [(0, 0), (2, 0), (2, 1)]
    assert match.score == (2, 5)
