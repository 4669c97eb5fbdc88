"""Players arriving late at a called match (tournament rules): the dashboard's "Called, not
begun" with the minutes and the penalty accrued, "Arrived" in one click, the penalty
confirmed (penalty points before the first game, or a forfeit) or waived; matches in play
running well past WBF 3's expected duration flagged; the new addresses walked as every role."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.models import AuditEntry
from matches.history import match_derived
from matches.models import Match, Penalty
from tests.helpers import page_words as text
from tournaments.models import Arrival, Round, Tournament
from tournaments.services import (
    arrival_confirm,
    arrival_record,
    arrival_waive,
    event_draw,
)

from .helpers import open_matches, round_called, time_rules_set

pytestmark = pytest.mark.django_db

CALL = datetime.datetime(2026, 12, 13, 13, 0, tzinfo=datetime.UTC)


def minutes(count):
    return datetime.timedelta(minutes=count)


@pytest.fixture
def called(timed_knockout):
    """A knockout of 8 to 7 points, drawn, its round 1 called at CALL (no tables)."""
    return timed_knockout(8, called=CALL)


@pytest.fixture
def at(monkeypatch):
    """at(n): the site's clock n minutes after the call."""

    def move(count):
        monkeypatch.setattr(timezone, "now", lambda: CALL + minutes(count))

    return move


def dashboard(client, event):
    return client.get(reverse("tournament_dashboard", args=[event.tournament.pk]))


def section(response, name):
    import re

    page = response.content.decode()
    found = re.search(rf'<section id="{name}".*?</section>', page, re.S)
    assert found, name
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))


# --- the service ---------------------------------------------------------------------------


def test_an_arrival_keeps_the_minutes_and_the_points_of_its_click(called, director):
    """Tournament rules, the common defaults: a point for every 5 minutes late."""
    match = open_matches(called)[0]
    arrival = arrival_record(match=match, side=1, user=director, at=CALL + minutes(12))
    assert (arrival.minutes_late, arrival.points, arrival.state) == (12, 2, "pending")
    assert arrival.called_at == CALL and arrival.recorded_by == director
    entry = AuditEntry.objects.get(code="arrival.recorded")
    assert entry.match_id == match.pk and entry.params["points"] == 2


def test_arriving_in_time_leaves_nothing_to_confirm(called, director):
    match = open_matches(called)[0]
    arrival = arrival_record(match=match, side=0, user=director, at=CALL + minutes(4))
    assert (arrival.points, arrival.state) == (0, "confirmed")


def test_the_grace_period_and_no_penalties_are_the_tournament_s(called, director, tournament):
    time_rules_set(tournament, director, late_grace_minutes=10)
    first, second = open_matches(called)[:2]
    assert arrival_record(match=first, side=0, user=director, at=CALL + minutes(14)).points == 0
    assert arrival_record(match=first, side=1, user=director, at=CALL + minutes(15)).points == 1
    time_rules_set(tournament, director, late_minutes_per_point=0)
    late = arrival_record(match=second, side=0, user=director, at=CALL + minutes(45))
    assert (late.minutes_late, late.points, late.state) == (45, 0, "confirmed")


def test_an_arrival_is_recorded_once(called, director):
    match = open_matches(called)[0]
    arrival_record(match=match, side=0, user=director, at=CALL + minutes(6))
    with pytest.raises(ValidationError, match="already recorded"):
        arrival_record(match=match, side=0, user=director, at=CALL + minutes(9))
    assert Arrival.objects.count() == 1


def test_no_arrival_before_the_call(timed_knockout, director):
    event = timed_knockout(4)
    with pytest.raises(ValidationError, match="not been called"):
        arrival_record(match=open_matches(event)[0], side=0, user=director, at=CALL)


def test_no_arrival_once_the_match_has_begun(called, director, record):
    match = open_matches(called)[0]
    record(match, 0)
    with pytest.raises(ValidationError, match="has begun"):
        arrival_record(match=match, side=1, user=director, at=CALL + minutes(30))


def test_only_the_tournament_s_directors_record_arrivals(called, director, other_director):
    match = open_matches(called)[0]
    with pytest.raises(PermissionDenied):
        arrival_record(match=match, side=0, user=other_director, at=CALL + minutes(30))
    arrival = arrival_record(match=match, side=0, user=director, at=CALL + minutes(30))
    with pytest.raises(PermissionDenied):
        arrival_waive(arrival=arrival, user=other_director)
    assert Arrival.objects.get().state == "pending"


