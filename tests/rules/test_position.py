"""Positions: the start, pip counts, gnubg Position IDs and XGIDs both ways, validation."""

import pytest

from rules import InvalidPositionError, InvalidPositionIdError, Position
from rules.matchid import MatchState
from rules.position import START_COUNTS
from rules.xgid import format_xgid, parse_xgid
from tests.rules.helpers import board


def test_start_is_wbf_1_with_167_pips_each():
    start = Position.start()
    assert start.on_roll == START_COUNTS == start.opponent
    assert start.on_roll[24] == 2 and start.on_roll[13] == 5
    assert start.on_roll[8] == 3 and start.on_roll[6] == 5
    assert start.pips == (167, 167)  # WBF 25


@pytest.mark.parametrize(
    "position_id, on_roll_pips, opponent_pips",
    [
        ("4HPwATDgc/ABMA", 167, 167),
        ("ADAAAQAkIAAAAA", None, None),
        ("sGfwGQDg28EBBg", None, None),
        ("0HPhATDg2+ABMA", None, None),
    ],
)
def test_position_id_round_trips(position_id, on_roll_pips, opponent_pips):
    position = Position.from_id(position_id)
    assert position.id == position_id
    assert sum(position.on_roll) == 15 == sum(position.opponent)
    if on_roll_pips is not None:
        assert position.pips == (on_roll_pips, opponent_pips)


def test_position_id_puts_the_player_not_on_roll_first():
    # After 24/22 13/8 at the opening, gnubg shows the mover's checkers first.
    after = Position.from_id("4PPgASTgc/ABMA")
    mover = after.opponent
    assert mover[22] == 1 and mover[24] == 1 and mover[13] == 4 and mover[8] == 4
    assert after.on_roll == START_COUNTS


def test_hashable_and_immutable():
    start = Position.start()
    assert {start: 1}[Position.from_id(start.id)] == 1
    with pytest.raises(AttributeError):
        start.foo = 1  # type: ignore[attr-defined]
    assert start.swap().swap() == start


def test_xgid_to_gnubg_ids_and_back():
    xgid = "XGID=-B-BAaCBC-----a-----cdBcc-:1:-1:1:66:1:4:0:5:10"
    position, state = parse_xgid(xgid)
    assert f"{position.id}:{state.id}" == "d96BAAKz3A4ADA:QQm7AEAACAAA"
    assert format_xgid(position, state) == xgid
    # and from the gnubg side
    same = (Position.from_id("d96BAAKz3A4ADA"), MatchState.from_id("QQm7AEAACAAA"))
    assert format_xgid(*same) == xgid


def test_sixteen_checkers_are_refused_with_wbf_1():
    counts = list(START_COUNTS)
    counts[6] += 1
    with pytest.raises(InvalidPositionError, match=r"WBF 1: .*16 checkers"):
        Position.from_counts(counts, START_COUNTS)


def test_both_sides_on_one_point_is_refused():
    with pytest.raises(InvalidPositionError, match="both sides"):
        board({24: 15}, {1: 15})  # my 24 is their 1


def test_negative_count_is_refused():
    counts = list(START_COUNTS)
    counts[6], counts[5] = -1, 6
    with pytest.raises(InvalidPositionError, match="point 6"):
        Position.from_counts(counts, START_COUNTS)


@pytest.mark.parametrize(
    "text, message",
    [
        ("4HPwATDgc/AB", "14 characters"),
        ("4HPwATDgc/AB!A", "only letters"),
        ("//////////////", "more than 15"),
    ],
)
def test_bad_position_ids_say_what_is_wrong(text, message):
    with pytest.raises(InvalidPositionIdError, match=message):
        Position.from_id(text)


def test_text_board_shows_pips_and_id():
    text = str(Position.start())
    assert "pips X 167  O 167" in text and "4HPwATDgc/ABMA" in text
