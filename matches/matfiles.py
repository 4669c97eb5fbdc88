"""A match as a .mat file and back: export what the site knows, import what a program wrote.

Export writes each game's log when it was played on the board (or imported),
and only its result when a director recorded it by hand. Import replays the
file through the engine (:func:`rules.replay.replay_match`) and keeps, for each
game, the engine's log as a board game's actions: a match imported once can
be exported, shown move by move, or disputed like one played on the site.

A file is replayed once: the replay is kept in the cache (Redis on a server,
``REDIS_URL``), keyed by the text's hash and the engine's version, so showing
the preview again, confirming it, or opening a dispute's page reuses it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext as _

import rules
from club.actors import Actor
from club.cache import cache
from club.policy import can_change_match, require
from club.words import sentence
from rules.errors import MatFileError
from rules.game import Game
from rules.match import Forfeit
from rules.match import Match as RulesMatch
from rules.match import Penalty as RulesPenalty
from rules.matfile import (
    Cell,
    Entry,
    GameRecord,
    MatchRecord,
    WrittenGame,
    format_mat,
    read_mat,
)
from rules.position import Variation
from rules.replay import Problem, Replay, replay_match, written_games

from .board.service import board_state
from .history import match_entries
from .models import BoardAction, BoardGame, Match
from .penalties import match_forfeit, match_penalty_award
from .places import match_place
from .results import result_facts
from .selectors import match_score_sheet
from .services import game_record, match_audit_record

# A kept replay lasts a week (a dispute is settled within a tournament); one the cache has
# let go is simply replayed again.
KEEP_SECONDS = 7 * 24 * 3600
# The pages list a log's first problems, then say how many more there are: a file that goes
# on with rolls after its game ended has one per roll, tens of thousands in a megabyte.
PROBLEMS_SHOWN = 200


def _engine_version() -> str:
    """The engine's source, hashed: any change to rules/ makes every kept replay stale."""
    digest = hashlib.sha256()
    for path in sorted(Path(rules.__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


ENGINE_VERSION = _engine_version()


def match_mat(*, match: Match) -> str:
    """The match in gnubg's .mat layout, as far as the site knows it.

    Penalty points go before the game they precede (its header then shows the score after
    them), and those after the last game, with a forfeit, after it: each a comment line
    that the site reads back and other programs skip (:func:`rules.matfile.format_mat`).
    """
    sheet = match_score_sheet(match=match)
    boards = {
        board_game.number: board_game
        for board_game in match.board_games.prefetch_related("actions")
    }
    before, after = _penalties_by_game(match)
    games: list[WrittenGame] = []
    for row in sheet.rows:
        board_game = boards.get(row.game.number)
        cells: tuple[Cell, ...] = ()
        if board_game is not None:
            cells = written_games([board_state(board_game=board_game).game])[0].cells
        games.append(
            WrittenGame(
                row.score_before,
                cells,
                row.game.winner,
                row.game.points,
                penalties=before.pop(row.game.number, ()),
            )
        )
    unfinished = boards.get(len(sheet.rows) + 1)
    # a game in play, or the game a flag fell in (its forfeit is written after it)
    if unfinished is not None and (not sheet.over or match.forfeit):
        if sheet.over:
            game = _flag_game(match, unfinished)
        else:
            game = board_state(board_game=unfinished).game
        written = written_games([game])[0]
        games.append(replace(written, penalties=before.pop(unfinished.number, ())))
    ending: list[RulesPenalty | Forfeit] = [p for n in sorted(before) for p in before[n]]
    ending += after
    if games and sheet.over and not ending:  # the last game won it, not a penalty or forfeit
        games[-1] = replace(games[-1], wins_match=True)
    tags = [("Site", "Crawford"), ("Date", match.date.strftime("%Y.%m.%d"))]
    place = match_place(match)
    if place.label:
        tags.insert(0, ("Event", place.label))
    return format_mat(
        length=match.length,
        players=(str(match.player_a), str(match.player_b)),
        games=games,
        tags=tags,
        after=ending,
    )


def _flag_game(match: Match, board_game: BoardGame) -> Game:
    """The game a flag fell in, as far as it went: replayed in the match as it stood before
    the forfeit (the board's own reading refuses a game of a match that is over)."""
    history = [entry for entry in match_entries(match) if not isinstance(entry, Forfeit)]
    context = RulesMatch(match.length, tuple(history), holland=match.holland).next_game
    return Game.replay([row.as_action() for row in board_game.actions.all()], context)


def _penalties_by_game(
    match: Match,
) -> tuple[dict[int, tuple[RulesPenalty, ...]], list[RulesPenalty | Forfeit]]:
    """The match's penalty points by the game they precede (1 = before the first), in the
    order of its history (:func:`matches.history.match_entries`), and its forfeit."""
    before: dict[int, tuple[RulesPenalty, ...]] = {}
    forfeit: list[RulesPenalty | Forfeit] = []
    number = 1
    for entry in match_entries(match):
        if isinstance(entry, RulesPenalty):
            before[number] = (*before.get(number, ()), entry)
        elif isinstance(entry, Forfeit):
            forfeit.append(entry)
        else:
            number += 1
    return before, forfeit


def mat_too_large() -> ValidationError:
    """The refusal of a match file over the site's limit (``MATCH_FILE_MAX_KB``), in kB."""
    kilobytes = settings.MATCH_FILE_MAX_BYTES / 1000
    limit = number_format(
        kilobytes, decimal_pos=0 if kilobytes.is_integer() else 1, force_grouping=True
    )
    return ValidationError(
        _("The file is too large: a match file may be at most %(limit)s kB.") % {"limit": limit},
        code="too_large",
    )


def mat_read_text(data: bytes) -> str:
    """An upload's text: UTF-8 (with or without a BOM), else Latin-1 as older programs write.

    ``data`` is read up to one byte over the limit, so a larger file is refused unread.
    """
    if len(data) > settings.MATCH_FILE_MAX_BYTES:
        raise mat_too_large()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def mat_read(*, text: str) -> MatchRecord:
    """A match file read, or the reason it cannot be, with its line, for the director."""
    try:
        return read_mat(text)
    except MatFileError as error:
        raise ValidationError(
            _("This is not a match file we can read: line %(line)s: %(reason)s")
            % {"line": error.line, "reason": sentence(error)}
        ) from error


@dataclass(frozen=True)
class ImportPlan:
    """What an import would do: the replay, and which column is which player."""

    replay: Replay  # kept with the problems the pages list
    swapped: bool  # the file's left column is the match's player B
    by_name: bool  # the players were matched by name (else the director chose)
    problem_count: int  # all the log's problems

    @property
    def problems(self) -> tuple[Problem, ...]:
        """The problems a page lists: the first :data:`PROBLEMS_SHOWN`, in the file's order."""
        return self.replay.problems[:PROBLEMS_SHOWN]

    @property
    def problems_not_shown(self) -> int:
        return self.problem_count - len(self.problems)


def mat_import_plan(
    *,
    match: Match,
    text: str,
    left: int | None = None,
    capped: bool = True,
) -> ImportPlan:
    """Replay a file for a match; the columns go to the players by name, or as ``left`` says.

    The same text is replayed once (:func:`_kept`). ``capped``: refuse a text over
    the site's limit, as for anything uploaded (a dispute's own text was, when opened).
    """
    if capped and len(text) > settings.MATCH_FILE_MAX_BYTES:  # characters: never more than bytes
        raise mat_too_large()
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    head_key = f"mat:{ENGINE_VERSION}:{digest}"
    record = None
    head = _kept([head_key]).get(head_key)
    if head is None:
        record = mat_read(text=text)
        # a file forfeited before its first game has no game, and is a match all the same
        entries = len(record.games) + len(record.after)
        head = (record.length, record.players, entries, _rules_facts(record))
        _keep({head_key: head})  # a file refused below is not read again either
    length, players, games, rules_facts = head
    if length != match.length:
        raise ValidationError(
            _("The file is a %(file)s-point match; this match is to %(length)s points.")
            % {"file": length, "length": match.length}
        )
    if not games:
        raise ValidationError(_("The file has no games."))
    _check_rules(*rules_facts)
    left, by_name = _left_column(match, players, left)
    swapped = left == 1
    games_key = f"{head_key}:{'BA' if swapped else 'AB'}"
    replay, problem_count = _kept([games_key]).get(games_key, (None, 0))
    if replay is None:
        if record is None:
            record = mat_read(text=text)
        replay = replay_match(_swapped(record) if swapped else record)
        problem_count = len(replay.problems)
        # the games' logs are not kept: each is made again from its entries when asked for
        light = replace(replay, problems=replay.problems[:PROBLEMS_SHOWN])
        _keep({games_key: (light, problem_count)})
    return ImportPlan(replay=replay, swapped=swapped, by_name=by_name, problem_count=problem_count)


def _left_column(match: Match, players: tuple[str, str], left: int | None) -> tuple[int, bool]:
    """Which column of the file is the match's player A, by name unless ``left`` says."""
    names = [name.strip().casefold() for name in players]
    a, b = str(match.player_a).casefold(), str(match.player_b).casefold()
    by_name = left is None
    if left is None:
        if names == [a, b]:
            left = 0
        elif names == [b, a]:
            left = 1
        else:
            raise ValidationError(
                _(
                    "The file's players (%(left)s, %(right)s) are not this match's by name: "
                    "say which of them is %(a)s."
                )
                % {
                    "left": players[0],
                    "right": players[1],
                    "a": match.player_a,
                }
            )
    return left, by_name


def _kept(keys: list[str]) -> dict[str, Any]:
    """What the cache keeps under these keys; nothing when it cannot answer (replay instead)."""
    return cache.get_many(keys)


def _keep(values: dict[str, Any]) -> None:
    cache.set_many(values, KEEP_SECONDS)


def mat_import(*, match: Match, text: str, left: int | None = None, user: Actor) -> ImportPlan:
    """Bring a match played elsewhere into the site: its games, their logs, the score."""
    require(can_change_match(user, match))
    plan = mat_import_plan(match=match, text=text, left=left)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.games.exists() or locked.board_games.exists():
            raise ValidationError(
                _(
                    "This match already has games. To compare a file with them, open a "
                    "dispute instead."
                )
            )
        if locked.penalties.exists():
            raise ValidationError(
                _(
                    "This match already has penalty points recorded. To compare a file with "
                    "them, open a dispute instead."
                )
            )
        if locked.decided or locked.final_score_a is not None:
            raise ValidationError(_("This match's result is recorded: there is nothing to import."))
        match_audit_record(locked, user, "match.imported", params={"games": len(plan.replay.games)})
        cut = False
        for game in plan.replay.games:
            # penalty points given before the game (tournament rules), while the match goes on
            _time_entries_import(locked, game.record.penalties, user)
            if not game.counted and game.result is not None:
                break  # played after the match was won: not part of it (WBF 3)
            board_game = BoardGame.objects.create(match=locked, number=game.number, imported=True)
            BoardAction.objects.bulk_create(
                BoardAction.from_action(game=board_game, seq=seq, action=action)
                for seq, action in enumerate(game.log, start=1)
            )
            if game.result is None:
                # the file stops inside this game: it goes on on the board, or a flag fell
                # in it (the forfeit follows, and the game's log stays as it was)
                cut = True
                break
            game_record(
                match=locked,
                number=game.number,
                user=user,
                board=True,
                **result_facts(game.result),
            )
        # after the last game: penalty points, and a forfeit that ends the match
        _time_entries_import(locked, plan.replay.after, user, cut=cut)
    return plan


def _time_entries_import(
    match: Match, entries: Sequence[RulesPenalty | Forfeit], user: Actor, *, cut: bool = False
) -> None:
    """Penalty points and a forfeit read from a file, recorded through the services a
    director uses, each with its audit entry; none once the match is decided (the replay
    reports what follows a won match as a problem). ``cut``: the last game stops in the
    middle, its log imported, and the forfeit ends it there as a flag fallen on the
    board does (the import has asked the policy)."""
    for entry in entries:
        fresh = Match.objects.get(pk=match.pk)
        if fresh.decided:
            return
        if isinstance(entry, Forfeit):
            match_forfeit(
                match=fresh, side=entry.player, reason=entry.reason.value, user=user, board=cut
            )
        else:
            match_penalty_award(
                match=fresh,
                side=entry.player,
                points=entry.points,
                reason=entry.reason.value,
                # a director's reason in words is not in the file: say where it came from
                note=_("Written in the match file imported."),
                user=user,
            )


def _rules_facts(record: MatchRecord) -> tuple[tuple[int, int], bool, bool]:
    """What :func:`_check_rules` asks of a file (kept with the replay, so it is not read again):
    the score it starts at, whether it is standard backgammon, whether with the Crawford rule."""
    return (
        _start(record.games[0]) if record.games else (0, 0),
        record.variation is Variation.STANDARD,
        record.switch("Crawford", True),
    )


def _start(game: GameRecord) -> tuple[int, int]:
    """The score a file's first game starts from, before the penalty points written with it
    (its header shows the score after them)."""
    score = list(game.score)
    for penalty in game.penalties:
        score[1 - penalty.player] -= penalty.points
    return (max(score[0], 0), max(score[1], 0))


def _check_rules(start: tuple[int, int], standard: bool, crawford: bool) -> None:
    """Refuse a file that cannot be this match's log: the site's matches start at 0-0, from
    the standard position, with the Crawford rule (WBF 24)."""
    if start != (0, 0):
        raise ValidationError(
            _(
                "The file continues a match at %(a)s-%(b)s begun in another file: upload "
                "the log of the whole match, from 0-0."
            )
            % {"a": start[0], "b": start[1]}
        )
    if not standard:
        raise ValidationError(
            _("The file is a match of Nackgammon; this match is standard backgammon.")
        )
    if not crawford:
        raise ValidationError(
            _(
                "The file's match is played without the Crawford rule; this match is played "
                "with it (WBF 24)."
            )
        )


def _swapped(record: MatchRecord) -> MatchRecord:
    """The same file with its columns exchanged, so column 0 is the match's player A."""

    def entries(game: GameRecord) -> tuple[Entry, ...]:
        return tuple(replace(entry, player=1 - entry.player) for entry in game.entries)

    games = tuple(
        replace(
            game,
            players=(game.players[1], game.players[0]),
            score=(game.score[1], game.score[0]),
            entries=entries(game),
            penalties=tuple(replace(p, player=1 - p.player) for p in game.penalties),
        )
        for game in record.games
    )
    after = tuple(replace(entry, player=1 - entry.player) for entry in record.after)
    return replace(record, players=(record.players[1], record.players[0]), games=games, after=after)
