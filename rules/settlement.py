"""Settling a session: each player's total, in points and in money, and who pays whom.

A money session or a chouette keeps a ledger: one :class:`Transfer` a game and pair of
players who scored against each other (the box and each member, a partner's share, a side
cube). At the end of the evening the totals are what the players settle, and they are
settled with as few payments as possible, a convenience every club scorer offers (club
practice, in no seed).

>>> ledger = [Transfer("anna", "bruno", 2), Transfer("carla", "bruno", 1)]
>>> points_totals(ledger)
{'anna': -2, 'bruno': 3, 'carla': -1}
>>> transfers({"anna": -2, "bruno": 3, "carla": -1})
(Transfer(payer='anna', payee='bruno', amount=2), Transfer(payer='carla', payee='bruno', amount=1))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["EXACT_UP_TO", "Transfer", "money_totals", "points_totals", "transfers"]

# The most players (with a total other than 0) settled with the fewest transfers for certain:
# the search looks at every subset of them (2**16 = 65,536), a fraction of a second; above
# it, the greedy settlement (at most one transfer fewer than the players) is used instead.
EXACT_UP_TO = 16


@dataclass(frozen=True, slots=True)
class Transfer:
    """``amount`` points (or cents) owed by ``payer`` to ``payee``; always more than 0."""

    payer: str
    payee: str
    amount: int

    def __post_init__(self) -> None:
        if self.amount < 1:
            raise ValueError(f"a transfer is of 1 or more, not {self.amount!r}")
        if self.payer == self.payee:
            raise ValueError(f"{self.payer!r} cannot pay themself")


def points_totals(ledger: Iterable[Transfer]) -> dict[str, int]:
    """Each player's net points over the ledger (won minus lost), in order of first
    appearance; the totals sum to 0, since every point one player wins another loses."""
    totals: dict[str, int] = {}
    for transfer in ledger:
        totals[transfer.payer] = totals.get(transfer.payer, 0) - transfer.amount
        totals[transfer.payee] = totals.get(transfer.payee, 0) + transfer.amount
    return totals


def money_totals(ledger: Iterable[Transfer], stakes: Mapping[str, int]) -> dict[str, int]:
    """Each player's net money in cents, each transfer valued at the lower of the two
    players' stakes per point (club practice: nobody plays for more than they agreed).

    A player missing from ``stakes`` agreed no stake, and plays for nothing. The totals sum
    to 0, as each transfer's value is won by one player and lost by the other.

    >>> money_totals([Transfer("anna", "bruno", 2)], {"anna": 100, "bruno": 50})
    {'anna': -100, 'bruno': 100}
    """
    totals: dict[str, int] = {}
    for transfer in ledger:
        stake = min(stakes.get(transfer.payer, 0), stakes.get(transfer.payee, 0))
        value = transfer.amount * stake
        totals[transfer.payer] = totals.get(transfer.payer, 0) - value
        totals[transfer.payee] = totals.get(transfer.payee, 0) + value
    return totals


def transfers(totals: Mapping[str, int]) -> tuple[Transfer, ...]:
    """Who pays whom so that every player ends at their total, with the fewest transfers.

    The players with a total other than 0 fall into as many groups summing to 0 as possible,
    each settled on its own with one transfer fewer than its players: that is the fewest
    there can be, since any settlement's payments link the players into such groups. Up to
    :data:`EXACT_UP_TO` such players the grouping is searched for exactly; above, all are one
    group. Within a group the largest debtor pays the largest creditor, again and again.

    Deterministic: the same totals give the same transfers whatever the order of the
    mapping, listed by payer, then payee. Totals that do not sum to 0 raise ``ValueError``.
    """
    if sum(totals.values()) != 0:
        raise ValueError(f"totals to settle sum to 0, these to {sum(totals.values())}")
    players = sorted(player for player, total in totals.items() if total)
    if len(players) <= EXACT_UP_TO:
        groups = _zero_sum_groups([totals[player] for player in players])
    else:
        groups = [list(range(len(players)))]
    settled: list[Transfer] = []
    for group in groups:
        settled.extend(_greedy({players[i]: totals[players[i]] for i in group}))
    return tuple(sorted(settled, key=lambda t: (t.payer, t.payee)))


def _zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """The indices of ``values`` (summing to 0, none 0) split into as many groups summing
    to 0 as there can be.

    Over the subsets (bit masks) of the values: ``best[mask]`` is the most groups summing
    to 0 that an ordering of the mask's values closes one after another, counting a last,
    unfinished group as nothing; adding values in the best order, each time the running sum
    returns to 0 a group ends. The full mask sums to 0, so its last group is finished.
    """
    count = len(values)
    size = 1 << count
    sums = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        most, rest = 0, mask
        while rest:  # each value of the mask taken last
            bit = rest & -rest
            rest ^= bit
            found = best[mask ^ bit]
            if found > most:
                most = found
        best[mask] = most + (sums[mask] == 0)
    # Walk back: take off the value whose removal keeps the best count (the lowest such
    # index, for determinism), and close a group each time the remaining mask sums to 0.
    groups: list[list[int]] = []
    current: list[int] = []
    mask = size - 1
    while mask:
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        need = best[mask] - (sums[mask] == 0)
        index = next(i for i in range(count) if mask >> i & 1 and best[mask ^ (1 << i)] == need)
        current.append(index)
        mask ^= 1 << index
    if current:
        groups.append(current)
    return groups


def _greedy(group: Mapping[str, int]) -> list[Transfer]:
    """Settle ``group`` (totals summing to 0): the largest debtor pays the largest creditor
    what settles one of them, until all are settled; ties go to the first player by id.

    Each transfer settles at least one player and the last settles two, so a group of n
    players takes at most n - 1 transfers.
    """
    left = dict(group)
    made: list[Transfer] = []
    while True:
        debtors = [p for p in sorted(left) if left[p] < 0]
        creditors = [p for p in sorted(left) if left[p] > 0]
        if not debtors:
            return made
        # the largest of each (min and max keep the first of equals: the first by id)
        payer = min(debtors, key=lambda p: left[p])
        payee = max(creditors, key=lambda p: left[p])
        amount = min(-left[payer], left[payee])
        made.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
