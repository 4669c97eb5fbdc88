"""Starting a table, seating players, recording its events, correcting them, stakes, closing.

Each service is keyword-only, runs in one transaction with the table's row locked, asks the
policy again at its entry, and records an audit entry. A table's record is its log: an
event is accepted only if the engine, replaying the whole log and then the event, accepts
it (:mod:`rules.chouette`); its refusal reaches the page in the visitor's language, with
the rule it enforces. Nothing derived (lineup, cubes, totals) is stored.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.actors import Actor
from club.models import Player
from club.policy import (
    can_correct_table,
    can_join_table,
    can_record_at,
    can_set_stake,
    can_start_table,
    in_directors_group,
    require,
)
from rules.chouette import Chouette, ChouetteSettings, CubeMode, describe
from rules.chouette import events as ev
from rules.chouette.events import Event

from ..audit import table_audit_record
from ..log import applied, events_of, player_names, replayed
from ..models import CODE_ALPHABET, CODE_LENGTH, Seat, Table, TableEvent, TableKind
from ._log import (
    append,
    bump,
    locked,
    refuse_closed,
    refuse_partial_opening,
    refuse_unseated,
)

MAX_NAME = 80
MAX_STAKE_CENTS = 1_000_000  # 10,000 a point: anything above is a typing slip


def new_code() -> str:
    """A join code no open or closed table has: six letters and digits, none misread."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not Table.objects.filter(code=code).exists():
            return code


def _stake_checked(stake_cents: int) -> int:
    if not 0 <= stake_cents <= MAX_STAKE_CENTS:
        raise ValidationError(
            _("A stake is between 0 and %(most)s cents a point, not %(stake)s.")
            % {"most": MAX_STAKE_CENTS, "stake": stake_cents}
        )
    return stake_cents


def table_start(
    *,
    user: Actor,
    kind: str,
    name: str,
    settings: ChouetteSettings,
    players: Sequence[Player] = (),
    stake_cents: int = 0,
) -> Table:
    """A chouette for the evening, or a money session between two players (``players``, both
    seated at once, with the same stake): started by any player signed in, or a director.

    A money session is a chouette of two with one cube; a player who starts one plays in it
    (a friendly game needs no director, and counts for no rating). Its order, who is the
    box and who the captain, comes from the opening roll, recorded next as for a chouette.
    """
    require(isinstance(user, User) and can_start_table(user))
    assert isinstance(user, User)  # for the type checker: require() refused anyone else
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise ValidationError(
            _("A table's name is 1 to %(most)s characters long.") % {"most": MAX_NAME}
        )
    if kind not in TableKind.values:
        raise ValidationError(_("A table is a chouette or a money session."))
    _stake_checked(stake_cents)
    if len({player.pk for player in players}) != len(players):
        raise ValidationError(_("A player sits at a table once."))
    if kind == TableKind.MONEY:
        if len(players) != 2:
            raise ValidationError(_("A money session is played by two players."))
        if not in_directors_group(user) and all(p.user_id != user.pk for p in players):
            raise ValidationError(_("A player starts a money session they play in."))
        # two players share one cube, and no one is left to be the box's partner
        settings = dataclasses.replace(settings, cubes=CubeMode.SINGLE, partner_from=None)
    with transaction.atomic():
        table = Table.objects.create(
            kind=kind,
            name=name,
            code=new_code(),
            settings=settings.to_dict(),
            created_by=user,
        )
        for player in players:
            Seat.objects.create(table=table, player=player, stake_cents=stake_cents)
        table_audit_record(
            table,
            user,
            "table.started",
            params={"kind": kind},
            after={"players": [player.name for player in players], "settings": table.settings},
        )
    return table


