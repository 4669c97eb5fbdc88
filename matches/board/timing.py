"""The clocks meet the game: what a fallen flag costs, and clocks started during a game.

Every request of the board, the polls included, first calls :func:`board_flag_check`: a
fallen flag ends the match (a forfeit on time, :func:`matches.penalties.match_forfeit`) or,
under the game rule, the game, lost at its cube with gammons
(:func:`rules.clock.flag_result`) and recorded as a board game's end is. So closing the
browser does not stop the time: the next request from anyone records it, and the clock's
row lock makes of two requests after the flag one recorder.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from club.actors import SYSTEM, Actor
from club.policy import board_sides
from rules.clock import Clock, FlagRule, flag_result
from rules.game import Phase

from ..clocks import match_clock_rules
from ..models import BoardGame, Match, MatchClock
from ..penalties import match_forfeit
from ..results import result_facts
from ..services import game_record, match_audit_record
from .clock import clock_replenished
from .service import board_game_current, board_state


def board_flag_check(*, match: Match, at: int) -> bool:
    """Record what a fallen flag costs, once: True if this call recorded it.

    The common case costs one query: no clock, or one whose flag stands. Once it has
    fallen, the clock's row is locked and looked at again: a second request waits, then
    finds the clock stopped and records nothing.
    """
    row = MatchClock.objects.filter(match=match).first()
    if row is None or row.running is None:
        return False
    clock = row.as_clock()
    if clock.flag(max(at, clock.last or at)) is None:
        return False
    with transaction.atomic():
        row = MatchClock.objects.select_for_update().get(pk=row.pk)
        clock = row.as_clock()
        moment = max(at, clock.last or at)
        loser = clock.flag(moment) if clock.running is not None else None
        if loser is None:  # another request recorded it, or a director paused in time
            return False
        left = list(clock.remaining_ms)
        left[loser] = 0
        stopped = replace(
            clock,
            remaining_ms=(left[0], left[1]),
            running=None,
            turn_started=None,
            delay_ms=0,
            last=moment,
        )
        row.keep(stopped)
        row.flagged = loser
        row.version += 1
        locked = Match.objects.select_related("player_a", "player_b").get(pk=match.pk)
        _flag_result(row, locked, loser)
        row.save()
    return True


def _flag_result(row: MatchClock, match: Match, loser: int) -> None:
    """What the flag costs: the match (a forfeit on time) or the game on the board."""
    lost = "match" if row.settings.on_flag is FlagRule.MATCH else "game"
    match_audit_record(
        match,
        SYSTEM,
        "clock.flag",
        params={
            "name": match.player(loser).name,
            "winner": match.player(1 - loser).name,
            "lost": lost,
        },
        subject=row,
    )
    if match.decided:  # a result was recorded meanwhile: nothing more to lose
        return
    if lost == "match":
        match_forfeit(match=match, side=loser, reason="time", user=SYSTEM, board=True)
        return
    board_game = BoardGame.objects.filter(match=match).order_by("-number").first()
    if board_game is None or match.games.filter(number=board_game.number).exists():
        return  # no game in play (the clock runs only in one)
    state = board_state(board_game=board_game)
    result = flag_result(state.game.position, loser, state.game.cube, on_roll=state.game.turn)
    game_record(
        match=match,
        number=board_game.number,
        user=SYSTEM,
        board=True,
        **cast(dict[str, Any], result_facts(result)),
    )
    match.refresh_from_db()
    if not match.decided:  # the match goes on: the loser's time for the points still to win
        row.keep(clock_replenished(row.as_clock(), match))


def board_clock_start(*, match: Match, user: Actor, at: int) -> MatchClock:
    """A player (or a director) starts the clocks of a match where they are allowed: from
    now for the player a game being played waits for, else from the next opening roll."""
    if not board_sides(user, match):
        raise PermissionDenied
    rules = match_clock_rules(match)
    if not rules.used:
        raise ValidationError(_("This match is not played on clocks."))
    if match.decided:
        raise ValidationError(_("The match is over: there is no time to keep."))
    try:
        with transaction.atomic():
            if MatchClock.objects.filter(match=match).exists():
                raise ValidationError(_("The clocks of this match are already started."))
            clock = Clock.start(rules.settings, match.length)
            waiting = _waiting(match)
            if waiting is not None:
                clock = clock.started(waiting, at)
            row = MatchClock(match=match, version=1)
            row.keep(clock)
            row.save()
            match_audit_record(match, user, "clock.started", subject=row)
    except IntegrityError as error:  # started at the same moment on another device
        raise ValidationError(_("The clocks of this match are already started.")) from error
    return row


def _waiting(match: Match) -> int | None:
    """The player a game being played on the board waits for (None: none is)."""
    board_game = board_game_current(match=match)
    if board_game is None:
        return None
    state = board_state(board_game=board_game)
    if state.recorded or state.game.over or state.game.phase is Phase.OPENING:
        return None
    return state.game.acting
