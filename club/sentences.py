"""How the club's own changes (the players' register) read in the audit trail."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .audit import audit_sentences_register
from .models import AuditEntry

FIELD_NAMES = {
    "name": lambda: _("name"),
    "club": lambda: _("club"),
    "country": lambda: _("country"),
    "email": lambda: _("email"),
    "phone": lambda: _("phone"),
    "account": lambda: _("account"),
}


def _created(entry: AuditEntry, who: str) -> str:
    return _("%(who)s registered the player %(name)s.") % {"who": who, **entry.params}


def _changed(entry: AuditEntry, who: str) -> str:
    before, after = entry.before or {}, entry.after or {}
    parts = [
        _("%(field)s from “%(before)s” to “%(after)s”")
        % {
            "field": FIELD_NAMES.get(field, lambda f=field: f)(),
            "before": before.get(field, ""),
            "after": value,
        }
        for field, value in after.items()
    ]
    return _("%(who)s changed the player %(name)s: %(changes)s.") % {
        "who": who,
        "name": entry.params.get("name"),
        "changes": "; ".join(parts),
    }


def _dice(entry: AuditEntry, who: str) -> str:
    """For a match or a whole tournament: the players may enter dice rolled at the table."""
    if entry.params.get("allowed"):
        return _("%(who)s let the players enter dice rolled at the table.") % {"who": who}
    return _("%(who)s took back the players' entering of dice rolled at the table.") % {"who": who}


def register() -> None:
    audit_sentences_register(
        {"player.created": _created, "player.changed": _changed, "dice.allowed": _dice}
    )