def test_a_penalty_waived_is_audited_and_not_decided_twice(called, director):
    match = open_matches(called)[0]
    arrival = arrival_record(match=match, side=0, user=director, at=CALL + minutes(11))
    waived = arrival_waive(arrival=arrival, user=director)
    assert waived.state == "waived" and waived.decided_by == director
    assert AuditEntry.objects.get(code="arrival.waived").params["points"] == 2
    with pytest.raises(ValidationError, match="already waived"):
        arrival_waive(arrival=arrival, user=director)
    assert Match.objects.get(pk=match.pk).version == match.version  # no result changed


def test_a_penalty_confirmed_is_the_match_s_before_its_first_game(called, director):
    """Tournament rules: the late player's opponent scores the points before the first game;
    the score sheet and the next game's score come from the match's history."""
    match = open_matches(called)[0]
    arrival = arrival_record(match=match, side=1, user=director, at=CALL + minutes(12))
    confirmed = arrival_confirm(arrival=arrival, user=director)
    assert confirmed.state == "confirmed" and confirmed.decided_by == director
    penalty = Penalty.objects.get(match=match)
    assert (penalty.side, penalty.points, penalty.reason, penalty.minutes_late) == (
        1,
        2,
        "lateness",
        12,
    )
    assert penalty.before_game == 1
    assert match_derived(Match.objects.get(pk=match.pk)).score == (2, 0)
    with pytest.raises(ValidationError, match="already confirmed"):
        arrival_confirm(arrival=arrival, user=director)
    assert Penalty.objects.filter(match=match).count() == 1


def test_points_reaching_half_the_length_forfeit_the_match(called, director):
    """Tournament rules (forfeit at half): 4 points late in a 7-point match."""
    match = open_matches(called)[0]
    arrival = arrival_record(match=match, side=0, user=director, at=CALL + minutes(21))
    assert arrival.points == 4
    arrival_confirm(arrival=arrival, user=director)
    forfeited = Match.objects.get(pk=match.pk)
    assert forfeited.decided and forfeited.forfeit == "lateness" and forfeited.retired == 0
    assert (forfeited.final_score_a, forfeited.final_score_b) == (0, 7)
    assert not Penalty.objects.filter(match=match).exists()


def test_without_the_forfeit_rule_the_points_are_given(called, director, tournament):
    time_rules_set(tournament, director, late_forfeit_at_half=False)
    match = open_matches(called)[0]
    arrival = arrival_record(match=match, side=0, user=director, at=CALL + minutes(21))
    arrival_confirm(arrival=arrival, user=director)
    assert Penalty.objects.get(match=match).points == 4
    assert not Match.objects.get(pk=match.pk).decided


def test_a_penalty_is_not_confirmed_once_the_match_has_begun(called, director, record):
    match = open_matches(called)[0]
    arrival = arrival_record(match=match, side=0, user=director, at=CALL + minutes(12))
    record(match, 1)
    with pytest.raises(ValidationError, match="has begun"):
        arrival_confirm(arrival=arrival, user=director)
    assert not Penalty.objects.exists()
    assert Arrival.objects.get(pk=arrival.pk).state == "pending"


# --- the dashboard -------------------------------------------------------------------------


def test_the_dashboard_lists_the_matches_called_with_the_lateness_accrued(
    director_client, called, at
):
    at(12)
    words = section(dashboard(director_client, called), "called")
    first = open_matches(called)[0]
    assert "Called, not begun 4" in words
    assert "12 min ago" in words
    assert f"{first.player_a.name} not here: 12 minutes late · 2 penalty points accrued" in words


def test_a_forfeit_accrued_is_said(director_client, called, at):
    at(21)  # 4 points: half of 7 or more
    assert "forfeits the match" in section(dashboard(director_client, called), "called")


def test_a_round_not_started_yet_calls_nobody(director_client, called, at):
    at(-5)
    assert "No match called is waiting to begin." in section(
        dashboard(director_client, called), "called"
    )


