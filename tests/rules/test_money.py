"""Money play through rules.game.Game: what each ending is worth under the options agreed
(the Jacoby rule, beavers, raccoons, automatic doubles, a highest cube; Galore 2.8, 5.4)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalActionError
from rules.dice import EnteredDice, SeededDice
from rules.game import Act, Game, Phase
from rules.match import GameContext, GameResult, MatchRules, MoneyRules, Outcome
from rules.matchid import Resignation
from rules.money import Level, automatic_cube, game_value
from rules.replay import written_games
from tests.rules.helpers import board

# The loser's checkers (own numbering) when the winner bears off the last one (WBF 25)
LOSERS = {
    Level.SINGLE: {6: 14},  # one checker off
    Level.GAMMON: {6: 15},  # none off
    Level.BACKGAMMON: {6: 14, 20: 1},  # none off, one in the winner's home board
}


def money(rules=None, *rolls):
    return Game(GameContext(rules=rules or MoneyRules()), dice=EnteredDice(*rolls))


def opened(rules=None):
    """Player 0 has played the opening 3-1, player 1 a 5-2: player 0 is on roll."""
    game = money(rules, (3, 1))
    game.roll_opening()
    game.play("8/5 6/5")
    game.roll((5, 2))
    game.play("13/8 13/11")
    return game


def bear_off_last(game, level):
    """The player on roll bears off their last checker; the loser's board says the level."""
    game.position = board({6: 1}, LOSERS[level])
    game.roll((6, 5))
    game.play("6/off")
    return game.result


def doubled_and_taken(rules):
    """Player 0 doubles to 2, player 1 takes and then doubles to 4, player 0 takes."""
    game = opened(rules)
    game.double()
    game.take()
    game.roll((6, 5))
    game.play("13/7 13/8")
    game.double()
    game.take()
    return game  # cube 4, player 0 owns it, player 1 on roll


# --- game_value itself ---------------------------------------------------------------


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("cube", [1, 2, 8])
def test_game_value_is_the_cube_times_the_level_wbf_25(level, cube):
    assert game_value(level, cube=cube, cube_turned=True, rules=MoneyRules()) == cube * level
    assert game_value(level, cube=cube, cube_turned=False, rules=MoneyRules()) == cube * level


@pytest.mark.parametrize("level", list(Level))
def test_game_value_under_jacoby_is_single_until_the_cube_is_turned_galore_2_8(level):
    jacoby = MoneyRules(jacoby=True)
    assert game_value(level, cube=2, cube_turned=False, rules=jacoby) == 2
    assert game_value(level, cube=2, cube_turned=True, rules=jacoby) == 2 * level


# --- every ending of a game, under the Jacoby rule or not (Galore 2.8, WBF 25) ----------


@pytest.mark.parametrize("jacoby", [False, True])
@pytest.mark.parametrize("level", list(Level))
def test_an_ending_on_the_board_with_the_cube_unturned_galore_2_8(jacoby, level):
    """Unturned cube: the Jacoby rule counts a gammon or backgammon single (Galore 2.8)."""
    result = bear_off_last(opened(MoneyRules(jacoby=jacoby)), level)
    worth = 1 if jacoby else int(level)
    assert (result.winner, result.points, result.cube) == (0, worth, 1)
    assert result.outcome.multiplier == worth  # scored as the level it counts for


@pytest.mark.parametrize("jacoby", [False, True])
@pytest.mark.parametrize("level", list(Level))
def test_an_ending_on_the_board_after_the_cube_was_turned_galore_2_8(jacoby, level):
    """Once anyone has doubled, gammons count in full under the Jacoby rule too (WBF 25)."""
    game = doubled_and_taken(MoneyRules(jacoby=jacoby))
    result = bear_off_last(game, level)
    assert (result.winner, result.points, result.cube) == (1, 4 * int(level), 4)


@pytest.mark.parametrize("jacoby", [False, True])
def test_a_drop_pays_the_cube_before_the_double_galore_2_6(jacoby):
    game = doubled_and_taken(MoneyRules(jacoby=jacoby))
    game.roll((2, 1))
    game.play("24/22 24/23")  # player 1's, then player 0 redoubles to 8
    game.double()
    game.drop()
    assert game.result == GameResult(winner=0, points=4, outcome=Outcome.DROP, cube=4)


@pytest.mark.parametrize("jacoby", [False, True])
def test_a_first_double_dropped_pays_1_galore_2_6(jacoby):
    game = opened(MoneyRules(jacoby=jacoby))
    game.double()
    game.drop()
    assert game.result == GameResult(winner=0, points=1, outcome=Outcome.DROP, cube=1)


