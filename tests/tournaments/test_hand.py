"""An event under the Holland rule (Galore 5.4), and a retirement moving the bracket on."""

import pytest
from django.urls import reverse

from matches.models import Match
from matches.services import match_result_clear, match_retire
from tournaments.models import Event
from tournaments.queries.events import event_matches
from tournaments.services import event_cut, event_draw

from .helpers import by_key

pytestmark = pytest.mark.django_db


def keys(event):
    return {m.place.bracket_key: str(m) for m in event_matches(event=event)}


def test_the_event_form_sets_the_holland_rule_and_the_event_page_shows_it(
    director_client, tournament
):
    url = reverse("event_new", args=[tournament.pk])
    page = director_client.get(url).content.decode()
    assert "Holland rule (Galore 5.4)" in page
    response = director_client.post(
        url,
        {"name": "Main", "format": "single", "lengths": "5", "seeding": "random", "holland": "on"},
    )
    assert response.status_code == 302
    event = Event.objects.get(given_name="Main")
    assert event.holland
    page = director_client.get(reverse("event", args=[event.pk])).content.decode()
    assert 'id="holland"' in page


def test_every_match_of_a_holland_event_is_played_under_it(event_with, finish, director):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING, holland=True)
    plain = event_with(Event.Format.SINGLE, 2)
    event_draw(event=event, user=director)
    event_draw(event=plain, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    assert m11.holland and m12.holland
    finish(m11, m11.player_a)
    finish(m12, m12.player_a)
    assert by_key(event, "M2-1").holland  # the next round too
    assert not any(m.holland for m in event_matches(event=plain))


def test_a_cut_from_a_holland_swiss_keeps_the_rule(event_with, finish, director):
    event = event_with(Event.Format.SWISS, 4, swiss_rounds=1, cut=2, holland=True)
    event_draw(event=event, user=director)
    for match in event_matches(event=event):
        assert match.holland
        finish(match, match.player_a)
    knockout = event_cut(event=Event.objects.get(pk=event.pk), user=director)
    assert knockout.holland and all(m.holland for m in event_matches(event=knockout))


def test_a_retirement_moves_the_winner_on_and_its_undo_takes_them_back(
    event_with, finish, record, director
):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")  # P01 v P04, P02 v P03
    finish(m12, m12.player_a)
    record(m11, 0, cube=2)  # P01 leads 2-0, then retires
    match_retire(match=Match.objects.get(pk=m11.pk), side=0, user=director)
    assert keys(event)["M2-1"] == "P04 – P02 (5)"
    match_result_clear(match=Match.objects.get(pk=m11.pk), user=director)
    assert "M2-1" not in keys(event)
    assert Match.objects.get(pk=m11.pk).status == Match.Status.IN_PLAY
