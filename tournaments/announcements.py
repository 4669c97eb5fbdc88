"""Announcements: what a director posts for the playing room (the wall display shows them).

``announcement_post`` and ``announcement_withdraw`` are the writes (audited, the tournament's
directors only); :func:`announcements_shown` reads what is on show now. A notice is shown
from its posting until ``shown_until`` (none: until withdrawn); withdrawing it early is the
only change it takes, and it stays in the database, as the audit that names it does.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from club.actors import Actor
from club.policy import can_direct, require
from rules.text import one_line

from .audit import tournament_audit_record
from .models import Announcement, Tournament


def announcements_shown(
    *, tournament: Tournament | int, now: datetime.datetime | None = None
) -> QuerySet[Announcement]:
    """The tournament's announcements on show at ``now``, newest first."""
    now = now or timezone.now()
    return Announcement.objects.filter(
        Q(shown_until__isnull=True) | Q(shown_until__gt=now),
        tournament=tournament,
        withdrawn_at__isnull=True,
        posted_at__lte=now,
    ).order_by("-posted_at", "-id")


def announcement_post(
    *,
    tournament: Tournament,
    text: str,
    minutes: int | None = None,
    user: Actor,
) -> Announcement:
    """Post a notice, shown for ``minutes`` (none: until withdrawn)."""
    require(can_direct(user, tournament))
    # one line on the wall, the room reading it from afar: its lines joined, its spaces
    # single, and no hidden character (an override would turn what follows right to left)
    text = " ".join(one_line(text).split())
    if not text:
        raise ValidationError(_("Write the announcement."))
    if len(text) > Announcement.TEXT_LENGTH:
        raise ValidationError(
            _("An announcement is at most %(count)s characters: this one has %(length)s.")
            % {"count": Announcement.TEXT_LENGTH, "length": len(text)}
        )
    if minutes is not None and not 1 <= minutes <= 24 * 60:
        raise ValidationError(_("Show it for 1 minute to 24 hours, or until it is withdrawn."))
    now = timezone.now()
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        posted = Announcement.objects.create(
            tournament=locked,
            text=text,
            posted_by=user if isinstance(user, User) else None,
            posted_at=now,
            shown_until=now + datetime.timedelta(minutes=minutes) if minutes else None,
        )
        tournament_audit_record(
            locked,
            user,
            "announcement.posted",
            subject=posted,
            params={"text": text, "minutes": minutes},
            after={"text": text, "minutes": minutes},
        )
    return posted


def announcement_withdraw(*, announcement: Announcement, user: Actor) -> Announcement:
    """Take a notice off the wall before its time."""
    require(can_direct(user, announcement.tournament))
    with transaction.atomic():
        locked = Announcement.objects.select_for_update().get(pk=announcement.pk)
        now = timezone.now()
        if locked.withdrawn_at is not None:
            raise ValidationError(_("This announcement was already withdrawn."))
        if locked.shown_until is not None and locked.shown_until <= now:
            raise ValidationError(_("This announcement is no longer shown: its time is over."))
        locked.withdrawn_at = now
        locked.save(update_fields=["withdrawn_at"])
        tournament_audit_record(
            announcement.tournament,
            user,
            "announcement.withdrawn",
            subject=locked,
            params={"text": locked.text},
        )
    return locked