@pytest.mark.parametrize("jacoby", [False, True])
@pytest.mark.parametrize("level", [Resignation.SINGLE, Resignation.GAMMON, Resignation.BACKGAMMON])
def test_a_resignation_pays_its_level_common_practice(jacoby, level):
    """A resignation (common practice, scored as WBF 25) pays the level given up, single
    under the Jacoby rule while the cube is unturned (Galore 2.8)."""
    game = opened(MoneyRules(jacoby=jacoby))
    game.resign(level)
    game.accept_resignation()
    assert game.result.points == (1 if jacoby else int(level))
    turned = doubled_and_taken(MoneyRules(jacoby=jacoby))
    turned.resign(level)
    turned.accept_resignation()
    assert (turned.result.winner, turned.result.points) == (0, 4 * int(level))


# --- beavers and raccoons (Galore 2.8, 5.4) -----------------------------------------------

RACCOONS = MoneyRules(beavers=True, raccoons=True)


def beavered(rules=RACCOONS):
    """Player 0 doubles to 2, player 1 beavers to 4, keeping the cube (Galore 2.8)."""
    game = opened(rules)
    game.double()
    game.beaver()
    return game


def test_a_beaver_taken_and_a_gammon_under_jacoby_count_in_full_galore_2_8():
    game = beavered(MoneyRules(beavers=True, jacoby=True))
    game.take()
    assert (game.cube, game.cube_owner, game.cube_turned) == (4, 1, True)
    assert bear_off_last(game, Level.GAMMON).points == 8


def test_a_raccoon_turns_the_cube_again_after_a_beaver_galore_5_4():
    game = beavered()
    assert Act.RACCOON in game.available() and game.acting == 0
    game.raccoon()
    # the beaver accepted (4), the raccoon offers 8; the cube stays with the beaverer
    assert (game.cube, game.cube_owner, game.phase) == (4, 1, Phase.DOUBLED)
    assert game.acting == 1 and game.turn == 0
    assert game.available() == {Act.TAKE, Act.DROP}
    assert game.log[-1].act is Act.RACCOON and game.log[-1].player == 0
    assert str(game.log[-1].note) == "raccoons: redoubles to 8, the cube staying with the beaverer"


def test_a_raccoon_taken_leaves_the_cube_at_8_with_the_beaverer_galore_5_4():
    """During the immediate redoubles the cube does not change hands (Galore 5.4)."""
    game = beavered()
    game.raccoon()
    game.take()
    assert (game.cube, game.cube_owner, game.phase, game.turn) == (8, 1, Phase.ROLL, 0)
    assert game.log[-1].player == 1
    assert game.double_refusal() is not None  # the original doubler rolls; the cube is not theirs
    replayed = Game.replay(game.log, game.context)
    assert (replayed.cube, replayed.cube_owner, replayed.log) == (8, 1, game.log)
    assert bear_off_last(game, Level.SINGLE).points == 8


def test_a_raccoon_dropped_pays_the_cube_before_it_galore_5_4():
    """The beaverer drops the raccoon: the original doubler wins the beaver's 4."""
    game = beavered()
    game.raccoon()
    game.drop()
    assert game.result == GameResult(winner=0, points=4, outcome=Outcome.DROP, cube=4)
    assert Game.replay(game.log, game.context).log == game.log


def test_no_otter_after_a_raccoon_galore_5_4():
    """Otters are not offered: the beaverer answers a raccoon by taking or dropping."""
    game = beavered()
    game.raccoon()
    with pytest.raises(IllegalActionError, match=r"Galore 5\.4: .*\(no otters\)"):
        game.beaver()
    with pytest.raises(IllegalActionError, match=r"Galore 5\.4: .*\(no otters\)"):
        game.raccoon()


def test_a_raccoon_without_raccoons_agreed_is_refused_galore_5_4():
    game = beavered(MoneyRules(beavers=True))
    assert Act.RACCOON not in game.available()
    with pytest.raises(
        IllegalActionError, match=r"Galore 5\.4: this money game is played without raccoons"
    ):
        game.raccoon()


def test_a_raccoon_answers_only_a_beaver_galore_5_4():
    game = opened(RACCOONS)
    game.double()
    assert Act.RACCOON not in game.available()
    with pytest.raises(IllegalActionError, match=r"Galore 5\.4: a raccoon answers a beaver"):
        game.raccoon()
    game.take()
    with pytest.raises(IllegalActionError, match="a raccoon is not possible now"):
        game.raccoon()


