"""FIBS ratings: what a finished match does to both players' ratings and experience.

Everyone starts at 1500 with experience 0. With D the rating difference and n
the match length, P_upset = 1 / (10^(D·√n/2000) + 1); P = 1 − P_upset when the
lower-rated player wins, P_upset when the higher-rated one does; each player's
K = max(1, 5 − experience/100); the winner gains 4·K·√n·P and the loser loses
4·K·√n·P, each with their own K; experience grows by n.

>>> after = fibs_update(winner=(1500, 500), loser=(1500, 500), length=1)
>>> after.winner_rating - 1500, 1500 - after.loser_rating
(2.0, 2.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class RatingChange:
    winner_rating: float
    winner_experience: int
    loser_rating: float
    loser_experience: int


def k_factor(experience: int) -> float:
    """New players move faster: K falls from 5 to 1 over their first 400 points of play."""
    return max(1.0, 5 - experience / 100)


def fibs_update(
    *, winner: tuple[float, int], loser: tuple[float, int], length: int
) -> RatingChange:
    """``winner`` and ``loser`` are (rating, experience) before the match."""
    (w_rating, w_exp), (l_rating, l_exp) = winner, loser
    root = math.sqrt(length)
    difference = abs(w_rating - l_rating)
    upset = 1 / (10 ** (difference * root / 2000) + 1)
    probability = 1 - upset if w_rating < l_rating else upset
    swing = 4 * root * probability
    return RatingChange(
        winner_rating=w_rating + k_factor(w_exp) * swing,
        winner_experience=w_exp + length,
        loser_rating=l_rating - k_factor(l_exp) * swing,
        loser_experience=l_exp + length,
    )
