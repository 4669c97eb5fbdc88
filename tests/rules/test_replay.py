"""Replaying match files: the corpus against gnubg, and every kind of problem at its line."""

import json

import pytest

from rules.game import Act
from rules.matfile import format_mat, games_allowed, read_mat
from rules.messages import Message
from rules.replay import ProblemKind, replay_match, written_games
from tests.conftest import DATA
from tests.rules.helpers import StrictTranslator, random_match

CORPUS = DATA / "corpus" / "mat"
READING = json.loads((CORPUS / "gnubg-reading.json").read_text(encoding="utf-8"))


def replay_file(name):
    return replay_match(read_mat((CORPUS / name).read_bytes()))


def as_gnubg_reads(replay):
    return [
        {
            "score_before": list(game.score_before),
            "winner": game.winner,
            "points": game.points,
            "resigned": game.result.outcome.value == "resignation",
            "crawford": game.crawford,
        }
        for game in replay.games
    ]


def test_the_corpus_is_all_there():
    assert len(list(CORPUS.glob("*.mat"))) == len(READING) == 34


@pytest.mark.parametrize("name", sorted(READING))
def test_corpus_file_agrees_with_gnubg_game_by_game(name):
    replay = replay_file(name)
    expected = READING[name]
    assert replay.length == expected["length"]
    assert list(replay.players) == expected["players"]
    assert as_gnubg_reads(replay) == expected["games"]
    assert replay.problems == ()  # real logs of finished matches: nothing to report


def test_a_capped_win_of_the_match_is_not_a_breach():
    # Monte Carlo 2001 final: the last game is a single game with the cube at 2 (2 points),
    # written "Wins 1 point and the match", because one point was all Jorgen Granstedt needed.
    replay = replay_file("td-gammon_monte-carlo-2001-final.mat")
    last = replay.games[-1]
    assert (last.result.outcome.value, last.cube, last.points) == ("single", 2, 2)
    assert last.score_before == (24, 16)
    assert replay.final_score == (25, 16) and replay.winner == 0 and replay.ok


def test_unknown_play_then_a_win_is_a_resignation_after_rolling():
    # XG writes '66: ???' for a player who rolled and then resigned
    replay = replay_file("matfile_go_fullmatch1.mat")
    game = replay.games[3]
    assert (game.result.outcome.value, game.winner, game.points, game.cube) == (
        "resignation",
        1,
        4,
        2,
    )


def test_losses_line_is_the_losers_resignation():
    replay = replay_file("gnubg-scripts_match1484923.mat")
    last = replay.games[-1]
    assert (last.crawford, last.result.outcome.value, last.winner, last.points) == (
        True,
        "resignation",
        1,
        1,
    )
    assert replay.final_score == (2, 5)


# --- problems, each at its line ------------------------------------------------------


def mat(*games, length=3, names=("Anna", "Bruno")):
    """A match file from games given as (score, lines) pairs."""
    out = [f" {length} point match", ""]
    for number, (score, lines) in enumerate(games, start=1):
        out.append(f" Game {number}")
        out.append(f" {names[0]} : {score[0]}".ljust(32) + f"{names[1]} : {score[1]}")
        out.extend(lines)
        out.append("")
    return "\n".join(out) + "\n"


def line_of(text, needle):
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def row(number, left="", right=""):
    return f"{number:3d}) {left:<28}{right}".rstrip()


WIN_RIGHT = " " * 34 + "Wins {} point{}"
WIN_LEFT = " " * 6 + "Wins {} point{}"


def wins(player, points, match=False):
    text = (WIN_LEFT if player == 0 else WIN_RIGHT).format(points, "s" if points > 1 else "")
    return text + (" and the match" if match else "")


ANNA_WINS_2 = [
    row(1, "31: 8/5 6/5", " Doubles => 2"),
    row(2, " Takes", "52: 13/8 13/11"),
    row(3, " Doubles => 4", " Drops"),
    wins(0, 2),
]


def problems(text):
    replay = replay_match(read_mat(text))
    strict = StrictTranslator()
    for problem in replay.problems:  # every problem renders, with every parameter it needs
        assert problem.note.render(strict).startswith("«")
    return replay, [(p.line, p.game, p.kind) for p in replay.problems]


