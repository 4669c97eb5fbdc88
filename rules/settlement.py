"""Who owes whom after a session of money play or a chouette (club practice).

A placeholder with the one value the chouette engine needs; helper k1's module (with the
totals and the fewest transfers) replaces it at the merge, keeping these fields.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Transfer"]


@dataclass(frozen=True, slots=True)
class Transfer:
    """Points (or cents) owed by ``payer`` to ``payee``; ``amount`` is above 0."""

    payer: str
    payee: str
    amount: int
