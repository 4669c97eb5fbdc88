"""Writing tournaments: creating one, its details, and the settings a director sets for it
(dice at the table, requests to enter, late arrivals in a Swiss, who reports results).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.actors import Actor
from club.policy import can_create, can_direct, require
from rules.text import one_line

from ..audit import tournament_audit_record
from ..models import Tournament
from ._common import KEEP


def tournament_create(
    *, name: str, date: datetime.date, venue: str = "", directors: Iterable[User] = (), user: Actor
) -> Tournament:
    """The director who creates a tournament is one of its directors. Its name and venue are
    stored on one line (:func:`rules.text.one_line`), as a player's details are."""
    require(can_create(user))
    name, venue = one_line(name), one_line(venue)
    if not name:
        raise ValidationError(_("A tournament needs a name."))
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name, date=date, venue=venue)
        tournament.directors.set(list(directors))
        if isinstance(user, User):  # a person, not a visitor or the site
            tournament.directors.add(user)
        tournament_audit_record(
            tournament,
            user,
            "tournament.created",
            params={"name": tournament.name},
            after={
                "date": date.isoformat(),
                "venue": venue,
                "directors": sorted(u.get_username() for u in tournament.directors.all()),
            },
        )
    return tournament


def _tournament_set(
    tournament: Tournament,
    user: Actor,
    code: str,
    values: dict[str, Any],
    *,
    params: dict[str, Any],
    changes: bool = True,
) -> Tournament:
    """Set some of a tournament's fields under its row lock. When one of them changes, the
    change is audited under ``code`` with ``params`` (and, with ``changes``, the fields as they
    were and as they are); set to what they are, nothing is written. The caller has checked
    the user's right and the values."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = {name: getattr(locked, name) for name in values}
        if before != values:
            for name, value in values.items():
                setattr(locked, name, value)
            locked.save(update_fields=list(values))
            tournament_audit_record(
                locked,
                user,
                code,
                params=params,
                before=before if changes else None,
                after=dict(values) if changes else None,
            )
    return locked


def tournament_dice_allow(*, tournament: Tournament, allowed: bool, user: Actor) -> Tournament:
    """Let the players of every match of the tournament enter dice rolled at the table."""
    require(can_direct(user, tournament))
    return _tournament_set(
        tournament,
        user,
        "dice.allowed",
        {"physical_dice": allowed},
        params={"allowed": allowed},
        changes=False,
    )


def tournament_open_entry_set(*, tournament: Tournament, allowed: bool, user: Actor) -> Tournament:
    """Let players signed in ask to enter the tournament's events (a director approves)."""
    require(can_direct(user, tournament))
    return _tournament_set(
        tournament,
        user,
        "open_entry.set",
        {"open_entry": allowed},
        params={"allowed": allowed},
        changes=False,
    )


def tournament_late_rounds_set(*, tournament: Tournament, count_as: str, user: Actor) -> Tournament:
    """How a Swiss counts the rounds a late arrival missed: losses, or byes (a win each)."""
    require(can_direct(user, tournament))
    if count_as not in Tournament.LateRounds.values:
        raise ValidationError(_("Choose losses or byes for the rounds missed."))
    return _tournament_set(
        tournament,
        user,
        "late_rounds.set",
        {"late_rounds": count_as},
        params={"count_as": count_as},
    )


def tournament_reports_set(
    *,
    tournament: Tournament,
    results_by: str,
    report_detail: str,
    confirm_minutes: int,
    user: Actor,
) -> Tournament:
    """Who enters the results: the directors only, or the players (reported by one, confirmed
    by the opponent); how the players report; how long a report waits for the opponent
    before it goes to the director's dashboard."""
    require(can_direct(user, tournament))
    if results_by not in Tournament.ResultsBy.values:
        raise ValidationError(_("Choose who enters the results."))
    if report_detail not in Tournament.ReportDetail.values:
        raise ValidationError(_("Choose how the players report."))
    if not 1 <= confirm_minutes <= 1440:
        raise ValidationError(
            _("A report waits from 1 minute to a day (1440 minutes) for the opponent.")
        )
    after = {
        "results_by": results_by,
        "report_detail": report_detail,
        "confirm_minutes": confirm_minutes,
    }
    return _tournament_set(tournament, user, "reports.set", after, params=after)


