"""Writing the players' register: each change allowed by the policy and audited."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from .audit import audit_record
from .models import Player
from .policy import can_create, require

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
    if not name.strip():
        raise ValidationError(_("A player needs a name."))
    with transaction.atomic():
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
