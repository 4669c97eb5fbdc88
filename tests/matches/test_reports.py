"""Results reported by the players from their phones, confirmed by the opponent.

A report is a claim until the opponent confirms it; then it is recorded through the
director's own services (the bracket moves on). Every refusal is in plain words.
"""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from club.audit import audit_sentence
from club.models import AuditEntry, Player
from matches.models import BoardGame, Dispute, Match, ResultReport
from matches.reports import report_confirm, report_dispute, report_make, report_withdraw
from matches.services import game_record
from tests.helpers import page_words as text
from tournaments.models import Event
from tournaments.services import event_draw, tournament_reports_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def knockout(tournament, event_with, director):
    """Four players in a knockout of 3-point matches; the players report the results."""
    tournament_reports_set(
        tournament=tournament,
        results_by="players",
        report_detail="either",
        confirm_minutes=15,
        user=director,
    )
    event = event_with(Event.Format.SINGLE, 4, lengths=(3, 3))
    event_draw(event=event, seed=1, user=director)
    return event


def _first_round(event):
    return list(
        Match.objects.filter(place__event=event, place__round=1)
        .select_related("player_a", "player_b")
        .order_by("place__bracket_key")
    )


@pytest.fixture
def duel(knockout, django_user_model):
    """The first match of round 1: its players linked to accounts ("a" and "b")."""
    match = _first_round(knockout)[0]
    a = django_user_model.objects.create_user("a", email="a@example.org", password="pw-a-1")
    b = django_user_model.objects.create_user("b", email="b@example.org", password="pw-b-1")
    Player.objects.filter(pk=match.player_a_id).update(user=a)
    Player.objects.filter(pk=match.player_b_id).update(user=b)
    match = Match.objects.select_related("player_a", "player_b").get(pk=match.pk)
    return {"match": match, "a": a, "b": b, "event": knockout}


def fresh(match):
    return Match.objects.select_related("player_a", "player_b").get(pk=match.pk)


def game(number, winner=0, cube=1, result="single", resigned=None):
    return {
        "number": number,
        "winner": winner,
        "cube": cube,
        "result": result,
        "resigned": resigned,
    }


def pending(match):
    return ResultReport.objects.get(match=match, status="pending")


# --- services ---------------------------------------------------------------------


def test_a_report_is_a_claim_until_the_opponent_confirms_it(duel):
    match, a, b = duel["match"], duel["a"], duel["b"]
    report = report_make(match=match, user=a, **game(1, winner=0, cube=2))
    assert report.status == "pending" and report.side == 0 and report.first_game == 1
    assert fresh(match).games.count() == 0  # not yet the result
    report_confirm(report=report, user=b, version=report.version)
    match = fresh(match)
    assert [(g.number, g.winner, g.cube) for g in match.games.all()] == [(1, 0, 2)]
    assert ResultReport.objects.get(pk=report.pk).status == "confirmed"
    entry = AuditEntry.objects.filter(match_id=match.pk, code="game.recorded").get()
    said = audit_sentence(entry)
    # the account "b" is named by its player's name (club.audit.actor_name, issue 24.11)
    assert said.startswith(f"{match.player_b.name} confirmed game 1 as ")
    assert match.player_a.name in said


def test_games_reported_one_by_one_are_confirmed_together(duel):
    match, a, b = duel["match"], duel["a"], duel["b"]
    report_make(match=match, user=a, **game(1, winner=0))
    report = report_make(match=fresh(match), user=a, **game(2, winner=1))
    assert report.games and len(report.games) == 2 and report.version == 1
    report_confirm(report=report, user=b, version=1)
    assert list(fresh(match).games.values_list("winner", flat=True)) == [0, 1]


def test_the_crawford_rule_and_the_match_length_apply_as_to_a_director(duel):
    match, a = duel["match"], duel["a"]
    report_make(match=match, user=a, **game(1, winner=0, cube=2))  # 2–0 in a 3-point match
    with pytest.raises(ValidationError) as refused:
        report_make(match=fresh(match), user=a, **game(2, winner=1, cube=2))
    assert refused.value.messages == ["Game 2 is the Crawford game: no doubling (WBF 24)."]
    with pytest.raises(ValidationError) as refused:
        report_make(match=fresh(match), user=a, **game(5, winner=1))
    assert "Report game 2 instead" in refused.value.messages[0]
    assert len(pending(match).games) == 1


