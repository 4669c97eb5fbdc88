"""Match play: lengths, scores, the Crawford game, and money play as a mode of its own.

Everything about a match's score is derived from its games' results, so the
site never stores a score twice: the score before each game, which game is the
Crawford game, whether the cube may be used, the winner.

>>> m = Match(5).add(GameResult(winner=0, points=4))
>>> m.score, m.next_game.crawford
((4, 0), True)
>>> m = m.add(GameResult(winner=1, points=2))
>>> m.score, m.next_game.crawford, m.next_game.post_crawford
((4, 2), False, True)

Penalty points and forfeits (tournament rules: lateness, a director's penalty, a flag
fallen on a clock) are part of the history too, in the order they happened, so the score
before each game and the Crawford game come out right from all of it:

>>> m = Match(5, (Penalty(player=1, points=2, reason=PenaltyReason.LATENESS),))
>>> m.score, [(p.before_game, p.score_after) for p in m.penalties]
((2, 0), [(1, (2, 0))])
>>> m = m.add(GameResult(winner=0, points=2))
>>> m.score, m.next_game.crawford
((4, 0), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from typing import TypeAlias

from .errors import IllegalActionError, InvalidMatchLengthError, MatchOverError
from .messages import Message
from .position import Variation


class Outcome(Enum):
    """How a game ended (Galore 2.7, WBF 23, 25).

    A game given up is common practice, in no seed; its points are WBF 25's.
    """

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"  # a double refused
    RESIGNATION = "resignation"

    @property
    def multiplier(self) -> int:
        """How many times the cube a finished game is worth (1 for a drop or a resignation)."""
        return {Outcome.GAMMON: 2, Outcome.BACKGAMMON: 3}.get(self, 1)


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won a game and how many points it was worth, before any match cap."""

    winner: int
    points: int
    outcome: Outcome = Outcome.SINGLE
    cube: int = 1

    def __post_init__(self) -> None:
        if self.winner not in (0, 1):
            raise ValueError(f"a game's winner is player 0 or 1, not {self.winner!r}")
        if self.points < 1:
            raise ValueError(f"a game is worth at least 1 point, not {self.points!r}")


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How a match is played: its length and the optional Holland rule (Galore 5.4).

    The other fields are for replaying logs of other programs, which let players
    choose what a tournament under these rules never does: no Crawford game
    (gnubg's ``Crawford "Off"``), Nackgammon's start, an even length (``even``:
    the length is taken as written; WBF 3 wants it odd).
    """

    length: int
    holland: bool = False
    crawford: bool = True
    variation: Variation = Variation.STANDARD
    even: bool = False

    def __post_init__(self) -> None:
        check_match_length(self.length, even=self.even)


@dataclass(frozen=True, slots=True)
class MoneyRules:
    """Money play (no match score) and the options agreed before a session (Galore 2.8, 5.4).

    ``jacoby``: gammons and backgammons count single until the cube has been turned;
    ``beavers``: the player doubled may at once redouble, keeping the cube; ``raccoons``:
    the original doubler may then turn it again (only where beavers are allowed);
    ``automatic_doubles``: how many times equal opening dice raise the cube at most (0: never);
    ``max_cube``: the highest value the cube may reach, if one is agreed (a power of 2).
    See :mod:`rules.money` for what a game is worth under them.
    """

    jacoby: bool = False
    beavers: bool = False
    variation: Variation = Variation.STANDARD
    raccoons: bool = False
    automatic_doubles: int = 0
    max_cube: int | None = None

    def __post_init__(self) -> None:
        if self.raccoons and not self.beavers:
            raise IllegalActionError(Message("raccoon-without-beaver"), rule="Galore 5.4")
        if not isinstance(self.automatic_doubles, int) or self.automatic_doubles < 0:
            raise IllegalActionError(
                Message("automatic-doubles-count", {"count": str(self.automatic_doubles)}),
                rule="Galore 2.8",
            )
        cap = self.max_cube
        if cap is not None and (not isinstance(cap, int) or cap < 2 or cap & (cap - 1)):
            raise IllegalActionError(
                Message("max-cube-power", {"cube": str(cap)}), rule="Galore 2.8"
            )


@dataclass(frozen=True, slots=True)
class GameContext:
    """What a game needs to know about the match around it.

    ``score`` is before the game; ``crawford`` marks the one game of the match
    in which nobody may double (WBF 24); ``post_crawford`` the games after it.
    """

    rules: MatchRules | MoneyRules
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    number: int = 1

    @property
    def money(self) -> bool:
        return isinstance(self.rules, MoneyRules)

    @property
    def length(self) -> int:
        """The match length; 0 in money play."""
        return 0 if isinstance(self.rules, MoneyRules) else self.rules.length

    @property
    def cube_available(self) -> bool:
        """Whether anybody may double in this game: not in the Crawford game (WBF 24)."""
        return not self.crawford

    @property
    def trailer(self) -> int | None:
        """The player behind in the score (for the Holland rule), None when level."""
        a, b = self.score
        if a == b:
            return None
        return 0 if a < b else 1


def check_match_length(length: object, *, even: bool = False) -> int:
    """A match length as an int, or :class:`InvalidMatchLengthError` saying why not.

    ``even`` lets an even length through, for a log of a server that allowed one.

    >>> check_match_length(4)
    Traceback (most recent call last):
    ...
    rules.errors.InvalidMatchLengthError: WBF 3: a match is played to an odd number of points, not 4
    """
    if isinstance(length, bool) or not isinstance(length, int):
        raise InvalidMatchLengthError(
            Message("length-whole", {"length": repr(length)}), rule="WBF 3"
        )
    if length < 1:
        raise InvalidMatchLengthError(Message("length-positive", {"length": length}), rule="WBF 3")
    if length % 2 == 0 and not even:
        raise InvalidMatchLengthError(Message("odd-length", {"length": length}), rule="WBF 3")
    return length


@dataclass(frozen=True, slots=True)
class ScoredGame:
    """One game of a match as the score sheet shows it."""

    number: int
    score_before: tuple[int, int]
    crawford: bool
    post_crawford: bool
    result: GameResult
    score_after: tuple[int, int]

    @property
    def points(self) -> int:
        """Points the game added to the winner's score, after the match cap."""
        return self.score_after[self.result.winner] - self.score_before[self.result.winner]


TIME_RULE = "tournament rules"  # penalties and forfeits are the tournament's, not the seeds'


class PenaltyReason(StrEnum):
    """Why penalty points were given: lateness (computed by :mod:`rules.lateness`) or a
    director's decision (a rules breach, with the reason in words kept by the site)."""

    LATENESS = "lateness"
    DIRECTOR = "director"


class ForfeitReason(StrEnum):
    """Why a match was forfeited: a flag fallen on a clock, or lateness reaching the
    tournament's limit (by default half the match length)."""

    TIME = "time"
    LATENESS = "lateness"


def _check_player(player: object, what: str) -> None:
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"{what} is player 0 or 1, not {player!r}")


