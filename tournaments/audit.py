"""The tournaments app's changes in the audit trail: recorded with their tournament, and
how each code reads, in the visitor's language."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.db.models import Model
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from club.actors import Actor
from club.audit import SentenceRenderer, audit_record, audit_sentences_register
from club.models import AuditEntry
from club.sentences import changes_said, value_said

from .models import Event, Tournament
from .reasons import reason_text


def tournament_audit_record(
    tournament: Tournament,
    user: Actor,
    code: str,
    *,
    subject: Model | None = None,
    params: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    match_id: int | None = None,
) -> AuditEntry:
    return audit_record(
        user=user,
        code=code,
        subject=subject if subject is not None else tournament,
        params=params,
        before=before,
        after=after,
        tournament_id=tournament.pk,
        match_id=match_id,
    )


def _say(template: str) -> SentenceRenderer:
    """A sentence made of the entry's parameters and who acted."""

    def render(entry: AuditEntry, who: str) -> str:
        return _(template) % {"who": who, **entry.params}

    return render


def _entry_change(entry: AuditEntry, who: str) -> str:
    params: dict[str, Any] = entry.params
    templates = {
        "entry.registered": _("%(who)s entered %(player)s in %(event)s."),
        "entry.checked_in": _("%(who)s checked in %(player)s for %(event)s."),
        "entry.withdrawn": _("%(who)s withdrew %(player)s from %(event)s."),
        "entry.check_in_undone": _("%(who)s undid the check-in of %(player)s for %(event)s."),
        "entry.reinstated": _("%(who)s reinstated %(player)s in %(event)s."),
    }
    if entry.code == "entry.checked_in" and entry.params.get("own"):
        if who == entry.params.get("player"):  # the account named by its player's name
            return _("%(player)s checked themselves in for %(event)s.") % params
        return _("%(who)s checked themselves in for %(event)s as %(player)s.") % {
            "who": who,
            **entry.params,
        }
    return templates[entry.code] % {"who": who, **entry.params}


def _open_entry(entry: AuditEntry, who: str) -> str:
    if entry.params.get("allowed"):
        return _("%(who)s let players ask to enter the events.") % {"who": who}
    return _("%(who)s stopped taking players' requests to enter.") % {"who": who}


def _entry_request(entry: AuditEntry, who: str) -> str:
    params: dict[str, Any] = entry.params
    templates = {
        "entry_request.asked": _("%(who)s asked to enter %(event)s as %(player)s."),
        "entry_request.approved": _(
            "%(who)s approved the request of %(player)s to enter %(event)s."
        ),
        "entry_request.declined": _(
            "%(who)s declined the request of %(player)s to enter %(event)s."
        ),
    }
    if entry.code == "entry_request.asked" and who == entry.params.get("player"):
        return _("%(player)s asked to enter %(event)s.") % params  # their own account
    return templates[entry.code] % {"who": who, **entry.params}


def _drawn(entry: AuditEntry, who: str) -> str:
    if entry.params.get("seed") is not None:
        return _("%(who)s made the draw of %(event)s with the seed %(seed)s.") % {
            "who": who,
            **entry.params,
        }
    return _("%(who)s made the draw of %(event)s by rating.") % {"who": who, **entry.params}


def _draw_removed(entry: AuditEntry) -> str:
    count = entry.params.get("matches") or 0
    return ngettext(
        "its %(count)s match, not begun, is removed",
        "its %(count)s matches, none begun, are removed",
        count,
    ) % {"count": count}


def _redrawn(entry: AuditEntry, who: str) -> str:
    params = {**entry.params, "who": who, "removed": _draw_removed(entry)}
    if entry.params.get("seed") is not None:
        return (
            _("%(who)s undid the draw of %(event)s (seed %(seed)s) to make it again; %(removed)s.")
            % params
        )
    return _("%(who)s undid the draw of %(event)s to make it again; %(removed)s.") % params


def _draw_undone(entry: AuditEntry, who: str) -> str:
    params = {**entry.params, "who": who, "removed": _draw_removed(entry)}
    if entry.params.get("seed") is not None:
        return (
            _(
                "%(who)s took back the draw of %(event)s (seed %(seed)s) and opened check-in "
                "again; %(removed)s."
            )
            % params
        )
    return (
        _("%(who)s took back the draw of %(event)s and opened check-in again; %(removed)s.")
        % params
    )


