"""Logs as servers write them: a server's convention never reads as a player's illegal play.

A replay report is evidence in a dispute, and an "illegal play" line accuses a
player: worse than a missed problem. Each convention below is a small file built
here from its description (forced moves the server played, a roll then a
resignation, a log cut off, a match continued from another file, an even length,
gnubg's header options); the property test at the end rewrites whole engine-played
matches with all of them and holds the replay to the same games.
"""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.dice import SeededDice
from rules.errors import MatFileError
from rules.game import Act, Game, Phase
from rules.match import GameContext, MatchRules, MoneyRules, Outcome
from rules.matfile import Cell, WrittenGame, format_mat, read_mat
from rules.movegen import legal_plays
from rules.position import Variation
from rules.replay import ProblemKind, replay_match, written_games
from tests.rules.helpers import StrictTranslator, random_match
from tests.rules.test_replay import ANNA_WINS_2, CORPUS, line_of, mat, row, wins

NAMES = ("Anna", "Bruno")


def replayed(text):
    replay = replay_match(read_mat(text))
    strict = StrictTranslator()
    for said in (*replay.problems, *replay.notes):  # each renders, with every parameter
        assert said.note.render(strict).startswith("«")
    return replay


def kinds(replay):
    return [problem.kind for problem in replay.problems]


def results(games):
    return [(g.winner, g.points, g.result.outcome if g.result else None) for g in games]


def plays(games):
    return [[a.position for a in game.log if a.act is Act.PLAY] for game in games]


# --- forced moves the server played --------------------------------------------------


def forced(game, index):
    """Whether the play at ``index`` of an engine game's log was the roll's only legal play."""
    before = game.log[index - 1]
    return before.dice is not None and len(legal_plays(before.position, before.dice)) == 1


def as_servers_write(games, *, empty=lambda game, index: True):
    """The engine's games written as some servers write them.

    A forced move (where ``empty`` says so) is written as the roll alone, and a roll
    followed by the roller's resignation is written, though nothing was played.
    """
    written = []
    for game, plain in zip(games, written_games(games), strict=True):
        cells = iter(plain.cells)
        out = []
        for index, action in enumerate(game.log):
            act = action.act
            if act in (Act.PLAY, Act.NO_PLAY, Act.DOUBLE, Act.TAKE, Act.DROP):
                cell = next(cells)
                if act is Act.PLAY and forced(game, index) and empty(game, index):
                    dice = game.log[index - 1].dice
                    cell = Cell(action.player, f"{dice[0]}{dice[1]}:")
                out.append(cell)
            elif act is Act.ROLL and game.log[index + 1].act is Act.RESIGN:
                out.append(Cell(action.player, f"{action.dice[0]}{action.dice[1]}:"))
        written.append(
            WrittenGame(plain.score, tuple(out), plain.winner, plain.points, plain.wins_match)
        )
    return written


def first_forced(where):
    """A seeded match with a forced play that ``where`` picks out, and that play's place."""
    for seed in range(500):
        _, games = random_match(seed, 3)
        for number, game in enumerate(games):
            for index, action in enumerate(game.log):
                if action.act is Act.PLAY and forced(game, index) and where(action.steps):
                    return games, number, index
    raise AssertionError("no such forced play in 500 seeded matches")


@pytest.mark.parametrize(
    "where",
    [
        pytest.param(lambda steps: any(s.source == 25 for s in steps), id="entering-from-the-bar"),
        pytest.param(lambda steps: any(s.destination == 0 for s in steps), id="bearing-off"),
    ],
)
def test_a_forced_move_written_as_the_roll_alone_was_played(where):
    games, number, index = first_forced(where)
    only = lambda game, at: game is games[number] and at == index  # noqa: E731
    text = format_mat(length=3, players=NAMES, games=as_servers_write(games, empty=only))
    dice = games[number].log[index - 1].dice
    assert f"{dice[0]}{dice[1]}:\n" in text or f"{dice[0]}{dice[1]}:  " in text
    replay = replayed(text)
    assert replay.problems == ()  # no illegal play, and the board did not drift after it
    assert plays(replay.games) == plays(games)
    assert results(replay.games) == [
        (g.result.winner, g.result.points, g.result.outcome) for g in games
    ]


