"""Jellyfish ".mat" match files: reading what every program writes, writing gnubg's layout.

GNU Backgammon, eXtreme Gammon, BGBlitz, FIBS clients and online sites all
write this text format, each a little differently: tag headers or none, a BOM,
CRLF, the right column at any width, dice in rolled order, dances written as
dice alone, ``???`` for an unknown play, ``25/`` and ``/0`` for bar and off,
merged hops, a drop and the win on one line, "Wins 1 points", "Losses 1 point"
resignations. The reader takes the file apart into entries (who did what, on
which line) without judging them: :mod:`rules.replay` holds them against the
rules. Only a file whose shape cannot be followed is refused, with the line
and what was expected there.

>>> record = read_mat('''
...  3 point match
...
...  Game 1
...  Alice : 0                     Bob : 0
...   1)                             41: 13/9 24/23
...   2) 31: 8/5 6/5                  Doubles => 2
...   3)  Drops                       Wins 1 point
... ''')
>>> record.length, record.players, [e.kind.value for e in record.games[0].entries]
(3, ('Alice', 'Bob'), ['roll', 'roll', 'double', 'drop', 'win'])

Penalty points and forfeits (tournament rules) have no place in the format, so Crawford
writes each as a comment line of its own, which other programs skip as any ``;`` line,
and which this reader understands: the player named is the one penalised (the opponent
scores the points) or the one who forfeits, and the reason is in brackets::

    ; Penalty: Marco Bianchi 2 points (lateness)
    ; Forfeit: Marco Bianchi (time)

A penalty line stands before the header of the game it precedes (that game's score line
already counts it); penalties and a forfeit after the last game follow it. When both
players have the same name, the name is followed by ``(left)`` or ``(right)``, the column
of the player meant.

>>> record = read_mat('''
...  3 point match
...
... ; Penalty: Bob 1 point (lateness)
...  Game 1
...  Alice : 1                     Bob : 0
...   1)                             41: 13/9 24/23
... ; Forfeit: Bob (time)
... ''')
>>> record.games[0].penalties
(Penalty(player=1, points=1, reason=<PenaltyReason.LATENESS: 'lateness'>),)
>>> record.after
(Forfeit(player=1, reason=<ForfeitReason.TIME: 'time'>),)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from .errors import MatFileError
from .match import Forfeit, ForfeitReason, Penalty, PenaltyReason
from .messages import Message
from .position import Variation
from .text import one_line


class EntryKind(Enum):
    """What one cell of a match file records."""

    ROLL = "roll"  # dice and the play made with them
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    WIN = "win"  # "Wins N points [and the match]"
    RESIGN = "resign"  # "Resigns", points unknown until the "Wins" line
    LOSS = "loss"  # "Losses N points": the writer's way to record a resignation


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's action as the file writes it, with its line number (1-based)."""

    line: int
    player: int  # 0 = the left column (first-named player), 1 = the right
    kind: EntryKind
    text: str  # the cell as written, for messages
    dice: tuple[int, int] | None = None  # for ROLL, in the order written
    value: int | None = None  # the cube offered (DOUBLE, BEAVER) or the points (WIN, LOSS)
    match: bool = False  # "and the match" on a WIN

    @property
    def play(self) -> str | None:
        """For ROLL: the moves as written, "" for none, None for "???".

        Read from the text when asked: a long log has hundreds of thousands of rolls.
        """
        if self.kind is not EntryKind.ROLL:
            return None
        written = self.text[3:].strip()  # a roll's cell is "64:" and the moves
        if written in _UNKNOWN:
            return None
        if written.lower() in _CANNOT:
            return ""
        return written


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of the file: its header, the score it claims, and its entries in order."""

    number: int
    line: int
    players: tuple[str, str]
    score: tuple[int, int]  # as the game's header line writes it
    score_line: int
    entries: tuple[Entry, ...]
    # penalty points given before this game (tournament rules), and the lines they are on
    penalties: tuple[Penalty, ...] = ()
    penalty_lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match file as written: length, players, tags, and the games' entries."""

    length: int  # 0 for a money session ("0 point match")
    players: tuple[str, str]
    games: tuple[GameRecord, ...]
    tags: tuple[tuple[str, str], ...] = ()
    ratings: tuple[str | None, str | None] = (None, None)
    length_line: int = 0
    comments: tuple[str, ...] = field(default=(), repr=False)
    # the line of the first game not read, when the file holds more games than its length
    # allows (:func:`games_allowed`); 0 when the reader read to the end
    unread_from: int = 0
    # penalty points and a forfeit after the last game (tournament rules), and their lines
    after: tuple[Penalty | Forfeit, ...] = ()
    after_lines: tuple[int, ...] = ()

    def tag(self, name: str) -> str | None:
        """A header tag's value (``; [Event "..."]``), case-insensitive; None if absent."""
        lowered = name.lower()
        for key, value in self.tags:
            if key.lower() == lowered:
                return value
        return None

    def switch(self, name: str, default: bool) -> bool:
        """An on/off option of gnubg's header (``; [Crawford "Off"]``); ``default`` if absent.

        >>> read_mat('; [Crawford "Off"]\\n 3 point match\\n Game 1\\n A : 0  B : 0').switch(
        ...     "Crawford", True)
        False
        """
        value = (self.tag(name) or "").strip().lower()
        if value in _ON:
            return True
        if value in _OFF:
            return False
        return default

    @property
    def variation(self) -> Variation:
        """The game the file plays, from gnubg's ``Variation`` tag (the reader refused others)."""
        return _variation(self.tag("Variation") or "") or Variation.STANDARD


