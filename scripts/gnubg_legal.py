#!/usr/bin/env python3
"""Make a fresh legal-play reference file from GNU Backgammon self-play.

    python3 scripts/gnubg_legal.py --matches 4 --length 7 --seed 11 --out /tmp/fresh.jsonl
    python3 -m pytest tests/rules/test_gnubg_agreement.py --reference /tmp/fresh.jsonl

gnubg plays matches against itself at 0-ply with noise (so positions vary),
then for every position and roll it met, lists every legal play with ``hint``
at 0-ply with move pruning off, and the Position ID after each play with the
opponent on roll. Output lines have the form of ``tests/data/bench/gnubg-legal.jsonl``:

    {"position_id": "...", "dice": [5, 3], "plays": [{"play": "8/3 6/3", "result": "..."}]}

With ``--export-mat DIR`` each self-play match is also exported as a .mat file
(for cross-checking the match-file replayer against gnubg's own record).

The script runs itself inside gnubg's embedded Python (``gnubg -t -q -p``);
arguments travel in environment variables because gnubg keeps its own argv.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def outer() -> int:
    from gnubg_common import GNUBG, run_in_gnubg

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noise", type=float, default=0.06)
    parser.add_argument("--out", required=True, help="the JSONL file to write")
    parser.add_argument("--export-mat", help="a folder for the self-play matches as .mat files")
    parser.add_argument("--gnubg", default=GNUBG)
    args = parser.parse_args()
    if not os.path.exists(args.gnubg):
        print(
            f"GNU Backgammon is not installed at {args.gnubg} (apt-get install gnubg)",
            file=sys.stderr,
        )
        return 2
    done = run_in_gnubg(
        "gnubg_legal.py",
        {
            "CRAWFORD_MATCHES": str(args.matches),
            "CRAWFORD_LENGTH": str(args.length),
            "CRAWFORD_SEED": str(args.seed),
            "CRAWFORD_NOISE": str(args.noise),
            "CRAWFORD_OUT": os.path.abspath(args.out),
            "CRAWFORD_MAT": os.path.abspath(args.export_mat) if args.export_mat else "",
        },
        args.gnubg,
    )
    if done.returncode != 0 or not os.path.exists(args.out):
        print(done.stderr[-2000:], file=sys.stderr)
        return 1
    with open(args.out, encoding="utf-8") as handle:
        count = sum(1 for _ in handle)
    print(f"{count} positions written to {args.out}")
    return 0


def inner() -> None:  # runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    sys.path.insert(0, os.environ["CRAWFORD_SCRIPTS"])
    from gnubg_common import self_play

    matches = int(os.environ["CRAWFORD_MATCHES"])
    length = int(os.environ["CRAWFORD_LENGTH"])
    seed = int(os.environ["CRAWFORD_SEED"])
    noise = float(os.environ["CRAWFORD_NOISE"])
    out = os.environ["CRAWFORD_OUT"]
    mat_dir = os.environ.get("CRAWFORD_MAT")
    if mat_dir:
        os.makedirs(mat_dir, exist_ok=True)

    def run(command: str) -> None:
        gnubg.command(command)

    self_play(gnubg, seed, noise)
    seen = []
    keys = set()
    for number in range(matches):
        run(f"new match {length}")
        if mat_dir:
            run(f'export match mat "{os.path.join(mat_dir, f"selfplay-{seed}-{number + 1}.mat")}"')
        for game in gnubg.match(analysis=0, boards=1)["games"]:
            for record in game["game"]:
                if record.get("action") != "move" or not record.get("dice"):
                    continue
                key = (record["board"], tuple(record["dice"]))
                if key not in keys:
                    keys.add(key)
                    seen.append(key)

    for player in (0, 1):
        run(f"set player {player} human")
    run("set evaluation chequerplay evaluation plies 0")
    run("set evaluation chequerplay evaluation prune off")
    run("new match 7")
    with open(out, "w", encoding="utf-8") as handle:
        for position_id, dice in seen:
            run(f"set board {position_id}")
            run(f"set dice {dice[0]} {dice[1]}")
            opponent, mine = (list(side) for side in gnubg.board())
            try:
                hints = gnubg.hint(100000)["hint"]
            except Exception:  # gnubg raises when no legal move exists
                hints = []
            plays = []
            for hint in hints:
                me, them = mine[:], opponent[:]
                for source, destination in gnubg.parsemove(hint["move"]):
                    me[source - 1] -= 1
                    if destination > 0:
                        me[destination - 1] += 1
                        if them[24 - destination] == 1:
                            them[24 - destination] = 0
                            them[24] += 1
                plays.append({"play": hint["move"], "result": gnubg.positionid((me, them))})
            line = {"position_id": position_id, "dice": list(dice), "plays": plays}
            handle.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    try:
        import gnubg  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        sys.exit(outer())
    inner()
