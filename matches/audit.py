"""How the matches app's changes read in the audit trail, in the visitor's language.

Each entry keeps a code, its parameters and the facts before and after (names as
they were, the points that counted); these functions make the sentence when it is
shown, so a change recorded in Italian reads in English to an English visitor.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.audit import audit_sentences_register
from club.models import AuditEntry

from .endings import cube_shown, ending_text


def game_text(facts: dict[str, Any] | None) -> str:
    """'Marco Bianchi won (gammon, cube 2): 4 points counted'; how it ended in the words of
    :mod:`matches.endings`, a dropped double's cube as the value offered (WBF 23):
    'Anna Rossi won (double dropped, cube 2): 1 point counted'."""
    if not facts:
        return "—"
    outcome = str(facts.get("outcome") or "")
    cube = facts.get("cube")
    points = facts.get("points")
    counted = (
        ngettext("%(count)s point counted", "%(count)s points counted", points) % {"count": points}
        if isinstance(points, int)
        else ""
    )
    text = _("%(winner)s won (%(ending)s, cube %(cube)s)") % {
        "winner": facts.get("winner"),
        "ending": ending_text(outcome, facts.get("resigned")),
        "cube": cube_shown(outcome, cube) if isinstance(cube, int) else cube,
    }
    return f"{text}: {counted}" if counted else text


def result_text(facts: dict[str, Any] | None) -> str:
    """A match result that is not its games: 'walkover to Anna Rossi', 'final score 5–3'."""
    if not facts:
        return _("no result")
    if facts.get("walkover"):
        return _("a walkover to %(name)s") % {"name": facts["walkover"]}
    if facts.get("forfeit") == "time" and facts.get("retired"):
        return _("the forfeit on time of %(name)s (final score %(a)s–%(b)s)") % {
            "name": facts["retired"],
            "a": facts.get("score_a"),
            "b": facts.get("score_b"),
        }
    if facts.get("forfeit") and facts.get("retired"):
        return _("the forfeit by lateness of %(name)s (final score %(a)s–%(b)s)") % {
            "name": facts["retired"],
            "a": facts.get("score_a"),
            "b": facts.get("score_b"),
        }
    if facts.get("retired"):
        return _("the retirement of %(name)s (final score %(a)s–%(b)s)") % {
            "name": facts["retired"],
            "a": facts.get("score_a"),
            "b": facts.get("score_b"),
        }
    return _("the final score %(a)s–%(b)s") % {"a": facts.get("score_a"), "b": facts.get("score_b")}


def _players(entry: AuditEntry, who: str) -> str:
    before = entry.before or {}
    return _("%(who)s changed who plays: %(a)s – %(b)s (it was %(was_a)s – %(was_b)s).") % {
        "who": who,
        "a": entry.params.get("a"),
        "b": entry.params.get("b"),
        "was_a": before.get("a"),
        "was_b": before.get("b"),
    }


def _length(entry: AuditEntry, who: str) -> str:
    return _("%(who)s made the match %(match)s %(length)s points long (it was %(was)s).") % {
        "who": who,
        "match": entry.params.get("match"),
        "length": entry.params.get("length"),
        "was": (entry.before or {}).get("length"),
    }


def _deleted(entry: AuditEntry, who: str) -> str:
    return _("%(who)s removed the match %(a)s – %(b)s, never begun.") % {"who": who, **entry.params}


def _created(entry: AuditEntry, who: str) -> str:
    return _("%(who)s created the %(length)s-point match %(a)s – %(b)s.") % {
        "who": who,
        **entry.params,
    }


def _recorded(entry: AuditEntry, who: str) -> str:
    if entry.params.get("reported_by"):
        return _("%(who)s confirmed game %(number)s as %(reporter)s reported it: %(game)s.") % {
            "who": who,
            "number": entry.params.get("number"),
            "reporter": entry.params["reported_by"],
            "game": game_text(entry.after),
        }
    return _("%(who)s recorded game %(number)s: %(game)s.") % {
        "who": who,
        "number": entry.params.get("number"),
        "game": game_text(entry.after),
    }


def _corrected(entry: AuditEntry, who: str) -> str:
    return _("%(who)s corrected game %(number)s: %(after)s (it was: %(before)s).") % {
        "who": who,
        "number": entry.params.get("number"),
        "after": game_text(entry.after),
        "before": game_text(entry.before),
    }


def _result_corrected(entry: AuditEntry, who: str) -> str:
    """A final score or a walkover put in place of another result."""
    return _("%(who)s corrected the result to %(after)s (it was %(before)s).") % {
        "who": who,
        "after": result_text(entry.after),
        "before": result_text(entry.before),
    }


def _final_score(entry: AuditEntry, who: str) -> str:
    if entry.before:
        return _result_corrected(entry, who)
    if entry.params.get("reported_by"):
        return _("%(who)s confirmed the final score %(a)s–%(b)s as %(reporter)s reported it.") % {
            "who": who,
            "a": entry.params.get("score_a"),
            "b": entry.params.get("score_b"),
            "reporter": entry.params["reported_by"],
        }
    return _("%(who)s recorded the final score %(a)s–%(b)s.") % {
        "who": who,
        "a": entry.params.get("score_a"),
        "b": entry.params.get("score_b"),
    }


def _walkover(entry: AuditEntry, who: str) -> str:
    if entry.before:
        return _result_corrected(entry, who)
    return _("%(who)s recorded a walkover to %(winner)s.") % {
        "who": who,
        "winner": entry.params.get("winner"),
    }


def _retired(entry: AuditEntry, who: str) -> str:
    return _(
        "%(who)s recorded that %(name)s retired: %(winner)s wins the match, final score "
        "%(a)s–%(b)s."
    ) % {
        "who": who,
        "name": entry.params.get("name"),
        "winner": entry.params.get("winner"),
        "a": entry.params.get("score_a"),
        "b": entry.params.get("score_b"),
    }


def _forfeit(entry: AuditEntry, who: str) -> str:
    values = {
        "who": who,
        "name": entry.params.get("name"),
        "winner": entry.params.get("winner"),
        "a": entry.params.get("score_a"),
        "b": entry.params.get("score_b"),
    }
    if entry.params.get("reason") == "time":
        return (
            _(
                "%(who)s recorded that %(name)s forfeited on time: %(winner)s wins the match, "
                "final score %(a)s–%(b)s."
            )
            % values
        )
    return (
        _(
            "%(who)s recorded that %(name)s forfeited by lateness: %(winner)s wins the match, "
            "final score %(a)s–%(b)s."
        )
        % values
    )


def penalty_text(facts: dict[str, Any]) -> str:
    """Penalty points in words: '2 penalty points to Bruno Bianchi against Anna Rossi
    before game 3 (Anna Rossi 10 minutes late)'."""
    values = {
        "points": facts.get("points"),
        "scorer": facts.get("scorer"),
        "name": facts.get("name"),
        "number": facts.get("before_game"),
    }
    given = facts.get("points")
    points = given if isinstance(given, int) else 0
    text = (
        ngettext(
            "%(points)s penalty point to %(scorer)s against %(name)s before game %(number)s",
            "%(points)s penalty points to %(scorer)s against %(name)s before game %(number)s",
            points,
        )
        % values
    )
    return f"{text} ({penalty_reason_text(facts, quoted=True)})"