def table_join(*, user: Actor, table: Table, player: Player, stake_cents: int = 0) -> Seat:
    """Seat a player at the table (the view finds the table by its code): the player
    themself, or someone who records at the table bringing a guest. Once the opening roll
    is recorded, a newcomer joins the order at the bottom (Galore 3.1), as an event of the
    log; before it, they roll with the others. A player who left comes back the same way,
    at the bottom, in their seat (their results and stake kept)."""
    _stake_checked(stake_cents)
    with transaction.atomic():
        row = locked(table)
        require(can_join_table(user, row, player))
        refuse_closed(row)
        log = events_of(row)
        opened = any(isinstance(event, ev.Opening) for event in log)
        seat = row.seats.filter(player=player).first()
        if seat is not None:
            chouette = replayed(row, log)
            away = chouette.lineup is not None and str(player.pk) not in chouette.lineup.everyone
            if not (opened and away):
                raise ValidationError(
                    _("%(player)s is already at “%(table)s”.")
                    % {"player": player.name, "table": row.name}
                )
            join = ev.Join(player=str(player.pk))
            applied(row, chouette, join)
            line = append(row, join, user)
            bump(row)
            params = {"seq": line.seq, "player": player.name, "change": "join"}
            table_audit_record(row, user, "table.lineup", params=params)
            table.version = row.version
            return seat
        if row.kind == TableKind.MONEY and row.seats.count() >= 2:
            raise ValidationError(_("A money session is played by two players."))
        try:
            with transaction.atomic():
                seat = Seat.objects.create(table=row, player=player, stake_cents=stake_cents)
        except IntegrityError as error:  # seated meanwhile by another phone
            raise ValidationError(
                _("%(player)s is already at “%(table)s”.")
                % {"player": player.name, "table": row.name}
            ) from error
        if opened:
            join = ev.Join(player=str(player.pk))
            applied(row, replayed(row, log), join)
            append(row, join, user)
        bump(row)
        table_audit_record(
            row, user, "table.joined", params={"player": player.name, "stake": stake_cents}
        )
    table.version = row.version
    return seat


def table_act(*, user: Actor, table: Table, event: Event, version: int | None = None) -> Table:
    """Record one event at the table: the engine replays the log, then the event, and
    refuses it in words citing its rule (a double the box may not make, an answer from a
    member who is out, a deal that does not add up). Refused as well: a page out of date
    (``version``), a player not seated, a closed table. An undo is an event of its own
    (:class:`rules.chouette.events.UndoGame`): the log never loses a line."""
    require(can_record_at(user, table))  # before the version: a stranger is told no first
    with transaction.atomic():
        row = locked(table, version)
        refuse_closed(row)
        refuse_unseated(row, event)
        if isinstance(event, ev.Opening):
            refuse_partial_opening(row, event)
        before = replayed(row, events_of(row))
        after = applied(row, before, event)
        line = append(row, event, user)
        bump(row)
        _audit_event(row, user, event, before, after, line)
    table.version = row.version
    return row


def table_correct(
    *, user: Actor, table: Table, seq: int, event: Event, version: int | None = None
) -> Table:
    """A director replaces line ``seq`` of the log: the whole log must still replay (a
    correction that makes a later line illegal is refused, naming that line and its
    rule). The audit entry keeps the line before and after."""
    require(can_correct_table(user, table))
    with transaction.atomic():
        row = locked(table, version)
        line = TableEvent.objects.filter(table=row, seq=seq).first()
        if line is None:
            raise ValidationError(
                _("The table “%(table)s” has no line %(seq)s.") % {"table": row.name, "seq": seq}
            )
        refuse_unseated(row, event)
        if isinstance(event, ev.Opening):
            refuse_partial_opening(row, event)
        log = events_of(row)
        old = log[seq - 1]
        log[seq - 1] = event
        replayed(row, log)
        names = player_names(row)
        previous = dict(line.data)
        line.data = event.to_dict()
        line.save(update_fields=["data"])
        bump(row)
        table_audit_record(
            row,
            user,
            "table.corrected",
            params={"seq": seq},
            before={"data": previous, "said": describe(old, names).as_dict()},
            after={"data": line.data, "said": describe(event, names).as_dict()},
        )
    table.version = row.version
    return row


