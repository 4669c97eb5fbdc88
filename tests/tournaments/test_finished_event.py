"""A finished event is closed: its page offers neither a late arrival nor Withdraw, and a
post to either is refused in plain words naming the event (issue 25, point 7)."""

import pytest
from django.urls import reverse

from tests.helpers import page_words
from tournaments.models import Event
from tournaments.queries.events import event_matches
from tournaments.services import event_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(event_with, director, finish):
    """A four-player knockout played to its champion."""
    event = event_with(Event.Format.SINGLE, 4, lengths=(5, 5))
    event_draw(event=event, seed=1, user=director)
    while waiting := [m for m in event_matches(event=event) if not m.decided]:
        for match in waiting:
            finish(match, match.player_a)
    return event


def test_a_finished_event_offers_neither_a_late_arrival_nor_withdraw(finished, director_client):
    for language in ("en", "it"):
        page = director_client.get(finished.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200
        html = page.content.decode()
        assert reverse("late_entry", args=[finished.pk]) not in html
        for entry in finished.entries.all():
            assert reverse("entry_withdraw", args=[entry.pk]) not in html
    assert "A player arrives late" not in page_words(
        director_client.get(finished.get_absolute_url())
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "is finished: a player can no longer join it."),
        ("it", "è finito: nessun giocatore può più entrarvi."),
    ],
)
def test_a_late_arrival_at_a_finished_event_is_refused(
    finished, field, director_client, language, said
):
    late = field(1, "Late")[0]
    done = director_client.post(
        reverse("late_entry", args=[finished.pk]),
        {"player": late.pk},
        follow=True,
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert done.status_code in (200, 400)
    assert f"{finished.name} {said}" in page_words(done)
    assert not finished.entries.filter(player=late).exists()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "is finished: nobody can withdraw from it."),
        ("it", "è finito: nessuno può più ritirarsi."),
    ],
)
def test_a_withdrawal_from_a_finished_event_is_refused(finished, director_client, language, said):
    entry = finished.entries.first()
    url = reverse("entry_withdraw", args=[entry.pk])
    for data in ({}, {"confirm": "1"}):  # asked or confirmed, both refused at once
        done = director_client.post(url, data, follow=True, HTTP_ACCEPT_LANGUAGE=language)
        assert done.status_code == 200
        assert f"{finished.name} {said}" in page_words(done)
    entry.refresh_from_db()
    assert entry.status == entry.Status.CHECKED_IN


def test_a_refused_reinstatement_names_the_match_the_walkover_led_to(
    event_with, director, finish, director_client
):
    """US rules 4.10: the walkover stands once its winner has begun a later match. The
    refusal names the match the walkover sent them to (the semi-final), not their latest
    (the final)."""
    from tournaments.queries.knockouts import event_knockout
    from tournaments.services import entry_withdraw

    event = event_with(Event.Format.SINGLE, 8, lengths=(5, 5, 5))
    event_draw(event=event, seed=1, user=director)
    knockout = event_knockout(event=event)
    first = knockout.matches["M1-1"]
    gone = event.entries.get(player=first.player_b)
    entry_withdraw(entry=gone, user=director)  # a walkover to the other in M1-1
    for key in ("M1-2", "M1-3", "M1-4"):
        match = event_knockout(event=event).matches[key]
        finish(match, match.player_a)
    semi = event_knockout(event=event).matches["M2-1"]
    finish(semi, semi.player_a if semi.player_a_id == first.player_a_id else semi.player_b)
    other = event_knockout(event=event).matches["M2-2"]
    finish(other, other.player_a)
    final = event_knockout(event=event).matches["M3-1"]
    finish(final, final.player_a)
    semi = event_knockout(event=event).matches["M2-1"]
    done = director_client.post(
        reverse("entry_reinstate", args=[gone.pk]), {"confirm": "1"}, follow=True
    )
    words = page_words(done)
    assert f"the later match {semi} has begun" in words
    assert f"the later match {final} has begun" not in words
