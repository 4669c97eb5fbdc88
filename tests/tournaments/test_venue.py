"""Tables across the venue: numbered across events, never two matches on one, reused."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.models import AuditEntry
from matches.models import Match
from matches.services import match_result_clear, match_walkover
from tournaments.models import Event, Table
from tournaments.services import event_draw
from tournaments.venue import match_table_move, tournament_tables_set


def seats(tournament):
    """Table number -> the match's code (event and place), for the matches seated."""
    return {
        t.number: f"{t.match.place.event_id}:{t.match.place.bracket_key}"
        for t in Table.objects.filter(tournament=tournament, match__isnull=False).select_related(
            "match__place__event"
        )
    }


def waiting(tournament):
    return list(
        Match.objects.filter(
            place__event__tournament=tournament, status__in=("scheduled", "in_play")
        )
        .filter(table__isnull=True)
        .order_by("id")
    )


@pytest.fixture
def two_events(tournament, event_with, field, director):
    """Two knockouts of 8 drawn in one room: 4 + 4 first-round matches."""
    tournament_tables_set(tournament=tournament, count=6, user=director)
    first = event_with(Event.Format.SINGLE, field(8, "A"))
    second = event_with(Event.Format.SINGLE, field(8, "B"))
    event_draw(event=first, seed=1, user=director)
    event_draw(event=second, seed=2, user=director)
    return first, second


def test_tables_are_numbered_across_events_and_never_hold_two_matches(two_events, tournament):
    first, second = two_events
    seated = seats(tournament)
    assert sorted(seated) == [1, 2, 3, 4, 5, 6]  # six tables, all taken
    events = [int(code.split(":")[0]) for _, code in sorted(seated.items())]
    assert events == [first.pk] * 4 + [second.pk] * 2  # the first event's first
    assert len(set(seated.values())) == 6  # six different matches
    assert len(waiting(tournament)) == 2  # two of the second event wait for a table
    with pytest.raises(IntegrityError), transaction.atomic():  # the database refuses a second
        Table.objects.create(tournament=tournament, number=1)


def test_a_finished_match_frees_its_table_for_the_next_waiting(
    two_events, tournament, finish, director
):
    at_three = Table.objects.get(tournament=tournament, number=3).match
    first_waiting = waiting(tournament)[0]
    finish(at_three, at_three.player_a)
    assert Table.objects.get(tournament=tournament, number=3).match_id == first_waiting.pk
    # a walkover takes no table; its own is freed for the other waiting match
    last = waiting(tournament)[0]
    at_five = Table.objects.get(tournament=tournament, number=5).match
    match_walkover(match=at_five, winner=0, user=director)
    assert Table.objects.get(tournament=tournament, number=5).match_id == last.pk
    assert waiting(tournament) == []
    # the walkover put right (the match to be played again) waits for the next table
    match_result_clear(match=Match.objects.get(pk=at_five.pk), user=director)
    assert waiting(tournament) == [Match.objects.get(pk=at_five.pk)]


def test_the_next_round_is_seated_as_tables_free_up(two_events, tournament, finish):
    first, _ = two_events
    for match in Match.objects.filter(place__event=first, place__round=1).order_by("id")[:2]:
        finish(match, match.player_b)
    semi = Match.objects.get(place__event=first, place__round=2)
    assert semi.table is not None  # the two freed tables: one waiting match, then the semi
    assert len(set(seats(tournament).values())) == len(seats(tournament))


def test_the_director_moves_a_match_and_two_matches_change_tables(two_events, tournament, director):
    one = Table.objects.get(tournament=tournament, number=1).match
    two = Table.objects.get(tournament=tournament, number=2).match
    match_table_move(match=one, number=2, user=director)
    assert Table.objects.get(tournament=tournament, number=2).match_id == one.pk
    assert Table.objects.get(tournament=tournament, number=1).match_id == two.pk
    moved = AuditEntry.objects.filter(code="table.moved").get()
    assert moved.params["table"] == 2 and moved.params["before"] == 1
    with pytest.raises(ValidationError, match="The room has tables 1 to 6"):
        match_table_move(match=one, number=7, user=director)