# --- reading -------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TAG = re.compile(r'^;\s*\[\s*([^\]"]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d{1,4})\s*-?\s*points?\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d{1,4})\s*$", re.IGNORECASE)
# The players and the score. gnubg writes " %-31s%s : %d", so from 27 characters on the left
# name's score runs straight into the right name: a letter may follow the score directly.
_SCORE = re.compile(r"^\s*(.+?)\s*:\s*(\d{1,4})(?:\s+|(?=[^\W\d_]))(.+?)\s*:\s*(\d{1,4})\s*$")
_NUMBERED = re.compile(r"^(\s*(\d{1,4})\))(.*)$")
_RATING = re.compile(r"^(.*?)\s*(?:,\s*|\()(-?\d+(?:[.,]\d+)?)\)?$")
# Where a cell starts: dice, or the first word of a cube or result entry.
# (the lookahead only lets the search skip at once the characters no cell starts with)
_CELL = re.compile(
    r"(?=[1-6bdlrtw])(?<!\S)"
    r"(?:[1-6][1-6]:|(?:Doubles|Takes|Drops|Beavers|Wins|Resigns|Losses|Loses)\b)",
    re.IGNORECASE,
)
_DOUBLE = re.compile(r"^Doubles(?:\s*=>\s*(\d{1,5}))?$", re.IGNORECASE)
_BEAVER = re.compile(r"^Beavers(?:\s*=>\s*(\d{1,5}))?$", re.IGNORECASE)
_WIN = re.compile(r"^Wins\s+(\d{1,5})\s+points?(\s+and\s+the\s+match)?\.?$", re.IGNORECASE)
_RESIGN = re.compile(r"^Resigns(?:\s+(\d{1,5})\s+points?)?\.?$", re.IGNORECASE)
_LOSS = re.compile(r"^Los(?:s)?es\s+(\d{1,5})\s+points?\.?$", re.IGNORECASE)
# Crawford's lines for penalty points and forfeits (see the module's docstring)
_TIME_LINE = re.compile(r"^(?:Penalty|Forfeit)\s*:", re.IGNORECASE)
_PENALTY = re.compile(
    r"^Penalty\s*:\s*(.+?)\s+(\d{1,4})\s+points?\s+\(\s*(\w+)\s*\)$", re.IGNORECASE
)
_FORFEIT = re.compile(r"^Forfeit\s*:\s*(.+?)\s+\(\s*(\w+)\s*\)$", re.IGNORECASE)
_COLUMNS = ("left", "right")
_UNKNOWN = {"???", "?"}
_ON = {"on", "yes", "true", "1"}
_OFF = {"off", "no", "false", "0"}
# gnubg's names for the variations it plays (it writes "NackGammon"), and others' for standard
_VARIATIONS = {
    "": Variation.STANDARD,
    "standard": Variation.STANDARD,
    "backgammon": Variation.STANDARD,
    "standard backgammon": Variation.STANDARD,
    "nackgammon": Variation.NACKGAMMON,
}
_CANNOT = {"cannot move", "can't move", "cant move", "no move"}


