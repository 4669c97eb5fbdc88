"""A match clock as a value: time left per player, a simple delay, advanced by given times.

Clocks come from championship rules, not from the seeds: the tournament sets them (commonly
2 minutes per point of the match length and a 12-second delay), so a refusal cites
"tournament rules". Times are whole milliseconds given by the caller (any fixed origin,
e.g. the server's Unix time in ms): the engine never reads the system clock, so a clock is
the same on every replay. Each method returns a new :class:`Clock`.

The delay is simple (Bronstein's "simple delay", the US delay): each turn the clock starts
running only after ``delay_seconds``; time not used of the delay is lost, never added.

>>> clock = Clock.start(ClockSettings(), match_length=7).started(0, at=0)
>>> clock.remaining(0, at=12_000), clock.remaining(0, at=13_000)
(840000, 839000)
>>> clock = clock.pressed(at=20_000)
>>> clock.running, clock.remaining(0, at=20_000), clock.remaining(1, at=20_000)
(1, 832000, 840000)
>>> clock.flag(at=20_000 + 12_000 + 840_000 - 1), clock.flag(at=20_000 + 12_000 + 840_000)
(None, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from .errors import IllegalActionError
from .game import level_lost
from .match import GameResult, Outcome, check_match_length
from .messages import Message
from .money import Level
from .position import Position

__all__ = ["Clock", "ClockSettings", "FlagRule", "flag_result"]

RULE = "tournament rules"


class FlagRule(Enum):
    """What a player whose time runs out loses (a tournament setting)."""

    MATCH = "match"  # the match (the common default)
    GAME = "game"  # the game at the current cube, scored with gammons


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A tournament's clock: time per point of the match length, the delay, what a flag loses."""

    seconds_per_point: int = 120
    delay_seconds: int = 12
    on_flag: FlagRule = FlagRule.MATCH

    def __post_init__(self) -> None:
        if self.seconds_per_point < 1:
            raise ValueError(f"seconds per point are 1 or more, not {self.seconds_per_point!r}")
        if self.delay_seconds < 0:
            raise ValueError(f"a delay is 0 seconds or more, not {self.delay_seconds!r}")

    @property
    def delay_ms(self) -> int:
        """The delay of each turn, in milliseconds."""
        return self.delay_seconds * 1000

    def budget(self, match_length: int) -> int:
        """Each player's time for a match of ``match_length`` points, in milliseconds.

        >>> ClockSettings().budget(7)  # 14 minutes
        840000
        """
        return self.seconds_per_point * check_match_length(match_length, even=True) * 1000


def _player(player: int) -> int:
    if player not in (0, 1):
        raise ValueError(f"the players are 0 and 1, not {player!r}")
    return player


