"""Reading tournaments and events: the lists, an event's entries, matches and rounds, and the
requests to enter waiting for a director."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from club.models import Player
from club.selectors import players_namesakes
from matches.history import HISTORY
from matches.models import Match

from ..models import Entry, EntryRequest, Event, Round, Tournament
from ..reasons import reason_text
from ..rounds import RoundName, round_name


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(event_count=Count("events"))


def tournament_events(*, tournament: Tournament) -> QuerySet[Event]:
    # a cut knockout is named after its Swiss (Event.name)
    return (
        tournament.events.select_related("parent")
        .prefetch_related("rounds")
        .annotate(entry_count=Count("entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN)))
    )


def event_entries(*, event: Event) -> QuerySet[Entry]:
    return event.entries.select_related("player").order_by("seed", "player__sort_name", "id")


def event_matches(*, event: Event) -> QuerySet[Match]:
    """Every match of the event with its players and games, in a fixed number of queries."""
    return (
        Match.objects.filter(place__event=event)
        .select_related("player_a", "player_b", "place", "table")
        .prefetch_related(*HISTORY)
        .order_by("place__round", "id")
    )


@dataclass(frozen=True)
class RoundPairings:
    number: int
    matches: tuple[Match, ...]
    byes: tuple[str, ...]  # Swiss byes and round robin rests: who does not play
    length: int
    name: RoundName  # "Round 3", or a double elimination's "Final"
    starts_at: datetime.datetime | None = None  # the round's call (tournaments.lateness)
    clocks: str = "none"  # Round.Clocks: required, allowed or none

    @property
    def clocks_label(self) -> str:
        """ "Clocks required", "Clocks allowed"; "" without clocks (nothing to post)."""
        return "" if self.clocks == Round.Clocks.NONE else str(Round.Clocks(self.clocks).label)


def event_rounds(
    *, event: Event, entries: list[Entry] | None = None, matches: list[Match] | None = None
) -> list[RoundPairings]:
    entries = entries if entries is not None else list(event_entries(event=event))
    matches = matches if matches is not None else list(event_matches(event=event))
    numbers = sorted({m.place.round for m in matches})
    byes = list(event.byes.select_related("player"))
    rows = {r.number: r for r in event.rounds.all()}  # their start and clocks
    rounds = []
    for number in numbers:
        in_round = tuple(m for m in matches if m.place.round == number)
        resting: list[str] = [
            f"{b.player.name} ({reason_text(b.reason_code, b.reason_params, b.player.name)})"
            for b in byes
            if b.round == number
        ]
        if event.format == Event.Format.ROUND_ROBIN:
            playing = {p for m in in_round for p in (m.player_a_id, m.player_b_id)}
            resting += [
                e.player.name
                for e in entries
                if e.seed is not None
                and e.player_id not in playing
                and e.status != Entry.Status.WITHDRAWN
            ]
        name = round_name(number, [m.place.bracket_key for m in in_round])
        row = rows.get(number)
        rounds.append(
            RoundPairings(
                number,
                in_round,
                tuple(resting),
                event.length_of(name),
                name,
                starts_at=row.starts_at if row is not None else None,
                clocks=row.clocks if row is not None else Round.Clocks.NONE,
            )
        )
    return rounds


def event_player_matches(*, event: Event, player: Player) -> QuerySet[Match]:
    return event_matches(event=event).filter(Q(player_a=player) | Q(player_b=player))


def tournament_entry_requests(*, tournament: Tournament) -> list[EntryRequest]:
    """The requests to enter waiting for a director's answer, oldest first; each with
    ``namesakes``, the players already registered under the asker's name (anyone may sign
    up under any name: the director sees who else bears it, by club and id)."""
    waiting = list(
        EntryRequest.objects.filter(
            event__tournament=tournament, status=EntryRequest.Status.PENDING
        )
        .select_related("event", "player")
        .order_by("asked_at", "id")
    )
    namesakes = players_namesakes(players={r.player for r in waiting})
    for asked in waiting:
        # for the page only, not a field of the model
        asked.namesakes = namesakes.get(asked.player_id, [])  # type: ignore[attr-defined]
    return waiting