def test_a_raccoon_in_a_match_is_refused_galore_4():
    game = Game(GameContext(rules=MatchRules(5)), dice=EnteredDice((3, 1)))
    game.roll_opening()
    game.play("8/5 6/5")
    game.double()
    with pytest.raises(IllegalActionError, match="Galore 4: raccoons are a money-play rule"):
        game.raccoon()


# --- automatic doubles (Galore 2.8) --------------------------------------------------------


def test_equal_opening_dice_double_the_cube_in_the_centre_galore_2_8():
    game = money(MoneyRules(automatic_doubles=1), (4, 4), (5, 5), (3, 1))
    game.roll_opening()
    assert (game.cube, game.cube_owner, game.cube_turned, game.phase) == (
        2,
        None,
        False,
        Phase.OPENING,
    )
    assert (
        str(game.log[-1].note)
        == "equal dice: automatic double, the cube at 2 in the centre; roll again"
    )
    game.roll_opening()  # a second tie: one automatic double agreed, the cube stays
    assert game.cube == 2 and str(game.log[-1].note) == "equal dice: roll again (WBF 12)"
    game.roll_opening()
    assert game.phase is Phase.MOVE and game.cube == 2
    assert Game.replay(game.log, game.context).cube == 2


def test_automatic_doubles_are_capped_by_their_count_galore_2_8():
    game = money(MoneyRules(automatic_doubles=2), (1, 1), (2, 2), (6, 6), (3, 1))
    for _ in range(4):
        game.roll_opening()
    assert (game.cube, game.automatic_doubles, game.phase) == (4, 2, Phase.MOVE)


def test_automatic_doubles_are_capped_by_the_highest_cube_galore_2_8():
    game = money(MoneyRules(automatic_doubles=5, max_cube=4), (1, 1), (2, 2), (6, 6), (3, 1))
    for _ in range(4):
        game.roll_opening()
    assert (game.cube, game.automatic_doubles) == (4, 2)


def test_no_automatic_double_unless_agreed_or_in_a_match_galore_2_8_and_4():
    game = money(MoneyRules(), (4, 4), (3, 1))
    game.roll_opening()
    assert game.cube == 1
    match = Game(GameContext(rules=MatchRules(5)), dice=EnteredDice((4, 4), (3, 1)))
    match.roll_opening()
    assert match.cube == 1


def test_after_an_automatic_double_the_jacoby_rule_still_counts_a_gammon_single_galore_2_8():
    """An automatic double raises the cube but does not turn it."""
    game = money(MoneyRules(jacoby=True, automatic_doubles=1), (4, 4), (3, 1))
    game.roll_opening()
    game.roll_opening()
    game.play("8/5 6/5")
    assert bear_off_last(game, Level.GAMMON).points == 2


def test_after_an_automatic_double_either_player_may_double_galore_2_8():
    game = money(MoneyRules(automatic_doubles=1), (4, 4), (3, 1))
    game.roll_opening()
    game.roll_opening()
    game.play("8/5 6/5")
    assert game.turn == 1 and game.double_refusal() is None
    game.double()
    game.take()
    assert (game.cube, game.cube_owner) == (4, 0)


@given(
    st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=6),
    st.integers(0, 4),
    st.sampled_from([None, 2, 4, 8]),
)
def test_automatic_cube_is_the_game_s_cube_after_the_opening_rolls_galore_2_8(rolls, count, cap):
    rules = MoneyRules(automatic_doubles=count, max_cube=cap)
    game = money(rules, *rolls)
    for _ in rolls:
        if game.phase is not Phase.OPENING:
            break
        game.roll_opening()
    assert game.cube == automatic_cube(rolls, rules)
    assert game.cube <= 2**count and (cap is None or game.cube <= cap)


# --- the highest cube (Galore 2.8) ----------------------------------------------------------


def test_a_double_past_the_highest_cube_is_refused_galore_2_8():
    game = opened(MoneyRules(max_cube=2))
    game.double()
    game.take()
    game.roll((6, 5))
    game.play("13/7 13/8")
    assert Act.DOUBLE not in game.available()
    with pytest.raises(
        IllegalActionError, match=r"Galore 2\.8: the cube may not pass 2, the highest agreed: not 4"
    ):
        game.double()


def test_a_double_past_the_highest_cube_after_automatic_doubles_is_refused_galore_2_8():
    game = money(MoneyRules(automatic_doubles=1, max_cube=2), (4, 4), (3, 1))
    game.roll_opening()
    game.roll_opening()
    game.play("8/5 6/5")
    assert game.double_refusal().rule == "Galore 2.8"