def _late_rounds(entry: AuditEntry, who: str) -> str:
    if entry.params.get("count_as") == "bye":
        return _("%(who)s set a late arrival's missed Swiss rounds to count as byes.") % {
            "who": who
        }
    return _("%(who)s set a late arrival's missed Swiss rounds to count as losses.") % {"who": who}


def _reports_set(entry: AuditEntry, who: str) -> str:
    params = entry.params
    if params.get("results_by") != "players":
        return _("%(who)s set the results to be entered by the directors only.") % {"who": who}
    detail = {
        "games": lambda: _("game by game"),
        "final": lambda: _("only the final score"),
    }.get(params.get("report_detail"), lambda: _("game by game or only the final score"))()
    return ngettext(
        "%(who)s let the players report the results (%(detail)s), confirmed by the opponent "
        "within %(minutes)s minute.",
        "%(who)s let the players report the results (%(detail)s), confirmed by the opponent "
        "within %(minutes)s minutes.",
        params.get("confirm_minutes") or 0,
    ) % {"who": who, "detail": detail, "minutes": params.get("confirm_minutes")}


def _late_entry(entry: AuditEntry, who: str) -> str:
    params = {**entry.params, "who": who}
    if entry.params.get("entered"):  # entered before the draw, checked in only after it
        if entry.params.get("key"):
            return (
                _(
                    "%(who)s checked in %(player)s, entered and arriving late, in %(event)s: "
                    "the bye of %(key)s."
                )
                % params
            )
        return (
            _(
                "%(who)s checked in %(player)s, entered and arriving late, in %(event)s from "
                "round %(round)s."
            )
            % params
        )
    if entry.params.get("key"):
        return (
            _("%(who)s entered %(player)s, arriving late, in %(event)s: the bye of %(key)s.")
            % params
        )
    return (
        _("%(who)s entered %(player)s, arriving late, in %(event)s from round %(round)s.") % params
    )


def _paired(entry: AuditEntry, who: str) -> str:
    pairings = (entry.after or {}).get("pairings") or []
    shown = []
    for first, second, code in pairings:
        reason = reason_text(code, {}, first, second) if code in ("rematch", "bye") else ""
        pair = f"{first} – {second}" if second else _("%(name)s: bye") % {"name": first}
        shown.append(f"{pair} ({reason})" if reason else pair)
    return _("%(who)s paired round %(round)s of %(event)s: %(pairings)s.") % {
        "who": who,
        "round": entry.params.get("round"),
        "event": entry.params.get("event"),
        "pairings": "; ".join(shown),
    }


def _cut(entry: AuditEntry, who: str) -> str:
    params = entry.params
    count = params.get("count") or 0
    # a knockout the site names (no name stored): named in the reader's language
    knockout = params.get("knockout") or _("%(event)s – last %(count)s") % {
        "event": params.get("event"),
        "count": count,
    }
    said = ngettext(
        "%(who)s cut %(event)s to the top %(count)s player: %(knockout)s.",
        "%(who)s cut %(event)s to the top %(count)s players: %(knockout)s.",
        count,
    ) % {"who": who, **params, "knockout": knockout}
    after = entry.after or {}
    level = ", ".join(after.get("level_at_the_line") or ())
    if level and after.get("decided_by") == "director":
        tie = _("Level at the cut line: %(players)s; the director chose who went through.")
    elif level:
        tie = _("Level at the cut line: %(players)s; the Swiss's draw order decided.")
    else:
        return said
    return f"{said} {tie % {'players': level}}"


def _place_changed(entry: AuditEntry, who: str) -> str:
    if entry.params.get("after"):
        return _("%(who)s changed who plays %(key)s: %(after)s (it was %(before)s).") % {
            "who": who,
            **entry.params,
        }
    return _("%(who)s removed %(key)s, no longer needed (it was %(before)s).") % {
        "who": who,
        **entry.params,
    }


