"""The director's dashboard: the room, who waits, what to settle and what to do next."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.policy import SYSTEM
from matches.models import Match
from tests.helpers import page_words as text
from tournaments.models import Event, Table
from tournaments.services import (
    entry_check_in,
    entry_register,
    event_create,
    event_draw,
    event_pair_next_round,
    tournament_create,
)
from tournaments.venue import tournament_tables_set

from .helpers import open_matches

pytestmark = pytest.mark.django_db


def section(response, name):
    """The words of one section of the page (by its id)."""
    page = response.content.decode()
    found = re.search(rf'<section id="{name}".*?</section>', page, re.S)
    assert found, name
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))


# what site.js asks the dashboard's region with
CONTENT = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "dashboard"}


def url(tournament):
    return reverse("tournament_dashboard", args=[tournament.pk])


def sibling(key):
    """The other first-round match feeding the same second-round match: M1-1 and M1-2."""
    number = int(key.split("-")[1])
    return f"M1-{number + 1 if number % 2 else number - 1}"


@pytest.fixture
def room(tournament, event_with, field, director, record, finish):
    """Two tables; a knockout of 8 drawn: at table 1 a match in play (1–0), the match once at
    table 2 finished (its winner waits), table 2 given to the next, one match waiting for a
    table; a Swiss still taking entries, one of its four players checked in."""
    tournament_tables_set(tournament=tournament, count=2, user=director)
    main = event_with(Event.Format.SINGLE, 8)
    event_draw(event=main, seed=1, user=director)
    swiss = event_with(Event.Format.SWISS, field(4, "S"), swiss_rounds=2, check_in=False)
    entry_check_in(entry=swiss.entries.first(), user=director)
    playing = Table.objects.get(tournament=tournament, number=1).match
    done = Table.objects.get(tournament=tournament, number=2).match
    record(playing, 0)
    finish(done, done.player_a)
    return {
        "main": main,
        "swiss": swiss,
        "playing": Match.objects.get(pk=playing.pk),
        "done": Match.objects.get(pk=done.pk),
        "seated": Table.objects.get(tournament=tournament, number=2).match,
        "waiting": Match.objects.get(
            place__event=main, status=Match.Status.SCHEDULED, table__isnull=True
        ),
    }


def test_the_director_sees_the_room_who_waits_and_what_to_do_next(
    director_client, tournament, room, monkeypatch
):
    began = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: began + datetime.timedelta(minutes=42))
    response = director_client.get(url(tournament))
    assert response.status_code == 200
    playing, seated, waiting = room["playing"], room["seated"], room["waiting"]
    rows = section(response, "in-play")
    one = rows.index("Table 1")
    two = rows.index("Table 2")
    assert one < two  # by table
    at_one, at_two = rows[one:two], rows[two:]
    assert playing.place.bracket_key in at_one and f"{playing.player_a.name} –" in at_one
    assert "1–0" in at_one and "to 5" in at_one and "42 min" in at_one
    assert seated.place.bracket_key in at_two and "at the table, not begun" in at_two
    assert "round 1" in at_one and room["main"].name in at_one
    table = section(response, "waiting")
    assert "Waiting for a table 1" in table and waiting.place.bracket_key in table
    assert waiting.player_b.name in table
    winner = room["done"].player_a.name
    key = room["done"].place.bracket_key
    assert (
        f"{winner} · {room['main'].name}: waits for the winner of {sibling(key)} to play M2-"
        in section(response, "players-waiting")
    )
    assert "Nothing to confirm." in section(response, "confirm")
    steps = section(response, "next")
    swiss = room["swiss"].name
    assert "Seat 1 match waiting for a table: add tables." in steps
    assert f"Check in the players of {swiss}: 3 are not checked in yet (1 checked in)." in steps
    assert f"Make the draw of {swiss}" not in steps  # one player checked in: no draw yet
    assert 'href="/tournaments/' in response.content.decode()  # the tables' form
    italian = director_client.get(url(tournament), HTTP_ACCEPT_LANGUAGE="it")
    assert "Tavolo 1" in text(italian) and "42 min" in text(italian)


def test_in_a_swiss_the_players_done_and_the_bye_wait_then_the_next_round_is_to_pair(
    director_client, tournament, event_with, director, finish
):
    swiss = event_with(Event.Format.SWISS, 5, swiss_rounds=2)
    event_draw(event=swiss, seed=4, user=director)
    first, second = open_matches(swiss)
    finish(first, first.player_a)
    response = director_client.get(url(tournament))
    waiting = section(response, "players-waiting")
    for player in (first.player_a, first.player_b):
        assert f"{player.name} · {swiss.name}: has finished round 1: waits for the others" in (
            waiting
        )
    assert "rests in round 1 (a bye)" in waiting
    assert "Not begun 1" in section(response, "waiting")  # no tables: they just begin
    assert "Let the players begin: 1 match is ready." in section(response, "next")
    finish(second, second.player_b)
    response = director_client.get(url(tournament))
    assert f"Pair round 2 of {swiss.name}: the round before it is over." in section(
        response, "next"
    )
    assert "No player waits for an opponent." in section(response, "players-waiting")
    event_pair_next_round(event=swiss, user=director)
    for match in open_matches(swiss):
        finish(match, match.player_a)
    response = director_client.get(url(tournament))
    assert "All events are finished." in section(response, "next")
    assert "No match is in play." in section(response, "in-play")


def test_an_open_dispute_is_to_confirm(director_client, tournament, event_with, director, record):
    from matches.disputes import dispute_open

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    match = open_matches(event)[0]
    record(match, 0)
    log = (
        f" 5 point match\n\n Game 1\n {match.player_a.name} : 0{' ' * 10}"
        f"{match.player_b.name} : 0\n  1)                             41: 13/9 24/23\n"
        "  2) 31: 8/5 6/5                  Doubles => 2\n  3)  Drops\n"
    )
    dispute = dispute_open(match=match, user=director, text=log, left=0)
    response = director_client.get(url(tournament))
    confirm = section(response, "confirm")
    assert f"{match.player_a.name} – {match.player_b.name}" in confirm
    assert "a score dispute, open since" in confirm
    assert dispute.get_absolute_url() in response.content.decode()
    assert "Decide 1 open score dispute." in section(response, "next")


def test_the_page_refreshes_its_content_only(director_client, tournament, room):
    page = director_client.get(url(tournament))
    html = page.content.decode()
    assert f'data-refresh="{url(tournament)}"' in html and 'data-refresh-seconds="15"' in html
    assert '<noscript><meta http-equiv="refresh" content="15"></noscript>' in html  # no script
    assert "site.js" in html and "<script>" not in html  # the CSP allows no inline script
    # its pause control (WCAG 2.2.2), outside the region it stops: the wall's test presses it
    assert html.index("data-pause") < html.index('id="dashboard"')
    fragment = director_client.get(url(tournament), **CONTENT)
    assert fragment.status_code == 200
    part = fragment.content.decode()
    assert "<html" not in part and "<header" not in part and 'id="in-play"' in part
    assert "Table 1" in part and "Updated at" in part
    assert "HX-Request" in fragment["Vary"] and "HX-Request" in page["Vary"]


def test_the_tournament_page_links_its_directors_to_the_dashboard(
    client, director, member, tournament
):
    client.force_login(director)
    assert url(tournament) in client.get(tournament.get_absolute_url()).content.decode()
    client.force_login(member)
    assert url(tournament) not in client.get(tournament.get_absolute_url()).content.decode()


def test_only_the_tournament_s_directors_and_staff_see_it(
    client, django_user_model, directors_group, member, tournament
):
    assert client.get(url(tournament)).status_code == 302  # anonymous: to sign in
    assert reverse("login") in client.get(url(tournament))["Location"]
    client.force_login(member)
    assert client.get(url(tournament)).status_code == 403
    other = django_user_model.objects.create_user("other", password="pw-other-1")
    other.groups.add(directors_group)
    tournament_create(name="Another club's cup", date=datetime.date(2026, 12, 20), user=other)
    client.force_login(other)
    refused = client.get(url(tournament))
    # no column of the dashboard ("Table"); the menu's "Tables" (money tables) is not it
    assert refused.status_code == 403 and not re.search(r"\bTable\b", text(refused))
    staff = django_user_model.objects.create_user("staff", password="pw-staff-1", is_staff=True)
    client.force_login(staff)
    assert client.get(url(tournament)).status_code == 200
    assert client.post(url(tournament)).status_code == 405  # it only reads


def _tournament_with(players, *, name, director, field, finish, record):
    """A knockout of ``players`` drawn in a room of a quarter as many tables: one match in play,
    one finished, one under dispute, the rest at a table or waiting for one; and a Swiss."""
    from matches.disputes import dispute_open

    tournament = tournament_create(name=name, date=datetime.date(2026, 12, 13), user=director)
    tournament_tables_set(tournament=tournament, count=players // 4, user=director)
    main = event_create(
        tournament=tournament, name="Main", format="single", lengths=[5], user=director
    )
    swiss = event_create(
        tournament=tournament,
        name="Swiss",
        format="swiss",
        lengths=[3],
        swiss_rounds=2,
        user=director,
    )
    for event, people in ((main, field(players, name)), (swiss, field(5, name + "S"))):
        for player in people:
            entry_check_in(
                entry=entry_register(event=event, player=player, user=SYSTEM), user=SYSTEM
            )
    event_draw(event=main, seed=1, user=director)
    event_draw(event=swiss, seed=1, user=director)
    first, second, third = open_matches(main)[:3]
    record(first, 0)
    finish(second, second.player_a)
    record(third, 1)
    dispute_open(
        match=third,
        user=director,
        text=(
            f" 5 point match\n\n Game 1\n {third.player_a.name} : 0{' ' * 10}"
            f"{third.player_b.name} : 0\n  1)                             41: 13/9 24/23\n"
            "  2) 31: 8/5 6/5                  Doubles => 2\n  3)  Drops\n"
        ),
        left=0,
    )
    swiss_match = open_matches(swiss)[0]
    finish(swiss_match, swiss_match.player_a)
    return tournament


def test_the_dashboard_costs_the_same_queries_for_8_or_16_matches(
    director_client, director, field, finish, record, django_assert_num_queries
):
    small = _tournament_with(
        16, name="Small", director=director, field=field, finish=finish, record=record
    )
    big = _tournament_with(
        32, name="Big", director=director, field=field, finish=finish, record=record
    )
    assert Match.objects.filter(place__event__tournament=big, place__round=1).count() == 16 + 2
    director_client.get(url(small))  # warm up sessions and the like
    cache.clear()  # rendered, not kept under its ETag (tournaments.live)
    with CaptureQueriesContext(connection) as queries:
        assert director_client.get(url(small)).status_code == 200
    with django_assert_num_queries(len(queries)):
        response = director_client.get(url(big))
    assert response.status_code == 200 and "1 open score dispute" in text(response)
    assert len(queries) <= 20, len(queries)


def test_a_match_begun_on_the_board_counts_from_its_first_roll(
    director_client, tournament, event_with, director, monkeypatch
):
    from matches.board.service import board_game_act, board_game_start

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    match = open_matches(event)[0]
    board = board_game_start(match=match, user=director)
    opened = director_client.get(url(tournament))
    assert "No match is in play." in section(opened, "in-play")  # opening it is no beginning
    board_game_act(
        board_game=board, version=board.version, action="opening", dice=(3, 1), user=director
    )
    rolled = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: rolled + datetime.timedelta(minutes=7))
    row = section(director_client.get(url(tournament)), "in-play")
    assert f"{match.player_a.name} – {match.player_b.name}" in row
    assert "0–0" in row and "7 min" in row and "no table" in row


def test_the_dashboard_s_poll_answers_304_until_a_write_or_the_next_minute(
    director_client, tournament, room, record, monkeypatch, django_assert_max_num_queries
):
    """The tablets left open on the dashboard ask every 15 seconds: while nothing is written
    and the minute stays, the answer is 304 for the price of the ETag's query (and the
    session's); a game recorded, or a minute gone by (minutes since a match began, lateness),
    gives the new content."""
    cache.clear()
    now = timezone.now().replace(second=5)
    monkeypatch.setattr(timezone, "now", lambda: now)
    director_client.get(url(tournament))  # a first visit gives the browser its CSRF cookie
    page = director_client.get(url(tournament))
    first = director_client.get(url(tournament), **CONTENT)
    tag = first["ETag"]
    assert f'data-etag="{tag}"' in page.content.decode().replace("&quot;", '"')
    with django_assert_max_num_queries(4):  # session, user, who directs, the ETag
        again = director_client.get(url(tournament), HTTP_IF_NONE_MATCH=tag, **CONTENT)
    assert again.status_code == 304 and again.content == b""
    assert "1–0" in section(first, "in-play")
    record(room["playing"], 0)
    moved = director_client.get(url(tournament), HTTP_IF_NONE_MATCH=tag, **CONTENT)
    assert moved.status_code == 200 and moved["ETag"] != tag
    assert "2–0" in section(moved, "in-play")
    tag = moved["ETag"]
    now += datetime.timedelta(seconds=50)  # the same minute
    same = director_client.get(url(tournament), HTTP_IF_NONE_MATCH=tag, **CONTENT)
    assert same.status_code == 304
    now += datetime.timedelta(seconds=10)  # the next one
    later = director_client.get(url(tournament), HTTP_IF_NONE_MATCH=tag, **CONTENT)
    assert later.status_code == 200 and later["ETag"] != tag


def test_a_kept_dashboard_never_reaches_another_director_or_a_member(
    client, director_client, django_user_model, directors_group, member, tournament, room
):
    """Kept per viewer: a member, or the director of another tournament, sending the
    director's ETag is refused (403), never answered 304 or with the director's page."""
    shown = director_client.get(url(tournament), **CONTENT)
    assert shown.status_code == 200
    tag = shown["ETag"]
    other = django_user_model.objects.create_user("other", password="pw-other-1")
    other.groups.add(directors_group)
    tournament_create(name="Another club's cup", date=datetime.date(2026, 12, 20), user=other)
    for person in (member, other):
        client.force_login(person)
        for headers in ({}, {"HTTP_IF_NONE_MATCH": tag}):
            refused = client.get(url(tournament), **CONTENT, **headers)
            assert refused.status_code == 403 and "in-play" not in refused.content.decode()
            assert "ETag" not in refused
