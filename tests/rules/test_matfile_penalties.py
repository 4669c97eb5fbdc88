"""Penalty points and forfeits (tournament rules) in .mat files: written, read, replayed.

A penalty is a comment line before the game it precedes, whose header already counts it;
penalties and a forfeit after the last game follow it. Read back, the file gives the same
match with no problem reported; a real file whose score jumps with no such line is still
reported (WBF 3's score, as before). Properties: any history written and read gives the
same Match; the score never goes down; at most one Crawford game (WBF 24), and exactly one
when a game is played with a player one point short.
"""

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import SeededDice
from rules.errors import MatFileError
from rules.game import Act, Game, Phase
from rules.match import (
    Forfeit,
    ForfeitReason,
    GameResult,
    Match,
    Penalty,
    PenaltyReason,
    ScoredGame,
)
from rules.matfile import WrittenGame, format_mat, read_mat, time_line
from rules.replay import ProblemKind, replay_match, written_games
from tests.conftest import ROOT
from tests.rules.helpers import StrictTranslator
from tests.rules.test_matfile_write import needs_gnubg
from tests.rules.test_replay import CORPUS

PLAYERS = ("Marco Bianchi", "Luca Esposito")


def play(context, dice, chooser, *, stop_after=None):
    """One game played by the engine with random legal choices; ``stop_after`` turns cut it
    short (a flag fallen during the game)."""
    game = Game(context, dice=dice)
    game.roll_opening()
    turns = 0
    while not game.over:
        if stop_after is not None and turns >= stop_after:
            break
        if game.phase is Phase.OPENING:
            game.roll_opening()
        elif game.phase is Phase.ROLL:
            if Act.DOUBLE in game.available() and chooser.random() < 0.1:
                game.double()
            else:
                game.roll()
        elif game.phase is Phase.MOVE:
            game.play(chooser.choice(game.legal_plays))
            turns += 1
        elif game.phase is Phase.DOUBLED:
            (game.take if chooser.random() < 0.6 else game.drop)()
    return game


def random_history(seed, length, *, penalty_rate=0.3, forfeit_rate=0.15):
    """A match played to its end with penalties between games and perhaps a forfeit
    (at a game's start, or during a game cut short): the Match, and the .mat written."""
    chooser = random.Random(seed)
    dice = SeededDice(seed)
    match = Match(length)
    written, pending = [], []
    while not match.over:
        if chooser.random() < penalty_rate:
            reason = chooser.choice(list(PenaltyReason))
            penalty = Penalty(chooser.randint(0, 1), chooser.randint(1, length), reason)
            match = match.add(penalty)
            pending.append(penalty)
            continue
        if chooser.random() < forfeit_rate:
            forfeit = Forfeit(chooser.randint(0, 1), chooser.choice(list(ForfeitReason)))
            cut = chooser.random() < 0.5
            if cut:  # the flag fell during a game: its moves so far are written
                game = play(match.next_game, dice, chooser, stop_after=chooser.randint(0, 6))
                if game.result is None:
                    written += _written([game], pending)
                    pending = []
            match = match.add(forfeit)
            pending.append(forfeit)
            break
        game = play(match.next_game, dice, chooser)
        written += _written([game], pending)
        pending = []
        match = match.add(game.result)
    wins = written and not pending and match.over
    if wins:
        written[-1] = _wins_match(written[-1])
    text = format_mat(length=length, players=PLAYERS, games=written, after=pending)
    return match, text


def _written(games, penalties):
    (game,) = written_games(games)
    return [
        WrittenGame(
            score=game.score,
            cells=game.cells,
            winner=game.winner,
            points=game.points,
            penalties=tuple(penalties),
        )
    ]


def _wins_match(game):
    return WrittenGame(
        score=game.score,
        cells=game.cells,
        winner=game.winner,
        points=game.points,
        wins_match=True,
        penalties=game.penalties,
    )


def decided_match(length, history):
    return Match(length, tuple(history))


# --- the lines ---------------------------------------------------------------------------


