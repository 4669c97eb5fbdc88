"""Benchmarks for the draw code: ``python3 -m tournaments.pairing.bench``.

Prints one JSON line per figure: a Swiss round for a 512-player field (after
three rounds of random pairings), and building brackets of 256 entrants.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from .bracket import double_elimination, with_consolation
from .swiss import SwissPlayer, swiss_round


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


def main() -> None:
    rng = random.Random(2026)
    field = swiss_field(512, rng)
    seconds = best_of(3, lambda: swiss_round(field))
    print(json.dumps({"benchmark": "swiss round", "players": 512, "seconds": round(seconds, 3)}))
    seconds = best_of(5, lambda: (with_consolation(256, progressive=True), double_elimination(256)))
    print(json.dumps({"benchmark": "brackets", "entrants": 256, "seconds": round(seconds, 4)}))


if __name__ == "__main__":
    main()
