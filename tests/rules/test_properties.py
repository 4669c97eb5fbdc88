"""Property-based tests on random legal positions (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Position, legal_plays
from rules.matchid import MatchState
from rules.movegen import _LOW, LegalPlays, _general, can_play, plays_reaching, search
from rules.play import double_path
from tests.rules.helpers import naive_results, result_counts

dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw):
    """Any legal board: 15 checkers a side anywhere (off, points, bar), never both on a point.

    Weighted towards the home boards and the bar, where the tricky rules live.
    """
    places = st.one_of(st.integers(0, 25), st.integers(0, 6), st.just(25))
    mine = [0] * 26
    for place in draw(st.lists(places, min_size=15, max_size=15)):
        mine[place] += 1
    theirs = [0] * 26
    free = [p for p in range(26) if p in (0, 25) or not mine[25 - p]]
    their_places = st.one_of(
        st.sampled_from(free), st.sampled_from([p for p in free if p <= 6] or free)
    )
    for place in draw(st.lists(their_places, min_size=15, max_size=15)):
        theirs[place] += 1
    return Position.from_counts(mine, theirs)


@given(positions(), dice_rolls)
def test_plays_match_a_naive_reading_of_the_rules(position, dice):
    plays = legal_plays(position, dice)
    assert {result_counts(p) for p in plays} == naive_results(position, dice)


@given(positions(), dice_rolls)
def test_each_play_is_legal_step_by_step_and_distinct(position, dice):
    plays = legal_plays(position, dice)
    assert len({p.result for p in plays}) == len(plays)
    most = max((len(p.steps) for p in plays), default=0)
    for play in plays:
        assert len(play.steps) == most  # as many dice as possible (WBF 17)
        mine, theirs = list(position.on_roll), list(position.opponent)
        for step in play.steps:
            assert mine[step.source] > 0
            assert not mine[25] or step.source == 25  # the bar first (WBF 20)
            if step.destination:
                assert theirs[25 - step.destination] < 2  # WBF 18
                assert step.hit == (theirs[25 - step.destination] == 1)
            else:
                assert not any(mine[7:26])  # all home to bear off (WBF 22)
            mine[step.source] -= 1
            mine[step.destination] += 1
            if step.hit:
                theirs[25 - step.destination] = 0
                theirs[25] += 1
        assert (tuple(mine), tuple(theirs)) == result_counts(play)
        assert sum(play.result.on_roll) == 15 == sum(play.result.opponent)


@given(positions(), dice_rolls)
def test_fast_paths_agree_with_the_reference_search(position, dice):
    mine, theirs = position
    ge1 = (theirs | theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    ge2 = (theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    reference = _general(mine, ge2, ge1 & ~ge2, *dice)
    # a double's path may be left to its result (None): read it back as a play would
    fast = {
        key: path if path is not None else double_path(position, key, dice[0])
        for key, path in search(mine, theirs, *dice).items()
    }
    assert fast == reference  # same results, same first path (so gnubg's notation)


@st.composite
def played_positions(draw):
    """A board reached by random play from the start: contact, blots, primes, races."""
    import random

    chooser = random.Random(draw(st.integers(0, 2**32)))
    position = Position.start()
    for _ in range(draw(st.integers(0, 80))):
        plays = legal_plays(position, (chooser.randint(1, 6), chooser.randint(1, 6)))
        position = chooser.choice(plays).result if plays else position.swap()
    return position


@settings(max_examples=300)
@given(st.one_of(played_positions(), positions()), dice_rolls)
def test_a_game_s_list_holds_the_searched_plays_read_in_one_order(position, dice):
    """A roll's plays may be counted rather than searched (two different dice, nothing on
    the bar, no bear-off in reach): the list a game hands out holds the same plays, with
    gnubg's notation, and reading it by index gives the order iterating gives."""
    legal = LegalPlays(position, dice)
    searched = {p.result: p.notation for p in legal_plays(position, dice)}
    read = [legal[i] for i in range(len(legal))]
    assert len(legal) == len(searched)
    assert [p.result for p in read] == [p.result for p in legal]
    assert {p.result: p.notation for p in read} == searched
    assert all(p in legal and legal.made(p) for p in read)
    assert legal[-1] is read[-1] if read else not legal


