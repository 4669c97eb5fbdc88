"""Live pages: an ETag, 304 Not Modified while nothing changed, a new ETag after any change.

Phones poll the bracket, a round's pairings, the event page (its bracket, standings and
rounds), the matches now playing and the wall display; each poll that finds nothing new must
cost one small query and no rendering."""

from __future__ import annotations

import datetime
import re
from html import escape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.kept import TOKEN_MARK
from club.policy import SYSTEM
from club.services import player_update
from matches.board.service import board_game_act, board_game_start
from matches.models import BoardGame, Match
from matches.services import match_result_clear, match_walkover
from tournaments.announcements import announcement_post, announcement_withdraw
from tournaments.models import Event, Table
from tournaments.services import (
    entry_check_in,
    entry_check_in_undo,
    entry_withdraw,
    event_draw,
    event_pair_next_round,
)
from tournaments.venue import match_table_move, tournament_tables_set

from .helpers import open_matches

pytestmark = pytest.mark.django_db

CONTENT = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"}  # what site.js sends


@pytest.fixture
def knockout(event_with, director, tournament):
    """A knockout of 8 drawn at four numbered tables, one game of a match recorded."""
    tournament_tables_set(tournament=tournament, count=4, user=director)
    event = event_with(Event.Format.SINGLE, 8)
    event_draw(event=event, seed=3, user=director)
    return event


@pytest.fixture
def swiss(event_with, director):
    event = event_with(Event.Format.SWISS, 6, swiss_rounds=3)
    event_draw(event=event, seed=5, user=director)
    return event


def live_urls(event, swiss):
    tournament = event.tournament
    return {
        "event": reverse("event", args=[event.pk]),
        "bracket": reverse("bracket", args=[event.pk]),
        "pairings": reverse("round", args=[swiss.pk, 1]),
        "standings": reverse("event", args=[swiss.pk]),
        "now playing": reverse("now_playing", args=[tournament.pk]),
        "wall": reverse("wall", args=[tournament.pk]),
    }


def etag(client, url, **headers):
    response = client.get(url, **headers)
    assert response.status_code == 200, url
    return response["ETag"]


@pytest.mark.parametrize(
    "page", ["event", "bracket", "pairings", "standings", "now playing", "wall"]
)
def test_a_live_page_answers_304_until_something_changes_then_200_with_a_new_etag(
    client, knockout, swiss, record, page
):
    url = live_urls(knockout, swiss)[page]
    client.get(url)  # a first visit gives the browser its CSRF cookie, which the forms carry
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    assert "no-cache" in first["Cache-Control"]
    assert {"Accept-Language", "Cookie", "HX-Request"} <= {
        v.strip() for v in first["Vary"].split(",")
    }
    tag = first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag and again.content == b""
    # the content only, as the page's region asks for it: its own ETag, given by the page
    content = client.get(url, **CONTENT)
    assert content.status_code == 200 and b"<html" not in content.content
    assert content["ETag"] != tag
    assert f'data-etag="{escape(content["ETag"])}"'.encode() in client.get(url).content
    assert client.get(url, HTTP_IF_NONE_MATCH=content["ETag"], **CONTENT).status_code == 304
    match = open_matches(swiss if page in ("pairings", "standings") else knockout)[0]
    record(match, 0)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


@pytest.mark.parametrize("page", ["event", "bracket", "pairings", "now playing", "wall"])
def test_each_language_and_each_viewer_has_its_own_etag(
    client, knockout, swiss, director, member, page
):
    url = live_urls(knockout, swiss)[page]
    english = etag(client, url, HTTP_ACCEPT_LANGUAGE="en")
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it", HTTP_IF_NONE_MATCH=english)
    assert italian.status_code == 200 and italian["ETag"] != english
    assert italian["Content-Language"] == "it"
    client.force_login(member)
    as_member = etag(client, url)
    client.force_login(director)
    as_director = etag(client, url)
    assert len({english, as_member, as_director}) == 3


def test_a_poll_that_finds_nothing_new_costs_one_query(
    client, knockout, swiss, django_assert_max_num_queries
):
    for url in live_urls(knockout, swiss).values():
        tag = etag(client, url, **CONTENT)
        with django_assert_max_num_queries(1):
            assert client.get(url, HTTP_IF_NONE_MATCH=tag, **CONTENT).status_code == 304


