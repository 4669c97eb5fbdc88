"""Which matches are played on clocks, and with what settings (tournament rules).

Clocks are a tournament's rule, set per round (required, allowed or not used) with the
tournament's time per point, delay and what a flag loses. This app sits below the
tournaments app and does not import it: the tournaments app registers a provider at
start-up (``AppConfig.ready``) that answers for its matches (:func:`register_clock_rules`).
A match no provider answers for (one outside any tournament) has no clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, TypeAlias

from rules.clock import ClockSettings

if TYPE_CHECKING:
    from .models import Match

__all__ = [
    "NO_CLOCKS",
    "ClockUse",
    "MatchClockRules",
    "match_clock_rules",
    "register_clock_rules",
    "unregister_clock_rules",
]


class ClockUse(StrEnum):
    """Whether a match is played on clocks (set per round)."""

    REQUIRED = "required"  # the board starts both clocks at the first roll
    ALLOWED = "allowed"  # either player may start them
    NONE = "none"  # no clocks


@dataclass(frozen=True)
class MatchClockRules:
    """A match's clock rule: whether clocks are used, and the tournament's settings."""

    use: ClockUse
    settings: ClockSettings = field(default_factory=ClockSettings)

    @property
    def used(self) -> bool:
        """Clocks may be (allowed) or are (required) used in this match."""
        return self.use is not ClockUse.NONE


NO_CLOCKS = MatchClockRules(use=ClockUse.NONE)
ClockRulesProvider: TypeAlias = Callable[["Match"], MatchClockRules | None]
_providers: list[ClockRulesProvider] = []


def register_clock_rules(provider: ClockRulesProvider) -> None:
    """A higher app says which clock rule a match is played under (None: not its match)."""
    if provider not in _providers:
        _providers.append(provider)


def unregister_clock_rules(provider: ClockRulesProvider) -> None:
    """Stop asking a provider (a test's, once the test is over)."""
    if provider in _providers:
        _providers.remove(provider)


def match_clock_rules(match: Match) -> MatchClockRules:
    """The match's clock rule: the first provider's answer, :data:`NO_CLOCKS` when none
    answers (a match outside any tournament)."""
    for provider in _providers:
        found = provider(match)
        if found is not None:
            return found
    return NO_CLOCKS
