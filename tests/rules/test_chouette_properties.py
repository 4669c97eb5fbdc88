"""Properties of any chouette session the rules allow (hypothesis).

A session is driven by random choices among what :meth:`Chouette.allowed` offers, plus
deals, joins and departures: whatever happens, the totals sum to zero (the issue's
settlement), the order holds every player once (Galore 3.1), each member's cube is a power
of two that only grows within a game, and replaying the events (through JSON) gives the
same session.
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.chouette import (
    BoxKeeping,
    Chouette,
    ChouetteSettings,
    Consultation,
    CubeMode,
    Deal,
    Join,
    Opening,
    from_dict,
    replay,
)
from rules.money import MoneyRules

NAMES = tuple("abcdefghijkl")


@st.composite
def chouette_settings(draw):
    beavers = draw(st.booleans())
    money = MoneyRules(
        jacoby=draw(st.booleans()),
        beavers=beavers,
        raccoons=beavers and draw(st.booleans()),
        automatic_doubles=draw(st.integers(0, 2)),
        max_cube=draw(st.sampled_from([None, 4, 16, 64])),
    )
    return ChouetteSettings(
        cubes=draw(st.sampled_from(CubeMode)),
        money=money,
        consultation=draw(st.sampled_from(Consultation)),
        box_keeping=draw(st.sampled_from(BoxKeeping)),
        winners_move_up=draw(st.booleans()),
        last_must_drop=draw(st.booleans()),
        extra_cubes=draw(st.booleans()),
        partner_from=draw(st.sampled_from([None, 3, 5, 8])),
    )


LINEUP = ("join", "leave", "rest", "back", "partner")


def choices(chouette, draw, joined):
    """What may happen next: mostly the game's events and deals, at times a change in the
    lineup (a newcomer, a break, a departure, a partner) or an undo."""
    allowed = chouette.allowed()
    lineup = [e for e in allowed if e.kind in LINEUP]
    newcomers = [n for n in NAMES if n not in joined]
    if newcomers:
        lineup.append(Join(newcomers[0]))
    undo = [e for e in allowed if e.kind == "undo-game"]
    play = [e for e in allowed if e.kind not in LINEUP and e.kind != "undo-game"]
    game = chouette.game
    if game is not None and game.playing:
        members = draw(st.sets(st.sampled_from(game.playing), min_size=1), label="deal")
        members = tuple(m for m in game.playing if m in members)
        if chouette.can_deal(members):
            points = draw(st.integers(-4, 4), label="points")
            box_wins = (
                draw(st.booleans(), label="winner") if game.acting_captain in members else None
            )
            play.append(Deal(members, points, box_wins))
    if game is not None:  # fewer ends, so that cubes move
        ends = [e for e in play if e.kind == "end"]
        play = [e for e in play if e.kind != "end"] + ends[:2]
    extras = [e for e in play if e.kind.startswith("extra-")]  # rare: offered when they can be
    roll = draw(st.integers(0, 19), label="kind")
    first = lineup if roll < 2 else undo if roll == 2 else extras if roll < 12 else play
    for group in (first, play, lineup):
        if group:
            return group
    return []


def check_cubes(before, after):
    """Each cube a power of two; within a game a member's cube never goes down."""
    if after.game is None:
        return
    for member, cube in after.game.cubes.items():
        assert cube.value >= 1 and cube.value & (cube.value - 1) == 0
        if before.game is not None and before.game.number == after.game.number:
            assert cube.value >= before.game.cubes[member].value
    for extra in after.game.extras:
        assert extra.value >= 2 and extra.value & (extra.value - 1) == 0


@settings(max_examples=60, deadline=None)
@given(chouette_settings(), st.integers(2, 6), st.data())
def test_any_session_sums_to_zero_and_replays_the_same(chouette_rules, count, data):
    players = NAMES[:count]
    events = [Opening(tuple((p, 6 - i) for i, p in enumerate(players)))]
    chouette = Chouette.start(chouette_rules).apply(events[0])
    joined = set(players)
    for _ in range(data.draw(st.integers(0, 40), label="length")):
        options = choices(chouette, data.draw, joined)
        if not options:
            break
        event = data.draw(st.sampled_from(options), label="event")
        after = chouette.apply(event)
        events.append(event)
        if isinstance(event, Join):
            joined.add(event.player)
        check_cubes(chouette, after)
        chouette = after
        # Galore 3.1: every player at the table once, in one place
        everyone = chouette.lineup.everyone
        assert len(everyone) == len(set(everyone))
        assert set(everyone) <= joined
        assert sum(chouette.totals().values()) == 0
        assert all(t.amount > 0 for t in chouette.ledger)
        if chouette.game is not None:
            assert set(chouette.game.playing) <= set(chouette.lineup.players)
    stored = [json.loads(json.dumps(event.to_dict())) for event in events]
    again = replay(chouette_rules, [from_dict(data) for data in stored])
    assert again == chouette
    assert again.totals() == chouette.totals()
    settings_again = ChouetteSettings.from_dict(json.loads(json.dumps(chouette_rules.to_dict())))
    assert settings_again == chouette_rules


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(NAMES[:8]), st.integers(1, 6)), min_size=2, max_size=14))
def test_an_opening_roll_either_orders_every_player_once_or_is_refused(rolls):
    from rules.errors import IllegalActionError

    try:
        chouette = Chouette.start(ChouetteSettings()).apply(Opening(tuple(rolls)))
    except IllegalActionError as error:
        assert error.rule == "Galore 3.1"
        return
    players = chouette.lineup.players
    assert sorted(players) == sorted({p for p, _ in rolls})
    first = {}
    for player, die in rolls:
        first.setdefault(player, die)
    dice = [first[p] for p in players]
    assert dice == sorted(dice, reverse=True)  # the highest first roll is the box
