"""Issue 23.5: players' emails are never dropped without a word.

A name stored over two lines still gives a one-line subject (Django refuses a header with a
line break); a mail that cannot be sent is one warning naming the player and the kind of
mail, no traceback, and the page that caused it answers as usual.
"""

from __future__ import annotations

import logging
import smtplib
import socket

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

from club.models import Player
from matches.models import ResultReport
from matches.reports import report_make
from tests.matches import test_reports

pytestmark = pytest.mark.django_db(transaction=True)  # mails go at the commit, in the view
# a first-round match of a knockout whose players report, both linked to accounts
knockout, duel = test_reports.knockout, test_reports.duel


class RefusingBackend(BaseEmailBackend):
    """A mail server that takes the connection and refuses every recipient."""

    def send_messages(self, messages):
        for message in messages:
            message.message()
            raise smtplib.SMTPRecipientsRefused({message.to[0]: (550, b"mailbox unavailable")})
        return 0


def closed_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return free.getsockname()[1]


def warnings_of(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "matches.notify"]


def test_a_name_stored_over_two_lines_still_makes_a_one_line_subject(duel, caplog):
    match, a = duel["match"], duel["a"]
    Player.objects.filter(pk=match.player_a_id).update(name="Anna\r\nRossi\u202e")
    match.player_a.refresh_from_db()
    report_make(match=match, user=a, score_a=3, score_b=0)
    (sent,) = mail.outbox
    assert sent.subject == "[Crawford] Anna Rossi reported the result of your match"
    assert warnings_of(caplog) == []


@pytest.mark.parametrize("server", ["closed port", "refusing"])
def test_a_mail_that_cannot_be_sent_is_one_warning_and_the_page_answers(
    duel, client, settings, caplog, server
):
    if server == "closed port":
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", closed_port()
        settings.EMAIL_USE_TLS, settings.EMAIL_TIMEOUT = False, 5
    else:
        settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    match, a = duel["match"], duel["a"]
    client.force_login(a)
    caplog.set_level(logging.INFO)
    answer = client.post(
        reverse("report", args=[match.pk]), {"final": "1", "score_a": 3, "score_b": 1}
    )
    assert answer.status_code == 302 and ResultReport.objects.filter(match=match).exists()
    (warning,) = warnings_of(caplog)
    said = warning.getMessage()
    assert warning.levelno == logging.WARNING and warning.exc_info is None
    assert "report_waiting email" in said and f"player #{match.player_b_id}" in said
    assert match.player_b.name in said and "\n" not in said
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