def penalty_reason_text(facts: dict[str, Any], *, quoted: bool = False) -> str:
    """Why penalty points were given: 'Anna Rossi 10 minutes late', or the director's words
    (``quoted``: between quotation marks, as a sentence quotes them)."""
    minutes = facts.get("minutes_late")
    if facts.get("reason") == "lateness" and isinstance(minutes, int):
        return ngettext(
            "%(name)s %(minutes)s minute late",
            "%(name)s %(minutes)s minutes late",
            minutes,
        ) % {"name": facts.get("name"), "minutes": minutes}
    if facts.get("reason") == "lateness":
        return _("%(name)s late") % {"name": facts.get("name")}
    note = str(facts.get("note") or "")
    if not note:
        return _("director's decision")
    return f"“{note}”" if quoted else note


def _penalty_awarded(entry: AuditEntry, who: str) -> str:
    return _("%(who)s gave %(penalty)s: %(a)s–%(b)s.") % {
        "who": who,
        "penalty": penalty_text(entry.params),
        "a": entry.params.get("score_a"),
        "b": entry.params.get("score_b"),
    }


def _penalty_removed(entry: AuditEntry, who: str) -> str:
    return _("%(who)s took back %(penalty)s.") % {
        "who": who,
        "penalty": penalty_text(entry.params),
    }


def _result_cleared(entry: AuditEntry, who: str) -> str:
    return _("%(who)s took back %(before)s: the match is to be played.") % {
        "who": who,
        "before": result_text(entry.before),
    }


def _board_started(entry: AuditEntry, who: str) -> str:
    return _("%(who)s opened game %(number)s on the board.") % {
        "who": who,
        "number": entry.params.get("number"),
    }


def _imported(entry: AuditEntry, who: str) -> str:
    games = entry.params.get("games") or 0
    return ngettext(
        "%(who)s imported a match file of %(count)s game.",
        "%(who)s imported a match file of %(count)s games.",
        games,
    ) % {"who": who, "count": games}


def _dispute_opened(entry: AuditEntry, who: str) -> str:
    return _("%(who)s opened a dispute.") % {"who": who}


def _sheets(entry: AuditEntry, who: str) -> str:
    sheets = (entry.after or {}).get("sheets") or [None, None]
    shown = [f"{s[0]}–{s[1]}" if s else _("none kept") for s in sheets]
    return _("%(who)s entered the players' score sheets: %(a)s and %(b)s.") % {
        "who": who,
        "a": shown[0],
        "b": shown[1],
    }


