"""Reading plays as match files write them, and refusing illegal ones with the rule."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import AmbiguousPlayError, IllegalPlayError, InvalidPlayError, Position, legal_plays
from rules.notation import apply_written, parse_moves, renumbered, resolve_play
from tests.rules.helpers import board
from tests.rules.test_properties import positions

START = Position.start()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("24/18 13/8", "24/18 13/8"),
        ("13/8 24/18", "24/18 13/8"),  # any order
        ("24/13", "24/13"),  # merged hops
        ("24/18/13", "24/13"),  # chained
        ("24/18, 13/8", "24/18 13/8"),
        ("  24/18   13/8. ", "24/18 13/8"),
    ],
)
def test_variants_resolve_to_the_one_play(text, expected):
    assert resolve_play(START, (6, 5), text).notation == expected


def test_bar_as_25_and_off_as_0():
    position = board({25: 1, 6: 14}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert resolve_play(position, (5, 3), "25/20 6/3").notation == "bar/20 6/3"
    home = board({6: 2, 5: 2}, {1: 15})
    assert resolve_play(home, (6, 5), "6/0 5/0").notation == "6/off 5/off"


def test_repeat_count_and_doubles():
    assert resolve_play(START, (3, 3), "8/5(2) 6/3(2)").notation == "8/5(2) 6/3(2)"
    assert resolve_play(START, (3, 3), "8/5 8/5 6/3 6/3").notation == "8/5(2) 6/3(2)"


def test_missing_star_is_accepted():
    position = board({13: 1, 1: 14}, {19: 1, 1: 14})  # a blot on my 6
    assert resolve_play(position, (6, 1), "13/6").notation == "13/6*"
    assert resolve_play(position, (6, 1), "13/7/6").notation == "13/6*"


def test_unmarked_hit_at_the_end_is_found():
    position = board({13: 2, 1: 13}, {18: 1, 1: 14})  # a blot on my 7
    play = resolve_play(position, (6, 5), "13/7 13/8")
    assert play.notation == "13/8 13/7*"


def test_merged_hop_hitting_on_the_way_needs_the_star_or_the_point():
    position = board({13: 1, 1: 14}, {17: 1, 1: 14})  # a blot on my 8
    assert resolve_play(position, (6, 5), "13/2").notation == "13/2"  # unmarked: no hit on the way
    assert resolve_play(position, (6, 5), "13/8*/2").notation == "13/8*/2"
    assert resolve_play(position, (6, 5), "13/8/2").notation == "13/8*/2"  # the point names it


def test_ambiguous_when_stars_cannot_tell():
    # Blots on my 8 and 7: 13/2 via either hits one; "13/2*" says a hit but not where.
    position = board({13: 1, 1: 14}, {17: 1, 18: 1, 1: 13})
    with pytest.raises(AmbiguousPlayError, match="13/7\\*/2, 13/8\\*/2"):
        resolve_play(position, (6, 5), "13/2*")


@pytest.mark.parametrize(
    "text, message",
    [
        ("13-7", "not a move"),
        ("7/13", "WBF 8"),
        ("26/20", "no point 26"),
        ("13/7(5)", "at most 4"),
    ],
)
def test_unreadable_text(text, message):
    with pytest.raises(InvalidPlayError, match=message):
        parse_moves(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("13/7", "WBF 17: both dice can be played, so both must be"),
        ("13/11 13/8", "WBF 15: 13/11 moves 2 pips"),
        ("6/off 6/off", "WBF 22: 6/off: bearing off needs all your checkers in your home board"),
        ("24/19 13/7", "WBF 18: 24/19: point 19 is held by two or more opposing checkers"),
        ("20/14 13/8", "there is no checker of yours on point 20"),
    ],
)
def test_illegal_plays_say_why_with_the_rule(text, message):
    with pytest.raises(IllegalPlayError, match=message.replace("*", r"\*")):
        resolve_play(START, (6, 5), text)


def test_bar_first_wbf_20():
    position = board({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    with pytest.raises(IllegalPlayError, match="WBF 20"):
        resolve_play(position, (6, 5), "13/7 13/8")


def test_doubles_too_few_moves_wbf_16_17():
    with pytest.raises(IllegalPlayError, match="WBF 16-17: 4 of the four moves"):
        resolve_play(START, (3, 3), "8/5(2)")


def test_apply_written_keeps_an_illegal_play_wbf_14():
    after = apply_written(START, "13/4")  # 9 pips with 6-5: illegal, but it stood
    assert after.opponent[4] == 1 and after.opponent[13] == 4
    with pytest.raises(IllegalPlayError, match="WBF 18"):
        apply_written(START, "13/1")  # their 24 point: no board can show it


@given(st.text(max_size=40))
def test_parser_never_crashes_on_any_text(text):
    try:
        moves = parse_moves(text)
    except InvalidPlayError:
        return
    for move in moves:
        assert all(0 <= p <= 25 for p in move.points)


@given(dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_every_legal_plays_own_notation_resolves_to_itself(dice):
    for play in legal_plays(START, dice):
        assert resolve_play(START, dice, play.notation) == play


def _other_count(point: int) -> int:
    return point if point in (0, 25) else 25 - point  # the bar and the tray keep their names


def _hops(notation: str) -> list[tuple[list[tuple[str, bool]], str]]:
    """Each checker's hops as written: its points (name, starred), then its count ("(2)")."""
    moves = []
    for token in notation.split():
        path, _, count = token.partition("(")
        moves.append(([(p.rstrip("*"), p.endswith("*")) for p in path.split("/")], count))
    return moves


def _turned(name: str) -> str:
    return name if name in ("bar", "off") else str(25 - int(name))


@given(positions(), st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_a_play_renumbered_names_each_checker_s_points_in_the_other_count(position, dice):
    """The board says the other player's play in the numbers it prints (issue 30, point 3):
    every point of every move turned, the bar, the tray, hits and counts kept."""
    for play in legal_plays(position, dice):
        text = renumbered(play.notation)
        assert _hops(text) == [
            ([(_turned(name), hit) for name, hit in path], count)
            for path, count in _hops(play.notation)
        ]
        assert renumbered(text) == play.notation
