"""The match clock (tournament rules: clocks are a tournament's setting, outside the seeds).

Each test names its source: "tournament rules" for the clock itself, the common defaults
being 2 minutes per point of the match length and a 12-second simple delay.
"""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.clock import Clock, ClockSettings, FlagRule
from rules.errors import IllegalActionError, InvalidMatchLengthError

SETTINGS = ClockSettings()
DELAY = SETTINGS.delay_ms


def fresh(length=7, settings=SETTINGS):
    return Clock.start(settings, length)


def test_the_defaults_are_two_minutes_a_point_and_a_12_second_delay():
    """tournament rules: the common defaults; a flag loses the match."""
    assert (SETTINGS.seconds_per_point, SETTINGS.delay_seconds) == (120, 12)
    assert SETTINGS.on_flag is FlagRule.MATCH
    assert ClockSettings(on_flag=FlagRule.GAME).on_flag is FlagRule.GAME
    assert SETTINGS.budget(7) == 14 * 60 * 1000
    assert SETTINGS.budget(1) == 120_000
    assert ClockSettings(seconds_per_point=90).budget(5) == 450_000


def test_a_clock_starts_with_the_budget_and_not_running():
    """tournament rules"""
    clock = fresh()
    assert clock.remaining_ms == (840_000, 840_000)
    assert clock.running is None and clock.turn_started is None
    assert clock.flag(at=10**12) is None
    assert clock.remaining(0, at=10**12) == 840_000


def test_settings_and_lengths_are_checked():
    """tournament rules: time per point and the delay are not negative; a match has a length"""
    with pytest.raises(ValueError):
        ClockSettings(seconds_per_point=0)
    with pytest.raises(ValueError):
        ClockSettings(delay_seconds=-1)
    with pytest.raises(InvalidMatchLengthError):
        SETTINGS.budget(0)
    with pytest.raises(ValueError):
        fresh().remaining(2, at=0)


def test_the_delay_is_not_charged():
    """tournament rules: simple delay, the clock runs only after 12 seconds of the turn"""
    clock = fresh().started(0, at=1_000)
    assert clock.remaining(0, at=1_000 + DELAY) == 840_000
    assert clock.remaining(0, at=1_000 + DELAY + 1) == 839_999
    assert clock.remaining(1, at=1_000 + DELAY + 5_000) == 840_000
    # a turn within the delay costs nothing, and the unused delay is not banked
    quick = clock.pressed(at=5_000)
    assert quick.remaining_ms == (840_000, 840_000)
    assert quick.running == 1 and quick.turn_started == 5_000
    back = quick.pressed(at=5_000 + DELAY).pressed(at=5_000 + 2 * DELAY + 3_000)
    assert back.remaining_ms == (837_000, 840_000)


def test_pressing_passes_the_turn_with_a_fresh_delay():
    """tournament rules"""
    clock = fresh().started(1, at=0).pressed(at=40_000)
    assert clock.remaining_ms == (840_000, 812_000)
    assert (clock.running, clock.turn_started, clock.delay_ms) == (0, 40_000, DELAY)


def test_a_flag_falls_exactly_when_the_time_runs_out():
    """tournament rules: not a millisecond before"""
    clock = fresh(length=1).started(0, at=0)
    out = DELAY + 120_000
    assert clock.flag(at=out - 1) is None
    assert clock.remaining(0, at=out - 1) == 1
    assert clock.flag(at=out) == 0
    assert clock.remaining(0, at=out) == 0
    assert clock.remaining(0, at=out + 10**6) == 0
    assert clock.flag(at=out + 10**6) == 0


def test_a_fallen_flag_refuses_the_press_and_the_pause():
    """tournament rules: the player whose time has run out has lost"""
    clock = fresh(length=1).started(0, at=0)
    out = DELAY + 120_000
    for act in (clock.pressed, clock.paused):
        with pytest.raises(IllegalActionError) as refused:
            act(at=out)
        assert refused.value.key == "clock-flag-fallen"
        assert refused.value.params["player"] == 0
        assert refused.value.rule == "tournament rules"
    assert clock.pressed(at=out - 1).running == 1


def test_refusals_cite_the_tournament_rules():
    """tournament rules: time does not go back; only a running clock is pressed or paused"""
    clock = fresh().started(0, at=5_000)
    cases = [
        (lambda: clock.pressed(at=4_999), "clock-time-backwards"),
        (lambda: clock.remaining(0, at=4_999), "clock-time-backwards"),
        (lambda: clock.flag(at=4_999), "clock-time-backwards"),
        (lambda: fresh().pressed(at=0), "clock-not-running"),
        (lambda: fresh().paused(at=0), "clock-not-running"),
        (lambda: fresh().resumed(at=0), "clock-not-paused"),
        (lambda: clock.started(1, at=6_000), "clock-running"),
        (lambda: clock.resumed(at=6_000), "clock-not-paused"),
        (lambda: clock.paused(at=6_000).started(1, at=7_000), "clock-paused"),
        (lambda: clock.paused(at=6_000).pressed(at=7_000), "clock-not-running"),
    ]
    for act, key in cases:
        with pytest.raises(IllegalActionError) as refused:
            act()
        assert (refused.value.key, refused.value.rule) == (key, "tournament rules")
        assert refused.value.sentence().endswith("(tournament rules).")
    with pytest.raises(IllegalActionError) as refused:
        clock.pressed(at=4_999)
    assert dict(refused.value.params) == {"at": 4_999, "last": 5_000}


