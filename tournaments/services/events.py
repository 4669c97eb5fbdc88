"""Writing events: creating one and putting its settings right (before the draw, and the
match lengths after it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.actors import Actor
from club.policy import can_direct, require
from matches.models import Match
from matches.services import length_checked, match_length_change
from rules.text import one_line

from ..audit import tournament_audit_record
from ..models import Event, Round, Tournament
from ..queries.events import event_matches
from ..queries.knockouts import event_knockout
from ._common import KEEP
from .rounds import rounds_rebuild

LENGTH = re.compile(r"[0-9]+", re.ASCII)


def parse_lengths(text: str) -> list[int]:
    """ "5, 5, 7, 7, 9, 11" -> [5, 5, 7, 7, 9, 11], each an odd number of points (WBF 3),
    within the bounds a match's form allows."""
    lengths = []
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        if not part:
            continue
        if not LENGTH.fullmatch(part):
            raise ValidationError(
                _("Match lengths are numbers separated by commas, like 5, 5, 7, 9; not %(part)s.")
                % {"part": f"“{part}”"}
            )
        lengths.append(length_checked(int(part)))
    if not lengths:
        raise ValidationError(_("Give at least one match length."))
    return lengths


NO_BRACKET = (Event.Format.SWISS, Event.Format.ROUND_ROBIN, Event.Format.DOUBLE)


def event_create(
    *,
    tournament: Tournament,
    name: str,
    format: str,
    lengths: Sequence[int],
    seeding: str = Event.Seeding.RANDOM,
    swiss_rounds: int | None = None,
    cut: int | None = None,
    pools: int | None = None,
    parent: Event | None = None,
    holland: bool = False,
    third_place: bool = False,
    user: Actor,
) -> Event:
    require(can_direct(user, tournament))
    _event_setup_checked(format=format, swiss_rounds=swiss_rounds, cut=cut, pools=pools)
    for length in lengths:
        length_checked(length)
    with transaction.atomic():
        event = Event.objects.create(
            tournament=tournament,
            given_name=one_line(name),  # none given: the site names it (Event.name)
            format=format,
            seeding=seeding,
            swiss_rounds=swiss_rounds if format == Event.Format.SWISS else None,
            cut=cut,
            pools=pools if format == Event.Format.ROUND_ROBIN else None,
            parent=parent,
            holland=holland,
            third_place=third_place and format not in NO_BRACKET,
        )
        Round.objects.bulk_create(
            Round(event=event, number=n, length=length) for n, length in enumerate(lengths, 1)
        )
        tournament_audit_record(
            tournament,
            user,
            "event.created",
            subject=event,
            params={"event": event.name},
            after={
                "format": format,
                "lengths": list(lengths),
                "seeding": seeding,
                "swiss_rounds": event.swiss_rounds,
                "cut": cut,
                "pools": event.pools,
                "holland": holland,
                "third_place": event.third_place,
            },
        )
    return event


def _event_setup_checked(
    *, format: str, swiss_rounds: int | None, cut: int | None, pools: int | None
) -> None:
    """The settings an event's format needs, refused in plain words when they do not fit."""
    if format == Event.Format.SWISS and not swiss_rounds:
        raise ValidationError(_("Say how many rounds the Swiss has."))
    if format == Event.Format.ROUND_ROBIN and not pools:
        raise ValidationError(_("Say how many round robin pools there are."))
    if cut is not None and format != Event.Format.SWISS:
        raise ValidationError(_("Only a Swiss is cut to a knockout."))
    if cut is not None and cut < 2:
        raise ValidationError(_("A knockout needs at least two players."))


SETUP = ("format", "lengths", "seeding", "swiss_rounds", "cut", "pools", "third_place")


def _event_facts(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "holland": event.holland,
        "format": event.format,
        "lengths": [r.length for r in event.rounds.all()],
        "seeding": event.seeding,
        "swiss_rounds": event.swiss_rounds,
        "cut": event.cut,
        "pools": event.pools,
        "third_place": event.third_place,
    }


