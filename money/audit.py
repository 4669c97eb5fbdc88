"""How the tables' changes read in the audit trail, in the visitor's language.

Each entry keeps a code (``table.*``), its parameters (names as they were, numbers) and the
facts before and after; a corrected event keeps what the log said before and after as the
engine's own description, a :class:`rules.messages.Message` stored as its ``as_dict()``, so
the correction reads in the language of whoever looks at it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.actors import Actor
from club.audit import audit_record, audit_sentences_register
from club.models import AuditEntry
from matches.endings import ending_text
from rules.messages import Message

from .amounts import amount
from .models import Table, TableKind


def table_audit_record(
    table: Table,
    user: Actor,
    code: str,
    *,
    params: Mapping[str, Any] | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
) -> AuditEntry:
    """An entry about a table: its name in the parameters, for lists of many tables' changes."""
    return audit_record(
        user=user,
        code=code,
        subject=table,
        params={"table": table.name, **(params or {})},
        before=before,
        after=after,
    )


def said(facts: Mapping[str, Any] | None) -> str:
    """An event of the log as the engine describes it (``facts["said"]``, a message's
    ``as_dict()``), in the active language; "—" when there is none."""
    stored = (facts or {}).get("said")
    if not isinstance(stored, dict):
        return "—"
    return Message.from_dict(stored).render(translation)


def names(value: Any) -> str:
    """A list of names as a sentence shows it: "Anna Rossi, Bruno Bianchi"."""
    if isinstance(value, list | tuple):
        return ", ".join(str(name) for name in value)
    return str(value or "")


def _started(entry: AuditEntry, who: str) -> str:
    if entry.params.get("kind") == TableKind.MONEY:
        return _("%(who)s started the money session “%(table)s”.") % {"who": who, **entry.params}
    return _("%(who)s started the chouette “%(table)s”.") % {"who": who, **entry.params}


def _joined(entry: AuditEntry, who: str) -> str:
    return _("%(who)s seated %(player)s at “%(table)s”, for %(stake)s a point.") % {
        "who": who,
        "player": entry.params.get("player"),
        "table": entry.params.get("table"),
        "stake": amount(int(entry.params.get("stake") or 0)),
    }


def _order(entry: AuditEntry, who: str) -> str:
    if not entry.params.get("captain"):
        return _("%(who)s recorded the opening roll at “%(table)s”: %(box)s is the box.") % {
            "who": who,
            **entry.params,
        }
    return _(
        "%(who)s recorded the opening roll at “%(table)s”: %(box)s is the box, %(captain)s "
        "the captain."
    ) % {"who": who, **entry.params}


def _lineup(entry: AuditEntry, who: str) -> str:
    templates = {
        "join": _("%(who)s put %(player)s at the bottom of the order at “%(table)s”."),
        "leave": _("%(who)s recorded that %(player)s left “%(table)s”."),
        "rest": _("%(who)s recorded that %(player)s takes a break from “%(table)s”."),
        "back": _("%(who)s recorded that %(player)s is back at “%(table)s”, at the bottom."),
    }
    template = templates.get(str(entry.params.get("change")), templates["join"])
    return template % {"who": who, **entry.params}


def _partner(entry: AuditEntry, who: str) -> str:
    if entry.params.get("partner"):
        return _("%(who)s recorded that %(partner)s is the box’s partner at “%(table)s”.") % {
            "who": who,
            **entry.params,
        }
    return _("%(who)s recorded that the box plays without a partner at “%(table)s”.") % {
        "who": who,
        **entry.params,
    }


def _game_started(entry: AuditEntry, who: str) -> str:
    return _("%(who)s started game %(number)s at “%(table)s”.") % {"who": who, **entry.params}


def _game_ended(entry: AuditEntry, who: str) -> str:
    params = entry.params
    values = {
        "who": who,
        "number": params.get("number"),
        "table": params.get("table"),
        "box": params.get("box"),
        "ending": ending_text(str(params.get("result") or "single"), params.get("resigned")),
    }
    if params.get("box_wins"):
        return (
            _(
                "%(who)s recorded game %(number)s at “%(table)s”: the box, %(box)s, won "
                "(%(ending)s)."
            )
            % values
        )
    return (
        _("%(who)s recorded game %(number)s at “%(table)s”: the box, %(box)s, lost (%(ending)s).")
        % values
    )


def _deal(entry: AuditEntry, who: str) -> str:
    """A deal (club practice): the box and these members settle the game now at so many
    points each; positive, the members pay the box."""
    params = entry.params
    points = int(params.get("points") or 0)
    values = {
        "who": who,
        "number": params.get("number"),
        "table": params.get("table"),
        "members": names(params.get("members")),
        "count": abs(points),
    }
    if points >= 0:
        return (
            ngettext(
                "%(who)s recorded a deal in game %(number)s at “%(table)s” between the box and "
                "%(members)s: %(count)s point each to the box.",
                "%(who)s recorded a deal in game %(number)s at “%(table)s” between the box and "
                "%(members)s: %(count)s points each to the box.",
                abs(points),
            )
            % values
        )
    return (
        ngettext(
            "%(who)s recorded a deal in game %(number)s at “%(table)s” between the box and "
            "%(members)s: %(count)s point each from the box.",
            "%(who)s recorded a deal in game %(number)s at “%(table)s” between the box and "
            "%(members)s: %(count)s points each from the box.",
            abs(points),
        )
        % values
    )


def _game_undone(entry: AuditEntry, who: str) -> str:
    return _("%(who)s took back game %(number)s at “%(table)s”: it no longer counts.") % {
        "who": who,
        **entry.params,
    }


def _corrected(entry: AuditEntry, who: str) -> str:
    return _("%(who)s corrected line %(seq)s of “%(table)s”: %(after)s (it was: %(before)s).") % {
        "who": who,
        "seq": entry.params.get("seq"),
        "table": entry.params.get("table"),
        "after": said(entry.after),
        "before": said(entry.before),
    }


def _stake(entry: AuditEntry, who: str) -> str:
    return _(
        "%(who)s set the stake of %(player)s at “%(table)s” to %(stake)s a point (it was %(was)s)."
    ) % {
        "who": who,
        "player": entry.params.get("player"),
        "table": entry.params.get("table"),
        "stake": amount(int((entry.after or {}).get("stake") or 0)),
        "was": amount(int((entry.before or {}).get("stake") or 0)),
    }


def _closed(entry: AuditEntry, who: str) -> str:
    return _("%(who)s closed “%(table)s”: the totals are final.") % {"who": who, **entry.params}


def register() -> None:
    audit_sentences_register(
        {
            "table.started": _started,
            "table.joined": _joined,
            "table.order": _order,
            "table.lineup": _lineup,
            "table.partner": _partner,
            "table.game_started": _game_started,
            "table.game_ended": _game_ended,
            "table.deal": _deal,
            "table.game_undone": _game_undone,
            "table.corrected": _corrected,
            "table.stake": _stake,
            "table.closed": _closed,
        }
    )
