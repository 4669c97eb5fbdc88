"""Money play: what a game is worth under the options a session agreed (Galore 2.8, 5.4).

Money play has no match score, so a game's points are all there is to settle: the cube
times one, two or three (WBF 25), except that the Jacoby rule counts gammons and
backgammons single while the cube has never been turned. A drop pays the cube before
the double; a resignation pays the level given up (common practice, scored as WBF 25).

>>> rules = MoneyRules(jacoby=True)
>>> game_value(Level.GAMMON, cube=1, cube_turned=False, rules=rules)
1
>>> game_value(Level.GAMMON, cube=2, cube_turned=True, rules=rules)
4
"""

from __future__ import annotations

from enum import IntEnum

from .match import MoneyRules, Outcome

__all__ = ["Level", "MoneyRules", "game_value", "level_of"]


class Level(IntEnum):
    """How much of the cube a game's ending is worth: single, gammon or backgammon (WBF 25)."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


def level_of(outcome: Outcome) -> Level:
    """The level an ending is scored at; a drop and a resignation are given their level apart."""
    return Level(outcome.multiplier)


def game_value(level: Level, *, cube: int, cube_turned: bool, rules: MoneyRules) -> int:
    """The points a game ending at ``level`` is worth with the cube at ``cube``.

    ``cube_turned`` says whether anyone has doubled in this game: an automatic double
    raises the cube without turning it, so the Jacoby rule still counts a gammon single
    after one (Galore 2.8). A drop is worth the cube before the double, at level SINGLE.
    """
    if cube < 1:
        raise ValueError(f"a cube is 1 or more, not {cube!r}")
    if rules.jacoby and not cube_turned:
        return cube
    return cube * int(level)