GAMES_MARGIN = 5  # games read past the most a match can count (see games_allowed)


def games_allowed(length: int) -> int | None:
    """How many games the reader reads of an N-point match; None (no bound) for money play.

    A match to N points has at most 2N - 1 games that count, however far from 0-0 the
    file starts (a file continuing a match at 2-1 can hold fewer, never more), so the
    bound does not rely on the score the file writes, which may be what is disputed. The
    margin keeps a few more: games the log leaves without a result, and games played
    after the match was won, which the replay reports one by one.

    >>> games_allowed(1), games_allowed(7), games_allowed(0)
    (6, 18, None)
    """
    return 2 * length - 1 + GAMES_MARGIN if length > 0 else None


def read_mat(source: str | bytes, *, max_games: int | None = None) -> MatchRecord:
    """Read a match file's text (or bytes: UTF-8 with or without BOM, else Latin-1).

    Raises :class:`MatFileError` with the line number when the file's shape
    cannot be followed; what the entries say is left to the replay.

    The reader stops before game ``max_games + 1`` (by default the bound its length
    gives, :func:`games_allowed`), and the record says where (``unread_from``).
    """
    if isinstance(source, bytes):
        try:
            text = source.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = source.decode("latin-1")
    else:
        text = source
    # line breaks as editors count them (not str.splitlines, which also breaks on \x0c, \x85...)
    lines = _LINE_BREAK.split(text.lstrip("\ufeff"))
    if lines and not lines[-1]:
        lines.pop()  # the break that ends the last line starts no new one
    return _Reader(lines, max_games).read()