@pytest.mark.parametrize("nothing", ["", " .", " -", " cannot move"])
def test_an_empty_play_where_a_choice_was_due_is_an_illegal_play_that_says_nothing_was_played(
    nothing,
):
    # WBF 17: Anna's 3-1 can be played many ways, and Bruno rolls after it: it stands
    anna = f"31:{nothing}"
    text = mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, anna, "52: 13/8 13/11")]))
    replay = replayed(text)
    problem = replay.problems[0]
    assert (problem.line, problem.kind) == (line_of(text, anna), ProblemKind.ILLEGAL_PLAY)
    assert problem.message.startswith("Anna plays nothing with 3-1: WBF 17")
    assert "It stands: once the opponent rolls" in problem.message
    assert "''" not in problem.message and "'.'" not in problem.message


DANCED = "td-gammon_002-gnubg-BGBlitz_7-pt_15_gnubg.mat"
DANCE_ROW = b" 12) 43: 25/21 25/22*            63:     "  # a 6-3 from the bar, both points held


@pytest.mark.parametrize("nothing", [".", "-", "cannot move", "Dance"])
def test_a_dance_written_as_no_play_is_the_dance_it_is_wbf_17(nothing):
    # a false "illegal play" accuses the player: a roll with no legal play, written as
    # no play, loses the turn as the roll written alone does
    original = (CORPUS / DANCED).read_bytes()
    assert original.count(DANCE_ROW) == 1
    text = original.replace(DANCE_ROW, DANCE_ROW[:-4] + nothing.encode())
    replay, before = replayed(text), replayed(original)
    assert replay.problems == before.problems == ()
    assert plays(replay.games) == plays(before.games)
    assert results(replay.games) == results(before.games)


# --- a roll, then a resignation; a log cut off ---------------------------------------------


@pytest.mark.parametrize(
    "lines, winner",
    [
        # Anna rolls 5-2 and Bruno's win is on the same line
        ([row(1, "", "41: 13/9 24/23"), row(2, "52:", "Wins 1 point")], 1),
        # Bruno rolls 6-4 and Anna's win follows on the next line
        ([row(1, "", "41: 13/9 24/23"), row(2, "31: 8/5 6/5", "64:"), wins(0, 2)], 0),
    ],
)
def test_a_roll_then_the_opponents_win_is_a_resignation_after_rolling(lines, winner):
    replay = replayed(mat(((0, 0), lines), length=5))
    assert kinds(replay) == [ProblemKind.UNFINISHED]  # a one-game file of a 5-point match
    game = replay.games[0]
    assert (game.winner, game.result.outcome) == (winner, Outcome.RESIGNATION)
    assert [a.act for a in game.log][-3:] == [Act.ROLL, Act.RESIGN, Act.ACCEPT]


def test_a_log_cut_off_after_a_roll_accuses_nobody():
    text = mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, "52:")]), length=5)
    replay = replayed(text)
    assert kinds(replay) == [ProblemKind.NO_RESULT, ProblemKind.UNFINISHED]
    assert replay.games[0].result is None and "52:" in replay.to_mat()


def test_a_log_cut_off_after_an_unknown_play_accuses_nobody():
    replay = replayed(mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, "52: ???")]), length=5))
    assert kinds(replay) == [ProblemKind.NO_RESULT, ProblemKind.UNFINISHED]


# --- a match continued from another file ----------------------------------------------------

SIX_FIVE = [row(1, "", "41: 13/9 24/23"), row(2, "31: 8/5 6/5", "Wins 1 point")]


