"""A play: the steps of one turn, the position they lead to, and its notation.

Notation follows gnubg, because that is what match files and players' programs
write and what a director will paste back into GNU Backgammon: moves sorted
from the highest source, the hops of one checker merged (an intermediate point
kept only where it hit), repeated moves counted as ``(2)``, a ``*`` after each
point where a blot was hit, ``bar`` and ``off`` for 25 and 0 (WBF 8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .position import NIBBLES, Position

if TYPE_CHECKING:
    # (position before, path, key, dice); path = (order flag, source, ...), or None for a
    # play whose path its result tells (see double_path, and rules.movegen.pair_path)
    _Layout = tuple[Position, tuple[int, ...] | None, int, tuple[int, int]]
else:
    _Layout = tuple

# A play's key: the mover's packed side after it, and above it one flag a point where a
# blot was hit (the search's own record of the play, see rules.movegen).
_HIT_SHIFT = 4 * NIBBLES
_SIDE = (1 << _HIT_SHIFT) - 1
_THEIR_BAR = 1 << (4 * 25)


class Step(NamedTuple):
    """One checker moved by one die: from ``source`` to ``destination`` (0 = off, 25 = bar)."""

    source: int
    destination: int
    hit: bool

    def __str__(self) -> str:
        return f"{point_name(self.source)}/{point_name(self.destination)}{'*' if self.hit else ''}"


# _STEPS[source][destination][hit]: every possible step, made once (steps are values)
_STEPS = [
    [
        (Step(source, destination, False), Step(source, destination, True))
        for destination in range(26)
    ]
    for source in range(26)
]


def double_path(position: Position, key: int, die: int) -> tuple[int, ...]:
    """The path of a double's play (order flag 0, then the sources, highest first) from its result.

    The search plays a double's sources from the highest point down, so from the bar
    down each point gives up the checkers it held (with those that came in from a die
    higher) beyond what the result leaves there: the path need not be kept with the play.
    """
    mine, side = position[0], key & _SIDE
    arrived = [0] * 26
    path = [0]
    for point in range(25, 0, -1):
        leaving = (mine >> (4 * point) & 15) + arrived[point] - (side >> (4 * point) & 15)
        if leaving > 0:
            path += [point] * leaving
            if point > die:
                arrived[point - die] += leaving
    return tuple(path)


def point_name(point: int) -> str:
    """``bar`` for 25, ``off`` for 0, else the number."""
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(point)


class Play(_Layout):
    """One legal way to play a roll; equal plays are those with the same result.

    Built by :func:`rules.movegen.legal_plays`; ``steps`` and ``notation`` are
    worked out on demand from the compact path the search recorded.
    """

    __slots__ = ()

    # tuple layout: (position before, path, key, dice); path = (order flag, source, ...)

    @property
    def position(self) -> Position:
        """The position before the play, the mover on roll."""
        return self[0]

    @property
    def result(self) -> Position:
        """The position after the play, seen by the opponent, who is now on roll.

        Made when asked for: of the plays listed for a roll, one is played.
        """
        theirs, key = self[0][1], self[2]
        hits = key >> _HIT_SHIFT
        while hits:  # each blot hit goes from its point to the bar
            low = hits & -hits
            theirs += _THEIR_BAR - (1 << (4 * (25 - low.bit_length() + 1)))
            hits ^= low
        return tuple.__new__(Position, (theirs, key & _SIDE))

    @property
    def steps(self) -> tuple[Step, ...]:
        """The checker moves in the order played, one per die used."""
        position, path, dice = self[0], self[1], self[3]
        if path is None and dice[0] == dice[1]:
            path = double_path(position, self[2], dice[0])
        elif path is None:
            from .movegen import pair_path  # movegen makes plays: imported when first needed

            path = pair_path(position, self[2], dice)
        sources = path[1:]
        order: tuple[int, ...]
        if dice[0] == dice[1]:
            order = (dice[0],) * 4
        elif path[0]:
            order = (dice[1], dice[0])
        else:
            order = dice
        theirs = position[1]  # packed, 4 bits a point (see rules.position)
        steps = []
        for source, die in zip(sources, order, strict=False):
            destination = source - die if source > die else 0
            # a lone opposing checker is hit, and the point is empty for any later step
            if destination and (theirs >> (4 * (25 - destination))) & 15 == 1:
                theirs -= 1 << (4 * (25 - destination))
                steps.append(_STEPS[source][destination][1])
            else:
                steps.append(_STEPS[source][destination][0])
        return tuple(steps)

    @property
    def dice(self) -> tuple[int, int]:
        """The roll this play was made with (as the search was given it)."""
        return self[3]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Play):
            return self[0] == other[0] and self[2] == other[2]
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((self[0], self[2]))

    @property
    def notation(self) -> str:
        """The play as gnubg writes it, e.g. ``24/18 13/8``, ``bar/22*``, ``8/5(2)``.

        >>> from rules import Position
        >>> plays = {p.notation for p in Position.start().legal_plays((3, 1))}
        >>> sorted(plays & {'8/5 6/5', '24/23 13/10', '24/20', '13/9'})
        ['13/9', '24/20', '24/23 13/10', '8/5 6/5']
        """
        return format_steps(self.steps, self[0].opponent)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"<Play {self.notation} -> {self.result.id}>"


def format_steps(steps: tuple[Step, ...] | list[Step], opponent: tuple[int, ...]) -> str:
    """gnubg's way of writing a set of steps (a port of the logic of its FormatMove).

    ``opponent`` is the opponent's counts before the play, in their numbering:
    a point is starred when the opponent had a checker there.
    """
    if not steps:
        return ""

    def opponent_on(point: int) -> bool:
        return 0 < point < 25 and opponent[25 - point] > 0

    moves = sorted(([s.source, s.destination] for s in steps), key=lambda m: (-m[0], -m[1]))
    alive = [True] * len(moves)
    # Merge the hops of one checker: keep an intermediate point only where it hit.
    for i in range(len(moves)):
        for j in range(i, len(moves)):
            if alive[i] and alive[j] and i != j and moves[i][-1] == moves[j][0]:
                if opponent_on(moves[i][-1]):
                    moves[i].append(moves[j][1])
                else:
                    moves[i][-1] = moves[j][1]
                alive[j] = False
    paths = [m for m, keep in zip(moves, alive, strict=True) if keep]
    counts = [1] * len(paths)
    alive = [True] * len(paths)
    for i in range(len(paths)):
        if not alive[i]:
            continue
        for j in range(i + 1, len(paths)):
            if alive[j] and paths[j] == paths[i]:
                counts[i] += 1
                alive[j] = False
    out = []
    marked: set[int] = set()
    for path, count, keep in zip(paths, counts, alive, strict=True):
        if not keep:
            continue
        text = point_name(path[0])
        for middle in path[1:-1]:
            text += f"/{point_name(middle)}*"
            marked.add(middle)
        end = path[-1]
        text += f"/{point_name(end)}"
        if opponent_on(end) and end not in marked:
            text += "*"
            marked.add(end)
        if count > 1:
            text += f"({count})"
        out.append(text)
    return " ".join(out)
