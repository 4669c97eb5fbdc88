#!/usr/bin/env python3
"""The engine's speed beside GNU Backgammon's and OpenSpiel's, measured in the same run.

    .venv/bin/python scripts/bench_engines.py            # all of it (as make bench does)
    .venv/bin/python scripts/bench_engines.py --repeat 3 --games 100 --log-mb 1   # quicker
    .venv/bin/python scripts/bench_engines.py --rows     # rows of docs/benchmarks.md, JSON lines

Four comparisons, each printed as our figure beside the other engine's:

- replaying the corpus (``python3 -m rules bench tests/data/corpus/mat --replay``) beside
  gnubg's own ``import mat`` of the same files, timed inside gnubg's embedded Python;
- a long log made here (a seeded money session of random play with the cube, written by
  the engine, kept in the temporary folder, never committed): the replay's time and peak
  memory (a fresh process, its VmHWM), beside gnubg's import of the same file;
- random-play games (``python3 -m rules bench --games N``) beside OpenSpiel's C++
  backgammon driven the same way from Python: random legal actions from the initial
  state until the game ends, a pass of ours and a pass of theirs in turn (a busy spell of
  the machine falls on both). OpenSpiel lives in its own virtual environment,
  ``.venvs/bench-openspiel`` (git-ignored), made here when missing (not with ``--no-install``);
  never in the project's; where it cannot be had, its row says so;
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
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:  # imported where used: gnubg runs this file too, without scripts/ on its path
    from bench_report import Row

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


def say(text: str) -> None:
    """Progress, on stderr: stdout carries the figures."""
    print(text, file=sys.stderr, flush=True)


def rules_bench(*args: str) -> dict[str, Any]:
    """One of the engine's own benchmarks (``python3 -m rules bench ...``), as its JSON."""
    done = subprocess.run(
        [sys.executable, "-m", "rules", "bench", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def gnubg_import(files: list[str], repeat: int) -> dict[str, Any] | None:
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
            say(f"  gnubg failed: {done.stderr[-500:]}")
            return None
        with open(out, encoding="utf-8") as handle:
            figures: dict[str, Any] = json.load(handle)
            return figures


def gnubg_version() -> str:
    """gnubg's version number, as ``gnubg --version`` says it ("1.07.001"), or ""."""
    try:
        done = subprocess.run(
            [GNUBG, "--version"], capture_output=True, text=True, check=False, timeout=60
        )
    except OSError:
        return ""
    words = done.stdout.split()
    return words[2] if len(words) > 2 and words[:2] == ["GNU", "Backgammon"] else ""


def openspiel_python(install: bool = True) -> tuple[str | None, str]:
    """The bench venv's Python with open_spiel installed, made on first use when ``install``;
    else None, and why in a few words (for the table's row)."""
    python = os.path.join(OPENSPIEL_VENV, "bin", "python")
    if os.path.exists(python) and _has_pyspiel(python):
        return python, ""
    venv = os.path.relpath(OPENSPIEL_VENV, ROOT)
    if not install:
        return None, f"not installed in {venv} (`make bench` installs it there)"
    say(f"  making {venv} with open_spiel (once)...")
    steps = [
        [sys.executable, "-m", "venv", OPENSPIEL_VENV],
        [python, "-m", "pip", "install", "--quiet", "open_spiel"],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            why = (done.stderr or done.stdout).strip().splitlines()
            say(f"  cannot install open_spiel there: {' '.join(why)[-300:]}")
            return None, f"cannot be installed here ({why[-1][:120] if why else 'pip failed'})"
    if _has_pyspiel(python):
        return python, ""
    return None, f"installed in {venv}, but `import pyspiel` fails there"


def openspiel_version(python: str) -> str:
    done = subprocess.run(
        [python, "-c", "from importlib.metadata import version; print(version('open_spiel'))"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() if done.returncode == 0 else ""


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
    say(f"  writing a {megabytes:g} MB money session from seeded random play (once)...")
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


def replay_in_fresh_process(path: str, repeat: int) -> dict[str, Any]:
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
    best: dict[str, Any] = min(runs, key=lambda run: run["seconds"])
    return dict(best, peak_mb=max(run["peak_mb"] for run in runs))


class Figures(TypedDict):
    """What one run measured: ours and the other engines', each as its script printed it."""

    repeat: int
    games: int  # random-play games a pass
    corpus: dict[str, Any]
    gnubg: dict[str, Any] | None
    gnubg_version: str
    log_mb: float
    big: dict[str, Any]
    gnubg_big: dict[str, Any] | None
    random: dict[str, Any]
    spiel: dict[str, Any] | None
    spiel_version: str
    spiel_missing: str  # why there is no OpenSpiel figure, when there is none
    wins: int  # passes in which ours was ahead
    legal: dict[str, Any]


def measure(repeat: int, games: int, log_mb: float, seed: int, install: bool) -> Figures:
    corpus = sorted(os.path.join(CORPUS, n) for n in os.listdir(CORPUS) if n.endswith(".mat"))

    say("corpus replay: ours, then gnubg's import of the same files...")
    ours = rules_bench(CORPUS, "--replay", "--repeat", str(repeat))
    gnubg = gnubg_import(corpus, repeat)

    path = long_log(log_mb, seed)
    say(f"long log {os.path.basename(path)}: ours in fresh processes, then gnubg's import...")
    big = replay_in_fresh_process(path, min(repeat, 3))
    gnubg_big = gnubg_import([path], min(repeat, 3))

    say("random-play games: ours and OpenSpiel's, one pass each in turn...")
    python, missing = openspiel_python(install)
    best: dict[str, Any] | None = None
    spiel: dict[str, Any] | None = None
    wins = 0
    for _ in range(repeat):
        # passes taken in turn, so a busy spell of the machine falls on both engines alike
        ours_pass = rules_bench("--games", str(games), "--seed", str(seed), "--repeat", "1")
        if best is None or ours_pass["games_per_second"] > best["games_per_second"]:
            best = ours_pass
        if not python:
            continue
        done = subprocess.run(
            [python, "-c", OPENSPIEL_GAMES, str(games), str(seed), "1"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:  # its row says so; the rest of the table is still written
            say(f"  OpenSpiel failed: {done.stderr[-500:]}")
            python, missing, spiel = None, "failed here (the run's output says why)", None
            continue
        spiel_pass = json.loads(done.stdout)
        wins += ours_pass["games_per_second"] >= spiel_pass["games_per_second"]
        if spiel is None or spiel_pass["games_per_second"] > spiel["games_per_second"]:
            spiel = spiel_pass
    assert best is not None

    say("legal plays of the gnubg reference positions...")
    legal = rules_bench(POSITIONS, "--repeat", str(max(repeat, 10)))
    return Figures(
        repeat=repeat,
        games=games,
        corpus=ours,
        gnubg=gnubg,
        gnubg_version=gnubg_version(),
        log_mb=os.path.getsize(path) / 1_000_000,
        big=big,
        gnubg_big=gnubg_big,
        random=best,
        spiel=spiel,
        spiel_version=openspiel_version(python) if python else "",
        spiel_missing=missing,
        wins=wins,
        legal=legal,
    )


def best_of(passes: int) -> str:
    return f"best of {passes} passes" if passes > 1 else "one pass"


def rows(f: Figures) -> list[Row]:
    """The figures as rows of docs/benchmarks.md's table."""
    from bench_report import met, row

    corpus, big, legal, games = f["corpus"], f["big"], f["legal"], f["random"]
    gnubg = f"gnubg {f['gnubg_version']}".strip()
    gnubg_missing = (
        "gnubg: failed here (the run's output says why)"
        if os.path.exists(GNUBG)
        else f"gnubg: not installed here ({GNUBG})"
    )
    replayed = corpus["games_per_second"]
    found: list[Row] = [
        row(
            f"reading and replaying the corpus ({corpus['files']} files, {corpus['games']} games),"
            f" {best_of(f['repeat'])}",
            replayed,
            "games/s",
            f"1,000 games/s: {met(replayed >= 1000)}",
            f"{gnubg} `import mat`: {f['gnubg']['games'] / f['gnubg']['seconds']:,.0f} games/s"
            if f["gnubg"]
            else gnubg_missing,
        ),
        row(
            f"replaying a {f['log_mb']:.{1 if f['log_mb'] >= 1 else 2}f} MB money session"
            f" ({big['games']:,} games) in a fresh process, {best_of(min(f['repeat'], 3))}",
            round(big["seconds"], 2),
            "s",
            f"5 s: {met(big['seconds'] <= 5)}",
            f"{gnubg} `import mat`: {f['gnubg_big']['seconds']:.2f} s"
            if f["gnubg_big"]
            else gnubg_missing,
        ),
        row(
            "the same replay's peak memory (the process's VmHWM)",
            round(big["peak_mb"]),
            "MB",
            f"100 MB: {met(big['peak_mb'] <= 100)}",
            f"{big['start_mb']:.0f} MB before reading the file",
        ),
    ]
    spiel = f["spiel"]
    if spiel:
        ahead = games["games_per_second"] >= spiel["games_per_second"]
        goal = f"OpenSpiel's: {met(ahead)}"
        beside = (
            f"OpenSpiel {f['spiel_version']} (C++ from Python): "
            f"{spiel['games_per_second']:,.0f} games/s; ours ahead in {f['wins']} of "
            f"{f['repeat']} passes"
        )
    else:
        goal = "OpenSpiel's: not measured"
        beside = f"OpenSpiel: {f['spiel_missing']}"
    found += [
        row(
            f"random-play games from the opening, {f['games']:,} a pass, {best_of(f['repeat'])}",
            games["games_per_second"],
            "games/s",
            goal,
            beside,
        ),
        row(
            f"legal plays of {legal['positions']:,} reference positions ({legal['plays']:,}"
            f" plays), {best_of(legal['best_of'])}",
            legal["positions_per_second"],
            "positions/s",
        ),
    ]
    return found


def print_table(f: Figures) -> None:
    """The figures for a person: ours beside the other engine's, with the goals."""
    for one in rows(f):
        print(f"{one['benchmark']}")
        print(
            f"    {one['figure']:,.6g} {one['unit']}   {one['beside']}   goal: {one['goal'] or '-'}"
        )
    print(f"\n({f['big']['problems']} problems reported in the long log)")


def outer(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="passes; the best is reported")
    # a thousand games: the mean length of a sample of 200 random games moves by some 3%
    parser.add_argument("--games", type=int, default=1000, help="random-play games a pass")
    parser.add_argument("--log-mb", type=float, default=5.0, help="size of the long log")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-install",
        action="store_true",
        help=f"do not make {os.path.relpath(OPENSPIEL_VENV, ROOT)} when it is missing",
    )
    parser.add_argument("--rows", action="store_true", help="rows of docs/benchmarks.md")
    args = parser.parse_args(argv)
    figures = measure(max(1, args.repeat), args.games, args.log_mb, args.seed, not args.no_install)
    if args.rows:
        from bench_report import print_rows

        print_rows(rows(figures))
    else:
        print_table(figures)
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
    try:  # gnubg's embedded Python has the module; mypy already said it cannot find it above
        import gnubg  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        sys.exit(outer())
    inner()