def test_a_clean_match_has_no_problem():
    text = mat(
        ((0, 0), ANNA_WINS_2),
        ((2, 0), [row(1, "", "41: 13/9 24/23"), row(2, "62: 13/7 13/11", "Wins 1 point")]),
        ((2, 1), [row(1, "31: 8/5 6/5", " Doubles => 2"), row(2, " Drops"), wins(1, 1)]),
        ((2, 2), ANNA_WINS_2[:3] + [wins(0, 2, match=True)]),
    )
    replay, found = problems(text)
    assert found == []
    assert [g.crawford for g in replay.games] == [False, True, False, False]
    assert replay.final_score == (3, 2) and replay.winner == 0


def test_an_illegal_play_is_reported_and_stands():
    text = mat(
        (
            (0, 0),
            [
                row(1, "", "41: 13/9 24/23"),
                row(2, "31: 8/5", "52: 13/8 13/11"),
                row(3, "64: 24/18 13/9", "Wins 1 point"),
            ],
        ),
    )
    replay, found = problems(text)
    assert found[0] == (line_of(text, "31: 8/5"), 1, "illegal-play")
    message = replay.problems[0].message
    assert "WBF 17: both dice can be played, so both must be" in message and "WBF 14" in message
    # the game went on from the board as played: Anna's later play and the result still count
    assert replay.games[0].result.winner == 1 and [k for _, _, k in found[1:]] == ["unfinished"]
    plays = [a for a in replay.games[0].log if a.act.value == "play"]
    assert plays[1].illegal and plays[1].play == "8/5" and plays[3].play == "24/18 13/9"


def test_dice_that_do_not_fit_the_play():
    text = mat(((0, 0), [row(1, "", "31: 13/7 13/8"), row(2, "31: 8/5 6/5", "Wins 1 point")]))
    replay, found = problems(text)
    assert found[0] == (line_of(text, "13/7 13/8"), 1, "dice")
    assert "a play of 6-5, not of the 3-1 written (WBF 15)" in replay.problems[0].message


def test_a_double_in_the_crawford_game_is_annulled():
    text = mat(
        ((0, 0), ANNA_WINS_2),
        (
            (2, 0),
            [
                row(1, "", "41: 13/9 24/23"),
                row(2, " Doubles => 2", " Takes"),
                row(3, "62: 13/7 13/11", "Wins 1 point"),
            ],
        ),
    )
    replay, found = problems(text)
    assert found == [
        (line_of(text, "Doubles => 2                Takes"), 2, "crawford-double"),
        (line_of(text, "62: 13/7 13/11"), None, "unfinished"),
    ]
    assert "game 2 is the Crawford game: no doubling (WBF 24)" in replay.problems[0].message
    # the game counts as if no double had been made: a single game at the cube of 1
    assert replay.games[1].cube == 1 and replay.games[1].points == 1
    assert replay.final_score == (2, 1)


def test_a_redouble_by_the_player_who_does_not_own_the_cube():
    text = mat(
        (
            (0, 0),
            [
                row(1, "31: 8/5 6/5", " Doubles => 2"),
                row(2, " Takes", "52: 13/8 13/11"),
                row(3, "64: 24/18 13/9", " Doubles => 4"),
                row(4, " Drops"),
                wins(1, 2),
            ],
        ),
    )
    replay, found = problems(text)
    assert found[0] == (line_of(text, "Doubles => 4"), 1, "cube-owner")
    assert "Anna owns the cube at 2: only the owner may redouble (WBF 23)" in (
        replay.problems[0].message
    )
    # annulled, so the drop gives up a single game at the cube of 2
    assert (replay.games[0].winner, replay.games[0].points) == (1, 2)


@pytest.mark.parametrize("answer", ["Takes", "Drops"])
def test_a_take_or_drop_without_a_double(answer):
    text = mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, f" {answer}", "Wins 1 point")]))
    replay, found = problems(text)
    assert found[0] == (line_of(text, answer), 1, "no-double")
    assert "no double was offered" in replay.problems[0].message