def test_a_penalty_is_written_before_the_game_whose_header_counts_it_tournament_rules():
    late = Penalty(0, 2, PenaltyReason.LATENESS)
    text = format_mat(
        length=7,
        players=PLAYERS,
        games=[WrittenGame(score=(0, 2), cells=(), penalties=(late,))],
    )
    lines = text.splitlines()
    at = lines.index(" Game 1")
    assert lines[at - 1] == "; Penalty: Marco Bianchi 2 points (lateness)"
    assert lines[at + 1].split() == ["Marco", "Bianchi", ":", "0", "Luca", "Esposito", ":", "2"]
    record = read_mat(text)
    assert record.games[0].penalties == (late,) and record.games[0].score == (0, 2)
    assert record.games[0].penalty_lines == (at,)  # 1-based: the line before the header
    assert record.comments == ()  # understood, not kept as a comment


def test_lines_name_the_player_penalised_and_the_reason():
    assert time_line(Penalty(1, 1), PLAYERS) == "; Penalty: Luca Esposito 1 point (director)"
    assert time_line(Forfeit(0, ForfeitReason.LATENESS), PLAYERS) == (
        "; Forfeit: Marco Bianchi (lateness)"
    )
    same = ("Marco Rossi", "Marco Rossi")
    assert time_line(Penalty(0, 3), same) == "; Penalty: Marco Rossi (left) 3 points (director)"


def test_two_players_of_the_same_name_are_told_apart_by_their_column():
    same = ("Marco Rossi", "Marco Rossi")
    history = [Penalty(1, 2), Forfeit(0, ForfeitReason.TIME)]
    text = format_mat(
        length=5,
        players=same,
        games=[WrittenGame(score=(2, 0), cells=(), penalties=(history[0],))],
        after=history[1:],
    )
    record = read_mat(text)
    assert record.games[0].penalties == (history[0],) and record.after == (history[1],)


def test_a_name_ending_in_a_number_reads_back():
    players = ("Bot 3", "Anna (Roma)")
    history = (Penalty(0, 4, PenaltyReason.LATENESS), Penalty(1, 1))
    text = format_mat(length=7, players=players, games=[], after=history)
    assert read_mat(text).after == history


# --- reading back the same match, no problem reported -----------------------------------


def test_a_match_with_penalties_and_a_time_forfeit_reads_back_with_no_problem():
    match, text = random_history(7, 7, penalty_rate=0.5, forfeit_rate=0.0)
    replay = replay_match(read_mat(text))
    assert replay.problems == () and replay.final_score == match.score
    assert Match(7, replay.history) == match


def test_a_forfeit_during_a_game_leaves_that_game_without_result_and_no_problem():
    dice, chooser = SeededDice(3), random.Random(3)
    game = play(Match(5).next_game, dice, chooser, stop_after=4)
    assert game.result is None
    flag = Forfeit(1, ForfeitReason.TIME)
    text = format_mat(length=5, players=PLAYERS, games=written_games([game]), after=[flag])
    assert text.rstrip().endswith("; Forfeit: Luca Esposito (time)")
    replay = replay_match(read_mat(text))
    assert replay.problems == () and replay.winner == 0 and replay.final_score == (5, 0)
    assert replay.history == (flag,) and not replay.games[0].counted


def test_a_lateness_forfeit_before_the_first_game_is_a_file_with_no_game():
    history = (Penalty(1, 2, PenaltyReason.LATENESS), Forfeit(1, ForfeitReason.LATENESS))
    text = format_mat(length=3, players=PLAYERS, games=[], after=history)
    assert '; [Player 1 "Marco Bianchi"]' in text  # the tags name the players
    record = read_mat(text)
    assert record.games == () and record.players == PLAYERS and record.after == history
    replay = replay_match(record)
    assert replay.problems == () and replay.winner == 0 and replay.final_score == (3, 0)


def test_a_penalty_that_wins_the_match_is_the_last_line():
    game = GameResult(winner=0, points=1)
    text = format_mat(
        length=3,
        players=PLAYERS,
        games=[WrittenGame(score=(0, 0), cells=(), winner=0, points=1)],
        after=[Penalty(1, 2)],
    )
    replay = replay_match(read_mat(text))
    assert replay.winner == 0 and replay.final_score == (3, 0)
    assert replay.history[1:] == (Penalty(1, 2),) and replay.history[0].winner == game.winner


