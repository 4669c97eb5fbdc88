"""Helpers for the tournament tests: find a bracket's match, play an event through, set a
tournament's time rules and call a round (tournament rules, issue 28)."""

import datetime
import html
import re
from typing import Any
from unittest import mock
from uuid import uuid4

from django.db.models import Q
from django.utils import timezone

from club.models import Player
from matches.models import Match
from tournaments.models import RatingChange
from tournaments.queries.events import event_matches
from tournaments.services import event_round, round_times_set, tournament_time_set

# a tournament's time rules as the site gives every tournament (the common defaults): a
# point for every 5 minutes late, no grace, a forfeit at half the length; 2 minutes a point
# on the clock, a 12-second delay, a flag loses the match
TIME_RULES = {
    "late_minutes_per_point": 5,
    "late_grace_minutes": 0,
    "late_forfeit_at_half": True,
    "clock_seconds_per_point": 120,
    "clock_delay_seconds": 12,
    "clock_on_flag": "match",
}


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


def between(event, one, other):
    """The event's match between two players (a round robin has one for each pair)."""
    found = Match.objects.select_related("player_a", "player_b").filter(place__event=event)
    return found.get(
        Q(player_a=one, player_b=other) | Q(player_a=other, player_b=one),
    )


def tables_cells(page: str, table_class: str) -> list[list[list[str]]]:
    """Each table of the class on the page, as rows of cell texts (headings included) as a
    reader sees them."""
    found = []
    for table in re.findall(rf'<table[^>]*class="{table_class}".*?</table>', page, re.S):
        rows = []
        for row in re.findall(r"<tr.*?</tr>", table, re.S):
            cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            rows.append(
                [
                    re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", c))).strip()
                    for c in cells
                ]
            )
        found.append(rows)
    return found


def another_tournament(document):
    """A tournament file given a new identity: a tournament like the file's, not it.

    A site refuses a file of a tournament it holds (issue 25.3), so a round trip made on one
    site imports this beside the original, to compare the two; the copy keeps this identity.
    """
    return {**document, "tournament": {**document["tournament"], "uuid": str(uuid4())}}


def time_rules_set(tournament, director, **changes):
    """The tournament's time rules set through the service: the common defaults
    (TIME_RULES) with ``changes``."""
    return tournament_time_set(tournament=tournament, user=director, **{**TIME_RULES, **changes})


def round_called(event, number, at, director, clocks="none"):
    """Round ``number`` of the event starts (is called) at ``at`` (None: no start given),
    played on ``clocks`` ("required", "allowed" or "none"), through the service."""
    return round_times_set(
        round=event_round(event=event, number=number), starts_at=at, clocks=clocks, user=director
    )


# --- the rating history, for the ratings' tests --------------------------------------------

RATINGS_START = datetime.datetime(2026, 3, 1, 18, 0, tzinfo=datetime.UTC)


def ratings_now() -> tuple[dict, list]:
    """Every player's rating and experience, and every rating change, comparable."""
    players = {p.pk: (p.rating, p.experience) for p in Player.objects.all()}
    changes = sorted(
        RatingChange.objects.values_list(
            "player_id", "match_id", "order", "rating_before", "rating_after", "experience_after"
        )
    )
    return players, changes


def final_score(match: Match, a_wins: bool, loser_points: int) -> tuple[int, int]:
    loser = min(loser_points, match.length - 1)
    return (match.length, loser) if a_wins else (loser, match.length)


def clock_at(minutes: int) -> Any:
    """The services' clock stopped at RATINGS_START + ``minutes`` (results may share a
    moment, or be recorded as finishing before results already rated)."""
    return mock.patch.object(
        timezone, "now", return_value=RATINGS_START + datetime.timedelta(minutes=minutes)
    )
