"""A Swiss after its draw: pairing the next round, and the cut to a knockout."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.actors import Actor
from club.models import Player
from club.policy import can_direct, require
from matches.services import length_checked

from ..advancement import event_advance, place_create
from ..audit import tournament_audit_record
from ..cut import cut_preview
from ..models import Bye, Entry, Event
from ..pairing.swiss import SwissPlayer, swiss_round
from ..queries.events import event_entries, event_matches
from ..queries.standings import event_standings
from ..venue import tables_assign
from .events import event_create


def event_pair_next_round(*, event: Event, user: Actor) -> int:
    """Pair the next Swiss round once the last one is finished; returns its number."""
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.format != Event.Format.SWISS or not locked.drawn:
            raise ValidationError(_("Only a drawn Swiss is paired round by round."))
        matches = list(event_matches(event=locked))
        played = max((m.place.round for m in matches), default=0)
        rounds = locked.swiss_rounds
        assert rounds is not None, "a Swiss has its number of rounds (_event_setup_checked)"
        unfinished = [m for m in matches if not m.decided]
        if unfinished:
            raise ValidationError(
                ngettext(
                    "Round %(round)s is not finished: %(count)s match still to play.",
                    "Round %(round)s is not finished: %(count)s matches still to play.",
                    len(unfinished),
                )
                % {"round": played, "count": len(unfinished)}
            )
        if played >= rounds:
            raise ValidationError(
                ngettext(
                    "The Swiss's only round is paired.",
                    "All %(rounds)s Swiss rounds are paired.",
                    rounds,
                )
                % {"rounds": rounds}
            )
        swiss_round_pair(locked, played + 1, user)
        tables_assign(tournament=locked.tournament)
    return played + 1


def swiss_round_pair(event: Event, number: int, user: Actor) -> None:
    """Pair round ``number`` of the Swiss from its standings (a bye when the field is odd),
    for :func:`event_pair_next_round` and the draw (round 1); the caller holds the event's
    lock, in its transaction."""
    entries = list(event_entries(event=event))
    matches = list(event_matches(event=event))
    active = {
        e.player_id for e in entries if e.seed is not None and e.status != Entry.Status.WITHDRAWN
    }
    standings = event_standings(event=event, entries=entries, matches=matches)
    had_bye = set(event.byes.values_list("player_id", flat=True))
    opponents: dict[int, set[int]] = {}
    for m in matches:
        opponents.setdefault(m.player_a_id, set()).add(m.player_b_id)
        opponents.setdefault(m.player_b_id, set()).add(m.player_a_id)
    field = [
        SwissPlayer(
            row.player.pk,
            row.standing.wins,
            rank,
            had_bye=row.player.pk in had_bye,
            opponents=frozenset(opponents.get(row.player.pk, ())),
        )
        for rank, row in enumerate(standings, 1)
        if row.player.pk in active
    ]
    if len(field) < 2:
        raise ValidationError(_("Fewer than two players are left to pair."))
    names: dict[Hashable, Player] = {row.player.pk: row.player for row in standings}
    pairings = swiss_round(field)
    for index, pairing in enumerate(pairings, 1):
        first, reason = names[pairing.first], pairing.reason
        if pairing.second is None:
            Bye.objects.create(
                event=event,
                round=number,
                player=first,
                reason_code=reason.code,
                reason_params=dict(reason.params),
            )
            continue
        place_create(
            event=event,
            round=number,
            bracket_key=f"S{number}-{index}",
            player_a=first,
            player_b=names[pairing.second],
            length=event.length_for(number),
            reason_code=reason.code,
            reason_params=dict(reason.params),
            user=user,
        )
    tournament_audit_record(
        event.tournament,
        user,
        "event.paired",
        subject=event,
        params={"event": event.name, "round": number},
        after={
            "pairings": [
                [names[p.first].name, names[p.second].name if p.second else None, p.reason.code]
                for p in pairings
            ]
        },
    )


def event_cut(
    *,
    event: Event,
    user: Actor,
    lengths: Sequence[int] | None = None,
    chosen: Iterable[int] | None = None,
    version: str | None = None,
) -> Event:
    """After the last Swiss round: the players the preview shows (:mod:`tournaments.cut`)
    start a knockout, seeded in the order they go through.

    ``lengths``: the knockout's rounds (the last one the final's); by default the Swiss's
    lengths after its rounds. ``chosen``: who goes through of the players level at the cut
    line (player ids); by default the rule the preview states, the Swiss's draw order.
    ``version``: the preview's, refused when the standings have changed since.
    """
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = (
            Event.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=event.pk)
        )
        preview = cut_preview(event=locked)
        if version is not None and version != preview.version:
            raise ValidationError(
                _(
                    "The standings of %(event)s have changed since this cut was shown (a result "
                    "corrected, a withdrawal): look at the cut again before you make it."
                )
                % {"event": locked.name},
                code="stale",
            )
        lengths = list(preview.lengths if lengths is None else lengths)
        if not lengths:
            raise ValidationError(_("Give at least one match length."))
        for length in lengths:
            length_checked(length)
        if chosen is not None:
            chosen = set(chosen)
            level = {line.player.pk for line in preview.tied}
            if not chosen <= level or len(chosen) != preview.places:
                raise ValidationError(
                    ngettext(
                        "Choose %(places)s of the %(count)s players level at the cut line.",
                        "Choose %(places)s of the %(count)s players level at the cut line.",
                        preview.places,
                    )
                    % {"places": preview.places, "count": len(preview.tied)},
                    code="choice",
                )
        through = preview.through(chosen)
        knockout = event_create(
            tournament=locked.tournament,
            name="",  # the site names it, in each reader's language (Event.name)
            format=Event.Format.SINGLE,
            lengths=lengths,
            seeding=Event.Seeding.STANDINGS,
            parent=locked,
            holland=locked.holland,
            user=user,
        )
        entries = Entry.objects.bulk_create(
            Entry(event=knockout, player=line.player, status=Entry.Status.CHECKED_IN, seed=n)
            for n, line in enumerate(through, 1)
        )
        knockout.drawn_at = timezone.now()
        knockout.save(update_fields=["drawn_at"])
        after: dict[str, Any] = {
            "seeds": [[e.seed, e.player.name] for e in entries],
            "lengths": lengths,
        }
        if preview.tied:
            after["level_at_the_line"] = [line.player.name for line in preview.tied]
            by_rule = {line.player.pk for line in preview.through()}
            chose = chosen is not None and not chosen <= by_rule
            after["decided_by"] = "director" if chose else "draw_order"
        tournament_audit_record(
            locked.tournament,
            user,
            "event.cut",
            subject=locked,
            # the knockout's name as stored: empty, made in each reader's language (Event.name)
            params={"event": locked.name, "knockout": knockout.given_name, "count": len(entries)},
            after=after,
        )
        event_advance(event=knockout, user=user)
        tables_assign(tournament=locked.tournament)
    return knockout