def _decided(entry: AuditEntry, who: str) -> str:
    changed = entry.params.get("changed") or 0
    if entry.params.get("report"):
        return _("%(who)s decided the dispute: the result %(name)s reported stands.") % {
            "who": who,
            "name": entry.params["report"],
        }
    return ngettext(
        "%(who)s decided the dispute: the log stands, %(count)s game corrected or added.",
        "%(who)s decided the dispute: the log stands, %(count)s games corrected or added.",
        changed,
    ) % {"who": who, "count": changed}


def _sheet_applied(entry: AuditEntry, who: str) -> str:
    params = entry.params
    changed = params.get("changed") or 0
    values = {
        "who": who,
        "name": params.get("name") or "",
        "a": params.get("a"),
        "b": params.get("b"),
        "count": changed,
    }
    if values["name"]:
        return (
            ngettext(
                "%(who)s decided the dispute: %(name)s's score sheet stands, %(a)s–%(b)s, "
                "%(count)s change to the match.",
                "%(who)s decided the dispute: %(name)s's score sheet stands, %(a)s–%(b)s, "
                "%(count)s changes to the match.",
                changed,
            )
            % values
        )
    return (
        ngettext(
            "%(who)s decided the dispute: both score sheets say %(a)s–%(b)s, which stands, "
            "%(count)s change to the match.",
            "%(who)s decided the dispute: both score sheets say %(a)s–%(b)s, which stands, "
            "%(count)s changes to the match.",
            changed,
        )
        % values
    )


def _closed(entry: AuditEntry, who: str) -> str:
    return _("%(who)s closed the dispute without a change: the recorded score stands.") % {
        "who": who
    }


def _claim_text(facts: dict[str, Any] | None) -> str:
    """What a player's report claims: a game, or the final score."""
    facts = facts or {}
    if "score_a" in facts:
        return _("the final score %(a)s–%(b)s") % {"a": facts["score_a"], "b": facts["score_b"]}
    return _("game %(number)s: %(game)s") % {
        "number": facts.get("number"),
        "game": game_text({**facts, "outcome": facts.get("result")}),
    }


def _report_made(entry: AuditEntry, who: str) -> str:
    return _("%(who)s reported %(claim)s, for the opponent to confirm.") % {
        "who": who,
        "claim": _claim_text(entry.after),
    }


def _report_void(entry: AuditEntry, who: str) -> str:
    return _("%(who)s entered the result: the report of %(name)s, still waiting, is void.") % {
        "who": who,
        "name": entry.params.get("name"),
    }


def _report_disputed(entry: AuditEntry, who: str) -> str:
    after = entry.after or {}
    claimed: Any = after.get("claimed")  # the scores as JSON: [a, b], or None
    own: Any = after.get("own")
    params = {"who": who, "name": entry.params.get("name")}
    if own:
        return _(
            "%(who)s disputed the result %(name)s reported (%(claimed)s); their own: %(own)s."
        ) % {**params, "claimed": f"{claimed[0]}–{claimed[1]}", "own": f"{own[0]}–{own[1]}"}
    return _("%(who)s disputed the result %(name)s reported (%(claimed)s).") % {
        **params,
        "claimed": f"{claimed[0]}–{claimed[1]}" if claimed else "—",
    }


def _report_withdrawn(entry: AuditEntry, who: str) -> str:
    return _("%(who)s withdrew their report.") % {"who": who}


def _notifications(entry: AuditEntry, who: str) -> str:
    after = entry.after or {}
    language = dict(settings.LANGUAGES).get(after.get("language") or "", "")
    if after.get("emails"):
        return _("%(who)s turned on the emails about their matches (%(language)s).") % {
            "who": who,
            "language": language or _("the site's language"),
        }
    return _("%(who)s turned off the emails about their matches.") % {"who": who}


def register() -> None:
    audit_sentences_register(
        {
            "match.created": _created,
            "match.players": _players,
            "match.deleted": _deleted,
            "match.length": _length,
            "game.recorded": _recorded,
            "game.corrected": _corrected,
            "result.final_score": _final_score,
            "result.walkover": _walkover,
            "result.retired": _retired,
            "result.cleared": _result_cleared,
            "result.forfeit": _forfeit,
            "penalty.awarded": _penalty_awarded,
            "penalty.removed": _penalty_removed,
            "board.started": _board_started,
            "match.imported": _imported,
            "dispute.opened": _dispute_opened,
            "dispute.sheets": _sheets,
            "dispute.decided": _decided,
            "dispute.closed": _closed,
            "dispute.sheet_applied": _sheet_applied,
            "report.made": _report_made,
            "report.void": _report_void,
            "report.disputed": _report_disputed,
            "report.withdrawn": _report_withdrawn,
            "notifications.set": _notifications,
        }
    )
