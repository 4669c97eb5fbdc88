#!/usr/bin/env python3
"""The engine's speed beside GNU Backgammon's and OpenSpiel's, measured in the same run.

    .venv/bin/python scripts/bench_engines.py            # all of it (make bench)
    .venv/bin/python scripts/bench_engines.py --repeat 3 --games 100 --log-mb 1   # quicker

Four comparisons, each printed as our figure beside the other engine's:

- replaying the corpus (``python3 -m rules bench tests/data/corpus/mat --replay``) beside
  gnubg's own ``import mat`` of the same files, timed inside gnubg's embedded Python;
- a long log made here (a seeded money session of random play with the cube, written by
  the engine, kept in the temporary folder, never committed): the replay's time and peak
  memory (a fresh process, ``ru_maxrss``), beside gnubg's import of the same file;
- random-play games (``python3 -m rules bench --games N``) beside OpenSpiel's C++
  backgammon driven the same way from Python: random legal actions from the initial
  state until the game ends, a pass of ours and a pass of theirs in turn (a busy spell of
  the machine falls on both). OpenSpiel lives in its own virtual environment,
  ``.venvs/bench-openspiel`` (git-ignored), made here when missing; never in the project's;
- legal plays of the gnubg reference positions (``python3 -m rules bench FILE``).

Each figure is the best of ``--repeat`` passes; the machine is shared, so compare figures
of one run, not across runs. gnubg runs this file itself (``gnubg -t -q -p``), and
arguments travel in environment variables, as in ``scripts/gnubg_matches.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(globals().get("__file__", "."))))
DATA = os.path.join(ROOT, "tests", "data")  # in the repository: tests/data/README.md
CORPUS = os.path.join(DATA, "corpus", "mat")
POSITIONS = os.path.join(DATA, "bench", "gnubg-legal.jsonl")
OPENSPIEL_VENV = os.path.join(ROOT, ".venvs", "bench-openspiel")
GNUBG = "/usr/games/gnubg"

# OpenSpiel's side of the random-play race, run by the bench venv's Python
OPENSPIEL_GAMES = """
import json, random, sys, time
import pyspiel

count, seed, repeat = map(int, sys.argv[1:4])
game = pyspiel.load_game("backgammon")
best, actions = float("inf"), 0
for _ in range(repeat):
    rng = random.Random(seed)
    start = time.perf_counter()
    actions = 0
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                draw, total = rng.random(), 0.0
                for action, chance in state.chance_outcomes():
                    total += chance
                    if draw < total:
                        break
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    best = min(best, time.perf_counter() - start)
print(json.dumps({"games": count, "actions": actions, "seconds": best,
                  "games_per_second": count / best}))
"""

# One replay of a file in a fresh process: its time, and the process's peak memory (VmHWM,
# the peak resident set of this process image; ru_maxrss can carry the parent's over a fork)
REPLAY_ONCE = """
import json, resource, sys, time
from rules.matfile import read_mat
from rules.replay import replay_match

def peak_mb():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

with open(sys.argv[1], "rb") as handle:
    data = handle.read()
before = peak_mb()
start = time.perf_counter()
replay = replay_match(read_mat(data))
seconds = time.perf_counter() - start
print(json.dumps({"games": len(replay.games), "problems": len(replay.problems),
                  "seconds": seconds, "peak_mb": peak_mb(), "start_mb": before}))
