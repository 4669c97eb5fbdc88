"""Lateness penalty points (tournament rules) and a match's expected duration (WBF 3).

Penalty points are a tournament's setting, outside the seeds: commonly a point for every 5
minutes late, no grace, a forfeit once they reach half the match length. WBF 3 gives the
expected durations: a 3-point match about 20 minutes, 7 points an hour, 25 four to five hours.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidMatchLengthError
from rules.lateness import (
    LatenessRules,
    expected_minutes,
    forfeits,
    overdue,
    penalty_points,
    remaining_expected_minutes,
)

RULES = LatenessRules()
MINUTE = 60


def test_the_defaults():
    """tournament rules: 5 minutes a point, no grace, a forfeit at half the length"""
    assert (RULES.minutes_per_point, RULES.grace_minutes, RULES.forfeit_at_half) == (5, 0, True)
    with pytest.raises(ValueError):
        LatenessRules(minutes_per_point=0)
    with pytest.raises(ValueError):
        LatenessRules(grace_minutes=-1)


@pytest.mark.parametrize(
    ("late", "points"),
    [(-600, 0), (0, 0), (1, 0), (299, 0), (300, 1), (599, 1), (600, 2), (3_000, 10)],
)
def test_a_point_for_every_complete_five_minutes(late, points):
    """tournament rules: 0:00-4:59 late is no point, 5:00 one, 10:00 two"""
    called = 1_700_000_000
    assert penalty_points(called, called + late, RULES) == points


def test_a_grace_period_and_another_period():
    """tournament rules: both are settings"""
    graced = LatenessRules(grace_minutes=5)
    assert penalty_points(0, 5 * MINUTE, graced) == 0
    assert penalty_points(0, 10 * MINUTE - 1, graced) == 0
    assert penalty_points(0, 10 * MINUTE, graced) == 1
    assert penalty_points(0, 30 * MINUTE, LatenessRules(minutes_per_point=10)) == 3


@given(
    called=st.integers(0, 10**10),
    first=st.integers(-(10**4), 10**5),
    later=st.integers(0, 10**5),
    period=st.integers(1, 15),
    grace=st.integers(0, 15),
)
def test_penalty_points_never_fall_as_arrival_gets_later(called, first, later, period, grace):
    """tournament rules: arriving later never costs fewer points"""
    rules = LatenessRules(minutes_per_point=period, grace_minutes=grace)
    earlier = penalty_points(called, called + first, rules)
    assert earlier >= 0
    assert penalty_points(called, called + first + later, rules) >= earlier


@pytest.mark.parametrize(("length", "least"), [(1, 1), (3, 2), (5, 3), (7, 4), (25, 13)])
def test_a_forfeit_at_half_the_length(length, least):
    """tournament rules: penalty points of half the match length or more forfeit it"""
    assert not forfeits(least - 1, length, RULES)
    assert forfeits(least, length, RULES)
    assert forfeits(least + 1, length, RULES)
    assert not forfeits(length, length, LatenessRules(forfeit_at_half=False))


@given(length=st.integers(1, 63), points=st.integers(0, 70))
def test_a_forfeit_exactly_at_half(length, points):
    """tournament rules: exactly when twice the points reach the length"""
    assert forfeits(points, length, RULES) == (2 * points >= length)
    with pytest.raises(InvalidMatchLengthError):
        forfeits(points, 0, RULES)


def test_wbf_3_s_figures():
    """WBF 3: 3 points about 20 minutes, 7 about an hour, 25 four to five hours"""
    assert expected_minutes(3) == 20
    assert expected_minutes(7) == 60
    assert 4 * 60 <= expected_minutes(25) <= 5 * 60
    assert expected_minutes(5) == 40  # halfway between 3 and 7
    assert expected_minutes(1) == 7  # a third of a 3-point match
    assert expected_minutes(31) == 340  # the 7-25 line carried on


@given(length=st.integers(1, 100))
def test_longer_matches_are_expected_to_take_longer(length):
    """WBF 3"""
    assert 0 < expected_minutes(length) < expected_minutes(length + 1)


def test_the_minutes_still_expected():
    """WBF 3: in proportion to the points the leader still needs"""
    assert remaining_expected_minutes(7, (0, 0)) == 60
    assert remaining_expected_minutes(7, (6, 0)) == 9
    assert remaining_expected_minutes(25, (0, 20)) == 54
    assert remaining_expected_minutes(7, (7, 3)) == 0
    with pytest.raises(ValueError):
        remaining_expected_minutes(7, (-1, 0))


@given(length=st.integers(1, 40), a=st.integers(0, 40), b=st.integers(0, 40))
def test_the_minutes_still_expected_fall_as_the_score_grows(length, a, b):
    """WBF 3"""
    left = remaining_expected_minutes(length, (a, b))
    assert 0 <= left <= expected_minutes(length)
    assert remaining_expected_minutes(length, (a + 1, b)) <= left


def test_a_match_running_well_past_its_time():
    """WBF 3: played and still expected together, against 1.5 times the expected duration"""
    assert not overdue(7, (0, 0), 30)
    assert overdue(7, (0, 0), 31)
    assert not overdue(7, (6, 5), 80)
    assert overdue(7, (6, 5), 82)
    assert not overdue(3, (0, 0), 20, factor=2)
    assert overdue(3, (0, 0), 21, factor=2)
