"""Reading tables: the chouette as the engine replays it, the order, the totals, the
settlement, the log, and a player's tables for their page.

Everything here is derived from the log (:class:`money.models.TableEvent`) through
:mod:`rules.chouette`, and from the seats' stakes through :mod:`rules.settlement`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from club.actors import Actor
from club.audit import actor_name
from club.models import Player
from rules.chouette import Chouette, describe
from rules.chouette import events as chouette_events
from rules.chouette.events import Event
from rules.errors import RulesError
from rules.messages import Message
from rules.settlement import money_totals, transfers

from .log import events_of, player_names, replayed, settings_of
from .models import Seat, Table, TableEvent

# the events of the order, which an undo of the game around them keeps (rules.chouette)
LINEUP_EVENTS = (
    chouette_events.Opening,
    chouette_events.Join,
    chouette_events.Leave,
    chouette_events.Rest,
    chouette_events.Back,
    chouette_events.Partner,
)


@dataclass(frozen=True, slots=True)
class LineupRow:
    """One player in the order: ``role`` is "box", "partner", "captain", "team" or
    "resting"; before the opening roll every seated player is "waiting"."""

    role: str
    player: Player


@dataclass(frozen=True, slots=True)
class TotalRow:
    player: Player
    points: int
    cents: int


@dataclass(frozen=True, slots=True)
class SettlementRow:
    payer: Player
    payee: Player
    cents: int


@dataclass(frozen=True, slots=True)
class LogRow:
    """One line of the log: ``game`` is the game it belongs to (None between games);
    ``undone``: a line of a game taken back since, kept in the log but counting no more."""

    seq: int
    game: int | None
    message: Message
    author_name: str
    created: datetime.datetime
    undone: bool = False


@dataclass(frozen=True, slots=True)
class PlayerTableRow:
    table: Table
    points: int
    cents: int


def table_chouette(table: Table) -> Chouette:
    """The table's chouette, replayed from its log; kept on the table object for its
    version, so one page asks once."""
    kept: tuple[int, Chouette] | None = getattr(table, "_chouette_kept", None)
    if kept is not None and kept[0] == table.version:
        return kept[1]
    chouette = replayed(table, events_of(table))
    table._chouette_kept = (table.version, chouette)  # type: ignore[attr-defined]
    return chouette


def _seats(table: Table) -> list[Seat]:
    return list(table.seats.select_related("player").order_by("joined", "id"))


def table_lineup_rows(table: Table) -> list[LineupRow]:
    """The order as the table shows it in large type: box, partner, captain, the team,
    then those on a break (Galore 3.1, 3.6)."""
    players = {str(seat.player_id): seat.player for seat in _seats(table)}
    lineup = table_chouette(table).lineup
    if lineup is None:
        return [LineupRow("waiting", player) for player in players.values()]
    roles: list[tuple[str, str]] = [("box", lineup.box)]
    if lineup.partner is not None:
        roles.append(("partner", lineup.partner))
    roles += [("captain" if n == 0 else "team", member) for n, member in enumerate(lineup.team)]
    roles += [("resting", player) for player in lineup.resting]
    return [LineupRow(role, players[pid]) for role, pid in roles if pid in players]


def _stakes(seats: list[Seat]) -> dict[str, int]:
    return {str(seat.player_id): seat.stake_cents for seat in seats}


def table_totals(table: Table) -> list[TotalRow]:
    """Each seated player's running total in points and in money (cents, each game's
    points at the lower of the two players' stakes: club practice); both sum to 0."""
    seats = _seats(table)
    chouette = table_chouette(table)
    points = chouette.totals()
    cents = money_totals(chouette.ledger, _stakes(seats))
    return [
        TotalRow(seat.player, points.get(str(seat.player_id), 0), cents.get(str(seat.player_id), 0))
        for seat in seats
    ]


def table_settlement(table: Table) -> list[SettlementRow]:
    """Who pays whom at the end of the evening, in cents, with the fewest transfers."""
    seats = _seats(table)
    players = {str(seat.player_id): seat.player for seat in seats}
    cents = money_totals(table_chouette(table).ledger, _stakes(seats))
    return [SettlementRow(players[t.payer], players[t.payee], t.amount) for t in transfers(cents)]