@dataclass(frozen=True, slots=True)
class Clock:
    """Both players' time, whose turn it is and since when.

    ``remaining_ms`` is each player's time at the start of the running stretch (a turn, or
    the part of it after a pause); ``delay_ms`` the delay still free in it; ``turn_started``
    when the stretch began; ``last`` the latest time the clock was given. ``paused_for``
    is the player on turn while a director has paused the clock.
    """

    settings: ClockSettings
    remaining_ms: tuple[int, int]
    running: int | None = None
    turn_started: int | None = None
    delay_ms: int = 0
    paused_for: int | None = None
    last: int | None = None

    @classmethod
    def start(cls, settings: ClockSettings, match_length: int) -> Clock:
        """A clock for a match of ``match_length`` points, not running yet."""
        budget = settings.budget(match_length)
        return cls(settings=settings, remaining_ms=(budget, budget))

    def _checked(self, at: int) -> int:
        if isinstance(at, bool) or not isinstance(at, int):
            raise TypeError(f"a time is whole milliseconds, not {at!r}")
        if self.last is not None and at < self.last:
            raise IllegalActionError(
                Message("clock-time-backwards", {"at": at, "last": self.last}), rule=RULE
            )
        return at

    def _used(self, at: int) -> tuple[int, int]:
        """(time charged, delay used) to the player on turn from the stretch's start to ``at``."""
        assert self.turn_started is not None
        elapsed = at - self.turn_started
        delay = min(elapsed, self.delay_ms)
        return elapsed - delay, delay

    def remaining(self, player: int, at: int) -> int:
        """``player``'s time left at ``at``, in milliseconds: never below 0."""
        at, player = self._checked(at), _player(player)
        left = self.remaining_ms[player]
        if player != self.running:
            return left
        return max(0, left - self._used(at)[0])

    def flag(self, at: int) -> int | None:
        """The player whose time has run out at ``at`` (exactly when it reaches 0), or None."""
        at = self._checked(at)
        if self.running is not None and self.remaining(self.running, at) == 0:
            return self.running
        return None

    def _refuse_fallen(self, at: int) -> None:
        fallen = self.flag(at)
        if fallen is not None:
            raise IllegalActionError(Message("clock-flag-fallen", {"player": fallen}), rule=RULE)

    def started(self, player: int, at: int) -> Clock:
        """The clock started for ``player``'s first turn at ``at``, with a fresh delay."""
        at, player = self._checked(at), _player(player)
        if self.running is not None:
            raise IllegalActionError(Message("clock-running"), rule=RULE)
        if self.paused_for is not None:
            raise IllegalActionError(Message("clock-paused"), rule=RULE)
        if self.remaining_ms[player] == 0:
            raise IllegalActionError(Message("clock-flag-fallen", {"player": player}), rule=RULE)
        return replace(
            self, running=player, turn_started=at, delay_ms=self.settings.delay_ms, last=at
        )

    def _charged(self, at: int) -> tuple[int, int]:
        """Both players' time with the running stretch charged up to ``at``."""
        assert self.running is not None
        charged = self._used(at)[0]
        left = list(self.remaining_ms)
        left[self.running] = left[self.running] - charged
        return left[0], left[1]

    def _refuse_stopped(self) -> int:
        if self.running is None:
            raise IllegalActionError(Message("clock-not-running"), rule=RULE)
        return self.running

    def pressed(self, at: int) -> Clock:
        """The player on turn ends the turn at ``at``: their time is charged, and the
        other's turn starts with a fresh delay. Refused once their flag has fallen."""
        at = self._checked(at)
        player = self._refuse_stopped()
        self._refuse_fallen(at)
        return replace(
            self,
            remaining_ms=self._charged(at),
            running=1 - player,
            turn_started=at,
            delay_ms=self.settings.delay_ms,
            last=at,
        )

    def paused(self, at: int) -> Clock:
        """A director stops the clock at ``at``: the player on turn is charged so far and
        keeps the rest of the turn's delay for when it is resumed."""
        at = self._checked(at)
        player = self._refuse_stopped()
        self._refuse_fallen(at)
        delay_left = self.delay_ms - self._used(at)[1]
        return replace(
            self,
            remaining_ms=self._charged(at),
            running=None,
            turn_started=None,
            delay_ms=delay_left,
            paused_for=player,
            last=at,
        )

    def resumed(self, at: int) -> Clock:
        """A director restarts a paused clock at ``at``, for the player who was on turn."""
        at = self._checked(at)
        if self.paused_for is None:
            raise IllegalActionError(Message("clock-not-paused"), rule=RULE)
        return replace(self, running=self.paused_for, turn_started=at, paused_for=None, last=at)


_OUTCOMES = {Level.SINGLE: Outcome.SINGLE, Level.GAMMON: Outcome.GAMMON}


def flag_result(
    position: Position, loser: int, cube: int, *, on_roll: int | None = None
) -> GameResult:
    """The game ``loser`` loses when their flag falls under :attr:`FlagRule.GAME`.

    The tournament's rule (the issue's words: "loses the game at the current cube, scored
    with gammons"): the game ends as if the opponent had just borne off their last checker,
    so the board as it stands decides the level exactly as for a game borne off (WBF 25,
    :func:`rules.game.level_lost`): single once the loser has borne off a checker, a
    backgammon with one on the bar or in the winner's home board, else a gammon; times
    the cube as it is (1 in the Crawford game). ``position`` is seen from the player on
    roll, ``on_roll`` (by default ``loser``: a clock runs for the player on turn, so the
    flag falls on them).

    >>> from rules.position import Position
    >>> flag_result(Position.start(), loser=0, cube=2)  # back checkers in the winner's home
    GameResult(winner=1, points=6, outcome=<Outcome.BACKGAMMON: 'backgammon'>, cube=2)
    """
    _player(loser)
    on_roll = loser if on_roll is None else _player(on_roll)
    if isinstance(cube, bool) or not isinstance(cube, int) or cube < 1 or cube & (cube - 1):
        raise IllegalActionError(Message("cube-power", {"cube": cube}), rule="WBF 23")
    counts = position.on_roll if on_roll == loser else position.opponent
    level = level_lost(counts)
    return GameResult(
        winner=1 - loser,
        points=cube * int(level),
        outcome=_OUTCOMES.get(level, Outcome.BACKGAMMON),
        cube=cube,
    )
