"""The gnubg Match ID, both ways, on the manual's vectors and on random states."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import InvalidMatchIdError
from rules.matchid import GameState, MatchState, Resignation


def test_manual_vector_9_point_match():
    state = MatchState.from_id("QYkqASAAIAAA")
    assert state.match_length == 9
    assert state.score == (2, 4)
    assert state.cube == 2 and state.cube_owner == 0
    assert state.player_on_roll == 1 and state.turn == 1
    assert state.dice == (5, 2)
    assert state.game_state is GameState.PLAYING
    assert state.id == "QYkqASAAIAAA"


@pytest.mark.parametrize(
    "match_id, on_roll, dice",
    [("cAkAAAAAAAAA", 1, None), ("MIEFAAAAAAAA", 0, (3, 1))],
)
def test_money_game_vectors(match_id, on_roll, dice):
    state = MatchState.from_id(match_id)
    assert state.match_length == 0 and state.cube == 1 and state.cube_owner is None
    assert state.player_on_roll == on_roll and state.dice == dice
    assert state.id == match_id


def test_bad_match_ids():
    with pytest.raises(InvalidMatchIdError, match="12 characters"):
        MatchState.from_id("QYkq")
    with pytest.raises(InvalidMatchIdError, match="only letters"):
        MatchState.from_id("QYkqASAAIA!A")


@given(
    length=st.integers(0, 31).filter(lambda n: n == 0 or n % 2),
    score=st.tuples(st.integers(0, 30), st.integers(0, 30)),
    cube_log=st.integers(0, 12),
    owner=st.sampled_from([None, 0, 1]),
    on_roll=st.integers(0, 1),
    turn=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameState)),
    doubled=st.booleans(),
    resignation=st.sampled_from(list(Resignation)),
    dice=st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6))),
)
def test_match_id_round_trips(
    length, score, cube_log, owner, on_roll, turn, crawford, game_state, doubled, resignation, dice
):
    state = MatchState(
        match_length=length,
        score=score,
        cube=1 << cube_log,
        cube_owner=owner,
        player_on_roll=on_roll,
        turn=turn,
        crawford=crawford,
        game_state=game_state,
        double_offered=doubled,
        resignation=resignation,
        dice=dice,
    )
    assert MatchState.from_id(state.id) == state
