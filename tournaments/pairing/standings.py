"""Standings with tie-breaks, from finished matches: Swiss and round robin.

Swiss: wins (a bye counts as one; a round a late arrival missed counts as a bye or as a
loss, as the tournament says), then Buchholz (the opponents' wins added up),
then median Buchholz (the same without the best and the worst opponent, once
there are three or more), then the draw's seed.

Round robin: wins; players level on wins are separated by, in order (:data:`TIE_BREAKS`):

1. head-to-head: their wins in the matches among just those players (a mini-league);
2. the points difference in those matches;
3. the points difference in all their matches;
4. the points scored in all their matches.

When a tie-break separates some of the players but leaves others level, those still level
start again from 1 among themselves only (recursion: after a three-way cycle splits on
points difference, the two left level are decided by the match between them). Players level
after all four share the place (``shared``, ``decided_by`` :attr:`Decider.SHARED`); the
draw's seed only orders them on the page, the director (or a play-off) decides.

A three-way cycle: one win each and one head-to-head win each; C's points difference among
the three is the worst, A and B are level on it, and A beat B:

>>> results = [Result("A", "B", "A", 5, 2), Result("C", "A", "C", 5, 4),
...            Result("B", "C", "B", 5, 0)]
>>> table = round_robin_standings(results, seeds={"A": 1, "B": 2, "C": 3})
>>> [(row.key, row.wins, row.difference, row.rank) for row in table]
[('A', 1, 2, 1), ('B', 1, 2, 2), ('C', 1, -4, 3)]
>>> [row.decided_by.value for row in table]
['head_to_head', 'head_to_head', 'head_to_head_difference']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum


@dataclass(frozen=True)
class Result:
    """A finished match: its two players, the winner, and the points each scored."""

    first: Hashable
    second: Hashable
    winner: Hashable
    first_points: int = 0
    second_points: int = 0  # a walkover scores nothing either way


class Decider(StrEnum):
    """What placed a round robin player among the players level with them on wins: the
    tie-break that left them alone, or none (``SHARED``)."""

    WINS = "wins"  # nobody else has as many wins
    HEAD_TO_HEAD = "head_to_head"  # wins in the matches among the players level
    HEAD_TO_HEAD_DIFFERENCE = "head_to_head_difference"  # points difference in those matches
    DIFFERENCE = "difference"  # points difference in all their matches
    POINTS_FOR = "points_for"  # points scored in all their matches
    SHARED = "shared"  # level on every tie-break: the director or a play-off decides


TIE_BREAKS = (
    Decider.HEAD_TO_HEAD,
    Decider.HEAD_TO_HEAD_DIFFERENCE,
    Decider.DIFFERENCE,
    Decider.POINTS_FOR,
)


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
    opponents: tuple[Hashable, ...] = field(default=(), repr=False)
    shared: bool = False  # another player has the same rank: level on every tie-break
    decided_by: Decider | None = None  # round robin only

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
    opponents: list[Hashable] = field(default_factory=list)


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


def _row(
    key: Hashable, tally: _Tally, *, buchholz: int = 0, median: int = 0, head_to_head: int = 0
) -> Standing:
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
        buchholz=buchholz,
        median=median,
        head_to_head=head_to_head,
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
    by_wins: dict[int, list[Hashable]] = {}
    for key, tally in tallies.items():
        by_wins.setdefault(tally.wins, []).append(key)
    seed = {key: seeds.get(key, 10**9) for key in tallies}
    head_to_head: dict[Hashable, int] = {}
    decided: dict[Hashable, Decider] = {}
    tiers: list[list[Hashable]] = []
    for wins in sorted(by_wins, reverse=True):
        level = sorted(by_wins[wins], key=lambda k: seed[k])  # the seed only orders a tie
        head_to_head |= {k: mini[0] for k, mini in _mini_league(level, results).items()}
        if len(level) == 1:
            decided[level[0]] = Decider.WINS
            tiers.append(level)
        else:
            tiers += _separate(level, results, tallies, decided)
    rows = []
    rank = 1
    for tier in tiers:
        for key in tier:
            tally = tallies[key]
            row = _row(key, tally, head_to_head=head_to_head[key])
            rows.append(replace(row, rank=rank, shared=len(tier) > 1, decided_by=decided[key]))
        rank += len(tier)
    return rows


def _mini_league(
    players: Iterable[Hashable], results: Iterable[Result]
) -> dict[Hashable, tuple[int, int]]:
    """Each player's wins and points difference in the matches among ``players`` only."""
    among = set(players)
    table = dict.fromkeys(among, (0, 0))
    for result in results:
        if result.first in among and result.second in among:
            for me, scored, conceded in (
                (result.first, result.first_points, result.second_points),
                (result.second, result.second_points, result.first_points),
            ):
                wins, difference = table[me]
                table[me] = (wins + (result.winner == me), difference + scored - conceded)
    return table


def _separate(
    level: list[Hashable],
    results: list[Result],
    tallies: Mapping[Hashable, _Tally],
    decided: dict[Hashable, Decider],
) -> list[list[Hashable]]:
    """Players level on wins in tiers, best first, by the first tie-break that tells any of
    them apart; a tier of two or more starts again from head-to-head among itself only.
    ``level`` is in seed order, and so is each tier."""
    mini = _mini_league(level, results)
    values: dict[Decider, Callable[[Hashable], int]] = {
        Decider.HEAD_TO_HEAD: lambda k: mini[k][0],
        Decider.HEAD_TO_HEAD_DIFFERENCE: lambda k: mini[k][1],
        Decider.DIFFERENCE: lambda k: tallies[k].points_for - tallies[k].points_against,
        Decider.POINTS_FOR: lambda k: tallies[k].points_for,
    }
    for decider in TIE_BREAKS:
        value = values[decider]
        found = sorted({value(k) for k in level}, reverse=True)
        if len(found) == 1:
            continue
        tiers: list[list[Hashable]] = []
        for best in found:
            tier = [k for k in level if value(k) == best]
            if len(tier) == 1:
                decided[tier[0]] = decider
                tiers.append(tier)
            else:
                tiers += _separate(tier, results, tallies, decided)
        return tiers
    for key in level:
        decided[key] = Decider.SHARED
    return [level]


def _ranked(rows: list[Standing], tie: Callable[[Standing], tuple[int, ...]]) -> list[Standing]:
    """Number the rows; players equal on every tie-break share a rank (the seed only orders)."""
    ranked: list[Standing] = []
    for index, row in enumerate(rows):
        same = index and tie(rows[index - 1]) == tie(row)
        rank = ranked[-1].rank if same else index + 1
        if same:
            ranked[-1] = replace(ranked[-1], shared=True)
        ranked.append(replace(row, rank=rank, shared=bool(same)))
    return ranked