def test_a_file_that_continues_a_match_counts_from_its_written_score():
    bruno_1 = [row(1, "31: 8/5 6/5", "Wins 1 point")]
    anna_1 = [row(1, "", "41: 13/9 24/23"), row(2, "62: 13/7 13/11"), wins(0, 1)]
    text = mat(
        ((3, 1), bruno_1),
        ((3, 2), ANNA_WINS_2),
        ((5, 2), [row(1, "31: 8/5 6/5", " Doubles => 2"), row(2, " Drops"), wins(1, 1)]),
        ((5, 3), anna_1),
        ((6, 3), bruno_1),  # the Crawford game
        (
            (6, 4),
            [row(1, "", "41: 13/9 24/23"), row(2, " Doubles => 2", " Drops"), wins(0, 1, True)],
        ),
        length=7,
    )
    replay = replayed(text)
    assert replay.problems == ()
    (note,) = replay.notes
    assert (note.line, note.kind) == (line_of(text, "Anna : 3"), ProblemKind.CONTINUED)
    assert note.message == "this file continues a match at 3-1: the score is counted from there"
    assert [g.score_before for g in replay.games] == [
        (3, 1),
        (3, 2),
        (5, 2),
        (5, 3),
        (6, 3),
        (6, 4),
    ]
    assert replay.crawford_game == 5
    assert replay.final_score == (7, 4) and replay.winner == 0


def test_a_continued_match_one_point_away_without_a_double_starts_with_the_crawford_game():
    text = mat(((6, 5), SIX_FIVE), ((6, 6), ANNA_WINS_2[:3] + [wins(0, 2, True)]), length=7)
    replay = replayed(text)
    assert replay.problems == ()
    assert [g.crawford for g in replay.games] == [True, False]
    assert replay.final_score == (7, 6) and replay.winner == 0


def test_a_double_in_the_first_game_shows_the_crawford_game_was_already_played():
    # at 6-5 in a 7-point match, a double: the Crawford game came in the other file (WBF 24)
    lines = [
        row(1, "", "41: 13/9 24/23"),
        row(2, "31: 8/5 6/5", " Doubles => 2"),
        row(3, " Takes", "52: 13/8 13/11"),
        row(4, "64: 24/18 13/9"),
        wins(1, 2, True),
    ]
    text = mat(((6, 5), lines), length=7)
    replay = replayed(text)
    assert replay.problems == ()
    assert not replay.games[0].crawford and replay.games[0].cube == 2
    assert "Crawford game was already played (WBF 24)" in replay.notes[0].message
    assert replay.final_score == (6, 7) and replay.winner == 1


def test_a_double_in_the_crawford_game_of_a_file_begun_at_zero_is_still_a_problem():
    crawford = [row(1, "", "41: 13/9 24/23"), row(2, " Doubles => 2", " Drops"), wins(0, 1, True)]
    text = mat(((0, 0), ANNA_WINS_2), ((2, 0), crawford))
    assert ProblemKind.CRAWFORD_DOUBLE in kinds(replayed(text))


# --- an even length -------------------------------------------------------------------------


def test_an_even_length_match_is_replayed_as_a_match_of_that_length_with_one_note():
    anna_1 = [row(1, "", "41: 13/9 24/23"), row(2, "62: 13/7 13/11"), wins(0, 1)]
    text = mat(
        ((0, 0), ANNA_WINS_2),
        ((2, 0), anna_1),
        ((3, 0), [row(1, "31: 8/5 6/5", "Wins 1 point")]),  # the Crawford game
        ((3, 1), anna_1[:2] + [wins(0, 1, True)]),
        length=4,
    )
    replay = replayed(text)
    assert replay.problems == ()
    (note,) = replay.notes
    assert (note.line, note.kind) == (line_of(text, "4 point match"), ProblemKind.LENGTH)
    assert "odd number of points (WBF 3)" in note.message and "a match to 4" in note.message
    # a match, not money games: a Crawford game at 3-0, and the match has a winner
    assert [g.crawford for g in replay.games] == [False, False, True, False]
    assert replay.final_score == (4, 1) and replay.winner == 0


# --- gnubg's header options -----------------------------------------------------------------