class _Reader:
    def __init__(self, lines: list[str], max_games: int | None = None) -> None:
        self.lines = lines
        self.max_games = max_games
        self.split = _column_split(lines)
        self.tags: list[tuple[str, str]] = []
        self.ratings: tuple[str | None, str | None] = (None, None)
        # penalty and forfeit lines read since the last game's header, for the next game
        self.pending: list[_TimeLine] = []

    def read(self) -> MatchRecord:
        tags = self.tags
        comments: list[str] = []
        length: int | None = None
        length_line = 0
        games: list[GameRecord] = []
        players: tuple[str, str] | None = None
        ratings: tuple[str | None, str | None] = (None, None)
        number = 0
        index = 0
        lines = self.lines
        most = self.max_games
        unread_from = 0
        while index < len(lines):
            raw = lines[index]
            number = index + 1
            stripped = raw.strip()
            index += 1
            if not stripped:
                continue
            if stripped.startswith(";"):
                tag = _TAG.match(stripped)
                if tag:
                    key, value = tag.group(1).strip(), tag.group(2)
                    if key.lower() == "variation" and _variation(value) is None:
                        variation = Message("mat-variation", {"variation": _quote(value.strip())})
                        raise MatFileError(variation, line=number)
                    tags.append((key, value))
                elif not self.time_line(stripped, number):
                    comments.append(stripped.lstrip("; ").rstrip())
                continue
            if length is None:
                found = _LENGTH.match(stripped)
                if not found:
                    raise MatFileError(
                        Message("mat-length", {"text": _quote(stripped)}), line=number
                    )
                length, length_line = int(found.group(1)), number
                if most is None:
                    most = games_allowed(length)
                continue
            game = _GAME.match(stripped)
            if not game:
                header = Message(
                    "mat-game-header", {"number": len(games) + 1, "text": _quote(stripped)}
                )
                raise MatFileError(header, line=number)
            if most is not None and len(games) >= most:
                unread_from = number  # more games than the match can have: stop here
                break
            before, self.pending = self.pending, []
            record, index = self.game(int(game.group(1)), number, index)
            if players is None:
                players = record.players
                ratings = self.ratings
            if before:
                record = _with_penalties(record, before, players)
            games.append(record)
        if length is None:
            raise MatFileError(Message("mat-no-length"), line=max(number, 1))
        if not games:
            # a match forfeited before its first game: the tags name the players
            players = _player_tags(tags) if self.pending else None
            if players is None:
                raise MatFileError(Message("mat-no-game"), line=max(number, 1))
        assert players is not None
        after = [_resolved(time_line, players) for time_line in self.pending]
        return MatchRecord(
            length=length,
            players=players,
            games=tuple(games),
            tags=tuple(tags),
            ratings=ratings,
            length_line=length_line,
            comments=tuple(comments),
            unread_from=unread_from,
            after=tuple(after),
            after_lines=tuple(time_line.line for time_line in self.pending),
        )

    def time_line(self, stripped: str, number: int) -> bool:
        """Keep a penalty or forfeit line (``stripped``, line ``number``) for the next game.

        False for any other comment. A line that starts as one of them and does not go
        on as written (``_PENALTY``, ``_FORFEIT``) is refused rather than taken for a
        comment: a penalty lost would change every score after it.
        """
        text = stripped.lstrip("; ").rstrip()
        if not _TIME_LINE.match(text):
            return False
        if self.pending and self.pending[-1].forfeit:
            raise MatFileError(Message("mat-after-forfeit"), line=number)
        penalty, forfeit = _PENALTY.match(text), _FORFEIT.match(text)
        found = penalty or forfeit
        reasons = {r.value for r in (PenaltyReason if penalty else ForfeitReason)}
        if found is None or found.groups()[-1].lower() not in reasons:
            raise MatFileError(Message("mat-time-line", {"text": _quote(text)}), line=number)
        points = int(penalty.group(2)) if penalty else 0
        if penalty and points < 1:
            raise MatFileError(Message("mat-time-line", {"text": _quote(text)}), line=number)
        reason = found.groups()[-1].lower()
        self.pending.append(
            _TimeLine(line=number, who=found.group(1), points=points, reason=reason)
        )
        return True

    def game(self, game_number: int, header_line: int, index: int) -> tuple[GameRecord, int]:
        """Read one game from its header on; returns it and the index of the next line."""
        lines = self.lines
        while index < len(lines) and not lines[index].strip():
            index += 1
        if index >= len(lines):
            raise MatFileError(Message("mat-score-end"), line=header_line)
        score_line = index + 1
        found = _read_score_line(lines[index], _player_tags(self.tags))
        if not found:
            score_expected = Message("mat-score", {"text": _quote(lines[index].strip())})
            raise MatFileError(score_expected, line=score_line)
        (first, second), score, self.ratings = found
        index += 1
        entries: list[Entry] = []
        while index < len(lines):
            raw = lines[index]
            stripped = raw.strip()
            if _GAME.match(stripped):
                break
            index += 1
            if not stripped:
                continue
            if stripped.startswith(";"):
                self.time_line(stripped, index)  # a penalty or forfeit: for the next game
                continue
            if self.pending:
                # penalty points are given between games: the game's moves go on after them
                raise MatFileError(Message("mat-time-in-game"), line=self.pending[-1].line)
            entries.extend(self.cells(raw, index))
        record = GameRecord(
            number=game_number,
            line=header_line,
            players=(first, second),
            score=score,
            score_line=score_line,
            entries=tuple(entries),
        )
        return record, index

    def cells(self, raw: str, number: int) -> Iterable[Entry]:
        """The entries of one line: a numbered move line, or a line of results alone."""
        numbered = _NUMBERED.match(raw)
        offset = len(numbered.group(1)) if numbered else 0
        body = numbered.group(3) if numbered else raw
        starts = [m.start() for m in _CELL.finditer(body)]
        if not starts or body[: starts[0]].strip():
            if numbered and not body.strip():
                return []  # a move number with nothing after it
            raise MatFileError(Message("mat-move", {"text": _quote(raw.strip())}), line=number)
        cells = [
            (start, body[start:end].strip())
            for start, end in zip(starts, [*starts[1:], len(body)], strict=True)
        ]
        if len(cells) == 2:
            players = [0, 1]
        else:
            players = [1 if offset + start >= self.split else 0 for start, _ in cells]
        return [
            _entry(cell, number, player) for (_, cell), player in zip(cells, players, strict=True)
        ]


