"""Players asking to enter an event, and a director's answer."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.actors import Actor
from club.models import Player
from club.policy import can_ask_to_enter, can_direct, own_player, require
from club.services import player_sign_up

from ..audit import tournament_audit_record
from ..models import EntryRequest, Event
from .entries import entry_register


def _request_audit(request: EntryRequest, user: Actor, code: str) -> None:
    tournament_audit_record(
        request.event.tournament,
        user,
        code,
        subject=request,
        params={"player": request.player.name, "event": request.event.name},
        after={"status": request.status},
    )


def _closed(event: Event) -> ValidationError:
    return ValidationError(
        _("%(event)s does not take requests to enter: ask the director.") % {"event": event.name},
        code="closed",
    )


def _request_insert(event: Event, player: Player, user: Actor) -> EntryRequest:
    """The refusals in plain words, then the request (the caller holds the event's lock)."""
    if not event.tournament.open_entry or event.drawn:
        raise _closed(event)
    if event.entries.filter(player=player).exists():
        raise ValidationError(
            _("%(player)s is already entered in %(event)s.")
            % {"player": player.name, "event": event.name},
            code="entered",
        )
    if event.entry_requests.filter(player=player, status=EntryRequest.Status.PENDING).exists():
        raise ValidationError(
            _("%(player)s has asked to enter %(event)s already: the director will answer.")
            % {"player": player.name, "event": event.name},
            code="pending",
        )
    request = EntryRequest.objects.create(
        event=event, player=player, asked_by=user if isinstance(user, User) else None
    )
    _request_audit(request, user, "entry_request.asked")
    return request


def entry_request_create(*, event: Event, user: Actor) -> EntryRequest:
    """The player signed in asks to enter the event: refused in plain words when the
    tournament does not take requests, the draw is made, or they are entered or waiting."""
    player = own_player(user)
    require(player is not None)
    assert player is not None  # require() refused the request above; this tells mypy
    with transaction.atomic():
        locked = Event.objects.select_for_update().select_related("tournament").get(pk=event.pk)
        if not can_ask_to_enter(user, locked):
            raise _closed(locked)
        return _request_insert(locked, player, user)


def entry_request_sign_up(
    *,
    event: Event,
    username: str,
    password: str,
    name: str,
    club: str = "",
    email: str = "",
    phone: str = "",
    user: Actor,
) -> EntryRequest:
    """A visitor makes an account, registers as a player and asks to enter the event, all or
    nothing; only while the event takes requests."""
    with transaction.atomic():
        locked = Event.objects.select_for_update().select_related("tournament").get(pk=event.pk)
        if not locked.tournament.open_entry or locked.drawn:
            raise _closed(locked)
        player, account = player_sign_up(
            username=username,
            password=password,
            name=name,
            club=club,
            email=email,
            phone=phone,
            user=user,
        )
        return _request_insert(locked, player, account)


def entry_request_decide(*, request: EntryRequest, approve: bool, user: Actor) -> EntryRequest:
    """A director approves (the player is entered, :func:`entry_register` refusing as it
    does) or declines a request still waiting."""
    require(can_direct(user, request.event.tournament))
    with transaction.atomic():
        locked = (
            EntryRequest.objects.select_for_update(of=("self",))
            .select_related("event__tournament", "player")
            .get(pk=request.pk)
        )
        if locked.status != EntryRequest.Status.PENDING:
            raise ValidationError(
                _("The request of %(player)s is answered already.")
                % {"player": locked.player.name},
                code="decided",
            )
        if approve:
            entry_register(event=locked.event, player=locked.player, user=user)
        locked.status = EntryRequest.Status.APPROVED if approve else EntryRequest.Status.DECLINED
        locked.decided_at = timezone.now()
        locked.decided_by = user if isinstance(user, User) else None
        locked.save(update_fields=["status", "decided_at", "decided_by"])
        code = "entry_request.approved" if approve else "entry_request.declined"
        _request_audit(locked, user, code)
    return locked
