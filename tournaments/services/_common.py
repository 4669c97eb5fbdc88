"""What the services of this package share: ``KEEP`` (an argument not given), and what
entries and late arrivals both check. For this package only."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from club.models import Player

from ..models import Entry, Event
from ..queries.progress import event_finished


class _Keep:
    """An argument not given: the setting stays as it is (None is a value: no cut, no pools)."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Any = _Keep()


def arriving_entry(event: Event, player: Player) -> tuple[Entry, str | None]:
    """The entry a player who arrives after the draw plays under, not saved yet, with the
    status it had: their own if they were entered and not drawn (the commonest late
    arrival: entered, not checked in), else a new one. One already in the draw, playing or
    withdrawn, is refused in plain words."""
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(event=event, player=player)
        .first()
    )
    params = {"player": player.name, "event": event.name}
    if entry is None:
        return Entry(event=event, player=player, status=Entry.Status.CHECKED_IN), None
    if entry.status == Entry.Status.WITHDRAWN:
        if entry.seed is not None:
            raise ValidationError(
                _(
                    "%(player)s is in the draw of %(event)s and has withdrawn: to bring them "
                    "back, use Reinstate in the list of entries."
                )
                % params
            )
        raise ValidationError(
            _(
                "%(player)s has withdrawn from %(event)s: use Reinstate in the list of entries "
                "first, then add them here."
            )
            % params
        )
    if entry.seed is not None:
        raise ValidationError(
            _("%(player)s is already playing in %(event)s (seed %(seed)s): nothing to add.")
            % {**params, "seed": entry.seed}
        )
    before = entry.status
    entry.status = Entry.Status.CHECKED_IN
    return entry, before


def refuse_finished(event: Event, said: str) -> None:
    """A finished event's draw is closed: what it says, naming the event, is the refusal."""
    if event_finished(event=event):
        raise ValidationError(said % {"event": event.name})
