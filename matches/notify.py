"""Emails to players: a result waiting for their confirmation, a dispute over their match
decided, their match ready at a table (or that table no longer theirs).

Each is sent after the transaction that caused it commits (a change undone sends nothing),
and only if what it tells still holds then (a mail may carry a check, ``still``, run at
sending: a match called to a table is still there, not taken back in between); in plain
text, in the player's language (their setting, else the site's), with a link to the page
where they act; a player who turned emails off gets none. The address is the player's own,
else their account's. The tournaments app sends the tables' through here too
(:mod:`tournaments.calls`).

A mail that cannot be sent (a header refused, the mail server down or refusing it) is one
warning in the log naming the player and the kind of mail; the change it tells of is done,
and the page that made it answers as usual.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from club.actors import Actor
from club.audit import audit_record
from club.models import Player
from club.policy import require
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
    the template in the player's language. ``still``, when given, is asked after the commit,
    just before sending: the mail goes only if it answers True (what it tells still holds).
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
        lambda: _send(
            player=player,
            kind=kind,
            subject=settings.EMAIL_SUBJECT_PREFIX + title,
            body=body,
            address=address,
            still=still,
        )
    )
    return True


def _send(
    *,
    player: Player,
    kind: str,
    subject: str,
    body: str,
    address: str,
    still: Callable[[], bool] | None = None,
) -> bool:
    """Send one mail, if what it tells still holds; a failure is logged in one line, never
    raised: it runs after the commit, so the change is done whatever happens to the mail
    that tells of it."""
    if still is not None and not still():
        logger.info("The %s email to player #%s is not sent: it no longer holds", kind, player.pk)
        return False
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    except Exception as error:  # a header refused, a server down or refusing: all the same
        logger.warning(
            "The %s email to player #%s (%s) was not sent: %s: %s",
            kind,
            player.pk,
            one_line(player.name),
            type(error).__name__,
            one_line(str(error)),
        )
        return False
    return True


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