@dataclass(frozen=True, slots=True)
class Penalty:
    """Penalty points (tournament rules): ``player`` is penalised, the opponent scores ``points``.

    Given between games, so the score the next game starts from includes them; a string
    reason (as a form or JSON gives it) is taken as the :class:`PenaltyReason` it names.
    """

    player: int
    points: int
    reason: PenaltyReason = PenaltyReason.DIRECTOR

    def __post_init__(self) -> None:
        _check_player(self.player, "a penalised player")
        if isinstance(self.points, bool) or not isinstance(self.points, int) or self.points < 1:
            raise ValueError(f"a penalty is at least 1 point, not {self.points!r}")
        object.__setattr__(self, "reason", PenaltyReason(self.reason))

    @property
    def scorer(self) -> int:
        """The player who scores the points: the opponent of the one penalised."""
        return 1 - self.player


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``player`` forfeits the match (tournament rules): the opponent is put at the length,
    the loser keeps the points they had, so the final score still tells how far it went."""

    player: int
    reason: ForfeitReason

    def __post_init__(self) -> None:
        _check_player(self.player, "a forfeiting player")
        object.__setattr__(self, "reason", ForfeitReason(self.reason))

    @property
    def winner(self) -> int:
        return 1 - self.player


Entry: TypeAlias = GameResult | Penalty | Forfeit  # one step of a match's history


@dataclass(frozen=True, slots=True)
class ScoredPenalty:
    """Penalty points as the score sheet shows them: a row before game ``before_game``."""

    before_game: int  # the number of the game it precedes: 1 = before the first game
    penalty: Penalty
    score_before: tuple[int, int]
    score_after: tuple[int, int]

    @property
    def points(self) -> int:
        """Points the penalty added to the opponent's score, after the match cap."""
        scorer = self.penalty.scorer
        return self.score_after[scorer] - self.score_before[scorer]


