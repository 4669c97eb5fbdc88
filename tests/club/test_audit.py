"""Every write is audited with who, when, before and after, and reads as a sentence."""

import datetime

import pytest
from django.urls import reverse

from club.audit import _SENTENCES, audit_sentence
from club.models import AuditEntry
from club.policy import SYSTEM
from club.services import player_create, player_update
from matches.board.service import board_game_start
from matches.disputes import dispute_decide, dispute_open, dispute_sheets_set
from matches.models import Match
from tournaments.models import Event
from tournaments.services import (
    entry_check_in,
    entry_register,
    entry_withdraw,
    event_create,
    event_cut,
    event_draw,
    event_pair_next_round,
    tournament_create,
)

pytestmark = pytest.mark.django_db


def codes_since(mark):
    return [e.code for e in AuditEntry.objects.filter(pk__gt=mark).order_by("pk")]


def mark():
    last = AuditEntry.objects.order_by("-pk").first()
    return last.pk if last else 0


def test_a_tournament_s_whole_life_is_in_its_audit_trail(director, field, finish, record, client):
    players = field(5)
    step = mark()
    tournament = tournament_create(name="Coppa", date=datetime.date(2026, 12, 13), user=director)
    swiss = event_create(
        tournament=tournament,
        name="Swiss",
        format=Event.Format.SWISS,
        lengths=[3],
        swiss_rounds=2,
        cut=2,
        user=director,
    )
    entries = [entry_register(event=swiss, player=p, user=director) for p in players]
    for entry in entries:
        entry_check_in(entry=entry, user=director)
    event_draw(event=swiss, seed=5, user=director)
    for place in swiss.places.all():
        finish(place.match, place.match.player_a)
    event_pair_next_round(event=swiss, user=director)
    for place in swiss.places.filter(round=2):
        finish(place.match, place.match.player_b)
    knockout = event_cut(event=swiss, user=director)
    final = Match.objects.get(place__event=knockout)
    board_game_start(match=final, user=director)
    entry_withdraw(entry=knockout.entries.first(), user=director)
    codes = codes_since(step)
    for code in (
        "tournament.created",
        "event.created",
        "entry.registered",
        "entry.checked_in",
        "event.drawn",
        "place.created",
        "result.final_score",
        "event.paired",
        "event.cut",
        "board.started",
        "entry.withdrawn",
    ):
        assert code in codes, code
    entries = AuditEntry.objects.filter(pk__gt=step)
    assert all(e.tournament_id == tournament.pk for e in entries)  # each on its changes page
    page = client.get(reverse("tournament_changes", args=[tournament.pk])).content.decode()
    assert "director made the draw of Swiss with the seed 5." in page
    assert "director paired round 2 of Swiss:" in page
    assert "director cut Swiss to the top 2 players" in page
    assert "director withdrew" in page and "{" not in page.split("<main")[1]
    # a match's change among the tournament's others names the match, with a link to it
    first = swiss.places.order_by("pk").first().match
    assert (
        f'<a href="/matches/{first.pk}/">{first.player_a.name} – {first.player_b.name}</a>: '
        "director recorded the final score 3–0." in page
    )


def test_players_and_disputes_are_audited(director, anna, match5, record):
    step = mark()
    player_create(name="Carla Verdi", user=director)
    player_update(player=anna, club="Circolo di Pavia", user=director)
    record(match5, 0, cube=2)
    text = (
        " 5 point match\n\n Game 1\n Anna Rossi : 0                 Bruno Bianchi : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Drops                      Wins 1 point\n"
    )
    dispute = dispute_open(match=match5, user=director, text=text)
    dispute_sheets_set(dispute=dispute, sheet_a=(0, 1), sheet_b=None, user=director)
    dispute_decide(dispute=dispute, user=director)
    sentences = [audit_sentence(e) for e in AuditEntry.objects.filter(pk__gt=step).order_by("pk")]
    assert sentences == [
        "director registered the player Carla Verdi.",
        "director changed the player Anna Rossi: club from “Circolo Backgammon Milano” to "
        "“Circolo di Pavia”.",
        "director recorded game 1: Anna Rossi won (single game, cube 2): 2 points counted.",
        "director opened a dispute.",
        "director entered the players' score sheets: 0–1 and none kept.",
        "director corrected game 1: Bruno Bianchi won (double dropped, cube 2): 1 point "
        "counted (it was: Anna Rossi won (single game, cube 2): 2 points counted).",
        "director decided the dispute: the log stands, 1 game corrected or added.",
    ]
    assert all(e.dispute_id == dispute.pk for e in AuditEntry.objects.filter(pk__gt=step)[:3])


def test_a_code_without_a_sentence_is_refused_when_recorded(match5, director):
    """No entry can read as a raw code: recording one whose sentence is not registered fails
    (so every service path the suite runs proves its codes have sentences)."""
    from club.audit import audit_record

    with pytest.raises(ValueError, match="no sentence registered"):
        audit_record(user=director, code="match.renamed", subject=match5)
    assert set(_SENTENCES) >= {"game.recorded", "event.drawn", "player.changed"}


def test_the_site_acting_is_named_as_such(match5):
    entry = AuditEntry.objects.create(
        code="dice.allowed",
        params={"allowed": True},
        subject_type_id=AuditEntry.objects.get(match_id=match5.pk).subject_type_id,
        subject_id=match5.pk,
        match_id=match5.pk,
    )
    assert audit_sentence(entry) == "The site let the players enter dice rolled at the table."
    assert SYSTEM.pk is None
