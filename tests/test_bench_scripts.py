"""The benchmark scripts still run (`make bench`), and `make bench` writes docs/benchmarks.md.

Each script runs at its smallest size (the site's on a throwaway database); the figures are
not judged here (speed goals are benchmarks: docs/benchmarks.md), only that every line is the
JSON promised: the scripts' own lines, and with `--rows` the rows of the document's table that
scripts/bench_report.py reads. The report itself is tried on copies of the document: it
rewrites only what lies between its two markers, and says so plainly when they are missing.
"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

REPORT_PATH = ROOT / "scripts" / "bench_report.py"


def load_report():
    spec = importlib.util.spec_from_file_location("bench_report", REPORT_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


report = load_report()


def run(*args, timeout=300):
    """A script as `make bench` runs it: from the checkout, no database of the caller's."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize(
    "script",
    [
        ["scripts/bench_bracket.py", "--sizes", "8", "--repeat", "1"],
        ["scripts/bench_board.py", "--plays", "2"],
        ["-m", "tournaments.pairing.bench", "--players", "16", "--entrants", "8"],
    ],
    ids=lambda args: args[-1 if args[0] == "-m" else 0].split("/")[-1],
)
def test_a_site_benchmark_runs_and_prints_json_lines(script):
    done = run(*script)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert lines and all("benchmark" in line for line in lines)


@pytest.mark.parametrize(
    "script",
    [
        # no OpenSpiel installed by a test: its row says it is missing when it is
        [
            "scripts/bench_engines.py",
            *("--repeat", "1", "--games", "5", "--log-mb", "0.02", "--no-install"),
        ],
        ["-m", "tournaments.pairing.bench", "--players", "16", "--entrants", "8"],
        ["scripts/bench_bracket.py", "--sizes", "8", "16", "--repeat", "1"],
        ["scripts/bench_board.py", "--plays", "2"],
        ["scripts/bench_upload.py", "--repeat", "1", "--kb", "40"],
    ],
    ids=lambda args: args[-1 if args[0] == "-m" else 0].split("/")[-1],
)
def test_each_benchmark_gives_rows_of_the_table(script):
    name = script[1] if script[0] == "-m" else script[0]
    assert name in {bench["command"][-1] for bench in report.BENCHES}  # one the report runs
    done = run(*script, "--rows")
    assert done.returncode == 0, done.stderr[-2000:]
    rows = report.parse_rows(done.stdout, script[0])  # the report's own reading of them
    for row in rows:
        assert set(row) == {"benchmark", "figure", "unit", "goal", "beside"}
        assert row["benchmark"] and row["unit"] and row["figure"] >= 0
    assert report.table(rows).count("\n") == len(rows) + 1


def test_the_engines_row_says_when_openspiel_is_missing(monkeypatch, tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(
            "bench_engines", ROOT / "scripts" / "bench_engines.py"
        )
        engines = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(engines)
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    monkeypatch.setattr(engines, "OPENSPIEL_VENV", str(tmp_path / "bench-openspiel"))
    python, why = engines.openspiel_python(install=False)
    assert python is None and "not installed" in why


MARKED = (
    "# Benchmarks\r\n\r\nWhat each figure means, in words.\n"
    f"{report.START}\nan old table\n\nan old machine\n{report.END}\n"
    "\n## After\n\ntrailing text without a final newline"
)


def test_the_report_rewrites_only_between_the_markers(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_bytes((ROOT / "docs" / "benchmarks.md").read_bytes())
    before = doc.read_bytes()
    report.write_doc(doc, "| a | new | table |\n\nthe machine")
    after = doc.read_bytes()
    start, end = report.START.encode(), report.END.encode()
    head = before[: before.index(start) + len(start)]
    tail = before[before.index(end) :]
    assert after.startswith(head) and after.endswith(tail)
    assert after[len(head) : len(after) - len(tail)] == b"\n| a | new | table |\n\nthe machine\n"
    report.write_doc(doc, "| a | new | table |\n\nthe machine")
    assert doc.read_bytes() == after  # written twice, the same


def test_the_report_keeps_the_rest_byte_for_byte(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_bytes(MARKED.encode())  # mixed line endings, no final newline
    report.write_doc(doc, "new")
    assert doc.read_bytes() == MARKED.replace("an old table\n\nan old machine\n", "new\n").encode()


@pytest.mark.parametrize(
    "text",
    [
        "# Benchmarks\n\nno markers at all\n",
        f"# Benchmarks\n\n{report.START}\nonly the first\n",
        f"{report.END}\nthe wrong way round\n{report.START}\n",
        f"{report.START}\n{report.END}\n{report.START}\n{report.END}\n",
    ],
    ids=["none", "no end", "reversed", "twice"],
)
def test_the_report_fails_plainly_without_its_markers(tmp_path, text):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(text)
    done = run(str(REPORT_PATH), "--doc", str(doc), timeout=60)  # before any benchmark runs
    assert done.returncode == 1
    assert done.stderr.startswith("bench_report: ") and "Traceback" not in done.stderr
    assert "<!-- bench:start -->" in done.stderr and "between them" in done.stderr
    assert done.stdout == "" and doc.read_text() == text


def test_the_report_refuses_a_line_that_is_not_a_row():
    with pytest.raises(report.ReportError, match="the board printed a line that is not a row"):
        report.parse_rows('{"benchmark": "x", "figure": 1}\n', "the board")
    with pytest.raises(report.ReportError, match="printed no rows"):
        report.parse_rows("\n", "the board")


def test_the_section_is_one_table_and_the_machine():
    rows = [
        report.row("replaying the corpus", 1319.4, "games/s", "1,000 games/s: met", "gnubg | x"),
        report.row("a Swiss round", 0.8734, "s"),
    ]
    where = report.machine()
    assert where["cpus"] >= 1 and where["cpu"] and where["python"] and where["commit"]
    quiet = report.section(rows, where, 6.2, [0.1, 0.9])
    lines = quiet.splitlines()
    assert lines[0].startswith("| what is measured | figure | unit | goal |")
    assert lines[2] == (
        "| replaying the corpus | 1,319 | games/s | 1,000 games/s: met | gnubg \\| x |"
    )
    assert lines[3] == "| a Swiss round | 0.87 | s |  |  |"
    assert f"{where['cpus']} CPUs" in quiet and where["python"] in quiet
    assert "by `make bench` (6 minutes)" in quiet and "otherwise quiet" in quiet
    loaded = report.section(rows, where, 6.2, [3.5, 4.0])
    assert "other work shared the machine" in loaded
    # the run's own moments on two cores (a script and the gnubg it waits on) are not others'
    two = {**where, "cpus": 2}
    assert "otherwise quiet" in report.section(rows, two, 2, [0.3, 1.9])
    assert "other work shared" in report.section(rows, two, 2, [0.3, 2.6])


@pytest.mark.parametrize("script", ["scripts/season_build.py", "scripts/bench_season.py"])
def test_the_season_scripts_say_how_they_are_run(script):
    """Run by hand on a machine with PostgreSQL (docs/benchmarks.md, A season): here only
    that each starts and says how it is run, without touching a database."""
    done = run(script, "--help", timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage: ") and "--tournaments" in done.stdout
    assert "--seed" in done.stdout
