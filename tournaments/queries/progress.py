"""Where an event or a tournament stands: the round in play, finished or not, for the pages
and the API."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.db.models import Exists, OuterRef, QuerySet, Subquery

from club.models import Player
from matches.models import Match

from ..models import Bye, Event, Place, Tournament
from ..rounds import RoundName, round_name
from .events import event_matches, tournament_events
from .knockouts import Knockout, event_knockout


def event_current_round(*, event: Event, matches: list[Match]) -> int | None:
    """The earliest round with a match still to finish; None when all are done."""
    waiting = [m.place.round for m in matches if not m.decided]
    return min(waiting) if waiting else None


@dataclass(frozen=True)
class Progress:
    """Where an event stands, for the line at the top of its page."""

    stage: str  # entries, playing, to_pair, to_cut, finished
    round: int | None = None
    champion: Player | None = None
    round_name: RoundName | None = None  # the round in play or to pair: "Round 3", "Final"


def event_progress(*, event: Event, matches: list[Match], knockout: Knockout | None) -> Progress:
    if not event.drawn:
        return Progress("entries")
    current = event_current_round(event=event, matches=matches)
    if current is not None:
        keys = [m.place.bracket_key for m in matches if m.place.round == current]
        return Progress("playing", current, round_name=round_name(current, keys))
    if knockout is not None:
        return Progress("finished", champion=knockout.champion)
    if event.format == Event.Format.SWISS:
        paired = max((m.place.round for m in matches), default=0)
        paired = max([paired, *event.byes.values_list("round", flat=True)])
        if paired < (event.swiss_rounds or 0):
            return Progress("to_pair", paired + 1, round_name=RoundName(paired + 1))
        if event.cut and not event.children.exists():
            return Progress("to_cut")
    return Progress("finished")


def event_finished(*, event: Event) -> bool:
    """Whether the event is over (every round played, a knockout's champion known, a Swiss
    cut made): nobody joins or withdraws any more, so its page offers neither."""
    return events_finished(events=Event.objects.filter(pk=event.pk)).get(event.pk, False)


def events_finished(*, events: QuerySet[Event]) -> dict[int, bool]:
    """:func:`event_finished` for each of ``events``, in one query however many there are:
    drawn, no match left undecided, a Swiss's rounds all paired and its cut made."""
    decided = (Match.Status.FINISHED, Match.Status.WALKOVER)
    last = "-round"
    rows = events.annotate(
        undecided=Exists(
            Match.objects.filter(place__event=OuterRef("pk")).exclude(status__in=decided)
        ),
        last_place=Subquery(
            Place.objects.filter(event=OuterRef("pk")).order_by(last).values("round")[:1]
        ),
        last_bye=Subquery(
            Bye.objects.filter(event=OuterRef("pk")).order_by(last).values("round")[:1]
        ),
        cut_made=Exists(Event.objects.filter(parent=OuterRef("pk"))),
    ).values_list(
        "pk",
        "drawn_at",
        "format",
        "swiss_rounds",
        "cut",
        "undecided",
        "last_place",
        "last_bye",
        "cut_made",
    )
    found = {}
    for pk, drawn_at, format_, rounds, cut, undecided, place, bye, cut_made in rows:
        if drawn_at is None or undecided:
            found[pk] = False
        elif format_ != Event.Format.SWISS:  # as event_progress says
            found[pk] = True
        else:
            paired = max(place or 0, bye or 0)
            found[pk] = paired >= (rounds or 0) and (not cut or cut_made)
    return found


class TournamentStatus(StrEnum):
    """Where a tournament stands, derived from its events (the API's tournament ``status``)."""

    UPCOMING = "upcoming"  # no event drawn yet (or no event at all)
    RUNNING = "running"  # an event drawn, and not every event finished
    FINISHED = "finished"  # every event finished (event_finished)


def tournament_statuses(*, tournaments: list[Tournament]) -> dict[int, TournamentStatus]:
    """Each tournament's :class:`TournamentStatus`, in two queries for the lot."""
    events = Event.objects.filter(tournament__in=[t.pk for t in tournaments])
    finished = events_finished(events=events)
    by_tournament: dict[int, list[tuple[bool, bool]]] = {t.pk: [] for t in tournaments}
    for pk, tournament, drawn_at in events.values_list("pk", "tournament_id", "drawn_at"):
        by_tournament[tournament].append((drawn_at is not None, finished[pk]))
    statuses = {}
    for pk, found in by_tournament.items():
        if not any(drawn for drawn, _done in found):
            statuses[pk] = TournamentStatus.UPCOMING
        elif all(done for _drawn, done in found):
            statuses[pk] = TournamentStatus.FINISHED
        else:
            statuses[pk] = TournamentStatus.RUNNING
    return statuses


@dataclass(frozen=True)
class EventSummary:
    event: Event
    progress: Progress


def tournament_overview(*, tournament: Tournament) -> list[EventSummary]:
    """Each event with where it stands (round in play, champion), for the public page."""
    summaries = []
    for event in tournament_events(tournament=tournament):
        matches = list(event_matches(event=event))
        knockout = event_knockout(event=event, matches=matches)
        summaries.append(
            EventSummary(event, event_progress(event=event, matches=matches, knockout=knockout))
        )
    return summaries