def test_arrived_in_one_click_then_confirm_or_no_penalty(director_client, called, at):
    match = open_matches(called)[0]
    at(10)
    response = director_client.post(reverse("arrival_record", args=[match.pk]), {"side": "1"})
    assert response.status_code == 302 and response["Location"].endswith("#called")
    page = dashboard(director_client, called)
    words = section(page, "called")
    assert (
        f"{match.player_b.name} arrived 10 minutes late: 2 penalty points to "
        f"{match.player_a.name} — Confirm No penalty"
    ) in words
    assert "Confirm or waive the penalty of 1 late arrival." in section(page, "next")
    director_client.post(reverse("arrival_waive", args=[match.pk]), {"side": "1"})
    words = section(dashboard(director_client, called), "called")
    assert f"{match.player_b.name} arrived 10 minutes late: no penalty (waived)" in words
    other = open_matches(called)[1]
    director_client.post(reverse("arrival_record", args=[other.pk]), {"side": "0"})
    confirmed = director_client.post(
        reverse("arrival_confirm", args=[other.pk]), {"side": "0"}, follow=True
    )
    assert f"The lateness penalty of {other.player_a.name} is confirmed." in text(confirmed)
    words = section(confirmed, "called")
    assert (
        f"{other.player_a.name} arrived 10 minutes late: 2 penalty points to "
        f"{other.player_b.name}, confirmed"
    ) in words
    assert Penalty.objects.get(match=other).points == 2


def test_a_refused_click_says_why(director_client, called, at):
    match = open_matches(called)[0]
    at(10)
    director_client.post(reverse("arrival_record", args=[match.pk]), {"side": "0"})
    again = director_client.post(
        reverse("arrival_record", args=[match.pk]), {"side": "0"}, follow=True
    )
    assert again.status_code == 200 and "is already recorded" in text(again)
    nothing = director_client.post(
        reverse("arrival_confirm", args=[match.pk]), {"side": "1"}, follow=True
    )
    assert nothing.status_code == 404  # no arrival of that player to confirm
    bad = director_client.post(reverse("arrival_record", args=[match.pk]), {"side": "2"})
    assert bad.status_code == 404


def test_a_match_in_play_long_past_its_expected_time_is_flagged_overdue(
    director_client, called, record, director, monkeypatch
):
    """WBF 3: a 7-point match takes about an hour; at 0–1 after 95 minutes it is flagged."""
    match = open_matches(called)[0]
    record(match, 1)
    began = AuditEntry.objects.get(match_id=match.pk, code="game.recorded").at
    monkeypatch.setattr(timezone, "now", lambda: began + minutes(30))
    assert "overdue" not in section(dashboard(director_client, called), "in-play")
    monkeypatch.setattr(timezone, "now", lambda: began + minutes(95))
    words = section(dashboard(director_client, called), "in-play")
    assert "95 min overdue: about 60 min expected (WBF 3)" in words


def _called_tournament(count, *, name, director, field):
    from tournaments.services import (
        entry_check_in,
        entry_register,
        event_create,
        tournament_create,
    )

    tournament = tournament_create(name=name, date=CALL.date(), user=director)
    event = event_create(
        tournament=tournament, name="Main", format="single", lengths=[7], user=director
    )
    for player in field(count, name[0]):
        entry_check_in(
            entry=entry_register(event=event, player=player, user=director), user=director
        )
    event_draw(event=event, seed=1, user=director)
    round_called(event, 1, CALL, director)
    for match in open_matches(event)[:2]:
        arrival_record(match=match, side=0, user=director, at=CALL + minutes(7))
    return tournament


def test_the_called_list_costs_the_same_queries_for_4_or_8_matches(
    director_client, director, field, at, django_assert_num_queries
):
    small = _called_tournament(8, name="Small", director=director, field=field)
    big = _called_tournament(16, name="Big", director=director, field=field)
    at(12)
    url = lambda t: reverse("tournament_dashboard", args=[t.pk])  # noqa: E731
    director_client.get(url(small))
    cache.clear()  # rendered, not kept under its ETag (tournaments.live)
    with CaptureQueriesContext(connection) as queries:
        assert director_client.get(url(small)).status_code == 200
    with django_assert_num_queries(len(queries)):
        response = director_client.get(url(big))
    assert "Called, not begun 8" in text(response)


