"""The engine's command line: legal plays, positions, match-file replays, and benchmarks.

Runs from a checkout with a bare ``python3 -m rules``; nothing to install.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from .dice import SeededDice
from .errors import MatFileError, RulesError
from .game import Game, Phase
from .match import Forfeit, Penalty
from .matfile import read_mat
from .messages import Message
from .movegen import legal_plays
from .position import Position
from .replay import Replay, replay_match
from .xgid import format_xgid, parse_xgid


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    legal = commands.add_parser("legal", help="list the legal plays of a position and roll")
    legal.add_argument("position", nargs="?", help="gnubg Position ID (player on roll's side)")
    legal.add_argument("dice", nargs="?", help="the roll, e.g. 65 or 6-5")
    legal.add_argument(
        "--jsonl",
        action="store_true",
        help='read {"position_id": ..., "dice": [a, b]} lines on standard input; '
        "write one line for each",
    )

    show = commands.add_parser("show", help="draw a position given as Position ID or XGID")
    show.add_argument("id", help="a Position ID, 'PositionID:MatchID', or an XGID")

    replay = commands.add_parser(
        "replay",
        help="replay a .mat match file: the games as the rules score them, and every problem",
        description="Exit status: 0 no problem, 1 problems found, 2 the file cannot be read.",
    )
    replay.add_argument("file", help="a Jellyfish .mat match file")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--write", metavar="OUT", help="also write the replayed match to OUT")

    bench = commands.add_parser("bench", help="time legal-play generation on a JSONL file")
    bench.add_argument(
        "file", nargs="?", help="lines with position_id and dice, as gnubg-legal.jsonl"
    )
    bench.add_argument("--games", type=int, help="instead, time N random-play games")
    bench.add_argument("--repeat", type=int, default=10, help="timed passes; the best is reported")
    bench.add_argument("--seed", type=int, default=1, help="seed for --games")
    bench.add_argument(
        "--replay",
        action="store_true",
        help="instead, time reading and replaying the .mat files in FILE (a file or a folder)",
    )

    args = parser.parse_args(argv)
    try:
        if args.command == "legal":
            return _legal(args, sys.stdin, sys.stdout)
        if args.command == "show":
            return _show(args.id)
        if args.command == "replay":
            return _replay(args, sys.stdout)
        if args.command == "bench":
            return _bench(args)
    except MatFileError as error:
        print(f"error: {getattr(args, 'file', '')}: {error}", file=sys.stderr)
        return 2
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: {error.strerror}: {error.filename}", file=sys.stderr)
        return 2
    return 0


def parse_dice(text: str) -> tuple[int, int]:
    """'65', '6-5', '6 5' or '6,5' as two dice."""
    digits = [c for c in text if c.isdigit()]
    if len(digits) != 2:
        raise RulesError(Message("cli-roll", {"text": repr(text)}))
    return int(digits[0]), int(digits[1])


def _legal(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    if args.jsonl:
        status = 0
        for number, line in enumerate(stdin, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                position = Position.from_id(item["position_id"])
                plays = legal_plays(position, tuple(item["dice"]))
            except (ValueError, KeyError, TypeError) as error:
                print(f"error: line {number}: {error}", file=sys.stderr)
                status = 2
                continue
            item["plays"] = [{"play": p.notation, "result": p.result.id} for p in plays]
            stdout.write(json.dumps(item) + "\n")
        return status
    if not args.position or not args.dice:
        print("error: give a Position ID and a roll, e.g. 4HPwATDgc/ABMA 65", file=sys.stderr)
        return 2
    position = Position.from_id(args.position)
    dice = parse_dice(args.dice)
    plays = legal_plays(position, dice)
    if not plays:
        stdout.write(f"no legal play for {dice[0]}-{dice[1]}: the turn is lost (WBF 17)\n")
        return 0
    width = max(len(p.notation) for p in plays)
    for play in plays:
        stdout.write(f"{play.notation:<{width}}  {play.result.id}\n")
    return 0


def _show(text: str) -> int:
    if text.upper().startswith("XGID=") or text.count(":") >= 8:
        position, state = parse_xgid(text)
        print(position)
        print(f"gnubg IDs   {position.id}:{state.id}")
        return 0
    position_id, _, match_id = text.partition(":")
    position = Position.from_id(position_id)
    print(position)
    if match_id:
        from .matchid import MatchState

        state = MatchState.from_id(match_id)
        print(f"match       {state}")
        print(f"XGID        {format_xgid(position, state)}")
    return 0


def _replay(args: argparse.Namespace, stdout: TextIO) -> int:
    with open(args.file, "rb") as handle:
        replay = replay_match(read_mat(handle.read()))
    if args.write:
        with open(args.write, "w", encoding="utf-8") as handle:
            handle.write(replay.to_mat())
    stdout.write(replay.to_json() + "\n" if args.json else replay_table(replay))
    return 0 if replay.ok else 1


def replay_table(replay: Replay) -> str:
    """The replay as a director reads it: one line a game, then the problems."""
    names = replay.players
    length = f"{replay.length}-point match" if replay.length else "money session"
    out = [f"{names[0]} v {names[1]}, {length}", ""]
    rows: list[tuple[str, ...]] = [
        ("game", "score", "", "doubles", "cube", "result", "points", "winner")
    ]

    def given(entry: Penalty | Forfeit) -> tuple[str, ...]:
        """A row for penalty points or a forfeit: the points go to the opponent."""
        if isinstance(entry, Forfeit):
            what, points = f"forfeit ({entry.reason.value})", ""
        else:
            what, points = f"penalty ({entry.reason.value})", str(entry.points)
        return ("", "", "", "", "", what, points, names[1 - entry.player])

    for game in replay.games:
        rows += [given(penalty) for penalty in game.record.penalties]
        rows.append(
            (
                str(game.number),
                f"{game.score_before[0]}-{game.score_before[1]}",
                "Crawford" if game.crawford else "",
                game.cube_summary,
                str(game.cube),
                game.result.outcome.value if game.result else "unfinished",
                str(game.points or "") + ("" if game.counted or not game.result else " (void)"),
                names[game.winner] if game.winner is not None else "",
            )
        )
    rows += [given(entry) for entry in replay.after]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = zip(row, widths, strict=True)
        out.append("  ".join(cell.ljust(width) for cell, width in cells).rstrip())
    score = replay.final_score
    out.append("")
    if replay.winner is not None:
        out.append(f"final score {score[0]}-{score[1]}: {names[replay.winner]} wins the match")
    else:
        out.append(f"final score {score[0]}-{score[1]}")
    for note in replay.notes:
        where = f"line {note.line}" + (f", game {note.game}" if note.game else "")
        out.append(f"note, {where}: {note.message}")
    if replay.problems:
        out.append("")
        out.append(f"{len(replay.problems)} problem{'s' if len(replay.problems) != 1 else ''}:")
        for problem in replay.problems:
            where = f"line {problem.line}" + (f", game {problem.game}" if problem.game else "")
            out.append(f"  {where} [{problem.kind}]: {problem.message}")
    else:
        out.append("no problems: the log follows the rules and agrees with itself")
    return "\n".join(out) + "\n"


def _bench(args: argparse.Namespace) -> int:
    if args.replay:
        return _bench_replay(args.file, args.repeat)
    if args.games:
        return _bench_games(args.games, args.seed, args.repeat)
    if not args.file:
        raise RulesError(Message("cli-positions"))
    items = []
    with open(args.file, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                item = json.loads(line)
                items.append((Position.from_id(item["position_id"]), tuple(item["dice"])))
    best = float("inf")
    plays = 0
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        plays = 0
        for position, dice in items:
            plays += len(legal_plays(position, dice))
        best = min(best, time.perf_counter() - start)
    print(
        json.dumps(
            {
                "positions": len(items),
                "plays": plays,
                "seconds": round(best, 4),
                "positions_per_second": round(len(items) / best),
                "best_of": max(1, args.repeat),
            }
        )
    )
    return 0


def _bench_games(count: int, seed: int, repeat: int) -> int:
    """Random-play games from the opening: roll, pick any legal play, until someone bears off."""
    best = float("inf")
    turns = 0
    for _ in range(max(1, repeat)):
        chooser = random.Random(seed)
        dice = SeededDice(seed)
        start = time.perf_counter()
        turns = 0
        for _ in range(count):
            game = Game(dice=dice)
            while game.phase is Phase.OPENING:
                game.roll_opening()
            while not game.over:
                plays = game.legal_plays
                if plays:
                    game.play(chooser.choice(plays))
                    turns += 1
                else:
                    game.roll()
        best = min(best, time.perf_counter() - start)
    print(
        json.dumps(
            {
                "games": count,
                "turns": turns,
                "seconds": round(best, 4),
                "games_per_second": round(count / best, 1),
                "best_of": max(1, repeat),
            }
        )
    )
    return 0


def _bench_replay(path: str | None, repeat: int) -> int:
    """Read and replay every .mat file under ``path``; games per second, best pass."""
    import os

    if not path:
        raise RulesError(Message("cli-mat-files"))
    if os.path.isdir(path):
        names = sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".mat"))
    else:
        names = [path]
    texts = []
    for name in names:
        with open(name, "rb") as handle:
            texts.append(handle.read())
    best, games = float("inf"), 0
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        games = sum(len(replay_match(read_mat(text)).games) for text in texts)
        best = min(best, time.perf_counter() - start)
    print(
        json.dumps(
            {
                "files": len(texts),
                "games": games,
                "seconds": round(best, 4),
                "games_per_second": round(games / best, 1),
                "best_of": max(1, repeat),
            }
        )
    )
    return 0
