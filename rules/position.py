"""Backgammon positions as immutable values, and the gnubg Position ID.

A position is seen from the side of the player on roll, as gnubg sees it: the
player on roll numbers the points 1-24 from their own home board, the opponent
numbers them from theirs, so the same point is ``p`` for one and ``25 - p`` for
the other (WBF 1, 8). Index 0 of a side's counts is its borne-off checkers and
index 25 its bar.

Each side is packed into one integer, four bits a point (a side never has more
than 15 checkers on one point). The legal-play generator moves a checker with
two integer additions instead of copying a board, which is what makes it fast
enough to replay a season of matches in seconds; the tuple views below are
derived on demand.

>>> start = Position.start()
>>> start.id
'4HPwATDgc/ABMA'
>>> start.pips
(167, 167)
>>> Position.from_id('4HPwATDgc/ABMA') == start
True
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from .errors import InvalidPositionError, InvalidPositionIdError
from .messages import Message

if TYPE_CHECKING:
    from .play import Play

OFF = 0
BAR = 25
CHECKERS = 15
NIBBLES = 26
SIDE_MASK = (1 << (4 * NIBBLES)) - 1

Counts = tuple[int, ...]

START_COUNTS: Counts = (
    0,
    0,
    0,
    0,
    0,
    0,
    5,
    0,
    3,
    0,
    0,
    0,
    0,
    5,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    2,
    0,
)


# Nackgammon (gnubg's "Nackgammon" variation): 2 on 24, 2 on 23, 4 on 13, 3 on 8, 4 on 6 each
NACKGAMMON_COUNTS: Counts = tuple(
    {6: 4, 8: 3, 13: 4, 23: 2, 24: 2}.get(index, 0) for index in range(NIBBLES)
)


def pack(counts: Sequence[int]) -> int:
    """Pack 26 counts (off, points 1-24, bar) into one integer, a nibble each."""
    packed = 0
    for index in range(NIBBLES - 1, -1, -1):
        packed = (packed << 4) | counts[index]
    return packed


_DIGIT = {f"{value:x}": value for value in range(16)}


def unpack(packed: int) -> Counts:
    """The 26 counts (off, points 1-24, bar) of a packed side.

    A nibble is a hex digit, so formatting does the shifting in C.
    """
    return tuple(map(_DIGIT.__getitem__, f"{packed:0{NIBBLES}x}"[::-1]))


_ON_ROLL = Message("side-on-roll")
_OPPONENT = Message("side-opponent")


def _check_counts(counts: Sequence[int], side: Message) -> None:
    if len(counts) != NIBBLES:
        raise InvalidPositionError(Message("counts-length", {"side": side, "count": len(counts)}))
    for index, count in enumerate(counts):
        if not isinstance(count, int) or count < 0:
            raise InvalidPositionError(
                Message(
                    "counts-value", {"side": side, "value": repr(count), "place": _place(index)}
                )
            )
    total = sum(counts)
    if total != CHECKERS:
        raise InvalidPositionError(
            Message("checker-total", {"side": side, "total": total}), rule="WBF 1"
        )


def _place(index: int) -> Message:
    if index == OFF:
        return Message("place-off")
    if index == BAR:
        return Message("place-bar")
    return Message("place-point", {"point": index})


class Position(tuple[int, int]):
    """A board with the player on roll's checkers and the opponent's, immutable and hashable.

    Build one with :meth:`start`, :meth:`from_counts` or :meth:`from_id`.
    """

    __slots__ = ()

    # tuple layout: (packed side of the player on roll, packed side of the opponent)

    @classmethod
    def start(cls) -> Position:
        """The starting position (WBF 1): 2 on 24, 5 on 13, 3 on 8, 5 on 6 each."""
        side = pack(START_COUNTS)
        return tuple.__new__(cls, (side, side))

    @classmethod
    def from_counts(cls, on_roll: Sequence[int], opponent: Sequence[int]) -> Position:
        """Build a position from two lists of 26 counts, each in its owner's numbering.

        Index 0 is the borne-off checkers, 1-24 the points, 25 the bar. An
        impossible board is refused with what is wrong:

        >>> Position.from_counts([0] * 26, START_COUNTS)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rules.errors.InvalidPositionError: WBF 1: the player on roll has 0 checkers; each side ...
        """
        _check_counts(on_roll, _ON_ROLL)
        _check_counts(opponent, _OPPONENT)
        for point in range(1, 25):
            if on_roll[point] and opponent[25 - point]:
                raise InvalidPositionError(
                    Message("point-both-sides", {"point": point, "theirs": 25 - point}),
                    rule="WBF 18",
                )
        return tuple.__new__(cls, (pack(on_roll), pack(opponent)))

    @classmethod
    def _from_packed(cls, on_roll: int, opponent: int) -> Position:
        return tuple.__new__(cls, (on_roll, opponent))

    # --- views -------------------------------------------------------------

    @property
    def on_roll(self) -> Counts:
        """Counts of the player on roll: index 0 off, 1-24 points, 25 bar."""
        return unpack(self[0])

    @property
    def opponent(self) -> Counts:
        """Counts of the opponent, in the opponent's own numbering."""
        return unpack(self[1])

    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts (player on roll, opponent): what each still has to travel."""
        return (_pips(self[0]), _pips(self[1]))

    def swap(self) -> Position:
        """The same board with the other player on roll."""
        return tuple.__new__(Position, (self[1], self[0]))

    @property
    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off (player on roll, opponent)."""
        return (self[0] & 15, self[1] & 15)

    def is_race(self) -> bool:
        """True once no contact is left: the sides have passed each other."""
        mine, theirs = self.on_roll, self.opponent
        my_back = max((p for p in range(1, 26) if mine[p]), default=0)
        their_back = max((p for p in range(1, 26) if theirs[p]), default=0)
        return my_back + their_back <= 25

    # --- the gnubg Position ID ----------------------------------------------

    @property
    def id(self) -> str:
        """gnubg's Position ID: 14 base64 characters.

        As gnubg's code and output do (not its manual), the opponent's checkers
        are encoded first, then those of the player on roll.
        """
        bits = 0
        shift = 0
        for packed in (self[1], self[0]):
            for index in range(1, 26):
                count = (packed >> (4 * index)) & 15
                bits |= ((1 << count) - 1) << shift
                shift += count + 1
        return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Read a gnubg Position ID (14 base64 characters)."""
        text = position_id.strip()
        if len(text) != 14:
            raise InvalidPositionIdError(
                Message("position-id-length", {"text": repr(text), "length": len(text)})
            )
        try:
            raw = base64.b64decode(text + "==", validate=True)
        except (binascii.Error, ValueError):
            raise InvalidPositionIdError(
                Message("position-id-alphabet", {"text": repr(text)})
            ) from None
        bits = int.from_bytes(raw, "little")
        sides = ([0] * NIBBLES, [0] * NIBBLES)
        side, index = 0, 1
        for _ in range(80):
            if side == 2:
                break
            if bits & 1:
                sides[side][index] += 1
                if sides[side][index] > CHECKERS:
                    break
            else:
                index += 1
                if index == 26:
                    side, index = side + 1, 1
            bits >>= 1
        opponent, on_roll = sides
        for counts, who in ((on_roll, _ON_ROLL), (opponent, _OPPONENT)):
            on_board = sum(counts)
            if on_board > CHECKERS:
                raise InvalidPositionIdError(
                    Message("position-id-checkers", {"text": repr(text), "side": who})
                )
            counts[OFF] = CHECKERS - on_board
        try:
            return cls.from_counts(on_roll, opponent)
        except InvalidPositionError as error:
            raise InvalidPositionIdError(
                Message("impossible-board", {"text": repr(text), "reason": error.cited})
            ) from None

    # --- plays ---------------------------------------------------------------

    def legal_plays(self, dice: Sequence[int]) -> tuple[Play, ...]:
        """Every legal play of these dice, one per distinct resulting position (WBF 15-22)."""
        from .movegen import legal_plays

        return legal_plays(self, dice)

    # --- display ---------------------------------------------------------------

    def __repr__(self) -> str:
        return f"Position.from_id({self.id!r})"

    def __str__(self) -> str:
        return render_text(self)


class Variation(StrEnum):
    """The game played, by its starting position; the values are gnubg's names, lower-cased.

    >>> Variation.NACKGAMMON.start.on_roll[23], Variation.STANDARD.start == Position.start()
    (2, True)
    """

    STANDARD = "standard"
    NACKGAMMON = "nackgammon"

    @property
    def start(self) -> Position:
        """Where each game of this variation starts."""
        counts = NACKGAMMON_COUNTS if self is Variation.NACKGAMMON else START_COUNTS
        return Position._from_packed(pack(counts), pack(counts))


def _pips(packed: int) -> int:
    total = 0
    for index in range(1, 26):
        total += index * ((packed >> (4 * index)) & 15)
    return total


def render_text(position: Position) -> str:
    """A plain-text board from the side of the player on roll (X), the opponent as O."""
    mine, theirs = position.on_roll, position.opponent

    def cell(point: int) -> str:
        if mine[point]:
            return f"X{mine[point]}"
        if theirs[25 - point]:
            return f"O{theirs[25 - point]}"
        return " ."

    top = " ".join(f"{p:>2}" for p in range(13, 25))
    top_cells = " ".join(cell(p) for p in range(13, 25))
    bottom = " ".join(f"{p:>2}" for p in range(12, 0, -1))
    bottom_cells = " ".join(cell(p) for p in range(12, 0, -1))
    pips = position.pips
    return "\n".join(
        [
            top,
            top_cells,
            f"bar X{mine[BAR]} O{theirs[BAR]}   off X{mine[OFF]} O{theirs[OFF]}",
            bottom_cells,
            bottom,
            f"pips X {pips[0]}  O {pips[1]}   Position ID {position.id}",
        ]
    )