@dataclass(frozen=True, slots=True)
class ScoredForfeit:
    """The forfeit that ended the match, after ``games`` games had been played."""

    games: int
    forfeit: Forfeit
    score_before: tuple[int, int]
    score_after: tuple[int, int]


Scored: TypeAlias = ScoredGame | ScoredPenalty | ScoredForfeit


@dataclass(frozen=True)
class Match:
    """A match to ``length`` points and its history so far (WBF 3, 24; tournament rules).

    ``results`` holds the games' results and, where a tournament's time rules gave them,
    penalty points and a forfeit, in the order they happened (:data:`Entry`); a history of
    games alone is scored exactly as before. A log that continues a match begun elsewhere
    gives ``start``, the score before its first game, and ``crawford_played``, whether the
    Crawford game came before it; ``options`` holds the rules a log may set other than the
    length and the Holland rule (see :class:`MatchRules`).
    """

    length: int
    results: tuple[Entry, ...] = ()
    holland: bool = False
    start: tuple[int, int] = (0, 0)
    crawford_played: bool = False
    options: MatchRules | None = field(default=None, repr=False)
    history: tuple[Scored, ...] = field(init=False, repr=False, compare=False)
    games: tuple[ScoredGame, ...] = field(init=False, repr=False, compare=False)
    penalties: tuple[ScoredPenalty, ...] = field(init=False, repr=False, compare=False)
    forfeit: ScoredForfeit | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules = self.rules
        history: list[Scored] = []
        games: list[ScoredGame] = []
        score = self.start
        if max(score) >= self.length or min(score) < 0:
            raise MatchOverError(
                Message("match-over", {"a": score[0], "b": score[1]}), rule="WBF 3"
            )
        crawford_played = self.crawford_played
        last: Scored | None = None
        for entry in self.results:
            number = len(games) + 1
            if max(score) >= self.length:
                raise _after_win(entry, number, score, last, recorded=True)
            after = list(score)
            scored: Scored
            if isinstance(entry, GameResult):
                # the Crawford game is derived from the score alone: the first game played
                # with a player one point short, however they got there (a game or penalty)
                crawford = rules.crawford and _is_crawford(self.length, score, crawford_played)
                after[entry.winner] = min(self.length, score[entry.winner] + entry.points)
                scored = ScoredGame(
                    number=number,
                    score_before=score,
                    crawford=crawford,
                    post_crawford=crawford_played,
                    result=entry,
                    score_after=(after[0], after[1]),
                )
                games.append(scored)
                crawford_played = crawford_played or crawford
            elif isinstance(entry, Penalty):
                after[entry.scorer] = min(self.length, score[entry.scorer] + entry.points)
                scored = ScoredPenalty(number, entry, score, (after[0], after[1]))
            elif isinstance(entry, Forfeit):
                after[entry.winner] = self.length
                scored = ScoredForfeit(len(games), entry, score, (after[0], after[1]))
            else:
                raise TypeError(f"a match's history holds games, penalties, forfeits: {entry!r}")
            history.append(scored)
            last = scored
            score = (after[0], after[1])
        object.__setattr__(self, "history", tuple(history))
        object.__setattr__(self, "games", tuple(games))
        penalties = tuple(item for item in history if isinstance(item, ScoredPenalty))
        object.__setattr__(self, "penalties", penalties)
        forfeit = last if isinstance(last, ScoredForfeit) else None
        object.__setattr__(self, "forfeit", forfeit)

    @property
    def rules(self) -> MatchRules:
        if self.options is not None:
            return replace(self.options, length=self.length, holland=self.holland)
        return MatchRules(self.length, holland=self.holland)

    @property
    def score(self) -> tuple[int, int]:
        """The score now; points beyond the length carry no value (Galore 4)."""
        return self.history[-1].score_after if self.history else self.start

    @property
    def winner(self) -> int | None:
        """Player 0 or 1 once one has reached the length, else None."""
        return match_winner(self.length, self.score)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def crawford_game(self) -> int | None:
        """The number of the Crawford game, once it is known (played or next)."""
        for game in self.games:
            if game.crawford:
                return game.number
        if not self.over and self.next_game.crawford:
            return len(self.games) + 1
        return None

    @property
    def next_game(self) -> GameContext:
        """The context of the game to be played next (MatchOverError once the match is won)."""
        if self.over:
            raise MatchOverError(
                Message("match-over", {"a": self.score[0], "b": self.score[1]}), rule="WBF 3"
            )
        played = self.crawford_played or any(g.crawford for g in self.games)
        rules = self.rules
        return GameContext(
            rules=rules,
            score=self.score,
            crawford=rules.crawford and _is_crawford(self.length, self.score, played),
            post_crawford=played,
            number=len(self.games) + 1,
        )

    @property
    def won_by(self) -> Scored | None:
        """What won the match (its last game, penalty or forfeit), None while it goes on."""
        return self.history[-1] if self.over and self.history else None

    def add(self, entry: Entry) -> Match:
        """This match with one more game played, penalty given or forfeit."""
        return replace(self, results=(*self.results, entry))


