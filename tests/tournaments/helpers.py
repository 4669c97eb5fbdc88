"""Helpers for the tournament tests: find a bracket's match, play an event through."""

from uuid import uuid4

from matches.models import Match
from tournaments.selectors import event_matches


def open_matches(event):
    return [m for m in event_matches(event=event) if not m.decided]


def by_key(event, key):
    found = Match.objects.select_related("player_a", "player_b")
    return found.get(place__event=event, place__bracket_key=key)


def play_everything(event, finish, rng, *, limit=500):
    """Finish every match as it appears, the winner picked by ``rng``; returns how many."""
    played = 0
    while (waiting := open_matches(event)) and played < limit:
        match = rng.choice(waiting)
        finish(match, rng.choice((match.player_a, match.player_b)))
        played += 1
    return played


def another_tournament(document):
    """A tournament file given a new identity: a tournament like the file's, not it.

    A site refuses a file of a tournament it holds (issue 25.3), so a round trip made on one
    site imports this beside the original, to compare the two; the copy keeps this identity.
    """
    return {**document, "tournament": {**document["tournament"], "uuid": str(uuid4())}}
