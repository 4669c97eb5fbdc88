"""The site's benchmark scripts still run (`make bench`): two had stopped importing unnoticed.

Each runs at its smallest size on its own throwaway database; the figures are not judged here
(speed goals are benchmarks: docs/benchmarks.md), only that every line is the JSON promised.
"""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.parametrize(
    "script",
    [
        ["scripts/bench_bracket.py", "--sizes", "8", "--repeat", "1"],
        ["scripts/bench_board.py", "--plays", "2"],
    ],
    ids=lambda args: args[0],
)
def test_a_site_benchmark_runs_and_prints_json_lines(script):
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    done = subprocess.run(
        [sys.executable, *script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert lines and all("benchmark" in line for line in lines)
