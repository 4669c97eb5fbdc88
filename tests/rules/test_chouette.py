"""The chouette engine, rule by rule (Galore 3, 2.8, 5.4; club practice for the variants).

Each test names the section it holds the engine to. Players are short names; the opening
helper gives them dice 6, 5, 4, ... so the order is the order written.
"""

import ast
from pathlib import Path

import pytest

import rules.chouette
import tests.rules.test_message_catalog as catalog
from rules.chouette import (
    Answer,
    AutomaticDouble,
    Back,
    BoxAnswers,
    BoxDoubles,
    BoxKeeping,
    Chouette,
    ChouetteReplayError,
    ChouetteSettings,
    Consultation,
    CubeMode,
    Deal,
    End,
    ExtraAnswer,
    ExtraDouble,
    ExtraRedouble,
    Join,
    Leave,
    Lineup,
    MemberDoubles,
    Opening,
    Partner,
    Raccoon,
    Rest,
    StartGame,
    UndoGame,
    describe,
    describe_settings,
    from_dict,
    replay,
)
from rules.errors import IllegalActionError, RulesError
from rules.messages import CATALOG
from rules.money import Level, MoneyRules
from rules.position import Variation
from rules.settlement import Transfer
from tests.rules.helpers import StrictTranslator

SINGLE = ChouetteSettings()
MULTI = ChouetteSettings(cubes=CubeMode.MULTIPLE)
WIN, LOSE = End(box_wins=True, level=Level.SINGLE), End(box_wins=False, level=Level.SINGLE)