def test_the_replay_writes_the_penalties_again():
    match, text = random_history(11, 5, penalty_rate=0.6)
    replay = replay_match(read_mat(text))
    again = replay_match(read_mat(replay.to_mat()))
    assert again.problems == () and again.history == replay.history
    assert Match(5, again.history) == match


def test_a_penalty_changes_the_crawford_game_in_the_replay_wbf_24():
    # 5 points: Bianchi (left) late 4 points, so game 1 is the Crawford game: no doubling
    late = Penalty(0, 4, PenaltyReason.LATENESS)
    dice, chooser = SeededDice(5), random.Random(5)
    game = play(Match(5, (late,)).next_game, dice, chooser)
    assert game.context.crawford
    (written,) = written_games([game])
    text = format_mat(
        length=5,
        players=PLAYERS,
        games=[
            _wins_match(
                WrittenGame(
                    written.score, written.cells, written.winner, written.points, penalties=(late,)
                )
            )
        ],
    )
    replay = replay_match(read_mat(text))
    assert replay.problems == () and replay.games[0].crawford
    assert replay.crawford_game == 1


# --- what is still reported ---------------------------------------------------------------


def test_a_score_jump_without_a_penalty_line_is_reported_as_before_wbf_3():
    """A gnubg file of the corpus whose second game's header is raised by 2 points, with no
    line saying why: reported as any score that does not follow from the games."""
    text = (CORPUS / "gnubg-scripts_match1484923.mat").read_text(encoding="utf-8")
    record = read_mat(text)
    second = record.games[1]
    lines = text.splitlines()
    written = lines[second.score_line - 1]
    right = second.score[1]
    assert written.endswith(f": {right}")
    lines[second.score_line - 1] = written.removesuffix(str(right)) + str(right + 2)
    replay = replay_match(read_mat("\n".join(lines) + "\n"))
    (problem,) = [p for p in replay.problems if p.kind is ProblemKind.SCORE]
    assert problem.game == 2 and problem.note.key == "log-score"
    assert replay_match(record).problems == ()  # the file as gnubg wrote it: no problem


def test_a_penalty_after_the_match_was_won_is_reported_and_left_out_tournament_rules():
    text = format_mat(
        length=1,
        players=PLAYERS,
        games=[WrittenGame(score=(0, 0), cells=(), winner=0, points=1, wins_match=True)],
        after=[Penalty(0, 1)],
    )
    replay = replay_match(read_mat(text))
    (problem,) = replay.problems
    assert problem.kind is ProblemKind.AFTER_MATCH and "tournament rules" in problem.message
    assert replay.winner == 0 and replay.final_score == (1, 0)
    assert problem.note.render(StrictTranslator()).startswith("«")


def test_penalties_in_a_money_session_are_reported():
    text = format_mat(
        length=0,
        players=PLAYERS,
        games=[WrittenGame(score=(0, 0), cells=(), winner=0, points=1, penalties=(Penalty(0, 1),))],
    )
    (problem,) = replay_match(read_mat(text)).problems
    assert problem.kind is ProblemKind.RULES and "money play" in problem.message


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("; Penalty: Marco Bianchi two points (lateness)", "mat-time-line"),
        ("; Penalty: Marco Bianchi 2 points (rain)", "mat-time-line"),
        ("; Penalty: Marco Bianchi 0 points (director)", "mat-time-line"),
        ("; Forfeit: Marco Bianchi", "mat-time-line"),
        ("; Penalty: Mario Rossi 2 points (lateness)", "mat-time-player"),
    ],
)
def test_a_line_that_starts_as_a_penalty_and_cannot_be_read_is_refused(line, key):
    text = f" 7 point match\n\n{line}\n Game 1\n Marco Bianchi : 0   Luca Esposito : 2\n"
    with pytest.raises(MatFileError) as refused:
        read_mat(text)
    assert refused.value.key == key and refused.value.line == 3
    assert refused.value.sentence(StrictTranslator()).startswith("«")


