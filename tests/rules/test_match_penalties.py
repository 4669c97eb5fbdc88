"""A match's history with penalty points and forfeits (tournament rules), the games (WBF 3, 24).

Lateness and a director's penalties give the opponent points between games; a flag fallen
on a clock or lateness past the limit forfeits the match. The score before each game, the
Crawford game (WBF 24) and the winner are derived from all of it; nothing follows a won match.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalActionError, MatchOverError
from rules.clock import flag_result
from rules.match import (
    Forfeit,
    ForfeitReason,
    GameResult,
    Match,
    MatchRules,
    Outcome,
    Penalty,
    PenaltyReason,
    ScoredForfeit,
    ScoredGame,
    ScoredPenalty,
    check_result,
    checked_match,
)
from rules.messages import Message
from rules.position import Position
from tests.rules.helpers import StrictTranslator, board


def win(player, points=1, cube=1, outcome=Outcome.SINGLE):
    return GameResult(winner=player, points=points, outcome=outcome, cube=cube)


def gammon(player):
    return GameResult(winner=player, points=2, outcome=Outcome.GAMMON)


def late(player, points):
    return Penalty(player=player, points=points, reason=PenaltyReason.LATENESS)


# --- the values ------------------------------------------------------------------


@pytest.mark.parametrize("points", [0, -1, True, 1.5])
def test_a_penalty_is_at_least_one_point_like_a_game(points):
    with pytest.raises(ValueError, match="at least 1 point"):
        Penalty(player=0, points=points)


@pytest.mark.parametrize("player", [2, -1, True, None])
def test_penalties_and_forfeits_name_player_0_or_1(player):
    with pytest.raises(ValueError, match="player 0 or 1"):
        Penalty(player=player, points=1)
    with pytest.raises(ValueError, match="player 0 or 1"):
        Forfeit(player=player, reason=ForfeitReason.TIME)


def test_reasons_read_from_their_values_and_default_to_the_director():
    assert Penalty(player=1, points=2).reason is PenaltyReason.DIRECTOR
    assert Penalty(player=1, points=2, reason="lateness").reason is PenaltyReason.LATENESS
    assert Forfeit(player=0, reason="time").reason is ForfeitReason.TIME
    with pytest.raises(ValueError):
        Forfeit(player=0, reason="boredom")
    assert Penalty(1, 2) == Penalty(1, 2, PenaltyReason.DIRECTOR)  # immutable values
    with pytest.raises(AttributeError):
        Penalty(1, 2).points = 3


# --- the score ------------------------------------------------------------------------


def test_a_history_of_games_alone_is_scored_as_before():
    match = Match(5, (win(0, 2), win(1), win(0, 2)))
    assert match.score == (4, 1) and match.penalties == () and match.forfeit is None
    assert match.history == match.games and [g.number for g in match.games] == [1, 2, 3]


def test_a_penalty_scores_for_the_opponent_before_the_next_game_tournament_rules():
    match = Match(7, (late(0, 2), win(0, 2), Penalty(1, 1)))
    assert match.score == (3, 2)
    first, second = match.penalties
    assert first == ScoredPenalty(1, late(0, 2), (0, 0), (0, 2))
    assert (second.before_game, second.score_before, second.score_after) == (2, (2, 2), (3, 2))
    assert match.games[0].score_before == (0, 2) and match.games[0].number == 1
    assert [type(item) for item in match.history] == [ScoredPenalty, ScoredGame, ScoredPenalty]
    assert match.next_game.score == (3, 2) and match.next_game.number == 2


def test_penalty_points_are_capped_at_the_length_and_reaching_it_wins_the_match():
    match = Match(5, (win(0, 3), Penalty(1, 4)))
    assert match.score == (5, 0) and match.winner == 0 and match.over
    assert match.penalties[0].points == 2  # only what reached the length counts (Galore 4)
    assert isinstance(match.won_by, ScoredPenalty)


def test_a_forfeit_puts_the_opponent_at_the_length_and_the_loser_keeps_theirs():
    match = Match(7, (win(0, 2), win(1, 4), Forfeit(1, ForfeitReason.TIME)))
    assert match.score == (7, 4) and match.winner == 0
    assert match.forfeit == ScoredForfeit(2, Forfeit(1, ForfeitReason.TIME), (2, 4), (7, 4))
    lateness = Match(7, (late(1, 3), Forfeit(1, ForfeitReason.LATENESS)))
    assert lateness.score == (7, 0) and lateness.games == () and lateness.winner == 0


def test_add_takes_any_entry_and_equal_histories_make_equal_matches():
    built = Match(5).add(late(1, 1)).add(win(1)).add(Forfeit(0, ForfeitReason.TIME))
    assert built == Match(5, (late(1, 1), win(1), Forfeit(0, ForfeitReason.TIME)))
    assert built.score == (1, 5)


# --- the Crawford game (WBF 24) ---------------------------------------------------------


def test_a_penalty_bringing_a_player_one_point_short_makes_the_next_game_crawford_wbf_24():
    match = Match(5, (win(0, 2), late(0, 4)))  # 2-4: the first time anybody is 4-away
    assert match.next_game.crawford and match.crawford_game == 2
    match = match.add(win(0, 2))
    assert match.games[1].crawford and match.next_game.post_crawford
    assert not match.next_game.crawford


def test_a_penalty_before_the_first_game_can_make_it_the_crawford_game_wbf_24():
    match = Match(5, (late(0, 4),))
    assert match.next_game.crawford and match.next_game.number == 1


def test_a_penalty_when_the_next_game_is_already_crawford_leaves_it_crawford_wbf_24():
    match = Match(7, (win(0, 6), late(0, 2)))  # 6-0, then 6-2 before the Crawford game
    assert match.next_game.crawford and match.crawford_game == 2
    match = Match(7, (win(0, 6), late(0, 6)))  # 6-6: still the Crawford game, then DMP
    assert match.next_game.crawford
    match = match.add(win(1))
    assert match.winner == 1 and sum(g.crawford for g in match.games) == 1


def test_post_crawford_stays_post_crawford_after_a_penalty_wbf_24():
    match = Match(5, (win(0, 4), win(1), Penalty(0, 2)))  # Crawford game played, 4-3
    assert not match.next_game.crawford and match.next_game.post_crawford
    match = match.add(win(1, 2, cube=2))  # the cube is back (post-Crawford)
    assert match.score == (4, 5)


def test_the_crawford_game_refuses_a_double_after_a_penalty_made_it_wbf_24():
    match = Match(5, (late(1, 4),))
    with pytest.raises(IllegalActionError, match="WBF 24"):
        check_result(match.next_game, win(1, 2, cube=2))
    with pytest.raises(IllegalActionError, match="WBF 24: game 1 is the Crawford game"):
        checked_match(5, [late(1, 4), win(1, 2, cube=2)])


def test_a_point_of_penalty_wins_a_one_point_match_tournament_rules():
    match = Match(1, (Penalty(0, 1),))
    assert match.winner == 1 and match.games == () and match.crawford_game is None


def test_without_the_crawford_rule_a_penalty_makes_no_crawford_game():
    match = Match(5, (late(0, 4),), options=MatchRules(5, crawford=False))
    assert not match.next_game.crawford


# --- nothing follows a won match ----------------------------------------------------------


def test_nothing_follows_a_match_won_by_a_game_wbf_3_and_tournament_rules():
    with pytest.raises(MatchOverError, match="WBF 3: game 2 was recorded after"):
        Match(1, (win(0), win(1)))
    with pytest.raises(MatchOverError) as penalty:
        Match(1, (win(0), Penalty(0, 1)))
    assert penalty.value.rule == "tournament rules" and penalty.value.key == "penalty-after-win"
    with pytest.raises(MatchOverError) as forfeit:
        Match(3, (win(0, 3), Forfeit(1, ForfeitReason.TIME)))
    assert forfeit.value.rule == "tournament rules" and forfeit.value.key == "forfeit-after-win"


def test_nothing_follows_a_match_won_by_penalty_points_or_a_forfeit_tournament_rules():
    with pytest.raises(MatchOverError) as after_penalty:
        Match(3, (Penalty(1, 3), win(1)))
    assert after_penalty.value.key == "game-after-penalty-win"
    assert after_penalty.value.rule == "tournament rules"
    assert str(after_penalty.value) == (
        "tournament rules: game 1 could not have been played: penalty points won the match 3-0"
    )
    with pytest.raises(MatchOverError) as after_forfeit:
        Match(3, (win(0), Forfeit(0, ForfeitReason.LATENESS), win(0)))
    assert after_forfeit.value.key == "game-after-forfeit"
    with pytest.raises(MatchOverError, match="forfeit could not have happened"):
        Match(3, (Forfeit(0, ForfeitReason.TIME), Forfeit(1, ForfeitReason.TIME)))


def test_checked_match_refuses_the_first_entry_after_the_win_tournament_rules():
    with pytest.raises(MatchOverError) as game:
        checked_match(3, [gammon(0), win(0), win(1)])
    assert game.value.key == "game-after-win" and game.value.rule == "WBF 3"
    with pytest.raises(MatchOverError) as penalty:
        checked_match(3, [gammon(0), win(0), late(0, 1)])
    assert penalty.value.key == "penalty-after-win" and penalty.value.rule == "tournament rules"
    assert penalty.value.params["number"] == 3
    with pytest.raises(MatchOverError) as game_after_penalty:
        checked_match(3, [Penalty(0, 3), win(0)])
    assert game_after_penalty.value.key == "game-after-penalty-win"
    with pytest.raises(MatchOverError) as after_forfeit:
        checked_match(3, [Forfeit(1, ForfeitReason.TIME), late(1, 1)])
    assert after_forfeit.value.key == "penalty-after-win"


def test_checked_match_takes_a_history_with_penalties_as_match_does():
    history = [late(0, 2), gammon(0), Penalty(1, 1), win(1, 2, cube=2)]
    assert checked_match(7, history) == Match(7, tuple(history))
    assert checked_match(7, history).score == (3, 4)


def test_the_new_refusals_render_in_any_language():
    strict = StrictTranslator()
    refusals = []
    for history in (
        [win(0), Penalty(0, 1)],
        [win(0), Forfeit(0, ForfeitReason.TIME)],
        [Penalty(1, 1), win(0)],
        [Forfeit(1, ForfeitReason.TIME), win(0)],
    ):
        with pytest.raises(MatchOverError) as refusal:
            checked_match(1, history)
        refusals.append(refusal.value)
    for refusal in refusals:
        assert refusal.sentence(strict).startswith("«") and refusal.rule == "tournament rules"
        assert Message.from_dict(refusal.message.as_dict()) == refusal.message


# --- a flag fallen: the game lost at the current cube, with gammons (tournament rules) -----


def test_a_flag_early_in_the_game_loses_a_backgammon_at_the_cube_wbf_25():
    result = flag_result(Position.start(), loser=1, cube=2)
    assert result == win(0, 6, cube=2, outcome=Outcome.BACKGAMMON)


def test_a_flag_loses_a_gammon_or_a_single_as_the_board_stands_wbf_25():
    # the loser (on roll) has every checker home and none off: a gammon
    gammon = board({6: 5, 5: 5, 4: 5}, {1: 2})
    assert flag_result(gammon, loser=0, cube=4) == win(1, 8, cube=4, outcome=Outcome.GAMMON)
    # the loser has borne one off: a single game at the cube
    single = board({6: 5, 5: 5, 4: 4}, {1: 2})
    assert flag_result(single, loser=1, cube=1) == win(0, 1)
    # a checker on the bar: a backgammon
    bar = board({6: 5, 5: 5, 4: 4, 25: 1}, {1: 2})
    assert flag_result(bar, loser=0, cube=1).outcome is Outcome.BACKGAMMON


def test_a_flag_of_the_player_not_on_roll_reads_the_other_side_of_the_board():
    # the opponent of the player on roll (their checkers all home, none off) flags: a gammon
    position = board({1: 2}, {6: 5, 5: 5, 4: 5})
    result = flag_result(position, loser=1, cube=1, on_roll=0)
    assert result == win(0, 2, outcome=Outcome.GAMMON)


def test_a_flag_result_is_a_possible_result_and_scores_in_the_match_wbf_24_25():
    match = Match(5, (win(0, 4),))  # the Crawford game: the cube is at 1
    result = flag_result(Position.start(), loser=0, cube=1)
    check_result(match.next_game, result)
    assert match.add(result).score == (4, 3)


@pytest.mark.parametrize("cube", [0, 3, -2])
def test_a_flag_result_needs_a_cube_that_a_cube_shows_wbf_23(cube):
    with pytest.raises(IllegalActionError, match="WBF 23"):
        flag_result(Position.start(), loser=0, cube=cube)


# --- properties (hypothesis) -------------------------------------------------------------

ENTRIES = st.one_of(
    st.builds(
        GameResult,
        winner=st.integers(0, 1),
        points=st.integers(1, 4),
    ),
    st.builds(
        Penalty,
        player=st.integers(0, 1),
        points=st.integers(1, 5),
        reason=st.sampled_from(list(PenaltyReason)),
    ),
    st.builds(Forfeit, player=st.integers(0, 1), reason=st.sampled_from(list(ForfeitReason))),
)


def until_won(length, entries):
    """The entries up to the one that wins the match (all of them if none does)."""
    match = Match(length)
    kept = []
    for entry in entries:
        if match.over:
            break
        match = match.add(entry)
        kept.append(entry)
    return match, kept


@settings(max_examples=300, deadline=None)
@given(length=st.sampled_from([1, 3, 5, 7, 9, 11]), entries=st.lists(ENTRIES, max_size=30))
def test_any_history_derives_a_rising_score_and_one_crawford_game_wbf_24(length, entries):
    match, kept = until_won(length, entries)
    score = (0, 0)
    for item in match.history:
        assert item.score_before == score
        assert all(a >= b for a, b in zip(item.score_after, item.score_before, strict=True))
        assert max(item.score_after) <= length
        score = item.score_after
    assert match.score == score
    crawford = [g.number for g in match.games if g.crawford]
    one_short = [g.number for g in match.games if length > 1 and length - 1 in g.score_before]
    assert crawford == one_short[:1]  # the first game played one point short, and only it
    assert [g.number for g in match.games] == list(range(1, len(match.games) + 1))
    if match.forfeit is not None:
        assert match.history[-1] is match.forfeit and match.winner == match.forfeit.forfeit.winner
    assert match == Match(length, tuple(kept))  # derived again from the same history


@settings(max_examples=200, deadline=None)
@given(
    length=st.sampled_from([1, 3, 5]),
    entries=st.lists(ENTRIES, min_size=1, max_size=30),
    extra=ENTRIES,
)
def test_nothing_is_added_to_a_won_match_tournament_rules(length, entries, extra):
    match, _ = until_won(length, entries)
    if not match.over:
        return
    with pytest.raises(MatchOverError) as refused:
        match.add(extra)
    expected_rule = "WBF 3" if isinstance(match.won_by, ScoredGame) else "tournament rules"
    if not isinstance(extra, GameResult):
        expected_rule = "tournament rules"
    assert refused.value.rule == expected_rule
