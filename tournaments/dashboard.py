"""The director's dashboard: the whole tournament at a glance, read in a fixed number of queries.

Every match in play across the events (and those seated at a table, not begun), the matches
waiting for a table (and for whom, when a player is busy in another match), the players
waiting for an opponent, what a director must settle, and what to do next. Nothing is
stored for it: scores come from the score sheets, where each event stands from
:func:`tournaments.queries.progress.event_progress`, who waits in a knockout from its bracket, and
when a match began from the board's log and the audit trail
(:func:`matches.selectors.matches_with_beginning`).

What to do next is a list of codes with parameters (:class:`Step`); the page says them in
the visitor's language.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from django.db.models import Prefetch, prefetch_related_objects

from club.models import Player
from matches.history import HISTORY
from matches.models import Dispute, Match, ResultReport
from matches.selectors import match_score_sheet, matches_with_beginning
from rules.lateness import expected_minutes, forfeits, overdue

from .lateness import Lateness, called_time, lateness, round_row, with_first_call
from .models import Arrival, Entry, Event, Tournament
from .pairing.bracket import PENDING, LoserOf, WinnerOf
from .queries.events import tournament_events
from .queries.knockouts import Knockout, event_knockout
from .queries.progress import Progress, event_progress
from .venue import Busy, busy_elsewhere, players_busy


@dataclass(frozen=True)
class Seat:
    """A match at a table or in play: where, which, who, the score and for how long."""

    match: Match
    event: Event
    table: int | None
    begun: bool
    score: tuple[int, int] | None  # None before its first game ends
    began_at: datetime.datetime | None
    minutes: int | None  # since it began; None when not begun, or not known
    # not begun and at no table: its players busy in another match, for whom it waits
    waits_for: tuple[Busy, ...] = ()
    # in play: the minutes WBF 3 expects it to take, and whether it runs well past them
    # (rules.lateness.overdue, from its length, score and minutes played)
    expected: int | None = None
    overdue: bool = False

    @property
    def round(self) -> int:
        return self.match.place.round

    @property
    def code(self) -> str:
        return self.match.place.bracket_key  # "" in a Swiss or a round robin


@dataclass(frozen=True)
class Arriving:
    """A player of a match called, not begun: not arrived yet (``arrival`` None: late by
    ``late`` so far), or arrived (its figures of that moment, its penalty to confirm,
    confirmed or waived)."""

    side: int
    player: Player
    opponent: Player  # who the penalty points go to
    late: Lateness
    arrival: Arrival | None = None

    @property
    def to_confirm(self) -> bool:
        return self.arrival is not None and self.arrival.state == Arrival.State.PENDING


@dataclass(frozen=True)
class Called:
    """A match called and not begun: since when, and each player's lateness."""

    match: Match
    event: Event
    table: int | None
    called_at: datetime.datetime
    minutes: int  # since the call
    players: tuple[Arriving, Arriving]


@dataclass(frozen=True)
class Waiting:
    """A player waiting for an opponent.

    ``why``: "winner" or "loser" (of the match ``key``, in a knockout: ``next_key`` is the
    match they wait to play), "round" (their match of round ``round`` is over while others
    of it are still playing) or "bye" (they rest in round ``round``).
    """

    player: Player
    event: Event
    why: str
    key: str = ""
    next_key: str = ""
    round: int | None = None


@dataclass(frozen=True)
class ToConfirm:
    """Something a director must settle: a score dispute still open, or a player's report
    the opponent has not confirmed within the tournament's time (overdue since ``due_at``)."""

    match: Match
    event: Event
    dispute: Dispute | None = None
    report: ResultReport | None = None
    due_at: datetime.datetime | None = None


