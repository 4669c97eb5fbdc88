"""The playing room: its tables, numbered across every event of the tournament.

A match waiting to be played is given the lowest free table; a table is free again when
its match ends (a walkover takes none). The database holds one match a table and one
table a match (:class:`tournaments.models.Table`), so two matches are never sent to one
table. Matches already seated keep their table: a director moves one by hand
(:func:`match_table_move`), and fewer tables take effect as matches end.

A player is at one table at a time: a match whose player is busy in another match of the
tournament (in play, or at a table and not begun) waits, and the tables go to the matches
that can start. The director may still seat it by hand (:func:`match_table_move`); the page
then says where the player is (:func:`match_players_busy`).

Both players of a match given a table are called to it by email (once the change commits,
and only if it still holds then), and told if it is taken back: see :mod:`tournaments.calls`.

Who waits first: the events in the order they were created, then round by round, then
the order the draw made the matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from club.actors import Actor
from club.models import Player
from club.policy import can_direct, require
from matches.models import Match

from .audit import tournament_audit_record
from .calls import room_calls
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
    seated: list[Table] = []
    if free:
        playable = Match.objects.filter(place__event__tournament=locked, status__in=PLAYABLE)
        busy = players_busy(playable.select_related("table"))
        waiting = (
            playable.filter(table__isnull=True)
            .order_by("place__event_id", "place__round", "place__id")
            .select_related("player_a", "player_b")
        )
        for match in waiting:
            if len(seated) == len(free):
                break
            if busy_elsewhere(match, busy):
                continue  # a player is at another table: the match waits for them
            table = free[len(seated)]
            table.match = match
            seated.append(table)
            for player_id in (match.player_a_id, match.player_b_id):
                busy.setdefault(player_id, []).append(match)
        Table.objects.bulk_update(seated, ["match"])
    room_calls(tournament=locked)
    return seated


@dataclass(frozen=True)
class Busy:
    """A player of a match who is busy in another: ``match``, at ``table`` (None: in play
    at no table)."""

    player: Player
    match: Match
    table: int | None


def _table_number(match: Match) -> int | None:
    table = getattr(match, "table", None)  # none: Django raises, the match has no table
    return table.number if table is not None else None


def players_busy(matches: Iterable[Match]) -> dict[int, list[Match]]:
    """Each player of a match in play, or at a table and not begun, and those matches.

    ``matches``: the tournament's, with their tables read (``select_related("table")``)."""
    found: dict[int, list[Match]] = {}
    for match in matches:
        at_table = match.status == Match.Status.SCHEDULED and _table_number(match) is not None
        if match.status == Match.Status.IN_PLAY or at_table:
            for player_id in (match.player_a_id, match.player_b_id):
                found.setdefault(player_id, []).append(match)
    return found


def busy_elsewhere(match: Match, busy: dict[int, list[Match]]) -> list[Busy]:
    """The players of ``match`` busy in another match (from :func:`players_busy`)."""
    found = []
    for player_id in (match.player_a_id, match.player_b_id):
        for other in busy.get(player_id, ()):
            if other.pk != match.pk:
                player = match.player_a if player_id == match.player_a_id else match.player_b
                found.append(Busy(player=player, match=other, table=_table_number(other)))
    return found


def match_players_busy(*, match: Match) -> list[Busy]:
    """Where the players of ``match`` are busy in another match of its tournament: the
    director seating it by hand is told."""
    players = (match.player_a_id, match.player_b_id)
    tournament = Match.objects.filter(pk=match.pk).values("place__event__tournament_id")
    others = (
        Match.objects.filter(place__event__tournament_id__in=tournament, status__in=PLAYABLE)
        .filter(Q(player_a_id__in=players) | Q(player_b_id__in=players))
        .exclude(pk=match.pk)
        .select_related("table", "player_a", "player_b")
    )
    return busy_elsewhere(match, players_busy(others))


def tournament_tables_set(*, tournament: Tournament, count: int | None, user: Actor) -> Tournament:
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


def match_table_move(*, match: Match, number: int, user: Actor) -> Table:
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
        room_calls(tournament=locked)  # the players of the matches moved are told
    return target


def tournament_room(*, tournament: Tournament) -> list[Table]:
    """The room's tables in order, each with its match, players, event and round."""
    return list(
        Table.objects.filter(tournament=tournament, number__lte=tournament.tables or 0)
        .select_related("match__player_a", "match__player_b", "match__place__event")
        .order_by("number")
    )