def test_a_wins_line_that_the_cube_contradicts():
    text = mat(((0, 0), ANNA_WINS_2[:3] + [wins(0, 4)]))
    replay, found = problems(text)
    assert found[0] == (line_of(text, "Wins 4"), 1, "result")
    assert "the double was dropped with the cube at 2" in replay.problems[0].message
    assert replay.games[0].points == 2  # the rules' figure counts, not the written one


def test_a_wins_line_for_the_wrong_player():
    text = mat(((0, 0), ANNA_WINS_2[:3] + [wins(1, 2)]))
    replay, found = problems(text)
    assert found[0] == (line_of(text, "Wins 2"), 1, "result")
    assert "Anna won it" in replay.problems[0].message and replay.games[0].winner == 0


def test_a_written_result_the_final_position_contradicts():
    # the first seeded one-point match whose game ends on the board, not by the cube
    board_end = next(
        w
        for seed in range(7, 100)
        for games in [random_match(seed=seed, length=1)[1]]
        for w, g in zip(written_games(games), games, strict=True)
        if g.result.outcome.value in ("single", "gammon", "backgammon")
    )
    text = format_mat(length=1, players=("Anna", "Bruno"), games=[board_end])
    tampered = text.replace(f"Wins {board_end.points} point", f"Wins {board_end.points + 1} point")
    replay, found = problems(tampered)
    assert found == [(line_of(tampered, "Wins"), 1, "result")]
    assert "the board shows a" in replay.problems[0].message


def test_the_score_line_disagrees_with_the_games_before():
    text = mat(((0, 0), ANNA_WINS_2), ((0, 2), [row(1, "31: 8/5 6/5", "Wins 1 point")]))
    replay, found = problems(text)
    assert found[0] == (line_of(text, "Anna : 0                       Bruno : 2"), 2, "score")
    assert "as 0-2; the games before it make it 2-0" in replay.problems[0].message


def test_games_after_the_match_was_over():
    text = mat(
        ((0, 0), ANNA_WINS_2[:3] + [wins(0, 2, match=True)]),
        ((1, 0), [row(1, "31: 8/5 6/5", "Wins 1 point")]),
        length=1,
    )
    replay, found = problems(text)
    assert found == [(line_of(text, "Game 2"), 2, "after-match")]
    assert replay.final_score == (1, 0) and not replay.games[1].counted


def test_a_match_that_stops_before_anyone_reached_the_length():
    text = mat(((0, 0), ANNA_WINS_2), length=5)
    replay, found = problems(text)
    assert found == [(line_of(text, "Wins 2"), None, "unfinished")]
    assert "nobody reached 5 points (WBF 3)" in replay.problems[0].message


def test_a_claim_of_the_match_that_the_score_does_not_support():
    text = mat(((0, 0), ANNA_WINS_2[:3] + [wins(0, 2, match=True)]), length=5)
    _, found = problems(text)
    assert (line_of(text, "and the match"), 1, "result") in found


def test_a_game_without_a_result():
    text = mat(((0, 0), [row(1, "", "41: 13/9 24/23")]), length=1)
    _, found = problems(text)
    assert found == [
        (line_of(text, "41:"), 1, "no-result"),
        (line_of(text, "41:"), None, "unfinished"),
    ]


def test_a_move_out_of_turn():
    text = mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, "", "31: 8/5 6/5"), wins(1, 1)]))
    replay, found = problems(text)
    assert found[0] == (line_of(text, "31: 8/5 6/5"), 1, "turn")
    assert "out of turn" in replay.problems[0].message


def test_an_opening_double_is_reported():
    text = mat(((0, 0), [row(1, "33: 8/5(2) 6/3(2)", "Wins 1 point")]))
    _, found = problems(text)
    assert found[0] == (line_of(text, "33:"), 1, "opening")


def test_beavers_are_not_match_play():
    text = mat(
        ((0, 0), [row(1, "31: 8/5 6/5", " Doubles => 2"), row(2, " Beavers => 4"), wins(0, 2)])
    )
    _, found = problems(text)
    assert found[0] == (line_of(text, "Beavers"), 1, "beaver")


