"""Swiss and round robin standings and a round robin's cross-tables, from the finished
matches through :mod:`tournaments.pairing.standings`."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from club.models import Player
from matches.models import Match
from matches.selectors import match_score_sheet

from ..models import Entry, Event, Tournament
from ..pairing.standings import Result, Standing, round_robin_standings, swiss_standings
from .events import event_entries, event_matches


def _results(matches: list[Match]) -> list[Result]:
    found = []
    for match in matches:
        sheet = match_score_sheet(match=match)
        if sheet.winner is None:
            continue
        found.append(
            Result(
                match.player_a_id,
                match.player_b_id,
                match.player(sheet.winner).pk,
                *(sheet.score if match.status != Match.Status.WALKOVER else (0, 0)),
            )
        )
    return found


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    player: Player
    pool: str
    withdrawn: bool = False  # still ranked on what they played, and marked as gone


def event_standings(
    *, event: Event, entries: list[Entry] | None = None, matches: list[Match] | None = None
) -> list[StandingRow]:
    """Swiss: wins, Buchholz, median; round robin: wins, head-to-head, points difference
    (per pool, pools one after another). Empty for knockouts and before the draw."""
    if not event.drawn or event.knockout:
        return []
    entries = entries if entries is not None else list(event_entries(event=event))
    matches = matches if matches is not None else list(event_matches(event=event))
    drawn = [e for e in entries if e.seed is not None]
    players: dict[Hashable, Player] = {e.player_id: e.player for e in drawn}
    gone = {e.player_id for e in drawn if e.status == Entry.Status.WITHDRAWN}
    if event.format == Event.Format.SWISS:
        byes: dict[Hashable, int] = {}
        for bye in event.byes.all():
            byes[bye.player_id] = byes.get(bye.player_id, 0) + 1
        # the rounds a late arrival missed, scored as byes or as losses (the tournament says)
        late: dict[Hashable, int] = {
            e.player_id: (e.joined_round or 0) - 1 for e in drawn if (e.joined_round or 0) > 1
        }
        missed: dict[Hashable, int] = {}
        if event.tournament.late_rounds == Tournament.LateRounds.BYE:
            for player, count in late.items():
                byes[player] = byes.get(player, 0) + count
        else:
            missed = late
        seeds: dict[Hashable, int] = {e.player_id: e.seed for e in drawn if e.seed is not None}
        table = swiss_standings(_results(matches), seeds=seeds, byes=byes, missed=missed)
        return [StandingRow(s, players[s.key], "", s.key in gone) for s in table]
    rows = []
    for pool in sorted({e.pool for e in drawn}, key=lambda number: number or 0):
        members = [e for e in drawn if e.pool == pool]
        ids = {e.player_id for e in members}
        pool_matches = [m for m in matches if m.player_a_id in ids and m.player_b_id in ids]
        seeds = {e.player_id: e.seed for e in members if e.seed is not None}
        table = round_robin_standings(_results(pool_matches), seeds=seeds)
        pool_name = members[0].pool_name
        rows += [StandingRow(s, players[s.key], pool_name, s.key in gone) for s in table]
    return rows


@dataclass(frozen=True)
class CrossCell:
    """One match of a round robin's cross-table, seen from the row's player: their points
    first; ``won`` is None while the match is undecided."""

    match: Match
    won: bool | None
    scored: int
    conceded: int
    walkover: bool


@dataclass(frozen=True)
class CrossRow:
    row: StandingRow
    number: int  # the row's number in the pool, which heads the player's column
    cells: tuple[CrossCell | None, ...]  # None: the diagonal, or a pair with no match


@dataclass(frozen=True)
class CrossTable:
    """A round robin pool's players against each other, in the standings' order. ``level``:
    once the pool is finished, the places still shared after every tie-break, each with
    its players, for the director (or a play-off) to decide."""

    pool: str  # empty when the event has one pool
    rows: tuple[CrossRow, ...]
    level: tuple[tuple[int, tuple[Player, ...]], ...]


def event_cross_tables(
    *, event: Event, rows: list[StandingRow], matches: list[Match]
) -> list[CrossTable]:
    """A round robin's cross-table for each pool, from its standings rows and its matches."""
    if event.format != Event.Format.ROUND_ROBIN:
        return []
    by_pair: dict[frozenset[int], Match] = {
        frozenset((m.player_a_id, m.player_b_id)): m for m in matches
    }
    tables = []
    pools = list(dict.fromkeys(row.pool for row in rows))
    for pool in pools:
        members = [row for row in rows if row.pool == pool]
        crossed = []
        for number, mine in enumerate(members, 1):
            cells = []
            for other in members:
                match = by_pair.get(frozenset((mine.player.pk, other.player.pk)))
                cells.append(None if mine is other or match is None else _cell(match, mine))
            crossed.append(CrossRow(mine, number, tuple(cells)))
        level: dict[int, list[Player]] = {}
        if all(c.won is not None for r in crossed for c in r.cells if c is not None):
            for row in members:
                if row.standing.shared:
                    level.setdefault(row.standing.rank, []).append(row.player)
        shared = tuple((rank, tuple(players)) for rank, players in level.items())
        tables.append(CrossTable(pool if len(pools) > 1 else "", tuple(crossed), shared))
    return tables


def _cell(match: Match, row: StandingRow) -> CrossCell:
    sheet = match_score_sheet(match=match)
    side = 0 if match.player_a_id == row.player.pk else 1
    walkover = match.status == Match.Status.WALKOVER
    score = (0, 0) if walkover else sheet.score
    won = None if sheet.winner is None else sheet.winner == side
    return CrossCell(match, won, score[side], score[1 - side], walkover)