@dataclass(frozen=True)
class Step:
    """One thing to do next: a code and its parameters, put into words by the page.

    Codes: ``check_in`` (count: players entered, not checked in; checked: checked in),
    ``draw`` (count: players checked in), ``pair`` (round), ``cut`` (count), ``add_tables``
    (count: matches waiting for a table that could start, not for a player busy in another
    match), ``disputes`` (count), ``reports`` (count: players' reports not confirmed in
    time), ``add_event``, ``finished``
    (every event is over), ``arrivals`` (count: late arrivals whose penalty is to confirm),
    and with nothing else to do ``playing`` (count: matches in play) or ``begin`` (count:
    matches ready, none begun).
    """

    code: str
    event: Event | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Dashboard:
    tournament: Tournament
    now: datetime.datetime
    tables_numbered: bool
    seats: tuple[Seat, ...]  # in play or at a table, by table number
    # not begun and at no table, in the order they are seated: waiting for a table when the
    # tables are numbered
    not_seated: tuple[Seat, ...]
    waiting_players: tuple[Waiting, ...]
    to_confirm: tuple[ToConfirm, ...]
    steps: tuple[Step, ...]
    # called, not begun, by call time: who is late and the penalty accrued (tournaments.lateness)
    called: tuple[Called, ...] = ()


def tournament_dashboard(*, tournament: Tournament, now: datetime.datetime) -> Dashboard:
    """The tournament as it stands at ``now``; the same number of queries for any number of
    matches (one or two more an event, for a Swiss between rounds)."""
    events = list(tournament_events(tournament=tournament).prefetch_related("byes"))
    by_id = {e.pk: e for e in events}
    entries = list(
        Entry.objects.filter(event__tournament=tournament)
        .select_related("player")
        .order_by("seed", "player__sort_name", "id")
    )
    matches = list(
        with_first_call(
            matches_with_beginning(
                Match.objects.filter(place__event__tournament=tournament)
                .select_related("place", "table")
                .prefetch_related(Prefetch("arrivals", to_attr="arrived"))
                .order_by("place__event_id", "place__round", "place__id"),
                status=Match.Status.IN_PLAY,  # how long it has been played
            ),
            status=Match.Status.SCHEDULED,  # how late its players are
        )
    )
    _players_from(entries, matches)
    # scored: a knockout's matches (who goes through) and those not over (the score now); a
    # Swiss's or a round robin's decided matches are over, whatever their score
    scored = [m for m in matches if by_id[m.place.event_id].knockout or not m.decided]
    prefetch_related_objects(scored, *HISTORY)
    disputes = list(
        Dispute.objects.filter(
            match__place__event__tournament=tournament, decided_at__isnull=True
        ).order_by("opened_at", "id")
    )
    # a report waits for the opponent the tournament's minutes, then it is the director's
    waited = datetime.timedelta(minutes=tournament.confirm_minutes)
    overdue = list(
        ResultReport.objects.filter(
            match__place__event__tournament=tournament,
            status=ResultReport.Status.PENDING,
            changed_at__lt=now - waited,
        ).order_by("changed_at", "id")
    )
    seated, not_seated = _seats(matches, by_id, now)
    called = _called(tournament, matches, by_id, now)
    waiting, steps, stages = [], [], []
    for event in events:
        own_entries = [e for e in entries if e.event_id == event.pk]
        own_matches = [m for m in matches if m.place.event_id == event.pk]
        knockout = event_knockout(event=event, entries=own_entries, matches=own_matches)
        progress = event_progress(event=event, matches=own_matches, knockout=knockout)
        if knockout is not None:
            waiting += _knockout_waiting(event, knockout, own_entries)
        elif event.format == Event.Format.SWISS and progress.stage == "playing":
            waiting += _swiss_waiting(event, own_matches, progress.round, own_entries)
        steps += _event_steps(event, progress, own_entries)
        stages.append(progress.stage)
    to_confirm = [
        ToConfirm(d.match, by_id[d.match.place.event_id], dispute=d)
        for d in _with(disputes, matches)
    ]
    to_confirm += [
        ToConfirm(r.match, by_id[r.match.place.event_id], report=r, due_at=r.changed_at + waited)
        for r in _with(overdue, matches)
    ]
    steps += _tournament_steps(tournament, stages, seated, not_seated, to_confirm)
    arrived = sum(p.to_confirm for c in called for p in c.players)
    if arrived:
        steps.insert(0, Step("arrivals", params={"count": arrived}))
    if not steps:  # nothing to do but let them play
        in_play = sum(s.begun for s in seated)
        if in_play:
            steps.append(Step("playing", params={"count": in_play}))
        else:
            steps.append(Step("begin", params={"count": len(seated) + len(not_seated)}))
    return Dashboard(
        tournament=tournament,
        now=now,
        tables_numbered=bool(tournament.tables),
        seats=tuple(seated),
        not_seated=tuple(not_seated),
        waiting_players=tuple(waiting),
        to_confirm=tuple(to_confirm),
        steps=tuple(steps),
        called=tuple(called),
    )