def test_a_money_session_with_a_beaver_taken():
    # Galore 2.8: after Anna's beaver, Bruno (who doubled) takes; the cube stays Anna's
    # (Galore 5.4), so Bruno's next double is not his to make
    text = mat(
        (
            (0, 0),
            [
                row(1, "31: 8/5 6/5", " Doubles => 2"),
                row(2, " Beavers => 4", " Takes"),
                row(3, "", "52: 13/8 13/11"),
                row(4, "64: 24/18 13/9", " Doubles => 8"),
                row(5, " Drops", "Wins 4 points"),
            ],
        ),
        length=0,
    )
    replay, found = problems(text)
    assert [kind for _, _, kind in found] == ["cube-owner"]
    game = replay.games[0]
    assert (game.cube, game.winner, game.points) == (4, 1, 4)
    assert game.cube_summary == "2 beavered, 4 taken, 4 annulled dropped"
    assert [a.act for a in game.log][2:5] == [Act.DOUBLE, Act.BEAVER, Act.TAKE]


def test_a_money_session_with_a_beaver_dropped_gives_the_double_s_value():
    # Galore 2.6 and 2.8: Bruno drops the redouble, and loses the 2 the beaver accepted
    text = mat(
        (
            (0, 0),
            [
                row(1, "31: 8/5 6/5", " Doubles => 2"),
                row(2, " Beavers => 4", " Drops"),
                row(3, "Wins 2 points"),
            ],
        ),
        length=0,
    )
    replay, found = problems(text)
    assert found == []  # no match length: nothing to finish, beavers allowed (Galore 2.8)
    game = replay.games[0]
    assert (game.cube, game.winner, game.points) == (2, 0, 2)
    assert game.cube_summary == "2 beavered, 4 dropped"
    assert replay.final_score == (2, 0) and replay.winner is None
    assert "Beavers => 4" in replay.to_mat() and "Drops" in replay.to_mat()


def test_a_beaver_left_unanswered_is_taken_and_said_so():
    text = mat(
        (
            (0, 0),
            [
                row(1, "31: 8/5 6/5", " Doubles => 2"),
                row(2, " Beavers => 4", "52: 13/8 13/11"),
                row(3, "64: 24/18 13/9", "Wins 4 points"),
            ],
        ),
        length=0,
    )
    replay, found = problems(text)
    assert [kind for _, _, kind in found] == ["no-double"]
    assert replay.problems[0].message == (
        "Bruno neither took nor dropped Anna's beaver before the next roll, as the doubler "
        "must after a beaver (Galore 2.8): the replay takes it as taken"
    )
    game = replay.games[0]
    assert (game.cube, game.winner, game.points) == (4, 1, 4)


def test_a_problem_is_a_kind_and_a_message_with_the_engines_refusal_inside():
    text = mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, "31: 8/5", "Wins 1 point")]))
    problem = replay_match(read_mat(text)).problems[0]
    assert problem.kind is ProblemKind.ILLEGAL_PLAY and problem.kind == "illegal-play"
    assert str(problem.heading) == "illegal play"
    note = problem.note
    # Bruno wins without rolling again, so the play is not said to stand (WBF 14)
    assert note.key == "log-illegal-play-last" and note.params["name"] == "Anna"
    # the engine's refusal is a message inside the problem, not English pasted in
    assert note.params["reason"] == Message(
        "rule-cited", {"rule": "WBF 17", "reason": Message("both-dice")}
    )
    assert problem.message == str(note)
    stored = json.loads(json.dumps(problem.as_dict()))
    assert stored["kind"] == "illegal-play" and Message.from_dict(stored["note"]) == note


def test_the_cube_story_is_a_list_of_messages():
    replay = replay_match(read_mat(mat(((0, 0), ANNA_WINS_2), length=5)))
    game = replay.games[0]
    assert game.cube_note == Message(
        "cube-story",
        {"actions": (Message("cube-taken", {"cube": 2}), Message("cube-dropped", {"cube": 4}))},
    )
    assert game.cube_summary == "2 taken, 4 dropped"