def test_after_a_change_the_content_is_rendered_once_for_every_viewer(
    client, knockout, record, django_assert_max_num_queries
):
    url = reverse("bracket", args=[knockout.pk])
    old = etag(client, url, **CONTENT)
    record(open_matches(knockout)[0], 0)
    first = client.get(url, HTTP_IF_NONE_MATCH=old, **CONTENT)
    assert first.status_code == 200
    with django_assert_max_num_queries(1):  # another phone: the ETag, and the kept content
        other = client.get(url, HTTP_IF_NONE_MATCH=old, **CONTENT)
    assert other.status_code == 200 and other.content == first.content
    assert other["ETag"] == first["ETag"]


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.mark.parametrize("page", ["event", "bracket", "pairings", "now playing"])
def test_after_a_change_the_whole_page_is_rendered_once_with_each_visitor_s_own_token(
    knockout, swiss, record, django_assert_max_num_queries, page
):
    """The second phone's whole page is the first one's, kept: the ETag's one query and no
    rendering; the language menu's form carries each visitor's own CSRF token, which that
    visitor's browser may post (403 otherwise), never the first visitor's."""
    url = live_urls(knockout, swiss)[page]
    record(open_matches(knockout)[0], 0)
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    shown = first.get(url).content.decode()
    with django_assert_max_num_queries(1):
        again = second.get(url).content.decode()
    assert TOKEN.sub("", again) == TOKEN.sub("", shown)
    assert TOKEN_MARK not in again
    for visitor, html in ((first, shown), (second, again)):
        tokens = set(TOKEN.findall(html))
        assert len(tokens) == 1
        posted = visitor.post(
            reverse("set_language"),
            {"csrfmiddlewaretoken": tokens.pop(), "language": "it", "next": url},
        )
        assert posted.status_code == 302, "a visitor's own token is refused"
    stranger = Client(enforce_csrf_checks=True)
    stranger.get("/")  # a cookie of its own: another visitor's token is not accepted
    posted = stranger.post(
        reverse("set_language"),
        {"csrfmiddlewaretoken": TOKEN.findall(shown)[0], "language": "it", "next": url},
    )
    assert posted.status_code == 403


def test_a_director_s_kept_page_is_never_shown_to_another_viewer(client, director_client, knockout):
    url = reverse("event", args=[knockout.pk])
    edit = reverse("event_edit", args=[knockout.pk])
    assert edit in director_client.get(url).content.decode()
    assert edit not in Client().get(url).content.decode()


def test_a_page_with_a_message_waiting_is_rendered_not_304(director_client, knockout):
    """After a refused change the page must show why, even to a browser that has it cached."""
    url = reverse("event", args=[knockout.pk])
    tag = etag(director_client, url)
    refused = director_client.post(reverse("pair_next_round", args=[knockout.pk]))
    assert refused.status_code == 302
    shown = director_client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert shown.status_code == 200 and 'class="message error"' in shown.content.decode()
    assert "ETag" not in shown