def _players_from(entries: list[Entry], matches: list[Match]) -> None:
    """Each match's players, the entries' own (read already): 400 matches' players read
    again with them cost the dashboard a fifth of its time."""
    players = {e.player_id: e.player for e in entries}
    missing = {pk for m in matches for pk in (m.player_a_id, m.player_b_id)} - players.keys()
    if missing:  # a match outside the entries read: its players in one more query
        players.update(Player.objects.in_bulk(missing))
    for match in matches:
        match.player_a = players[match.player_a_id]
        match.player_b = players[match.player_b_id]


Claim = TypeVar("Claim", Dispute, ResultReport)


def _with(items: list[Claim], matches: list[Match]) -> list[Claim]:
    """The disputes (or reports) with their match, already read (no query for each)."""
    by_pk = {m.pk: m for m in matches}
    for item in items:
        item.match = by_pk[item.match_id]
    return items


def _table(match: Match) -> int | None:
    table = getattr(match, "table", None)  # none: Django raises, the match has no table
    return table.number if table is not None else None


def _seats(
    matches: list[Match], events: dict[int, Event], now: datetime.datetime
) -> tuple[list[Seat], list[Seat]]:
    """The matches at a table or in play; those not begun and at no table (each with the
    players it waits for, busy in another match)."""
    seated, waiting = [], []
    busy = players_busy(matches)
    for match in matches:
        table = _table(match)
        begun = match.status == Match.Status.IN_PLAY
        if not begun and match.status != Match.Status.SCHEDULED:
            continue
        sheet = match_score_sheet(match=match) if begun else None
        # annotated on each match by matches.selectors.matches_with_beginning
        began_at = match.began_at if begun else None  # type: ignore[attr-defined]
        minutes = max(0, int((now - began_at).total_seconds() // 60)) if began_at else None
        score = sheet.score if sheet is not None else (0, 0)
        seat = Seat(
            match=match,
            event=events[match.place.event_id],
            table=table,
            begun=begun,
            score=score if sheet is not None and (sheet.rows or any(score)) else None,
            began_at=began_at,
            minutes=minutes,
            expected=expected_minutes(match.length) if begun else None,
            overdue=minutes is not None and overdue(match.length, score, minutes),
        )
        if begun or table is not None:
            seated.append(seat)
        else:
            waiting.append(replace(seat, waits_for=tuple(busy_elsewhere(match, busy))))
    seated.sort(key=lambda s: (s.table is None, s.table or 0))
    return seated, waiting


def _called(
    tournament: Tournament,
    matches: list[Match],
    events: dict[int, Event],
    now: datetime.datetime,
) -> list[Called]:
    """The matches called and not begun, by call time: each player's lateness now, or as
    recorded on arriving."""
    rules = tournament.lateness_rules
    found = []
    for match in matches:
        if match.status != Match.Status.SCHEDULED:
            continue
        event = events[match.place.event_id]
        row = round_row(event, match.place.round)
        called_at = called_time(
            tournament=tournament,
            starts_at=row.starts_at if row is not None else None,
            first_called_at=match.first_called_at,  # type: ignore[attr-defined]
        )
        if called_at is None or called_at > now:
            continue
        arrivals = {a.side: a for a in match.arrived}  # type: ignore[attr-defined]  # prefetched
        players = []
        for side in (0, 1):
            arrival = arrivals.get(side)
            if arrival is None:
                late = lateness(called_at=called_at, at=now, length=match.length, rules=rules)
            else:
                late = Lateness(
                    arrival.minutes_late,
                    arrival.points,
                    rules is not None and forfeits(arrival.points, match.length, rules),
                )
            players.append(
                Arriving(side, match.player(side), match.player(1 - side), late, arrival)
            )
        minutes = max(0, int((now - called_at).total_seconds() // 60))
        found.append(
            Called(match, event, _table(match), called_at, minutes, (players[0], players[1]))
        )
    found.sort(key=lambda c: (c.called_at, c.table or 0, c.match.pk))
    return found


def _playing(entries: list[Entry]) -> dict[int, Entry]:
    return {e.player_id: e for e in entries if e.status != Entry.Status.WITHDRAWN}


def _knockout_waiting(event: Event, knockout: Knockout, entries: list[Entry]) -> list[Waiting]:
    """Players placed in a match whose other side is still to be decided."""
    playing = _playing(entries)
    found = []
    for slot in knockout.state.slots.values():
        if slot.winner is not PENDING:
            continue
        sides = (slot.first, slot.second)
        for index, side in enumerate(sides):
            other = sides[1 - index]
            player = knockout.player(side)
            if player is None or other is not PENDING or player.pk not in playing:
                continue
            source = slot.match.sources[1 - index]
            if not isinstance(source, WinnerOf | LoserOf):
                continue
            why = "winner" if isinstance(source, WinnerOf) else "loser"
            found.append(Waiting(player, event, why, key=source.key, next_key=slot.match.key))
    return found


def _swiss_waiting(
    event: Event, matches: list[Match], current: int | None, entries: list[Entry]
) -> list[Waiting]:
    """In the round in play: the players whose match is over, and the one resting."""
    playing = _playing(entries)
    found = []
    for match in matches:
        if match.place.round != current or not match.decided:
            continue
        for player in (match.player_a, match.player_b):
            if player.pk in playing:
                found.append(Waiting(player, event, "round", round=current))
    for bye in event.byes.all():
        if bye.round == current and bye.player_id in playing:
            found.append(Waiting(playing[bye.player_id].player, event, "bye", round=current))
    return found


def _event_steps(event: Event, progress: Progress, entries: list[Entry]) -> list[Step]:
    """What the event page's director buttons offer now (see templates/event.html)."""
    if progress.stage == "entries":
        if event.parent_id is not None:
            return []  # drawn by the cut of the event it comes from
        checked = sum(e.status == Entry.Status.CHECKED_IN for e in entries)
        registered = sum(e.status == Entry.Status.REGISTERED for e in entries)
        steps = []
        if registered:
            steps.append(Step("check_in", event, {"count": registered, "checked": checked}))
        if checked >= 2:  # a draw needs two players (event_draw says so in words otherwise)
            steps.append(Step("draw", event, {"count": checked}))
        return steps
    if progress.stage == "to_pair":
        return [Step("pair", event, {"round": progress.round})]
    if progress.stage == "to_cut":
        return [Step("cut", event, {"count": event.cut})]
    return []


def _tournament_steps(
    tournament: Tournament,
    stages: list[str],
    seated: list[Seat],
    waiting: list[Seat],
    to_confirm: list[ToConfirm],
) -> list[Step]:
    """The room's and the disputes' steps; with nothing else to do, why (matches playing, or
    every event over)."""
    found = []
    can_start = [seat for seat in waiting if not seat.waits_for]  # the others wait for a player
    if can_start and tournament.tables:
        found.append(Step("add_tables", params={"count": len(can_start)}))
    disputes = sum(item.dispute is not None for item in to_confirm)
    if disputes:
        found.append(Step("disputes", params={"count": disputes}))
    if len(to_confirm) > disputes:
        found.append(Step("reports", params={"count": len(to_confirm) - disputes}))
    if not stages:
        found.append(Step("add_event"))
    elif all(stage == "finished" for stage in stages):
        found.append(Step("finished"))
    return found
