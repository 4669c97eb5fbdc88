"""Round robin by the circle method: everyone meets everyone once.

>>> rounds = circle_rounds(["A", "B", "C", "D"])
>>> rounds[0]
[('A', 'D'), ('B', 'C')]
>>> len(rounds), sorted(len(r) for r in rounds)
(3, [2, 2, 2])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def circle_rounds(players: Sequence[T]) -> list[list[tuple[T, T | None]]]:
    """Rounds of pairs; with an odd number of players each round has one bye (``None``).

    The first player stays put and the others rotate one place a round, so
    every pair meets exactly once in n - 1 rounds (n rounded up to even).
    """
    field: list[T | None] = list(players)
    if len(field) < 2:
        raise ValueError("a round robin needs at least two players")
    if len(field) % 2:
        field.append(None)
    n = len(field)
    rounds = []
    for _ in range(n - 1):
        pairs = [(field[i], field[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(a, b) if a is not None else (b, a) for a, b in pairs])
        field = [field[0], field[-1], *field[1:-1]]
    return rounds  # type: ignore[return-value]


def snake_pools(seeded: Sequence[T], pools: int) -> list[list[T]]:
    """Deal players in seed order into pools A, B, C, C, B, A, A, ... so pools are even.

    >>> snake_pools([1, 2, 3, 4, 5, 6, 7], 3)
    [[1, 6, 7], [2, 5], [3, 4]]
    """
    if pools < 1 or len(seeded) < 2 * pools:
        raise ValueError(f"{len(seeded)} players cannot fill {pools} pools of two or more")
    dealt: list[list[T]] = [[] for _ in range(pools)]
    for index, player in enumerate(seeded):
        lap, place = divmod(index, pools)
        dealt[place if lap % 2 == 0 else pools - 1 - place].append(player)
    return dealt