def table_set_stake(
    *, user: Actor, table: Table, player: Player, stake_cents: int, version: int | None = None
) -> Seat:
    """A player's money a point: their own before the first game, a director's at any
    time (club practice: a transfer counts at the lower of the two players' stakes)."""
    _stake_checked(stake_cents)
    with transaction.atomic():
        row = locked(table, version)
        require(can_set_stake(user, row, player))  # locked: a game may have begun meanwhile
        refuse_closed(row)
        seat = Seat.objects.select_for_update().filter(table=row, player=player).first()
        if seat is None:
            raise ValidationError(
                _("%(player)s is not seated at “%(table)s”.")
                % {"player": player.name, "table": row.name}
            )
        was = seat.stake_cents
        seat.stake_cents = stake_cents
        seat.save(update_fields=["stake_cents"])
        bump(row)
        table_audit_record(
            row,
            user,
            "table.stake",
            params={"player": player.name},
            before={"stake": was},
            after={"stake": stake_cents},
        )
    table.version = row.version
    return seat


def table_close(*, user: Actor, table: Table, version: int | None = None) -> Table:
    """Close the table at the end of the evening: its totals are final, nothing more is
    recorded (a director may still correct a line). A game still being played is refused:
    record its end, or take it back, first."""
    require(can_record_at(user, table))
    with transaction.atomic():
        row = locked(table, version)
        refuse_closed(row)
        chouette = replayed(row, events_of(row))
        if chouette.game is not None:
            raise ValidationError(
                _("Game %(number)s is still being played: record its end or take it back first.")
                % {"number": chouette.game.number}
            )
        row.closed = timezone.now()
        row.save(update_fields=["closed"])
        bump(row)
        table_audit_record(row, user, "table.closed")
    table.version = row.version
    table.closed = row.closed
    return row


def _audit_event(
    table: Table, user: Actor, event: Event, before: Chouette, after: Chouette, line: TableEvent
) -> None:
    """The events that change the order or the money are audited, each with its own code;
    the cube's to and fro within a game is in the log alone."""
    names = player_names(table)

    def name(player: str | None) -> str:
        return names.get(player, player) if player else ""

    # the game an event belongs to: the one being played, else the last one finished
    playing = before.game or after.game
    number = playing.number if playing is not None else len(before.games)
    params: dict[str, Any] = {"seq": line.seq}
    if isinstance(event, ev.Opening) and after.lineup is not None:
        code = "table.order"
        params |= {"box": name(after.lineup.box), "captain": name(after.lineup.captain)}
    elif isinstance(event, ev.Join | ev.Leave | ev.Rest | ev.Back):
        code = "table.lineup"
        change = {ev.Join: "join", ev.Leave: "leave", ev.Rest: "rest", ev.Back: "back"}
        params |= {"player": name(event.player), "change": change[type(event)]}
    elif isinstance(event, ev.Partner):
        code = "table.partner"
        params |= {"partner": name(event.player)}
    elif isinstance(event, ev.StartGame):
        code = "table.game_started"
        params |= {"number": number}
    elif isinstance(event, ev.End) and before.game is not None:
        code = "table.game_ended"
        params |= {
            "number": number,
            "box": name(before.game.box),
            "box_wins": event.box_wins,
            "result": "resignation" if event.resigned else event.level.name.lower(),
            "resigned": int(event.level) if event.resigned else None,
        }
    elif isinstance(event, ev.Deal):
        code = "table.deal"
        params |= {
            "number": number,
            "members": [name(member) for member in event.members],
            "points": event.points,
        }
    elif isinstance(event, ev.UndoGame):
        code = "table.game_undone"
        params |= {"number": number}
    else:
        return
    table_audit_record(table, user, code, params=params)
