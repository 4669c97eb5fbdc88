"""A result announced once is handled once: the walkovers advancement records are collected
and handed on after the change that caused them, never inside it (matches.hooks)."""

from collections import Counter
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError

from club.models import AuditEntry
from matches.hooks import (
    register_result_listener,
    result_announce,
    results_collected,
    unregister_result_listener,
)
from matches.models import Match
from tournaments.advancement import tournament_results
from tournaments.models import Event
from tournaments.services import entry_withdraw, event_draw

from .helpers import by_key


class Counting:
    """A listener for a test: counts the changes it is told of, per match, and checks it
    is never told one while the tournaments app is still handling another."""

    def __init__(self, busy):
        self.seen = Counter()
        self.busy = busy

    def correction_check(self, *, match):
        pass

    def result_changed(self, *, match, user, corrected):
        assert not self.busy, "told of a result in the middle of another's handling"
        self.seen[match.pk] += 1


@pytest.fixture
def listeners(monkeypatch):
    """The tournaments app's listener counted (and checked never to run inside itself),
    and a counting listener registered for the test."""
    busy = []
    handled = Counter()
    original = tournament_results.result_changed

    def counted(*, match, user, corrected):
        assert not busy, "the tournaments app handled a result inside another"
        handled[match.pk] += 1
        busy.append(match.pk)
        try:
            original(match=match, user=user, corrected=corrected)
        finally:
            busy.pop()

    monkeypatch.setattr(tournament_results, "result_changed", counted)
    counting = Counting(busy)
    register_result_listener(counting)
    yield SimpleNamespace(tournament=handled, counting=counting.seen)
    unregister_result_listener(counting)


@pytest.fixture
def chain(event_with, finish, director):
    """Eight players, knockout: three first-round matches played, the winners of M1-1 and
    of M2-2 (M2-2 won by walkover) withdrawn; M1-2 still to play. Finishing it makes M2-1
    a walkover, whose winner then meets a withdrawn player in the final: another walkover."""
    event = event_with(Event.Format.SINGLE, 8, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    for key in ("M1-1", "M1-3", "M1-4"):
        match = by_key(event, key)
        finish(match, match.player_a)
    semi = by_key(event, "M2-2")
    entry_withdraw(entry=event.entries.get(player=semi.player_b), user=director)
    entry_withdraw(entry=event.entries.get(player=semi.player_a), user=director)
    gone = by_key(event, "M1-1").player_a
    entry_withdraw(entry=event.entries.get(player=gone), user=director)
    return event


@pytest.mark.django_db
def test_a_walkover_chain_tells_each_listener_of_each_match_once(
    chain, listeners, finish, director
):
    m12 = by_key(chain, "M1-2")
    finish(m12, m12.player_a)
    semi, final = by_key(chain, "M2-1"), by_key(chain, "M3-1")
    assert semi.status == final.status == Match.Status.WALKOVER
    assert final.walkover_winner is not None and final.player(final.walkover_winner) == m12.player_a
    once = {m12.pk: 1, semi.pk: 1, final.pk: 1}
    assert listeners.tournament == once
    assert listeners.counting == once


@pytest.mark.django_db
def test_a_result_advancing_past_a_bye_into_a_withdrawn_player_is_handled_once(
    event_with, listeners, finish, director
):
    event = event_with(Event.Format.SINGLE, 5, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    played = Match.objects.get(place__event=event, place__round=1)  # the others are byes
    waiting = Match.objects.exclude(pk=played.pk).filter(place__event=event).count()
    # the seed the winner meets next has a bye in round 1 and withdraws before they meet
    entry_withdraw(entry=event.entries.get(seed=1), user=director)
    listeners.tournament.clear()
    listeners.counting.clear()
    finish(played, played.player_a)
    made = Match.objects.filter(place__event=event).exclude(pk=played.pk)
    assert made.count() == waiting + 1
    walkover = made.get(status=Match.Status.WALKOVER)
    assert listeners.tournament == listeners.counting == {played.pk: 1, walkover.pk: 1}


@pytest.mark.django_db
def test_a_listener_s_refusal_deep_in_the_chain_undoes_the_whole_change(
    chain, listeners, finish, director
):
    m12 = by_key(chain, "M1-2")
    trail = AuditEntry.objects.count()
    matches = Match.objects.count()

    class Refusing:
        def correction_check(self, *, match):
            pass

        def result_changed(self, *, match, user, corrected):
            if match.status == Match.Status.WALKOVER and match.place.bracket_key == "M3-1":
                raise ValidationError("no final today")

    refusing = Refusing()
    register_result_listener(refusing)
    try:
        with pytest.raises(ValidationError, match="no final today"):
            finish(m12, m12.player_a)
    finally:
        unregister_result_listener(refusing)
    m12.refresh_from_db()
    assert m12.status != Match.Status.FINISHED
    assert Match.objects.count() == matches  # neither M2-1 nor the final stay
    assert AuditEntry.objects.count() == trail


def test_a_match_announced_twice_in_one_change_is_handled_once(monkeypatch):
    monkeypatch.setattr("matches.hooks._listeners", [])  # this test's listener alone
    told = []

    class Listener:
        def correction_check(self, *, match):
            pass

        def result_changed(self, *, match, user, corrected):
            told.append((match.pk, corrected))

    register_result_listener(Listener())
    one, two = SimpleNamespace(pk=-1), SimpleNamespace(pk=-2)
    with results_collected():
        result_announce(match=one, user=None)
        result_announce(match=two, user=None)
        result_announce(match=one, user=None, corrected=True)
        assert told == []  # nothing handled before the change is made
        with pytest.raises(RuntimeError), results_collected():
            result_announce(match=SimpleNamespace(pk=-3), user=None)
            raise RuntimeError("this part fails")  # its announcement goes with it
    assert told == [(-2, False), (-1, True)]
