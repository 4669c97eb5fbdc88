#!/usr/bin/env python3
"""GNU Backgammon's own view of match files, to hold the replayer against it.

    # gnubg plays matches against itself, exports each as .mat, and records every game:
    python3 scripts/gnubg_matches.py selfplay --matches 6 --length 7 --seed 5 --out /tmp/gm
    # gnubg imports .mat files and says how it reads each game:
    python3 scripts/gnubg_matches.py read FILE.mat ... --out reading.json
    # both, then the replayer on the same files, compared game by game:
    python3 scripts/gnubg_matches.py crosscheck --matches 6 --length 7 --seed 5
    # the same for Nackgammon (gnubg writes its "Variation" header tag):
    python3 scripts/gnubg_matches.py crosscheck --matches 2 --length 3 --variation nackgammon

The JSON has the form of ``tests/data/corpus/mat/gnubg-reading.json``: for each file its
length, players and, per game, the score before it, the winner (0 = first-named),
the points, whether it ended by resignation and whether it was the Crawford game.
Self-play is at 0-ply with noise, cube decisions included, so doubles, takes, drops,
gammons and resignations all occur.

The script runs itself inside gnubg's embedded Python (``gnubg -t -q -p``);
arguments travel in environment variables because gnubg keeps its own argv.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

GNUBG = "/usr/games/gnubg"

# gnubg runs this file without setting __file__; outside gnubg it is always set
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(globals().get("__file__", "."))))


def run_gnubg(env_vars: dict[str, str], gnubg: str) -> None:
    from gnubg_common import run_in_gnubg

    done = run_in_gnubg("gnubg_matches.py", env_vars, gnubg)
    if done.returncode != 0:
        raise RuntimeError(f"gnubg failed: {done.stderr[-2000:]}")


def selfplay(
    matches: int,
    length: int,
    seed: int,
    out: str,
    noise: float = 0.06,
    gnubg: str = GNUBG,
    variation: str = "standard",
) -> dict:
    """Self-play matches exported to ``out``; returns gnubg's record of each, by file name."""
    os.makedirs(out, exist_ok=True)
    record = os.path.join(out, "gnubg-record.json")
    run_gnubg(
        {
            "CRAWFORD_TASK": "selfplay",
            "CRAWFORD_MATCHES": str(matches),
            "CRAWFORD_LENGTH": str(length),
            "CRAWFORD_SEED": str(seed),
            "CRAWFORD_NOISE": str(noise),
            "CRAWFORD_OUT": os.path.abspath(out),
            "CRAWFORD_JSON": record,
            "CRAWFORD_VARIATION": variation,
        },
        gnubg,
    )
    with open(record, encoding="utf-8") as handle:
        return json.load(handle)


def read(files: list[str], out: str, gnubg: str = GNUBG) -> dict:
    """How gnubg imports each .mat file."""
    run_gnubg(
        {
            "CRAWFORD_TASK": "read",
            "CRAWFORD_FILES": json.dumps([os.path.abspath(f) for f in files]),
            "CRAWFORD_JSON": os.path.abspath(out),
        },
        gnubg,
    )
    with open(out, encoding="utf-8") as handle:
        return json.load(handle)


def ours(path: str) -> dict:
    """The replayer's reading of a file, in the same form."""
    sys.path.insert(0, ROOT)
    from rules.matfile import read_mat
    from rules.replay import replay_match

    with open(path, "rb") as handle:
        replay = replay_match(read_mat(handle.read()))
    return {
        "length": replay.length,
        "players": list(replay.players),
        "games": [
            {
                "score_before": list(game.score_before),
                "winner": game.winner,
                "points": game.points,
                "resigned": bool(game.result and game.result.outcome.value == "resignation"),
                "crawford": game.crawford,
            }
            for game in replay.games
        ],
        "problems": [f"line {p.line}: {p.message}" for p in replay.problems],
    }