def test_a_double_at_two_nil_of_a_crawford_off_match_is_legal():
    game_2 = [row(1, "", "41: 13/9 24/23"), row(2, " Doubles => 2", " Drops"), wins(0, 1, True)]
    plain = mat(((0, 0), ANNA_WINS_2), ((2, 0), game_2))
    assert ProblemKind.CRAWFORD_DOUBLE in kinds(replayed(plain))
    replay = replayed('; [Crawford "Off"]\n' + plain)
    assert replay.problems == () and replay.crawford_game is None
    assert replay.final_score == (3, 0)


def money_gammon(seed_range=range(300)):
    """A money game from seeded random play that ends in a gammon, its cube never turned."""
    for seed in seed_range:
        game = Game(GameContext(rules=MoneyRules(jacoby=True)), dice=SeededDice(seed))
        while not game.over:
            if game.phase is Phase.OPENING:
                game.roll_opening()
            elif game.phase is Phase.MOVE:
                game.play(min(game.legal_plays, key=lambda p: p.notation))
            else:
                game.roll()
        plain = Game.replay(game.log, GameContext(rules=MoneyRules()))  # without the rule
        if plain.result.outcome is Outcome.GAMMON:
            return game
    raise AssertionError("no gammon in 300 seeded games")


def test_the_jacoby_rule_of_a_money_session_is_read_from_the_header():
    game = money_gammon()
    assert (game.result.points, game.result.outcome) == (1, Outcome.SINGLE)  # Jacoby: single
    text = format_mat(length=0, players=NAMES, games=written_games([game]))
    assert kinds(replayed(text)) == [ProblemKind.RESULT]  # without the rule: a gammon, 2
    replay = replayed('; [Jacoby "On"]\n' + text)
    assert replay.problems == () and replay.final_score[game.result.winner] == 1


def test_a_nackgammon_match_starts_from_nackgammons_position():
    options = MatchRules(3, variation=Variation.NACKGAMMON)
    match, games = random_match(5, 3, options=options)
    assert games[0].log[0].position == Variation.NACKGAMMON.start
    tags = [("Variation", "NackGammon")]  # as gnubg writes it
    text = format_mat(length=3, players=NAMES, games=written_games(games), tags=tags)
    replay = replayed(text)
    assert replay.problems == ()
    assert plays(replay.games) == plays(games)
    assert replay.final_score == match.score
    # read as standard backgammon, the same file breaks the rules
    standard = format_mat(length=3, players=NAMES, games=written_games(games))
    assert ProblemKind.ILLEGAL_PLAY in kinds(replayed(standard))


@pytest.mark.parametrize("variation", ["Hypergammon3", "Hypergammon", "Acey-deucey"])
def test_a_variation_the_engine_does_not_play_is_refused_in_plain_words(variation):
    text = f'; [Site "FIBS"]\n; [Variation "{variation}"]\n' + mat(((0, 0), ANNA_WINS_2))
    with pytest.raises(MatFileError) as refused:
        read_mat(text)
    assert refused.value.line == 2
    assert str(refused.value) == (
        f"line 2: the file plays the variation '{variation}': "
        "Crawford replays standard backgammon and Nackgammon only"
    )


# --- words ----------------------------------------------------------------------------------


def test_an_illegal_play_stands_only_where_the_opponent_then_rolled_or_doubled():
    def message(after):
        lines = [row(1, "", "41: 13/9 24/23"), row(2, "31: 8/5", after)]
        return replayed(mat(((0, 0), [*lines, wins(1, 1)]))).problems[0].message

    assert "It stands: once the opponent rolls" in message("52: 13/8 13/11")
    assert "It stands: once the opponent rolls" in message(" Doubles => 2")
    last = replayed(mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, "31: 8/5")])))
    assert last.problems[0].message == (
        "Anna plays '8/5' with 3-1: WBF 17: both dice can be played, so both must be"
    )


def test_a_roll_that_is_not_two_dice_cites_the_rule_on_dice():
    from rules.errors import InvalidDiceError
    from rules.movegen import check_dice

    with pytest.raises(InvalidDiceError) as refused:
        check_dice((7, 1))
    assert refused.value.rule == "WBF 11"  # two six-sided dice (WBF 9 is the direction)


