"""Writing .mat files in gnubg's layout, reading them back, and what gnubg makes of them."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.errors import MatFileError
from rules.matfile import EntryKind, WrittenGame, format_mat, read_mat
from rules.replay import replay_match, written_games
from rules.text import one_line
from tests.conftest import ROOT
from tests.rules.helpers import StrictTranslator, mutated, random_match
from tests.rules.test_replay import CORPUS, READING, as_gnubg_reads

GNUBG = Path("/usr/games/gnubg")
needs_gnubg = pytest.mark.skipif(
    not GNUBG.exists(), reason="GNU Backgammon is not installed (apt-get install gnubg)"
)
# gnubg's reading of the corpus as this project writes it (scripts/gnubg_matches.py read)
WRITTEN_READING = Path(__file__).parent / "data" / "gnubg-reading-written.json"


def summary(replay):
    return [
        (g.number, g.score_before, g.crawford, g.winner, g.points, g.cube, g.result.outcome)
        for g in replay.games
    ]


def write_corpus(folder: Path) -> dict[str, str]:
    texts = {}
    for name in sorted(READING):
        text = replay_match(read_mat((CORPUS / name).read_bytes())).to_mat()
        (folder / name).write_text(text, encoding="utf-8")
        texts[name] = text
    return texts


@pytest.mark.parametrize("name", sorted(READING))
def test_written_corpus_reads_back_as_the_same_match(name):
    original = replay_match(read_mat((CORPUS / name).read_bytes()))
    again = replay_match(read_mat(original.to_mat()))
    assert summary(again) == summary(original)
    assert again.final_score == original.final_score and again.winner == original.winner
    assert again.problems == () and again.players == original.players


def test_the_layout_is_gnubgs():
    original = replay_match(read_mat((CORPUS / "gnubg-scripts_match1484923.mat").read_bytes()))
    lines = original.to_mat().splitlines()
    assert lines[:3] == [
        '; [Site "BackgammonGalaxy"]',
        '; [Match ID "1484923"]',
        '; [Player 1 "klara"]',
    ]
    start = lines.index(" 5 point match")
    assert lines[start + 2 : start + 6] == [
        " Game 1",
        " klara : 0                      lasse : 0",
        "  1)                             41: 13/9 24/23",
        "  2) 44: 24/20 20/16* 6/2* 6/2   65: 25/20",  # hits starred, as gnubg does
    ]
    assert "  7) 61: 25/24 22/16              Doubles => 2" in lines
    assert "  8)  Takes                      31: 13/10 10/9*" in lines
    assert "                                  Wins 1 point and the match" in lines


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), length=st.sampled_from([1, 3, 5, 7]))
def test_engine_matches_written_and_replayed_give_the_same_match(seed, length):
    match, games = random_match(seed, length)
    text = format_mat(length=length, players=("Anna", "Bruno"), games=written_games(games))
    replay = replay_match(read_mat(text))
    assert replay.problems == ()
    assert [
        (g.score_before, g.crawford, g.winner, g.points, g.result.outcome) for g in replay.games
    ] == [
        (g.score_before, g.crawford, g.result.winner, g.result.points, g.result.outcome)
        for g in match.games
    ]
    assert replay.final_score == match.score and replay.winner == match.winner
    # every play reached the position the engine reached (.mat files keep no opening ties)
    for ours, played in zip(replay.games, games, strict=True):
        assert [a.position for a in ours.log if a.act.value == "play"] == [
            a.position for a in played.log if a.act.value == "play"
        ]


CORPUS_TEXTS = {name: (CORPUS / name).read_bytes() for name in sorted(READING)}


@settings(max_examples=150)
@given(
    name=st.sampled_from(sorted(CORPUS_TEXTS)),
    seed=st.integers(0, 2**32),
    byte_edits=st.integers(0, 6),
    line_edits=st.integers(0, 3),
)
# a 6-3 danced from the bar, written "63: ." (read as no play): the engine passed the turn
@example(
    name="td-gammon_002-gnubg-BGBlitz_7-pt_15_gnubg.mat", seed=17402625, byte_edits=2, line_edits=0
)
def test_mutated_corpus_files_never_crash_the_reader(name, seed, byte_edits, line_edits):
    mutated_text = mutated(CORPUS_TEXTS[name], seed, byte_edits, line_edits)
    count = len(re.split(rb"\r\n|\r|\n", mutated_text))  # lines as an editor shows them
    try:
        replay = replay_match(read_mat(mutated_text))
    except MatFileError as error:
        assert 1 <= error.line <= count and str(error).startswith(f"line {error.line}: ")
        assert error.sentence(StrictTranslator()).startswith("«")
        return
    strict = StrictTranslator()
    for problem in replay.problems:
        assert 1 <= problem.line <= count and problem.message and problem.kind
        assert problem.note.render(strict) and problem.heading.render(strict)
    for game in replay.games:
        game.cube_note.render(strict)


def test_gnubgs_reading_of_what_we_write_is_the_replay(tmp_path):
    """The committed fixture: gnubg 1.07 imported the corpus as written here (see the script)."""
    reading = json.loads(WRITTEN_READING.read_text(encoding="utf-8"))
    texts = write_corpus(tmp_path)
    assert sorted(reading) == sorted(texts)
    for name, text in texts.items():
        replay = replay_match(read_mat(text))
        assert as_gnubg_reads(replay) == reading[name]["games"], name
        assert list(replay.players) == reading[name]["players"]


@pytest.mark.gnubg
@needs_gnubg
def test_gnubg_imports_what_we_write_with_the_same_scores(tmp_path):
    texts = write_corpus(tmp_path)
    out = tmp_path / "reading.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "gnubg_matches.py"),
            "read",
            *[str(tmp_path / name) for name in texts],
            "--out",
            str(out),
        ],
        check=True,
        timeout=900,
    )
    reading = json.loads(out.read_text(encoding="utf-8"))
    for name, text in texts.items():
        assert as_gnubg_reads(replay_match(read_mat(text))) == reading[name]["games"], name


@pytest.mark.gnubg
@needs_gnubg
def test_replay_agrees_with_gnubgs_own_record_of_self_play(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "gnubg_matches.py"),
            "crosscheck",
            "--matches",
            "3",
            "--length",
            "5",
            "--seed",
            "29",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[1:]] == ["agrees"] * 3


@pytest.mark.gnubg
@needs_gnubg
def test_gnubg_s_nackgammon_self_play_replays_from_nackgammon_s_start(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "gnubg_matches.py"),
            "crosscheck",
            *("--matches", "3", "--length", "3", "--seed", "31", "--variation", "nackgammon"),
            *("--out", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr  # same games, no problem
    files = sorted(tmp_path.glob("*.mat"))
    assert len(files) == 3 and all('[Variation "NackGammon"]' in f.read_text() for f in files)


# --- players' names of any length the site allows ------------------------------------

# The site allows 1-120 characters: letters of any alphabet, spaces, apostrophes, hyphens,
# dots, commas and digits (and, read back through the Player tags, " : " inside a name).
NAME_ALPHABET = st.characters(categories=["L"]) | st.sampled_from(list(" '-.,0123456789"))
PLAIN_NAMES = st.text(NAME_ALPHABET, min_size=1, max_size=120).map(str.strip).filter(bool)
COLON_NAMES = st.tuples(PLAIN_NAMES, PLAIN_NAMES).map(" : ".join).filter(lambda n: len(n) <= 120)
NAMES = PLAIN_NAMES | COLON_NAMES | st.sampled_from(["A" * 27, "B" * 31, "C" * 120, "Rossi, 7"])


@settings(max_examples=60)
@given(
    names=st.tuples(NAMES, NAMES),
    seed=st.integers(0, 10**6),
    length=st.sampled_from([1, 3, 5]),
)
def test_a_match_with_any_names_writes_and_reads_back(names, seed, length):
    _, games = random_match(seed, length)
    written = written_games(games)
    text = format_mat(length=length, players=names, games=written, tags=[("Site", "Crawford")])
    record = read_mat(text)
    assert record.players == names and record.ratings == (None, None)
    assert [(g.players, g.score) for g in record.games] == [(names, w.score) for w in written]
    for game, sent in zip(record.games, written, strict=True):
        moves = [(e.player, e.text) for e in game.entries if e.kind is not EntryKind.WIN]
        assert moves == [(cell.player, cell.text.strip()) for cell in sent.cells]
        win = game.entries[-1]
        assert (win.kind, win.player, win.value) == (EntryKind.WIN, sent.winner, sent.points)
    assert replay_match(record).problems == ()


# names stored before the site kept them on one line (issue 23.5): line breaks and hidden
# characters anywhere in them, or only those
STRAY = st.sampled_from(list("\r\n\t\v\f\x1c\x85\u2028\u2029\x00\x1b\u200b\ufeff\u202e\u2066"))
STORED_NAMES = st.lists(NAME_ALPHABET | STRAY, min_size=1, max_size=120).map("".join)


@settings(max_examples=100)
@given(names=st.tuples(STORED_NAMES, STORED_NAMES), seed=st.integers(0, 10**6))
def test_names_with_line_breaks_are_written_on_one_line_and_read_back(names, seed):
    _, games = random_match(seed, 3)
    written = written_games(games)
    tags = [("Event", f"Open{names[0]}"), ("Site", "Crawford")]
    text = format_mat(length=3, players=names, games=written, tags=tags)
    record = read_mat(text)
    shown = tuple(one_line(name) or "?" for name in names)
    assert record.players == shown
    assert [(g.players, g.score) for g in record.games] == [(shown, w.score) for w in written]
    assert record.tag("Event") == one_line(f"Open{names[0]}")
    assert all(line.isprintable() or not line for line in text.split("\n"))
    assert replay_match(record).problems == ()


def test_a_name_stored_across_lines_is_one_line_in_the_file():
    game = WrittenGame(score=(0, 0), cells=())
    text = format_mat(length=1, players=("Anna\r\nRossi", "Bruno\u202e"), games=[game])
    assert text.splitlines()[3].startswith(" Anna Rossi : 0 ")
    assert read_mat(text).players == ("Anna Rossi", "Bruno")


def test_a_long_left_name_leaves_a_gap_before_the_right_one():
    # gnubg writes " %-31s%s : %d": from 27 characters on, its columns run together
    text = format_mat(
        length=1, players=("A" * 27, "Bruno"), games=[WrittenGame(score=(0, 0), cells=())]
    )
    assert " " + "A" * 27 + " : 0 Bruno : 0" in text.splitlines()
    assert read_mat(text).players == ("A" * 27, "Bruno")


def test_gnubgs_own_layout_of_a_long_name_is_read():
    text = " 1 point match\n\n Game 1\n " + "A" * 28 + " : 0Bruno : 0\n  1) 31: 8/5 6/5\n"
    assert read_mat(text).players == ("A" * 28, "Bruno")


def test_names_the_score_line_cannot_carry_are_written_in_player_tags():
    players = ("Anna : 3 Rossi", "Rossi, 7")  # " : " inside, and a name that reads as a rating
    game = WrittenGame(score=(0, 0), cells=())
    text = format_mat(length=1, players=players, games=[game], tags=[("Player 2", "old")])
    assert '; [Player 1 "Anna : 3 Rossi"]' in text and '; [Player 2 "Rossi, 7"]' in text
    assert read_mat(text).players == players
    plain = format_mat(length=1, players=("Anna", "Bruno"), games=[game])
    assert "Player" not in plain  # ordinary names: the layout is gnubg's, untouched
