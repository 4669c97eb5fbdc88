"""Where dice come from: a secure random source, a seeded one, or a physical roll typed in.

A game asks its source for dice and logs what it got, so a replay never needs
the source again. The default draws from :mod:`secrets`, so a player cannot
predict the next roll from earlier ones; a seeded source makes tests and demos
repeat; :class:`EnteredDice` carries dice rolled at the table.

>>> SeededDice(7).roll() == SeededDice(7).roll()
True
>>> dice = EnteredDice()
>>> dice.enter(6, 5)
>>> dice.roll()
(6, 5)
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from typing import Protocol

from .errors import IllegalActionError, InvalidDiceError
from .messages import Message


class DiceSource(Protocol):
    """Anything that can roll two dice."""

    def roll(self) -> tuple[int, int]: ...


class SecureDice:
    """Dice from the operating system's secure random source (the default)."""

    def roll(self) -> tuple[int, int]:
        return _ROLLS[secrets.randbelow(6)][secrets.randbelow(6)]


class SeededDice:
    """Dice that repeat for a given seed: for tests, demos and recorded random draws."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)
        self._bits = self._random.getrandbits

    def roll(self) -> tuple[int, int]:
        """Two draws of ``randint(1, 6)``, the same numbers from the same seed.

        ``randint(1, 6)`` takes three random bits and draws again while they make 6
        or 7; this does the same without its three layers of Python calls, which
        cost more than a move of a random-play game.
        """
        bits = self._bits
        first = bits(3)
        while first > 5:
            first = bits(3)
        second = bits(3)
        while second > 5:
            second = bits(3)
        return _ROLLS[first][second]


# _ROLLS[a][b]: the roll (a + 1, b + 1), one tuple for every roll of every game
_ROLLS = tuple(tuple((a, b) for b in range(1, 7)) for a in range(1, 7))


class EnteredDice:
    """Dice rolled by hand at the table and typed in, used in the order entered."""

    def __init__(self, *rolls: tuple[int, int]) -> None:
        self._queue: deque[tuple[int, int]] = deque()
        for first, second in rolls:
            self.enter(first, second)

    def enter(self, first: int, second: int) -> None:
        for die in (first, second):
            if not isinstance(die, int) or not 1 <= die <= 6:
                raise InvalidDiceError(Message("die-range", {"die": repr(die)}), rule="WBF 11")
        self._queue.append((first, second))

    def roll(self) -> tuple[int, int]:
        if not self._queue:
            raise IllegalActionError(Message("no-dice-entered"))
        return self._queue.popleft()
