"""Where a match is played, as the policy knows it: only what a permission needs, asked
afresh outside a request, kept for the rest of a request (club.policy.match_scope), and
the tournament's other settings from matches.places."""

import dataclasses
from contextlib import contextmanager

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from club.policy import MatchScope, can_change_match, match_scope
from matches.places import NOWHERE, MatchPlace, match_place
from tournaments.models import Event
from tournaments.services import event_draw

from ..tournaments.helpers import by_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(event_with, director):
    event = event_with(Event.Format.SINGLE, 2)
    event_draw(event=event, seed=1, user=director)
    return by_key(event, "M1-1")


def test_the_policy_s_scope_holds_only_what_a_permission_needs():
    assert [f.name for f in dataclasses.fields(MatchScope)] == [
        "tournament_id",
        "directors",
        "physical_dice",
        "player_reports",
    ]


def test_the_tournament_s_settings_reach_the_match_through_its_place(drawn, match5):
    place = match_place(drawn)
    assert isinstance(place, MatchPlace)
    assert place.report_detail == "either" and place.confirm_minutes == 15
    assert place.label.startswith("Torneo di Natale · ") and place.url
    assert match_place(match5) == NOWHERE  # a match outside any tournament


def test_outside_a_request_a_new_director_counts_at_once(drawn, other_director):
    assert not can_change_match(other_director, drawn)
    drawn.place.event.tournament.directors.add(other_director)
    assert can_change_match(other_director, drawn)  # the same object, asked again
    assert "_scope" not in drawn.__dict__


@contextmanager
def serving():
    """As Django's test client serves a request: its signals, the database kept open."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    request_started.send(sender=None)
    try:
        yield
    finally:
        request_finished.send(sender=None)
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_in_a_request_the_scope_is_found_once_per_match(drawn, django_assert_num_queries):
    with serving():
        match_scope(drawn)
        with django_assert_num_queries(0):
            match_scope(drawn)
    with django_assert_num_queries(2):  # the request over: the tournament and its directors
        match_scope(drawn)
