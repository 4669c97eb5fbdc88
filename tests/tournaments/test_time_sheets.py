"""Printed score sheets have lines for penalty points (issue 28; tournament rules), blank and
with the penalties already recorded when they are printed; the demo loads a tournament on
time rules: a late arrival penalised, a match lost on time."""

import datetime

import pytest
from django.core.management import call_command
from django.urls import reverse

from matches.models import Match, Penalty
from matches.penalties import match_penalty_award
from matches.selectors import PenaltyRow, match_score_sheet
from tournaments.models import Event, Round, Tournament
from tournaments.services import event_draw

from .helpers import tables_cells

pytestmark = pytest.mark.django_db

PENALTIES = "sheet-blank sheet-penalties"


def penalty_tables(response):
    return tables_cells(response.content.decode(), PENALTIES)


@pytest.mark.parametrize(
    "language, caption, heading",
    [
        (
            "en",
            "Penalty points (tournament rules)",
            ["Before game", "Anna Rossi", "Bruno Bianchi", "Why"],
        ),
        (
            "it",
            "Punti di penalità (regolamento del torneo)",
            ["Prima del gioco", "Anna Rossi", "Bruno Bianchi", "Motivo"],
        ),
    ],
)
def test_the_blank_sheet_has_lines_for_penalty_points(client, match5, language, caption, heading):
    page = client.get(reverse("score_sheet", args=[match5.pk]), HTTP_ACCEPT_LANGUAGE=language)
    (table,) = penalty_tables(page)
    assert table[0] == heading and table[1:] == [["", "", "", ""]] * 2  # two lines to fill in
    assert caption in page.content.decode()
    assert page.content.decode().count("<tr><td>") == 9  # the games' lines are as they were


def test_the_round_s_sheets_print_the_penalties_already_recorded(client, event_with, director):
    """P03 arrived 12 minutes late (2 points to P01, in P01's column), and P04 was given a
    point for a rules breach (to P02): each sheet prints its penalty, then the blank lines."""
    event = event_with(Event.Format.SWISS, 4, lengths=(5, 5), swiss_rounds=2, seeding="rating")
    event_draw(event=event, user=director)
    first, second = Match.objects.filter(place__event=event).order_by("id")
    assert (str(first), str(second)) == ("P01 – P03 (5)", "P02 – P04 (5)")
    match_penalty_award(
        match=first, side=1, points=2, reason="lateness", minutes_late=12, user=director
    )
    match_penalty_award(
        match=second,
        side=1,
        points=1,
        reason="director",
        note="Dice picked up early",
        user=director,
    )
    url = reverse("round_sheets", args=[event.pk, 1])
    english = penalty_tables(client.get(url))
    assert [table[1] for table in english] == [
        ["1", "2", "", "P03: 12 minutes late"],
        ["1", "1", "", "P04: Dice picked up early"],
    ]
    assert all(table[2:] == [["", "", "", ""]] * 2 for table in english)
    italian = penalty_tables(client.get(url, HTTP_ACCEPT_LANGUAGE="it"))
    assert italian[0][1] == ["1", "2", "", "P03: 12 minuti di ritardo"]


def test_the_demo_loads_a_tournament_on_time_rules(settings, tmp_path, client):
    """Its round 1 was called 50 minutes ago with clocks required: one match has a lateness
    penalty of 2 points (12 minutes, 5 a point) that makes game 2 the Crawford game, and the
    other was lost on time after two games."""
    settings.BASE_DIR = tmp_path
    settings.DEBUG = True
    call_command("demo_club")
    tournament = Tournament.objects.get(name="Trofeo a Tempo")
    assert (tournament.late_minutes_per_point, tournament.late_forfeit_at_half) == (5, True)
    assert (tournament.clock_seconds_per_point, tournament.clock_delay_seconds) == (120, 12)
    first = Round.objects.get(event__tournament=tournament, number=1)
    assert first.clocks == Round.Clocks.REQUIRED and first.starts_at is not None
    assert first.starts_at < first.starts_at.now(datetime.UTC) - datetime.timedelta(minutes=45)
    late, flagged = Match.objects.filter(place__event__tournament=tournament).order_by("id")
    penalty = Penalty.objects.get(match=late)
    assert (penalty.reason, penalty.points, penalty.minutes_late, penalty.side) == (
        "lateness",
        2,
        12,
        0,
    )
    sheet = match_score_sheet(match=late)
    assert isinstance(sheet.lines[0], PenaltyRow) and sheet.crawford_game == 2
    assert late.status == Match.Status.IN_PLAY and sheet.score == (1, 4)
    assert (flagged.status, flagged.forfeit, flagged.retired) == ("finished", "time", 0)
    assert (flagged.final_score_a, flagged.final_score_b) == (2, 5)
    page = client.get(reverse("round", args=[late.place.event_id, 1])).content.decode()
    assert "Clocks required" in page