def test_a_final_score_the_rules_cannot_reach_is_refused(duel):
    match, a = duel["match"], duel["a"]
    with pytest.raises(ValidationError) as refused:
        report_make(match=match, user=a, score_a=3, score_b=3)
    assert "3–3 cannot be the final score of a 3-point match" in refused.value.messages[0]
    assert "(WBF 3)" in refused.value.messages[0]
    assert not ResultReport.objects.exists()


def test_the_opponent_answers_before_reporting_and_only_the_opponent_confirms(
    duel, django_user_model
):
    match, a, b = duel["match"], duel["a"], duel["b"]
    report = report_make(match=match, user=a, score_a=3, score_b=1)
    with pytest.raises(ValidationError) as refused:
        report_make(match=fresh(match), user=b, score_a=1, score_b=3)
    assert "report of this match is waiting for your answer" in refused.value.messages[0]
    with pytest.raises(PermissionDenied):
        report_confirm(report=report, user=a, version=report.version)  # not one's own
    other = _first_round(duel["event"])[1]
    stranger = django_user_model.objects.create_user("c", password="pw-c-1")
    Player.objects.filter(pk=other.player_a_id).update(user=stranger)
    with pytest.raises(PermissionDenied):
        report_confirm(
            report=report, user=stranger, version=report.version
        )  # a player of another match
    with pytest.raises(PermissionDenied):
        report_make(match=fresh(match), user=stranger, score_a=3, score_b=0)
    with pytest.raises(PermissionDenied):
        report_withdraw(report=report, user=b)  # only the reporter withdraws
    assert pending(match).pk == report.pk


