"""What the playing room's wall display shows in turn: for each event drawn, its bracket (a
screen a section, those still in play), the pairings of the round in play and the standings;
the matches now playing come from the dashboard (:mod:`tournaments.dashboard`).

Read in a fixed number of queries an event, like the event page.
"""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Match

from .models import Event, Round, Tournament
from .queries.brackets import BracketSection, event_bracket_sections
from .queries.events import (
    RoundPairings,
    event_entries,
    event_matches,
    event_rounds,
    tournament_events,
)
from .queries.knockouts import event_knockout
from .queries.progress import Progress, event_progress
from .queries.standings import event_standings
from .rounds import round_name
from .tables import PairingTable, StandingsTable, standings_table


@dataclass(frozen=True)
class Screen:
    """One screen of the wall: ``kind`` is bracket, pairings or standings."""

    key: str  # stays the same across refreshes: the wall goes on from the screen it showed
    kind: str
    event: Event
    title: str = ""
    content: BracketSection | tuple[RoundPairings, PairingTable] | StandingsTable | None = None
    progress: Progress | None = None
    # a bracket's rounds in play with a start or clocks to post (the pairings' own round
    # says its own)
    times: tuple[RoundPairings, ...] = ()


def tournament_wall(*, tournament: Tournament) -> list[Screen]:
    screens: list[Screen] = []
    for event in tournament_events(tournament=tournament).select_related("tournament"):
        if not event.drawn:
            continue
        entries = list(event_entries(event=event))
        matches = list(event_matches(event=event))
        knockout = event_knockout(event=event, entries=entries, matches=matches)
        progress = event_progress(event=event, matches=matches, knockout=knockout)
        if knockout is not None:
            sections = event_bracket_sections(event=event, knockout=knockout)
            live = [s for s in sections if _in_play(s)] or sections[-1:]
            times = _timed_rounds(event, matches)
            screens += [
                Screen(
                    f"{event.pk}-bracket-{i}", "bracket", event, str(s.title), s, progress, times
                )
                for i, s in enumerate(live)
            ]
            continue
        rounds = event_rounds(event=event, entries=entries, matches=matches)
        if rounds:
            current = next((r for r in rounds if r.number == progress.round), rounds[-1])
            table = PairingTable(current.matches, exclude=("reason", "match"), orderable=False)
            screens.append(
                Screen(f"{event.pk}-pairings", "pairings", event, "", (current, table), progress)
            )
        rows = event_standings(event=event, entries=entries, matches=matches)
        if rows:
            table = standings_table(rows, swiss=event.format == Event.Format.SWISS)
            table.orderable = False
            screens.append(Screen(f"{event.pk}-standings", "standings", event, "", table, progress))
    return screens


def _in_play(section: BracketSection) -> bool:
    """A section with a match still to be decided, or still to be made (its players to come);
    a bye is no match."""
    return any(
        (box.match is None or not box.match.decided) and not any(li.bye for li in box.lines)
        for column in section.columns
        for box in column.boxes
    )


def _timed_rounds(event: Event, matches: list[Match]) -> tuple[RoundPairings, ...]:
    """The rounds of a knockout still in play that have a start or clocks to post, from the
    event's rounds as read (no query)."""
    rows = {r.number: r for r in event.rounds.all()}
    timed = []
    for number in sorted({m.place.round for m in matches if not m.decided}):
        row = rows.get(number)
        if row is None or (row.starts_at is None and row.clocks == Round.Clocks.NONE):
            continue
        keys = [m.place.bracket_key for m in matches if m.place.round == number]
        timed.append(
            RoundPairings(
                number,
                (),
                (),
                row.length,
                round_name(number, keys),
                starts_at=row.starts_at,
                clocks=row.clocks,
            )
        )
    return tuple(timed)