def test_a_beaver_past_the_highest_cube_is_refused_galore_2_8():
    game = opened(MoneyRules(beavers=True, max_cube=2))
    game.double()
    assert game.available() == {Act.TAKE, Act.DROP}
    with pytest.raises(
        IllegalActionError, match=r"Galore 2\.8: the cube may not pass 2, the highest agreed: not 4"
    ):
        game.beaver()


def test_a_raccoon_past_the_highest_cube_is_refused_galore_2_8():
    game = beavered(MoneyRules(beavers=True, raccoons=True, max_cube=4))
    assert Act.RACCOON not in game.available()
    with pytest.raises(
        IllegalActionError, match=r"Galore 2\.8: the cube may not pass 4, the highest agreed: not 8"
    ):
        game.raccoon()


# --- properties over random money games -------------------------------------------------------

options = st.builds(
    lambda jacoby, beavers, raccoons, automatic, cap: MoneyRules(
        jacoby=jacoby,
        beavers=beavers or raccoons,
        raccoons=raccoons,
        automatic_doubles=automatic,
        max_cube=cap,
    ),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(0, 3),
    st.sampled_from([None, 2, 4, 8, 16, 64]),
)


def play_randomly(game, chooser, limit=400):
    """Random legal actions until the game ends or ``limit`` actions: doubles often, mostly
    taken, beavered or raccooned where allowed, a resignation now and then, mostly refused."""
    for _ in range(limit):
        if game.over:
            return
        acts = game.available()
        draw = chooser.random()
        if Act.TAKE in acts:
            bold = [a for a in (Act.BEAVER, Act.RACCOON) if a in acts]
            act = (
                Act.DROP
                if draw < 0.1
                else chooser.choice(bold)
                if bold and draw < 0.6
                else Act.TAKE
            )
        elif Act.ACCEPT in acts:
            act = Act.ACCEPT if draw < 0.1 else Act.REJECT
        elif Act.DOUBLE in acts and draw < 0.3:
            act = Act.DOUBLE
        elif Act.RESIGN in acts and draw < 0.02:
            act = Act.RESIGN
        else:
            act = next(a for a in (Act.OPENING_ROLL, Act.ROLL, Act.PLAY) if a in acts)
        if act is Act.PLAY:
            game.play(chooser.choice(game.legal_plays))
        elif act is Act.RESIGN:
            game.resign(chooser.choice([1, 2, 3]))
        else:
            method = {
                Act.OPENING_ROLL: game.roll_opening,
                Act.ROLL: game.roll,
                Act.DOUBLE: game.double,
                Act.TAKE: game.take,
                Act.DROP: game.drop,
                Act.BEAVER: game.beaver,
                Act.RACCOON: game.raccoon,
                Act.ACCEPT: game.accept_resignation,
                Act.REJECT: game.reject_resignation,
            }[act]
            method()
        yield game


@settings(max_examples=60, deadline=None)
@given(options, st.integers(0, 10**6))
def test_the_cube_is_a_power_of_2_never_past_the_highest_galore_2_8(rules, seed):
    """Whatever the options and the actions: the cube is a power of 2, never past the
    highest cube agreed; a finished game is worth game_value of its ending; the log
    replays to the same game."""
    game = Game(GameContext(rules=rules), dice=SeededDice(seed))
    chooser = random.Random(seed)
    for _ in play_randomly(game, chooser):
        cube = game.cube
        assert cube >= 1 and cube & (cube - 1) == 0
        assert rules.max_cube is None or cube <= rules.max_cube
        assert game.cube_turned == (game.cube_owner is not None)
    if game.over:
        result = game.result
        if result.outcome in (Outcome.DROP,):
            assert result.points == result.cube
        else:
            assert result.points in {
                game_value(level, cube=result.cube, cube_turned=game.cube_turned, rules=rules)
                for level in Level
            }
    replayed = Game.replay(game.log, game.context)
    assert (replayed.cube, replayed.cube_owner, replayed.result) == (
        game.cube,
        game.cube_owner,
        game.result,
    )


def test_a_raccoon_is_written_as_the_redouble_it_offers():
    """No match file has a word for a raccoon (gnubg plays none): the cell names it."""
    game = beavered()
    game.raccoon()
    cells = [cell.text for cell in written_games([game])[0].cells]
    assert cells[-3:] == [" Doubles => 2", " Beavers => 4", " Raccoons => 8"]
