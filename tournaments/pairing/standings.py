"""Standings with tie-breaks, from finished matches: Swiss and round robin.

Swiss: wins (a bye counts as one; a round a late arrival missed counts as a bye or as a
loss, as the tournament says), then Buchholz (the opponents' wins added up),
then median Buchholz (the same without the best and the worst opponent, once
there are three or more), then the draw's seed. Round robin: wins, then
head-to-head (wins among the players tied on wins), then points difference,
then the seed.

>>> results = [Result("A", "B", "A", 5, 2), Result("C", "A", "C", 5, 4),
...            Result("B", "C", "B", 5, 0)]
>>> table = round_robin_standings(results, seeds={"A": 1, "B": 2, "C": 3})
>>> [(row.key, row.wins, row.difference) for row in table]
[('A', 1, 2), ('B', 1, 2), ('C', 1, -4)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Result:
    """A finished match: its two players, the winner, and the points each scored."""

    first: Hashable
    second: Hashable
    winner: Hashable
    first_points: int = 0
    second_points: int = 0  # a walkover scores nothing either way


@dataclass(frozen=True)
class Standing:
    key: Hashable
    rank: int
    played: int
    wins: int
    losses: int
    byes: int
    missed: int = 0  # rounds a late arrival missed, counted as losses (no opponent)
    buchholz: int = 0
    median: int = 0
    head_to_head: int = 0
    points_for: int = 0
    points_against: int = 0
    opponents: tuple = field(default=(), repr=False)

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


@dataclass
class _Tally:
    wins: int = 0
    losses: int = 0
    byes: int = 0
    missed: int = 0
    points_for: int = 0
    points_against: int = 0
    opponents: list = field(default_factory=list)


def _tally(
    keys: Iterable[Hashable],
    results: Iterable[Result],
    byes: Mapping[Hashable, int],
    missed: Mapping[Hashable, int] | None = None,
) -> dict[Hashable, _Tally]:
    tallies = {key: _Tally() for key in keys}
    for result in results:
        for me, other, scored, conceded in (
            (result.first, result.second, result.first_points, result.second_points),
            (result.second, result.first, result.second_points, result.first_points),
        ):
            tally = tallies.setdefault(me, _Tally())
            tally.opponents.append(other)
            tally.points_for += scored
            tally.points_against += conceded
            if result.winner == me:
                tally.wins += 1
            else:
                tally.losses += 1
    for key, count in byes.items():
        tally = tallies.setdefault(key, _Tally())
        tally.byes += count
        tally.wins += count
    for key, count in (missed or {}).items():
        tally = tallies.setdefault(key, _Tally())
        tally.missed += count
        tally.losses += count
    return tallies


def _row(key: Hashable, tally: _Tally, **tie_breaks: int) -> Standing:
    return Standing(
        key=key,
        rank=0,
        played=len(tally.opponents),
        wins=tally.wins,
        losses=tally.losses,
        byes=tally.byes,
        missed=tally.missed,
        points_for=tally.points_for,
        points_against=tally.points_against,
        opponents=tuple(tally.opponents),
        **tie_breaks,
    )


def swiss_standings(
    results: Iterable[Result],
    *,
    seeds: Mapping[Hashable, int],
    byes: Mapping[Hashable, int] | None = None,
    missed: Mapping[Hashable, int] | None = None,
) -> list[Standing]:
    """Everyone in ``seeds``, best first; a bye adds a win and no opponent to Buchholz, a
    round ``missed`` (a late arrival's, counted as lost) adds a loss and no opponent."""
    tallies = _tally(seeds, results, byes or {}, missed)
    rows = []
    for key, tally in tallies.items():
        scores = sorted(tallies[o].wins for o in tally.opponents)
        median = scores[1:-1] if len(scores) >= 3 else scores
        rows.append(_row(key, tally, buchholz=sum(scores), median=sum(median)))
    rows.sort(key=lambda r: (-r.wins, -r.buchholz, -r.median, seeds.get(r.key, 10**9)))
    return _ranked(rows, lambda r: (r.wins, r.buchholz, r.median))


def round_robin_standings(
    results: Iterable[Result], *, seeds: Mapping[Hashable, int]
) -> list[Standing]:
    """Everyone in ``seeds``, best first (see the module's note for the order)."""
    results = list(results)
    tallies = _tally(seeds, results, {})
    by_wins: dict[int, set[Hashable]] = {}
    for key, tally in tallies.items():
        by_wins.setdefault(tally.wins, set()).add(key)
    head_to_head = dict.fromkeys(tallies, 0)
    for result in results:
        tied = by_wins[tallies[result.first].wins]
        if result.second in tied:
            head_to_head[result.winner] += 1
    rows = [_row(key, tally, head_to_head=head_to_head[key]) for key, tally in tallies.items()]
    rows.sort(key=lambda r: (-r.wins, -r.head_to_head, -r.difference, seeds.get(r.key, 10**9)))
    return _ranked(rows, lambda r: (r.wins, r.head_to_head, r.difference))


def _ranked(rows: list[Standing], tie) -> list[Standing]:
    """Number the rows; players equal on every tie-break share a rank (the seed only orders)."""
    ranked: list[Standing] = []
    for index, row in enumerate(rows):
        same = index and tie(rows[index - 1]) == tie(row)
        rank = ranked[-1].rank if same else index + 1
        ranked.append(Standing(**{**row.__dict__, "rank": rank}))
    return ranked