def test_the_database_keeps_one_waiting_report_a_match(duel):
    match, a = duel["match"], duel["a"]
    report_make(match=match, user=a, score_a=3, score_b=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultReport.objects.create(
            match=match, side=1, reported_by=duel["b"], kind="final", score_a=0, score_b=3,
            match_version=match.version,
        )  # fmt: skip
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultReport.objects.create(  # a final score with games is not a claim
            match=match, side=1, reported_by=duel["b"], kind="final", first_game=1,
            score_a=0, score_b=3, match_version=0, status="withdrawn",
            answered_at=timezone.now(),
        )  # fmt: skip


def test_a_director_s_entry_makes_a_waiting_report_void(duel, director):
    match, a, b = duel["match"], duel["a"], duel["b"]
    report = report_make(match=match, user=a, **game(1, winner=0))
    game_record(match=fresh(match), number=1, winner=1, cube=1, result="single", user=director)
    report.refresh_from_db()
    assert report.status == "void"
    with pytest.raises(ValidationError) as refused:
        report_confirm(report=report, user=b, version=report.version)
    assert refused.value.messages == [
        "This report is void: a director entered the result of the match."
    ]
    assert list(fresh(match).games.values_list("winner", flat=True)) == [1]
    void = AuditEntry.objects.get(match_id=match.pk, code="report.void")
    assert "is void" in audit_sentence(void)


def test_a_report_withdrawn_cannot_be_confirmed(duel):
    match, a, b = duel["match"], duel["a"], duel["b"]
    report = report_make(match=match, user=a, score_a=3, score_b=2)
    report_withdraw(report=report, user=a)
    with pytest.raises(ValidationError) as refused:
        report_confirm(report=report, user=b, version=report.version)
    assert refused.value.messages == [f"{match.player_a.name} withdrew this report."]
    assert not fresh(match).decided
    again = report_make(match=fresh(match), user=b, score_a=2, score_b=3)  # b may report now
    assert again.side == 1


def test_a_report_changed_since_the_opponent_opened_it_is_not_confirmed(duel):
    match, a, b = duel["match"], duel["a"], duel["b"]
    seen = report_make(match=match, user=a, **game(1, winner=0))
    report_make(match=fresh(match), user=a, **game(2, winner=0))
    with pytest.raises(ValidationError) as refused:
        report_confirm(report=seen, user=b, version=seen.version)
    assert "added a game to this report after you opened it" in refused.value.messages[0]
    assert fresh(match).games.count() == 0


def test_a_match_on_the_board_needs_no_report(duel):
    match, a = duel["match"], duel["a"]
    BoardGame.objects.create(match=match, number=1)
    with pytest.raises(ValidationError) as refused:
        report_make(match=match, user=a, **game(1))
    assert "being played on the site's board" in refused.value.messages[0]


def test_the_tournament_says_how_players_report(duel, director, tournament):
    match, a = duel["match"], duel["a"]
    tournament_reports_set(
        tournament=tournament,
        results_by="players",
        report_detail="games",
        confirm_minutes=15,
        user=director,
    )
    with pytest.raises(ValidationError) as refused:
        report_make(match=fresh(match), user=a, score_a=3, score_b=0)
    assert refused.value.messages == ["In this tournament the players report game by game."]
    tournament_reports_set(
        tournament=tournament,
        results_by="players",
        report_detail="final",
        confirm_minutes=15,
        user=director,
    )
    with pytest.raises(ValidationError) as refused:
        report_make(match=fresh(match), user=a, **game(1))
    assert refused.value.messages == ["In this tournament the players report only the final score."]
    tournament_reports_set(
        tournament=tournament,
        results_by="directors",
        report_detail="either",
        confirm_minutes=15,
        user=director,
    )
    with pytest.raises(PermissionDenied):
        report_make(match=fresh(match), user=a, **game(1))
    assert not ResultReport.objects.exists()


def test_a_match_outside_any_tournament_is_not_reported(match5, django_user_model):
    user = django_user_model.objects.create_user("anna", password="pw-anna-1")
    Player.objects.filter(pk=match5.player_a_id).update(user=user)
    with pytest.raises(PermissionDenied):
        report_make(match=fresh(match5), user=user, score_a=5, score_b=0)


def test_a_decided_match_is_not_reported(duel, finish):
    match, a = duel["match"], duel["a"]
    finish(match, match.player_b)
    with pytest.raises(ValidationError) as refused:
        report_make(match=fresh(match), user=a, score_a=3, score_b=0)
    assert refused.value.messages == ["The result of this match is recorded already."]


def test_a_confirmed_report_moves_the_bracket_on(duel, finish):
    match, a, b = duel["match"], duel["a"], duel["b"]
    other = _first_round(duel["event"])[1]
    finish(other, other.player_a)
    report = report_make(match=match, user=b, score_a=1, score_b=3)
    report_confirm(report=report, user=a, version=report.version)
    final = Match.objects.get(place__event=duel["event"], place__round=2)
    assert {final.player_a_id, final.player_b_id} == {match.player_b_id, other.player_a_id}
    # and the ratings move, as for a director's entry: the winner up, the loser down
    from tournaments.models import RatingChange

    changes = {c.player_id: c for c in RatingChange.objects.filter(match=match)}
    assert changes[match.player_b_id].rating_after > changes[match.player_b_id].rating_before
    assert changes[match.player_a_id].rating_after < changes[match.player_a_id].rating_before
    said = audit_sentence(AuditEntry.objects.get(match_id=match.pk, code="result.final_score"))
    assert said == (
        f"{match.player_a.name} confirmed the final score 1–3 as {match.player_b.name} reported it."
    )


def test_a_dispute_opens_with_both_claims_as_the_score_sheets(duel, director):
    match, a, b = duel["match"], duel["a"], duel["b"]
    report_make(match=match, user=a, **game(1, winner=0, cube=2))
    report = report_make(match=fresh(match), user=a, **game(2, winner=0))
    report_dispute(report=report, user=b, version=report.version, score_a=1, score_b=2)
    report.refresh_from_db()
    dispute = report.dispute
    assert report.status == "disputed" and dispute.source == "report"
    assert dispute.sheet(0) == (3, 0) and dispute.sheet(1) == (1, 2)
    with pytest.raises(ValidationError):
        report_confirm(
            report=report, user=b, version=report.version
        )  # disputed: the director decides
    from matches.disputes import dispute_decide

    with pytest.raises(PermissionDenied):
        dispute_decide(dispute=dispute, user=b)
    dispute_decide(dispute=dispute, user=director)
    match = fresh(match)
    assert match.decided and match.games.count() == 2
    assert Dispute.objects.get(pk=dispute.pk).decision == "report"


def test_a_dispute_s_own_score_must_be_a_score_of_the_match(duel):
    match, a, b = duel["match"], duel["a"], duel["b"]
    report = report_make(match=match, user=a, score_a=3, score_b=0)
    with pytest.raises(ValidationError) as refused:
        report_dispute(report=report, user=b, version=report.version, score_a=4, score_b=0)
    assert "4–0 is not a score of a 3-point match" in refused.value.messages[0]
    assert pending(match).pk == report.pk and not Dispute.objects.exists()


# --- emails -----------------------------------------------------------------------


def test_the_opponent_is_emailed_after_the_report_commits(duel, django_capture_on_commit_callbacks):
    match, a = duel["match"], duel["a"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report_make(match=match, user=a, **game(1))
    assert mail.outbox == [] and len(callbacks) == 1  # nothing before the commit
    callbacks[0]()
    (sent,) = mail.outbox
    assert sent.to == ["b@example.org"]
    assert match.player_a.name in sent.subject and "reported the result" in sent.subject
    assert f"http://127.0.0.1:8000{reverse('report', args=[match.pk])}" in sent.body
    assert "within 15 minutes" in sent.body and reverse("notifications") in sent.body


def test_no_email_when_the_player_turned_them_off(duel, django_capture_on_commit_callbacks):
    from matches.notify import notifications_set

    match, a, b = duel["match"], duel["a"], duel["b"]
    with pytest.raises(PermissionDenied):
        notifications_set(player=match.player_b, emails=False, language="", user=a)
    notifications_set(player=match.player_b, emails=False, language="", user=b)
    with django_capture_on_commit_callbacks(execute=True):
        report_make(match=match, user=a, **game(1))
    assert mail.outbox == []
    entry = AuditEntry.objects.get(code="notifications.set")
    said = f"{match.player_b.name} turned off the emails about their matches."
    assert audit_sentence(entry) == said


def test_the_email_is_in_the_player_s_language(duel, django_capture_on_commit_callbacks):
    """Needs the Italian catalogue (it-strings.json, compiled at merge)."""
    from matches.notify import notifications_set

    match, a, b = duel["match"], duel["a"], duel["b"]
    notifications_set(player=match.player_b, emails=True, language="it", user=b)
    with django_capture_on_commit_callbacks(execute=True):
        report_make(match=match, user=a, **game(1))
    (sent,) = mail.outbox
    assert "ha comunicato il risultato" in sent.subject
    assert "Confermalo o contestalo entro 15 minuti" in sent.body


def test_both_players_are_emailed_when_their_dispute_is_decided(
    duel, director, django_capture_on_commit_callbacks
):
    from matches.disputes import dispute_close

    match, a, b = duel["match"], duel["a"], duel["b"]
    report = report_make(match=match, user=a, score_a=3, score_b=0)
    report_dispute(report=report, user=b, version=report.version)
    report.refresh_from_db()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        dispute_close(dispute=report.dispute, user=director)
    assert sorted(m.to[0] for m in mail.outbox) == ["a@example.org", "b@example.org"]
    assert all("is decided" in m.subject for m in mail.outbox)
    assert all("the recorded score stands" in m.body for m in mail.outbox)
    assert all(match.get_absolute_url() in m.body for m in mail.outbox)


def test_both_players_are_emailed_when_their_match_gets_a_table(
    duel, director, tournament, django_capture_on_commit_callbacks
):
    from tournaments.venue import tournament_tables_set

    match = duel["match"]
    with django_capture_on_commit_callbacks(execute=True):
        tournament_tables_set(tournament=tournament, count=1, user=director)
    assert match.table.number == 1
    to_us = [m for m in mail.outbox if m.to[0] in ("a@example.org", "b@example.org")]
    assert sorted(m.to[0] for m in to_us) == ["a@example.org", "b@example.org"]
    assert all("ready at table 1" in m.subject for m in to_us)
    assert all(match.get_absolute_url() in m.body for m in to_us)
    assert len(mail.outbox) == 2  # the other match waits: its players hear nothing yet


# --- the dashboard ----------------------------------------------------------------


def test_a_report_not_confirmed_in_time_goes_to_the_dashboard(
    duel, director, client, tournament, monkeypatch
):
    match, a = duel["match"], duel["a"]
    report = report_make(match=match, user=a, score_a=3, score_b=0)
    client.force_login(director)
    url = reverse("tournament_dashboard", args=[tournament.pk])
    assert "not confirmed by" not in text(client.get(url))  # still within its 15 minutes
    later = timezone.now() + datetime.timedelta(minutes=16)  # nothing written meanwhile
    monkeypatch.setattr(timezone, "now", lambda: later)
    page = text(client.get(url))
    assert f"a result reported by {match.player_a.name}, not confirmed by" in page
    assert "Settle 1 result a player reported" in page
    assert reverse("report", args=[match.pk]) in client.get(url).content.decode()
    report_confirm(report=report, user=director, version=report.version)  # a director may record it
    assert "not confirmed by" not in text(client.get(url)) and fresh(match).decided


# --- the pages, through the client ------------------------------------------------


def test_a_player_reports_and_the_opponent_confirms_on_their_phones(duel, client):
    match, a, b = duel["match"], duel["a"], duel["b"]
    url = reverse("report", args=[match.pk])
    client.force_login(a)
    page = client.get(url)
    assert page.status_code == 200 and "Report game 1" in text(page)
    assert "Only the final score" in text(page)
    sent = client.post(url, {"number": 1, "winner": 0, "cube": 2, "result": "gammon"})
    assert sent.status_code == 302
    page = text(client.get(url))
    assert f"Waiting for {match.player_b.name} to confirm it" in page
    assert "The score if it is right: 3–0." in page and "Withdraw my report" in page
    assert "Confirm: it is right" not in page
    client.force_login(b)
    mine = text(client.get(reverse("me")))
    assert f"{match.player_a.name} reported the result; confirm or dispute it" in mine
    page = client.get(url)
    assert "Confirm: it is right" in text(page) and "Report game" not in text(page)
    version = pending(match).version
    done = client.post(reverse("report_confirm", args=[match.pk]), {"version": version})
    assert done.status_code == 302
    assert "Confirmed: the result is recorded." in text(client.get(url))
    assert fresh(match).decided


def test_refusals_are_said_on_the_page(duel, client, director):
    match, a, b = duel["match"], duel["a"], duel["b"]
    url = reverse("report", args=[match.pk])
    client.force_login(a)
    client.post(url, {"number": 1, "winner": 0, "cube": 2, "result": "single"})
    refused = client.post(url, {"number": 2, "winner": 1, "cube": 2, "result": "single"})
    assert refused.status_code == 400
    assert "Game 2 is the Crawford game: no doubling (WBF 24)." in text(refused)
    game_record(match=fresh(match), number=1, winner=1, cube=1, result="single", user=director)
    client.force_login(b)
    late = client.post(reverse("report_confirm", args=[match.pk]), {"version": 0})
    assert late.status_code == 400
    assert "This report is void: a director entered the result of the match." in text(late)
    said = f"{match.player_a.name}’s report was set aside: a director entered the result."
    assert said in text(client.get(url))


def test_the_opponent_disputes_with_their_own_score(duel, client, director):
    match, a, b = duel["match"], duel["a"], duel["b"]
    client.force_login(a)
    client.post(reverse("report", args=[match.pk]), {"final": "1", "score_a": 3, "score_b": 1})
    client.force_login(b)
    half = client.post(reverse("report_dispute", args=[match.pk]), {"score_a": 1, "version": 0})
    assert half.status_code == 400 and "Enter both numbers of your score, or neither." in text(half)
    done = client.post(
        reverse("report_dispute", args=[match.pk]), {"score_a": 3, "score_b": 2, "version": 0}
    )
    assert done.status_code == 302
    dispute = Dispute.objects.get(match=match)
    client.force_login(director)
    page = text(client.get(dispute.get_absolute_url()))
    assert f"{match.player_a.name} reported the final score 3–1" in page
    assert f"the trailing player's sheet stands, {match.player_b.name}'s: 3–2" in page
    assert f"The result {match.player_a.name} reported stands: record it" in page
    client.post(dispute.get_absolute_url(), {"decide": "1"})
    assert (fresh(match).final_score_a, fresh(match).final_score_b) == (3, 1)


def test_the_reporter_withdraws_and_the_opponent_cannot(duel, client):
    match, a, b = duel["match"], duel["a"], duel["b"]
    client.force_login(a)
    client.post(reverse("report", args=[match.pk]), {"final": "1", "score_a": 3, "score_b": 1})
    client.force_login(b)
    assert client.post(reverse("report_withdraw", args=[match.pk])).status_code == 403
    client.force_login(a)
    assert client.post(reverse("report_withdraw", args=[match.pk])).status_code == 302
    assert ResultReport.objects.get(match=match).status == "withdrawn"
    again = client.post(reverse("report_withdraw", args=[match.pk]))
    assert again.status_code == 400 and "withdrew this report" in text(again)


def test_the_board_and_the_directors_only_setting_are_said(duel, client, director, tournament):
    match, a = duel["match"], duel["a"]
    client.force_login(a)
    BoardGame.objects.create(match=match, number=1)
    page = text(client.get(reverse("report", args=[match.pk])))
    assert "being played on the site's board" in page and "Report game" not in page
    BoardGame.objects.all().delete()
    tournament_reports_set(
        tournament=tournament,
        results_by="directors",
        report_detail="either",
        confirm_minutes=15,
        user=director,
    )
    page = text(client.get(reverse("report", args=[match.pk])))
    assert "In this tournament the directors enter the results." in page
    assert "Report game" not in page


def test_the_tournament_s_setting_is_saved_and_audited(client, director, tournament, member):
    url = reverse("tournament_reports", args=[tournament.pk])
    data = {"results_by": "players", "report_detail": "final", "confirm_minutes": 10}
    client.force_login(member)
    assert client.post(url, data).status_code == 403
    client.force_login(director)
    assert client.post(url, {**data, "confirm_minutes": 0}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.results_by == "directors"  # refused: nothing saved
    assert client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.results_by, tournament.report_detail, tournament.confirm_minutes) == (
        "players",
        "final",
        10,
    )
    entry = AuditEntry.objects.get(code="reports.set")
    assert "confirmed by the opponent within 10 minutes" in audit_sentence(entry)


def test_a_player_turns_their_emails_off_on_their_page(duel, client, member):
    match, b = duel["match"], duel["b"]
    url = reverse("notifications")
    client.force_login(member)
    assert "not linked to a player" in text(client.get(url))
    client.force_login(b)
    page = text(client.get(url))
    assert "They go to b@example.org." in page
    assert client.post(url, {"language": "it"}).status_code == 302  # emails unticked
    setting = match.player_b.notifications
    assert (setting.emails, setting.language) == (False, "it")


def test_my_page_with_a_report_to_answer_reads_in_a_fixed_number_of_queries(
    duel, client, django_assert_max_num_queries
):
    match, a = duel["match"], duel["a"]
    report_make(match=match, user=a, score_a=3, score_b=0)
    client.force_login(duel["b"])
    # 13: the matches, their games and their penalty points (matches.history) among them
    with django_assert_max_num_queries(13):
        page = client.get(reverse("me"))
    assert match.player_a.name in text(page)


# --- who may: the two players, another player, the directors, staff -----------------


def test_who_may_see_report_confirm_dispute_and_withdraw(
    duel, client, director, django_user_model, directors_group
):
    from datetime import date

    from tournaments.services import tournament_create

    match, a, b = duel["match"], duel["a"], duel["b"]
    other = _first_round(duel["event"])[1]
    another_player = django_user_model.objects.create_user("c", password="pw-c-1")
    Player.objects.filter(pk=other.player_a_id).update(user=another_player)
    other_director = django_user_model.objects.create_user("od", password="pw-od-1")
    other_director.groups.add(directors_group)
    tournament_create(name="Another cup", date=date(2026, 12, 20), user=other_director)
    staff = django_user_model.objects.create_user("staff", password="pw-s-1", is_staff=True)
    report_make(match=match, user=a, score_a=3, score_b=1)
    page = reverse("report", args=[match.pk])
    answers = [reverse(name, args=[match.pk]) for name in ("report_confirm", "report_dispute")]
    withdraw = reverse("report_withdraw", args=[match.pk])
    client.logout()
    assert client.get(page).status_code == 302 and "/accounts/login/" in client.get(page).url
    for url in [*answers, withdraw]:
        assert client.post(url, {"version": 0}).status_code == 302
    for user in (another_player, other_director):
        client.force_login(user)
        assert client.get(page).status_code == 403
        for url in [page, *answers, withdraw]:
            assert client.post(url, {"version": 0, "score_a": 3, "score_b": 0}).status_code == 403
    for user in (a, b, director, staff):
        client.force_login(user)
        assert client.get(page).status_code == 200
    client.force_login(director)
    assert client.post(answers[1], {"version": 0}).status_code == 403  # only the opponent
    assert client.post(withdraw).status_code == 403  # only the reporter
    client.force_login(a)
    assert client.post(answers[0], {"version": 0}).status_code == 403  # not one's own
    assert pending(match).status == "pending"
    client.force_login(staff)
    assert client.post(answers[0], {"version": 0}).status_code == 302  # staff may record it
    assert fresh(match).decided
