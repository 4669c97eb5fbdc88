"""The board's clocks (tournament rules): kept by the server, checked on every request.

A match played on clocks (:func:`matches.clocks.match_clock_rules`: required, or allowed
and started by a player) has one :class:`matches.models.MatchClock`, a saved
:class:`rules.clock.Clock`. The server's time is the only time: each request reads it once
(:func:`now_ms`) and hands it to the engine, and a page only counts down between polls.

- The clock runs for the player the game waits for: from the opening roll on, every action
  that hands the game to the other player (a play confirmed, a double, a take, a
  resignation offered or answered) presses it, and their turn starts with a fresh delay. It
  stops when a game ends and starts again at the next game's opening roll.
- Every request of the board, the polls included, first looks at the flag: what it costs
  is :mod:`.timing`'s (the match, or the game under the game rule).
- A director pauses and resumes the clocks; nothing is played while they are paused.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.actors import Actor
from club.audit import audit_sentences_register
from club.models import AuditEntry
from club.policy import can_change_match
from club.words import sentence
from rules.clock import Clock, ClockSettings, FlagRule
from rules.errors import RulesError
from rules.game import Game, Phase

from ..clocks import ClockUse, MatchClockRules, match_clock_rules
from ..models import Match, MatchClock
from ..selectors import match_score_sheet
from ..services import match_audit_record


def now_ms() -> int:
    """The server's time, in whole milliseconds since the Unix epoch: the clocks' only time."""
    return time.time_ns() // 1_000_000


class ClockStopped(ValidationError):
    """The clocks do not let the action through: paused, or a flag has fallen."""


@dataclass(frozen=True)
class ClockFace:
    """One player's clock as a page shows it at the server's time."""

    side: int
    name: str
    remaining_ms: int
    delay_ms: int  # the delay still free this turn (the player on turn only)
    running: bool
    flagged: bool

    @property
    def text(self) -> str:
        return clock_text(self.remaining_ms)

    @property
    def delay_text(self) -> str:
        return clock_text(self.delay_ms)


@dataclass(frozen=True)
class BoardClock:
    """Both clocks of a match at ``at``, or the rule before they are started."""

    rules: MatchClockRules
    row: MatchClock | None
    faces: tuple[ClockFace, ...]
    at: int

    @property
    def started(self) -> bool:
        return self.row is not None

    @property
    def paused(self) -> bool:
        return self.row is not None and self.row.paused_for is not None

    @property
    def running(self) -> bool:
        return any(face.running for face in self.faces)

    @property
    def flagged(self) -> ClockFace | None:
        return next((face for face in self.faces if face.flagged), None)

    @property
    def winner(self) -> ClockFace | None:
        flagged = self.flagged
        return None if flagged is None else self.faces[1 - flagged.side]

    @property
    def version(self) -> int | None:
        return None if self.row is None else self.row.version

    @property
    def settings(self) -> ClockSettings:
        """The settings the clocks were started with, or will be."""
        return self.row.settings if self.row is not None else self.rules.settings

    @property
    def budget_text(self) -> str:
        """The time per point of the match length, as the clocks show time."""
        return clock_text(self.settings.seconds_per_point * 1000)

    @property
    def loses_match(self) -> bool:
        return self.settings.on_flag is FlagRule.MATCH

    @property
    def delay_seconds(self) -> int:
        return self.settings.delay_seconds


def clock_text(ms: int) -> str:
    """'13:05' or '1:02:09': whole seconds, rounded up (0:00 only when no time is left)."""
    seconds = -(-max(0, ms) // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def board_clock(*, match: Match, at: int) -> BoardClock | None:
    """The match's clocks as the page shows them at ``at`` (None: no clocks in this match)."""
    row = MatchClock.objects.filter(match=match).first()
    rules = match_clock_rules(match)
    if row is None and not rules.used:
        return None
    faces: list[ClockFace] = []
    for side in (0, 1):
        name = str(match.player(side))
        if row is None:
            budget = rules.settings.budget(match.length)
            faces.append(ClockFace(side, name, budget, 0, running=False, flagged=False))
            continue
        clock = row.as_clock()
        moment = max(at, clock.last or at)
        delay = 0
        if clock.running == side and clock.turn_started is not None:
            delay = max(0, clock.delay_ms - (moment - clock.turn_started))
        elif clock.paused_for == side:
            delay = clock.delay_ms
        faces.append(
            ClockFace(
                side,
                name,
                clock.remaining(side, moment),
                delay,
                running=clock.running == side,
                flagged=row.flagged == side,
            )
        )
    return BoardClock(rules=rules, row=row, faces=tuple(faces), at=at)


# --- the board's actions -------------------------------------------------------------------


