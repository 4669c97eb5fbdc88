#!/usr/bin/env python3
"""Run the benchmarks of `make bench` and write their table into docs/benchmarks.md.

    .venv/bin/python scripts/bench_report.py            # make bench: minutes
    .venv/bin/python scripts/bench_report.py --quick    # tiny sizes; prints, writes nothing

Each benchmark script, run with ``--rows``, prints its figures as JSON lines, one row of
the table each (the keys of ``Row``). This script runs them one after another in fresh
processes, then replaces what lies between the two marker comments of the document
(``<!-- bench:start -->`` and ``<!-- bench:end -->``) with one table and the machine it
ran on; the rest of the document is kept byte for byte. The markers are checked before
anything runs, and a script that fails leaves the document as it was.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
START = "<!-- bench:start -->"
END = "<!-- bench:end -->"


class Row(TypedDict):
    """One row of the table: what is measured, the figure and its unit, the goal the docs set
    (with whether it is met; empty where none is set), and what was measured beside it in the
    same run (another engine, a smaller field; empty where nothing was)."""

    benchmark: str
    figure: float
    unit: str
    goal: str
    beside: str


def row(benchmark: str, figure: float, unit: str, goal: str = "", beside: str = "") -> Row:
    return Row(benchmark=benchmark, figure=figure, unit=unit, goal=goal, beside=beside)


def print_rows(rows: Iterable[Row]) -> None:
    """What ``--rows`` prints: one JSON object a line."""
    for one in rows:
        print(json.dumps(one), flush=True)


def met(ok: bool) -> str:
    return "met" if ok else "not met"


class Bench(TypedDict):
    name: str
    command: list[str]
    quick: list[str]


# in the order they run; each gets `--rows`, and `quick` with --quick
BENCHES: list[Bench] = [
    Bench(
        name="the engine beside gnubg and OpenSpiel",
        command=["scripts/bench_engines.py"],
        quick=["--repeat", "1", "--games", "20", "--log-mb", "0.05", "--no-install"],
    ),
    Bench(
        name="the draw code",
        command=["-m", "tournaments.pairing.bench"],
        quick=["--players", "32", "--entrants", "16"],
    ),
    Bench(
        name="the bracket pages",
        command=["scripts/bench_bracket.py"],
        quick=["--sizes", "8", "--repeat", "1"],
    ),
    Bench(name="the board", command=["scripts/bench_board.py"], quick=["--plays", "2"]),
    Bench(
        name="match files uploaded",
        command=["scripts/bench_upload.py"],
        quick=["--repeat", "1", "--kb", "40"],
    ),
]


class ReportError(Exception):
    """Said to the person running the report in plain words, without a traceback."""


# --- the document -----------------------------------------------------------------------


def replace_section(text: str, section: str, name: str = "the document") -> str:
    """``text`` with what lies between the markers replaced by ``section``; the rest untouched."""
    starts, ends = text.count(START), text.count(END)
    if starts != 1 or ends != 1:
        raise ReportError(
            f"{name} must hold the marker comments {START} and {END} once each, the first "
            f"before the second (found {starts} and {ends}); the table goes between them"
        )
    start, end = text.index(START) + len(START), text.index(END)
    if end < start:
        raise ReportError(f"{name}: {END} comes before {START}; the table goes between them")
    return text[:start] + "\n" + section.strip("\n") + "\n" + text[end:]


def read_doc(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except OSError as error:
        raise ReportError(f"cannot read {path}: {error.strerror}") from None


def write_doc(path: Path, section: str) -> None:
    """Rewrite the section of the document at ``path``, keeping its line endings as they are."""
    text = replace_section(read_doc(path), section, str(path))
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


# --- the table and the machine ----------------------------------------------------------


def figure_text(value: float) -> str:
    if value == int(value) or abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| what is measured | figure | unit | goal | beside it, same run |",
        "| --- | ---: | --- | --- | --- |",
    ]
    for one in rows:
        cells = (
            one["benchmark"],
            figure_text(one["figure"]),
            one["unit"],
            one["goal"],
            one["beside"],
        )
        lines.append("| " + " | ".join(cell(c) for c in cells) + " |")
    return "\n".join(lines)


def _first(path: str, key: str, separator: str = ":") -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                name, found, value = line.partition(separator)
                if found and name.strip() == key:
                    return value.strip().strip('"')
    except OSError:
        pass
    return ""


def git(*args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False, timeout=60
    )
    return done.stdout.strip() if done.returncode == 0 else ""


class Machine(TypedDict):
    cpu: str
    cpus: int
    memory_gib: float
    python: str
    os: str
    date: str
    commit: str


def machine() -> Machine:
    """The machine, the Python and the commit the figures come from."""
    memory = _first("/proc/meminfo", "MemTotal").split()
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    # the table itself, written by an earlier run, is no change to the code measured
    if git(
        "status", "--porcelain", "--untracked-files=no", "--", ".", f":!{DOC.relative_to(ROOT)}"
    ):
        commit += " with uncommitted changes"
    system = _first("/etc/os-release", "PRETTY_NAME", "=") or platform.system()
    return Machine(
        cpu=_first("/proc/cpuinfo", "model name") or platform.processor() or platform.machine(),
        cpus=os.cpu_count() or 1,
        memory_gib=round(int(memory[0]) / 1024 / 1024, 1) if memory else 0.0,
        python=f"{platform.python_implementation()} {platform.python_version()}",
        os=f"{system}, {platform.system()} {platform.release()}",
        date=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        commit=commit,
    )


def load() -> float:
    """The machine's load average over the last minute (0 where the system does not say)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def machine_text(where: Machine, minutes: float, loads: Sequence[float], how: str) -> str:
    memory = f", {where['memory_gib']:g} GiB of memory" if where["memory_gib"] else ""
    took = f"{minutes:.0f} minutes" if minutes >= 1.5 else "a minute or less"
    lines = [
        f"Measured on {where['date']} by {how} ({took}), at commit {where['commit']}: "
        f"{where['cpu']}, {where['cpus']} CPUs{memory}; {where['python']}; {where['os']}.",
    ]
    if loads:
        before, highest = loads[0], max(loads)
        said = (
            f"The load average (1 minute) was {before:.1f} before the run and at most "
            f"{highest:.1f} as each script started"
        )
        # the run keeps a core busy, at moments two (a script and the gnubg or server process
        # it waits on): a load above the machine's cores, or one already there, was other work
        if before > 0.5 or highest > where["cpus"]:
            said += (
                f", on {where['cpus']} cores: other work shared the machine at times, so these"
                " figures may be slower than a quiet machine's."
            )
        else:
            said += ": the machine was otherwise quiet."
        lines.append(said)
    return "\n".join(lines)


