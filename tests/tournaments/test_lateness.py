"""Time in a tournament (tournament rules): a match's call, lateness accrued, the time rules,
a round's start and clocks on its pairings and the wall, and the clock rule the board reads."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format

from club.models import AuditEntry
from matches.clocks import ClockUse, match_clock_rules
from matches.models import TableCall
from rules.clock import FlagRule
from rules.lateness import LatenessRules
from tests.helpers import page_words as text
from tournaments.lateness import lateness, match_called_at
from tournaments.models import Event, Round, Tournament
from tournaments.services import (
    event_draw,
    event_update,
    tournament_time_set,
)
from tournaments.venue import tournament_tables_set

from .helpers import open_matches, round_called, time_rules_set

pytestmark = pytest.mark.django_db

NOON = datetime.datetime(2026, 12, 13, 11, 0, tzinfo=datetime.UTC)


def minutes(count):
    return datetime.timedelta(minutes=count)


@pytest.fixture
def drawn(timed_knockout):
    """A knockout of 8, drawn: four matches of round 1, no tables, not called."""
    return timed_knockout(8)


# --- the call ------------------------------------------------------------------------------


def test_a_match_is_not_called_without_a_start_or_a_table(drawn):
    assert match_called_at(match=open_matches(drawn)[0]) is None


def test_without_numbered_tables_the_round_s_start_calls_its_matches(drawn, director):
    round_called(drawn, 1, NOON, director)
    assert {match_called_at(match=m) for m in open_matches(drawn)} == {NOON}


def test_the_call_is_the_later_of_the_round_s_start_and_the_first_table_call(
    drawn, director, tournament
):
    """Tournament rules: called at the round's start, or when the match gets a table if that
    is later; a match waiting for a table is not called, whatever its round's start."""
    round_called(drawn, 1, NOON, director)
    tournament_tables_set(tournament=tournament, count=2, user=director)
    seated, _, waiting, _ = open_matches(drawn)
    assert match_called_at(match=waiting) is None  # no table yet
    TableCall.objects.filter(match=seated).update(called_at=NOON - minutes(20))
    assert match_called_at(match=seated) == NOON  # seated before the start: the start
    TableCall.objects.filter(match=seated).update(called_at=NOON + minutes(25))
    assert match_called_at(match=seated) == NOON + minutes(25)  # a table later: the table


def test_a_table_calls_a_match_of_a_round_with_no_start(drawn, director, tournament):
    tournament_tables_set(tournament=tournament, count=1, user=director)
    seated = open_matches(drawn)[0]
    first = TableCall.objects.filter(match=seated).earliest("called_at").called_at
    assert match_called_at(match=seated) == first


# --- lateness: the tournament's rules through rules.lateness -------------------------------


@pytest.mark.parametrize(
    ("late", "points", "forfeit"),
    [(0, 0, False), (4, 0, False), (5, 1, False), (14, 2, False), (15, 3, False), (20, 4, True)],
)
def test_a_point_every_5_minutes_and_a_forfeit_at_half_of_7(late, points, forfeit):
    """Tournament rules with the common defaults: 1 point for every 5 minutes late, no
    grace; 4 points are half of a 7-point match or more: a forfeit."""
    found = lateness(called_at=NOON, at=NOON + minutes(late), length=7, rules=LatenessRules())
    assert (found.minutes, found.points, found.forfeits) == (late, points, forfeit)


def test_no_penalty_points_when_the_tournament_gives_none():
    found = lateness(called_at=NOON, at=NOON + minutes(40), length=7, rules=None)
    assert (found.minutes, found.points, found.forfeits) == (40, 0, False)


def test_arriving_before_the_call_is_not_late():
    found = lateness(called_at=NOON, at=NOON - minutes(3), length=7, rules=LatenessRules())
    assert (found.minutes, found.points) == (0, 0)


# --- the tournament's time rules -----------------------------------------------------------


def test_the_time_rules_have_the_common_defaults(tournament):
    assert tournament.lateness_rules == LatenessRules(5, 0, True)
    settings = tournament.clock_settings
    assert (settings.seconds_per_point, settings.delay_seconds, settings.on_flag) == (
        120,
        12,
        FlagRule.MATCH,
    )


TIME = {
    "late_minutes_per_point": 10,
    "late_grace_minutes": 5,
    "late_forfeit_at_half": False,
    "clock_seconds_per_point": 90,
    "clock_delay_seconds": 0,
    "clock_on_flag": "game",
}