# --- every convention at once ---------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    length=st.sampled_from([3, 5, 7, 9]),
    split=st.integers(1, 40),
)
def test_a_file_rewritten_as_servers_write_it_replays_to_the_same_games(seed, length, split):
    match, games = random_match(seed, length, rolled_resign_rate=0.01)
    expected = [(g.result.winner, g.result.points, g.result.outcome) for g in games]
    written = as_servers_write(games)
    whole = replayed(format_mat(length=length, players=NAMES, games=written))
    assert whole.problems == () and whole.notes == ()
    assert results(whole.games) == expected and plays(whole.games) == plays(games)
    assert (whole.final_score, whole.winner) == (match.score, match.winner)
    # the same match in two files, split at a game boundary
    assume(len(games) > 1)
    at = 1 + split % (len(games) - 1)
    first = replayed(format_mat(length=length, players=NAMES, games=written[:at]))
    second = replayed(format_mat(length=length, players=NAMES, games=written[at:]))
    assert kinds(first) == [ProblemKind.UNFINISHED] and second.problems == ()
    assert [note.kind for note in second.notes] == [ProblemKind.CONTINUED]
    assert results(first.games) + results(second.games) == expected
    assert (second.final_score, second.winner) == (match.score, match.winner)


def test_the_rewritten_files_hold_each_convention():
    """The property test above meets forced moves written empty and resignations after a roll."""
    forced_plays = rolled_resignations = 0
    for seed in range(20):
        _, games = random_match(seed, 5, rolled_resign_rate=0.01)
        for game in games:
            for index, action in enumerate(game.log):
                forced_plays += action.act is Act.PLAY and forced(game, index)
                rolled_resignations += (
                    action.act is Act.ROLL and game.log[index + 1].act is Act.RESIGN
                )
    assert forced_plays > 10 and rolled_resignations > 2


# --- a server that bears off by itself ("greedy" bear-off) -----------------------------------


def greedy_match(seed, length, *, nothing_at=None):
    """A match the engine plays at random, bearing off as a greedy server does: whenever
    the roll bears a checker off, the first of the greedy plays. ``nothing_at``: (game,
    turn) where the player on roll plays nothing instead, in the bear-off (an illegal play
    a player really made, which the opponent accepted by rolling, WBF 14).
    """
    import random

    from rules.dice import SeededDice
    from rules.match import Match
    from rules.movegen import greedy_plays

    chooser, dice = random.Random(seed), SeededDice(seed)
    match, games = Match(length), []
    while not match.over:
        game = Game(match.next_game, dice=dice)
        while not game.over:
            if game.phase is Phase.OPENING:
                game.roll_opening()
            elif game.phase is Phase.ROLL:
                if Act.DOUBLE in game.available() and chooser.random() < 0.05:
                    game.double()
                else:
                    game.roll()
            elif game.phase is Phase.MOVE:
                greedy = greedy_plays(game.position, game.dice)
                turn = (len(games), sum(game.turns))
                if greedy and nothing_at == turn and len(game.legal_plays) > 1:
                    game.play("", accept_illegal=True)
                elif greedy:
                    game.play(greedy[0])
                else:
                    game.play(chooser.choice(game.legal_plays))
            elif game.phase is Phase.DOUBLED:
                (game.take if chooser.random() < 0.7 else game.drop)()
        games.append(game)
        match = match.add(game.result)
    return match, games


def greedy_turn(game, index):
    """Whether the action at ``index`` is a play a greedy server makes by itself."""
    from rules.movegen import greedy_plays

    action, before = game.log[index], game.log[index - 1]
    return (
        action.act is Act.PLAY
        and action.steps is not None
        and bool(greedy_plays(before.position, before.dice))
    )


