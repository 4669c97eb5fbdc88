"""Issue 24.3: a call to a table is emailed only while it holds, and taken back in words.

A walkover recorded and taken back used to leave the players of the match it made with
"your match is ready at table 1" for a match that no longer existed (its link a 404). The
call's email goes after the commit, re-checked when it is sent; a player told to go to a
table that is taken back is told so, in their language.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from club.models import Player
from matches.models import Match, Notifications, TableCall
from tournaments.models import Event, Table
from tournaments.services import event_draw
from tournaments.venue import match_table_move, tournament_tables_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(tournament, event_with, field, director, django_capture_on_commit_callbacks):
    """A knockout of four players with addresses, in a room of two tables: M1-1 at table 1,
    M1-2 at table 2, and the four ready emails already sent."""
    players = field(4)
    for player in players:
        Player.objects.filter(pk=player.pk).update(email=f"{player.name.lower()}@example.org")
    tournament_tables_set(tournament=tournament, count=2, user=director)
    event = event_with(Event.Format.SINGLE, players, lengths=(3, 3))
    with django_capture_on_commit_callbacks(execute=True):
        event_draw(event=event, seed=1, user=director)
    first, second = Match.objects.filter(place__event=event, place__round=1).order_by(
        "place__bracket_key"
    )
    return {"event": event, "first": first, "second": second}


def to(address_of: Player) -> list:
    return [m for m in mail.outbox if m.to == [f"{address_of.name.lower()}@example.org"]]


def final_of(event):
    return Match.objects.filter(place__event=event, place__round=2).first()


def test_a_walkover_recorded_and_taken_back_tells_the_finalists_table_1_is_not_theirs(
    room, director_client, finish, django_capture_on_commit_callbacks
):
    first, second = room["first"], room["second"]
    assert [t.match_id for t in Table.objects.order_by("number")] == [first.pk, second.pk]
    finish(second, second.player_a)  # M1-2 over: its winner waits for M1-1's
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = director_client.post(
            reverse("walkover", args=[first.pk]), {"winner": 0, "version": 0, "confirm": "1"}
        )
    assert answer.status_code == 302
    final = final_of(room["event"])
    assert final.table.number == 1  # the final is made at once, and seated
    (ready,) = to(first.player_a)
    assert ready.subject == "[Crawford] Your match is ready at table 1"
    assert final.get_absolute_url() in ready.body
    mail.outbox.clear()
    version = Match.objects.get(pk=first.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        answer = director_client.post(
            reverse("result_clear", args=[first.pk]), {"version": version, "confirm": "1"}
        )
    assert answer.status_code == 302 and final_of(room["event"]) is None
    assert director_client.get(final.get_absolute_url()).status_code == 404  # the link is dead
    # the finalist of M1-2 is told the table is no longer theirs, with a link that works
    (taken_back,) = to(second.player_a)
    assert taken_back.subject == "[Crawford] Table 1 is no longer yours"
    said = " ".join(taken_back.body.split())
    assert f"your match {first.player_a.name} – {second.player_a.name} back" in said
    assert "Please do not go to table 1." in said
    assert final.get_absolute_url() not in taken_back.body
    assert reverse("me") in taken_back.body
    # M1-1's player: told the final is not on, then called back to M1-1 at table 1, in order
    told = [m.subject for m in to(first.player_a)]
    assert told == [
        "[Crawford] Table 1 is no longer yours",
        "[Crawford] Your match is ready at table 1",
    ]
    assert to(first.player_a)[1].body.count(first.get_absolute_url()) == 1


def test_the_ready_email_goes_after_the_commit_and_not_when_the_match_is_gone_by_then(
    room, director, finish, django_capture_on_commit_callbacks
):
    """The re-check at sending: the walkover's mails held back (as a slow commit or a mail
    queue would) until it is taken back; then they find the final gone and say nothing."""
    from matches.services import match_result_clear, match_walkover

    first, second = room["first"], room["second"]
    finish(second, second.player_a)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=False) as held:
        match_walkover(match=first, winner=0, user=director)
    assert mail.outbox == [] and held  # nothing before the commit
    final = final_of(room["event"])
    match_result_clear(match=Match.objects.get(pk=first.pk), user=director)
    for send in held:
        send()
    assert mail.outbox == []  # the final is gone: no "ready at table 1" for it
    call = TableCall.objects.get(player=second.player_a, table=1)
    assert call.match is None and call.sent_at is None and call.closed_at is not None
    assert not TableCall.objects.filter(match=final.pk).exists()


def test_a_ready_email_is_not_sent_once_the_match_has_begun(
    room, director, record, django_capture_on_commit_callbacks
):
    first = room["first"]
    TableCall.objects.update(sent_at=None)
    with django_capture_on_commit_callbacks(execute=False) as held:
        tournament_tables_set(tournament=room["event"].tournament, count=None, user=director)
        tournament_tables_set(tournament=room["event"].tournament, count=2, user=director)
    record(first, 0)  # the first game is in: the match began before the mails left
    mail.outbox.clear()
    for send in held:
        send()
    assert to(first.player_a) == [] and to(first.player_b) == []
    second = room["second"]
    assert len(to(second.player_a)) == len(to(second.player_b)) == 1 == len(mail.outbox) / 2


def test_a_match_moved_by_hand_tells_its_players_the_new_table(
    room, director, django_capture_on_commit_callbacks
):
    tournament = room["event"].tournament
    first, second = room["first"], room["second"]
    tournament_tables_set(tournament=tournament, count=3, user=director)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_table_move(match=first, number=3, user=director)
    (moved,) = to(first.player_a)
    assert moved.subject == "[Crawford] Your match is now at table 3"
    assert "is now at table 3, no longer at table 1" in " ".join(moved.body.split())
    assert to(second.player_a) == []  # table 2's match did not move


def test_a_swap_with_a_waiting_match_tells_the_one_moved_off_it_waits(
    room, director, field, event_with, django_capture_on_commit_callbacks
):
    """A match moved to a table held by another (US-style "move table 1's match"): the
    other, not begun, waits for the next table; its players are told, in Italian for one
    who chose it."""
    first = room["first"]
    waiting = event_with(Event.Format.SINGLE, field(2, "W"), lengths=(3,))
    event_draw(event=waiting, seed=1, user=director)
    late = Match.objects.get(place__event=waiting)
    assert getattr(late, "table", None) is None  # two tables, both taken
    Notifications.objects.create(player=first.player_a, emails=True, language="it")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_table_move(match=late, number=1, user=director)
    (italian,) = to(first.player_a)
    assert italian.subject == "[Crawford] Il tavolo 1 non è più tuo"
    assert "aspetta un altro tavolo" in " ".join(italian.body.split())
    (english,) = to(first.player_b)
    assert english.subject == "[Crawford] Table 1 is no longer yours"
    assert "waits for another table" in " ".join(english.body.split())
    assert first.get_absolute_url() in english.body


def test_a_player_with_emails_off_is_neither_called_nor_told(
    room, director_client, finish, django_capture_on_commit_callbacks
):
    first, second = room["first"], room["second"]
    Notifications.objects.create(player=second.player_a, emails=False)
    finish(second, second.player_a)
    with django_capture_on_commit_callbacks(execute=True):
        director_client.post(
            reverse("walkover", args=[first.pk]), {"winner": 0, "version": 0, "confirm": "1"}
        )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        director_client.post(
            reverse("result_clear", args=[first.pk]),
            {"version": Match.objects.get(pk=first.pk).version, "confirm": "1"},
        )
    assert to(second.player_a) == []
    told = [m.subject for m in to(first.player_a)]
    assert told[0] == "[Crawford] Table 1 is no longer yours"


def test_tables_no_longer_numbered_tell_the_players_called_to_them(
    room, director_client, django_capture_on_commit_callbacks
):
    tournament = room["event"].tournament
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = director_client.post(
            reverse("tournament_tables", args=[tournament.pk]), {"tables": ""}
        )
    assert answer.status_code == 302
    assert len(mail.outbox) == 4  # both matches' players, once each
    first = room["first"]
    (told,) = to(first.player_a)
    assert told.subject == "[Crawford] Table 1 is no longer yours"
    assert "the tables are no longer numbered" in " ".join(told.body.split())
    assert first.get_absolute_url() in told.body
