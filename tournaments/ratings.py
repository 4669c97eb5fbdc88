"""FIBS ratings: what a finished match does to both players' ratings and experience.

Everyone starts at 1500 with experience 0. With D the rating difference and n
the match length, P_upset = 1 / (10^(D·√n/2000) + 1); P = 1 − P_upset when the
lower-rated player wins, P_upset when the higher-rated one does; each player's
K = max(1, 5 − experience/100); the winner gains 4·K·√n·P and the loser loses
4·K·√n·P, each with their own K; experience grows by n.

:func:`fibs_steps` computes each of these figures, :func:`fibs_update` the ratings from
them; the page explaining the formula shows the same steps (one computation, two readers).

>>> after = fibs_update(winner=(1500, 500), loser=(1500, 500), length=1)
>>> after.winner_rating - 1500, 1500 - after.loser_rating
(2.0, 2.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class RatingChange:
    winner_rating: float
    winner_experience: int
    loser_rating: float
    loser_experience: int


@dataclass(frozen=True)
class FibsSteps:
    """Every figure of one match's rating change, in the order the formula takes them."""

    root: float  # √n
    difference: float  # D = |winner's rating − loser's rating|
    exponent: float  # D·√n/2000
    power: float  # 10^exponent
    upset: float  # P_upset = 1 / (power + 1): the lower-rated player's chance
    winner_chance: float  # the winner's chance of winning: 1 − P_upset, or P_upset
    unexpected: float  # 1 − the winner's chance (P in the docstring above)
    swing: float  # 4·√n·(1 − the winner's chance)
    winner_k: float
    loser_k: float
    gain: float  # the winner's K × swing
    loss: float  # the loser's K × swing
    change: RatingChange


def rating_kept(rating: float) -> Decimal:
    """A rating as the site keeps it: to the cent, a half cent to the even one.

    >>> rating_kept(1512.345), rating_kept(1512.355)
    (Decimal('1512.34'), Decimal('1512.36'))
    """
    return Decimal(str(rating)).quantize(CENT, rounding=ROUND_HALF_EVEN)


def k_factor(experience: int) -> float:
    """New players move faster: K falls from 5 to 1 over their first 400 points of play."""
    return max(1.0, 5 - experience / 100)


def fibs_steps(*, winner: tuple[float, int], loser: tuple[float, int], length: int) -> FibsSteps:
    """``winner`` and ``loser`` are (rating, experience) before the match."""
    (w_rating, w_exp), (l_rating, l_exp) = winner, loser
    root = math.sqrt(length)
    difference = abs(w_rating - l_rating)
    exponent = difference * root / 2000
    power = 10**exponent
    upset = 1 / (power + 1)
    unexpected = 1 - upset if w_rating < l_rating else upset
    swing = 4 * root * unexpected
    winner_k, loser_k = k_factor(w_exp), k_factor(l_exp)
    gain, loss = winner_k * swing, loser_k * swing
    return FibsSteps(
        root=root,
        difference=difference,
        exponent=exponent,
        power=power,
        upset=upset,
        winner_chance=1 - unexpected,
        unexpected=unexpected,
        swing=swing,
        winner_k=winner_k,
        loser_k=loser_k,
        gain=gain,
        loss=loss,
        change=RatingChange(
            winner_rating=w_rating + gain,
            winner_experience=w_exp + length,
            loser_rating=l_rating - loss,
            loser_experience=l_exp + length,
        ),
    )


def fibs_update(
    *, winner: tuple[float, int], loser: tuple[float, int], length: int
) -> RatingChange:
    """``winner`` and ``loser`` are (rating, experience) before the match."""
    return fibs_steps(winner=winner, loser=loser, length=length).change