def table_log(table: Table) -> list[LogRow]:
    """Every line of the log in order, each as the engine describes it (players by name),
    with the game it belongs to and who recorded it. An undone game's lines stay, marked
    ``undone``, and the undo is a line of its own: nothing is erased."""
    rows = list(
        TableEvent.objects.filter(table=table).select_related("author__player").order_by("seq")
    )
    names = player_names(table)
    chouette: Chouette | None = Chouette.start(settings_of(table))
    games: list[list[int]] = []  # each game's lines (by index), the last game on top
    undone: set[int] = set()
    found: list[tuple[TableEvent, Event, int | None]] = []
    for index, row in enumerate(rows):
        event = chouette_events.from_dict(row.data)
        game: int | None = None
        if chouette is not None:
            before = chouette
            try:
                chouette = chouette.apply(event)
            except RulesError:  # a log no longer replaying: its lines are still shown
                chouette = None
            else:
                game = _game_of(event, before, chouette)
        if isinstance(event, chouette_events.StartGame):
            games.append([index])
        elif isinstance(event, chouette_events.UndoGame):
            undone.update(games.pop() if games else ())
        elif game is not None and games and not isinstance(event, LINEUP_EVENTS):
            games[-1].append(index)  # the engine's undo keeps the order's changes
        found.append((row, event, game))
    return [
        LogRow(
            row.seq,
            game,
            describe(event, names),
            actor_name(row.author),
            row.created,
            undone=index in undone,
        )
        for index, (row, event, game) in enumerate(found)
    ]


def _game_of(event: Event, before: Chouette, after: Chouette) -> int | None:
    """The game a line belongs to: the one being played when it was recorded, or begun by
    it; an undo belongs to the game it took back; None between games."""
    if isinstance(event, chouette_events.UndoGame):
        return before.game.number if before.game is not None else before.games[-1].number
    playing = before.game or after.game
    return playing.number if playing is not None else None


def player_tables(player: Player) -> list[PlayerTableRow]:
    """The tables a player sat at, newest first, with their total at each, for their page
    (money sessions and chouettes count for no rating)."""
    rows: list[PlayerTableRow] = []
    seats = (
        Seat.objects.filter(player=player)
        .select_related("table")
        .prefetch_related("table__seats")
        .order_by("-table__created", "-table_id")
    )
    for seat in seats:
        chouette = table_chouette(seat.table)
        stakes = _stakes(list(seat.table.seats.all()))
        me = str(player.pk)
        rows.append(
            PlayerTableRow(
                seat.table,
                chouette.totals().get(me, 0),
                money_totals(chouette.ledger, stakes).get(me, 0),
            )
        )
    return rows


def _with_seated(tables: QuerySet[Table]) -> QuerySet[Table]:
    """The tables, each with ``seated``: how many players sit there (a count for each row
    of the page, not a query each, and no GROUP BY to undo the order's index)."""
    seated = (
        Seat.objects.filter(table=OuterRef("pk"))
        .order_by()
        .values("table")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return tables.annotate(seated=Coalesce(Subquery(seated), 0))


def tables_open() -> QuerySet[Table]:
    """The tables still being played, newest first (by their index, table_open_order)."""
    return _with_seated(Table.objects.filter(closed__isnull=True).order_by("-created", "-id"))


def tables_for(user: Actor) -> QuerySet[Table]:
    """The tables a person sits at or started, newest first (none for a visitor).

    Their seats as a subquery, not a join: no DISTINCT to sort every row, so PostgreSQL
    reads a page of them in the tables' date order (table_created_order); SQLite finds
    only theirs by index (who started it, where they sit) and sorts those."""
    if not getattr(user, "is_authenticated", False) or user.pk is None:
        return Table.objects.none()
    seated = Seat.objects.filter(player__user_id=user.pk).values("table_id")
    return _with_seated(
        Table.objects.filter(Q(created_by_id=user.pk) | Q(pk__in=seated)).order_by(
            "-created", "-id"
        )
    )