ROLLS_THEN_WINS = [row(1, "31: 8/5 6/5", " Doubles => 2"), row(2, " Drops"), wins(1, 1)]


@pytest.mark.parametrize(
    "text, needle, kind, key, words",
    [
        (
            mat(((0, 0), [row(1, "", "41: ???"), row(2, "31: 8/5 6/5"), wins(0, 1)])),
            "???",
            "unknown-play",
            "log-unknown-play",
            "Bruno's play of 4-1 is not recorded ('???')",
        ),
        (
            mat(
                ((0, 0), [row(1, " Doubles => 2", " Takes"), row(2, "31: 8/5 6/5", "Wins 1 point")])
            ),
            "Doubles",
            "cube-turn",
            "log-annulled",
            "Anna doubles before the opening roll (WBF 23)",
        ),
        (
            mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, "", " Doubles => 2"), wins(1, 1)])),
            "Doubles",
            "cube-turn",
            "log-annulled",
            "Bruno doubles out of turn",
        ),
        (
            mat(((0, 0), [*ROLLS_THEN_WINS, row(3, " Beavers => 4")]), length=0),
            "Beavers",
            "after-end",
            "log-beaver-after-end",
            "Anna beavers after game 1 ended",
        ),
        (
            mat(((0, 0), [row(1, "31: 8/5 6/5", " Beavers => 4"), wins(1, 1)]), length=0),
            "Beavers",
            "no-double",
            "log-beaver-not-offered",
            "Bruno beavers, but no double was offered to them (WBF 23)",
        ),
        (
            mat(((0, 0), [*ROLLS_THEN_WINS, row(3, "", " Losses 1 point")])),
            "Losses",
            "after-end",
            "log-resign-after-end",
            "Bruno resigns after game 1 ended",
        ),
    ],
)
def test_each_kind_of_problem_at_its_line_in_words(text, needle, kind, key, words):
    replay, found = problems(text)
    first = replay.problems[0]
    assert (found[0][0], first.kind, first.note.key) == (line_of(text, needle), kind, key)
    assert words in first.message


def test_the_reader_stops_past_what_the_match_length_allows():
    """A 1-point match counts at most 1 game; the reader keeps 5 more, then stops, and the
    replay says so at the line of the first game left unread."""
    one_game = (0, 0), [row(1, "31: 8/5 6/5", " Doubles => 2"), row(2, " Drops"), wins(1, 1)]
    text = mat(*[one_game] * 9, length=1)
    record = read_mat(text)
    assert games_allowed(1) == 6 and len(record.games) == 6
    assert record.unread_from == line_of(text, "Game 7")
    replay, found = problems(text)
    assert found[-1] == (line_of(text, "Game 7"), None, "not-read")
    assert found[:-1] == [(line_of(text, f"Game {n}"), n, "after-match") for n in range(2, 7)]
    assert replay.problems[-1].message == (
        "the file goes on after game 6, but a 1-point match has at most 1 game that counts: "
        "the rest of the file is not read"
    )
    assert str(replay.problems[-1].heading) == "rest of the file not read"
    # as many games as the bound: read to the end, nothing said
    assert read_mat(mat(*[one_game] * 6, length=1)).unread_from == 0


def test_a_continued_match_and_a_money_session_are_read_whole():
    # a file that picks a 3-point match up at 2-2 holds fewer games than 2 * 3 - 1, never more
    assert games_allowed(3) == 10
    later = mat(((2, 2), ANNA_WINS_2[:3] + [wins(0, 2, match=True)]), length=3)
    assert read_mat(later).unread_from == 0
    # money play has no bound from its length (the site's upload cap bounds it)
    session = mat(*[((0, 0), ANNA_WINS_2)] * 40, length=0)
    assert len(read_mat(session).games) == 40 and read_mat(session).unread_from == 0
    stopped = read_mat(session, max_games=3)  # a caller may set its own bound
    assert len(stopped.games) == 3 and stopped.unread_from == line_of(session, "Game 4")
    replay = replay_match(stopped)
    assert replay.problems[-1].message == (
        "the file goes on after game 3: the rest of the file is not read"
    )