def compare(reference: dict, folder: str) -> int:
    """Print each file's agreement; the number of files that disagree."""
    bad = 0
    for name, theirs in sorted(reference.items()):
        mine = ours(os.path.join(folder, name))
        problems = mine.pop("problems")
        same = mine == theirs
        bad += not same or bool(problems)
        games = len(theirs["games"])
        print(f"{'agrees' if same else 'DIFFERS'}  {name}: {games} games, {len(problems)} problems")
        for problem in problems:
            print(f"    {problem}")
        if not same:
            pairs = zip(mine["games"], theirs["games"], strict=False)
            for number, (a, b) in enumerate(pairs, start=1):
                if a != b:
                    print(f"    game {number}: replay {a}\n    game {number}: gnubg  {b}")
    return bad


def outer() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("selfplay", "crosscheck"):
        command = commands.add_parser(name)
        command.add_argument("--matches", type=int, default=6)
        command.add_argument("--length", type=int, default=7)
        command.add_argument("--seed", type=int, default=1)
        command.add_argument("--noise", type=float, default=0.06)
        command.add_argument("--out", help="folder for the .mat files and gnubg-record.json")
        command.add_argument("--variation", default="standard", choices=("standard", "nackgammon"))
    reading = commands.add_parser("read")
    reading.add_argument("files", nargs="+")
    reading.add_argument("--out", required=True)
    parser.add_argument("--gnubg", default=GNUBG)
    args = parser.parse_args()
    if not os.path.exists(args.gnubg):
        print(f"GNU Backgammon is not installed at {args.gnubg} (apt-get install gnubg)")
        return 2
    if args.command == "read":
        result = read(args.files, args.out, args.gnubg)
        print(f"{len(result)} files read by gnubg into {args.out}")
        return 0
    out = args.out or tempfile.mkdtemp(prefix="crawford-selfplay-")
    record = selfplay(
        args.matches, args.length, args.seed, out, args.noise, args.gnubg, args.variation
    )
    print(f"{len(record)} matches played by gnubg in {out}")
    if args.command == "crosscheck":
        return 1 if compare(record, out) else 0
    return 0


# --- inside gnubg ------------------------------------------------------------------


def describe(match: dict) -> dict:
    """gnubg's match record as length, players and games (X is the first-named player)."""
    info = match["match-info"]
    games = []
    for game in match["games"]:
        facts = game["info"]
        games.append(
            {
                "score_before": [facts["score-X"], facts["score-O"]],
                "winner": {"X": 0, "O": 1}.get(facts.get("winner")),
                "points": facts.get("points-won"),
                "resigned": bool(facts.get("resigned")),
                "crawford": bool(facts.get("crawford")),
            }
        )
    return {
        "length": info["match-length"],
        "players": [info["X"]["name"], info["O"]["name"]],
        "games": games,
    }


def inner() -> None:
    import gnubg  # type: ignore[import-not-found]

    task = os.environ["CRAWFORD_TASK"]
    result = {}
    if task == "read":
        for path in json.loads(os.environ["CRAWFORD_FILES"]):
            gnubg.command(f'import mat "{path}"')
            result[os.path.basename(path)] = describe(gnubg.match(analysis=0, boards=0))
    else:
        seed = int(os.environ["CRAWFORD_SEED"])
        noise = float(os.environ["CRAWFORD_NOISE"])
        out = os.environ["CRAWFORD_OUT"]
        sys.path.insert(0, os.environ["CRAWFORD_SCRIPTS"])
        from gnubg_common import self_play

        self_play(gnubg, seed, noise)
        gnubg.command(f"set variation {os.environ.get('CRAWFORD_VARIATION', 'standard')}")
        for number in range(int(os.environ["CRAWFORD_MATCHES"])):
            gnubg.command(f"new match {int(os.environ['CRAWFORD_LENGTH'])}")
            name = f"selfplay-{seed}-{number + 1}.mat"
            gnubg.command(f'export match mat "{os.path.join(out, name)}"')
            result[name] = describe(gnubg.match(analysis=0, boards=0))
    with open(os.environ["CRAWFORD_JSON"], "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1, sort_keys=True)


if __name__ == "__main__":
    try:
        import gnubg  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        sys.exit(outer())
    inner()