def test_the_time_rules_are_set_and_audited(tournament, director):
    saved = tournament_time_set(tournament=tournament, user=director, **TIME)
    assert saved.lateness_rules == LatenessRules(10, 5, False)
    assert saved.clock_settings.on_flag is FlagRule.GAME
    entry = AuditEntry.objects.get(code="time_rules.set", tournament_id=tournament.pk)
    assert entry.after["clock_seconds_per_point"] == 90


def test_no_lateness_penalty_when_minutes_per_point_are_0(tournament, director):
    saved = tournament_time_set(
        tournament=tournament, user=director, **{**TIME, "late_minutes_per_point": 0}
    )
    assert saved.lateness_rules is None


@pytest.mark.parametrize(
    "wrong",
    [
        {"clock_seconds_per_point": 0},
        {"late_grace_minutes": 500},
        {"clock_on_flag": "set"},
    ],
)
def test_time_rules_out_of_bounds_are_refused_in_words(tournament, director, wrong):
    with pytest.raises(ValidationError):
        tournament_time_set(tournament=tournament, user=director, **{**TIME, **wrong})
    assert Tournament.objects.get(pk=tournament.pk).clock_seconds_per_point == 120


def test_only_its_directors_set_the_time_rules(tournament, other_director):
    with pytest.raises(PermissionDenied):
        tournament_time_set(tournament=tournament, user=other_director, **TIME)


def test_the_tournament_page_sets_the_time_rules(director_client, tournament):
    page = director_client.get(tournament.get_absolute_url())
    assert 'id="time"' in page.content.decode()
    posted = {**TIME, "late_forfeit_at_half": ""}
    response = director_client.post(reverse("tournament_time", args=[tournament.pk]), posted)
    assert response.status_code == 302 and response["Location"].endswith("#time")
    assert Tournament.objects.get(pk=tournament.pk).late_minutes_per_point == 10
    refused = director_client.post(
        reverse("tournament_time", args=[tournament.pk]),
        {**posted, "clock_seconds_per_point": "0"},
        follow=True,
    )
    assert refused.status_code == 200
    assert Tournament.objects.get(pk=tournament.pk).clock_seconds_per_point == 90


# --- a round's start and clocks ------------------------------------------------------------


def test_a_round_beyond_the_lengths_given_gets_a_row_and_the_lengths_read_the_same(
    event_with, director
):
    event = event_with(Event.Format.SWISS, 6, lengths=(5, 7), swiss_rounds=5)
    before = [event.length_for(n) for n in range(1, 8)]
    round_called(event, 4, NOON, director, clocks="required")
    event = Event.objects.get(pk=event.pk)
    assert [r.number for r in event.rounds.all()] == [1, 2, 3, 4]
    assert [event.length_for(n) for n in range(1, 8)] == before
    row = event.rounds.get(number=4)
    assert (row.starts_at, row.clocks) == (NOON, "required")


def test_changing_the_lengths_keeps_the_rounds_times(event_with, director):
    event = event_with(Event.Format.SWISS, 6, lengths=(5,), swiss_rounds=3)
    round_called(event, 1, NOON, director, clocks="allowed")
    round_called(event, 3, NOON + minutes(90), director)
    event_update(event=event, lengths=[7, 9], user=director)
    rows = {r.number: r for r in Event.objects.get(pk=event.pk).rounds.all()}
    assert [(n, r.length) for n, r in rows.items()] == [(1, 7), (2, 9), (3, 9)]
    assert (rows[1].starts_at, rows[1].clocks) == (NOON, "allowed")
    assert rows[3].starts_at == NOON + minutes(90)


def test_a_round_s_times_are_audited_once_and_refused_to_others(drawn, director, other_director):
    round_called(drawn, 1, NOON, director, clocks="required")
    round_called(drawn, 1, NOON, director, clocks="required")  # the same: nothing written
    assert AuditEntry.objects.filter(code="round.times_set").count() == 1
    with pytest.raises(PermissionDenied):
        round_called(drawn, 1, None, other_director)
    with pytest.raises(ValidationError):
        round_called(drawn, 1, None, director, clocks="sometimes")


def test_the_pairings_post_the_start_and_the_clocks(director_client, event_with, director):
    client = Client()  # anonymous (director_client is the signed-in ``client``)
    event = event_with(Event.Format.SWISS, 4, lengths=(5,), swiss_rounds=2)
    event_draw(event=event, seed=1, user=director)
    url = reverse("round", args=[event.pk, 1])
    assert "Start and clocks" in text(director_client.get(url))  # the director's form
    assert "Clocks required" not in text(client.get(url))
    response = director_client.post(
        reverse("round_times", args=[event.pk, 1]),
        {"starts_at": "2026-12-13T14:30", "clocks": "required"},
    )
    assert response.status_code == 302
    row = Round.objects.get(event=event, number=1)
    assert timezone.localtime(row.starts_at).strftime("%H:%M") == "14:30"
    for page in (client.get(url), client.get(reverse("wall", args=[event.tournament.pk]))):
        words = text(page)
        assert f"Starts at {time_format(timezone.localtime(row.starts_at))}" in words
        assert "Clocks required" in words
    assert "Start and clocks" not in text(client.get(url))


