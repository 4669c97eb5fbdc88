"""Calls to a table: whom the site told that their match is ready at which table, and
telling them when that no longer holds.

The room (:mod:`tournaments.venue`) seats matches; after every change to it, in the same
transaction, :func:`room_calls` brings the calls (:class:`matches.models.TableCall`) in line
with the tables:

- each player of a match seated and not begun, not yet called to its table, is called: an
  email "your match is ready at table N" (or "is now at table N", when it moved from the
  table they were called to). It is sent after the commit, and only if the call still
  holds then (:func:`call_still_holds`): the match still exists, at that table, with them
  in it, not begun or ended since. A walkover recorded and taken back before the mail
  leaves sends nothing.
- a call that no longer holds is closed; if its email went, its player is told "table N
  is no longer yours": the match was taken back (deleted, or they are no longer in it),
  or it waits for another table. A match that ended (a result, a walkover) closes its
  calls without a word (the result says it), and one moved to another table is told by
  its new call.

There is no job queue: "after the commit, re-checked when sent" is the delay.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_noop

from club.models import Player
from matches.models import Match, TableCall
from matches.notify import player_notify

from .models import Table, Tournament

LABEL_LENGTH = 250


def _label(match: Match) -> str:
    return f"{match.player_a.name} – {match.player_b.name}"[:LABEL_LENGTH]


def room_calls(*, tournament: Tournament) -> list[TableCall]:
    """Call the players of the matches just seated, and tell those whose call no longer
    holds. Run inside the transaction that changed the room (after it has changed);
    returns the calls made."""
    seated = {
        t.match_id: t
        for t in Table.objects.filter(tournament=tournament, match__isnull=False).select_related(
            "match__player_a", "match__player_b"
        )
    }
    # open calls of this tournament's matches, and of matches deleted (nowhere else to go)
    ids = list(
        TableCall.objects.filter(closed_at__isnull=True)
        .filter(Q(match__isnull=True) | Q(match__place__event__tournament=tournament))
        .values_list("pk", flat=True)
    )
    calls = list(
        TableCall.objects.select_for_update(of=("self",))
        .filter(pk__in=ids, closed_at__isnull=True)
        .select_related("player", "match")
        .order_by("pk")
    )
    now = timezone.now()
    holding: set[tuple[int, int]] = set()  # (match, player) called to the match's table
    moved: dict[tuple[int, int], int] = {}  # (match, player) -> the table they were called to
    closed = []
    for call in calls:
        match = call.match
        table = seated.get(call.match_id) if match is not None else None
        in_it = match is not None and call.player_id in (match.player_a_id, match.player_b_id)
        if match is not None and table is not None and in_it and table.number == call.table:
            holding.add((match.pk, call.player_id))
            continue
        call.closed_at = now
        closed.append(call)
        if call.sent_at is None or (match is not None and match.decided):
            continue  # never told (its mail will not go), or answered by the result
        if match is not None and table is not None and in_it:
            moved[(match.pk, call.player_id)] = call.table
            continue
        _taken_back_notify(
            call, why=("unnumbered" if not tournament.tables else "waits") if in_it else "gone"
        )
    TableCall.objects.bulk_update(closed, ["closed_at"])
    made = []
    for table in sorted(seated.values(), key=lambda t: t.number):
        match = table.match
        assert match is not None, "seated: the tables with a match"
        if match.status != Match.Status.SCHEDULED:
            continue  # in play already: the players are at it
        for player in (match.player_a, match.player_b):
            if (match.pk, player.pk) in holding:
                continue
            call = TableCall.objects.create(
                player=player, match=match, table=table.number, label=_label(match), called_at=now
            )
            _ready_notify(call, match, before=moved.get((match.pk, player.pk)))
            made.append(call)
    return made


def call_still_holds(*, call_id: int) -> bool:
    """Asked just before a call's email is sent (after the commit): the call is still open,
    its match still at its table with the player in it, and not begun or ended. Marks the
    call sent when it holds, so that a later change tells the player."""
    with transaction.atomic():
        call = (
            TableCall.objects.select_for_update(of=("self",))
            .filter(pk=call_id, closed_at__isnull=True, sent_at__isnull=True)
            .select_related("match")
            .first()
        )
        if call is None or call.match is None:
            return False
        match = call.match
        table = Table.objects.filter(match=match).first()
        holds = (
            table is not None
            and table.number == call.table
            and call.player_id in (match.player_a_id, match.player_b_id)
            and match.status == Match.Status.SCHEDULED
        )
        if holds:
            call.sent_at = timezone.now()
            call.save(update_fields=["sent_at"])
        return holds


def _not_called_again(*, player_id: int, match_id: int | None, table: int) -> bool:
    """A "no longer yours" email holds unless the player was called back to that table for
    that match in between."""
    if match_id is None:
        return True
    return not TableCall.objects.filter(
        player_id=player_id, match_id=match_id, table=table, closed_at__isnull=True
    ).exists()


def _ready_notify(call: TableCall, match: Match, *, before: int | None) -> None:
    player: Player = call.player
    player_notify(
        player=player,
        subject=(
            gettext_noop("Your match is now at table %(table)s")
            if before
            else gettext_noop("Your match is ready at table %(table)s")
        ),
        template="emails/table_ready.txt",
        context={"match": call.label, "table": call.table, "before": before or ""},
        path=match.get_absolute_url(),
        still=lambda: call_still_holds(call_id=call.pk),
    )


def _taken_back_notify(call: TableCall, *, why: str) -> None:
    """``why``: "waits" (the match is still theirs to play, at no table for now),
    "unnumbered" (the same, the room's tables no longer numbered) or "gone" (the match
    taken back: deleted, or they are no longer in it)."""
    player_id, match_id, table = call.player_id, call.match_id, call.table
    match = call.match if why != "gone" else None  # still theirs to play
    player_notify(
        player=call.player,
        subject=gettext_noop("Table %(table)s is no longer yours"),
        template="emails/table_taken_back.txt",
        context={"match": call.label, "table": table, "why": why},
        path=match.get_absolute_url() if match is not None else reverse("me"),
        still=lambda: _not_called_again(player_id=player_id, match_id=match_id, table=table),
    )
