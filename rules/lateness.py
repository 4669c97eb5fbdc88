"""Lateness and a match's expected duration: penalty points, forfeits, WBF 3's figures.

Penalty points for lateness come from championship rules, not from the seeds: the
tournament sets them (commonly a point for every 5 minutes late, no grace, a forfeit once
the points reach half the match length). Times are whole seconds given by the caller (any
fixed origin, e.g. Unix time): the engine never reads the system clock.

>>> rules = LatenessRules()
>>> [penalty_points(0, arrived_at=seconds, rules=rules) for seconds in (299, 300, 599, 600)]
[0, 1, 1, 2]
>>> forfeits(3, match_length=7, rules=rules), forfeits(4, match_length=7, rules=rules)
(False, True)

WBF 3 gives a match's expected length: about 20 minutes for 3 points, an hour for 7, four
to five hours for 25.

>>> [expected_minutes(length) for length in (3, 5, 7, 25)]
[20, 40, 60, 270]
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from .match import check_match_length

__all__ = [
    "LatenessRules",
    "expected_minutes",
    "forfeits",
    "overdue",
    "penalty_points",
    "remaining_expected_minutes",
]

# WBF 3's figures (match length, minutes); 25 points is "four to five hours": 4½ hours
FIGURES: tuple[tuple[int, int], ...] = ((3, 20), (7, 60), (25, 270))


@dataclass(frozen=True, slots=True)
class LatenessRules:
    """A tournament's lateness penalty (tournament rules, with the common defaults)."""

    minutes_per_point: int = 5
    grace_minutes: int = 0
    forfeit_at_half: bool = True

    def __post_init__(self) -> None:
        if self.minutes_per_point < 1:
            raise ValueError(f"minutes per point are 1 or more, not {self.minutes_per_point!r}")
        if self.grace_minutes < 0:
            raise ValueError(f"a grace period is 0 minutes or more, not {self.grace_minutes!r}")


def penalty_points(called_at: int, arrived_at: int, rules: LatenessRules) -> int:
    """The penalty points of a player arriving at ``arrived_at`` for a match called at
    ``called_at`` (both whole seconds): one for every complete ``minutes_per_point`` late
    past the grace period, so with the defaults 0:00-4:59 late is 0 points, 5:00 is 1,
    10:00 is 2. Counting complete periods is the common reading; a tournament that counts
    each period begun sets ``grace_minutes`` and ``minutes_per_point`` to match it. Arriving
    before the call costs nothing (tournament rules).

    >>> penalty_points(0, 14 * 60, LatenessRules(grace_minutes=5))
    1
    """
    late = arrived_at - called_at - rules.grace_minutes * 60
    return max(0, late) // (rules.minutes_per_point * 60)


def forfeits(points: int, match_length: int, rules: LatenessRules) -> bool:
    """Whether ``points`` penalty points forfeit a match of ``match_length``: when they reach
    half the length or more and the tournament forfeits at half (tournament rules)."""
    length = check_match_length(match_length, even=True)
    return rules.forfeit_at_half and 2 * points >= length


def _round(numerator: int, denominator: int) -> int:
    """numerator / denominator to the nearest whole number, halves up (both positive)."""
    return (2 * numerator + denominator) // (2 * denominator)


def expected_minutes(match_length: int) -> int:
    """A match's expected duration in minutes, from WBF 3's figures: straight lines between
    3, 7 and 25 points (10 minutes a point up to 7, then 11⅔), the last line carried on past
    25; below 3 points in proportion to the length (a 1-point match a third of a 3-point
    one), since the first line carried back would give it no time at all. Rounded to the
    nearest minute.

    >>> [expected_minutes(length) for length in (1, 9, 11, 13, 15, 17, 21, 31)]
    [7, 83, 107, 130, 153, 177, 223, 340]
    """
    length = check_match_length(match_length, even=True)
    (low, low_minutes), *_ = FIGURES
    if length <= low:
        return _round(low_minutes * length, low)
    for (start, start_minutes), (end, end_minutes) in pairwise(FIGURES):
        if length <= end or end == FIGURES[-1][0]:
            span = end - start
            return _round(
                start_minutes * span + (end_minutes - start_minutes) * (length - start), span
            )
    raise AssertionError("unreachable")  # pragma: no cover


def remaining_expected_minutes(match_length: int, score: tuple[int, int]) -> int:
    """The minutes a match at ``score`` may still be expected to take (WBF 3's figures): its
    expected duration in proportion to the points the leader still needs, the fewest that
    can end it; 0 once a player has won.

    >>> remaining_expected_minutes(7, (0, 0)), remaining_expected_minutes(7, (4, 2))
    (60, 26)
    """
    length = check_match_length(match_length, even=True)
    if min(score) < 0:
        raise ValueError(f"a score is 0 points or more, not {score!r}")
    to_play = max(0, length - max(score))
    return _round(expected_minutes(length) * to_play, length)


def overdue(
    match_length: int, score: tuple[int, int], elapsed_minutes: int, factor: float = 1.5
) -> bool:
    """Whether a match at ``score`` after ``elapsed_minutes`` runs well past what WBF 3
    predicts: the minutes played and those still expected together exceed ``factor``
    times the expected duration.

    >>> overdue(7, (0, 0), 30), overdue(7, (0, 0), 31), overdue(7, (6, 5), 80)
    (False, True, False)
    """
    projected = elapsed_minutes + remaining_expected_minutes(match_length, score)
    return projected > factor * expected_minutes(match_length)
