"""Why a pairing was made, in the visitor's language.

The plain-Python pairing code (:mod:`tournaments.pairing.swiss`) gives each pairing
a reason code and its numbers; the database keeps them as they are, and they are
said here, where they are shown, with the players' names of the match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def wins(count: int) -> str:
    return ngettext("%(count)s win", "%(count)s wins", count) % {"count": count}


def reason_text(
    code: str, params: Mapping[str, Any], first: object = "", second: object = ""
) -> str:
    """A pairing's reason; ``first`` and ``second`` are the names of the match's players."""
    if code == "same-group":
        if "wins" not in params:  # recorded before reasons were codes, its number lost
            return _("same score group")
        return _("same score group (%(wins)s)") % {"wins": wins(params["wins"])}
    if code == "float":
        return _("%(first)s floats down from %(from)s to meet %(second)s on %(to)s") % {
            "first": first,
            "second": second,
            "from": wins(params["from"]),
            "to": wins(params["to"]),
        }
    if code == "rematch":
        return _("rematch: no pairing of the whole field avoids one")
    if code == "bye":
        return _("bye, the lowest-ranked player who has not had one")
    if code == "bye-again":
        return _("bye, everyone has had one: the lowest-ranked player")
    if code == "legacy":
        return str(params.get("text", ""))
    return ""
