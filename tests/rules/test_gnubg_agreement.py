"""The engine against GNU Backgammon 1.07: every legal play of every position, notation included.

The shared file holds gnubg's full lists for 3,755 positions from self-play;
``--reference FILE`` adds files made afresh by scripts/gnubg_legal.py, and
when gnubg is installed one more file is made from new self-play on the spot.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules import Position, legal_plays
from tests.conftest import DATA, ROOT

SHARED_FILE = DATA / "bench" / "gnubg-legal.jsonl"


def disagreements(path: Path) -> tuple[int, list[str]]:
    problems = []
    count = 0
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            item = json.loads(line)
            count += 1
            position = Position.from_id(item["position_id"])
            ours = {p.result.id: p.notation for p in legal_plays(position, tuple(item["dice"]))}
            theirs = {p["result"]: p["play"] for p in item["plays"]}
            if ours != theirs:
                problems.append(
                    f"line {number} {item['position_id']} {item['dice']}: "
                    f"only ours {sorted(set(ours.items()) - set(theirs.items()))}, "
                    f"only gnubg's {sorted(set(theirs.items()) - set(ours.items()))}"
                )
    return count, problems


def test_every_shared_position_agrees_with_gnubg():
    if not SHARED_FILE.exists():
        pytest.fail(f"{SHARED_FILE} is missing: tests/data/README.md says where it comes from")
    count, problems = disagreements(SHARED_FILE)
    assert count == 3755
    assert problems == []


def test_reference_files_given_on_the_command_line(request):
    files = request.config.getoption("--reference")
    for name in files:
        count, problems = disagreements(Path(name))
        assert count > 0 and problems == [], name


@pytest.mark.gnubg
@pytest.mark.skipif(
    not Path("/usr/games/gnubg").exists(),
    reason="GNU Backgammon is not installed (apt-get install gnubg)",
)
def test_fresh_gnubg_self_play_agrees(tmp_path):
    out = tmp_path / "fresh.jsonl"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "gnubg_legal.py"),
            "--matches",
            "1",
            "--length",
            "3",
            "--seed",
            "23",
            "--out",
            str(out),
        ],
        check=True,
        timeout=600,
    )
    count, problems = disagreements(out)
    assert count > 20
    assert problems == []
