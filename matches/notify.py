"""Emails to players: a result waiting for their confirmation, a dispute over their match
decided, their match ready at a table (or that table no longer theirs).

Each is handed to the job queue after the transaction that caused it commits (a change undone
sends nothing), and only if what it tells still holds then (a mail may carry a check,
``still``, asked at the commit: a match called to a table is still there, not taken back in
between); the job (``mail.send``) sends it, and tries again a few times while the mail server
is down. In plain
text, in the player's language (their setting, else the site's), with a link to the page
where they act; a player who turned emails off gets none. The address is the player's own,
else their account's. The tournaments app sends the tables' through here too
(:mod:`tournaments.calls`).

A mail that cannot be sent (a header refused, the mail server still down or refusing it
after its tries) is one warning in the log naming the player and the kind of mail, and a
failed job that says why on its page (staff see it under /jobs/); the change it tells of is
done, and the page that made it answers as usual.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import DatabaseError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from club.actors import Actor
from club.audit import audit_record
from club.models import Player
from club.policy import SYSTEM, require
from jobs.kinds import JobFailed, JobKind, Progress, register_job_kind
from jobs.models import Job
from jobs.services import job_start
from rules.text import one_line

from .models import Notifications

logger = logging.getLogger(__name__)


def player_notifications(*, player: Player) -> Notifications:
    """The player's setting (the default, unsaved, if they never changed it)."""
    found = Notifications.objects.filter(player=player).first()
    return found or Notifications(player=player, emails=True, language="")


def player_address(player: Player) -> str:
    if player.email:
        return player.email
    account = player.user if player.user_id else None
    return getattr(account, "email", "") or ""


# where an email's links point when SITE_URL is unset: the laptop's own `make run`
LAPTOP_URL = "http://127.0.0.1:8000"


def site_link(path: str) -> str:
    """An address to put in an email: the site's own (SITE_URL) and the page's path."""
    return (settings.SITE_URL or LAPTOP_URL).rstrip("/") + path


def player_notify(
    *,
    player: Player,
    subject: str,
    template: str,
    context: dict[str, Any],
    path: str,
    still: Callable[[], bool] | None = None,
) -> bool:
    """Email ``player`` once the current transaction commits; False when nothing is sent
    (emails turned off, or no address).

    ``subject`` is a msgid (gettext_noop) with %-parameters from ``context``, translated with
    the template in the player's language. ``still``, when given, is asked at the commit,
    before the mail is queued (:func:`_queue`): it goes only if it answers True (what it
    tells still holds).
    """
    setting = player_notifications(player=player)
    address = player_address(player)
    if not setting.emails or not address:
        return False
    language = setting.language or settings.LANGUAGE_CODE
    with translation.override(language):
        words = {
            **context,
            "player": player,
            "link": site_link(path),
            "settings_link": site_link(reverse("notifications")),
        }
        # a subject is one header line: a name stored over two lines would have it refused
        title = one_line(_(subject) % context)
        body = render_to_string(template, words)
    kind = template.rsplit("/", 1)[-1].removesuffix(".txt")
    transaction.on_commit(
        lambda: _queue(
            player=player,
            kind=kind,
            subject=settings.EMAIL_SUBJECT_PREFIX + title,
            body=body,
            address=address,
            still=still,
        )
    )
    return True


def _queue(
    *,
    player: Player,
    kind: str,
    subject: str,
    body: str,
    address: str,
    still: Callable[[], bool] | None = None,
) -> bool:
    """At the commit: ask ``still`` here, then hand the mail, written whole, to the job queue
    (:data:`MAIL_KIND`), which sends it and tries again while the mail server is down.

    ``still`` is asked now, not when the job runs: a function cannot travel in a job's
    parameters, and what it checks (a table call not taken back) is what the commit just
    left; a mail waiting on a down server is sent as it was written. Nothing here raises: the
    change is done whatever happens to the mail that tells of it.
    """
    if still is not None and not still():
        logger.info("The %s email to player #%s is not sent: it no longer holds", kind, player.pk)
        return False
    try:
        job_start(
            kind=MAIL_KIND,
            user=SYSTEM,
            params={
                "address": address,
                "subject": subject,
                "body": body,
                "kind": kind,
                "player": player.pk,
            },
        )
    except DatabaseError as error:  # the job could not even be written down
        _not_sent(kind, player.pk, player.name, error)
        return False
    return True


MAIL_KIND = "mail.send"
# the mail server's "not now": tried again a few times, later each time (jobs.runner.BACKOFF)
MAIL_TRANSIENT: tuple[type[Exception], ...] = (OSError, smtplib.SMTPException)
MAIL_RETRIES = 3


def _not_sent(kind: str, player_id: object, name: str, error: Exception) -> None:
    """The one warning a mail not sent leaves, naming the player and the kind of mail."""
    logger.warning(
        "The %s email to player #%s (%s) was not sent: %s: %s",
        kind,
        player_id,
        one_line(name),
        type(error).__name__,
        one_line(str(error)),
    )


def _send(job: Job, progress: Progress) -> Mapping[str, Any]:
    """The mail job: send it once. The mail server down or refusing is raised as "not now"
    while tries are left (the runner queues it again), then ends the job in words with one
    warning in the log; a mail refused at once (a header Django will not write) ends it
    straight away. A mail is sent in one call, so a job that got past it is done: a retry
    never sends it twice."""
    params = job.params
    kind = str(params.get("kind", ""))
    player_id = params.get("player")
    name = Player.objects.filter(pk=player_id).values_list("name", flat=True).first() or ""
    try:
        send_mail(
            str(params.get("subject", "")),
            str(params.get("body", "")),
            settings.DEFAULT_FROM_EMAIL,
            [str(params.get("address", ""))],
        )
    except MAIL_TRANSIENT as error:
        if job.attempts <= MAIL_RETRIES:
            raise
        _not_sent(kind, player_id, name, error)
        raise JobFailed("mail_server", attempts=job.attempts, error=type(error).__name__) from error
    except Exception as error:  # a header refused, a backend's own error: never a crash
        _not_sent(kind, player_id, name, error)
        raise JobFailed("mail_refused", error=type(error).__name__) from error
    progress(1, 1)
    return {"sent": 1}


def register() -> None:
    register_job_kind(
        JobKind(
            kind=MAIL_KIND,
            title=gettext_noop("An email to a player (%(kind)s)"),
            run=_send,
            retries=MAIL_RETRIES,
            transient=MAIL_TRANSIENT,
            errors={
                "mail_server": gettext_noop(
                    "The mail server did not take the email, %(attempts)s times (%(error)s). "
                    "Check the site's mail settings, then try again."
                ),
                "mail_refused": gettext_noop(
                    "The email could not be sent as written (%(error)s): the site's log says more."
                ),
            },
        )
    )


def notifications_set(*, player: Player, emails: bool, language: str, user: Actor) -> Notifications:
    """A player turns their emails on or off, and chooses their language: their own only."""
    require(user is not None and player.user_id is not None and player.user_id == user.pk)
    if language and language not in dict(settings.LANGUAGES):
        raise ValidationError(_("Choose one of the site's languages."))
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        setting, _created = Notifications.objects.get_or_create(player=locked)
        before = {"emails": setting.emails, "language": setting.language}
        after = {"emails": emails, "language": language}
        if before != after:
            setting.emails, setting.language = emails, language
            setting.save()
            audit_record(
                user=user,
                code="notifications.set",
                subject=setting,
                params={"name": locked.name},
                before=before,
                after=after,
            )
    return setting
