"""A turn played checker by checker: every legal play is reachable, nothing else is (hypothesis)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import IllegalPlayError, Position
from rules.turn import Turn
from tests.rules.helpers import board
from tests.rules.test_properties import dice_rolls, positions


def walks(turn: Turn):
    """Every way of clicking through the turn, to the plays the clicks end in."""
    if turn.play is not None or not turn.options:
        yield turn
        return
    for step in turn.options:
        yield from walks(turn.move(step.source, step.destination))


@given(positions(), dice_rolls)
def test_clicking_checker_by_checker_reaches_exactly_the_legal_plays(position, dice):
    turn = Turn.begin(position, dice)
    ends = list(walks(turn)) if len(turn.plays) < 60 else []
    for end in ends:
        # no click leads into a dead end: every walk finishes a legal play (WBF 15-22)
        assert end.play is not None or turn.no_play
    if ends:
        assert {end.play for end in ends if end.play} == set(turn.plays)


@given(positions(), dice_rolls, st.data())
def test_undo_goes_back_exactly(position, dice, data):
    turn = Turn.begin(position, dice)
    history = [turn]
    while turn.options:
        step = data.draw(st.sampled_from(turn.options))
        turn = turn.move(step.source, step.destination)
        history.append(turn)
    while len(history) > 1:
        history.pop()
        turn = turn.undo()
        assert turn.board == history[-1].board
        assert turn.options == history[-1].options


def test_a_move_onto_a_held_point_is_refused_with_the_rule():
    turn = Turn.begin(Position.start(), (6, 5))
    with pytest.raises(IllegalPlayError) as refused:
        turn.move(24, 19)  # the opponent's 6 point, five checkers on it
    assert refused.value.rule == "WBF 18"


def test_a_move_that_leaves_a_die_unplayed_is_refused_citing_wbf_17():
    # 5-3: 12/9/4 plays both dice; 4/1* alone is a legal hop but leaves the 5 unplayable
    position = board({12: 1, 4: 1, 3: 1}, {18: 2, 24: 1})
    turn = Turn.begin(position, (5, 3))
    assert [p.notation for p in turn.plays] == ["12/4"]
    with pytest.raises(IllegalPlayError) as refused:
        turn.move(4, 1)
    assert refused.value.rule == "WBF 17"
    assert "both dice" in str(refused.value)
    assert {(s.source, s.destination) for s in turn.options} == {(12, 9)}


def test_the_bar_first():
    position = board({25: 1, 13: 5}, {6: 5})
    turn = Turn.begin(position, (3, 1))
    with pytest.raises(IllegalPlayError) as refused:
        turn.move(13, 10)
    assert refused.value.rule == "WBF 20"
    assert {step.source for step in turn.options} == {25}


def test_a_complete_play_takes_no_more_moves():
    turn = Turn.begin(Position.start(), (3, 1)).move(8, 5).move(6, 5)
    assert turn.play is not None and turn.options == ()
    with pytest.raises(IllegalPlayError, match="complete"):
        turn.move(13, 10)


def test_a_play_typed_whole_is_made_whole_wbf_22():
    """A 2-1 with the last checkers on the 2 and the 1 points: 2/off leaves what the legal
    play 2/1 1/off leaves, so move by move the play counts as complete after it, and the
    1/off of "2/off 1/off" was refused; typed whole, the play is made as written."""
    turn = Turn.begin(board({2: 1, 1: 1}, {20: 2}), (2, 1))
    both = next(play for play in turn.plays if play.notation == "2/off 1/off")
    with pytest.raises(IllegalPlayError, match="complete"):
        turn.move(2, 0).move(1, 0)
    typed = turn.playing(both)
    assert typed.play == both and typed.moves == ((2, 2), (1, 1))
    assert typed.board.on_roll[0] == 15  # both borne off: the game is won


def test_only_a_legal_play_is_made_whole():
    turn = Turn.begin(Position.start(), (3, 1))
    other = Turn.begin(Position.start(), (6, 5)).plays[0]
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        turn.playing(other)


@given(positions(), dice_rolls, st.data())
def test_every_legal_play_made_whole_is_that_play(position, dice, data):
    turn = Turn.begin(position, dice)
    if turn.plays:
        play = data.draw(st.sampled_from(turn.plays))
        made = turn.playing(play)
        assert made.play == play and made.steps == play.steps