@dataclass(frozen=True, slots=True)
class _TimeLine:
    """A penalty or forfeit line as read, before the players' names are known."""

    line: int
    who: str
    points: int  # 0 for a forfeit
    reason: str

    @property
    def forfeit(self) -> bool:
        return self.points == 0


def _resolved(line: _TimeLine, players: tuple[str, str]) -> Penalty | Forfeit:
    """The penalty or forfeit a line records, its player found by name (see :func:`_who`)."""
    found = [side for side in (0, 1) if line.who == _who(players, side)]
    if not found:
        unknown = Message(
            "mat-time-player",
            {"name": _quote(line.who), "first": players[0], "second": players[1]},
        )
        raise MatFileError(unknown, line=line.line)
    if line.forfeit:
        return Forfeit(found[0], ForfeitReason(line.reason))
    return Penalty(found[0], line.points, PenaltyReason(line.reason))


def _with_penalties(
    record: GameRecord, lines: Sequence[_TimeLine], players: tuple[str, str]
) -> GameRecord:
    """The game with the penalties written before it; nothing follows a forfeit."""
    penalties = []
    for line in lines:
        entry = _resolved(line, players)
        if isinstance(entry, Forfeit):
            raise MatFileError(Message("mat-after-forfeit"), line=record.line)
        penalties.append(entry)
    return replace(
        record,
        penalties=tuple(penalties),
        penalty_lines=tuple(line.line for line in lines),
    )


def _who(players: tuple[str, str], player: int) -> str:
    """How a penalty or forfeit line names ``player``: the name, and its column when both
    players have the same name (a club can have two Marco Rossi)."""
    if players[0] != players[1]:
        return players[player]
    return f"{players[player]} ({_COLUMNS[player]})"


def time_line(entry: Penalty | Forfeit, players: tuple[str, str]) -> str:
    """The comment line that writes ``entry`` (see the module's docstring).

    >>> time_line(Penalty(0, 2, PenaltyReason.LATENESS), ("Marco Bianchi", "Luca Esposito"))
    '; Penalty: Marco Bianchi 2 points (lateness)'
    >>> time_line(Forfeit(1, ForfeitReason.TIME), ("Marco Rossi", "Marco Rossi"))
    '; Forfeit: Marco Rossi (right) (time)'
    """
    who = _who(players, entry.player)
    if isinstance(entry, Forfeit):
        return f"; Forfeit: {who} ({entry.reason.value})"
    plural = "s" if entry.points != 1 else ""
    return f"; Penalty: {who} {entry.points} point{plural} ({entry.reason.value})"


