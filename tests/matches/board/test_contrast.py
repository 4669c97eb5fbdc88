"""The board's marks stand out for a player with low vision (issue 30, point 5; WCAG 1.4.3, 1.4.11).

A used die is struck through, not only greyed; the places to click have two outlines, one of which
stands out 3:1 from every colour the board draws under them. The colours are read from the
drawing and from static/crawford.css, as the browser gets them.
"""

import re

import pytest

from matches.board.drawing import board_drawing
from rules.dice import EnteredDice
from rules.game import Game
from rules.match import GameContext, MatchRules
from rules.turn import Turn
from tests.conftest import ROOT

CSS = re.sub(r"/\*.*?\*/", "", (ROOT / "static/crawford.css").read_text(), flags=re.S)


def luminance(colour: str) -> float:
    """WCAG's relative luminance of a #rrggbb colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_is_worked_out_as_wcag_does():
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # the AA grey


def declared(selector: str, prop: str) -> str:
    """The value ``prop`` takes in the CSS rule whose selector is exactly ``selector``."""
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", CSS):
        if selector in (s.strip() for s in selectors.split(",")):
            found = re.search(rf"(?:^|;)\s*{re.escape(prop)}\s*:\s*([^;]+)", body)
            if found:
                return found.group(1).strip()
    raise AssertionError(f"no {prop} for {selector} in crawford.css")


def short(colour: str) -> str:
    """#000 as #000000."""
    return "#" + "".join(c * 2 for c in colour[1:]) if len(colour) == 4 else colour


def drawing(moves=()):
    """Anna's opening 3-1, with ``moves`` made: the board her targets are drawn on."""
    game = Game(GameContext(rules=MatchRules(5), number=1), dice=EnteredDice((3, 1)))
    game.roll_opening()
    turn = Turn.begin(game.position, game.dice)
    for source, destination in moves:
        turn = turn.move(source, destination)
    return board_drawing(
        state=game.match_state,
        position=turn.board,
        names=("Anna Rossi", "Bruno Bianchi"),
        turn=turn,
        clickable=True,
    )


def test_a_used_die_is_struck_through_and_said_so():
    fresh, used = drawing(), drawing(moves=[(8, 5)])
    assert [s for s in fresh.shapes if s.kind == "line"] == []
    strikes = [s for s in used.shapes if s.kind == "line" and s.css == "used"]
    dice = [s for s in used.shapes if s.kind == "rect" and "die" in s.css.split()]
    assert len(strikes) == 1 and [d.css for d in dice] == ["die used", "die"]  # the 3
    (x1, y1), (x2, y2) = (map(float, p.split(",")) for p in strikes[0].points.split())
    die = dice[0]
    left, top = float(die.x), float(die.y)
    assert left < x1 < x2 < left + 24 and top < y2 < y1 < top + 24  # across the die
    assert "Dice used so far: 3." in used.description
    assert "Dice used so far" not in fresh.description


def test_the_dice_numbers_and_edges_stand_out():
    board = drawing(moves=[(8, 5)])
    texts = [s for s in board.shapes if s.kind == "text" and s.size == "15"]  # the dice's
    assert {t.fill for t in texts} == {"#000", "#595959"}
    for text in texts:
        assert contrast(short(text.fill), "#ffffff") >= 4.5  # WCAG 1.4.3, on the white die
    beige = "#e9dcc0"
    edge = short(declared("svg.board rect.die", "stroke"))
    assert contrast(edge, beige) >= 3 and contrast(edge, "#ffffff") >= 3
    strike = next(s for s in board.shapes if s.kind == "line")
    assert contrast(strike.fill, "#ffffff") >= 3


def colours_under_targets() -> set[str]:
    """Every colour drawn on the board: the frame, the beige, the points, the checkers, the
    tray, the dice and the cube (a target covers a point's column, the bar or the tray)."""
    board = drawing()
    return {short(s.fill) for s in board.shapes if s.kind in ("rect", "point", "checker")}


def test_a_place_to_click_has_an_outline_standing_out_from_every_colour_under_it():
    outer = short(declared(".board a.target rect", "stroke"))
    inner = short(declared(".board a.target rect.ring", "stroke"))
    under = colours_under_targets()
    assert {"#e9dcc0", "#a33b2b", "#3c6e58", "#f4efe3", "#2b2b2b"} <= under
    for colour in under:
        best = max(contrast(outer, colour), contrast(inner, colour))
        assert best >= 3, f"neither outline stands out from {colour}"
    assert contrast(outer, inner) >= 3  # the two outlines tell apart from each other too


def test_a_destination_s_two_outlines_stand_out_too():
    shadow = declared(".board button.target.destination", "box-shadow")
    colours = [short(c) for c in re.findall(r"#[0-9a-fA-F]{3,6}\b", shadow)]
    assert len(colours) == 2
    for colour in colours_under_targets():
        assert max(contrast(c, colour) for c in colours) >= 3, colour


def test_each_target_is_drawn_with_its_two_outlines():
    board = drawing()
    for target in board.targets:
        x, y, width, height = (float(v) for v in target.ring)
        assert (x, y) == (float(target.x) + 2, float(target.y) + 2)
        assert (width, height) == (float(target.width) - 4, float(target.height) - 4)
