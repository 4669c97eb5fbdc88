"""Playing on the site's board through the services: the engine referees, every action is kept."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from club.policy import SYSTEM
from matches.board.service import BoardChanged, board_game_act, board_game_start, board_state
from matches.models import BoardAction, BoardGame, Game, Match
from matches.selectors import match_score_sheet

pytestmark = pytest.mark.django_db


def act(board_game, action, user, **details):
    """Act as a device that has just drawn the board (it sends the current version)."""
    fresh = BoardGame.objects.get(pk=board_game.pk)
    return board_game_act(
        board_game=fresh, version=fresh.version, action=action, user=user, **details
    )


def to_play(board_game, user, **opening):
    """Start the game and make the opening roll: someone is to play."""
    state = act(board_game, "opening", user, **opening)
    while state.game.phase.value == "opening":  # equal dice: roll again (WBF 12)
        state = act(board_game, "opening", user)
    return state


def play_out(board_game, user, *, double_at=None):
    """Play to the end: the first legal play each turn, checker by checker; returns the state."""
    state = board_state(board_game=BoardGame.objects.get(pk=board_game.pk))
    turns = 0
    while not state.recorded:
        phase = state.game.phase.value
        if phase == "opening":
            state = act(board_game, "opening", user)
        elif phase == "roll":
            turns += 1
            if turns == double_at:
                state = act(board_game, "double", user)
                state = act(board_game, "take", user)
            state = act(board_game, "roll", user)
        elif phase == "move":
            step = state.turn.options[0]
            state = act(board_game, "move", user, source=step.source, destination=step.destination)
            if state.turn is not None and state.turn.play is not None:
                state = act(board_game, "confirm", user)
    return state


def play_turn(board_game, user, state):
    """Play the roll on the board checker by checker (the first move offered each time)."""
    while state.turn is not None and state.turn.play is None:
        step = state.turn.options[0]
        state = act(board_game, "move", user, source=step.source, destination=step.destination)
    return act(board_game, "confirm", user) if state.turn is not None else state


@pytest.fixture
def board(match5, director):
    return board_game_start(match=match5, user=director)


def test_a_game_played_to_the_end_goes_on_the_score_sheet_at_once(board, match5, director):
    state = play_out(board, director, double_at=5)
    result = state.game.result
    game = Game.objects.get(match=match5, number=1)
    assert (game.winner, game.cube, game.result) == (result.winner, 2, result.outcome.value)
    sheet = match_score_sheet(match=Match.objects.get(pk=match5.pk))
    assert sheet.score[result.winner] == result.points
    assert Match.objects.get(pk=match5.pk).status == Match.Status.IN_PLAY
    # every action is in the log, the double and the take among them
    acts = list(BoardAction.objects.filter(game=board).values_list("act", flat=True))
    assert acts.count("double") == 1 and acts.count("take") == 1
    assert acts[-1] == "play"


def test_the_next_game_knows_it_is_the_crawford_game(match5, director):
    from matches.services import game_record

    for number, winner in ((1, 0), (2, 0)):
        game_record(
            match=match5, number=number, winner=winner, cube=2, result="single", user=SYSTEM
        )
    board = board_game_start(match=match5, user=director)  # 4-0: game 3 is the Crawford game
    assert board.number == 3
    state = to_play(board, director, dice=(6, 1))
    state = act(board, "play", director, play="13/7 8/7")
    assert state.game.context.crawford
    with pytest.raises(ValidationError) as refused:
        act(board, "double", director)
    assert "Crawford game: no doubling (WBF 24)" in refused.value.messages[0]


def test_a_drop_ends_the_game_and_scores_the_cube(board, match5, director):
    to_play(board, director, dice=(3, 1))
    act(board, "play", director, play="8/5 6/5")
    act(board, "double", director)
    state = act(board, "drop", director)
    assert state.recorded
    assert match_score_sheet(match=Match.objects.get(pk=match5.pk)).score == (0, 1)  # B doubled


def test_a_resignation_offered_and_accepted_scores_what_was_offered(board, match5, director):
    to_play(board, director, dice=(3, 1))
    act(board, "resign", director, level=2)  # A, on roll, gives up a gammon
    state = act(board, "accept", director)
    game = Game.objects.get(match=match5, number=1)
    assert state.recorded and (game.winner, game.result, game.points) == (1, "resignation", 2)


def test_a_rejected_resignation_plays_on(board, director):
    to_play(board, director, dice=(3, 1))
    act(board, "resign", director, level=1)
    state = act(board, "reject", director)
    assert state.game.phase.value == "move" and not state.recorded


def test_a_game_resumes_exactly_on_another_device(board, director):
    to_play(board, director, dice=(6, 5))
    act(board, "move", director, source=24, destination=18)  # half the play, not confirmed
    before = board_state(board_game=BoardGame.objects.get(pk=board.pk))
    # "another device": nothing but what the database holds
    after = board_state(board_game=BoardGame.objects.get(pk=board.pk))
    assert after.position == before.position
    assert after.turn.moves == ((24, 6),) and after.turn.dice_left == (5,)
    assert after.game.dice == (6, 5) and after.game.turn == 0
    state = act(board, "move", director, source=18, destination=13)
    assert state.turn.play.notation == "24/13"
    state = act(board, "confirm", director)
    assert [a.act.value for a in state.game.log] == ["opening roll", "play"]


def test_undo_takes_moves_back_one_by_one_until_the_play_is_confirmed(board, director):
    to_play(board, director, dice=(3, 1))
    act(board, "move", director, source=8, destination=5)
    state = act(board, "undo", director)
    assert state.turn.moves == () and state.position == state.game.position
    with pytest.raises(ValidationError, match="No checker has been moved"):
        act(board, "undo", director)
    act(board, "move", director, source=8, destination=5)
    act(board, "move", director, source=6, destination=5)
    act(board, "confirm", director)
    with pytest.raises(ValidationError, match="not possible now"):
        act(board, "undo", director)  # confirmed: it stands


def test_two_devices_acting_at_once_one_wins_the_other_is_told(board, director):
    to_play(board, director, dice=(3, 1))
    seen = BoardGame.objects.get(pk=board.pk)  # both devices drew this board
    board_game_act(
        board_game=seen, version=seen.version, action="play", play="8/5 6/5", user=director
    )
    with pytest.raises(BoardChanged, match="board changed"):
        board_game_act(
            board_game=seen, version=seen.version, action="play", play="13/10 24/23", user=director
        )
    state = board_state(board_game=BoardGame.objects.get(pk=board.pk))
    assert [a.play for a in state.game.log if a.play] == ["8/5 6/5"]  # the loser applied nothing


def test_a_player_acts_only_for_their_own_side(board, director, anna, bruno, django_user_model):
    anna_user = django_user_model.objects.create_user("anna", password="pw-anna-1")
    anna.user = anna_user
    anna.save()
    state = to_play(board, anna_user)  # either player may make the opening roll (site's dice)
    if state.game.turn == 1:  # Bruno won it: the match's director plays for him
        state = play_turn(board, director, state)
        state = act(board, "roll", anna_user)  # Anna's own turn
    state = play_turn(board, anna_user, state)
    assert state.game.turn == 1
    with pytest.raises(PermissionDenied):
        act(board, "roll", anna_user)  # Bruno's turn: Anna may not roll for him
    bruno_user = django_user_model.objects.create_user("bruno", password="pw-bruno-1")
    bruno.user = bruno_user
    bruno.save()
    assert act(board, "roll", bruno_user).game.turn == 1  # his own turn
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    with pytest.raises(PermissionDenied):
        board_game_start(match=board.match, user=stranger)


def test_players_roll_the_site_s_dice_unless_the_director_allows_table_dice(
    board, director, anna, django_user_model
):
    from matches.services import match_dice_allow

    anna.user = django_user_model.objects.create_user("anna", password="pw-anna-1")
    anna.save()
    before = BoardGame.objects.get(pk=board.pk)
    with pytest.raises(ValidationError, match="Only a director enters dice rolled at the table"):
        act(board, "opening", anna.user, dice=(6, 1))  # a player choosing her own opening
    after = BoardGame.objects.get(pk=board.pk)
    assert (after.version, after.actions.count()) == (before.version, 0)
    assert Match.objects.get(pk=board.match_id).status == Match.Status.SCHEDULED
    match_dice_allow(match=board.match, allowed=True, user=director)
    state = act(board, "opening", anna.user, dice=(6, 1))  # allowed: dice rolled at the table
    assert state.game.log[-1].dice == (6, 1)


@pytest.mark.parametrize(
    ("action", "details", "says"),
    [
        ("move", {"source": 24, "destination": 17}, "(WBF 18)"),  # 24/21/17: their 8 point
        ("move", {"source": 5, "destination": 2}, "no checker of yours on point 5"),
        ("play", {"play": "24/17"}, "point 17 is held by two or more opposing checkers (WBF 18)"),
        ("play", {"play": "13/9"}, "Both dice can be played, so both must be (WBF 17)"),
        ("confirm", {}, "The play is not complete"),
        ("double", {}, "before rolling (WBF 23)"),  # after rolling, too late to double
        ("take", {}, "not possible now: Anna Rossi is to play 4-3"),
        ("roll", {}, "not possible now"),
        ("accept", {}, "not possible now"),
    ],
)
def test_every_refusal_says_why(board, director, action, details, says):
    to_play(board, director, dice=(4, 3))
    before = BoardGame.objects.get(pk=board.pk)
    with pytest.raises(ValidationError) as refused:
        act(board, action, director, **details)
    assert says in refused.value.messages[0]
    after = BoardGame.objects.get(pk=board.pk)
    assert (after.version, after.pending, after.actions.count()) == (
        before.version,
        before.pending,
        before.actions.count(),
    )  # a refusal changes nothing


def test_the_owner_alone_may_redouble(board, director):
    to_play(board, director, dice=(3, 1))
    act(board, "play", director, play="8/5 6/5")
    act(board, "double", director)  # B doubles, A takes and owns the cube
    act(board, "take", director)
    act(board, "roll", director)  # B rolls on
    state = board_state(board_game=BoardGame.objects.get(pk=board.pk))
    play = state.game.legal_plays[0].notation
    act(board, "play", director, play=play)
    act(board, "roll", director)  # A: owns the cube but rolls
    state = board_state(board_game=BoardGame.objects.get(pk=board.pk))
    act(board, "play", director, play=state.game.legal_plays[0].notation)
    with pytest.raises(
        ValidationError, match=r"Only the owner of the cube may redouble \(WBF 23\)"
    ):
        act(board, "double", director)


def test_after_the_game_and_the_match_nothing_more_can_be_played(match5, director, record):
    for cube in (2, 2, 1):
        record(match5, 0, cube=cube)  # 2-0, 4-0, then the Crawford game: 5-0
    with pytest.raises(ValidationError, match="match is over"):
        board_game_start(match=Match.objects.get(pk=match5.pk), user=director)


def test_a_game_on_the_board_cannot_also_be_recorded_by_hand(board, match5, record):
    with pytest.raises(ValidationError, match="being played on the site's board"):
        record(match5, 0)


def test_typed_dice_are_used_as_rolled(board, director):
    state = act(board, "opening", director, dice=(2, 5))
    assert state.game.turn == 1 and state.game.dice == (5, 2)  # B's 5 beats A's 2 (WBF 12)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's row locks (run by .ci/run's PostgreSQL pass); "
    "SQLite serialises every write",
)
def test_two_devices_pressing_at_the_same_instant_one_action_is_applied(match5, director):
    import threading

    from django.db import connections

    board = board_game_start(match=match5, user=director)
    to_play(board, director, dice=(3, 1))
    seen = BoardGame.objects.get(pk=board.pk)
    barrier = threading.Barrier(2)
    outcomes = []

    def press(play):
        try:
            barrier.wait()
            board_game_act(
                board_game=seen, version=seen.version, action="play", play=play, user=director
            )
            outcomes.append("applied")
        except BoardChanged as changed:
            outcomes.append(changed.messages[0])
        finally:
            connections.close_all()

    threads = [threading.Thread(target=press, args=(p,)) for p in ("8/5 6/5", "24/23 13/10")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(outcomes) == 2 and outcomes.count("applied") == 1
    assert "The board changed before your action arrived" in "".join(outcomes)
    state = board_state(board_game=BoardGame.objects.get(pk=board.pk))
    assert len([a for a in state.game.log if a.play]) == 1
