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

from collections.abc import Sequence
from enum import IntEnum

from .match import MoneyRules, Outcome

__all__ = [
    "Level",
    "MoneyRules",
    "automatic_cube",
    "automatic_double",
    "game_value",
    "level_of",
    "within_max_cube",
]


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


def within_max_cube(cube: int, rules: MoneyRules) -> bool:
    """Whether the cube may reach ``cube`` under the maximum agreed, if any (Galore 2.8)."""
    return rules.max_cube is None or cube <= rules.max_cube


def automatic_double(cube: int, doubles: int, rules: MoneyRules) -> bool:
    """Whether equal opening dice raise the cube now at ``cube``, after ``doubles``
    automatic doubles in this game: while fewer than agreed, never past the highest
    cube (Galore 2.8)."""
    return doubles < rules.automatic_doubles and within_max_cube(cube * 2, rules)


def automatic_cube(rolls: Sequence[tuple[int, int]], rules: MoneyRules) -> int:
    """The cube after the opening rolls ``rolls`` (one die each, in order): each roll
    of equal dice before the first unequal one doubles it, in the centre, as far as
    :func:`automatic_double` allows (Galore 2.8). Rolls after the first unequal one
    are not opening rolls and change nothing.

    >>> rules = MoneyRules(automatic_doubles=2)
    >>> automatic_cube([(3, 3), (5, 5), (6, 6), (4, 1)], rules)
    4
    >>> automatic_cube([(3, 3), (5, 5)], MoneyRules(automatic_doubles=3, max_cube=2))
    2
    """
    cube, doubles = 1, 0
    for first, second in rolls:
        if first != second:
            break
        if automatic_double(cube, doubles, rules):
            cube *= 2
            doubles += 1
    return cube
