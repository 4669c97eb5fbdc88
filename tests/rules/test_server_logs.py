"""Real logs from other servers and eras: read as GNU Backgammon reads them, nobody accused.

`tests/rules/data/servers/` holds 30 logs this project did not write (DailyGammon, a FIBS
client's saves, Backgammon Studio, a hand transcription, Gibbon, gnubg; its README says
where each comes from). Before the replay knew the servers' conventions, one file in three
got an "illegal play" it did not deserve: a roll, then the roller resigned.
"""

import json
from pathlib import Path

import pytest

from rules.matfile import read_mat
from rules.replay import ProblemKind, replay_match
from tests.rules.test_replay import as_gnubg_reads

SERVERS = Path(__file__).parent / "data" / "servers"
READING = json.loads((SERVERS / "gnubg-reading.json").read_text(encoding="utf-8"))


def test_every_server_log_has_gnubg_s_reading():
    assert sorted(p.name for p in SERVERS.glob("*.mat")) == sorted(READING)


@pytest.mark.parametrize("name", sorted(READING))
def test_server_log_agrees_with_gnubg_and_accuses_nobody(name):
    replay = replay_match(read_mat((SERVERS / name).read_bytes()))
    expected = READING[name]
    assert (replay.length, list(replay.players)) == (expected["length"], expected["players"])
    assert as_gnubg_reads(replay) == expected["games"]
    assert replay.problems == ()  # finished matches, played on servers that enforce the rules


def test_a_saved_match_that_continues_another_file_is_counted_from_its_score():
    # a FIBS client's save of the match's last game: "py199,1682 : 6    nori,1728 : 3", 7 points
    replay = replay_match(read_mat((SERVERS / "bglib_py199-nori-2009Jan171414.mat").read_bytes()))
    (note,) = replay.notes
    assert (note.line, note.kind) == (4, ProblemKind.CONTINUED)
    assert replay.games[0].crawford and replay.final_score == (7, 3) and replay.winner == 0


def test_a_roll_then_a_resignation_is_not_an_illegal_play():
    # line 24: " 20) 51:                                   Wins 4 points" (a gammon, cube at 2)
    replay = replay_match(
        read_mat((SERVERS / "bglib_Jerzeegirlx-nori-2009Feb020915.mat").read_bytes())
    )
    resigned = [g for g in replay.games if g.result.outcome.value == "resignation"]
    assert any(g.points == 4 and g.cube == 2 for g in resigned) and replay.ok
