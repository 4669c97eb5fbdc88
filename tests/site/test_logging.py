"""Logs for people (issue 23.10): a refused request is one line, not a traceback or a mail;
a server error is one traceback and a mail to the admins, at most so many mails an hour.

What an operator reads is the site's stderr handler (LOGGING in config/settings.py), so these
tests read what it writes; the admins' mail is Django's outbox.
"""

from __future__ import annotations

import io
import logging
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def log(settings):
    """What the site writes to stderr during the test, and admins to mail."""
    settings.ADMINS = [("Ann", "ann@example.org")]
    handlers = {h.get_name(): h for h in logging.getLogger("django").handlers}
    handlers["mail_admins"].reset()
    stderr = handlers["stderr"]
    written = io.StringIO()
    previous = stderr.setStream(written)
    yield written
    stderr.setStream(previous)


@pytest.fixture
def broken():
    """The API's tournaments list raising: a real server error."""
    with mock.patch("api.api.tournament_list", side_effect=RuntimeError("the disk is full")):
        yield Client(raise_request_exception=False)


def lines(log) -> list[str]:
    return log.getvalue().splitlines()


def test_a_refused_request_is_one_line_at_warning_and_no_mail(log, member_client, tournament):
    response = member_client.post(reverse("announcement_new", args=[tournament.pk]), {})
    assert response.status_code == 403
    assert len(lines(log)) == 1, log.getvalue()
    assert " WARNING django.request Forbidden (Permission denied): /tournaments/" in lines(log)[0]
    assert mail.outbox == []


def test_a_bad_host_is_one_line_at_warning_and_no_mail(log, client):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert len(lines(log)) == 1, log.getvalue()
    assert (
        " WARNING django.security.DisallowedHost Invalid HTTP_HOST header: 'evil.example'"
        in (lines(log)[0])
    )
    assert mail.outbox == []


def test_a_server_error_is_one_traceback_and_one_mail(log, broken):
    assert broken.get("/api/v1/tournaments").status_code == 500
    text = log.getvalue()
    assert text.count("Traceback (most recent call last)") == 1
    assert " ERROR django.request Internal Server Error: /api/v1/tournaments" in text
    assert "RuntimeError: the disk is full" in text
    (sent,) = mail.outbox
    assert "Internal Server Error: /api/v1/tournaments" in sent.subject
    assert sent.to == ["ann@example.org"]


def test_the_admins_get_so_many_mails_an_hour_and_the_log_every_error(
    log, broken, settings, monkeypatch
):
    from config.logs import RateLimitedAdminEmailHandler

    now = [1000.0]
    monkeypatch.setattr(RateLimitedAdminEmailHandler, "clock", staticmethod(lambda: now[0]))
    settings.ADMIN_MAILS_PER_HOUR = 3
    for _ in range(20):
        assert broken.get("/api/v1/tournaments").status_code == 500
    assert log.getvalue().count("Traceback (most recent call last)") == 20
    assert len(mail.outbox) == 3
    now[0] += 3600  # an hour on: the next is mailed, and says how many were not
    assert broken.get("/api/v1/tournaments").status_code == 500
    assert len(mail.outbox) == 4
    assert "(and 17 more not mailed: see the log)" in mail.outbox[-1].subject


def test_the_mails_an_hour_come_from_the_environment():
    from tests.site.test_settings import run, settings_of

    assert settings_of("ADMIN_MAILS_PER_HOUR") == {"ADMIN_MAILS_PER_HOUR": 10}
    assert settings_of("ADMIN_MAILS_PER_HOUR", ADMIN_MAILS_PER_HOUR="3") == {
        "ADMIN_MAILS_PER_HOUR": 3
    }
    done = run("", ADMIN_MAILS_PER_HOUR="0")  # no mail at all: leave ADMINS empty instead
    assert "ADMIN_MAILS_PER_HOUR must be a whole number from 1, not '0'" in done.stderr