def test_htmx_following_a_check_in_s_redirect_gets_the_whole_event_page(
    director_client, event_with
):
    """htmx sends HX-Request through the redirect too: only HX-Target "live" asks for the
    content only."""
    event = event_with(Event.Format.SINGLE, 4, check_in=False)
    entry = event.entries.first()
    response = director_client.post(
        reverse("entry_check_in", args=[entry.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET=f"entry-{entry.pk}",
        follow=True,
    )
    assert f'id="entry-{entry.pk}"' in response.content.decode()
    assert "<html" in response.content.decode()


def _first_roll(match):
    fresh = BoardGame.objects.get(match=match)
    board_game_act(board_game=fresh, version=fresh.version, action="opening", user=SYSTEM)


def test_every_write_that_changes_the_live_pages_moves_their_etag(
    client, tournament, knockout, swiss, director, record, finish, event_with
):
    """A walk over the writes: after each, every live page of the tournament has a new ETag."""
    urls = list(live_urls(knockout, swiss).values())
    later = event_with(Event.Format.SINGLE, 4, check_in=False)
    seated = Table.objects.filter(tournament=tournament, match__isnull=False)
    matches = sorted(open_matches(knockout), key=lambda m: m.pk)
    at_table = [m for m in matches if seated.filter(match=m).exists()]
    writes = {
        "a game recorded": lambda: record(at_table[0], 0),
        "a final score": lambda: finish(at_table[1], at_table[1].player_a),
        "a result taken back": lambda: match_result_clear(
            match=Match.objects.get(pk=at_table[1].pk), user=director
        ),
        "a walkover": lambda: match_walkover(
            match=Match.objects.get(pk=at_table[1].pk), winner=1, user=director
        ),
        "a board opened": lambda: board_game_start(match=at_table[2], user=director),
        "a board's first roll (no audit entry of its own)": lambda: _first_roll(at_table[2]),
        "the tables changed": lambda: tournament_tables_set(
            tournament=tournament, count=12, user=director
        ),
        "a table move": lambda: match_table_move(
            match=at_table[3], number=_free_table(tournament), user=director
        ),
        "a check-in": lambda: entry_check_in(entry=later.entries.first(), user=director),
        "a check-in undone": lambda: entry_check_in_undo(
            entry=later.entries.first(), user=director
        ),
        "a draw": lambda: _draw(later, director),
        "a Swiss round paired": lambda: _pair(swiss, finish, director),
        "a withdrawal": lambda: entry_withdraw(entry=swiss.entries.last(), user=director),
        "a player renamed": lambda: player_update(
            player=matches[-1].player_a, name="Renamed Player", user=SYSTEM
        ),
        "an announcement": lambda: announcement_post(
            tournament=tournament, text="Dinner at eight", user=director
        ),
        "an announcement withdrawn": lambda: announcement_withdraw(
            announcement=tournament.announcements.get(), user=director
        ),
    }
    before = [etag(client, url) for url in urls]
    for name, write in writes.items():
        write()
        after = [etag(client, url) for url in urls]
        unmoved = [url for url, old, new in zip(urls, before, after, strict=True) if old == new]
        assert not unmoved, (name, unmoved)
        before = after


def _free_table(tournament):
    return Table.objects.filter(tournament=tournament, match__isnull=True).first().number


def _draw(event, director):
    for entry in event.entries.all():
        entry_check_in(entry=entry, user=director)
    event_draw(event=event, seed=1, user=director)


def _pair(swiss, finish, director):
    for match in open_matches(swiss):
        finish(match, match.player_a)
    event_pair_next_round(event=swiss, user=director)


def test_an_announcement_s_time_running_out_moves_the_etag(
    client, tournament, director, monkeypatch
):
    url = reverse("wall", args=[tournament.pk])
    announcement_post(tournament=tournament, text="Round 2 at 15:00", minutes=10, user=director)
    shown = client.get(url)
    assert "Round 2 at 15:00" in shown.content.decode()
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now + datetime.timedelta(minutes=11))
    gone = client.get(url, HTTP_IF_NONE_MATCH=shown["ETag"])
    assert gone.status_code == 200 and "Round 2 at 15:00" not in gone.content.decode()


def test_the_now_playing_page_shows_table_players_and_score(client, knockout, record):
    playing = Table.objects.get(tournament=knockout.tournament, number=1).match
    record(playing, 0)
    response = client.get(reverse("now_playing", args=[knockout.tournament.pk]))
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    assert f"Table 1 {playing.player_a.name} – {playing.player_b.name} 1–0 to 5" in page
    assert "checks for changes every 10 seconds" in page


def test_the_wall_shows_each_event_s_screens_and_now_playing(
    client, knockout, swiss, director, django_assert_max_num_queries
):
    announcement_post(tournament=knockout.tournament, text="Dinner at eight", user=director)
    with django_assert_max_num_queries(40):
        response = client.get(reverse("wall", args=[knockout.tournament.pk]))
    page = response.content.decode()
    screens = re.findall(r'data-screen="([^"]+)"', page)
    assert screens == [
        f"{knockout.pk}-bracket-0",
        f"{swiss.pk}-pairings",
        f"{swiss.pk}-standings",
        "playing",
    ]
    assert "Dinner at eight" in page and "<script>" not in page
    assert 'data-wall-seconds="20"' in page


def test_the_check_in_list_brings_a_check_in_made_on_a_phone_to_the_director(
    client, event_with, director, django_user_model
):
    """While check-in is open, the director's list asks again (site.js, HX-Target
    entries-live): 304 while nobody arrives; once a player checks in from their own phone,
    the whole page with the list and the draw's count as they are now."""
    event = event_with(Event.Format.SINGLE, 4, check_in=False)
    entry = event.entries.order_by("pk").first()
    account = django_user_model.objects.create_user("anna", password="pw-anna-1")
    player_update(player=entry.player, account=account, user=SYSTEM)
    client.force_login(director)
    url = reverse("event", args=[event.pk])
    page = client.get(url).content.decode()
    assert 'id="entries-live"' in page and 'data-refresh-pick="#entries-live,#draw-count"' in page
    region = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "entries-live"}
    first = client.get(url, **region)
    assert first.status_code == 200 and "0 players checked in" in first.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **region).status_code == 304
    entry.refresh_from_db()
    entry_check_in(entry=entry, user=account)  # the player, on their phone
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **region)
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    text = again.content.decode()
    assert "1 of 4 checked in" in text and "1 player checked in" in text
    # the region's answer is not another visitor's: its forms carry this visitor's token
    assert again["ETag"] != etag(client, url)


def test_an_entry_committed_late_with_an_older_id_still_moves_the_etag(client, knockout, swiss):
    """PostgreSQL hands out ids before commit: a result's audit entry may commit after a
    younger one. The newest id alone would not move; the tournament's count does."""
    from club.models import AuditEntry

    url = live_urls(knockout, swiss)["event"]
    client.get(url)
    trail = AuditEntry.objects.filter(tournament_id=knockout.tournament_id).order_by("-id")
    middle = trail[1]
    row = AuditEntry.objects.filter(pk=middle.pk).values()[0]
    AuditEntry.objects.filter(pk=middle.pk)._raw_delete(AuditEntry.objects.db)  # "not yet"
    before = etag(client, url)
    AuditEntry.objects.create(**row)  # committed now, its id older than the newest
    assert trail.first().pk > middle.pk
    assert client.get(url, HTTP_IF_NONE_MATCH=before).status_code == 200