def clock_for_action(*, match: Match, at: int) -> MatchClock | None:
    """The clock's row, locked, before an action on the board: refused while paused or
    once the flag has fallen (the view records it and draws the board)."""
    row = MatchClock.objects.select_for_update().filter(match=match).first()
    if row is None:
        return None
    if row.paused_for is not None:
        raise ClockStopped(
            _("The director has paused the clocks: play goes on when they are restarted.")
        )
    clock = row.as_clock()
    if clock.running is not None and clock.flag(max(at, clock.last or at)) is not None:
        raise ClockStopped(_("Time ran out before your action arrived."))
    return row


def clock_after_action(
    *, row: MatchClock | None, match: Match, game: Game, recorded: bool, at: int
) -> None:
    """Press the clock after an action: it runs for the player the game now waits for, and
    for no one once the game is over. Under required clocks the first roll starts them."""
    waiting: int | None = game.acting
    if recorded or game.over or game.phase is Phase.OPENING:
        waiting = None
    if row is None:
        rules = match_clock_rules(match)
        if rules.use is not ClockUse.REQUIRED or waiting is None:
            return
        row = MatchClock(match=match)
        row.keep(Clock.start(rules.settings, match.length))
        row.flagged = None
    clock = row.as_clock()
    moment = max(at, clock.last or at)
    try:
        if waiting is None and clock.running is not None:
            clock = _stopped(clock, moment)
        elif waiting is not None and clock.running is None:
            clock = clock_replenished(clock, match).started(waiting, moment)
            row.flagged = None  # a new game after one lost on time
        elif waiting is not None and clock.running != waiting:
            clock = clock.pressed(moment)
        else:
            return
    except RulesError as error:
        raise ValidationError(sentence(error)) from error
    row.keep(clock)
    row.version += 1
    row.save()


def clock_replenished(clock: Clock, match: Match) -> Clock:
    """A player whose flag fell and who plays on (the game rule, or a forfeit on time taken
    back) gets the time per point for each point they still need; the other keeps theirs."""
    if all(clock.remaining_ms):
        return clock
    score = match_score_sheet(match=match).score
    left = [
        ms or clock.settings.seconds_per_point * 1000 * max(1, match.length - score[side])
        for side, ms in enumerate(clock.remaining_ms)
    ]
    return replace(clock, remaining_ms=(left[0], left[1]))


def _stopped(clock: Clock, at: int) -> Clock:
    """The clock stopped at the end of a game: the player on turn charged, no one running."""
    paused = clock.paused(at)
    return replace(paused, paused_for=None, delay_ms=0)


# --- players and directors -----------------------------------------------------------------


def board_clock_pause(*, match: Match, user: Actor, at: int, pause: bool) -> MatchClock:
    """A director stops the clocks (``pause``) or restarts them."""
    if not can_change_match(user, match):
        raise PermissionDenied
    with transaction.atomic():
        row = MatchClock.objects.select_for_update().filter(match=match).first()
        if row is None:
            raise ValidationError(_("The clocks of this match are not started."))
        clock = row.as_clock()
        moment = max(at, clock.last or at)
        try:
            if pause:
                if clock.running is None:
                    raise ValidationError(_("The clocks are not running: nothing to pause."))
                clock = clock.paused(moment)
            else:
                clock = clock.resumed(moment)
        except RulesError as error:
            raise ValidationError(sentence(error)) from error
        row.keep(clock)
        row.version += 1
        row.save()
        match_audit_record(match, user, "clock.paused" if pause else "clock.resumed", subject=row)
    return row


# --- the audit's sentences -----------------------------------------------------------------


def _started(entry: AuditEntry, who: str) -> str:
    return _("%(who)s started the clocks.") % {"who": who}


def _paused(entry: AuditEntry, who: str) -> str:
    return _("%(who)s paused the clocks.") % {"who": who}


def _resumed(entry: AuditEntry, who: str) -> str:
    return _("%(who)s restarted the clocks.") % {"who": who}


def _flag(entry: AuditEntry, who: str) -> str:
    values = {"who": who, "name": entry.params.get("name"), "winner": entry.params.get("winner")}
    if entry.params.get("lost") == "game":
        return (
            _(
                "%(who)s recorded that the time of %(name)s ran out on the board's clock: "
                "%(winner)s wins the game on time (tournament rules)."
            )
            % values
        )
    return (
        _(
            "%(who)s recorded that the time of %(name)s ran out on the board's clock: "
            "%(winner)s wins the match on time (tournament rules)."
        )
        % values
    )


def clock_sentences_register() -> None:
    """How the clocks' audit entries read (:mod:`matches.apps` calls this at start-up)."""
    audit_sentences_register(
        {
            "clock.started": _started,
            "clock.paused": _paused,
            "clock.resumed": _resumed,
            "clock.flag": _flag,
        }
    )