"""


def rules_bench(*args: str) -> dict:
    """One of the engine's own benchmarks (``python3 -m rules bench ...``), as its JSON."""
    done = subprocess.run(
        [sys.executable, "-m", "rules", "bench", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def gnubg_import(files: list[str], repeat: int) -> dict | None:
    """gnubg's ``import mat`` of the files, timed inside gnubg: games and best seconds."""
    if not os.path.exists(GNUBG):
        return None
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from gnubg_common import run_in_gnubg

    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "gnubg.json")
        done = run_in_gnubg(
            "bench_engines.py",
            {
                "CRAWFORD_FILES": json.dumps([os.path.abspath(f) for f in files]),
                "CRAWFORD_REPEAT": str(repeat),
                "CRAWFORD_JSON": out,
            },
        )
        if done.returncode != 0 or not os.path.exists(out):
            print(f"  gnubg failed: {done.stderr[-500:]}")
            return None
        with open(out, encoding="utf-8") as handle:
            return json.load(handle)


def openspiel_python() -> str | None:
    """The bench venv's Python with open_spiel installed, made on first use; None if it can't be."""
    python = os.path.join(OPENSPIEL_VENV, "bin", "python")
    if os.path.exists(python) and _has_pyspiel(python):
        return python
    print(f"  making {os.path.relpath(OPENSPIEL_VENV, ROOT)} with open_spiel (once)...")
    steps = [
        [sys.executable, "-m", "venv", OPENSPIEL_VENV],
        [python, "-m", "pip", "install", "--quiet", "open_spiel"],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"  cannot install open_spiel there: {(done.stderr or done.stdout)[-300:]}")
            return None
    return python if _has_pyspiel(python) else None


def _has_pyspiel(python: str) -> bool:
    done = subprocess.run([python, "-c", "import pyspiel"], capture_output=True, check=False)
    return done.returncode == 0


def long_log(megabytes: float, seed: int) -> str:
    """A money session of about ``megabytes`` MB from seeded random play, made once and kept.

    The engine plays both sides (random legal plays; doubles, takes, drops and
    resignations at random where the rules allow) and writes the session with
    ``rules.replay.written_games`` and ``rules.matfile.format_mat``, so the same seed
    gives the same file with the same engine (a play is picked by its place in the list of
    legal plays, whose order may change: delete the folder to write it again).
    """
    size = int(megabytes * 1_000_000)
    folder = os.path.join(tempfile.gettempdir(), "crawford-bench")
    path = os.path.join(folder, f"money-session-{size}-seed{seed}.mat")
    if os.path.exists(path):
        return path
    print(f"  writing a {megabytes:g} MB money session from seeded random play (once)...")
    sys.path.insert(0, ROOT)
    import random

    from rules.dice import SeededDice
    from rules.game import Act, Game, Phase
    from rules.match import GameContext, MoneyRules
    from rules.matchid import Resignation
    from rules.matfile import format_mat
    from rules.replay import written_games

    chooser, dice = random.Random(seed), SeededDice(seed)
    players = ("Anna", "Bruno")
    games: list[Game] = []
    score = [0, 0]
    written = 0
    while written < size:
        context = GameContext(
            rules=MoneyRules(beavers=True), score=(score[0], score[1]), number=len(games) + 1
        )
        game = Game(context, dice=dice)
        while not game.over:
            phase = game.phase
            if phase is Phase.OPENING:
                game.roll_opening()
            elif phase is Phase.ROLL:
                if chooser.random() < 0.004:
                    game.resign(Resignation(chooser.choice((1, 1, 2))))
                elif chooser.random() < 0.05 and Act.DOUBLE in game.available():
                    game.double()
                else:
                    game.roll()
            elif phase is Phase.MOVE:
                game.play(chooser.choice(game.legal_plays))
            elif phase is Phase.DOUBLED:
                (game.take if chooser.random() < 0.6 else game.drop)()
            else:
                game.accept_resignation()
        assert game.result is not None
        games.append(game)
        score[game.result.winner] += game.result.points
        written += len(format_mat(length=0, players=players, games=written_games([game])))
    os.makedirs(folder, exist_ok=True)
    text = format_mat(length=0, players=players, games=written_games(games))
    with open(path + ".part", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(path + ".part", path)
    return path


def replay_in_fresh_process(path: str, repeat: int) -> dict:
    """The best time of ``repeat`` fresh processes, and the highest peak memory among them."""
    runs = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", REPLAY_ONCE, path],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(done.stdout))
    best = min(runs, key=lambda run: run["seconds"])
    return dict(best, peak_mb=max(run["peak_mb"] for run in runs))


def row(what: str, ours: str, theirs: str, goal: str) -> None:
    print(f"{what:<34} {ours:>22}   {theirs:<34} {goal}")


def outer() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="passes; the best is reported")
    # a thousand games: the mean length of a sample of 200 random games moves by some 3%
    parser.add_argument("--games", type=int, default=1000, help="random-play games a pass")
    parser.add_argument("--log-mb", type=float, default=5.0, help="size of the long log")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    repeat = max(1, args.repeat)
    corpus = sorted(os.path.join(CORPUS, n) for n in os.listdir(CORPUS) if n.endswith(".mat"))

    print("corpus replay: ours, then gnubg's import of the same files...")
    ours = rules_bench(CORPUS, "--replay", "--repeat", str(repeat))
    gnubg = gnubg_import(corpus, repeat)

    path = long_log(args.log_mb, args.seed)
    print(f"long log {os.path.basename(path)}: ours in fresh processes, then gnubg's import...")
    big = replay_in_fresh_process(path, min(repeat, 3))
    gnubg_big = gnubg_import([path], min(repeat, 3))

    print("random-play games: ours and OpenSpiel's, one pass each in turn...")
    python = openspiel_python()
    games: dict | None = None
    spiel: dict | None = None
    wins = 0
    for _ in range(repeat):
        # passes taken in turn, so a busy spell of the machine falls on both engines alike
        ours_pass = rules_bench(
            "--games", str(args.games), "--seed", str(args.seed), "--repeat", "1"
        )
        if games is None or ours_pass["games_per_second"] > games["games_per_second"]:
            games = ours_pass
        if not python:
            continue
        done = subprocess.run(
            [python, "-c", OPENSPIEL_GAMES, str(args.games), str(args.seed), "1"],
            capture_output=True,
            text=True,
            check=True,
        )
        spiel_pass = json.loads(done.stdout)
        wins += ours_pass["games_per_second"] >= spiel_pass["games_per_second"]
        if spiel is None or spiel_pass["games_per_second"] > spiel["games_per_second"]:
            spiel = spiel_pass
    assert games is not None

    print("legal plays of the gnubg reference positions...")
    legal = rules_bench(POSITIONS, "--repeat", str(max(repeat, 10)))

    print()
    row("benchmark", "Crawford (Python)", "the other engine, same run", "goal")
    row(
        f"replay corpus, {ours['games']} games",
        f"{ours['games_per_second']:,.0f} games/s",
        f"gnubg import: {gnubg['games'] / gnubg['seconds']:,.0f} games/s" if gnubg else "no gnubg",
        "1,000 games/s",
    )
    megabytes = os.path.getsize(path) / 1_000_000
    row(
        f"replay {megabytes:.1f} MB log, {big['games']:,} games",
        f"{big['seconds']:.2f} s, {big['peak_mb']:.0f} MB peak",
        f"gnubg import: {gnubg_big['seconds']:.2f} s" if gnubg_big else "no gnubg",
        "5 s, 100 MB",
    )
    row(
        f"random-play games, {args.games:,} a pass",
        f"{games['games_per_second']:,.0f} games/s",
        f"OpenSpiel: {spiel['games_per_second']:,.0f} games/s" if spiel else "no OpenSpiel",
        "OpenSpiel's",
    )
    if spiel:
        ratio = games["games_per_second"] / spiel["games_per_second"]
        row("", f"{ratio:.2f}x OpenSpiel", f"ours ahead in {wins} of {repeat} passes", "")
    row(
        f"legal plays, {legal['positions']:,} positions",
        f"{legal['positions_per_second']:,} pos/s",
        "",
        "as fast as before",
    )
    print(
        f"\n(the long log's process held {big['start_mb']:.0f} MB before reading it; "
        f"{big['problems']} problems reported; best of {repeat})"
    )
    return 0


# --- inside gnubg ------------------------------------------------------------------


def inner() -> None:
    import gnubg  # type: ignore[import-not-found]

    files = json.loads(os.environ["CRAWFORD_FILES"])
    games = 0
    for path in files:  # untimed: count the games gnubg reads
        gnubg.command(f'import mat "{path}"')
        games += len(gnubg.match(analysis=0, boards=0)["games"])
    best = float("inf")
    for _ in range(int(os.environ["CRAWFORD_REPEAT"])):
        start = time.perf_counter()
        for path in files:
            gnubg.command(f'import mat "{path}"')
        best = min(best, time.perf_counter() - start)
    with open(os.environ["CRAWFORD_JSON"], "w", encoding="utf-8") as handle:
        json.dump({"games": games, "seconds": best}, handle)


if __name__ == "__main__":
    try:
        import gnubg  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        sys.exit(outer())
    inner()