@given(positions(), dice_rolls, st.integers(0, 2**104 - 1))
def test_plays_reaching_a_side_are_the_full_lists_plays_there(position, dice, other):
    plays = legal_plays(position, dice)
    assert can_play(position, dice) == bool(plays)
    every_die = 4 if dice[0] == dice[1] else 2
    uses_every_die = bool(plays) and len(plays[0].steps) == every_die
    for side in {p.result[1] for p in plays} | {other, position[0]}:
        there = {p.result: p.steps for p in plays if p.result[1] == side}
        reaching = {p.result: p.steps for p in plays_reaching(position, dice, side)}
        assert reaching == (there if uses_every_die else {})  # the same steps: gnubg's


@given(positions())
def test_position_id_round_trips(position):
    assert Position.from_id(position.id) == position


@settings(max_examples=50)
@given(st.integers(0, 2**32), st.integers(5, 60))
def test_positions_reached_by_random_play_stay_legal(seed, turns):
    import random

    chooser = random.Random(seed)
    position = Position.start()
    for _ in range(turns):
        plays = legal_plays(position, (chooser.randint(1, 6), chooser.randint(1, 6)))
        position = chooser.choice(plays).result if plays else position.swap()
        assert sum(position.on_roll) == 15 == sum(position.opponent)
        assert Position.from_id(position.id) == position


@given(
    st.builds(
        MatchState,
        match_length=st.sampled_from([0, 1, 3, 5, 7, 25]),
        score=st.tuples(st.integers(0, 24), st.integers(0, 24)),
        cube=st.sampled_from([1, 2, 4, 8, 64]),
        cube_owner=st.sampled_from([None, 0, 1]),
        player_on_roll=st.integers(0, 1),
        turn=st.integers(0, 1),
        dice=st.one_of(st.none(), dice_rolls),
    )
)
def test_match_state_round_trips(state):
    assert MatchState.from_id(state.id) == state


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from([0, 5, 7]),
    st.tuples(st.integers(0, 3), st.integers(0, 3)),
    st.booleans(),
)
def test_every_logged_state_is_the_game_s_state_at_that_moment(seed, length, score, crawford):
    """The log's match IDs are evidence: each is what the game was right after the action.

    The states of a turn are looked up rather than made afresh (see Game._turn_state), so
    games that double, take, drop and beaver, at every score and cube, check them here.
    """
    import random

    from rules.dice import SeededDice
    from rules.game import Game
    from rules.match import GameContext, MatchRules, MoneyRules

    chooser = random.Random(seed)
    for number in range(4):
        rules = MoneyRules(beavers=True) if not length else MatchRules(length=length)
        context = GameContext(rules=rules, score=score, crawford=crawford and bool(length))
        game = Game(context, dice=SeededDice(seed + number))
        while not game.over:
            acts = {act.value for act in game.available()}
            # mostly rolls and plays, with a double now and then, mostly taken, and a
            # resignation now and then, mostly played on
            draw = chooser.random()
            if "opening roll" in acts:
                act = "opening roll"
            elif "take" in acts:
                act = (
                    "drop"
                    if draw < 0.15
                    else "beaver"
                    if "beaver" in acts and draw < 0.3
                    else "take"
                )
            elif "accept" in acts:
                act = "accept" if draw < 0.1 else "reject"
            elif "double" in acts and draw < 0.15 and game.cube < 64:  # a Match ID's cube
                act = "double"
            elif draw < 0.02:
                act = "resign"
            else:
                act = "roll" if "roll" in acts else "play"
            before = len(game.log)
            if act == "play":
                game.play(chooser.choice(game.legal_plays))
            else:
                getattr(
                    game,
                    {
                        "opening roll": "roll_opening",
                        "roll": "roll",
                        "double": "double",
                        "take": "take",
                        "drop": "drop",
                        "beaver": "beaver",
                        "resign": "resign",
                        "accept": "accept_resignation",
                        "reject": "reject_resignation",
                    }[act],
                )()
            if not game.over:
                # every entry this action logged ends where the game is now (a roll with no
                # play logs the roll, then the lost turn)
                assert game.log[-1].state == game.match_state, game.log[before:]
                assert game.log[-1].match_id == game.match_id