def match_winner(length: int, score: tuple[int, int]) -> int | None:
    """The player who has reached the length (the first to reach it wins, WBF 3), else None.

    >>> match_winner(5, (3, 5)), match_winner(5, (4, 4))
    (1, None)
    """
    for player in (0, 1):
        if score[player] >= length:
            return player
    return None


def check_result(context: GameContext, result: GameResult) -> None:
    """Refuse a game result that cannot have happened in this game of the match.

    The cube shows a power of two; its value is what the game was played for
    (for a drop, the value before the refused double); nobody doubles in the
    Crawford game (WBF 24); the points are the cube times 1, 2 or 3 (WBF 25).

    >>> crawford = GameContext(rules=MatchRules(5), score=(4, 2), crawford=True, number=4)
    >>> check_result(crawford, GameResult(winner=1, points=2, outcome=Outcome.SINGLE, cube=2))
    Traceback (most recent call last):
    ...
    rules.errors.IllegalActionError: WBF 24: game 4 is the Crawford game: no doubling
    """
    cube = result.cube
    if cube < 1 or cube & (cube - 1):
        raise IllegalActionError(Message("cube-power", {"cube": cube}), rule="WBF 23")
    if context.crawford and (cube > 1 or result.outcome is Outcome.DROP):
        crawford = Message("crawford-double", {"number": context.number})
        raise IllegalActionError(crawford, rule="WBF 24")
    if result.outcome is Outcome.RESIGNATION:
        if result.points not in (cube, 2 * cube, 3 * cube):
            levels = Message(
                "resignation-points",
                {
                    "single": cube,
                    "gammon": 2 * cube,
                    "backgammon": 3 * cube,
                    "cube": cube,
                    "points": result.points,
                },
            )
            raise IllegalActionError(levels, rule="WBF 25")
    elif result.points != cube * result.outcome.multiplier:
        worth = _worth(result)
        raise IllegalActionError(worth, rule="WBF 25")