def event_update(
    *,
    event: Event,
    user: Actor,
    name: str = KEEP,
    holland: bool = KEEP,
    format: str = KEEP,
    lengths: Sequence[int] = KEEP,
    seeding: str = KEEP,
    swiss_rounds: int | None = KEEP,
    cut: int | None = KEEP,
    pools: int | None = KEEP,
    third_place: bool = KEEP,
) -> Event:
    """Put an event's settings right; what is not given stays.

    The name and the Holland rule change at any time (the rule then holds for the event's
    matches not yet begun, as for those still to be paired). The match lengths change for the
    rounds not yet begun (:func:`_lengths_after_draw`). The format, the draw, the Swiss rounds,
    the cut and the pools shape the draw: they change only before it is made.
    """
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = (
            Event.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=event.pk)
        )
        before = _event_facts(locked)
        given: dict[str, Any] = {
            "format": format,
            "lengths": list(lengths) if lengths is not KEEP else KEEP,
            "seeding": seeding,
            "swiss_rounds": swiss_rounds,
            "cut": cut,
            "pools": pools,
            "third_place": third_place,
        }
        setup = {k: before[k] if given[k] is KEEP else given[k] for k in SETUP}
        if setup["format"] != Event.Format.SWISS:
            setup["swiss_rounds"] = None
        if setup["format"] != Event.Format.ROUND_ROBIN:
            setup["pools"] = None
        if setup["format"] in NO_BRACKET:
            setup["third_place"] = False
        lengths_only = [k for k in SETUP if setup[k] != before[k]] == ["lengths"]
        if locked.drawn and lengths_only:
            _lengths_after_draw(locked, setup["lengths"], user)
        elif any(setup[k] != before[k] for k in SETUP):
            if locked.drawn:
                raise ValidationError(
                    _(
                        "The draw of %(event)s is made: its format, draw, Swiss rounds, cut, "
                        "pools and play-off for third place stay as they are."
                    )
                    % {"event": locked.name}
                )
            if setup["seeding"] == Event.Seeding.STANDINGS:
                raise ValidationError(
                    _("Only a knockout cut from a Swiss is drawn by its standings.")
                )
            _event_setup_checked(
                format=setup["format"],
                swiss_rounds=setup["swiss_rounds"],
                cut=setup["cut"],
                pools=setup["pools"],
            )
            if not setup["lengths"]:
                raise ValidationError(_("Give at least one match length."))
            for length in setup["lengths"]:
                length_checked(length)
            for field in ("format", "seeding", "swiss_rounds", "cut", "pools", "third_place"):
                setattr(locked, field, setup[field])
            if setup["lengths"] != before["lengths"]:
                rounds_rebuild(event=locked, lengths=list(setup["lengths"]))
        if name is not KEEP:
            locked.given_name = one_line(name)  # none: the site names it (Event.name)
        if holland is not KEEP and holland != locked.holland:
            locked.holland = holland
            Match.objects.filter(place__event=locked, status=Match.Status.SCHEDULED).update(
                holland=holland
            )
        locked.save()
        after = _event_facts(locked)
        if after != before:
            tournament_audit_record(
                locked.tournament,
                user,
                "event.changed",
                subject=locked,
                params={"event": locked.name},
                before={k: v for k, v in before.items() if after[k] != v},
                after={k: v for k, v in after.items() if before[k] != v},
            )
    return locked


def _lengths_after_draw(event: Event, lengths: Sequence[int], user: Actor) -> None:
    """The event's lengths after its draw: the matches not yet begun take theirs at once
    (a final the last length given), later rounds as they are made; a match begun or
    decided keeps its length, and a change to it is refused in words."""
    if not lengths:
        raise ValidationError(_("Give at least one match length."))
    for length in lengths:
        length_checked(length)
    knockout = event_knockout(event=event) if event.knockout else None
    slots = knockout.state.slots if knockout is not None else {}
    changed = []
    for match in event_matches(event=event):
        place = match.place
        slot = slots.get(place.bracket_key)
        number = 999 if slot is not None and slot.match.draw == "final" else place.round
        length = lengths[min(number, len(lengths)) - 1]
        if length == match.length:
            continue
        if match.status != Match.Status.SCHEDULED or match.games.exists():
            raise ValidationError(
                _(
                    "Round %(round)s of %(event)s has begun: its matches stay %(length)s points "
                    "long. Change the lengths of the rounds after it."
                )
                % {"round": place.round, "event": event.name, "length": match.length}
            )
        changed.append((match, length))
    for match, length in changed:
        match_length_change(match=match, length=length, user=user, placed=True)
    rounds_rebuild(event=event, lengths=list(lengths))
