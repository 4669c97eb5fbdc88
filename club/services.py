"""Writing the players' register: each change allowed by the policy and audited."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from .audit import audit_record
from .csvimport import Row
from .models import Player
from .policy import can_create, require
from .selectors import ImportLine, players_import_preview

PLAYER_FIELDS = ("name", "club", "country", "email", "phone")


def _facts(player: Player) -> dict[str, Any]:
    facts: dict[str, Any] = {field: getattr(player, field) for field in PLAYER_FIELDS}
    facts["account"] = player.user.get_username() if player.user_id else ""
    return facts


def player_create(
    *,
    name: str,
    club: str = "",
    country: str = "",
    email: str = "",
    phone: str = "",
    user: Any,
) -> Player:
    require(can_create(user))
    with transaction.atomic():
        return _player_insert(
            name=name, club=club, country=country, email=email, phone=phone, user=user
        )


def _player_insert(
    *, name: str, club: str, country: str, email: str, phone: str, user: Any
) -> Player:
    """A new player and its audit entry, in the caller's transaction, the policy asked."""
    if not name.strip():
        raise ValidationError(_("A player needs a name."))
    player = Player.objects.create(
        name=name.strip(), club=club, country=country, email=email, phone=phone
    )
    audit_record(
        user=user,
        code="player.created",
        subject=player,
        params={"name": player.name},
        after=_facts(player),
    )
    return player


def players_import(*, rows: Iterable[Row], user: Any) -> list[ImportLine]:
    """Register the players of a file's rows, all or none, each audited as registered.

    The rows are checked again against the register as it is now (it may have changed
    since the preview): a player registered meanwhile is left out, like a refused row.
    Returns what was done with each row (``status.creates``: registered).
    """
    require(can_create(user))
    with transaction.atomic():
        lines = players_import_preview(rows)
        for line in lines:
            if line.status.creates:
                _player_insert(**line.row.details(), user=user)
    return lines


def player_update(*, player: Player, user: Any, **changes: Any) -> Player:
    """Change a player's details (``account``: the sign-in linked to them, or None)."""
    require(can_create(user))
    unknown = set(changes) - {*PLAYER_FIELDS, "account"}
    if unknown:
        raise TypeError(f"not a player's detail: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        locked = (
            Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
        )
        before = _facts(locked)
        for field in PLAYER_FIELDS:
            if field in changes:
                setattr(
                    locked, field, changes[field].strip() if field == "name" else changes[field]
                )
        if "account" in changes:
            locked.user = changes["account"]
        if not locked.name:
            raise ValidationError(_("A player needs a name."))
        locked.save()
        after = _facts(locked)
        if after != before:
            audit_record(
                user=user,
                code="player.changed",
                subject=locked,
                params={"name": locked.name},
                before={k: v for k, v in before.items() if after[k] != v},
                after={k: v for k, v in after.items() if before[k] != v},
            )
    return locked
