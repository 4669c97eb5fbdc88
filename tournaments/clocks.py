"""The clock rule of a tournament's match, for the board (:mod:`matches.clocks`): its round's
clocks (required, allowed or none) with the tournament's time per point, delay and what a
flag loses. Registered at start-up (``TournamentsConfig.ready``)."""

from __future__ import annotations

from matches.clocks import ClockUse, MatchClockRules
from matches.models import Match

from .models import Place, Round


def tournament_clock_rules(match: Match) -> MatchClockRules | None:
    """A match of a tournament: its round's clocks and the tournament's settings; None for
    a match outside any tournament (the board asks the next provider, or has no clock)."""
    place = Place.objects.filter(match_id=match.pk).select_related("event__tournament").first()
    if place is None:
        return None
    clocks = (
        Round.objects.filter(event_id=place.event_id, number=place.round)
        .values_list("clocks", flat=True)
        .first()
    )
    return MatchClockRules(
        use=ClockUse(clocks or Round.Clocks.NONE),
        settings=place.event.tournament.clock_settings,
    )