def _tables_set(entry: AuditEntry, who: str) -> str:
    count = entry.params.get("count") or 0
    if not count:
        return _("%(who)s stopped numbering the tables.") % {"who": who}
    return ngettext(
        "%(who)s set the playing room to %(count)s table.",
        "%(who)s set the playing room to %(count)s tables.",
        count,
    ) % {"who": who, "count": count}


def _table_moved(entry: AuditEntry, who: str) -> str:
    params = {"who": who, **entry.params}
    if entry.params.get("before"):
        return _("%(who)s moved %(a)s – %(b)s from table %(before)s to table %(table)s.") % params
    return _("%(who)s seated %(a)s – %(b)s at table %(table)s.") % params


def _time_rules(entry: AuditEntry, who: str) -> str:
    params = entry.params
    minutes = params.get("late_minutes_per_point") or 0
    if not minutes:
        late = _("no penalty points for lateness")
    else:
        late = ngettext(
            "a penalty point for every minute late",
            "a penalty point for every %(minutes)s minutes late",
            minutes,
        ) % {"minutes": minutes}
        grace = params.get("late_grace_minutes") or 0
        if grace:
            late += ngettext(
                " after %(grace)s minute's grace",
                " after %(grace)s minutes' grace",
                grace,
            ) % {"grace": grace}
        if params.get("late_forfeit_at_half"):
            late += _(", a forfeit at half the match length")
    delay = params.get("clock_delay_seconds") or 0
    clocks = _("clocks of %(seconds)s seconds a point of the match length") % {
        "seconds": params.get("clock_seconds_per_point")
    }
    if delay:
        clocks += ngettext(
            " with a delay of %(delay)s second each turn",
            " with a delay of %(delay)s seconds each turn",
            delay,
        ) % {"delay": delay}
    if params.get("clock_on_flag") == "game":
        flag = _("a player whose time runs out loses the game at the current cube")
    else:
        flag = _("a player whose time runs out loses the match")
    return _("%(who)s set the time rules: %(late)s; %(clocks)s; %(flag)s.") % {
        "who": who,
        "late": late,
        "clocks": clocks,
        "flag": flag,
    }


def _datetime_said(value: object) -> str:
    try:
        moment = datetime.datetime.fromisoformat(str(value))
    except ValueError:
        return value_said(value)
    return date_format(localtime(moment), "SHORT_DATETIME_FORMAT")


def _round_times(entry: AuditEntry, who: str) -> str:
    params = entry.params
    clocks = {
        "required": lambda: _("clocks required"),
        "allowed": lambda: _("clocks allowed"),
    }.get(params.get("clocks") or "", lambda: _("no clocks"))()
    said = {"who": who, "round": params.get("round"), "event": params.get("event")}
    if params.get("starts_at"):
        return _("%(who)s set round %(round)s of %(event)s to start at %(time)s, %(clocks)s.") % {
            **said,
            "time": _datetime_said(params["starts_at"]),
            "clocks": clocks,
        }
    return _("%(who)s set round %(round)s of %(event)s with no start time, %(clocks)s.") % {
        **said,
        "clocks": clocks,
    }


def _arrival_recorded(entry: AuditEntry, who: str) -> str:
    params = entry.params
    minutes, points = params.get("minutes") or 0, params.get("points") or 0
    late = ngettext(
        "%(who)s recorded %(player)s arriving %(minutes)s minute late",
        "%(who)s recorded %(player)s arriving %(minutes)s minutes late",
        minutes,
    ) % {"who": who, "player": params.get("player"), "minutes": minutes}
    if not minutes:
        return _("%(who)s recorded %(player)s arriving on time.") % {
            "who": who,
            "player": params.get("player"),
        }
    if not points:
        return _("%(late)s: no penalty points.") % {"late": late}
    if params.get("forfeits"):
        return ngettext(
            "%(late)s: %(points)s penalty point, a forfeit, to confirm.",
            "%(late)s: %(points)s penalty points, a forfeit, to confirm.",
            points,
        ) % {"late": late, "points": points}
    return ngettext(
        "%(late)s: %(points)s penalty point to %(opponent)s, to confirm.",
        "%(late)s: %(points)s penalty points to %(opponent)s, to confirm.",
        points,
    ) % {"late": late, "points": points, "opponent": params.get("opponent")}