def test_nothing_follows_a_forfeit_in_a_file():
    forfeit = "; Forfeit: Marco Bianchi (time)"
    header = " Game 1\n Marco Bianchi : 0   Luca Esposito : 0\n"
    for text in (
        f" 7 point match\n{forfeit}\n{header}",
        f" 7 point match\n{header}{forfeit}\n; Penalty: Luca Esposito 1 point (director)\n",
    ):
        with pytest.raises(MatFileError) as refused:
            read_mat(text)
        assert refused.value.key == "mat-after-forfeit"


def test_a_penalty_among_a_game_s_moves_is_refused():
    text = (
        " 7 point match\n Game 1\n Marco Bianchi : 0   Luca Esposito : 0\n"
        "  1)                             41: 13/9 24/23\n"
        "; Penalty: Marco Bianchi 1 point (director)\n"
        "  2) 31: 8/5 6/5\n"
    )
    with pytest.raises(MatFileError) as refused:
        read_mat(text)
    assert refused.value.key == "mat-time-in-game" and refused.value.line == 5


def test_other_comments_are_still_comments():
    text = "; a note\n 3 point match\n; Penalty of the day: none\n Game 1\n A : 0   B : 0\n"
    assert read_mat(text).comments == ("a note", "Penalty of the day: none")


# --- properties --------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.sampled_from([1, 3, 5, 7, 9]))
def test_any_history_written_and_read_gives_the_same_match_tournament_rules(seed, length):
    match, text = random_history(seed, length)
    replay = replay_match(read_mat(text))
    assert replay.problems == ()
    assert Match(length, replay.history) == match
    assert replay.final_score == match.score and replay.winner == match.winner


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.sampled_from([1, 3, 5, 7, 9, 11]))
def test_the_score_never_goes_down_and_crawford_comes_once_wbf_24(seed, length):
    match, _ = random_history(seed, length, penalty_rate=0.25, forfeit_rate=0.05)
    score = (0, 0)
    for item in match.history:
        assert item.score_before == score
        assert all(a >= b for a, b in zip(item.score_after, item.score_before, strict=True))
        assert max(item.score_after) <= length
        score = item.score_after
    crawford = [g for g in match.games if g.crawford]
    assert len(crawford) <= 1
    one_short = [g for g in match.games if length - 1 in g.score_before and length > 1]
    if one_short:  # the first game played with a player one point short is the Crawford game
        assert crawford == [one_short[0]]
    assert match.over and match.winner is not None
    assert isinstance(match.history[-1], ScoredGame) or match.won_by is match.history[-1]


# --- what gnubg makes of it -------------------------------------------------------------


@pytest.mark.gnubg
@needs_gnubg
def test_gnubg_skips_the_lines_and_reads_the_written_scores(tmp_path):
    """Another program skips the comment lines: gnubg reads each game at its header's score."""
    _, text = random_history(21, 7, penalty_rate=0.5, forfeit_rate=0.0)
    path = tmp_path / "penalties.mat"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "reading.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "gnubg_matches.py"),
            "read",
            str(path),
            "--out",
            str(out),
        ],
        check=True,
        timeout=300,
    )
    reading = json.loads(out.read_text(encoding="utf-8"))["penalties.mat"]
    replay = replay_match(read_mat(text))
    assert [g["score_before"] for g in reading["games"]] == [
        list(g.score_before) for g in replay.games
    ]


def test_the_command_line_and_json_show_the_penalties_and_the_forfeit():
    from rules.cli import replay_table

    late = Penalty(1, 2, PenaltyReason.LATENESS)
    flag = Forfeit(1, ForfeitReason.TIME)
    text = format_mat(
        length=5,
        players=PLAYERS,
        games=[WrittenGame(score=(2, 0), cells=(), penalties=(late,))],
        after=[flag],
    )
    replay = replay_match(read_mat(text))
    table = replay_table(replay)
    assert "penalty (lateness)  2       Marco Bianchi" in table
    assert "forfeit (time)" in table and "Marco Bianchi wins the match" in table
    data = json.loads(replay.to_json())
    assert data["games"][0]["penalties_before"] == [
        {"penalty": 1, "points": 2, "reason": "lateness", "line": 3}
    ]
    assert data["after"] == [{"forfeit": 1, "reason": "time"}]
    assert data["final_score"] == [5, 0] and data["problems"] == []
