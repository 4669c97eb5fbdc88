"""Legal plays, rule by rule (WBF 15-22, Galore 2.3-2.5, 5.2-5.3)."""

import pytest

from rules import IllegalPlayError, InvalidDiceError, Position, legal_plays
from rules.notation import resolve_play
from tests.rules.helpers import board, naive_results, result_counts

# An opponent parked out of the way: 13 checkers on their ace point (my 24).
PARKED = {1: 13}


def notations(position, dice):
    return sorted(p.notation for p in legal_plays(position, dice))


def test_opening_6_5_has_seven_plays():
    plays = legal_plays(Position.start(), (6, 5))
    assert len(plays) == 7
    assert "24/13" in {p.notation for p in plays}


def test_each_result_once_wbf_plays_that_end_alike_are_one():
    plays = legal_plays(Position.start(), (3, 1))
    results = [p.result for p in plays]
    assert len(results) == len(set(results))


def test_galore_5_3_fig_8_four_three_must_bear_off_two():
    # One checker on 4, one on 3; the opponent holds my 1 point, so 4/1 is blocked.
    position = board({4: 1, 3: 1}, {24: 2, **PARKED})
    assert notations(position, (4, 3)) == ["4/off 3/off"]


def test_galore_5_3_fig_9_four_two_may_bear_off_one_without_a_blot():
    position = board({4: 1, 2: 2}, PARKED)
    plays = {p.notation: p for p in legal_plays(position, (4, 2))}
    # Bearing off two leaves a blot on 2; 4/2 then 2/off bears off one and leaves none.
    assert plays["4/off 2/off"].result.opponent[2] == 1
    quiet = [p for p in plays.values() if p.result.opponent[2] == 2 and p.result.opponent[0] == 13]
    assert len(quiet) == 1
    assert [(s.source, s.destination) for s in quiet[0].steps] == [(4, 2), (2, 0)]


def test_galore_5_3_fig_10_six_four_only_the_six():
    # Checkers on 5 and 3; my 1 point is held, so 5/1 is blocked and the 4 cannot bear off from 3.
    position = board({5: 2, 3: 1}, {24: 2, **PARKED})
    assert notations(position, (6, 4)) == ["5/off"]
    with pytest.raises(
        IllegalPlayError,
        match=r"WBF 22: 3/off: a 4 bears off from point 3 only when no checker stands higher",
    ):
        resolve_play(position, (6, 4), "5/off 3/off")


def test_galore_5_3_fig_11_six_off_is_illegal_when_6_2_5_off_uses_both():
    position = board({6: 1, 5: 1}, {24: 2, **PARKED})
    assert notations(position, (6, 4)) == ["6/2 5/off"]
    with pytest.raises(IllegalPlayError, match="WBF 17: both dice can be played, so both must be"):
        resolve_play(position, (6, 4), "6/off")


def test_only_one_die_playable_gives_the_higher_wbf_17():
    # 13/7 or 13/8 alone: 7/2 and 8/2 land on their held point; the rest sit on my ace.
    position = board({13: 1, 1: 14}, {23: 2, 1: 13})
    assert notations(position, (6, 5)) == ["13/7"]
    with pytest.raises(
        IllegalPlayError, match="WBF 17: only one die can be played, and it must be the higher, 6"
    ):
        resolve_play(position, (6, 5), "13/8")


def test_higher_die_blocked_gives_the_lower():
    position = board({13: 1, 1: 14}, {23: 2, 18: 2, 1: 11})
    assert notations(position, (6, 5)) == ["13/8"]


def test_both_dice_playable_in_one_order_only():
    # 13/7 is blocked (their 18), so the 5 must go first: 13/8/2.
    position = board({13: 1, 1: 14}, {18: 2, 1: 13})
    plays = legal_plays(position, (6, 5))
    assert [p.notation for p in plays] == ["13/2"]
    assert [(s.source, s.destination) for s in plays[0].steps] == [(13, 8), (8, 2)]


@pytest.mark.parametrize(
    "blocked_at, expected",
    [(4, "16/7"), (7, "16/10"), (10, "16/13")],  # their point 25 - blocked_at holds 2
)
def test_doubles_with_three_two_or_one_of_four_playable_wbf_16(blocked_at, expected):
    position = board({16: 1, 1: 14}, {25 - blocked_at: 2, 1: 13})
    assert notations(position, (3, 3)) == [expected]


def test_bear_off_must_use_both_dice_when_it_can():
    position = board({6: 1, 2: 1}, PARKED)
    plays = legal_plays(position, (5, 4))
    assert all(len(p.steps) == 2 for p in plays)
    with pytest.raises(IllegalPlayError, match="WBF 17"):
        resolve_play(position, (5, 4), "6/1")


def test_one_checker_enters_then_any_checker_moves_wbf_20_21():
    position = board({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    plays = legal_plays(position, (6, 5))
    assert all(p.steps[0].source == 25 for p in plays)
    assert {"bar/20 13/7", "bar/20 24/18", "bar/14"} <= {p.notation for p in plays}
    assert not any("bar/19" in p.notation for p in plays)  # their 6 point is held


def test_two_on_the_bar_one_enters_the_rest_is_lost():
    # My 19 is their 6 point (held); my 20 is open.
    position = board({25: 2, 13: 5, 8: 3, 6: 5}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert notations(position, (6, 5)) == ["bar/20"]


def test_a_dance_loses_the_turn():
    position = board({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert legal_plays(position, (6, 6)) == ()
    with pytest.raises(IllegalPlayError, match="no legal play exists"):
        resolve_play(position, (6, 6), "bar/19")
    assert resolve_play(position, (6, 6), "") is None


def test_a_hit_on_the_way_makes_a_distinct_play_wbf_19():
    # A blot on my 8 (their 17): 13/8*/2 hits it, 13/7/2 does not.
    position = board({13: 1, 1: 14}, {17: 1, 1: 14})
    plays = {p.notation: p for p in legal_plays(position, (6, 5))}
    assert set(plays) == {"13/8*/2", "13/2"}
    assert plays["13/8*/2"].result.on_roll[25] == 1
    assert plays["13/2"].result.on_roll[25] == 0


def test_no_landing_on_a_point_held_by_two_wbf_18():
    position = Position.start()
    # 24/18 is open, 24/19? their 6 point (my 19) holds 5: no 5 from 24.
    assert all("24/19" not in p.notation for p in legal_plays(position, (5, 2)))
    with pytest.raises(IllegalPlayError, match="WBF 18: 24/19: point 19 is held"):
        resolve_play(position, (5, 2), "24/19 24/22")


def test_engine_agrees_with_naive_rules_on_the_figures():
    for position, dice in [
        (board({4: 1, 3: 1}, {24: 2, **PARKED}), (4, 3)),
        (board({6: 1, 5: 1}, {24: 2, **PARKED}), (6, 4)),
        (Position.start(), (1, 1)),
        (Position.start(), (6, 5)),
    ]:
        assert {result_counts(p) for p in legal_plays(position, dice)} == naive_results(
            position, dice
        )


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (3, 4, 5), ("6", 5), (True, 2)])
def test_bad_dice_are_refused(dice):
    with pytest.raises(InvalidDiceError, match="WBF 11"):
        legal_plays(Position.start(), dice)
