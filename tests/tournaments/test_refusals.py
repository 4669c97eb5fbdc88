"""The director's refused forms on the tournament's pages: each answers its page again with
what is wrong (400), never a server error (issue 23.3, 23.6)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tournaments.models import Event
from tournaments.services import event_draw

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """The page's words as a reader sees them."""
    words = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(words))


@pytest.fixture
def drawn(event_with, director):
    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    return event


def open_swiss(event_with):
    """A Swiss still taking entries: three players, none checked in yet."""
    return event_with(Event.Format.SWISS, 3, swiss_rounds=2, check_in=False)


@pytest.mark.parametrize(
    ("name", "state", "data", "said"),
    [
        ("late_entry", "drawn", {}, "This field is required."),
        ("redraw", "drawn", {"seed": "-1"}, "Ensure this value is greater than or equal to 0."),
        ("entries_add", "open", {}, "This field is required."),
        ("draw", "open", {"seed": "abc"}, "Enter a whole number."),
    ],
)
def test_a_refused_event_form_shows_the_event_page_with_what_is_wrong(
    director_client, event_with, drawn, name, state, data, said
):
    """Issue 23.3: a late entry with no player chosen answered 500 (its page missed the
    refresh interval of the event's live region). The page refreshes itself from the
    event's address, not from the form's, which answers no GET."""
    event = drawn if state == "drawn" else open_swiss(event_with)
    response = director_client.post(reverse(name, args=[event.pk]), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert said in text(response)
    assert f'data-refresh="{event.get_absolute_url()}"' in page
    assert reverse(name, args=[event.pk]) not in re.findall(r'data-refresh="([^"]*)"', page)


def test_a_refused_late_entry_says_what_is_wrong_in_italian(director_client, drawn):
    response = director_client.post(
        reverse("late_entry", args=[drawn.pk]), {}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.status_code == 400
    assert "Questo campo è obbligatorio." in text(response)
    assert 'id="late"' in response.content.decode()  # the form again, to choose the player


def test_a_late_arrival_posted_before_the_draw_is_refused_in_words(director_client, event_with):
    """The event not yet drawn shows no late-arrival form: its refusal is said as a message,
    the field named."""
    event = open_swiss(event_with)
    response = director_client.post(reverse("late_entry", args=[event.pk]), {})
    assert response.status_code == 400
    assert "Player arriving late: This field is required." in text(response)


@pytest.mark.parametrize("name", ["redraw", "draw_undo"])
def test_a_redraw_of_an_event_not_yet_drawn_is_refused_in_words(director_client, event_with, name):
    """Issue 23.6: the redraw's confirmation page read the time of a draw never made (500).
    Nothing to confirm: the refusal is said on the event page."""
    event = open_swiss(event_with)
    response = director_client.post(reverse(name, args=[event.pk]), {}, follow=True)
    assert response.redirect_chain[-1][0] == event.get_absolute_url()
    assert f"The draw of {event.name} is not made yet." in text(response)
    assert not Event.objects.get(pk=event.pk).drawn


@pytest.mark.parametrize("name", ["redraw", "draw_undo"])
def test_a_draw_whose_match_the_players_reported_stands(
    director_client, director, event_with, django_user_model, name
):
    """A redraw removed the matches of the draw, one with the players' report waiting: the
    report keeps its match (500). A reported result is a match played: the draw stands, and
    the page says which match."""
    from club.models import Player
    from matches.models import Match, ResultReport
    from matches.reports import report_make
    from tournaments.services import tournament_reports_set

    event = event_with(Event.Format.SINGLE, 4)
    tournament_reports_set(
        tournament=event.tournament,
        results_by="players",
        report_detail="either",
        confirm_minutes=15,
        user=director,
    )
    event_draw(event=event, seed=1, user=director)
    match = Match.objects.filter(place__event=event).order_by("pk").first()
    account = django_user_model.objects.create_user("anna", password="pw-anna-1")
    Player.objects.filter(pk=match.player_a_id).update(user=account)
    match = Match.objects.select_related("player_a", "player_b").get(pk=match.pk)
    report_make(match=match, user=account, score_a=5, score_b=1)
    drawn_at = event.drawn_at.isoformat()

    response = director_client.post(
        reverse(name, args=[event.pk]), {"confirm": "1", "drawn_at": drawn_at}, follow=True
    )

    assert f"the match {match} has begun" in text(response)
    assert Match.objects.filter(pk=match.pk).exists()
    assert ResultReport.objects.filter(match=match, status="pending").exists()


@pytest.mark.parametrize("sent", ["abc", "\x00", " ", "1e309", "9" * 40, "-1", ""])
def test_a_check_in_from_the_phone_with_a_nonsense_entry_is_not_found(
    client, director, event_with, django_user_model, sent
):
    """Issue 23.6: a non-numeric ``entry`` on the check-in page answered 500 (and a number
    too large for SQLite did too): it is no entry of the tournament's, so not found, and
    nobody is checked in."""
    from club.models import Player
    from tournaments.models import Entry

    event = open_swiss(event_with)
    entry = event.entries.first()
    account = django_user_model.objects.create_user("anna", password="pw-anna-1")
    Player.objects.filter(pk=entry.player_id).update(user=account)
    client.force_login(account)
    response = client.post(reverse("tournament_here", args=[event.tournament_id]), {"entry": sent})
    assert response.status_code == 404
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED


@pytest.mark.parametrize("sent", [str(2**64), "9" * 40])
def test_a_choice_of_rows_with_an_id_too_large_is_refused_in_words(
    director_client, tournament, event_with, sent
):
    """Issue 23.6: a chosen id beyond 64 bits made SQLite fail (500) in the tournament's
    directors and the players to enter; it is no row's, and the form says so."""
    event = open_swiss(event_with)
    edit = director_client.post(
        reverse("tournament_edit", args=[tournament.pk]),
        {"name": tournament.name, "date": "2026-12-13", "directors": sent},
    )
    enter = director_client.post(reverse("entries_add", args=[event.pk]), {"players": sent})
    for response in (edit, enter):
        assert response.status_code == 400
        assert f"“{sent}” is not a valid value." in text(response)
    assert event.entries.count() == 3
