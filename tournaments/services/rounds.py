"""A round's time: when it starts (its call) and whether its matches are played on clocks."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.actors import Actor
from club.policy import can_direct, require

from ..audit import tournament_audit_record
from ..models import Event, Round


def event_round(*, event: Event, number: int) -> Round:
    """Round ``number`` of the event: its stored row, or (beyond the lengths given) one
    not saved yet, with the length the round is played to, for :func:`round_times_set`."""
    if number < 1:
        raise ValidationError(_("Rounds are numbered from 1."))
    found = next((r for r in event.rounds.all() if r.number == number), None)
    return found or Round(event=event, number=number, length=event.length_for(number))


def round_times_set(
    *, round: Round, starts_at: datetime.datetime | None, clocks: str, user: Actor
) -> Round:
    """Set when a round starts (its call: None, none given) and whether its matches are
    played on clocks (required, allowed or none). A round beyond the lengths given gets a
    row, and so do the rounds between, each with the length it already had: the lengths
    read the same (:meth:`Event.length_for`)."""
    event = round.event
    require(can_direct(user, event.tournament))
    if clocks not in Round.Clocks.values:
        raise ValidationError(_("Choose whether clocks are required, allowed or not used."))
    with transaction.atomic():
        locked = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
        stored = {r.number: r for r in locked.rounds.all()}
        for number in range(len(stored) + 1, round.number + 1):
            if number not in stored:  # the lengths as they read before, one a row
                stored[number] = Round.objects.create(
                    event=locked, number=number, length=locked.length_for(number)
                )
        row = stored[round.number]
        before = {"starts_at": _iso(row.starts_at), "clocks": row.clocks}
        after = {"starts_at": _iso(starts_at), "clocks": clocks}
        if before != after:
            row.starts_at, row.clocks = starts_at, clocks
            row.save(update_fields=["starts_at", "clocks"])
            tournament_audit_record(
                locked.tournament,
                user,
                "round.times_set",
                subject=locked,
                params={"event": locked.name, "round": row.number, **after},
                before=before,
                after=after,
            )
    return row


def _iso(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def rounds_rebuild(*, event: Event, lengths: list[int]) -> None:
    """The event's rounds made again for new ``lengths`` (an event changed): each round
    keeps its start and clocks; one timed beyond the new lengths keeps a row, with the
    length it is now played to. Inside the caller's transaction, the event locked."""
    kept: dict[int, tuple[datetime.datetime | None, str]]
    kept = {r.number: (r.starts_at, r.clocks) for r in event.rounds.all()}
    timed = [n for n, (start, clocks) in kept.items() if start is not None or clocks != "none"]
    count = max([len(lengths), *timed])
    untimed: tuple[datetime.datetime | None, str] = (None, Round.Clocks.NONE)
    event.rounds.all().delete()
    Round.objects.bulk_create(
        Round(
            event=event,
            number=n,
            length=lengths[min(n, len(lengths)) - 1],
            starts_at=kept.get(n, untimed)[0],
            clocks=kept.get(n, untimed)[1],
        )
        for n in range(1, count + 1)
    )