def as_greedy_servers_write(games):
    """The games with every play a greedy server makes written as the roll alone."""
    written = []
    for game, plain in zip(games, written_games(games), strict=True):
        cells, out = iter(plain.cells), []
        for index, action in enumerate(game.log):
            if action.act in (Act.PLAY, Act.NO_PLAY, Act.DOUBLE, Act.TAKE, Act.DROP):
                cell = next(cells)
                if greedy_turn(game, index):
                    dice = game.log[index - 1].dice
                    cell = Cell(action.player, f"{dice[0]}{dice[1]}:")
                out.append(cell)
        written.append(
            WrittenGame(plain.score, tuple(out), plain.winner, plain.points, plain.wins_match)
        )
    return written


def noted_games(games):
    """The games where a greedy server wrote a roll alone that had more than one play."""
    noted = []
    for number, game in enumerate(games, 1):
        for index in range(1, len(game.log)):
            before = game.log[index - 1]
            if greedy_turn(game, index) and len(legal_plays(before.position, before.dice)) > 1:
                noted.append(number)
                break
    return noted


def test_a_greedy_bear_off_written_as_the_rolls_alone_accuses_nobody():
    # the seed's bear-offs: rolls written without a play where checkers came off; the
    # replay bears off as many as each roll allows and notes it once a game
    _, games = greedy_match(3, 5)
    text = format_mat(length=5, players=NAMES, games=as_greedy_servers_write(games))
    assert noted_games(games)  # the file has such rolls, with a choice to make
    replay = replayed(text)
    assert replay.problems == ()
    assert plays(replay.games) == plays(games)
    assert results(replay.games) == [
        (g.result.winner, g.result.points, g.result.outcome) for g in games
    ]
    notes = replay.notes
    assert [note.game for note in notes] == noted_games(games)
    assert {note.kind for note in notes} == {ProblemKind.GREEDY_BEAR_OFF}
    assert notes[0].message.startswith(f"in game {notes[0].game} the server bore off by itself")
    assert str(notes[0].heading) == "automatic bear-off"
    # the file written back holds the plays the server made
    rewritten = replayed(replay.to_mat())
    assert rewritten.problems == () and rewritten.notes == ()


def test_nothing_played_where_a_play_was_due_outside_the_bear_off_is_still_reported():
    # 3-1 from the start is no bear-off: an empty play there is WBF 17's, as before
    text = mat(((0, 0), [row(1, "", "41: 13/9 24/23"), row(2, "31:", "52: 13/8 13/11")]))
    replay = replayed(text)
    assert kinds(replay)[0] is ProblemKind.ILLEGAL_PLAY and replay.notes == ()


NOTHING_AT = (0, 101)  # seed 3: the first game's 102nd play, in the bear-off


def test_nothing_played_in_the_bear_off_that_the_later_lines_bear_out_is_still_reported():
    # the player really played nothing with a roll that bore off checkers: their next
    # plays move the checkers a greedy server would have taken off, so nobody bore off
    _, games = greedy_match(3, 5, nothing_at=NOTHING_AT)
    illegal = [
        (number, action)
        for number, game in enumerate(games, 1)
        for action in game.log
        if action.act is Act.PLAY and action.illegal
    ]
    assert len(illegal) == 1
    number, action = illegal[0]
    written = written_games(games)
    replay = replayed(format_mat(length=5, players=NAMES, games=written))
    assert [(p.game, p.kind) for p in replay.problems] == [(number, ProblemKind.ILLEGAL_PLAY)]
    assert replay.problems[0].message.startswith(f"{NAMES[action.player]} plays nothing with")
    assert plays(replay.games) == plays(games) and replay.notes == ()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.sampled_from([1, 3, 5]))
def test_an_engine_bear_off_written_greedily_replays_to_the_same_games(seed, length):
    match, games = greedy_match(seed, length)
    text = format_mat(length=length, players=NAMES, games=as_greedy_servers_write(games))
    replay = replayed(text)
    assert replay.problems == ()
    assert plays(replay.games) == plays(games)
    assert results(replay.games) == [
        (g.result.winner, g.result.points, g.result.outcome) for g in games
    ]
    assert (replay.final_score, replay.winner) == (match.score, match.winner)
    assert [note.game for note in replay.notes] == noted_games(games)
