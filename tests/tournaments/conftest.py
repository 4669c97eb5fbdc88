"""Fixtures of the tournament tests (the site's own, which they stack on, are tests/conftest.py)."""

import pytest


@pytest.fixture
def timed_knockout(event_with, director, tournament):
    """timed_knockout(players, *, length=7, called=None, clocks="none", **rules): the set-up
    of the time tests (tournament rules, issue 28): a knockout of ``players`` to ``length``
    points, drawn (seed 1), its round 1 called at ``called`` and played on ``clocks`` (left
    as it is when neither is given), in a tournament whose time rules are the common
    defaults with ``rules`` (set first, and only when some are given)."""
    from tournaments.models import Event
    from tournaments.services import event_draw

    from .helpers import round_called, time_rules_set

    def make(players, *, length=7, called=None, clocks="none", **rules):
        if rules:
            time_rules_set(tournament, director, **rules)
        event = event_with(Event.Format.SINGLE, players, lengths=(length,))
        event_draw(event=event, seed=1, user=director)
        if called is not None or clocks != "none":
            round_called(event, 1, called, director, clocks)
        return event

    return make
