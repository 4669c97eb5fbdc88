"""A player who arrives after the draw: a bye place of a knockout, or a Swiss's next round."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.actors import Actor
from club.models import Player
from club.policy import can_direct, require
from matches.models import Match

from ..advancement import event_advance
from ..audit import tournament_audit_record
from ..models import Entry, Event
from ..queries.events import event_entries
from ..queries.knockouts import event_knockout
from ..venue import tables_assign
from ._common import arriving_entry, refuse_finished
from .entries import entry_check_in, entry_register


def entry_late_add(*, event: Event, player: Player, user: Actor) -> Entry:
    """A player who arrives after the draw, checked in at once: one entered who had not
    checked in, or one not entered at all.

    A knockout: they take the next bye place of round 1 (the bye becomes a match), while
    no match that changes with it has begun, their bye opponent's next included; the draw
    and its published seed stay. A Swiss: they are paired from the next round, and the
    rounds missed count as the tournament says (losses, or byes). A round robin's schedule
    is made at the draw: it is drawn again instead, while no match has begun.
    """
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = (
            Event.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=event.pk)
        )
        if not locked.drawn:
            entered = locked.entries.filter(player=player).first()
            if entered is None:
                entered = entry_register(event=locked, player=player, user=user)
            return entry_check_in(entry=entered, user=user)
        refuse_finished(locked, _("%(event)s is finished: a player can no longer join it."))
        if locked.children.exists() or locked.parent_id is not None:
            raise ValidationError(
                _("%(event)s is part of a cut: a player can no longer join it.")
                % {"event": locked.name}
            )
        entry, before = arriving_entry(locked, player)
        entries = [e for e in event_entries(event=locked) if e.pk != entry.pk]
        seed = 1 + max((e.seed for e in entries if e.seed is not None), default=0)
        entry.seed = seed
        params: dict[str, Any] = {"player": player.name, "event": locked.name}
        if before is not None:
            params["entered"] = True  # entered before the draw, checked in only now
        if locked.format == Event.Format.SWISS:
            entry.joined_round = _swiss_next_round(locked)
            params["round"] = entry.joined_round
        elif locked.knockout:
            params["key"] = _late_bye_place(locked, entries, entry)
        else:
            raise ValidationError(
                _(
                    "A round robin's schedule is made at the draw: take the draw back (while no "
                    "match has begun), check %(player)s in and draw again."
                )
                % {"player": player.name}
            )
        entry.save()
        tournament_audit_record(
            locked.tournament,
            user,
            "entry.late",
            subject=entry,
            params=params,
            before={"status": before} if before is not None else None,
            after={"status": entry.status, "seed": seed, "joined_round": entry.joined_round},
        )
        if locked.knockout:
            event_advance(event=locked, user=user)
            tables_assign(tournament=locked.tournament)
    return entry


def _swiss_next_round(event: Event) -> int:
    """The first round a late arrival can play: the next one to be paired."""
    if event.swiss_rounds is not None and _swiss_rounds_paired(event) >= event.swiss_rounds:
        raise ValidationError(
            _("Every round of %(event)s is paired: no round is left to join.")
            % {"event": event.name}
        )
    return _swiss_rounds_paired(event) + 1


def _swiss_rounds_paired(event: Event) -> int:
    played = [p.round for p in event.places.all()] + [b.round for b in event.byes.all()]
    return max(played, default=0)


def _late_bye_place(event: Event, entries: list[Entry], arrival: Entry) -> str:
    """The bye place of round 1 a late arrival fills, checked: the matches that change with
    it (the bye opponent's next, a consolation's) must not have begun."""
    before = event_knockout(event=event, entries=entries)
    after = event_knockout(event=event, entries=[*entries, arrival])
    assert before is not None and after is not None
    if after.bracket.size != before.bracket.size:
        raise ValidationError(
            _("%(event)s has no bye place left: a player can no longer join it.")
            % {"event": event.name}
        )
    for key, match in before.matches.items():
        slot = after.state.slots.get(key)
        same = slot is not None and (match.player_a_id, match.player_b_id) == (
            getattr(after.player(slot.first), "pk", None),
            getattr(after.player(slot.second), "pk", None),
        )
        if not same and match.status != Match.Status.SCHEDULED:
            raise ValidationError(
                _(
                    "%(player)s cannot take the bye place: the match %(match)s, which it "
                    "would change, has begun or is decided."
                )
                % {"player": arrival.player.name, "match": str(match)}
            )
    seed = arrival.seed
    return next(
        key
        for key, slot in after.state.slots.items()
        if slot.match.draw == "main" and slot.match.round == 1 and seed in (slot.first, slot.second)
    )
