"""``python3 -m rules`` from a bare checkout, and the standard-library-only promise."""

import json
import subprocess
import sys

from tests.conftest import DATA, ROOT


def run(*args, stdin=None):
    # -E -s: no PYTHONPATH, no user site; the checkout itself is the only way to find rules
    return subprocess.run(
        [sys.executable, "-E", "-s", "-m", "rules", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_rules_imports_only_the_standard_library():
    code = (
        "import sys; before = set(sys.modules); import rules, rules.cli, rules.game; "
        "import rules.notation, rules.xgid, rules.matchid, rules.match, rules.dice; "
        "new = {m.split('.')[0] for m in set(sys.modules) - before}; "
        "print(sorted(n for n in new if n not in sys.stdlib_module_names and n != 'rules'))"
    )
    done = subprocess.run(
        [sys.executable, "-E", "-s", "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"


def test_legal_lists_the_seven_opening_6_5_plays():
    done = run("legal", "4HPwATDgc/ABMA", "65")
    assert done.returncode == 0
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 7
    assert any(
        line.split()[0:2] == ["24/18", "13/8"] and line.split()[-1] == "4PPgQSDgc/ABMA"
        for line in lines
    )


def test_legal_jsonl_keeps_order_and_reports_dances():
    lines = [
        {"position_id": "4HPwATDgc/ABMA", "dice": [6, 5]},
        {"position_id": "4HPwATDgc/ABMA", "dice": [1, 1]},
    ]
    done = run("legal", "--jsonl", stdin="".join(json.dumps(x) + "\n" for x in lines))
    out = [json.loads(x) for x in done.stdout.splitlines()]
    assert [o["dice"] for o in out] == [[6, 5], [1, 1]]
    assert {"play": "24/18 13/8", "result": "4PPgQSDgc/ABMA"} in out[0]["plays"]
    assert len(out[0]["plays"]) == 7


def test_bad_input_is_an_error_message_not_a_traceback():
    done = run("legal", "nonsense", "65")
    assert (
        done.returncode == 2 and "14 characters" in done.stderr and "Traceback" not in done.stderr
    )
    done = run("legal", "4HPwATDgc/ABMA", "6")
    assert done.returncode == 2 and "not a roll" in done.stderr


def test_bench_prints_one_json_line():
    done = run("bench", str(DATA / "bench" / "gnubg-legal.jsonl"), "--repeat", "1")
    figures = json.loads(done.stdout)
    assert figures["positions"] == 3755 and figures["plays"] == 65599 and figures["seconds"] > 0


def test_bench_games():
    done = run("bench", "--games", "3", "--repeat", "1")
    figures = json.loads(done.stdout)
    assert figures["games"] == 3 and figures["games_per_second"] > 0


def test_bench_without_a_file_says_what_to_give():
    done = run("bench")
    assert done.returncode == 2 and "--games N" in done.stderr


def test_show_xgid_gives_gnubg_ids():
    done = run("show", "XGID=-B-BAaCBC-----a-----cdBcc-:1:-1:1:66:1:4:0:5:10")
    assert "d96BAAKz3A4ADA:QQm7AEAACAAA" in done.stdout


MAT = DATA / "corpus" / "mat"


def test_replay_prints_the_games_and_exits_0_when_clean():
    done = run("replay", str(MAT / "gnubgparser_charlot1-charlot2_7p.mat"))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "charlot1 v charlot2, 7-point match"
    assert "final score 7-2: charlot1 wins the match" in lines
    assert any(line.split()[:3] == ["4", "6-2", "Crawford"] for line in lines)


def test_replay_json_has_every_field(tmp_path):
    done = run("replay", str(MAT / "gnubg-scripts_match1484923.mat"), "--json")
    result = json.loads(done.stdout)
    assert done.returncode == 0
    assert (result["match_length"], result["players"]) == (5, ["klara", "lasse"])
    assert result["final_score"] == [2, 5] and result["winner"] == 1 and result["problems"] == []
    assert result["games"][3] == {
        "number": 4,
        "score_before": [2, 4],
        "crawford": True,
        "winner": 1,
        "points": 1,
        "cube": 1,
        "result": "resignation",
        "cube_actions": [],
        "penalties_before": [],  # penalty points written before the game (tournament rules)
    }
    assert result["after"] == []
    assert result["games"][0]["cube_actions"] == [
        {"line": 22, "player": 1, "action": "double", "cube": 2, "annulled": False},
        {"line": 23, "player": 0, "action": "take", "cube": 2, "annulled": False},
    ]


def test_replay_with_problems_exits_1_and_lists_them(tmp_path):
    text = (MAT / "gnubgparser_charlot1-charlot2_7p.mat").read_text(encoding="utf-8")
    broken = tmp_path / "broken.mat"
    broken.write_text(text.replace("41: 13/9 24/23", "41: 13/9 24/22", 1), encoding="utf-8")
    done = run("replay", str(broken), "--json")
    assert done.returncode == 1
    problem = json.loads(done.stdout)["problems"][0]
    assert (problem["line"], problem["game"], problem["kind"]) == (7, 1, "dice")
    table = run("replay", str(broken)).stdout
    assert "line 7, game 1 [dice]: charlot2 plays '13/9 24/22' with 4-1" in table


def test_replay_of_an_unreadable_file_exits_2_with_the_line(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text(" 7 point match\n\n Game 1\n  1) 31: 8/5 6/5\n", encoding="utf-8")
    done = run("replay", str(bad))
    assert done.returncode == 2 and done.stdout == ""
    assert "line 4: expected the players and the score" in done.stderr
    assert "Traceback" not in done.stderr
    missing = run("replay", str(tmp_path / "nothing.mat"))
    assert missing.returncode == 2 and "No such file" in missing.stderr


def test_bench_replay_reports_games_per_second():
    done = run("bench", str(MAT), "--replay", "--repeat", "1")
    figures = json.loads(done.stdout)
    assert figures["files"] == 34 and figures["games"] == 205 and figures["games_per_second"] > 0
