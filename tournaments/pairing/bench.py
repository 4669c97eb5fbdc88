"""Benchmarks for the draw code: ``python3 -m tournaments.pairing.bench``.

Prints one JSON line per figure: a Swiss round for a 512-player field (after
three rounds of random pairings), and building brackets of 256 entrants.
``--rows`` prints them instead as rows of docs/benchmarks.md's table (the keys
``scripts/bench_report.py`` reads); ``--players`` and ``--entrants`` make the
fields smaller for a quick try.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import TypedDict

from .bracket import double_elimination, with_consolation
from .swiss import SwissPlayer, swiss_round


class Row(TypedDict):
    """One row of docs/benchmarks.md's table, as scripts/bench_report.py reads it."""

    benchmark: str
    figure: float
    unit: str
    goal: str
    beside: str


def swiss_field(size: int, rng: random.Random) -> list[SwissPlayer]:
    keys = list(range(size))
    opponents: dict[int, set[int]] = {k: set() for k in keys}
    wins = dict.fromkeys(keys, 0)
    for _ in range(3):
        rng.shuffle(keys)
        for a, b in zip(keys[::2], keys[1::2], strict=True):
            opponents[a].add(b)
            opponents[b].add(a)
            wins[rng.choice((a, b))] += 1
    return [SwissPlayer(k, wins[k], k + 1, opponents=frozenset(opponents[k])) for k in range(size)]


def best_of(repeat: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def figures(players: int = 512, entrants: int = 256) -> tuple[float, float]:
    """Seconds of a Swiss round of ``players`` (best of 3) and of two brackets (best of 5)."""
    rng = random.Random(2026)
    field = swiss_field(players, rng)
    swiss = best_of(3, lambda: swiss_round(field))
    brackets = best_of(
        5, lambda: (with_consolation(entrants, progressive=True), double_elimination(entrants))
    )
    return swiss, brackets


def rows(players: int = 512, entrants: int = 256) -> list[Row]:
    swiss, brackets = figures(players, entrants)
    return [
        Row(
            benchmark=f"a Swiss round of {players} players after three rounds, best of 3",
            figure=round(swiss, 3),
            unit="s",
            goal="",
            beside="",
        ),
        Row(
            benchmark=(
                f"drawing a {entrants}-entrant progressive-consolation bracket and a"
                " double elimination, best of 5"
            ),
            figure=round(brackets * 1000, 2),
            unit="ms",
            goal="",
            beside="",
        ),
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=512, help="the Swiss field")
    parser.add_argument("--entrants", type=int, default=256, help="the brackets' entrants")
    parser.add_argument("--rows", action="store_true", help="rows of docs/benchmarks.md")
    args = parser.parse_args(argv)
    if args.rows:
        for one in rows(args.players, args.entrants):
            print(json.dumps(one))
        return
    swiss, brackets = figures(args.players, args.entrants)
    print(
        json.dumps(
            {"benchmark": "swiss round", "players": args.players, "seconds": round(swiss, 3)}
        )
    )
    print(
        json.dumps(
            {"benchmark": "brackets", "entrants": args.entrants, "seconds": round(brackets, 4)}
        )
    )


if __name__ == "__main__":
    main()