# the bounds of the time settings (the form says them too)
TIME_LIMITS = {
    "late_minutes_per_point": (0, 120),
    "late_grace_minutes": (0, 120),
    "clock_seconds_per_point": (1, 3600),
    "clock_delay_seconds": (0, 300),
}


def tournament_time_set(
    *,
    tournament: Tournament,
    late_minutes_per_point: int,
    late_grace_minutes: int,
    late_forfeit_at_half: bool,
    clock_seconds_per_point: int,
    clock_delay_seconds: int,
    clock_on_flag: str,
    user: Actor,
) -> Tournament:
    """The tournament's time rules: penalty points for lateness (a point for every so many
    minutes late past a grace period; 0 minutes: none; a forfeit at half the match length
    or not) and its clocks (time per point of the match length, the delay each turn, what a
    flag loses). Which rounds are played on clocks is each round's (round_times_set)."""
    require(can_direct(user, tournament))
    values: dict[str, Any] = {
        "late_minutes_per_point": late_minutes_per_point,
        "late_grace_minutes": late_grace_minutes,
        "late_forfeit_at_half": bool(late_forfeit_at_half),
        "clock_seconds_per_point": clock_seconds_per_point,
        "clock_delay_seconds": clock_delay_seconds,
        "clock_on_flag": clock_on_flag,
    }
    for name, (low, high) in TIME_LIMITS.items():
        if not low <= values[name] <= high:
            setting = getattr(Tournament._meta.get_field(name), "verbose_name", name)
            raise ValidationError(
                _("%(setting)s: from %(low)s to %(high)s.")
                % {"setting": setting, "low": low, "high": high}
            )
    if clock_on_flag not in Tournament.OnFlag.values:
        raise ValidationError(_("Choose what a player whose time runs out loses."))
    return _tournament_set(tournament, user, "time_rules.set", values, params=values)


def _tournament_facts(tournament: Tournament) -> dict[str, Any]:
    return {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "venue": tournament.venue,
        "directors": sorted(u.get_username() for u in tournament.directors.all()),
    }


def tournament_update(
    *,
    tournament: Tournament,
    user: Actor,
    name: str = KEEP,
    date: datetime.date = KEEP,
    venue: str = KEEP,
    directors: Iterable[User] = KEEP,
    physical_dice: bool = KEEP,
) -> Tournament:
    """Put a tournament's details right; what is not given stays. Only its directors (and
    staff) change it, its directors included; it always keeps at least one."""
    require(can_direct(user, tournament))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = _tournament_facts(locked)
        if name is not KEEP:
            if not one_line(name):
                raise ValidationError(_("A tournament needs a name."))
            locked.name = one_line(name)
        if date is not KEEP:
            locked.date = date
        if venue is not KEEP:
            locked.venue = one_line(venue)
        locked.save(update_fields=["name", "date", "venue"])
        if directors is not KEEP:
            chosen = list(directors)
            if not chosen:
                raise ValidationError(
                    _("A tournament keeps at least one director: choose who runs it.")
                )
            locked.directors.set(chosen)
        after = _tournament_facts(locked)
        if after != before:
            tournament_audit_record(
                locked,
                user,
                "tournament.changed",
                params={"name": locked.name},
                before={k: v for k, v in before.items() if after[k] != v},
                after={k: v for k, v in after.items() if before[k] != v},
            )
        if physical_dice is not KEEP:  # one way to change the dice, with its own sentence
            locked = tournament_dice_allow(tournament=locked, allowed=physical_dice, user=user)
    return locked
