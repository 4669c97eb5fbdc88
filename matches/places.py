"""Where a match is played, as the match's pages and the players' reports need it.

A match of a tournament is named after its tournament, event and round, has a table,
and is reported the way its tournament says (game by game or only the final score, the
opponent given so many minutes to confirm). Those settings belong to the tournaments app,
which sits above this one: it registers a finder at start-up (``AppConfig.ready``) that
answers with a :class:`MatchPlace`, and this app reads the settings through it, never
from the tournament itself. Who may do what is not here: that is :mod:`club.policy`.

Nothing is kept between calls: a page asks once and passes the place along (the
policy's own question, who directs the match, is :func:`club.policy.match_scope`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    from .models import Match

# how the players report a result: game by game, only the final score, or either
ReportDetail: TypeAlias = Literal["games", "final", "either"]


@dataclass(frozen=True)
class MatchPlace:
    """A match's tournament settings and where it is played (the defaults: a match
    outside any tournament)."""

    report_detail: ReportDetail = "either"
    confirm_minutes: int = 15  # how long a report waits for the opponent, then the director
    label: str = ""  # "Torneo d'Autunno · Main draw · round 2 (M2-1)", for the match's pages
    url: str = ""  # the event's page
    table: int | None = None  # the table the match is given, for the players' pages


NOWHERE = MatchPlace()

PlaceFinder: TypeAlias = Callable[["Match"], "MatchPlace | None"]
_finders: list[PlaceFinder] = []


def register_place_finder(finder: PlaceFinder) -> None:
    """A higher app says where a match is played (None: not one of its matches)."""
    if finder not in _finders:
        _finders.append(finder)


def match_place(match: Match) -> MatchPlace:
    """Where the match is played and how its result is reported (asked afresh each time)."""
    for finder in _finders:
        found = finder(match)
        if found is not None:
            return found
    return NOWHERE
