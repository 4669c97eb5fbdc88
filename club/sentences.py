"""How the club's own changes (the players' register) read in the audit trail."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .audit import audit_sentences_register
from .countries import country_name
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


def value_said(value: Any) -> str:
    """A fact of an audit entry as a sentence shows it: yes or no, a list joined, none empty."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(value_said(item) for item in value)
    return str(value)


def changes_said(
    entry: AuditEntry,
    names: Mapping[str, Callable[[], str]],
    shown: Mapping[str, Callable[[Any], str]] | None = None,
) -> str:
    """What an entry changed, field by field: “club from “Zenzero” to “Circolo di Napoli””.

    ``names``: each field's name in the active language; ``shown``: how a field's value reads
    when it is a code (a format, a draw), else :func:`value_said`.
    """
    before, after = entry.before or {}, entry.after or {}
    shown = shown or {}
    parts = []
    # in the order ``names`` gives, not the stored one: PostgreSQL's jsonb keeps its own
    order = {field: index for index, field in enumerate(names)}
    for field, value in sorted(after.items(), key=lambda item: order.get(item[0], len(order))):
        say = shown.get(field, value_said)
        parts.append(
            _("%(field)s from “%(before)s” to “%(after)s”")
            % {
                "field": names[field]() if field in names else field,
                "before": say(before.get(field, "")),
                "after": say(value),
            }
        )
    return "; ".join(parts)


# a code shown as the country's name in the visitor's language ("IT": "Italia" in Italian)
SHOWN = {"country": lambda value: country_name(value_said(value))}


def _changed(entry: AuditEntry, who: str) -> str:
    return _("%(who)s changed the player %(name)s: %(changes)s.") % {
        "who": who,
        "name": entry.params.get("name"),
        "changes": changes_said(entry, FIELD_NAMES, SHOWN),
    }


def _country_coded(entry: AuditEntry, who: str) -> str:
    """The register's free-text countries written as codes (club migration 0005)."""
    params = {"who": who, "name": entry.params.get("name"), "typed": entry.params.get("typed")}
    if not entry.params.get("code"):
        return (
            _(
                "%(who)s left the country of %(name)s empty: “%(typed)s” is not a country "
                "it knows (the text is kept here)."
            )
            % params
        )
    return _("%(who)s wrote the country of %(name)s, typed as “%(typed)s”, as %(country)s.") % {
        **params,
        "country": country_name(entry.params["code"]),
    }


def _dice(entry: AuditEntry, who: str) -> str:
    """For a match or a whole tournament: the players may enter dice rolled at the table."""
    if entry.params.get("allowed"):
        return _("%(who)s let the players enter dice rolled at the table.") % {"who": who}
    return _("%(who)s took back the players' entering of dice rolled at the table.") % {"who": who}


def _date(value: Any) -> str:
    try:
        return date_format(datetime.date.fromisoformat(str(value)))
    except ValueError:
        return value_said(value)


def _invitation_issued(entry: AuditEntry, who: str) -> str:
    return _("%(who)s issued an invitation link for %(name)s, valid until %(expires)s.") % {
        "who": who,
        "name": entry.params.get("name"),
        "expires": _date(entry.params.get("expires")),
    }


def _invitation_revoked(entry: AuditEntry, who: str) -> str:
    return _("%(who)s withdrew the invitation link of %(name)s.") % {"who": who, **entry.params}


def _invitation_accepted(entry: AuditEntry, who: str) -> str:
    if who == entry.params.get("name") and entry.params.get("account"):
        # the account is named by its player's name (club.audit.actor_name): say which
        if entry.params.get("new"):
            return _("%(name)s made the account %(account)s with their invitation.") % dict(
                entry.params
            )
        if entry.params.get("directs"):
            return _(
                "%(name)s linked the account %(account)s, which directs tournaments, with "
                "their invitation, saying it is that player."
            ) % dict(entry.params)
        return _("%(name)s linked the account %(account)s with their invitation.") % dict(
            entry.params
        )
    if entry.params.get("new"):
        return _("%(who)s made an account with the invitation for %(name)s.") % {
            "who": who,
            **entry.params,
        }
    if entry.params.get("directs"):
        return _(
            "%(who)s, an account that directs tournaments, linked itself to the player "
            "%(name)s with an invitation, saying it is that player."
        ) % {"who": who, **entry.params}
    return _("%(who)s linked their account to the player %(name)s with an invitation.") % {
        "who": who,
        **entry.params,
    }


def _signed_up(entry: AuditEntry, who: str) -> str:
    if who == entry.params.get("name") and entry.params.get("account"):
        return _("%(name)s made the account %(account)s and registered as a player.") % dict(
            entry.params
        )
    return _("%(who)s made an account and registered as the player %(name)s.") % {
        "who": who,
        **entry.params,
    }


def register() -> None:
    audit_sentences_register(
        {
            "player.created": _created,
            "player.changed": _changed,
            "player.country_coded": _country_coded,
            "dice.allowed": _dice,
            "invitation.issued": _invitation_issued,
            "invitation.revoked": _invitation_revoked,
            "invitation.accepted": _invitation_accepted,
            "player.signed_up": _signed_up,
        }
    )