# --- the new addresses, as every role ------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", "member", "other director", "player"])
def test_nobody_but_its_directors_records_or_decides_arrivals_nor_sets_times(
    client, called, director, member, other_director, django_user_model, who
):
    match = open_matches(called)[0]
    pending = arrival_record(match=match, side=0, user=director, at=CALL + minutes(10))
    if who == "member":
        client.force_login(member)
    elif who == "other director":
        client.force_login(other_director)
    elif who == "player":  # a player of this very match, signed in
        user = django_user_model.objects.create_user("playing", password="pw-playing-1")
        match.player_b.user = user
        match.player_b.save()
        client.force_login(user)
    tournament = called.tournament
    posts = [
        (reverse("arrival_record", args=[match.pk]), {"side": "1"}),
        (reverse("arrival_confirm", args=[match.pk]), {"side": "0"}),
        (reverse("arrival_waive", args=[match.pk]), {"side": "0"}),
        (reverse("round_times", args=[called.pk, 1]), {"starts_at": "", "clocks": "required"}),
        (
            reverse("tournament_time", args=[tournament.pk]),
            {
                "late_minutes_per_point": "1",
                "late_grace_minutes": "0",
                "clock_seconds_per_point": "60",
                "clock_delay_seconds": "0",
                "clock_on_flag": "game",
            },
        ),
    ]
    audited = AuditEntry.objects.count()
    for url, data in posts:
        for method in (client.get, client.post):
            response = method(url, data)
            if who == "anonymous":
                assert response.status_code == 302 and reverse("login") in response["Location"]
            else:
                assert response.status_code in (403, 405), (url, response.status_code)
    assert AuditEntry.objects.count() == audited
    assert list(Arrival.objects.values_list("side", "state")) == [(0, "pending")]
    assert Round.objects.get(event=called, number=1).clocks == "none"
    assert Tournament.objects.get(pk=tournament.pk).late_minutes_per_point == 5
    assert Arrival.objects.get(pk=pending.pk).state == "pending"


def test_an_anonymous_visitor_sees_no_dashboard_button(called):
    page = Client().get(reverse("round", args=[called.pk, 1]))
    assert page.status_code == 200 and "arrival" not in page.content.decode()


def test_points_past_the_length_give_the_length_without_the_forfeit_rule(
    called, director, tournament
):
    """A point a minute and two hours late: the points cannot count past the match's
    length, which they win for the opponent (tournament rules)."""
    time_rules_set(tournament, director, late_minutes_per_point=1, late_forfeit_at_half=False)
    match = open_matches(called)[0]
    arrival = arrival_record(match=match, side=0, user=director, at=CALL + minutes(120))
    assert arrival.points == 120
    arrival_confirm(arrival=arrival, user=director)
    assert Penalty.objects.get(match=match).points == 7
    won = Match.objects.get(pk=match.pk)
    assert won.decided and match_derived(won).score == (0, 7)


def test_two_tablets_of_one_director_each_post_an_arrival_with_their_own_token(
    called, director, at
):
    """The dashboard's content is kept for the next refresh (tournaments.live) and has forms
    ("Arrived"): a director's second tablet gets the first one's content with its own CSRF
    token, and posts with it."""
    import re

    from django.core.cache import cache
    from django.test import Client

    cache.clear()
    at(3)
    url = reverse("tournament_dashboard", args=[called.tournament.pk])
    content = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "dashboard"}
    tablets = [Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)]
    for tablet in tablets:
        tablet.force_login(director)
        tablet.get(url)  # the page: its CSRF cookie
    shown = [tablet.get(url, **content).content.decode() for tablet in tablets]
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    assert token.sub("", shown[0]) == token.sub("", shown[1])  # the second one kept
    assert "livepagecsrftokenmark" not in shown[1]
    action = re.search(r'action="([^"]*/arrival/[^"]*)"', shown[1]) or re.search(
        r'<form method="post" action="([^"]+)" class="inline no-print">', shown[1]
    )
    assert action is not None
    posted = tablets[1].post(
        action.group(1), {"csrfmiddlewaretoken": token.findall(shown[1])[0], "side": "0"}
    )
    assert posted.status_code == 302, posted.status_code  # 403 with another tablet's token