def _arrival_waived(entry: AuditEntry, who: str) -> str:
    params = entry.params
    return ngettext(
        "%(who)s waived the lateness penalty of %(player)s: %(points)s point, %(minutes)s "
        "minutes late.",
        "%(who)s waived the lateness penalty of %(player)s: %(points)s points, %(minutes)s "
        "minutes late.",
        params.get("points") or 0,
    ) % {"who": who, **params}


TOURNAMENT_FIELDS = {
    "name": lambda: _("name"),
    "date": lambda: _("date"),
    "venue": lambda: _("venue"),
    "directors": lambda: _("directors"),
}
EVENT_FIELDS = {
    "name": lambda: _("name"),
    "holland": lambda: _("Holland rule"),
    "format": lambda: _("format"),
    "lengths": lambda: _("match lengths"),
    "seeding": lambda: _("draw"),
    "swiss_rounds": lambda: _("rounds of the Swiss"),
    "cut": lambda: _("cut"),
    "pools": lambda: _("pools"),
    "third_place": lambda: _("play-off for third place"),
}


def _date_said(value: object) -> str:
    try:
        return date_format(datetime.date.fromisoformat(str(value)))
    except ValueError:
        return value_said(value)


def _choice_said(choices: type[Event.Format] | type[Event.Seeding]) -> Callable[[object], str]:
    def say(value: object) -> str:
        try:
            return str(choices(str(value)).label)
        except ValueError:  # a code this version of the site no longer has
            return value_said(value)

    return say


def _tournament_changed(entry: AuditEntry, who: str) -> str:
    return _("%(who)s changed the tournament %(name)s: %(changes)s.") % {
        "who": who,
        "name": entry.params.get("name"),
        "changes": changes_said(entry, TOURNAMENT_FIELDS, {"date": _date_said}),
    }


def _event_changed(entry: AuditEntry, who: str) -> str:
    shown = {"format": _choice_said(Event.Format), "seeding": _choice_said(Event.Seeding)}
    return _("%(who)s changed the event %(event)s: %(changes)s.") % {
        "who": who,
        "event": entry.params.get("event"),
        "changes": changes_said(entry, EVENT_FIELDS, shown),
    }


def register() -> None:
    audit_sentences_register(
        {
            "tournament.created": _say(gettext_noop("%(who)s created the tournament %(name)s.")),
            "event.created": _say(gettext_noop("%(who)s created the event %(event)s.")),
            "tournament.changed": _tournament_changed,
            "event.changed": _event_changed,
            "entry.registered": _entry_change,
            "entry.checked_in": _entry_change,
            "entry.withdrawn": _entry_change,
            "entry.check_in_undone": _entry_change,
            "entry.reinstated": _entry_change,
            "event.drawn": _drawn,
            "event.redrawn": _redrawn,
            "event.draw_undone": _draw_undone,
            "entry.late": _late_entry,
            "late_rounds.set": _late_rounds,
            "reports.set": _reports_set,
            "time_rules.set": _time_rules,
            "round.times_set": _round_times,
            "arrival.recorded": _arrival_recorded,
            "arrival.waived": _arrival_waived,
            "open_entry.set": _open_entry,
            "entry_request.asked": _entry_request,
            "entry_request.approved": _entry_request,
            "entry_request.declined": _entry_request,
            "entry.substituted": _say(
                gettext_noop(
                    "%(who)s put %(player)s in the place of %(gone)s, who withdrew from %(event)s."
                )
            ),
            "event.paired": _paired,
            "event.cut": _cut,
            "place.created": _say(
                gettext_noop("%(who)s put %(a)s – %(b)s in %(key)s of %(event)s.")
            ),
            "place.changed": _place_changed,
            "tables.set": _tables_set,
            "table.moved": _table_moved,
            "announcement.posted": _say(
                gettext_noop("%(who)s posted an announcement for the room: “%(text)s”.")
            ),
            "announcement.withdrawn": _say(
                gettext_noop("%(who)s withdrew the announcement “%(text)s”.")
            ),
            "tournament.imported": _say(
                gettext_noop("%(who)s imported the tournament %(name)s from a file.")
            ),
        }
    )
