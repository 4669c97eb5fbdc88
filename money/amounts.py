"""Money as people read it: cents kept as integers everywhere, shown with two decimals in the
visitor's language ("12.50", "12,50"). No currency is named: a club plays in its own."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format


def amount(cents: int) -> str:
    """``1250`` as "12.50" (Italian "12,50"); a loss keeps its minus sign."""
    return number_format(Decimal(cents) / 100, decimal_pos=2, use_l10n=True)