def section(
    rows: Sequence[Row],
    where: Machine,
    minutes: float,
    loads: Sequence[float],
    how: str = "`make bench`",
) -> str:
    return f"{table(rows)}\n\n{machine_text(where, minutes, loads, how)}"


# --- running the benchmarks -------------------------------------------------------------


def parse_rows(output: str, name: str) -> list[Row]:
    rows: list[Row] = []
    for line in output.splitlines():
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            rows.append(
                row(
                    str(data["benchmark"]),
                    float(data["figure"]),
                    str(data["unit"]),
                    str(data.get("goal", "")),
                    str(data.get("beside", "")),
                )
            )
        except (ValueError, KeyError, TypeError):
            raise ReportError(f"{name} printed a line that is not a row: {line[:200]}") from None
    if not rows:
        raise ReportError(f"{name} printed no rows")
    return rows


def run(bench: Bench, quick: bool) -> list[Row]:
    """One benchmark script in a fresh process with ``--rows``; its progress goes to stderr."""
    command = [sys.executable, *bench["command"], "--rows", *(bench["quick"] if quick else [])]
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    print(f"== {bench['name']}: {' '.join(command[1:])}", file=sys.stderr, flush=True)
    done = subprocess.run(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True, check=False
    )
    if done.returncode != 0:
        raise ReportError(
            f"{bench['name']} failed (exit status {done.returncode}, its output above); "
            "the document is left as it was"
        )
    return parse_rows(done.stdout, bench["name"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--doc", type=Path, default=DOC, help="the document to write the table in")
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, to try it: print, write nothing"
    )
    args = parser.parse_args(argv)
    try:
        if not args.quick:
            replace_section(read_doc(args.doc), "", str(args.doc))  # the markers, before the run
        started = time.monotonic()
        rows: list[Row] = []
        loads: list[float] = []
        for bench in BENCHES:
            loads.append(load())
            rows.extend(run(bench, args.quick))
        how = "`scripts/bench_report.py --quick`" if args.quick else "`make bench`"
        text = section(rows, machine(), (time.monotonic() - started) / 60, loads, how)
        print(text)
        if not args.quick:
            write_doc(args.doc, text)
            print(f"\nwritten into {args.doc}", file=sys.stderr)
    except ReportError as error:
        print(f"bench_report: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
