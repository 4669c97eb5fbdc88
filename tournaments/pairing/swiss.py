"""Swiss pairings: within score groups, no rematch, a fair bye, each pairing with its reason.

The round is one maximum-weight matching (networkx): every pair of players who
have not met is an edge, heavier the closer their scores, so the matching keeps
score groups together and floats as few players, as little, as it can; within a
group the top half meets the bottom half in order (1 v 5, 2 v 6, ... of eight), the
usual fold. A rematch
is an edge of weight 1, chosen only when no pairing without one exists.

>>> players = [SwissPlayer("A", 2, 1), SwissPlayer("B", 2, 2), SwissPlayer("C", 1, 3),
...            SwissPlayer("D", 1, 4), SwissPlayer("E", 0, 5)]
>>> for p in swiss_round(players): print(p)
A v B: same score group (2 wins)
C v D: same score group (1 win)
E: bye, the lowest-ranked player who has not had one

A reason is a code with parameters (Tabbycat's flags): the site stores the code and
says it in the visitor's language; ``str()`` gives the English of this module.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

SCORE_WEIGHT = 1_000_000  # a pairing within a score group
FLOAT_COST = 10_000  # per squared win of difference
REMATCH_WEIGHT = 1  # only when nothing else pairs everyone


@dataclass(frozen=True)
class SwissPlayer:
    """A player's standing going into the round; ``rank`` 1 is the top of the standings."""

    key: Hashable
    wins: int
    rank: int
    had_bye: bool = False
    opponents: frozenset[Hashable] = frozenset()


# why a pairing was made: code -> English description ({first} and {second} are the players)
REASONS: Mapping[str, str] = {
    "same-group": "same score group ({wins})",
    "float": "{first} floats down from {from} to meet {second} on {to}",
    "rematch": "rematch: no pairing of the whole field avoids one",
    "bye": "bye, the lowest-ranked player who has not had one",
    "bye-again": "bye, everyone has had one: the lowest-ranked player",
}


@dataclass(frozen=True)
class Reason:
    """Why a pairing was made: a code of :data:`REASONS` and its numbers (wins)."""

    code: str
    params: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in REASONS:
            raise ValueError(f"unknown pairing reason {self.code!r}")

    def english(self, first: object = "", second: object = "") -> str:
        wins = {key: _wins(value) for key, value in self.params.items()}
        return REASONS[self.code].format(first=first, second=second, **wins)


@dataclass(frozen=True)
class Pairing:
    first: Hashable
    second: Hashable | None  # None: a bye
    reason: Reason

    def __str__(self) -> str:
        reason = self.reason.english(self.first, self.second)
        if self.second is None:
            return f"{self.first}: {reason}"
        return f"{self.first} v {self.second}: {reason}"


WINDOW_FROM = 96  # fields larger than this try the windowed graph first
WINDOW = 48  # how far apart in the standings two candidates may be


def _met(a: SwissPlayer, b: SwissPlayer) -> bool:
    return b.key in a.opponents or a.key in b.opponents


def _matching(standing: Sequence[SwissPlayer], window: int) -> set[tuple[int, int]]:
    group_size: dict[int, int] = {}
    for player in standing:
        group_size[player.wins] = group_size.get(player.wins, 0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(len(standing)))
    for i, a in enumerate(standing):
        candidates = set(range(i + 1, min(len(standing), i + 1 + window)))
        if window < len(standing):  # a big field: also the players around i's fold partner
            fold = i + group_size[a.wins] // 2
            candidates.update(range(max(i + 1, fold - window // 2), fold + window // 2))
        for j in sorted(c for c in candidates if c < len(standing)):
            b = standing[j]
            if _met(a, b):
                weight = REMATCH_WEIGHT
            else:
                # tie-break: the top half of a score group meets the bottom half, in order
                # (1 v 5, 2 v 6, ... in a group of eight), as directors fold a Swiss group
                fold_gap = abs((j - i) - group_size[a.wins] // 2) if a.wins == b.wins else j - i
                weight = SCORE_WEIGHT - FLOAT_COST * (a.wins - b.wins) ** 2 - fold_gap
            graph.add_edge(i, j, weight=weight)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matching


def _wins(count: int) -> str:
    return f"{count} win{'s' if count != 1 else ''}"


def swiss_round(players: Sequence[SwissPlayer]) -> list[Pairing]:
    """Pair one round; with an odd field the lowest-ranked player without a bye gets it."""
    standing = sorted(players, key=lambda p: (-p.wins, p.rank))
    pairings: list[Pairing] = []
    bye_pairing: list[Pairing] = []
    if len(standing) % 2:
        eligible = [p for p in standing if not p.had_bye] or standing
        bye = eligible[-1]
        reason = Reason("bye" if not bye.had_bye else "bye-again")
        bye_pairing.append(Pairing(bye.key, None, reason))
        standing = [p for p in standing if p is not bye]
    matching = None
    if len(standing) > WINDOW_FROM:
        # a big field: only players near each other in the standings are candidates, which
        # is where the weights send them anyway; kept only if it pairs everyone cleanly
        matching = _matching(standing, WINDOW)
        if len(matching) * 2 != len(standing) or any(
            _met(standing[i], standing[j]) for i, j in matching
        ):
            matching = None
    if matching is None:
        matching = _matching(standing, len(standing))
    pairs = sorted(tuple(sorted(edge)) for edge in matching)
    for i, j in pairs:
        a, b = standing[i], standing[j]
        if _met(a, b):
            reason = Reason("rematch")
        elif a.wins == b.wins:
            reason = Reason("same-group", {"wins": a.wins})
        else:
            reason = Reason("float", {"from": a.wins, "to": b.wins})
        pairings.append(Pairing(a.key, b.key, reason))
    return pairings + bye_pairing
