"""Issue 24.2: a player sits at one table at a time.

Two events of one tournament share the room; P01 plays in both. While P01's match of the
first event is in play (or at a table), their match of the second waits, the dashboard says
for whom, their phone does not call them to a second table, and the tables go to matches
that can start. The director may still seat it by hand, and is told where P01 is.
"""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse

from club.models import Player
from matches.models import Match
from tests.helpers import page_words as text
from tournaments.models import Event, Table
from tournaments.services import event_draw
from tournaments.venue import tournament_tables_set

pytestmark = pytest.mark.django_db


def of(event, player):
    return Match.objects.get(Q(player_a=player) | Q(player_b=player), place__event=event)


@pytest.fixture
def busy(tournament, event_with, field, director, record):
    """Four tables. A knockout of P01-P04 at tables 1 and 2, P01's match in play; then a
    knockout of P01 and W01-W03: P01's match there waits, the other takes table 3."""
    tournament_tables_set(tournament=tournament, count=4, user=director)
    players = field(4)
    first = event_with(Event.Format.SINGLE, players, lengths=(5,))
    event_draw(event=first, seed=1, user=director)
    p01 = players[0]
    playing = of(first, p01)
    record(playing, 0 if playing.player_a_id == p01.pk else 1)  # a game in: in play
    second = event_with(Event.Format.SINGLE, [p01, *field(3, "W")], lengths=(5,))
    event_draw(event=second, seed=1, user=director)
    return {"p01": p01, "first": first, "second": second, "playing": playing}


def test_a_match_whose_player_is_at_another_table_waits_and_the_free_one_goes_on(busy):
    p01, second = busy["p01"], busy["second"]
    waits = of(second, p01)
    assert Match.objects.get(pk=busy["playing"].pk).status == Match.Status.IN_PLAY
    assert getattr(waits, "table", None) is None  # two tables free, but P01 is at table 1
    other = Match.objects.filter(place__event=second).exclude(pk=waits.pk).get()
    assert other.table.number == 3  # a match that can start is seated, though drawn after
    assert Table.objects.filter(match__isnull=False).count() == 3


def test_the_dashboard_says_the_match_waits_for_the_player_in_play(
    busy, director_client, tournament, record
):
    p01, playing = busy["p01"], busy["playing"]
    url = reverse("tournament_dashboard", args=[tournament.pk])
    page = text(director_client.get(url))
    at = playing.table.number
    assert f"Waits for {p01.name}, who is at table {at} in another match." in page
    assert "add tables" not in page  # tables are free: more would not seat it
    italian = text(director_client.get(url, HTTP_ACCEPT_LANGUAGE="it"))
    assert f"Aspetta {p01.name}, che è al tavolo {at} in un’altra partita." in italian
    # P01's match ends: the match waiting for them takes a table by itself
    side = 0 if playing.player_a_id == p01.pk else 1
    while not Match.objects.get(pk=playing.pk).decided:
        record(playing, side)
    waited = of(busy["second"], p01)
    assert waited.table.number in (1, 2, 4)
    assert "Waits for" not in text(director_client.get(url))


def test_the_player_s_phone_does_not_call_them_to_a_second_table(busy, client, django_user_model):
    p01 = busy["p01"]
    account = django_user_model.objects.create_user("p01", password="pw-p01-1")
    Player.objects.filter(pk=p01.pk).update(user=account)
    client.force_login(account)
    page = text(client.get(reverse("me")))
    assert "now: your table is ready" not in page
    assert "Table not yet" in page and "when your match in play is over" in page
    assert f"table {busy['playing'].table.number}" in page  # the match in play, and where


def test_the_director_seats_it_by_hand_and_is_told_where_the_player_is(busy, director_client):
    p01, second, playing = busy["p01"], busy["second"], busy["playing"]
    waits = of(second, p01)
    url = reverse("round_table_move", args=[second.pk, 1])
    answer = director_client.post(url, {"match": waits.pk, "table": 4}, follow=True)
    page = text(answer)
    assert "is now at table 4" in page
    assert (
        f"{p01.name} is at table {playing.table.number} in another match ({playing}): "
        "this match can begin when they are free."
    ) in page
    assert 'class="message warning"' in answer.content.decode()
    assert Match.objects.get(pk=waits.pk).table.number == 4  # seated, as the director chose
    # a match whose players are free is moved without a warning
    other = Match.objects.filter(place__event=second).exclude(pk=waits.pk).get()
    calm = director_client.post(url, {"match": other.pk, "table": 2}, follow=True)
    assert "is now at table 2" in text(calm) and "when they are free" not in text(calm)