def test_a_pause_stops_the_time_and_keeps_the_rest_of_the_delay():
    """tournament rules: a director may stop the clocks"""
    clock = fresh().started(0, at=0).paused(at=5_000)
    assert clock.running is None and clock.paused_for == 0
    assert clock.remaining(0, at=10**9) == 840_000
    assert clock.flag(at=10**9) is None
    resumed = clock.resumed(at=10**9)
    assert resumed.running == 0 and resumed.delay_ms == DELAY - 5_000
    assert resumed.remaining(0, at=10**9 + DELAY - 5_000) == 840_000
    assert resumed.remaining(0, at=10**9 + DELAY) == 835_000
    # paused after the delay: charged so far, no delay left on resuming
    later = fresh().started(1, at=0).paused(at=DELAY + 30_000)
    assert later.remaining_ms == (840_000, 810_000) and later.delay_ms == 0
    assert later.resumed(at=10**6).remaining(1, at=10**6 + 1_000) == 809_000


def test_a_clock_is_a_value():
    """tournament rules: each step gives a new clock, the old one unchanged"""
    clock = fresh().started(0, at=0)
    clock.pressed(at=50_000)
    assert clock.running == 0 and clock.remaining_ms == (840_000, 840_000)
    assert fresh().started(0, at=0) == clock
    with pytest.raises(AttributeError):
        clock.running = 1


# --- properties -------------------------------------------------------------------------

STEPS = st.lists(
    st.tuples(st.sampled_from(["press", "pause", "resume", "look"]), st.integers(0, 60_000)),
    max_size=40,
)


def run(clock, steps, at):
    """Apply the steps a clock allows, returning (clock, time, log of (at, clock))."""
    log = [(at, clock)]
    for action, gap in steps:
        at += gap
        if clock.flag(at) is not None:
            break
        if action == "press" and clock.running is not None:
            clock = clock.pressed(at)
        elif action == "pause" and clock.running is not None:
            clock = clock.paused(at)
        elif action == "resume" and clock.paused_for is not None:
            clock = clock.resumed(at)
        log.append((at, clock))
    return clock, at, log


@given(
    length=st.integers(1, 5),
    first=st.sampled_from([0, 1]),
    start=st.integers(0, 10**12),
    steps=STEPS,
)
def test_time_never_goes_up(length, first, start, steps):
    """tournament rules: a player's time only goes down, and not during the delay"""
    clock = fresh(length).started(first, at=start)
    _, _, log = run(clock, steps, start)
    for (before, earlier), (after, later) in pairwise(log):
        for player in (0, 1):
            assert later.remaining(player, after) <= earlier.remaining(player, before)
            # looking again later never shows more
            assert later.remaining(player, after + 1) <= later.remaining(player, after)


@given(length=st.integers(1, 3), start=st.integers(0, 10**9), steps=STEPS)
def test_a_flag_falls_exactly_at_zero(length, start, steps):
    """tournament rules: the flag falls when the time left reaches 0, not one ms before"""
    clock, at, _ = run(fresh(length).started(0, at=start), steps, start)
    if clock.running is None:
        clock = clock.resumed(at)
    player = clock.running
    left = clock.remaining(player, at)
    if left == 0:
        assert clock.flag(at) == player
        return
    delay_left = clock.delay_ms - min(at - clock.turn_started, clock.delay_ms)
    out = at + delay_left + left
    assert clock.flag(out - 1) is None and clock.remaining(player, out - 1) == 1
    assert clock.flag(out) == player and clock.remaining(player, out) == 0


@given(
    first=st.sampled_from([0, 1]),
    start=st.integers(0, 10**12),
    turns=st.lists(st.integers(0, 40_000), min_size=1, max_size=30),
)
def test_the_time_charged_is_the_time_elapsed_less_the_delays(first, start, turns):
    """tournament rules: every millisecond past a turn's delay is charged to the player on turn"""
    clock, at = fresh(25).started(first, at=start), start
    for turn in turns:
        at += turn
        clock = clock.pressed(at)
    charged = sum(SETTINGS.budget(25) - left for left in clock.remaining_ms)
    delays = sum(min(turn, DELAY) for turn in turns)
    assert charged == (at - start) - delays