def test_a_refused_round_time_says_why(director_client, drawn):
    response = director_client.post(
        reverse("round_times", args=[drawn.pk, 1]),
        {"starts_at": "not a time", "clocks": "required"},
        follow=True,
    )
    assert response.status_code == 200 and "Enter a valid date/time" in text(response)
    assert Round.objects.get(event=drawn, number=1).clocks == "none"


def test_a_knockout_on_the_wall_posts_the_times_of_its_rounds_in_play(client, drawn, director):
    round_called(drawn, 1, NOON, director, clocks="allowed")
    words = text(client.get(reverse("wall", args=[drawn.tournament.pk])))
    assert "Round 1:" in words and "Clocks allowed" in words


# --- the clock rule the board reads --------------------------------------------------------


def test_a_match_s_clock_rule_is_its_round_s_with_the_tournament_s_settings(
    drawn, director, tournament
):
    match = open_matches(drawn)[0]
    assert match_clock_rules(match).use is ClockUse.NONE
    time_rules_set(tournament, director, **TIME)
    round_called(drawn, 1, None, director, clocks="required")
    rules = match_clock_rules(match)
    assert rules.use is ClockUse.REQUIRED
    assert rules.settings.budget(7) == 90 * 7 * 1000
    assert (rules.settings.delay_seconds, rules.settings.on_flag) == (0, FlagRule.GAME)


def test_a_match_outside_any_tournament_has_no_clock(match5):
    assert match_clock_rules(match5).use is ClockUse.NONE


def test_the_board_of_a_round_on_clocks_shows_them(director_client, drawn, director):
    """The tournaments app answers the board's question (registered at start-up): a round
    with clocks required puts both clocks on its matches' boards, with the tournament's
    time (7 points at 120 seconds a point: 14 minutes each)."""
    from matches.board.service import board_game_start

    match = open_matches(drawn)[0]
    board_game_start(match=match, user=director)
    board = reverse("board", args=[match.pk])
    assert 'id="board-clocks"' not in director_client.get(board).content.decode()
    round_called(drawn, 1, None, director, clocks="required")
    page = director_client.get(board).content.decode()
    assert 'id="board-clocks"' in page and "14:00" in page


# --- a tournament moved to another site keeps its time -------------------------------------


def test_an_exported_tournament_keeps_its_time_rules_and_round_times(
    event_with, director, tournament
):
    from tests.tournaments.helpers import another_tournament
    from tournaments.transfer import tournament_export, tournament_import

    event = event_with(Event.Format.SWISS, 4, lengths=(5,), swiss_rounds=3)
    time_rules_set(tournament, director, **TIME)
    round_called(event, 1, NOON, director, clocks="required")
    round_called(event, 3, NOON + minutes(90), director, clocks="allowed")
    document = tournament_export(tournament=Tournament.objects.get(pk=tournament.pk))
    copy = tournament_import(document=another_tournament(document), user=director)
    assert copy.lateness_rules == LatenessRules(10, 5, False)
    assert (copy.clock_seconds_per_point, copy.clock_delay_seconds, copy.clock_on_flag) == (
        90,
        0,
        "game",
    )
    rows = list(Round.objects.filter(event__tournament=copy).order_by("number"))
    assert [(r.number, r.length, r.starts_at, r.clocks) for r in rows] == [
        (1, 5, NOON, "required"),
        (2, 5, None, "none"),
        (3, 5, NOON + minutes(90), "allowed"),
    ]


def test_a_file_written_before_the_time_rules_reads_with_the_defaults(tournament, director):
    from tests.tournaments.helpers import another_tournament
    from tournaments.transfer import tournament_export, tournament_import

    document = tournament_export(tournament=tournament)
    for key in (
        "late_minutes_per_point",
        "late_grace_minutes",
        "late_forfeit_at_half",
        "clock_seconds_per_point",
        "clock_delay_seconds",
        "clock_on_flag",
    ):
        del document["tournament"][key]
    copy = tournament_import(document=another_tournament(document), user=director)
    assert copy.lateness_rules == LatenessRules() and copy.clock_seconds_per_point == 120
