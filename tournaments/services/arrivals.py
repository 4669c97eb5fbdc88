"""A player arriving at a called match: recorded with one click, the lateness penalty
confirmed (penalty points to the opponent before the first game, or a forfeit) or waived.

The penalty is the tournament's (tournament rules: :attr:`Tournament.lateness_rules`),
counted from the match's call (:mod:`tournaments.lateness`) to the click.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import formats
from django.utils import timezone as django_timezone
from django.utils.translation import gettext as _

from club.actors import Actor
from club.policy import can_direct, require
from matches.models import Match
from matches.penalties import match_forfeit, match_penalty_award
from rules.lateness import forfeits

from ..audit import tournament_audit_record
from ..lateness import lateness, match_called_at
from ..models import Arrival, Tournament


def _tournament(match: Match) -> Tournament:
    tournament: Tournament = match.place.event.tournament
    return tournament


def _locked_match(match: Match) -> Match:
    """The match under its row lock, with its players and tournament."""
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("player_a", "player_b", "place__event__tournament")
        .get(pk=match.pk)
    )


def _not_begun(match: Match) -> None:
    if match.status != Match.Status.SCHEDULED:
        raise ValidationError(
            _(
                "%(a)s – %(b)s has begun or is over: lateness is settled before the first "
                "game. A director may still award penalty points on the match's page."
            )
            % {"a": match.player_a.name, "b": match.player_b.name}
        )


def _params(arrival: Arrival, match: Match) -> dict[str, Any]:
    return {
        "player": match.player(arrival.side).name,
        "opponent": match.player(1 - arrival.side).name,
        "minutes": arrival.minutes_late,
        "points": arrival.points,
    }


def arrival_record(*, match: Match, side: int, user: Actor, at: datetime.datetime) -> Arrival:
    """The player on ``side`` of a called match, not begun, arrived at ``at`` (the
    director's click): the minutes late and the penalty points are those of that moment.
    No points (on time, in the grace period, or no lateness penalties): nothing to confirm.
    Recorded once a player; refused in words before the call or once the match has begun."""
    require(can_direct(user, _tournament(match)))
    if side not in (0, 1):
        raise ValidationError(_("Choose which player arrived."))
    with transaction.atomic():
        locked = _locked_match(match)
        tournament = _tournament(locked)
        _not_begun(locked)
        player = locked.player(side)
        earlier = Arrival.objects.filter(match=locked, side=side).first()
        if earlier is not None:
            raise ValidationError(
                _("The arrival of %(player)s is already recorded, at %(time)s.")
                % {
                    "player": player.name,
                    "time": formats.time_format(django_timezone.localtime(earlier.arrived_at)),
                }
            )
        called = match_called_at(match=locked)
        if called is None:
            raise ValidationError(
                _(
                    "%(a)s – %(b)s has not been called yet (no start time for its round, or "
                    "no table yet): nobody is late for it."
                )
                % {"a": locked.player_a.name, "b": locked.player_b.name}
            )
        late = lateness(
            called_at=called, at=at, length=locked.length, rules=tournament.lateness_rules
        )
        arrival = Arrival(
            match=locked,
            side=side,
            called_at=called,
            arrived_at=at,
            minutes_late=min(late.minutes, 32767),
            points=late.points,
            recorded_by=user if isinstance(user, User) else None,
        )
        if not late.points:  # nothing to confirm
            arrival.state = Arrival.State.CONFIRMED
            arrival.decided_at, arrival.decided_by = at, arrival.recorded_by
        try:
            with transaction.atomic():
                arrival.save()
        except IntegrityError as clash:  # recorded at the same moment by another director
            raise ValidationError(
                _("The arrival of %(player)s is already recorded.") % {"player": player.name}
            ) from clash
        tournament_audit_record(
            tournament,
            user,
            "arrival.recorded",
            subject=arrival,
            params={**_params(arrival, locked), "forfeits": late.forfeits},
            match_id=locked.pk,
        )
    return arrival


def _pending(arrival: Arrival, user: Actor) -> tuple[Arrival, Match]:
    """The arrival and its match, both locked (the match first, as the matches' services
    lock it), still to confirm."""
    require(can_direct(user, _tournament(arrival.match)))
    match = _locked_match(arrival.match)
    locked = Arrival.objects.select_for_update().get(pk=arrival.pk)
    if locked.state != Arrival.State.PENDING:
        said = (
            _("The lateness penalty of %(player)s is already confirmed.")
            if locked.state == Arrival.State.CONFIRMED
            else _("The lateness penalty of %(player)s was already waived.")
        )
        raise ValidationError(said % {"player": match.player(locked.side).name})
    _not_begun(match)
    return locked, match


def _decided(arrival: Arrival, state: str, user: Actor) -> None:
    arrival.state = state
    arrival.decided_at = django_timezone.now()
    arrival.decided_by = user if isinstance(user, User) else None
    arrival.save(update_fields=["state", "decided_at", "decided_by"])


def arrival_confirm(*, arrival: Arrival, user: Actor) -> Arrival:
    """The director confirms a late arrival's penalty: the points to the opponent before
    the first game (the matches' penalty, audited there), or, when they reach half the
    match length and the tournament says so, the match forfeited by the late player."""
    with transaction.atomic():
        locked, match = _pending(arrival, user)
        rules = _tournament(match).lateness_rules
        if rules is not None and forfeits(locked.points, match.length, rules):
            match_forfeit(match=match, side=locked.side, reason="lateness", user=user)
        else:
            match_penalty_award(
                match=match,
                side=locked.side,
                points=min(locked.points, match.length),  # more cannot count
                reason="lateness",
                minutes_late=locked.minutes_late,
                user=user,
            )
        _decided(locked, Arrival.State.CONFIRMED, user)
    return locked


def arrival_waive(*, arrival: Arrival, user: Actor) -> Arrival:
    """The director gives a late arrival no penalty (audited, with the points waived)."""
    with transaction.atomic():
        locked, match = _pending(arrival, user)
        _decided(locked, Arrival.State.WAIVED, user)
        tournament_audit_record(
            _tournament(match),
            user,
            "arrival.waived",
            subject=locked,
            params=_params(locked, match),
            match_id=match.pk,
        )
    return locked
