"""Issue 29: players' emails go through the job queue ("mail.send").

Written in the player's language and checked (``still``) at the commit, then handed to a job
that sends them: a mail server down is tried again a few times, and a mail is sent once
however many tries it took; still down after them, the job fails in words, with one warning
in the log.
"""

from __future__ import annotations

import logging
import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as Outbox
from django.urls import reverse

from jobs.kinds import job_error_text
from jobs.models import Job
from jobs.runner import jobs_run_waiting
from matches.notify import MAIL_RETRIES, player_notify
from matches.reports import report_make
from tests.matches import test_reports

pytestmark = pytest.mark.django_db(transaction=True)  # mails go at the commit
knockout, duel = test_reports.knockout, test_reports.duel


class FlakyServer(Outbox):
    """A mail server that is down for the first ``down`` connections, then takes mail."""

    down = 0
    tries = 0

    def send_messages(self, messages):
        type(self).tries += 1
        if type(self).tries <= type(self).down:
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)


@pytest.fixture
def flaky(settings):
    settings.EMAIL_BACKEND = f"{__name__}.FlakyServer"
    FlakyServer.tries = 0

    def down_for(times):
        FlakyServer.down = times

    return down_for


def mail_jobs():
    return list(Job.objects.filter(kind="mail.send").order_by("pk"))


def test_the_mail_server_down_twice_then_up_sends_one_mail(duel, flaky):
    flaky(2)
    match, a = duel["match"], duel["a"]
    report_make(match=match, user=a, score_a=3, score_b=0)
    (sent,) = mail.outbox
    assert sent.to == ["b@example.org"] and "reported the result" in sent.subject
    (job,) = mail_jobs()
    assert job.state == Job.State.DONE and job.attempts == 3
    assert FlakyServer.tries == 3


def test_queued_a_mail_waits_for_its_worker_and_is_tried_until_it_goes(duel, flaky, settings):
    settings.JOBS_BACKEND = "held"
    flaky(2)
    report_make(match=duel["match"], user=duel["a"], score_a=3, score_b=0)
    (job,) = mail_jobs()
    assert mail.outbox == [] and job.params["address"] == "b@example.org"
    assert job.params["kind"] == "report_waiting"
    assert job.params["player"] == duel["match"].player_b_id
    assert job.params["subject"].startswith("[Crawford] ") and "http" in job.params["body"]
    for _ in range(5):  # the worker comes back to it: each pass tries the waiting once
        jobs_run_waiting()
    assert len(mail.outbox) == 1  # sent once, never again
    job.refresh_from_db()
    assert job.state == Job.State.DONE and job.attempts == 3


def test_a_mail_server_still_down_fails_the_job_in_words(duel, flaky, caplog, client, settings):
    flaky(99)
    caplog.set_level(logging.INFO)
    report_make(match=duel["match"], user=duel["a"], score_a=3, score_b=0)
    assert mail.outbox == []
    (job,) = mail_jobs()
    assert job.state == Job.State.FAILED and job.attempts == MAIL_RETRIES + 1
    assert job_error_text(job) == (
        "The mail server did not take the email, 4 times (SMTPServerDisconnected). Check the "
        "site's mail settings, then try again."
    )
    (warning,) = [r for r in caplog.records if r.name == "matches.notify"]
    assert "report_waiting email" in warning.getMessage() and warning.exc_info is None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # staff follow it and try it again once the server is back
    from django.contrib.auth.models import User

    staff = User.objects.create_user("staff", password="pw-staff-1", is_staff=True)
    client.force_login(staff)
    flaky(0)
    assert client.post(reverse("jobs:job_again", args=[job.pk])).status_code == 302
    assert len(mail.outbox) == 1


def test_a_mail_that_no_longer_holds_at_the_commit_is_not_queued(duel):
    player = duel["match"].player_b
    from django.db import transaction

    holds = [True]
    with transaction.atomic():
        player_notify(
            player=player,
            subject="Hello %(name)s",
            template="emails/report_waiting.txt",
            context={"name": "x", "match": "x – y", "minutes": 5},
            path="/",
            still=lambda: holds[0],
        )
        holds[0] = False  # what it tells is undone before the commit asks
    assert mail_jobs() == [] and mail.outbox == []


def test_the_mail_is_written_in_the_players_language(duel, settings):
    from matches.notify import notifications_set

    notifications_set(player=duel["match"].player_b, emails=True, language="it", user=duel["b"])
    report_make(match=duel["match"], user=duel["a"], score_a=3, score_b=0)
    (job,) = mail_jobs()
    (sent,) = mail.outbox
    assert sent.subject == job.params["subject"] and "ha comunicato" in sent.subject
