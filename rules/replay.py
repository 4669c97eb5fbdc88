"""Replaying a match file through the engine: the score as the rules make it, and every problem.

A director settling a dispute needs to know, game by game, what the log shows
and where it breaks the rules or contradicts itself. The replay runs each game
through :class:`rules.game.Game` and the score through :class:`rules.match.Match`
(so no rule is restated here) and reports each problem with its line number,
game, kind and a plain message naming the rule. It goes on wherever it can: an
illegal play stands once the opponent has rolled (WBF 14), so the game goes on
from the board as played; a double the rules forbid is annulled, and the game
counts as if it had not been made.

>>> from rules.matfile import read_mat
>>> replay = replay_match(read_mat('''
...  3 point match
...
...  Game 1
...  Alice : 0                     Bob : 0
...   1)                             41: 13/9 24/23
...   2) 31: 8/5 6/5                  Doubles => 2
...   3)  Drops                       Wins 2 points
... '''))
>>> [(p.line, p.kind.value) for p in replay.problems]
[(8, 'result'), (8, 'unfinished')]
>>> print(replay.problems[0].message)
the log says Bob wins 2 points, but the double was dropped with the cube at 1 (WBF 23): 1 point

The message is :attr:`Problem.note`, rendered in the page's language; its pieces
(how the game ended, each number of points) are messages of their own:

>>> replay.problems[0].note.params["worth"]
Message('points', {'count': 1})
>>> str(replay.problems[0].heading)
'wrong result'
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .dice import EnteredDice
from .errors import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidPlayError,
    MatchOverError,
    RulesError,
)
from .game import Act, Action, Game, Phase
from .match import (
    TIME_RULE,
    Forfeit,
    GameContext,
    GameResult,
    Match,
    MatchRules,
    MoneyRules,
    Outcome,
    Penalty,
)
from .match import Entry as HistoryEntry
from .matchid import Resignation
from .matfile import (
    Cell,
    Entry,
    EntryKind,
    GameRecord,
    MatchRecord,
    WrittenGame,
    format_mat,
    roll_cell,
    time_line,
)
from .messages import Message
from .movegen import greedy_plays, legal_plays, partial_results
from .notation import parse_moves, written_result
from .play import Play
from .position import Position

ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))


class ProblemKind(StrEnum):
    """What a problem in a log is about; the values are what JSON and the pages show."""

    ILLEGAL_PLAY = "illegal-play"
    DICE = "dice"  # the play fits other dice than those written
    UNKNOWN_PLAY = "unknown-play"  # '???': from there the board is unknown
    CRAWFORD_DOUBLE = "crawford-double"
    CUBE_OWNER = "cube-owner"
    CUBE_VALUE = "cube-value"
    CUBE_TURN = "cube-turn"
    NO_DOUBLE = "no-double"  # a take or drop with no double to answer, or no answer
    BEAVER = "beaver"
    TURN = "turn"  # a roll out of turn
    OPENING = "opening"
    RESULT = "result"
    SCORE = "score"
    PLAYERS = "players"
    AFTER_END = "after-end"
    NO_RESULT = "no-result"
    AFTER_MATCH = "after-match"
    UNFINISHED = "unfinished"
    LENGTH = "length"  # a note: an even length, replayed as written
    CONTINUED = "continued"  # a note: the file continues a match from another file
    GREEDY_BEAR_OFF = "greedy-bear-off"  # a note: the server bore off by itself
    RULES = "rules"  # any other action the engine refuses
    NOT_READ = "not-read"  # the file goes on past the games its length allows

    @property
    def heading(self) -> Message:
        """A short title for the kind, e.g. "illegal play", for a column of a dispute page."""
        return _HEADINGS[self]


_HEADINGS = {
    ProblemKind.ILLEGAL_PLAY: Message("kind-illegal-play"),
    ProblemKind.DICE: Message("kind-dice"),
    ProblemKind.UNKNOWN_PLAY: Message("kind-unknown-play"),
    ProblemKind.CRAWFORD_DOUBLE: Message("kind-crawford-double"),
    ProblemKind.CUBE_OWNER: Message("kind-cube-owner"),
    ProblemKind.CUBE_VALUE: Message("kind-cube-value"),
    ProblemKind.CUBE_TURN: Message("kind-cube-turn"),
    ProblemKind.NO_DOUBLE: Message("kind-no-double"),
    ProblemKind.BEAVER: Message("kind-beaver"),
    ProblemKind.TURN: Message("kind-turn"),
    ProblemKind.OPENING: Message("kind-opening"),
    ProblemKind.RESULT: Message("kind-result"),
    ProblemKind.SCORE: Message("kind-score"),
    ProblemKind.PLAYERS: Message("kind-players"),
    ProblemKind.AFTER_END: Message("kind-after-end"),
    ProblemKind.NO_RESULT: Message("kind-no-result"),
    ProblemKind.AFTER_MATCH: Message("kind-after-match"),
    ProblemKind.UNFINISHED: Message("kind-unfinished"),
    ProblemKind.LENGTH: Message("kind-length"),
    ProblemKind.CONTINUED: Message("kind-continued"),
    ProblemKind.GREEDY_BEAR_OFF: Message("kind-greedy-bear-off"),
    ProblemKind.RULES: Message("kind-rules"),
    ProblemKind.NOT_READ: Message("kind-not-read"),
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One place where the log breaks the rules or disagrees with itself.

    ``note`` says what, as a message the page renders in its language;
    ``message`` is the same in English (the command line and JSON show it).
    """

    line: int
    game: int | None
    kind: ProblemKind
    note: Message

    @property
    def message(self) -> str:
        return str(self.note)

    @property
    def heading(self) -> Message:
        """The kind's short title."""
        return self.kind.heading

    def as_dict(self) -> dict[str, object]:
        return {
            "line": self.line,
            "game": self.game,
            "kind": self.kind.value,
            "message": self.message,
            "note": self.note.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class CubeAction:
    """A cube action as the replay took it: who, what, the cube after it, and its line."""

    line: int
    player: int
    action: str  # double, take, drop, beaver
    cube: int
    annulled: bool = False


@dataclass(frozen=True, slots=True)
class ReplayedGame:
    """One game as the rules make it.

    The engine's log and the cells to write are made again from the file's entries
    when asked for (:attr:`log`, :attr:`cells`), not kept: a game's log holds a few
    hundred objects, and a long session's file has thousands of games, of which a
    page shows one.
    """

    number: int
    line: int
    score_before: tuple[int, int]
    crawford: bool
    result: GameResult | None  # None: the log stops before the game ended
    cube: int
    cube_actions: tuple[CubeAction, ...]
    counted: bool  # False for a game after the match was over, or without a result
    # what the replay was made from, to make the log and cells again
    record: GameRecord = field(repr=False)
    context: GameContext = field(repr=False)
    names: tuple[str, str] = field(repr=False)

    @property
    def log(self) -> tuple[Action, ...]:
        """The engine's log, up to where the board was known."""
        return tuple(self._again().game.log)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The game's cells as the replay writes them (:meth:`Replay.to_mat`)."""
        return tuple(self._again(cells=True).cells)

    def _again(self, *, cells: bool = False) -> _GameReplay:
        """The game replayed again from its entries; the problems were reported the first time."""
        return _GameReplay(self.record, self.context, self.names, [], cells=cells).run()

    @property
    def winner(self) -> int | None:
        return self.result.winner if self.result else None

    @property
    def points(self) -> int | None:
        """What the game was worth (cube times single, gammon or backgammon), before any cap."""
        return self.result.points if self.result else None

    def as_dict(self) -> dict[str, object]:
        return {
            "number": self.number,
            "score_before": list(self.score_before),
            "crawford": self.crawford,
            "winner": self.winner,
            "points": self.points,
            "cube": self.cube,
            "result": self.result.outcome.value if self.result else None,
            "cube_actions": [
                {
                    "line": c.line,
                    "player": c.player,
                    "action": c.action,
                    "cube": c.cube,
                    "annulled": c.annulled,
                }
                for c in self.cube_actions
            ],
            "penalties_before": [
                {**time_dict(penalty), "line": line}
                for penalty, line in zip(
                    self.record.penalties, self.record.penalty_lines, strict=True
                )
            ],
        }

    @property
    def cube_note(self) -> Message:
        """The cube's story in a few words: "2 taken, 4 dropped"."""
        parts: list[Message] = []
        double: CubeAction | None = None
        for action in self.cube_actions:
            if action.action == "double":
                double = action
                parts.append(_cube_words(action, None))
            elif parts and double is not None:
                parts[-1] = _cube_words(double, action.action)
                double = None
                if action.action == "beaver" and not action.annulled:
                    double = action  # a redouble, which the original doubler answers
                    parts.append(_cube_words(action, None))
        return Message("cube-story", {"actions": tuple(parts)})

    @property
    def cube_summary(self) -> str:
        """:attr:`cube_note` in English ("" when the cube was not turned)."""
        return str(self.cube_note)


def _cube_words(double: CubeAction, answer: str | None) -> Message:
    """One double in words: its cube, whether annulled, and how it was answered."""
    cube = {"cube": double.cube}
    annulled = double.annulled
    if answer is None:
        return Message("cube-annulled" if annulled else "cube-offered", cube)
    if answer == "take":
        return Message("cube-annulled-taken" if annulled else "cube-taken", cube)
    if answer == "drop":
        return Message("cube-annulled-dropped" if annulled else "cube-dropped", cube)
    return Message("cube-annulled-beavered" if annulled else "cube-beavered", cube)


@dataclass(frozen=True, slots=True)
class Replay:
    """A match file replayed: its games as the rules score them, and its problems.

    ``notes`` say how the file was read where its server's conventions differ from
    a tournament's (an even length, a match continued from another file): facts
    about the file, which accuse nobody, so they are kept apart from the problems.

    ``history`` is what the score was derived from, in order: the counted games' results
    and the penalty points and forfeit the file writes (tournament rules), so
    ``Match(length, history)`` is the match the file records (from 0-0); ``after`` the
    penalties and forfeit written after the last game.
    """

    length: int
    players: tuple[str, str]
    games: tuple[ReplayedGame, ...]
    problems: tuple[Problem, ...]
    final_score: tuple[int, int]
    winner: int | None
    tags: tuple[tuple[str, str], ...] = ()
    notes: tuple[Problem, ...] = ()
    history: tuple[HistoryEntry, ...] = ()
    after: tuple[Penalty | Forfeit, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def crawford_game(self) -> int | None:
        return next((g.number for g in self.games if g.crawford), None)

    def as_dict(self) -> dict[str, object]:
        return {
            "match_length": self.length,
            "players": list(self.players),
            "games": [game.as_dict() for game in self.games],
            "final_score": list(self.final_score),
            "winner": self.winner,
            "problems": [problem.as_dict() for problem in self.problems],
            "notes": [note.as_dict() for note in self.notes],
            "after": [time_dict(entry) for entry in self.after],
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False)

    def to_mat(self) -> str:
        """The match as replayed, in gnubg's layout (annulled actions kept as the log had them)."""
        return format_mat(
            length=self.length,
            players=self.players,
            tags=self.tags,
            games=[
                WrittenGame(
                    score=game.score_before,
                    cells=game.cells,
                    winner=game.winner,
                    points=game.points,
                    wins_match=game.counted
                    and game is self.games[-1]
                    and self.winner is not None
                    and bool(self.history)
                    and self.history[-1] is game.result,
                    penalties=game.record.penalties,
                )
                for game in self.games
            ],
            after=self.after,
        )


def time_dict(entry: Penalty | Forfeit) -> dict[str, object]:
    """Penalty points or a forfeit as plain data (JSON): who, how many points, why."""
    if isinstance(entry, Forfeit):
        return {"forfeit": entry.player, "reason": entry.reason.value}
    return {"penalty": entry.player, "points": entry.points, "reason": entry.reason.value}


def replay_match(record: MatchRecord) -> Replay:
    """Replay every game of a match file and collect the problems, in the order of the file.

    What a log's server allowed and a tournament does not (an even length, no
    Crawford game, a match continued from another file) is replayed as written,
    with a note, not a problem: the players broke no rule by it.
    """
    problems: list[Problem] = []
    notes: list[Problem] = []
    names = record.players
    length = record.length
    match, money = _start(record, notes)
    money_score = [0, 0]
    games: list[ReplayedGame] = []
    history: list[HistoryEntry] = []

    def given(entry: Penalty | Forfeit, line: int, number: int | None) -> None:
        """Penalty points or a forfeit the file writes, added to the match if it can be."""
        nonlocal match
        written = repr(time_line(entry, names).lstrip("; "))
        if match is None:
            money_play = Message("rule-cited", {"rule": TIME_RULE, "reason": Message("time-money")})
            note = Message("log-refused", {"entry": written, "reason": money_play})
            problems.append(Problem(line, number, ProblemKind.RULES, note))
            return
        try:
            match = match.add(entry)
        except MatchOverError as error:
            note = Message("log-refused", {"entry": written, "reason": error.cited})
            problems.append(Problem(line, number, ProblemKind.AFTER_MATCH, note))
            return
        history.append(entry)

    forfeited = any(isinstance(entry, Forfeit) for entry in record.after)
    for record_game in record.games:
        number = len(games) + 1
        counted = True
        for penalty, line in zip(record_game.penalties, record_game.penalty_lines, strict=True):
            given(penalty, line, number)
        if record_game.players != names:
            problems.append(
                Problem(
                    record_game.score_line,
                    number,
                    ProblemKind.PLAYERS,
                    Message(
                        "log-players",
                        {
                            "number": number,
                            "first": record_game.players[0],
                            "second": record_game.players[1],
                            "left": names[0],
                            "right": names[1],
                        },
                    ),
                )
            )
        if match is None:
            score = (money_score[0], money_score[1])
            context = GameContext(rules=money, score=score, number=number)
        elif match.over:
            counted = False
            won = match.score
            problems.append(
                Problem(
                    record_game.line,
                    number,
                    ProblemKind.AFTER_MATCH,
                    Message(
                        "log-after-match",
                        {
                            "number": number,
                            "winner": names[match.winner or 0],
                            "a": won[0],
                            "b": won[1],
                        },
                    ),
                )
            )
            context = GameContext(rules=match.rules, score=won, post_crawford=True, number=number)
        else:
            context = match.next_game
        if counted and record_game.score != context.score:
            written, derived = record_game.score, context.score
            problems.append(
                Problem(
                    record_game.score_line,
                    number,
                    ProblemKind.SCORE,
                    Message(
                        "log-score",
                        {
                            "number": number,
                            "written_a": written[0],
                            "written_b": written[1],
                            "a": derived[0],
                            "b": derived[1],
                        },
                    ),
                )
            )
        # a game cut short by a forfeit (a flag fallen) ends without a result, as it should
        cut = forfeited and record_game is record.games[-1]
        replayed = _GameReplay(record_game, context, names, problems, notes=notes, cut=cut).run()
        if replayed.result is None:
            counted = False
        if counted and replayed.result is not None:
            if match is not None:
                match = match.add(replayed.result)
                history.append(replayed.result)
            else:
                money_score[replayed.result.winner] += replayed.result.points
        games.append(
            ReplayedGame(
                number=number,
                line=record_game.line,
                score_before=context.score,
                crawford=context.crawford,
                result=replayed.result,
                cube=replayed.cube,
                cube_actions=tuple(replayed.cube_actions),
                counted=counted,
                record=record_game,
                context=context,
                names=names,
            )
        )
        if counted and match is not None and replayed.claims_match and not match.over:
            score = match.score
            problems.append(
                Problem(
                    replayed.claim_line,
                    number,
                    ProblemKind.RESULT,
                    Message(
                        "log-claims-match",
                        {"number": number, "a": score[0], "b": score[1], "length": length},
                    ),
                )
            )
    for entry, line in zip(record.after, record.after_lines, strict=True):
        given(entry, line, None)
    if match is not None:
        final = match.score
        winner = match.winner
        if winner is None:
            last = record.games[-1]  # a match with no game is won by a forfeit, or not read
            line = last.entries[-1].line if last.entries else last.score_line
            problems.append(
                Problem(
                    line,
                    None,
                    ProblemKind.UNFINISHED,
                    Message("log-unfinished", {"a": final[0], "b": final[1], "count": length}),
                )
            )
    else:
        final, winner = (money_score[0], money_score[1]), None
    if record.unread_from:
        problems.append(_not_read(record))
    return Replay(
        length=record.length,
        players=names,
        games=tuple(games),
        problems=tuple(problems),
        final_score=final,
        winner=winner,
        tags=record.tags,
        notes=tuple(notes),
        history=tuple(history),
        after=record.after,
    )


def _start(record: MatchRecord, notes: list[Problem]) -> tuple[Match | None, MoneyRules]:
    """The match as the file starts it (None for a money session), and a money session's rules.

    gnubg's header says whether the Crawford rule, the Jacoby rule and beavers
    are on, and which variation is played; a money session's file without it is
    read with beavers allowed (they are read when written).
    """
    variation = record.variation
    money = MoneyRules(
        jacoby=record.switch("Jacoby", False),
        beavers=record.switch("Beavers", True),
        variation=variation,
    )
    length = record.length
    if not length:
        return None, money
    even = length % 2 == 0
    if even:
        even_length = Message("log-even-length", {"length": length})
        notes.append(Problem(record.length_line, None, ProblemKind.LENGTH, even_length))
    options = MatchRules(
        length, crawford=record.switch("Crawford", True), variation=variation, even=even
    )
    if not record.games:  # forfeited before the first game
        return Match(length, options=options), money
    first = record.games[0]
    # the first game's header counts the penalty points written before it
    before = list(first.score)
    for penalty in first.penalties:
        before[penalty.scorer] = max(0, before[penalty.scorer] - penalty.points)
    start = (before[0], before[1])
    if start == (0, 0) or max(start) >= length:
        return Match(length, options=options), money
    # A match continued from another file. At one point from the end, the score alone cannot
    # say whether the Crawford game is still to come: a double in this game says it came.
    away = [points == length - 1 for points in start]
    doubled = any(entry.kind is EntryKind.DOUBLE for entry in first.entries)
    played = all(away) or (any(away) and doubled and options.crawford)
    continued = Message(
        "log-continues-post-crawford" if played and not all(away) else "log-continues",
        {"a": start[0], "b": start[1]},
    )
    notes.append(Problem(first.score_line, 1, ProblemKind.CONTINUED, continued))
    return Match(length, start=start, crawford_played=played, options=options), money


def _not_read(record: MatchRecord) -> Problem:
    """The reader stopped where the file goes on past what the match's length allows."""
    read = len(record.games)
    if record.length > 0:
        most = 2 * record.length - 1
        note = Message("log-past-length", {"number": read, "length": record.length, "count": most})
    else:
        note = Message("log-not-read", {"number": read})
    return Problem(record.unread_from, None, ProblemKind.NOT_READ, note)


class _GameReplay:
    """One game's entries fed to the engine, with the problems they raise."""

    def __init__(
        self,
        record: GameRecord,
        context: GameContext,
        names: tuple[str, str],
        problems: list[Problem],
        *,
        cells: bool = False,
        notes: list[Problem] | None = None,
        cut: bool = False,
    ) -> None:
        self.record = record
        self.cut = cut  # the match was forfeited during this game: no result is due
        self.context = context
        self.names = names
        self.problems = problems
        self.notes: list[Problem] = [] if notes is None else notes
        self.greedy_noted = False  # the note that the server bore off by itself, once a game
        self.trying = False  # a trial of one reading of the log (see greedy): no trials within
        self.index = 0  # the entry being replayed
        self.length = context.length
        self.number = context.number
        self.game = Game(context, dice=EnteredDice())
        # the cells to write, made only when asked for: a play's cell costs its steps
        self.writes = cells
        self.cells: list[Cell] = []
        self.cube_actions: list[CubeAction] = []
        self.unknown = False  # the board is no longer known: entries are taken as written
        self.cube = 1  # kept here too, for when the board (and so the engine) is lost
        self.offer: int | None = None  # a double waiting, while the board is unknown
        self.annulled: int | None = None  # the player whose double was annulled
        self.closed = False  # a "Wins" line ended the game
        self.forced: GameResult | None = None  # a result taken as written, the board unknown
        self.claims_match = False
        self.claim_line = record.line
        self.unplayed: Entry | None = None  # a roll written with '???' or no play, when one was due
        self.next_entry: Entry | None = None  # the entry after the one being replayed

    @property
    def result(self) -> GameResult | None:
        return self.game.result or self.forced

    @property
    def over(self) -> bool:
        return self.result is not None

    def problem(self, entry: Entry, kind: ProblemKind, note: Message) -> None:
        self.problems.append(Problem(entry.line, self.number, kind, note))

    def run(self) -> _GameReplay:
        self.replay_from(0)
        return self.finish()

    def replay_from(self, start: int) -> None:
        """Replay the game's entries from ``start`` on."""
        entries = self.record.entries
        handlers = _HANDLERS
        for index in range(start, len(entries)):
            entry = entries[index]
            self.index = index
            if self.unplayed is not None:
                self.settle(entry)
            self.next_entry = entries[index + 1] if index + 1 < len(entries) else None
            try:
                handlers[entry.kind](self, entry)
            except RulesError as error:  # an action the engine refuses that no check above named
                refused = Message("log-refused", {"entry": repr(entry.text), "reason": error.cited})
                self.problem(entry, ProblemKind.RULES, refused)

    def finish(self) -> _GameReplay:
        """The end of the game's entries: what the log leaves open is said."""
        entries = self.record.entries
        # A roll with no play as the log's last word: the log was cut off, nobody is to blame;
        # the game has no result, which is said below.
        if self.unplayed is not None and self.unplayed.play is not None:
            self.cells.append(Cell(self.unplayed.player, self.unplayed.text))
        self.unplayed = None
        if not self.over and not self.cut:
            line = entries[-1].line if entries else self.record.score_line
            self.problems.append(
                Problem(
                    line,
                    self.number,
                    ProblemKind.NO_RESULT,
                    Message("log-no-result", {"number": self.number}),
                )
            )
        if self.game.result is not None:
            self.cube = self.game.result.cube
        return self

    def settle(self, after: Entry) -> None:
        """A roll written with no play, settled by the entry ``after`` it.

        The roller resigning, or the opponent's win line: a resignation after
        rolling. Otherwise '???' leaves the play unknown, and no play where one
        was due is an illegal play, which stands once the opponent acts (WBF 14).
        """
        entry = self.unplayed
        assert entry is not None and entry.dice is not None
        self.unplayed = None
        roller = entry.player
        if after.kind is EntryKind.WIN:
            resigns = after.player != roller
        else:
            resigns = after.kind in (EntryKind.LOSS, EntryKind.RESIGN) and after.player == roller
        if resigns:
            if entry.play is not None:
                self.cells.append(Cell(roller, entry.text))
            return
        if entry.play == "" and self.greedy(entry):
            return
        if entry.play is not None:
            self.next_entry = after
            self.play(entry, entry.play)
            return
        unknown = Message(
            "log-unknown-play",
            {"name": self.names[roller], "roll": _roll(entry.dice), "number": self.number},
        )
        self.problem(entry, ProblemKind.UNKNOWN_PLAY, unknown)
        self.unknown = True
        self.cube = self.game.cube

    # --- a server's greedy bear-off ---------------------------------------------------

    def greedy(self, entry: Entry) -> bool:
        """A roll written with no play in the bear-off, read as the server's own play.

        Some servers bear off by themselves ("greedy"), as many checkers as the roll
        allows, and write the roll alone. When the roll can bear a checker off, the
        greedy play is tried against the rest of the game, and so is the roll as
        written (nothing played, an illegal play): the greedy play is taken when the
        game's later lines agree with it at least as well, and the file gets one note a
        game instead of an accusation (WBF 17 would call it playing nothing). More than
        one play may bear off that many: the one the later lines agree with best is
        taken, the first of :func:`rules.movegen.greedy_plays` when they agree alike.
        A trial itself takes the first greedy play where it meets another such roll.
        """
        assert entry.dice is not None
        game = self.game
        if self.unknown or game.phase is not Phase.MOVE:
            return False
        candidates = greedy_plays(game.position, entry.dice)
        if not candidates:
            return False
        chosen: Play = candidates[0]
        if not self.trying:
            costs = [(self.trial(entry, play), order) for order, play in enumerate(candidates)]
            best, order = min(costs)
            if best > self.trial(entry, None):
                return False  # the later lines say nothing was played after all
            chosen = candidates[order]
        game.play(chosen)
        if self.writes:
            self.cells.append(Cell(entry.player, roll_cell(entry.dice, _moves(game.log[-1]))))
        if not self.greedy_noted and not self.trying:
            self.greedy_noted = True
            greedy = Message(
                "log-greedy-bear-off",
                {"name": self.names[entry.player], "number": self.number},
            )
            self.notes.append(Problem(entry.line, self.number, ProblemKind.GREEDY_BEAR_OFF, greedy))
        return True

    def trial(self, entry: Entry, play: Play | None) -> int:
        """How many problems the rest of the game has once the roll of ``entry`` is
        played as ``play`` (None: nothing played, as written)."""
        trial = copy.copy(self)
        trial.game = self.game.trial()
        trial.problems, trial.notes, trial.cells = [], [], []
        trial.cube_actions = list(self.cube_actions)
        trial.writes, trial.trying = False, True
        if play is None:
            trial.play(entry, "")
        else:
            trial.game.play(play)
        trial.problems.clear()  # what the reading itself says is not the later lines'
        trial.replay_from(self.index)
        trial.finish()
        return len(trial.problems)

    # --- rolls and plays -----------------------------------------------------------

    def on_roll(self, entry: Entry) -> None:
        assert entry.dice is not None
        dice, written, player = entry.dice, entry.play, entry.player
        name = self.names[player]
        if self.over or self.closed:
            if written is not None:  # '???' after the end is a placeholder some programs write
                late = Message(
                    "log-roll-after-end", {"name": name, "roll": _roll(dice), "number": self.number}
                )
                self.problem(entry, ProblemKind.AFTER_END, late)
            return
        if self.unknown:
            self.cells.append(Cell(player, entry.text))
            return
        game = self.game
        if game.phase is Phase.OPENING:
            if dice[0] == dice[1]:
                opening = Message("log-opening-double", {"name": name, "roll": _roll(dice)})
                self.problem(entry, ProblemKind.OPENING, opening)
                game.start_without_opening(player)
            else:
                high, low = max(dice), min(dice)
                game.roll_opening((high, low) if player == 0 else (low, high))
                if game.turn != player:  # cannot happen: the mover has the higher die
                    raise AssertionError
        elif game.phase is Phase.DOUBLED:
            doubler = 1 - game.acting
            unanswered = Message(
                "log-unanswered-beaver" if game.beavered else "log-unanswered-double",
                {"name": self.names[game.acting], "doubler": self.names[doubler]},
            )
            self.problem(entry, ProblemKind.NO_DOUBLE, unanswered)
            game.take()
        if game.phase is Phase.ROLL:
            if game.turn != player:
                out_of_turn = Message(
                    "log-out-of-turn",
                    {"name": name, "roll": _roll(dice), "other": self.names[game.turn]},
                )
                self.problem(entry, ProblemKind.TURN, out_of_turn)
                return
            game.roll(dice, pass_if_no_play=not written)
        if written is not None and game.phase is not Phase.MOVE:
            # no legal play and none written: the engine passed the turn (WBF 17)
            self.cells.append(Cell(player, roll_cell(dice, ())))
            return
        if written == "" and len(game.legal_plays) == 1:
            # a forced move: servers play it themselves and write the roll alone
            forced = game.legal_plays[0]
            game.play(forced)
            if self.writes:
                self.cells.append(Cell(player, roll_cell(dice, _moves(game.log[-1]))))
            return
        if not written:
            # '???', or no play where one was due: programs write that for a player who
            # rolled, then resigned, and a log cut off there ends so; what comes next
            # settles it (see settle)
            self.unplayed = entry
            if written is None:
                self.cells.append(Cell(player, entry.text))
            return
        self.play(entry, written)

    def play(self, entry: Entry, written: str) -> None:
        """The written play on the board: a legal play, or an illegal one that stands (WBF 14)."""
        assert entry.dice is not None
        dice, player, name, game = entry.dice, entry.player, self.names[entry.player], self.game
        before = game.position
        try:
            chosen = game.play(written, accept_illegal=True)
        except AmbiguousPlayError as error:
            ambiguous = Message(
                "log-ambiguous-play",
                {"name": name, "play": repr(written), "reason": error.cited},
            )
            self.problem(entry, ProblemKind.ILLEGAL_PLAY, ambiguous)
            self.lose_board(entry)
            return
        except (InvalidPlayError, IllegalPlayError) as error:
            unplaceable = Message(
                "log-unplaceable-play",
                {
                    "name": name,
                    "play": repr(written),
                    "roll": _roll(dice),
                    "reason": error.cited,
                    "number": self.number,
                },
            )
            self.problem(entry, ProblemKind.ILLEGAL_PLAY, unplaceable)
            self.lose_board(entry)
            return
        if chosen is None and game.log[-1].act is Act.NO_PLAY:
            # no play written ("dance", "-") for a roll that has none: the turn is lost (WBF 17)
            self.cells.append(Cell(player, roll_cell(dice, ())))
            return
        if chosen is None:
            reason = game.log[-1].illegal_reason
            assert reason is not None  # the engine logs why a play it accepted was illegal
            kind, why = _why_illegal(before, dice, written, reason)
            # "it stands" only where the opponent did roll or double after it (WBF 14)
            after = self.next_entry
            stands = (
                after is not None
                and after.player != player
                and after.kind in (EntryKind.ROLL, EntryKind.DOUBLE)
            )
            if parse_moves(written):  # read before: the play was placed on the board
                illegal = Message(
                    "log-illegal-play" if stands else "log-illegal-play-last",
                    {"name": name, "play": repr(written), "roll": _roll(dice), "reason": why},
                )
            else:  # nothing, or "dance" where a play was due; "plays nothing" is its own
                # sentence: not "plays" and a play in every language
                illegal = Message(
                    "log-nothing-played" if stands else "log-nothing-played-last",
                    {"name": name, "roll": _roll(dice), "reason": why},
                )
            self.problem(entry, kind, illegal)
            self.cells.append(Cell(player, f"{dice[0]}{dice[1]}: {_jellyfish(written)}"))
        elif self.writes:
            cell = roll_cell(dice, _moves(game.log[-1]))
            # the file's own text when it says the same: a long log keeps one copy
            self.cells.append(Cell(player, entry.text if cell == entry.text else cell))

    def lose_board(self, entry: Entry) -> None:
        """From here the board is unknown: cube and result are taken as written."""
        self.unknown = True
        self.cube = self.game.cube
        self.cells.append(Cell(entry.player, entry.text))
        self.unplayed = None

    # --- the cube ------------------------------------------------------------------

    def on_double(self, entry: Entry) -> None:
        player, name = entry.player, self.names[entry.player]
        if self.over or self.closed:
            late = Message("log-double-after-end", {"name": name, "number": self.number})
            self.problem(entry, ProblemKind.AFTER_END, late)
            return
        self.cells.append(Cell(player, f" Doubles => {entry.value or self.cube * 2}"))
        if self.unknown:
            self.offer = entry.value or self.cube * 2
            self.cube_actions.append(CubeAction(entry.line, player, "double", self.offer))
            return
        game = self.game
        refusal = self.double_refusal(entry)
        if refusal:
            kind, why = refusal
            self.problem(entry, kind, Message("log-annulled", {"reason": why}))
            self.annulled = player
            self.cube_actions.append(CubeAction(entry.line, player, "double", game.cube, True))
            return
        offered = game.cube * 2
        if entry.value is not None and entry.value != offered:
            value = Message(
                "log-cube-value",
                {"name": name, "value": entry.value, "cube": game.cube, "offered": offered},
            )
            self.problem(entry, ProblemKind.CUBE_VALUE, value)
        game.double()
        self.cube_actions.append(CubeAction(entry.line, player, "double", offered))

    def double_refusal(self, entry: Entry) -> tuple[ProblemKind, Message] | None:
        """Why the rules annul this double (the kind and what to say), or None."""
        game, player = self.game, entry.player
        name, other = self.names[player], self.names[1 - player]
        if not self.context.cube_available:
            crawford = Message("log-crawford-double", {"name": name, "number": self.number})
            return (ProblemKind.CRAWFORD_DOUBLE, crawford)
        if game.phase is Phase.OPENING:
            return (ProblemKind.CUBE_TURN, Message("log-double-before-opening", {"name": name}))
        owner = game.cube_owner
        if owner is not None and owner != player:
            owned = Message("log-cube-owner", {"name": name, "other": other, "cube": game.cube})
            return (ProblemKind.CUBE_OWNER, owned)
        if game.phase is not Phase.ROLL or game.turn != player:
            return (ProblemKind.CUBE_TURN, Message("log-double-out-of-turn", {"name": name}))
        refusal = game.double_refusal(player)
        if refusal:
            refused = Message("log-double-refused", {"name": name, "reason": refusal.cited})
            return (ProblemKind.CUBE_TURN, refused)
        return None

    def on_take(self, entry: Entry) -> None:
        self.answer(entry, "take")

    def on_beaver(self, entry: Entry) -> None:
        if not self.context.money:
            beaver = Message("log-beaver-in-match", {"name": self.names[entry.player]})
            self.problem(entry, ProblemKind.BEAVER, beaver)
            self.answer(entry, "take", written=entry.text)
        else:
            self.answer(entry, "beaver")

    def on_drop(self, entry: Entry) -> None:
        self.answer(entry, "drop")

    def answer(self, entry: Entry, action: str, written: str | None = None) -> None:
        player, name = entry.player, self.names[entry.player]
        if self.over or self.closed:
            late = Message(
                {
                    "take": "log-take-after-end",
                    "drop": "log-drop-after-end",
                    "beaver": "log-beaver-after-end",
                }[action],
                {"name": name, "number": self.number},
            )
            self.problem(entry, ProblemKind.AFTER_END, late)
            return
        self.cells.append(Cell(player, " " + (written or entry.text)))
        game = self.game
        if self.annulled is not None and player != self.annulled:
            self.annulled = None
            self.cube_actions.append(CubeAction(entry.line, player, action, self.cube, True))
            if action == "drop":
                # the double did not count, so the drop gives up a single game at this cube
                self.resign(entry, player, self.cube if self.unknown else game.cube)
            return
        if self.unknown:
            if self.offer is None:
                unasked = Message(
                    {
                        "take": "log-take-no-double",
                        "drop": "log-drop-no-double",
                        "beaver": "log-beaver-no-double",
                    }[action],
                    {"name": name},
                )
                self.problem(entry, ProblemKind.NO_DOUBLE, unasked)
                return
            if action == "drop":
                self.forced = GameResult(1 - player, self.cube, Outcome.DROP, self.cube)
            elif action == "beaver":
                # the double taken and redoubled: the original doubler answers (Galore 2.8)
                self.cube, self.offer = self.offer, self.offer * 2
                self.cube_actions.append(CubeAction(entry.line, player, action, self.offer))
                return
            else:
                self.cube = self.offer
            self.offer = None
            self.cube_actions.append(CubeAction(entry.line, player, action, self.cube))
            return
        if game.phase is not Phase.DOUBLED or game.acting != player:
            unoffered = Message(
                {
                    "take": "log-take-not-offered",
                    "drop": "log-drop-not-offered",
                    "beaver": "log-beaver-not-offered",
                }[action],
                {"name": name},
            )
            self.problem(entry, ProblemKind.NO_DOUBLE, unoffered)
            return
        {"take": game.take, "drop": game.drop, "beaver": game.beaver}[action]()
        # a beaver's cube is the redouble it offers; the original doubler answers it
        cube = game.cube * 2 if action == "beaver" else game.cube
        self.cube_actions.append(CubeAction(entry.line, player, action, cube))

    # --- the end ---------------------------------------------------------------------

    def on_resign(self, entry: Entry) -> None:
        if entry.value is not None:
            self.on_loss(entry)
        # otherwise the points come with the "Wins" line, which settles it

    def on_loss(self, entry: Entry) -> None:
        """'Losses N points': the writer's record of a resignation by this player."""
        player, name = entry.player, self.names[entry.player]
        if self.over or self.closed:
            if self.result and self.result.winner == 1 - player:
                return  # the same end, written from the loser's side too
            late = Message("log-resign-after-end", {"name": name, "number": self.number})
            self.problem(entry, ProblemKind.AFTER_END, late)
            return
        assert entry.value is not None
        self.resign(entry, player, entry.value)

    def on_win(self, entry: Entry) -> None:
        player, name = entry.player, self.names[entry.player]
        points = entry.value or 0
        if self.closed:
            second = Message("log-second-result", {"number": self.number})
            self.problem(entry, ProblemKind.AFTER_END, second)
            return
        self.closed = True
        self.claims_match = entry.match
        self.claim_line = entry.line
        game = self.game
        if not self.over:
            if not self.unknown and game.phase is Phase.DOUBLED and game.acting != player:
                game.drop()  # the double's answer was left out; the win line says it was dropped
                self.cube_actions.append(CubeAction(entry.line, 1 - player, "drop", game.cube))
            elif self.annulled == player:
                self.annulled = None  # an annulled double left unanswered: a resignation
                self.resign(entry, 1 - player, points)
            else:
                self.resign(entry, 1 - player, points)
        result = self.result
        if result is None:
            return
        if result.winner != player:
            winner = Message(
                "log-wrong-winner",
                {
                    "name": name,
                    "number": self.number,
                    "how": _how(result),
                    "winner": self.names[result.winner],
                },
            )
            self.problem(entry, ProblemKind.RESULT, winner)
            return
        needed = self.length - self.context.score[player] if self.length else 0
        capped = bool(self.length) and result.points >= needed == points
        if points != result.points and not capped:
            worth = Message(
                "log-wrong-points",
                {
                    "name": name,
                    "written": Message("points", {"count": points}),
                    "how": _how(result),
                    "worth": Message("points", {"count": result.points}),
                },
            )
            self.problem(entry, ProblemKind.RESULT, worth)

    def resign(self, entry: Entry, loser: int, points: int) -> None:
        """The loser gave up ``points`` before the game ended on the board."""
        cube = self.game.cube if not self.unknown else self.cube
        level, rest = divmod(points, cube)
        if (
            self.unknown
            or rest
            or not 1 <= level <= 3
            or self.game.phase
            not in (
                Phase.ROLL,
                Phase.MOVE,
            )
        ):
            if not self.unknown and (rest or not 1 <= level <= 3):
                levels = Message("log-resignation-points", {"count": points, "cube": cube})
                self.problem(entry, ProblemKind.RESULT, levels)
            outcome = Outcome.RESIGNATION
            if self.unknown and not rest and 1 <= level <= 3:
                outcome = (Outcome.SINGLE, Outcome.GAMMON, Outcome.BACKGAMMON)[level - 1]
            self.forced = GameResult(1 - loser, max(points, 1), outcome, cube)
            return
        self.game.resign(Resignation(level), player=loser)
        self.game.accept_resignation()


# What each kind of entry does, looked up once a kind: a long log has a few hundred
# thousand entries
_HANDLERS: dict[EntryKind, Callable[[_GameReplay, Entry], None]] = {
    kind: getattr(_GameReplay, f"on_{kind.value}") for kind in EntryKind
}


def _how(result: GameResult) -> Message:
    """How a game ended, as the rules score it: "the double was dropped with the cube at 2"."""
    outcome, cube = result.outcome, {"cube": result.cube}
    if outcome is Outcome.DROP:
        return Message("log-how-drop", cube)
    if outcome is Outcome.RESIGNATION:
        return Message("log-how-resignation", {"points": result.points, "cube": result.cube})
    if outcome is Outcome.GAMMON:
        return Message("log-how-gammon", cube)
    if outcome is Outcome.BACKGAMMON:
        return Message("log-how-backgammon", cube)
    return Message("log-how-single", cube)


def _why_illegal(
    position: Position, dice: tuple[int, int], written: str, reason: Message
) -> tuple[ProblemKind, Message]:
    """DICE when the play fits another roll (the dice were written wrong), else the reason."""
    try:
        net = written_result(position, parse_moves(written))
    except RulesError:
        return ProblemKind.ILLEGAL_PLAY, reason
    if net in partial_results(position, dice):
        return ProblemKind.ILLEGAL_PLAY, reason  # the dice fit, but too little of them was played
    wanted = tuple(sorted(dice, reverse=True))
    for roll in ROLLS:
        if roll != wanted and any(p.result[1] == net for p in legal_plays(position, roll)):
            fits = Message("log-wrong-dice", {"played": _roll(roll), "written": _roll(dice)})
            return ProblemKind.DICE, fits
    return ProblemKind.ILLEGAL_PLAY, reason


def _moves(action: Action) -> list[tuple[int, int, bool]]:
    """A logged legal play's checker moves, as :func:`rules.matfile.roll_cell` takes them."""
    return [(s.source, s.destination, s.hit) for s in action.steps or ()]


def _roll(dice: Sequence[int]) -> str:
    return f"{dice[0]}-{dice[1]}"


def _jellyfish(written: str) -> str:
    """Written moves with bar and off as 25 and 0, as the format has them."""
    return " ".join(
        token.lower().replace("bar", "25").replace("off", "0") for token in written.split()
    )


def written_games(games: Sequence[Game]) -> list[WrittenGame]:
    """Games played on the engine, ready for :func:`rules.matfile.format_mat`."""
    written = []
    for game in games:
        cells = []
        for action in game.log:
            cell = _cell(action)
            if cell is not None:
                cells.append(cell)
        result = game.result
        written.append(
            WrittenGame(
                score=game.context.score,
                cells=tuple(cells),
                winner=result.winner if result else None,
                points=result.points if result else None,
            )
        )
    return written


def _cell(action: Action) -> Cell | None:
    act = action.act
    if act is Act.PLAY:
        assert action.dice is not None
        if action.steps is not None:
            moves = [(s.source, s.destination, s.hit) for s in action.steps]
            return Cell(action.player, roll_cell(action.dice, moves))
        return Cell(
            action.player, f"{action.dice[0]}{action.dice[1]}: {_jellyfish(action.play or '')}"
        )
    if act is Act.NO_PLAY:
        assert action.dice is not None
        return Cell(action.player, roll_cell(action.dice, ()))
    if act is Act.DOUBLE:
        assert action.state is not None
        return Cell(action.player, f" Doubles => {action.state.cube * 2}")
    if act is Act.BEAVER:
        assert action.state is not None  # the cube taken, and the redouble it offers
        return Cell(action.player, f" Beavers => {action.state.cube * 2}")
    if act is Act.RACCOON:
        # no match file writes a raccoon (gnubg has none): the redouble it offers, in its words
        assert action.state is not None
        return Cell(action.player, f" Raccoons => {action.state.cube * 2}")
    if act in (Act.TAKE, Act.DROP):
        return Cell(action.player, " Takes" if act is Act.TAKE else " Drops")
    return None


__all__ = [
    "CubeAction",
    "Problem",
    "ProblemKind",
    "Replay",
    "ReplayedGame",
    "replay_match",
    "written_games",
]
