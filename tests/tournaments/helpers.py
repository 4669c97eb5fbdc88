"""Helpers for the tournament tests: find a bracket's match, play an event through."""

from matches.models import Match
from tournaments.selectors import event_matches


def open_matches(event):
    return [m for m in event_matches(event=event) if not m.decided]


def by_key(event, key):
    found = Match.objects.select_related("player_a", "player_b")
    return found.get(place__event=event, place__bracket_key=key)


def play_everything(event, finish, rng, *, limit=500, choose=None):
    """Finish every match as it appears, the winner picked by ``choose(match)`` or, when it
    answers None (or there is none), by ``rng``; returns how many."""
    played = 0
    while (waiting := open_matches(event)) and played < limit:
        match = rng.choice(waiting)
        winner = choose(match) if choose is not None else None
        finish(match, winner or rng.choice((match.player_a, match.player_b)))
        played += 1
    return played
