"""Knockout draws: bracket size, standard seeding positions, byes that never meet.

>>> seed_order(8)
(1, 8, 4, 5, 2, 7, 3, 6)
>>> [pair for pair in first_round(["A", "B", "C", "D", "E"])]
[('A', None), ('D', 'E'), ('B', None), ('C', None)]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def bracket_size(entrants: int) -> int:
    """The smallest power of two that holds everyone (byes fill the rest)."""
    if entrants < 2:
        raise ValueError("a knockout needs at least two entrants")
    size = 1
    while size < entrants:
        size *= 2
    return size


def seed_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order, so that 1 and 2 meet only in the final, 1-4 in the semis, ...

    Each round's line-up is the previous one with every seed s followed by its
    mirror (round size + 1 - s): the standard tennis and backgammon layout.
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket holds a power of two, not {size}")
    order = [1, 2]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, mirror - s)]
    return tuple(order)


def first_round(seeded: Sequence[T]) -> list[tuple[T, T | None]]:
    """Round-one pairs from entrants in seed order; ``None`` is a bye.

    Byes are the missing seeds below the last entrant, so they face the top
    seeds, are spread across the bracket by the seeding, and never meet each
    other (two byes would need two seeds above the field in one pair).
    """
    size = bracket_size(len(seeded))
    order = seed_order(size)
    pairs: list[tuple[T, T | None]] = []
    for i in range(0, size, 2):
        first, second = order[i], order[i + 1]  # the higher seed first: never a bye
        pairs.append((seeded[first - 1], seeded[second - 1] if second <= len(seeded) else None))
    return pairs


def random_seeding(entrants: Sequence[T], rng: random.Random) -> list[T]:
    """A random draw: the seed order is shuffled by ``rng`` (seeded, so it can be repeated)."""
    drawn = list(entrants)
    rng.shuffle(drawn)
    return drawn


def main(argv: Sequence[str] | None = None) -> None:
    """Repeat a published random draw: the seed, then the checked-in players' names.

    The site shuffles the names in alphabetical order (ignoring case) with Python's
    ``random.Random(seed)``; this prints the seeds it gave, so anyone can check a draw.
    """
    import argparse

    parser = argparse.ArgumentParser(
        prog="python3 -m tournaments.pairing.seeding", description=main.__doc__
    )
    parser.add_argument("seed", type=int, help="the draw seed shown on the event's page")
    parser.add_argument("names", nargs="+", help="the checked-in players, in any order")
    options = parser.parse_args(argv)
    alphabetical = sorted(options.names, key=str.casefold)
    for number, name in enumerate(random_seeding(alphabetical, random.Random(options.seed)), 1):
        print(f"{number:3}  {name}")


if __name__ == "__main__":
    main()
