"""The playing room: its tables, numbered across every event of the tournament.

A match waiting to be played is given the lowest free table; a table is free again when
its match ends (a walkover takes none). The database holds one match a table and one
table a match (:class:`tournaments.models.Table`), so two matches are never sent to one
table. Matches already seated keep their table: a director moves one by hand
(:func:`match_table_move`), and fewer tables take effect as matches end.

Both players of a match given a table are emailed that it is ready there (once the change
commits; see :mod:`matches.notify`).

Who waits first: the events in the order they were created, then round by round, then
the order the draw made the matches.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from club.policy import can_direct, require
from matches.models import Match
from matches.notify import player_notify

from .audit import tournament_audit_record
from .models import Table, Tournament

PLAYABLE = (Match.Status.SCHEDULED, Match.Status.IN_PLAY)
MOST_TABLES = 500


def tables_assign(*, tournament: Tournament) -> list[Table]:
    """Free the tables of matches that ended, and seat waiting matches at the free ones.

    Called inside the transaction of whatever changed the room: a draw, a pairing, a
    result. Writes as a consequence of that change (which is in the audit), so it
    records nothing itself. Returns the tables given a match.
    """
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    room = Table.objects.filter(tournament=locked)
    room.exclude(match__status__in=PLAYABLE).exclude(match=None).update(match=None)
    count = locked.tables or 0
    room.filter(number__gt=count, match=None).delete()  # tables taken away, now free
    have = set(room.values_list("number", flat=True))
    Table.objects.bulk_create(
        Table(tournament=locked, number=n) for n in range(1, count + 1) if n not in have
    )
    free = list(room.filter(match=None, number__lte=count).order_by("number"))
    if not free:
        return []
    waiting = (
        Match.objects.filter(
            place__event__tournament=locked, status__in=PLAYABLE, table__isnull=True
        )
        .order_by("place__event_id", "place__round", "place__id")
        .select_related("player_a__user", "player_b__user")[: len(free)]
    )
    seated = []
    for table, match in zip(free, waiting, strict=False):
        table.match = match
        seated.append(table)
    Table.objects.bulk_update(seated, ["match"])
    for table in seated:
        _table_notify(table)
    return seated


def _table_notify(table: Table) -> None:
    """Both players are told their match is ready at its table (once the seating commits)."""
    match = table.match
    if match is None or match.player_a_id is None or match.player_b_id is None:
        return  # a player still to be decided: nobody to call to the table yet
    for player in (match.player_a, match.player_b):
        player_notify(
            player=player,
            subject=gettext_noop("Your match is ready at table %(table)s"),
            template="emails/table_ready.txt",
            context={
                "match": f"{match.player_a.name} – {match.player_b.name}",
                "table": table.number,
            },
            path=match.get_absolute_url(),
        )


def tournament_tables_set(*, tournament: Tournament, count: int | None, user: Any) -> Tournament:
    """How many tables the room has (None: matches are not given tables)."""
    require(can_direct(user, tournament))
    if count is not None and not 1 <= count <= MOST_TABLES:
        raise ValidationError(
            _("A room has from 1 to %(most)s tables (or leave it empty).") % {"most": MOST_TABLES}
        )
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.tables != count:
            before = locked.tables
            locked.tables = count
            locked.save(update_fields=["tables"])
            tournament_audit_record(
                locked,
                user,
                "tables.set",
                params={"count": count or 0},
                before={"tables": before},
                after={"tables": count},
            )
        if not count:
            Table.objects.filter(tournament=locked).update(match=None)
        tables_assign(tournament=locked)
    return locked


def match_table_move(*, match: Match, number: int, user: Any) -> Table:
    """Move a match to another table of the room; a match at that table takes its place."""
    tournament = Tournament.objects.get(events__places__match=match)
    require(can_direct(user, tournament))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        fresh = Match.objects.select_for_update().get(pk=match.pk)
        if fresh.status not in PLAYABLE:
            raise ValidationError(_("This match is over: it needs no table."))
        if not 1 <= number <= (locked.tables or 0):
            raise ValidationError(
                _("The room has tables 1 to %(count)s.") % {"count": locked.tables or 0}
            )
        room = Table.objects.select_for_update().filter(tournament=locked)
        target = room.get(number=number)
        current = room.filter(match=fresh).first()
        if current is not None and current.pk == target.pk:
            return target
        other = target.match
        if current is not None:  # the two matches change tables (one a table, always)
            current.match = None
            current.save(update_fields=["match"])
        target.match = fresh
        target.save(update_fields=["match"])
        if current is not None and other is not None:
            current.match = other
            current.save(update_fields=["match"])
        tournament_audit_record(
            locked,
            user,
            "table.moved",
            subject=fresh,
            params={
                "a": fresh.player_a.name,
                "b": fresh.player_b.name,
                "table": number,
                "before": current.number if current is not None else 0,
            },
            match_id=fresh.pk,
        )
        if current is None and other is not None:
            tables_assign(tournament=locked)  # the match moved off waits for the next table
    return target


def tournament_room(*, tournament: Tournament) -> list[Table]:
    """The room's tables in order, each with its match, players, event and round."""
    return list(
        Table.objects.filter(tournament=tournament, number__lte=tournament.tables or 0)
        .select_related("match__player_a", "match__player_b", "match__place__event")
        .order_by("number")
    )