def _column_split(lines: Sequence[str]) -> int:
    """Where the right column starts in this file, less a margin; cells beyond are player 1's.

    Learnt from lines with two cells, so any column width is read; 20 if none has two.
    """
    rights = []
    for raw in lines:
        numbered = _NUMBERED.match(raw)
        if not numbered:
            continue
        starts = [m.start() for m in _CELL.finditer(numbered.group(3))]
        if len(starts) == 2:
            rights.append(len(numbered.group(1)) + starts[1])
            if len(rights) >= 20:
                break
    if not rights:
        return 20
    rights.sort()
    return max(8, (rights[len(rights) // 2] + 6) // 2)


# "64" -> (6, 4): one tuple for every entry of a roll (a long log has hundreds of thousands)
_DICE = {f"{a}{b}": (a, b) for a in range(1, 7) for b in range(1, 7)}


def _entry(cell: str, line: int, player: int) -> Entry:
    dice = _DICE.get(cell[:2]) if cell[2:3] == ":" else None  # a roll: "64: 24/18 13/9"
    if dice is not None:
        return Entry(line, player, EntryKind.ROLL, cell, dice=dice)
    for pattern, kind in (
        (_DOUBLE, EntryKind.DOUBLE),
        (_BEAVER, EntryKind.BEAVER),
        (_WIN, EntryKind.WIN),
        (_RESIGN, EntryKind.RESIGN),
        (_LOSS, EntryKind.LOSS),
    ):
        found = pattern.match(cell)
        if found:
            value = int(found.group(1)) if found.group(1) else None
            is_match = kind is EntryKind.WIN and bool(found.group(2))
            return Entry(line, player, kind, cell, value=value, match=is_match)
    word = cell.lower()
    if word == "takes":
        return Entry(line, player, EntryKind.TAKE, cell)
    if word == "drops":
        return Entry(line, player, EntryKind.DROP, cell)
    raise MatFileError(Message("mat-move", {"text": _quote(cell)}), line=line)


def _read_score_line(
    line: str, names: tuple[str, str] | None = None
) -> tuple[tuple[str, str], tuple[int, int], tuple[str | None, str | None]] | None:
    """A game's players and score line read as the players, the score and any ratings.

    ``names``: the players as the file's ``Player 1`` and ``Player 2`` tags give them.
    When the line writes exactly those names, in either order, they are taken whole, so
    a name holding " : " or ending like a rating (", 7") reads back as written.

    >>> _read_score_line(" Anna Rossi,1650 : 0        Bruno : 2")
    (('Anna Rossi', 'Bruno'), (0, 2), ('1650', None))
    >>> _read_score_line(" Rossi, 7 : 0   Bruno : 2", ("Bruno", "Rossi, 7"))
    (('Rossi, 7', 'Bruno'), (0, 2), (None, None))
    """
    if names is not None:
        for first, second in (names, (names[1], names[0])):
            found = re.match(
                rf"^\s*{re.escape(first)}\s*:\s*(\d{{1,4}})\s*{re.escape(second)}\s*:\s*(\d{{1,4}})\s*$",
                line,
            )
            if found:
                return (first, second), (int(found.group(1)), int(found.group(2))), (None, None)
    found = _SCORE.match(line)
    if not found:
        return None
    first, rating_first = _name_and_rating(found.group(1))
    second, rating_second = _name_and_rating(found.group(3))
    score = (int(found.group(2)), int(found.group(4)))
    return (first, second), score, (rating_first, rating_second)


def _player_tags(tags: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The names the ``Player 1`` and ``Player 2`` tags give, when both are there."""
    found = {key.lower(): value.strip() for key, value in tags}
    first, second = found.get("player 1"), found.get("player 2")
    return (first, second) if first and second else None


def _name_and_rating(text: str) -> tuple[str, str | None]:
    """'Alice,1650' or 'Alice (1650)' as the name and the rating; a plain name as it is."""
    found = _RATING.match(text.strip())
    if found and found.group(1):
        return found.group(1).strip(), found.group(2)
    return text.strip(), None


def _variation(value: str) -> Variation | None:
    """The variation a ``Variation`` tag names, None for one the engine does not play."""
    return _VARIATIONS.get(" ".join(value.lower().split()))


def _quote(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


# --- writing -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell to write: the player whose column it goes in, and its text."""

    player: int
    text: str


@dataclass(frozen=True, slots=True)
class WrittenGame:
    """A game ready to write: the score before it and its cells in the order they happened."""

    score: tuple[int, int]
    cells: tuple[Cell, ...]
    winner: int | None = None
    points: int | None = None
    wins_match: bool = False
    # penalty points given before this game: ``score`` is the score after them
    penalties: tuple[Penalty, ...] = ()


def format_mat(
    *,
    length: int,
    players: tuple[str, str],
    games: Sequence[WrittenGame],
    tags: Sequence[tuple[str, str]] = (),
    after: Sequence[Penalty | Forfeit] = (),
) -> str:
    """A match in gnubg's layout: moves numbered, player 0 on the left, the right at column 33.

    Each cell alternates sides from the opening roll on; the "Wins" line goes
    on a line of its own in the winner's column, as gnubg writes it.

    Names of any length read back: where gnubg lets a long left name's score run into
    the right name, a space is kept between them. A name the score line alone would
    not give back (one holding " : ", or ending like a rating, "Rossi, 7") is also
    written in ``Player 1`` and ``Player 2`` tags, which the reader takes whole.

    No field of a .mat file can hold a line break, whatever a name stored long ago holds:
    names and tags are written on one line (:func:`rules.text.one_line`), and a name left
    empty by it is written "?".

    Penalty points before a game (``WrittenGame.penalties``) and penalty points or a
    forfeit after the last game (``after``) are written as comment lines of their own
    (:func:`time_line`), which :func:`read_mat` gives back.
    """
    players = (one_line(players[0]) or "?", one_line(players[1]) or "?")
    tags = [(one_line(key), one_line(value)) for key, value in tags]
    score_lines = [_score_line(players, game.score) for game in games]
    if (
        any(
            _read_score_line(line) != (players, game.score, (None, None))
            for line, game in zip(score_lines, games, strict=True)
        )
        or not games
    ):  # with no game (a forfeit before the first), only the tags name them
        tags = _with_player_tags(tags, players)
    out = [f'; [{key} "{value}"]' for key, value in tags]
    if out:
        out.append("")
    out += [f" {length} point match", ""]
    for number, (game, score_line) in enumerate(zip(games, score_lines, strict=True), start=1):
        out += [time_line(penalty, players) for penalty in game.penalties]
        out.append(f" Game {number}")
        out.append(score_line)
        row = ["", ""]
        move = 0
        for cell in game.cells:
            if cell.player == 0 and row[0]:
                move += 1
                out.append(_row(move, row))
                row = ["", ""]
            row[cell.player] = cell.text
            if cell.player == 1:
                move += 1
                out.append(_row(move, row))
                row = ["", ""]
        wins = ""
        if game.winner is not None and game.points is not None:
            wins = f" Wins {game.points} point{'s' if game.points != 1 else ''}"
            if game.wins_match:
                wins += " and the match"
        if row[0]:
            if wins and game.winner == 1:
                # "Drops   Wins 1 point" on one line: gnubg reads a right-hand win on a
                # line of its own after a left-hand drop as a resignation
                row[1], wins = wins, ""
            move += 1
            out.append(_row(move, row))
        if wins:
            out.append(" " * 5 + wins if game.winner == 0 else " " * 33 + wins)
        out.append("")
    out += [time_line(entry, players) for entry in after]
    return "\n".join(out) + "\n"


def _score_line(players: tuple[str, str], score: tuple[int, int]) -> str:
    left = f"{players[0]} : {score[0]}"
    left = left.ljust(31) if len(left) < 31 else left + " "  # a long name still leaves a gap
    return f" {left}{players[1]} : {score[1]}"


def _with_player_tags(
    tags: Sequence[tuple[str, str]], players: tuple[str, str]
) -> list[tuple[str, str]]:
    """The tags with ``Player 1`` and ``Player 2`` naming the players, in their place if there."""
    if _player_tags(tags) in (players, (players[1], players[0])):
        return list(tags)
    wanted = {"player 1": players[0], "player 2": players[1]}
    out = [(key, wanted.pop(key.lower(), value)) for key, value in tags]
    return out + [(key.title(), value) for key, value in wanted.items()]


def _row(number: int, row: list[str]) -> str:
    left = row[0] if len(row[0]) < 28 else row[0] + " "  # a long play still leaves a gap
    return f"{number:3d}) {left:<28}{row[1]}".rstrip()


def roll_cell(dice: tuple[int, int], moves: Sequence[tuple[int, int, bool]]) -> str:
    """A roll and its play as Jellyfish writes it: ``64: 24/18 13/9*``, 25 for the bar, 0 off.

    >>> roll_cell((5, 2), [(25, 20, False), (13, 11, True)])
    '52: 25/20 13/11*'
    >>> roll_cell((6, 6), [])
    '66:'
    """
    steps = " ".join(
        f"{source}/{destination}{'*' if hit else ''}" for source, destination, hit in moves
    )
    return f"{dice[0]}{dice[1]}: {steps}".rstrip()