def _worth(result: GameResult) -> Message:
    """What a game that ended on the board (or by a drop) is worth, against what was written."""
    facts: dict[str, int] = {
        "cube": result.cube,
        "count": result.cube * result.outcome.multiplier,
        "points": result.points,
    }
    outcome = result.outcome
    if outcome is Outcome.GAMMON:
        return Message("gammon-worth", facts)
    if outcome is Outcome.BACKGAMMON:
        return Message("backgammon-worth", facts)
    if outcome is Outcome.DROP:
        return Message("drop-worth", facts)
    return Message("single-worth", facts)


def checked_match(length: int, results: Sequence[Entry], *, holland: bool = False) -> Match:
    """A match whose every entry is possible where it stands, else the first refusal.

    For corrections: changing one game (or taking back penalty points) re-derives the
    ones after it, and a later game that the change makes impossible (a double now in
    the Crawford game, a game after the match was won) is refused with its number and
    the rule. Nothing follows a won match: a game after a win by a game cites WBF 3,
    anything after a win by penalty points or a forfeit, and penalty points or a
    forfeit after any win, cite the tournament's rules.
    """
    match = Match(length, holland=holland)
    for entry in results:
        if match.over:  # name what could not have happened, and where the match was won
            raise _after_win(entry, len(match.games) + 1, match.score, match.won_by)
        if isinstance(entry, GameResult):
            check_result(match.next_game, entry)
        match = match.add(entry)
    return match


def _after_win(
    entry: object,
    number: int,
    score: tuple[int, int],
    won_by: Scored | None,
    *,
    recorded: bool = False,
) -> MatchOverError:
    """The refusal of ``entry`` (before game ``number``) after the match was won at ``score``.

    ``recorded``: said of a history as given (:class:`Match`), not of a correction.
    """
    a, b = score
    if isinstance(entry, Penalty):
        message = Message("penalty-after-win", {"number": number, "a": a, "b": b})
        return MatchOverError(message, rule=TIME_RULE)
    if isinstance(entry, Forfeit):
        message = Message("forfeit-after-win", {"a": a, "b": b})
        return MatchOverError(message, rule=TIME_RULE)
    if isinstance(won_by, ScoredPenalty):
        message = Message("game-after-penalty-win", {"number": number, "a": a, "b": b})
        return MatchOverError(message, rule=TIME_RULE)
    if isinstance(won_by, ScoredForfeit):
        message = Message("game-after-forfeit", {"number": number, "a": a, "b": b})
        return MatchOverError(message, rule=TIME_RULE)
    if recorded or won_by is None:
        return MatchOverError(
            Message("game-after-match", {"number": number, "a": a, "b": b}), rule="WBF 3"
        )
    won = Message("game-after-win", {"number": number, "won": number - 1, "a": a, "b": b})
    return MatchOverError(won, rule="WBF 3")


def _is_crawford(length: int, score: tuple[int, int], crawford_played: bool) -> bool:
    """The game after the first one that brings a player to one point short (WBF 24)."""
    if crawford_played or length == 1:
        return False
    return length - 1 in score and max(score) < length


def score_possible(length: int, score: tuple[int, int]) -> bool:
    """Whether a final or running score can come about in a match of this length.

    A finished match has exactly one player at the length; nobody passes it
    (points beyond carry no value), so 5-5 or 6-2 in a 5-point match are impossible.

    >>> score_possible(5, (5, 3)), score_possible(5, (5, 5)), score_possible(5, (6, 2))
    (True, False, False)
    """
    check_match_length(length)
    a, b = score
    if min(a, b) < 0 or max(a, b) > length:
        return False
    return not (a == length and b == length)