def test_fewer_tables_take_effect_as_matches_end(two_events, tournament, finish, director):
    tournament_tables_set(tournament=tournament, count=2, user=director)
    assert sorted(seats(tournament)) == [1, 2, 3, 4, 5, 6]  # nobody is moved mid-match
    before = waiting(tournament)
    at_six = Table.objects.get(tournament=tournament, number=6).match
    finish(at_six, at_six.player_a)
    assert not Table.objects.filter(tournament=tournament, number=6).exists()
    assert waiting(tournament) == before  # table 6 is gone, not given to a waiting match
    tournament_tables_set(tournament=tournament, count=None, user=director)
    assert seats(tournament) == {}  # no tables: nobody is seated


# --- through the pages -------------------------------------------------------------------------


def test_the_round_page_shows_tables_and_codes_and_the_director_moves_one(
    two_events, director_client
):
    first, _ = two_events
    page = director_client.get(reverse("round", args=[first.pk, 1])).content.decode()
    assert "match code" in page and re.search(r"<td [^>]*>—</td>\s*<td [^>]*>M1-", page) is None
    match = Match.objects.filter(place__event=first).order_by("id").first()
    number = match.table.number
    row = rf"<td [^>]*>{number}</td>\s*<td [^>]*>{match.place.bracket_key}</td>"
    assert re.search(row, page)  # the table beside the match's code
    url = reverse("round_table_move", args=[first.pk, 1])
    answer = director_client.post(url, {"match": match.pk, "table": 6}, follow=True)
    assert "is now at table 6" in answer.content.decode()
    assert Match.objects.get(pk=match.pk).table.number == 6
    refused = director_client.post(url, {"match": match.pk, "table": 60}, follow=True)
    assert "The room has tables 1 to 6" in refused.content.decode()  # plain words, no 500
    assert Match.objects.get(pk=match.pk).table.number == 6


def test_the_director_sets_the_tables_on_the_tournament_page(tournament, director_client):
    url = reverse("tournament_tables", args=[tournament.pk])
    answer = director_client.post(url, {"tables": "12"}, follow=True)
    assert answer.status_code == 200 and "The tables are saved" in answer.content.decode()
    tournament.refresh_from_db()
    assert tournament.tables == 12
    refused = director_client.post(url, {"tables": "0"}, follow=True)
    assert refused.status_code == 200 and "greater than or equal to 1" in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.tables == 12


def test_only_the_tournament_s_directors_set_or_move_tables(
    two_events, tournament, client, member, django_user_model
):
    from club.policy import SYSTEM
    from tournaments.services import tournament_create

    first, _ = two_events
    other = django_user_model.objects.create_user("other-td", password="pw-other-1")
    elsewhere = tournament_create(name="Altro", date=tournament.date, user=SYSTEM)
    elsewhere.directors.add(other)
    match = Match.objects.filter(place__event=first).order_by("id").first()
    before = match.table.number
    for user in (member, other):  # a member, and a director of another tournament
        client.force_login(user)
        assert (
            client.post(
                reverse("tournament_tables", args=[tournament.pk]), {"tables": "3"}
            ).status_code
            == 403
        )
        moved = client.post(
            reverse("round_table_move", args=[first.pk, 1]), {"match": match.pk, "table": 6}
        )
        assert moved.status_code == 403
    client.logout()
    assert client.post(reverse("tournament_tables", args=[tournament.pk])).status_code == 302
    assert Match.objects.get(pk=match.pk).table.number == before


def test_round_sheets_carry_table_and_code_and_leave_out_finished_matches(
    two_events, client, finish
):
    first, _ = two_events
    matches = list(Match.objects.filter(place__event=first).order_by("id"))
    finish(matches[0], matches[0].player_a)
    page = client.get(reverse("round_sheets", args=[first.pk, 1])).content.decode()
    assert page.count('class="blank-sheet"') == 3  # the finished match has no sheet
    for match in matches[1:]:
        match.refresh_from_db()
        assert f"Table {match.table.number} · {match.place.bracket_key}" in page
    assert matches[0].place.bracket_key + "<" not in page
    assert "data-print hidden" in page  # the Print button, shown by the script


def test_table_cards_show_each_table_s_match(two_events, tournament, client):
    page = client.get(reverse("table_cards", args=[tournament.pk])).content.decode()
    cards = re.findall(
        r'<p class="table-number">Table (\d+)</p>\s*<p class="table-players">(.*?)</p>', page
    )
    expected = [
        (str(t.number), f"{t.match.player_a} – {t.match.player_b}")
        for t in Table.objects.filter(tournament=tournament).order_by("number")
    ]
    assert cards == expected and len(cards) == 6
