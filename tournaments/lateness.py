"""A match's call and its players' lateness (tournament rules, with rules.lateness).

A match is called at the later of its round's start (:attr:`Round.starts_at`) and its first
call to a table (:class:`matches.models.TableCall`): when the room's tables are numbered, a
match waiting for a table is not called yet, whatever the round's start; when they are not,
the round's start alone calls it. Neither: it is not called, and nobody is late for it.

A player not at the table when the match is called is late from then: the penalty points
accrued are the tournament's (:attr:`Tournament.lateness_rules`; none when it gives no
penalty points), and they forfeit the match once the points reach half its length, if the
tournament says so. Nothing here is stored: the dashboard asks at each refresh, and the
director's click on "Arrived" keeps the figures of that moment (:class:`Arrival`).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Case, OuterRef, QuerySet, Subquery, When

from matches.models import Match, TableCall
from rules.lateness import LatenessRules, forfeits, penalty_points

from .models import Event, Round, Tournament


@dataclass(frozen=True)
class Lateness:
    """How late a player is (or was, on arriving) for a match called at ``called_at``."""

    minutes: int  # complete minutes past the call; 0 before it
    points: int  # the penalty points accrued: 0 without lateness penalties
    forfeits: bool  # the points reach half the match length and the tournament forfeits


def with_first_call(queryset: QuerySet[Match], *, status: str | None = None) -> QuerySet[Match]:
    """The matches annotated with ``first_called_at``: their first call to a table, if any
    (the calls closed since count: the players were told). ``status``: only the matches
    with it are looked up (the others None)."""
    first = (
        TableCall.objects.filter(match=OuterRef("pk")).order_by("called_at").values("called_at")[:1]
    )
    called: Subquery | Case = Subquery(first)
    if status is not None:
        called = Case(When(status=status, then=called), default=None)
    return queryset.annotate(first_called_at=called)


def round_row(event: Event, number: int) -> Round | None:
    """Round ``number``'s stored row (its start and clocks), from the event's rounds as
    read (prefetched by the pages); None beyond the lengths given and never timed."""
    return next((r for r in event.rounds.all() if r.number == number), None)


def called_time(
    *,
    tournament: Tournament,
    starts_at: datetime.datetime | None,
    first_called_at: datetime.datetime | None,
) -> datetime.datetime | None:
    """When a match is called, from its round's start and its first table call."""
    if tournament.tables and first_called_at is None:
        return None  # waits for a table: called when it gets one
    times = [t for t in (starts_at, first_called_at) if t is not None]
    return max(times, default=None)


def match_called_at(*, match: Match) -> datetime.datetime | None:
    """When ``match`` (of a tournament) was called, read from the database; None when it
    is not called (yet)."""
    place = match.place
    event = place.event
    start = (
        Round.objects.filter(event=event, number=place.round)
        .values_list("starts_at", flat=True)
        .first()
    )
    first = (
        TableCall.objects.filter(match=match)
        .order_by("called_at")
        .values_list("called_at", flat=True)
        .first()
    )
    return called_time(tournament=event.tournament, starts_at=start, first_called_at=first)


def lateness(
    *,
    called_at: datetime.datetime,
    at: datetime.datetime,
    length: int,
    rules: LatenessRules | None,
) -> Lateness:
    """A player arriving (or not yet arrived) at ``at`` for a match of ``length`` points
    called at ``called_at``, under the tournament's ``rules`` (None: no penalty points)."""
    minutes = max(0, int((at - called_at).total_seconds() // 60))
    if rules is None:
        return Lateness(minutes, 0, False)
    points = penalty_points(int(called_at.timestamp()), int(at.timestamp()), rules)
    return Lateness(minutes, points, points > 0 and forfeits(points, length, rules))