def opening(*players):
    """Dice 6, 5, 4, ... in the order written; above six players, pairs tie and roll again."""
    if len(players) <= 6:
        return Opening(tuple((p, 6 - i) for i, p in enumerate(players)))
    first = tuple((p, 6 - i // 2) for i, p in enumerate(players))
    return Opening(first + tuple((p, 2 - i % 2) for i, p in enumerate(players)))


def session(*events, settings=SINGLE, players=("ann", "bob", "cy", "dee")):
    return replay(settings, [opening(*players), *events])


def refused(chouette, event, key, rule):
    with pytest.raises(IllegalActionError) as error:
        chouette.apply(event)
    assert error.value.key == key
    assert error.value.rule == rule
    return error.value


def order(chouette):
    lineup = chouette.lineup
    return (lineup.box, lineup.partner, lineup.team)


def zero_sum(chouette):
    totals = chouette.totals()
    assert sum(totals.values()) == 0
    return totals


# --- Galore 3.1: the order, joining and leaving, the rotation ------------------------------


def test_galore_3_1_the_opening_roll_sets_box_captain_and_team():
    chouette = replay(SINGLE, [Opening((("ann", 2), ("bob", 6), ("cy", 4), ("dee", 1)))])
    assert order(chouette) == ("bob", None, ("cy", "ann", "dee"))
    assert chouette.lineup.captain == "cy"
    assert chouette.lineup.players == ("bob", "cy", "ann", "dee")


def test_galore_3_1_players_tied_roll_again_to_order_eight_players():
    rolls = (("a", 6), ("b", 6), ("c", 4), ("d", 4), ("e", 4), ("f", 1))
    rerolls = (("b", 5), ("a", 2), ("d", 3), ("c", 3), ("e", 6), ("c", 1), ("d", 2))
    chouette = replay(SINGLE, [Opening(rolls + rerolls + (("g", 2), ("h", 3)))])
    assert chouette.lineup.players == ("b", "a", "e", "d", "c", "h", "g", "f")


def test_galore_3_1_equal_dice_roll_again():
    start = Chouette.start(SINGLE)
    tie = Opening((("ann", 5), ("bob", 3), ("cy", 5)))
    error = refused(start, tie, "chouette-opening-tie", "Galore 3.1")
    assert error.params == {"player": "ann", "other": "cy"}
    refused(start, Opening((("ann", 7), ("bob", 3))), "chouette-opening-die", "Galore 3.1")
    refused(start, Opening((("ann", 3),)), "chouette-opening-players", "Galore 3.1")
    refused(start, Opening((("ann", 3), ("ann", 4))), "chouette-opening-reroll", "Galore 3.1")
    refused(
        start, Opening((("ann", 3), ("bob", 3), ("ann", 4))), "chouette-opening-tie", "Galore 3.1"
    )
    refused(start, StartGame(), "chouette-not-opened", "Galore 3.1")
    refused(session(), opening("x", "y"), "chouette-opened", "Galore 3.1")


def test_galore_3_1_a_newcomer_joins_at_the_bottom_and_players_leave_any_time():
    chouette = session(Join("eve"), Leave("bob"))
    assert order(chouette) == ("ann", None, ("cy", "dee", "eve"))
    refused(chouette, Join("cy"), "chouette-at-table", "Galore 3.1")
    refused(chouette, Leave("bob"), "chouette-not-at-table", "Galore 3.1")
    # the box leaves: the captain takes the box
    assert order(chouette.apply(Leave("ann"))) == ("cy", None, ("dee", "eve"))


def test_galore_3_1_a_break_and_the_return_at_the_bottom():
    chouette = session(Rest("bob"))
    assert order(chouette) == ("ann", None, ("cy", "dee"))
    assert chouette.lineup.resting == ("bob",)
    refused(chouette, Rest("bob"), "chouette-resting", "Galore 3.1")
    back = chouette.apply(Back("bob"))
    assert order(back) == ("ann", None, ("cy", "dee", "bob")) and back.lineup.resting == ()
    refused(back, Back("bob"), "chouette-not-resting", "Galore 3.1")
    # a player on a break may leave; the box resting hands the box to the captain
    assert chouette.apply(Leave("bob")).lineup.resting == ()
    assert order(chouette.apply(Rest("ann")))[0] == "cy"


def test_galore_3_1_the_last_player_cannot_leave_the_box_empty():
    alone = session(Leave("bob"), players=("ann", "bob"))
    refused(alone, Leave("ann"), "chouette-last-player", "Galore 3.1")
    refused(alone, StartGame(), "chouette-no-captain", "Galore 3.1")


def test_galore_3_1_who_is_in_a_game_leaves_only_after_it():
    chouette = session(StartGame(), BoxDoubles(("bob", "cy", "dee")), Answer("dee", "drop"))
    refused(chouette, Leave("bob"), "chouette-in-game", "Galore 3.1")
    refused(chouette, Rest("ann"), "chouette-in-game", "Galore 3.1")
    refused(chouette, StartGame(), "chouette-game-on", "Galore 3.1")
    gone = chouette.apply(Leave("dee")).apply(Join("eve"))  # out of the game: free to go
    after = gone.apply(Answer("bob", "take")).apply(Answer("cy", "take")).apply(WIN)
    assert order(after) == ("ann", None, ("cy", "eve", "bob"))
    assert zero_sum(after)["dee"] == -1


def test_galore_3_1_the_box_wins_the_captain_goes_to_the_bottom():
    chouette = session(StartGame(), WIN)
    assert order(chouette) == ("ann", None, ("cy", "dee", "bob"))
    assert zero_sum(chouette) == {"ann": 3, "bob": -1, "cy": -1, "dee": -1}
    assert chouette.games[0].box_wins and chouette.games[0].box_kept


def test_galore_3_1_the_team_wins_the_captain_takes_the_box():
    chouette = session(StartGame(), LOSE)
    assert order(chouette) == ("bob", None, ("cy", "dee", "ann"))
    assert zero_sum(chouette) == {"ann": -3, "bob": 1, "cy": 1, "dee": 1}
    assert not chouette.games[0].box_kept


def test_galore_3_5_the_box_keeps_the_box_until_beaten_by_the_captain():
    """Multiple cubes: the box loses to two members but beats the captain, and keeps it."""
    events = (
        StartGame(),
        MemberDoubles("cy"),
        MemberDoubles("dee"),
        BoxAnswers("cy", "drop"),
        BoxAnswers("dee", "drop"),
        WIN,
    )
    chouette = session(*events, settings=MULTI)
    assert zero_sum(chouette) == {"ann": -1, "bob": -1, "cy": 1, "dee": 1}
    assert order(chouette) == ("ann", None, ("cy", "dee", "bob"))
    assert chouette.games[0].box_wins and chouette.games[0].box_kept
    # NET (club practice): the same game loses the box, on balance
    net = ChouetteSettings(cubes=CubeMode.MULTIPLE, box_keeping=BoxKeeping.NET)
    assert order(session(*events, settings=net)) == ("bob", None, ("cy", "dee", "ann"))


def test_galore_3_3_and_3_5_a_captain_who_dropped_the_rotation_follows_the_acting_captain():
    """The captain dropped; the acting captain beat the box and takes it (Galore 3.3: the
    member still in "captains for the rest of the game"); the captain captains again."""
    events = (StartGame(), BoxDoubles(("bob",)), Answer("bob", "drop"), LOSE)
    chouette = session(*events, settings=MULTI)
    assert zero_sum(chouette) == {"ann": -1, "bob": -1, "cy": 1, "dee": 1}
    assert order(chouette) == ("cy", None, ("bob", "dee", "ann"))
    assert not chouette.games[0].box_wins and chouette.games[0].acting_captain == "cy"


def test_club_practice_net_box_keeping_goes_by_the_box_s_result():
    """NET: a box beaten by the captain but ahead on balance keeps the box."""
    net = ChouetteSettings(cubes=CubeMode.MULTIPLE, box_keeping=BoxKeeping.NET)
    ahead = (
        StartGame(),
        BoxDoubles(("cy", "dee")),
        Answer("cy", "drop"),
        Answer("dee", "drop"),
        LOSE,
    )
    chouette = session(*ahead, settings=net)
    assert zero_sum(chouette)["ann"] == 1
    assert order(chouette) == ("ann", None, ("cy", "dee", "bob"))
    assert order(session(*ahead, settings=MULTI)) == ("bob", None, ("cy", "dee", "ann"))


def test_club_practice_winners_move_up():
    moving = ChouetteSettings(cubes=CubeMode.MULTIPLE, winners_move_up=True)
    events = (StartGame(), MemberDoubles("dee"), BoxAnswers("dee", "drop"), WIN)
    assert order(session(*events, settings=moving)) == ("ann", None, ("dee", "cy", "bob"))
    assert order(session(*events, settings=MULTI)) == ("ann", None, ("cy", "dee", "bob"))


# --- Galore 3.3: the single cube ---------------------------------------------------------


def test_galore_3_3_each_member_answers_on_their_own_and_droppers_pay_and_are_out():
    chouette = session(StartGame(), BoxDoubles(("bob", "cy", "dee")))
    assert chouette.game.awaiting == ("bob", "cy", "dee")
    chouette = chouette.apply(Answer("cy", "drop"))
    assert chouette.game.playing == ("bob", "dee")
    assert chouette.game.ledger == (Transfer("cy", "ann", 1),)
    chouette = chouette.apply(Answer("bob", "take")).apply(Answer("dee", "take"))
    assert {m: chouette.game.cubes[m].value for m in ("bob", "dee")} == {"bob": 2, "dee": 2}
    assert chouette.game.cubes["bob"].owner == "member"
    finished = chouette.apply(LOSE)
    assert zero_sum(finished) == {"ann": -3, "bob": 2, "cy": -1, "dee": 2}


def test_galore_3_3_the_box_doubles_every_member_still_in():
    chouette = session(StartGame())
    refused(chouette, BoxDoubles(("bob",)), "chouette-box-doubles-all", "Galore 3.3")
    refused(chouette, BoxDoubles(()), "chouette-no-members", "Galore 3.3")
    refused(chouette, BoxDoubles(("bob", "bob")), "chouette-named-twice", "Galore 3.3")
    refused(chouette, Answer("bob", "take"), "chouette-no-offer", "Galore 3.3")
    doubled = chouette.apply(BoxDoubles(("bob", "cy", "dee")))
    refused(doubled, Answer("bob", "maybe"), "chouette-answer-word", "Galore 3.3")
    refused(doubled, WIN, "chouette-answer-due", "Galore 3.3")
    refused(doubled, MemberDoubles("bob"), "chouette-answer-due", "Galore 3.3")


def test_galore_3_3_a_captain_who_drops_hands_over_to_the_best_placed_member_still_in():
    chouette = session(
        StartGame(), BoxDoubles(("bob", "cy", "dee")), Answer("bob", "drop"), Answer("cy", "drop")
    )
    assert chouette.game.acting_captain == "dee"  # cy dropped too: dee is the best placed
    chouette = chouette.apply(Answer("dee", "take"))
    assert chouette.game.captain == "bob" and chouette.game.acting_captain == "dee"
    # the acting captain doubles for the team; nobody else may
    refused(chouette, MemberDoubles("bob"), "chouette-not-playing", "Galore 3.3")
    redoubled = chouette.apply(MemberDoubles("dee"))
    assert redoubled.game.awaiting == ("box",)
    finished = redoubled.apply(BoxAnswers("dee", "take")).apply(LOSE)
    assert zero_sum(finished) == {"ann": -2, "bob": -1, "cy": -1, "dee": 4}
    # the acting captain beat the box and takes it; the captain who dropped captains again
    assert order(finished) == ("dee", None, ("bob", "cy", "ann"))


def test_galore_3_3_the_team_doubles_through_its_acting_captain_and_the_box_answers_once():
    chouette = session(StartGame())
    error = refused(chouette, MemberDoubles("cy"), "chouette-acting-captain", "Galore 3.3")
    assert error.params == {"player": "bob"}
    doubled = chouette.apply(MemberDoubles("bob"))
    assert all(doubled.game.cubes[m].offered_by == "member" for m in ("bob", "cy", "dee"))
    refused(doubled, BoxAnswers("cy", "take"), "chouette-acting-captain", "Galore 3.3")
    taken = doubled.apply(BoxAnswers("bob", "take"))
    assert {c.value for c in taken.game.cubes.values()} == {2}
    assert {c.owner for c in taken.game.cubes.values()} == {"box"}
    dropped = doubled.apply(BoxAnswers("bob", "drop"))  # the box pays every member still in
    assert dropped.game is None
    assert zero_sum(dropped) == {"ann": -3, "bob": 1, "cy": 1, "dee": 1}
    assert order(dropped) == ("bob", None, ("cy", "dee", "ann"))


def test_galore_3_3_the_owner_alone_redoubles():
    chouette = session(StartGame(), BoxDoubles(("bob", "cy", "dee")))
    for member in ("bob", "cy", "dee"):
        chouette = chouette.apply(Answer(member, "take"))
    refused(chouette, BoxDoubles(("bob", "cy", "dee")), "chouette-box-cube", "WBF 23")
    team = chouette.apply(MemberDoubles("bob")).apply(BoxAnswers("bob", "take"))
    refused(team, MemberDoubles("bob"), "chouette-member-cube", "WBF 23")
    assert {c.value for c in team.game.cubes.values()} == {4}


def test_galore_3_4_with_five_players_the_last_member_must_drop_too():
    five = ("ann", "bob", "cy", "dee", "eve")
    chouette = session(
        StartGame(),
        BoxDoubles(("bob", "cy", "dee", "eve")),
        Answer("bob", "drop"),
        Answer("cy", "drop"),
        Answer("dee", "drop"),
        players=five,
    )
    refused(chouette, Answer("eve", "take"), "chouette-last-must-drop", "Galore 3.4")
    assert {e.answer for e in chouette.allowed() if isinstance(e, Answer)} == {"drop"}
    # a lone take answered before the others drop is turned into a drop at the last answer
    early = session(
        StartGame(),
        BoxDoubles(("bob", "cy", "dee", "eve")),
        Answer("eve", "take"),
        Answer("bob", "drop"),
        Answer("cy", "drop"),
        Answer("dee", "drop"),
        players=five,
    )
    assert early.game is None
    assert zero_sum(early) == {"ann": 4, "bob": -1, "cy": -1, "dee": -1, "eve": -1}


def test_galore_3_4_the_last_member_rule_needs_five_players_and_the_setting():
    four = session(
        StartGame(),
        BoxDoubles(("bob", "cy", "dee")),
        Answer("bob", "drop"),
        Answer("cy", "drop"),
        Answer("dee", "take"),
    )
    assert four.game.playing == ("dee",)
    off = ChouetteSettings(last_must_drop=False)
    five = session(
        StartGame(),
        BoxDoubles(("bob", "cy", "dee", "eve")),
        *(Answer(m, "drop") for m in ("bob", "cy", "dee")),
        Answer("eve", "take"),
        settings=off,
        players=("ann", "bob", "cy", "dee", "eve"),
    )
    assert five.game.playing == ("eve",)


def test_galore_3_4_extra_cubes_to_a_lone_taker():
    extra = ChouetteSettings(extra_cubes=True)
    chouette = session(
        StartGame(),
        BoxDoubles(("bob", "cy", "dee")),
        Answer("bob", "take"),
        Answer("cy", "drop"),
        Answer("dee", "drop"),
        settings=extra,
    )
    assert chouette.game.extra_window == ("cy", "dee")
    assert ExtraDouble("cy") in chouette.allowed()
    refused(chouette, ExtraDouble("bob"), "chouette-extra-not-now", "Galore 3.4")
    chouette = chouette.apply(ExtraDouble("cy"))
    refused(chouette, ExtraDouble("cy"), "chouette-extra-not-now", "Galore 3.4")
    (cube,) = chouette.game.extras
    assert (cube.member, cube.taker, cube.value, cube.owner) == ("cy", "bob", 2, "taker")
    refused(chouette, ExtraRedouble("cy", by_taker=False), "chouette-extra-owner", "WBF 23")
    refused(chouette, ExtraAnswer("cy", take=True), "chouette-extra-no-offer", "WBF 23")
    chouette = chouette.apply(ExtraRedouble("cy", by_taker=True))
    assert chouette.game.awaiting == ("cy",)
    chouette = chouette.apply(ExtraAnswer("cy", take=True))
    assert chouette.game.extras[0].value == 4 and chouette.game.extras[0].owner == "member"
    # the next cube action closes the window: dee gives no extra cube now
    chouette = chouette.apply(MemberDoubles("bob"))
    refused(chouette, ExtraDouble("dee"), "chouette-extra-not-now", "Galore 3.4")
    finished = chouette.apply(BoxAnswers("bob", "take")).apply(
        End(box_wins=False, level=Level.GAMMON)
    )
    # bob wins a gammon with the cube at 4 from the box (8) and the extra cube at 4 (8)
    assert zero_sum(finished) == {"ann": -6, "bob": 16, "cy": -9, "dee": -1}


def test_galore_3_4_an_extra_cube_dropped_and_extras_only_with_the_setting():
    events = (
        StartGame(),
        BoxDoubles(("bob", "cy", "dee")),
        Answer("bob", "take"),
        Answer("cy", "drop"),
        Answer("dee", "drop"),
    )
    refused(session(*events), ExtraDouble("cy"), "chouette-extra-off", "Galore 3.4")
    extra = ChouetteSettings(extra_cubes=True)
    chouette = session(
        *events,
        ExtraDouble("dee"),
        ExtraRedouble("dee", by_taker=True),
        ExtraAnswer("dee", take=False),
        settings=extra,
    )
    assert chouette.game.extras == ()
    assert chouette.game.ledger[-1] == Transfer("dee", "bob", 2)
    # an extra given and the lone taker beaten by the box: the taker pays it
    beaten = session(*events, ExtraDouble("cy"), WIN, settings=extra)
    assert zero_sum(beaten) == {"ann": 4, "bob": -4, "cy": 1, "dee": -1}


# --- Galore 3.5: multiple cubes ----------------------------------------------------------


def test_galore_3_5_the_box_doubles_some_members_and_not_others():
    chouette = session(StartGame(), BoxDoubles(("cy",)), settings=MULTI)
    assert chouette.game.awaiting == ("cy",)
    chouette = chouette.apply(Answer("cy", "take"))
    assert [chouette.game.cubes[m].value for m in ("bob", "cy", "dee")] == [1, 2, 1]
    assert chouette.box_may_double() == ("bob", "dee")
    finished = chouette.apply(WIN)
    assert zero_sum(finished) == {"ann": 4, "bob": -1, "cy": -2, "dee": -1}


def test_galore_3_5_each_member_doubles_the_box_on_their_own():
    chouette = session(StartGame(), MemberDoubles("cy"), MemberDoubles("dee"), settings=MULTI)
    assert chouette.game.awaiting == ("box",)
    refused(chouette, BoxDoubles(("bob",)), "chouette-answer-due", "Galore 3.5")
    refused(chouette, BoxAnswers("bob", "take"), "chouette-box-no-offer", "Galore 3.5")
    chouette = chouette.apply(BoxAnswers("cy", "take")).apply(BoxAnswers("dee", "drop"))
    assert chouette.game.playing == ("bob", "cy")
    assert chouette.game.cubes["cy"].owner == "box"
    refused(chouette, MemberDoubles("cy"), "chouette-member-cube", "WBF 23")
    finished = chouette.apply(WIN)
    assert zero_sum(finished) == {"ann": 2, "bob": -1, "cy": -2, "dee": 1}


def test_galore_3_5_the_box_wins_against_some_and_loses_against_others():
    chouette = session(
        StartGame(),
        BoxDoubles(("bob", "cy")),
        Answer("bob", "drop"),
        Answer("cy", "take"),
        MemberDoubles("dee"),
        BoxAnswers("dee", "drop"),
        LOSE,
        settings=MULTI,
    )
    record = chouette.games[0]
    assert set(record.ledger) == {
        Transfer("bob", "ann", 1),
        Transfer("ann", "dee", 1),
        Transfer("ann", "cy", 2),
    }
    assert zero_sum(chouette) == {"ann": -2, "bob": -1, "cy": 2, "dee": 1}
    assert not record.box_wins  # the box lost to the captain, who dropped: acting cy beat it
    assert order(chouette) == ("cy", None, ("bob", "dee", "ann"))


# --- Galore 3.6: the box's partner -------------------------------------------------------

EIGHT = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")


def test_galore_3_6_a_partner_from_eight_players_taken_from_the_team():
    refused(session(), Partner("cy"), "chouette-partner-few", "Galore 3.6")
    chouette = session(players=EIGHT)
    assert {e for e in chouette.allowed() if isinstance(e, Partner)} == {
        Partner(None),
        *(Partner(m) for m in EIGHT[1:]),
    }
    refused(chouette, Partner("ann"), "chouette-partner-member", "Galore 3.6")
    partnered = chouette.apply(Partner("bob"))  # the captain volunteers: cy captains
    assert order(partnered) == ("ann", "bob", EIGHT[2:])
    assert partnered.lineup.players == EIGHT
    assert order(partnered.apply(Partner(None))) == ("ann", None, (*EIGHT[2:], "bob"))
    never = ChouetteSettings(partner_from=None)
    refused(
        session(settings=never, players=EIGHT), Partner("bob"), "chouette-partner-off", "Galore 3.6"
    )
    refused(session(StartGame(), players=EIGHT), Partner("bob"), "chouette-game-on", "Galore 3.1")


def test_club_practice_the_partner_takes_half_toward_zero_the_box_the_remainder():
    chouette = session(
        Partner("hal"),
        StartGame(),
        BoxDoubles(EIGHT[1:7]),
        *(Answer(m, "take") for m in EIGHT[1:7]),
        End(box_wins=True, level=Level.GAMMON),
        settings=ChouetteSettings(last_must_drop=False),
        players=EIGHT,
    )
    # each member loses 4 (a gammon, the cube at 2): 2 to the partner, 2 to the box
    totals = zero_sum(chouette)
    assert totals["ann"] == 12 and totals["hal"] == 12
    assert order(chouette) == ("ann", None, ("cy", "dee", "eve", "fay", "gus", "hal", "bob"))
    three = session(
        Partner("hal"),
        StartGame(),
        End(box_wins=False, level=Level.BACKGAMMON),
        players=EIGHT,
    )
    record = three.games[0]
    # 3 points per member: 1 from the partner, 2 from the box
    assert Transfer("hal", "bob", 1) in record.ledger and Transfer("ann", "bob", 2) in record.ledger
    assert zero_sum(three)["ann"] == -12 and zero_sum(three)["hal"] == -6
    one = session(Partner("hal"), StartGame(), WIN, players=EIGHT)
    assert zero_sum(one)["hal"] == 0  # int(1 / 2) == 0: all to the box


# --- deals (club practice) ----------------------------------------------------------------


def test_club_practice_a_deal_mid_game_and_the_game_goes_on_for_the_others():
    chouette = session(StartGame(), Deal(("dee",), 2))
    assert chouette.game.playing == ("bob", "cy")
    assert chouette.game.ledger == (Transfer("dee", "ann", 2),)
    assert chouette.can_deal(("cy",)) and not chouette.can_deal(("dee",))
    finished = chouette.apply(Deal(("cy",), -1)).apply(LOSE)
    assert zero_sum(finished) == {"ann": 0, "bob": 1, "cy": 1, "dee": -2}


def test_club_practice_a_deal_with_the_captain_declares_the_winner():
    chouette = session(StartGame())
    refused(chouette, Deal(("bob",), 1), "chouette-deal-winner", "club practice")
    refused(chouette, Deal(("cy",), 1, box_wins=True), "chouette-deal-no-winner", "club practice")
    refused(chouette, Deal((), 1), "chouette-no-members", "club practice")
    everyone = chouette.apply(Deal(("bob", "cy", "dee"), -1, box_wins=False))
    assert everyone.game is None
    assert order(everyone) == ("bob", None, ("cy", "dee", "ann"))
    # the captain settles, the game goes on, the next member captains the board
    partial = chouette.apply(Deal(("bob",), 1, box_wins=True))
    assert partial.game.acting_captain == "cy"
    finished = partial.apply(LOSE)
    assert order(finished) == ("cy", None, ("bob", "dee", "ann"))


def test_club_practice_no_deal_while_an_answer_is_due():
    chouette = session(StartGame(), BoxDoubles(("bob", "cy", "dee")))
    assert not chouette.can_deal(("cy",))
    refused(chouette, Deal(("cy",), 1), "chouette-answer-due", "club practice")
    assert not session().can_deal(("cy",))
    assert not any(isinstance(e, Deal) for e in session(StartGame()).allowed())


# --- money options (Galore 2.8, 5.4) --------------------------------------------------------


def test_galore_2_8_jacoby_counts_a_gammon_single_on_each_cube_never_turned():
    jacoby = ChouetteSettings(cubes=CubeMode.MULTIPLE, money=MoneyRules(jacoby=True))
    chouette = session(
        StartGame(),
        BoxDoubles(("bob",)),
        Answer("bob", "take"),
        End(box_wins=True, level=Level.GAMMON),
        settings=jacoby,
    )
    # bob's cube was turned: 2 x 2; cy and dee's never were: 1 each
    assert zero_sum(chouette) == {"ann": 6, "bob": -4, "cy": -1, "dee": -1}


def test_galore_2_8_automatic_doubles_are_capped_and_turn_no_cube():
    money = MoneyRules(jacoby=True, automatic_doubles=1)
    settings = ChouetteSettings(money=money)
    chouette = session(StartGame(), AutomaticDouble(), settings=settings)
    assert {(c.value, c.owner, c.turned) for c in chouette.game.cubes.values()} == {
        (2, None, False)
    }
    refused(chouette, AutomaticDouble(), "chouette-automatic-count", "Galore 2.8")
    gammon = chouette.apply(End(box_wins=True, level=Level.GAMMON))
    assert zero_sum(gammon)["ann"] == 6  # 2 each: Jacoby still counts the gammon single
    refused(session(StartGame()), AutomaticDouble(), "chouette-automatic-off", "Galore 2.8")
    late = session(StartGame(), MemberDoubles("bob"), BoxAnswers("bob", "take"), settings=settings)
    refused(late, AutomaticDouble(), "chouette-automatic-late", "Galore 2.8")
    capped = ChouetteSettings(money=MoneyRules(automatic_doubles=3, max_cube=2))
    refused(
        session(StartGame(), AutomaticDouble(), settings=capped),
        AutomaticDouble(),
        "chouette-max-cube",
        "Galore 2.8",
    )


def test_galore_2_8_the_cube_stops_at_the_agreed_maximum():
    capped = ChouetteSettings(money=MoneyRules(max_cube=2, beavers=True))
    chouette = session(StartGame(), settings=capped)
    doubled = chouette.apply(BoxDoubles(("bob", "cy", "dee")))
    refused(doubled, Answer("bob", "beaver"), "chouette-max-cube", "Galore 2.8")
    taken = doubled.apply(Answer("bob", "take")).apply(Answer("cy", "take"))
    taken = taken.apply(Answer("dee", "take"))
    refused(taken, MemberDoubles("bob"), "chouette-max-cube", "Galore 2.8")


def test_galore_2_8_and_5_4_a_beaver_and_a_raccoon_on_a_member_s_cube():
    money = MoneyRules(beavers=True, raccoons=True)
    settings = ChouetteSettings(cubes=CubeMode.MULTIPLE, money=money)
    chouette = session(StartGame(), BoxDoubles(("bob", "cy")), settings=settings)
    chouette = chouette.apply(Answer("bob", "beaver"))
    cube = chouette.game.cubes["bob"]
    assert (cube.value, cube.owner, cube.beavered) == (2, "member", True)
    assert chouette.game.awaiting == ("box", "cy")
    refused(chouette, Answer("bob", "take"), "chouette-no-offer", "Galore 3.5")
    chouette = chouette.apply(Raccoon("bob"))
    assert chouette.game.cubes["bob"].value == 4 and chouette.game.awaiting == ("bob", "cy")
    refused(chouette, Raccoon("bob"), "chouette-no-beaver", "Galore 5.4")
    refused(chouette, Answer("bob", "beaver"), "chouette-beaver-answer", "Galore 2.8")
    chouette = chouette.apply(Answer("bob", "take")).apply(Answer("cy", "take"))
    cube = chouette.game.cubes["bob"]
    assert (cube.value, cube.owner, cube.pending) == (8, "member", False)  # kept by the beaverer
    finished = chouette.apply(LOSE)
    assert zero_sum(finished) == {"ann": -11, "bob": 8, "cy": 2, "dee": 1}


def test_galore_2_8_a_beaver_dropped_pays_the_double_accepted():
    settings = ChouetteSettings(cubes=CubeMode.MULTIPLE, money=MoneyRules(beavers=True))
    chouette = session(
        StartGame(), BoxDoubles(("bob",)), Answer("bob", "beaver"), settings=settings
    )
    refused(chouette, Raccoon("bob"), "chouette-raccoon-off", "Galore 5.4")
    dropped = chouette.apply(BoxAnswers("bob", "drop"))
    assert dropped.game.ledger == (Transfer("ann", "bob", 2),)
    # the box beavers a member's double; the member answers on their own
    box_beaver = session(
        StartGame(), MemberDoubles("cy"), BoxAnswers("cy", "beaver"), settings=settings
    )
    assert box_beaver.game.awaiting == ("cy",)
    assert box_beaver.game.cubes["cy"].owner == "box"
    assert box_beaver.apply(Answer("cy", "drop")).game.ledger == (Transfer("cy", "ann", 2),)


def test_galore_2_8_no_beaver_where_the_session_did_not_agree_it():
    chouette = session(StartGame(), BoxDoubles(("bob", "cy", "dee")))
    refused(chouette, Answer("bob", "beaver"), "chouette-beaver-off", "Galore 2.8")
    assert Answer("bob", "beaver") not in chouette.allowed()


def test_galore_3_3_a_single_cube_beavered_by_the_box_is_answered_member_by_member():
    settings = ChouetteSettings(money=MoneyRules(beavers=True))
    chouette = session(
        StartGame(), MemberDoubles("bob"), BoxAnswers("bob", "beaver"), settings=settings
    )
    assert chouette.game.awaiting == ("bob", "cy", "dee")
    chouette = chouette.apply(Answer("bob", "drop"))
    assert chouette.game.acting_captain == "cy"
    chouette = chouette.apply(Answer("cy", "take")).apply(Answer("dee", "take"))
    assert {chouette.game.cubes[m].value for m in ("cy", "dee")} == {4}
    assert zero_sum(chouette.apply(WIN)) == {"ann": 10, "bob": -2, "cy": -4, "dee": -4}


# --- End, levels, resignations ------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "points"), [(Level.SINGLE, 1), (Level.GAMMON, 2), (Level.BACKGAMMON, 3)]
)
def test_wbf_25_the_level_of_the_end_times_each_cube(level, points):
    chouette = session(StartGame(), End(box_wins=True, level=level, resigned=True))
    assert zero_sum(chouette)["ann"] == 3 * points
    assert chouette.games[0].level is level and chouette.games[0].resigned
    refused(chouette, WIN, "chouette-no-game", "Galore 3.1")


def test_common_practice_a_two_player_money_session_is_a_chouette_of_two():
    money = ChouetteSettings(money=MoneyRules(beavers=True, jacoby=True))
    chouette = replay(
        money,
        [
            Opening((("ann", 4), ("bob", 2))),
            StartGame(),
            BoxDoubles(("bob",)),
            Answer("bob", "take"),
            MemberDoubles("bob"),
            BoxAnswers("bob", "beaver"),
            Answer("bob", "take"),
            End(box_wins=True, level=Level.GAMMON),
        ],
    )
    assert zero_sum(chouette) == {"ann": 16, "bob": -16}
    assert order(chouette) == ("ann", None, ("bob",))  # nothing to rotate
    again = chouette.apply(StartGame()).apply(LOSE)
    assert order(again) == ("bob", None, ("ann",))
    assert zero_sum(again) == {"ann": 15, "bob": -15}


# --- undo, replay, the log ----------------------------------------------------------------


def test_undo_drops_the_last_game_whole_finished_or_not():
    chouette = session(
        StartGame(), WIN, Join("eve"), StartGame(), BoxDoubles(("cy", "dee", "eve", "bob"))
    )
    in_progress = chouette.apply(UndoGame())
    assert in_progress.game is None and len(in_progress.games) == 1
    undone = in_progress.apply(UndoGame())
    assert undone.games == () and undone.totals() == {
        p: 0 for p in ("ann", "bob", "cy", "dee", "eve")
    }
    assert order(undone) == ("ann", None, ("bob", "cy", "dee", "eve"))  # eve's join is kept
    refused(undone, UndoGame(), "chouette-no-undo", "Galore 3.1")
    logged = [opening("ann", "bob", "cy", "dee"), StartGame(), WIN, UndoGame(), StartGame(), LOSE]
    assert replay(SINGLE, logged).totals() == {"ann": -3, "bob": 1, "cy": 1, "dee": 1}


def test_undo_that_a_later_event_depends_on_is_refused():
    """ann lost the box, became a member and the box's partner: without the game, ann is
    the box again and cannot be its partner."""
    chouette = session(StartGame(), LOSE, Partner("ann"), players=EIGHT)
    assert order(chouette) == ("bob", "ann", ("cy", "dee", "eve", "fay", "gus", "hal"))
    error = refused(chouette, UndoGame(), "chouette-undo-breaks", "Galore 3.6")
    assert error.params["number"] == 1
    assert error.params["reason"].key == "chouette-partner-member"


def test_replay_names_the_event_the_rules_refuse():
    with pytest.raises(ChouetteReplayError) as error:
        replay(SINGLE, [opening("ann", "bob"), StartGame(), Answer("bob", "take")])
    assert error.value.index == 2 and error.value.error.key == "chouette-no-offer"
    assert error.value.rule == "Galore 3.3"
    assert "event 3" in str(error.value)


def test_allowed_lists_only_what_apply_accepts_and_the_site_needs():
    chouette = session(StartGame(), settings=MULTI)
    allowed = chouette.allowed()
    for event in allowed:
        chouette.apply(event)
    assert BoxDoubles(("bob", "cy", "dee")) in allowed and BoxDoubles(("cy",)) in allowed
    assert {e.member for e in allowed if isinstance(e, MemberDoubles)} == {"bob", "cy", "dee"}
    assert sum(isinstance(e, End) for e in allowed) == 12
    assert Chouette.start(SINGLE).allowed() == ()
    before = session().allowed()
    assert StartGame() in before and UndoGame() not in before


def test_events_survive_json_and_bad_data_is_refused():
    import json

    events = [
        opening("ann", "bob"),
        Join("x"),
        Leave("x"),
        Rest("x"),
        Back("x"),
        Partner(None),
        Partner("x"),
        StartGame(),
        AutomaticDouble(),
        BoxDoubles(("a", "b")),
        Answer("a", "take"),
        Raccoon("a"),
        MemberDoubles("a"),
        BoxAnswers("a", "beaver"),
        ExtraDouble("a"),
        ExtraRedouble("a", by_taker=True),
        ExtraAnswer("a", take=False),
        Deal(("a",), -3, box_wins=None),
        Deal(("a", "b"), 2, box_wins=True),
        End(box_wins=False, level=Level.BACKGAMMON, resigned=True),
        UndoGame(),
    ]
    for event in events:
        assert from_dict(json.loads(json.dumps(event.to_dict()))) == event
    for bad in (
        {"kind": "nope"},
        {"kind": "join"},
        {"kind": "join", "player": 3},
        {"kind": "end", "box_wins": 1, "level": "single"},
        {"kind": "deal", "members": ["a"], "points": True},
        {"kind": "start-game", "extra": 1},
        ["join", "x"],
        {"kind": "opening", "rolls": [["a", 6, 1]]},
    ):
        with pytest.raises(RulesError) as error:
            from_dict(bad)
        assert error.value.key == "chouette-event-data"


def test_settings_survive_json_and_bad_settings_are_refused():
    settings = ChouetteSettings(
        cubes=CubeMode.MULTIPLE,
        money=MoneyRules(
            jacoby=True, beavers=True, raccoons=True, automatic_doubles=2, max_cube=64
        ),
        consultation=Consultation.AFTER_CUBE,
        box_keeping=BoxKeeping.NET,
        winners_move_up=True,
        last_must_drop=False,
        extra_cubes=True,
        partner_from=None,
    )
    import json

    assert ChouetteSettings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings
    assert ChouetteSettings.from_dict({}) == ChouetteSettings()
    assert ChouetteSettings().partner_from == 8 and ChouetteSettings().last_must_drop
    for bad in ({"cubes": "many"}, ["cubes"], {"money": {"max_cube": "8"}}, {"extra_cubes": 1}):
        with pytest.raises(RulesError) as error:
            ChouetteSettings.from_dict(bad)
        assert error.value.key == "chouette-settings-data"
    with pytest.raises(RulesError) as error:
        ChouetteSettings.from_dict({"money": {"raccoons": True}})
    assert error.value.key == "raccoon-without-beaver"
    with pytest.raises(RulesError):
        ChouetteSettings(partner_from=2)


def test_describe_says_each_event_in_the_log():
    names = {"1": "Anna", "2": "Bruno"}
    assert str(describe(BoxDoubles(("1", "2")), names)) == "the box doubles Anna, Bruno"
    assert str(describe(Deal(("2",), 3))) == "deal: 2 pay the box 3 points each"
    assert str(describe(Deal(("1",), -1, box_wins=False), names)) == (
        "deal: the box pays Anna 1 point each; the team wins the game"
    )
    assert str(describe(End(False, Level.GAMMON))) == "the team wins a gammon"
    assert str(describe(End(True, Level.SINGLE, resigned=True))) == "the team resigns a single game"
    assert (
        str(describe(opening("1", "2"), names)) == "the opening roll: Anna rolled 6, Bruno rolled 5"
    )


def test_lineup_is_usable_on_its_own():
    lineup = Lineup.opening({"a": 1, "b": 6, "c": 3})
    assert lineup == Lineup(box="b", team=("c", "a"))
    assert lineup.with_partner("a").with_partner(None) == Lineup(box="b", team=("c", "a"))


# --- the catalog: every refusal and log line of the engine is a key with its parameters ---

CHOUETTE = sorted((Path(rules.chouette.__file__).parent).glob("*.py"))


@pytest.mark.parametrize("path", CHOUETTE, ids=lambda p: p.name)
def test_every_chouette_error_is_built_from_a_catalog_message(path):
    """The checks of test_message_catalog.py, over rules/chouette/ (it reads rules/*.py)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = []
    for _, call in catalog.calls(tree, catalog.ERRORS):
        first = call.args[0] if call.args else None
        built = isinstance(first, ast.Call) and getattr(first.func, "id", None) == "Message"
        if not (built or isinstance(first, ast.Name)):
            wrong.append(catalog.where(path, call))
    for _, call in catalog.calls(tree, {"Message"}):
        keys = catalog.possible_keys(call.args[0])
        if keys is None:
            wrong.append(f"{catalog.where(path, call)}: a key the source does not spell out")
            continue
        wrong += [
            f"{catalog.where(path, call)}: {k!r} not in the catalog" for k in keys - CATALOG.keys()
        ]
        params = call.args[1] if len(call.args) > 1 else None
        given = set() if params is None else {k.value for k in params.keys}
        wrong += [
            f"{catalog.where(path, call)}: {key!r} takes other parameters than {sorted(given)}"
            for key in keys & CATALOG.keys()
            if catalog.placeholders(CATALOG[key]) != given
        ]
    assert wrong == []


def test_every_chouette_key_is_used_and_renders_in_any_language():
    """Each chouette key appears in the engine's source; each event's log line and each
    refusal met above renders through a translator that knows only the catalog."""
    source = "".join(path.read_text(encoding="utf-8") for path in CHOUETTE)
    unused = [k for k in CATALOG if k.startswith("chouette-") and f'"{k}"' not in source]
    assert unused == []
    strict = StrictTranslator()
    events = [
        opening("1", "2"),
        Join("1"),
        Leave("1"),
        Rest("1"),
        Back("1"),
        Partner("1"),
        Partner(None),
        StartGame(),
        AutomaticDouble(),
        BoxDoubles(("1", "2")),
        *(Answer("1", word) for word in ("take", "drop", "beaver")),
        *(BoxAnswers("1", word) for word in ("take", "drop", "beaver")),
        Raccoon("1"),
        MemberDoubles("1"),
        ExtraDouble("1"),
        ExtraRedouble("1", by_taker=True),
        ExtraRedouble("1", by_taker=False),
        ExtraAnswer("1", take=True),
        ExtraAnswer("1", take=False),
        *(Deal(("1",), points, winner) for points in (-2, 0, 1) for winner in (None, True, False)),
        *(End(w, level, r) for w in (True, False) for level in Level for r in (True, False)),
        UndoGame(),
    ]
    for event in events:
        assert describe(event, {"1": "Anna"}).render(strict).startswith("«")
    refusal = refused(
        session(StartGame()), Deal(("bob",), 1), "chouette-deal-winner", "club practice"
    )
    assert refusal.sentence(strict).startswith("«")


def test_galore_3_2_the_settings_are_shown_to_everyone():
    """Consultation is a custom of the table (Galore 3.2): shown with every other setting."""
    default = [m.key for m in describe_settings(SINGLE)]
    assert default == [
        "chouette-setting-single",
        "chouette-setting-consultation-free",
        "chouette-setting-box-captain",
        "chouette-setting-last-must-drop",
        "chouette-setting-partner",
    ]
    every = ChouetteSettings(
        cubes=CubeMode.MULTIPLE,
        money=MoneyRules(
            jacoby=True,
            beavers=True,
            raccoons=True,
            automatic_doubles=1,
            max_cube=32,
            variation=Variation.NACKGAMMON,
        ),
        consultation=Consultation.AFTER_CUBE,
        box_keeping=BoxKeeping.NET,
        winners_move_up=True,
        extra_cubes=True,
        partner_from=None,
    )
    lines = describe_settings(every)
    assert [str(m) for m in lines[:2]] == [
        "a cube for each member (Galore 3.5)",
        "consultation: only once the cube has moved (Galore 3.2)",
    ]
    assert "at most 1 automatic double a game (Galore 2.8)" in [str(m) for m in lines]
    strict = StrictTranslator()
    assert all(m.render(strict).startswith("«") for m in lines)
    assert len(lines) == 12


def test_club_practice_a_deal_shares_with_the_partner_and_settles_the_extra_cubes():
    extra = ChouetteSettings(extra_cubes=True, last_must_drop=False)
    chouette = session(
        Partner("hal"),
        StartGame(),
        BoxDoubles(EIGHT[1:7]),
        Answer("bob", "take"),
        *(Answer(m, "drop") for m in EIGHT[2:7]),
        ExtraDouble("cy"),
        ExtraDouble("dee"),
        Deal(("bob",), -3, box_wins=False),
        settings=extra,
        players=EIGHT,
    )
    assert chouette.game is None  # bob was the last one in
    record = chouette.games[0]
    # the deal: 3 to bob, 2 from the box and 1 from its partner; the extras: 2 each to bob
    assert {t for t in record.ledger if t.payee == "bob"} == {
        Transfer("ann", "bob", 2),
        Transfer("hal", "bob", 1),
        Transfer("cy", "bob", 2),
        Transfer("dee", "bob", 2),
    }
    totals = zero_sum(chouette)
    assert totals["bob"] == 7 and totals["cy"] == -3 and totals["dee"] == -3  # 1 dropped, 2
    assert not record.box_wins and order(chouette)[0] == "bob"


def test_a_game_in_progress_is_not_in_the_ledger_until_it_ends():
    chouette = session(StartGame(), BoxDoubles(("bob", "cy", "dee")), Answer("cy", "drop"))
    assert chouette.ledger == () and chouette.game.ledger == (Transfer("cy", "ann", 1),)
    assert set(chouette.totals().values()) == {0}
    assert chouette.settings.consultation is Consultation.FREE
