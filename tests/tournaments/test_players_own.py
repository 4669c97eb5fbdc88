"""Players on their phones: their own page, checking in, asking to enter a tournament."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from club.audit import audit_for_tournament, audit_sentence
from club.models import Player
from club.policy import SYSTEM
from club.services import player_update
from matches.models import Match
from tournaments.models import Entry, EntryRequest, Event, Table
from tournaments.services import (
    entry_check_in,
    entry_register,
    entry_request_create,
    entry_request_decide,
    entry_request_sign_up,
    event_create,
    event_draw,
    tournament_open_entry_set,
)
from tournaments.venue import match_table_move, tournament_tables_set

pytestmark = pytest.mark.django_db
PASSWORD = "tavola-reale-42"


@pytest.fixture
def player_user(django_user_model):
    return django_user_model.objects.create_user("anna", password=PASSWORD)


@pytest.fixture
def linked(anna, player_user, director):
    """Anna Rossi, signed in with her own account."""
    return player_update(player=anna, account=player_user, user=SYSTEM)


@pytest.fixture
def event(tournament, director):
    return event_create(
        tournament=tournament, name="Main", format=Event.Format.SINGLE, lengths=[5], user=director
    )


@pytest.fixture
def anna_client(client, player_user, linked):
    client.force_login(player_user)
    return client


# --- checking in ------------------------------------------------------------------------------


def test_a_player_checks_themselves_in_audited_as_done_by_them(
    linked, player_user, event, director
):
    entry = entry_register(event=event, player=linked, user=director)
    entry_check_in(entry=entry, user=player_user)
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.CHECKED_IN
    change = audit_for_tournament(tournament_id=event.tournament_id).get(code="entry.checked_in")
    assert change.user == player_user
    # the account linked to Anna Rossi is named by her name (club.audit.actor_name)
    assert audit_sentence(change) == "Anna Rossi checked themselves in for Main."
    with translation.override("it"):
        assert "%(" not in audit_sentence(change)


def test_a_player_does_not_check_in_someone_else(linked, player_user, bruno, event, director):
    other = entry_register(event=event, player=bruno, user=director)
    with pytest.raises(PermissionDenied):
        entry_check_in(entry=other, user=player_user)
    assert Entry.objects.get(pk=other.pk).status == Entry.Status.REGISTERED


def test_a_player_is_told_check_in_is_over_after_the_draw(
    linked, player_user, event, field, director
):
    entry = entry_register(event=event, player=linked, user=director)
    for other in field(3):
        entry_check_in(
            entry=entry_register(event=event, player=other, user=director), user=director
        )
    entry_check_in(entry=entry, user=director)  # one more needed to draw four
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.REGISTERED)
    event_draw(event=event, seed=1, user=director)
    with pytest.raises(ValidationError, match="check-in is over"):
        entry_check_in(entry=entry, user=player_user)


def test_the_director_still_checks_in_by_hand(linked, event, director):
    entry = entry_register(event=event, player=linked, user=director)
    entry_check_in(entry=entry, user=director)
    change = audit_for_tournament(tournament_id=event.tournament_id).get(code="entry.checked_in")
    assert audit_sentence(change) == "director checked in Anna Rossi for Main."


def test_the_button_on_the_home_checks_the_player_in(anna_client, linked, event, director):
    entry = entry_register(event=event, player=linked, user=director)
    home = anna_client.get(reverse("me")).content.decode()
    assert "I am here: check me in for Main" in home
    done = anna_client.post(
        reverse("tournament_here", args=[event.tournament_id]), {"entry": entry.pk}, follow=True
    )
    text = done.content.decode()
    assert "You are checked in for Main." in text
    assert "I am here" not in text  # the button is gone
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.CHECKED_IN


def test_the_qr_code_at_the_door_leads_to_a_confirmation(anna_client, linked, event, director):
    entry = entry_register(event=event, player=linked, user=director)
    url = reverse("tournament_here", args=[event.tournament_id])
    page = anna_client.get(url).content.decode()
    assert "Check me in for Main" in page
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED  # GET changes nothing
    anna_client.post(url, {"entry": entry.pk})
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.CHECKED_IN
    assert "You are checked in for Main." in anna_client.get(url).content.decode()


def test_a_visitor_who_scans_the_code_is_asked_to_sign_in_first(client, event):
    url = reverse("tournament_here", args=[event.tournament_id])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login")) and "here" in response["Location"]


def test_the_check_in_page_says_when_it_is_too_late(anna_client, linked, event, field, director):
    entry = entry_register(event=event, player=linked, user=director)
    for other in field(3):
        entry_check_in(
            entry=entry_register(event=event, player=other, user=director), user=director
        )
    entry_check_in(entry=entry, user=director)
    event_draw(event=event, seed=1, user=director)
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.REGISTERED)
    url = reverse("tournament_here", args=[event.tournament_id])
    assert "check-in is over" in anna_client.get(url).content.decode()
    refused = anna_client.post(url, {"entry": entry.pk}, follow=True).content.decode()
    assert "The draw is made: check-in is over." in refused


def test_a_player_posting_another_s_entry_is_refused(anna_client, linked, bruno, event, director):
    other = entry_register(event=event, player=bruno, user=director)
    url = reverse("tournament_here", args=[event.tournament_id])
    assert anna_client.post(url, {"entry": other.pk}).status_code == 403
    assert Entry.objects.get(pk=other.pk).status == Entry.Status.REGISTERED


def test_the_poster_shows_the_check_in_link_as_a_qr_code(director_client, event):
    page = director_client.get(reverse("check_in_poster", args=[event.tournament_id]))
    text = page.content.decode()
    assert page.status_code == 200 and "<svg" in text
    assert f"http://testserver/tournaments/{event.tournament_id}/here/" in text


# --- the player's home -----------------------------------------------------------------------


def test_the_home_shows_the_next_match_with_its_opponent_length_and_no_invented_time(
    anna_client, linked, field, event_with, director
):
    people = [linked, *field(3)]
    drawn = event_with(Event.Format.SINGLE, people)
    event_draw(event=drawn, seed=1, user=director)
    match = Match.objects.filter(place__event=drawn).filter(player_a=linked).first() or (
        Match.objects.filter(place__event=drawn, player_b=linked).first()
    )
    opponent = match.player_b if match.player_a == linked else match.player_a
    home = anna_client.get(reverse("me")).content.decode()
    assert f"against {opponent.name}" in home and "match to 5" in home
    # no tables in this room: a match ready to play starts when its players sit down
    assert '<dd id="next-start">now: find your opponent</dd>' in home
    assert '<dd id="next-table">not yet</dd>' in home
    # one table for two matches: the other waits for it, then it is seated
    tournament_tables_set(tournament=drawn.tournament, count=1, user=director)
    seated = Table.objects.filter(match__isnull=False).get().match
    home = anna_client.get(reverse("me")).content.decode()
    if seated == match:
        assert '<dd id="next-start">now: your table is ready</dd>' in home
        assert '<dd id="next-table">1</dd>' in home
    else:
        assert '<dd id="next-start">when a table is free</dd>' in home
        assert '<dd id="next-table">not yet</dd>' in home
    other = Match.objects.filter(place__event=drawn, place__round=1).exclude(pk=seated.pk).get()
    match_table_move(match=other, number=1, user=director)  # the director swaps them
    home = anna_client.get(reverse("me")).content.decode()
    ready = other == match
    assert ('<dd id="next-start">now: your table is ready</dd>' in home) == ready
    assert ('<dd id="next-start">when a table is free</dd>' in home) == (not ready)


def test_the_home_shows_matches_in_play_results_and_ratings(
    anna_client, linked, bruno, director, record, finish
):
    from matches.services import match_create

    playing = match_create(player_a=linked, player_b=bruno, length=5, user=director)
    record(playing, 0)
    done = match_create(player_a=bruno, player_b=linked, length=3, user=director)
    finish(done, linked, loser_points=1)
    home = anna_client.get(reverse("me")).content.decode()
    in_play = home[home.index('id="in-play"') : home.index('id="entries"')]
    assert "against Bruno Bianchi" in in_play and "1–0" in in_play
    results = home[home.index('id="results"') : home.index('id="ratings"')]
    assert "Won" in results and "3–1" in results
    ratings = home[home.index('id="ratings"') :]
    assert "1500.00 →" in ratings


def test_the_home_s_queries_do_not_grow_with_the_matches(
    client, player_user, linked, field, director, finish, django_assert_num_queries
):
    from matches.services import match_create

    client.force_login(player_user)

    def play(count):
        for other in field(count, prefix=f"X{count}-"):
            finish(match_create(player_a=linked, player_b=other, length=3, user=director), linked)
            match_create(player_a=other, player_b=linked, length=5, user=director)

    play(2)
    with CaptureQueriesContext(connection) as few:
        assert client.get(reverse("me")).status_code == 200
    play(8)
    with django_assert_num_queries(len(few.captured_queries)):
        assert client.get(reverse("me")).status_code == 200


def test_an_account_not_linked_to_a_player_is_told_so(member_client):
    page = member_client.get(reverse("me")).content.decode()
    assert "not linked to a player" in page


def test_the_header_links_a_player_to_their_page(anna_client):
    assert 'id="my-page"' in anna_client.get(reverse("home")).content.decode()


def test_the_header_has_no_player_link_for_a_director(director_client):
    assert 'id="my-page"' not in director_client.get(reverse("home")).content.decode()


# --- my details --------------------------------------------------------------------------------


def test_a_player_changes_their_details_on_their_profile(anna_client, linked):
    url = reverse("my_profile")
    page = anna_client.get(url).content.decode()
    assert 'name="country"' not in page and 'name="email"' in page
    anna_client.post(
        url,
        {
            "name": "Anna Maria Rossi",
            "club": "Circolo",
            "email": "a@example.org",
            "phone": "1",
            "country": "Francia",  # not on the form: ignored
        },
    )
    saved = Player.objects.get(pk=linked.pk)
    assert (saved.name, saved.club, saved.country) == ("Anna Maria Rossi", "Circolo", "IT")


def test_the_profile_lets_the_browser_fill_in_the_player_s_own_details(anna_client, linked):
    """WCAG 1.3.5: the fields about the person themselves say what they hold."""
    page = anna_client.get(reverse("my_profile")).content.decode()
    for name, token in {"name": "name", "email": "email", "phone": "tel"}.items():
        assert re.search(rf'<input[^>]*name="{name}"[^>]*autocomplete="{token}"', page) or (
            re.search(rf'<input[^>]*autocomplete="{token}"[^>]*name="{name}"', page)
        ), name


def test_an_empty_name_is_refused_on_the_profile(anna_client, linked):
    page = anna_client.post(reverse("my_profile"), {"name": "", "club": "", "email": ""})
    assert page.status_code == 400
    assert Player.objects.get(pk=linked.pk).name == "Anna Rossi"


# --- asking to enter ---------------------------------------------------------------------------


def test_asking_is_closed_by_default(linked, player_user, event):
    with pytest.raises(ValidationError, match="does not take requests") as refused:
        entry_request_create(event=event, user=player_user)
    assert refused.value.code == "closed"


def test_a_player_asks_and_the_director_approves_the_entry_made(
    linked, player_user, event, director
):
    tournament_open_entry_set(tournament=event.tournament, allowed=True, user=director)
    event.tournament.refresh_from_db()
    asked = entry_request_create(event=event, user=player_user)
    with pytest.raises(ValidationError, match="has asked to enter Main already"):
        entry_request_create(event=event, user=player_user)
    decided = entry_request_decide(request=asked, approve=True, user=director)
    assert decided.status == EntryRequest.Status.APPROVED
    assert Entry.objects.filter(event=event, player=linked).exists()
    with pytest.raises(ValidationError, match="already entered in Main") as refused:
        entry_request_create(event=event, user=player_user)
    assert refused.value.code == "entered"
    codes = [e.code for e in audit_for_tournament(tournament_id=event.tournament_id)]
    assert {"entry_request.asked", "entry_request.approved", "entry.registered"} <= set(codes)
    said = [audit_sentence(e) for e in audit_for_tournament(tournament_id=event.tournament_id)]
    assert "Anna Rossi asked to enter Main." in said
    assert "director approved the request of Anna Rossi to enter Main." in said
    assert "director let players ask to enter the events." in said


def test_a_declined_request_makes_no_entry_and_can_be_asked_again(
    linked, player_user, event, director
):
    tournament_open_entry_set(tournament=event.tournament, allowed=True, user=director)
    event.tournament.refresh_from_db()
    asked = entry_request_create(event=event, user=player_user)
    entry_request_decide(request=asked, approve=False, user=director)
    assert not Entry.objects.filter(event=event).exists()
    with pytest.raises(ValidationError, match="answered already"):
        entry_request_decide(request=asked, approve=True, user=director)
    assert entry_request_create(event=event, user=player_user).status == "pending"


def test_the_database_keeps_one_pending_request_a_player_and_event(linked, event):
    EntryRequest.objects.create(event=event, player=linked)
    with pytest.raises(IntegrityError), transaction.atomic():
        EntryRequest.objects.create(event=event, player=linked)


def test_another_tournament_s_director_does_not_answer(linked, player_user, event, director):
    other = get_user_model().objects.create_user("someone", password="pw-someone-1")
    tournament_open_entry_set(tournament=event.tournament, allowed=True, user=director)
    event.tournament.refresh_from_db()
    asked = entry_request_create(event=event, user=player_user)
    with pytest.raises(PermissionDenied):
        entry_request_decide(request=asked, approve=True, user=other)


def test_a_visitor_makes_an_account_on_the_way_and_is_signed_in(client, event, director):
    tournament_open_entry_set(tournament=event.tournament, allowed=True, user=director)
    url = reverse("event_ask", args=[event.pk])
    assert 'name="password1"' in client.get(url).content.decode()
    done = client.post(
        url,
        {
            "username": "carla",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "name": "Carla Verdi",
            "club": "",
            "email": "",
            "phone": "",
        },
        follow=True,
    )
    text = done.content.decode()
    assert "You asked to enter Main: the director will answer." in text
    player = Player.objects.get(name="Carla Verdi")
    assert player.user.username == "carla"
    assert EntryRequest.objects.get(player=player).status == "pending"
    director_page = client.get(event.tournament.get_absolute_url())  # carla: no director tools
    assert "Approve" not in director_page.content.decode()


def test_the_sign_up_is_all_or_nothing_when_closed(event):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ValidationError, match="does not take requests"):
        entry_request_sign_up(
            event=event, username="carla", password=PASSWORD, name="Carla", user=AnonymousUser()
        )
    assert not get_user_model().objects.filter(username="carla").exists()
    assert not Player.objects.filter(name="Carla").exists()


def test_the_director_sees_and_answers_requests_on_the_tournament_page(
    client, director, linked, player_user, event
):
    client.force_login(director)
    client.post(reverse("tournament_open_entry", args=[event.tournament_id]), {"allowed": "on"})
    client.force_login(player_user)
    assert "Ask to enter" in client.get(event.get_absolute_url()).content.decode()
    client.post(reverse("event_ask", args=[event.pk]))
    asked = EntryRequest.objects.get()
    client.force_login(director)
    page = client.get(event.tournament.get_absolute_url()).content.decode()
    assert f'id="request-{asked.pk}"' in page and "Anna Rossi" in page
    done = client.post(reverse("entry_request_approve", args=[asked.pk]), follow=True)
    assert "Anna Rossi is entered in Main." in done.content.decode()
    assert Entry.objects.filter(event=event, player=linked).exists()


def test_the_ask_page_refuses_in_plain_words(anna_client, linked, event, director):
    closed = anna_client.get(reverse("event_ask", args=[event.pk])).content.decode()
    assert "Main does not take requests to enter" in closed
    tournament_open_entry_set(tournament=event.tournament, allowed=True, user=director)
    entry_register(event=event, player=linked, user=director)
    entered = anna_client.post(reverse("event_ask", args=[event.pk]))
    assert entered.status_code == 409
    assert "Anna Rossi is already entered in Main." in entered.content.decode()


def test_the_tournament_s_invitation_cards_for_its_entrants(
    director_client, anna, bruno, member, event, director
):
    entry_register(event=event, player=anna, user=director)
    entry_register(event=event, player=bruno, user=director)
    player_update(player=bruno, account=member, user=SYSTEM)
    url = reverse("tournament_invitations", args=[event.tournament_id])
    before = director_client.get(url).content.decode()
    assert "1 player has no invitation link yet" in before and "<svg" not in before
    director_client.post(url)
    cards = director_client.get(url).content.decode()
    token = anna.invitations.get().token
    assert f"/invitations/{token}/" in cards and cards.count("<svg") == 1
    assert "Signed in with their own account: Bruno Bianchi." in cards
