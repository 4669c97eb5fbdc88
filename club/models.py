"""The club's players, and the audit trail: who changed what, when, before and after.

This app sits below :mod:`matches` and :mod:`tournaments` and imports neither.
An audit entry names what it is about generically (a content type and an id,
plus the match, tournament and dispute it belongs to as plain ids): the trail
outlives what it describes, and is never edited or deleted.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from rules.text import folded


class Player(models.Model):
    """A club member or guest; rating and experience are computed from matches (FIBS formula)."""

    name = models.CharField(_("name"), max_length=120)
    # the name as people read it in a sorted list, accents and case aside ("Éric" before
    # "Zoë"): kept by save(), and what every list of players is ordered by
    sort_name = models.CharField(_("name sorted as read"), max_length=255, editable=False)
    club = models.CharField(_("club"), max_length=120, blank=True)
    # an ISO 3166-1 alpha-2 code ("IT", "CH"), shown as the country's name in the visitor's
    # language; "" when not known (club.countries reads the names clubs typed before)
    country = CountryField(_("country"), blank=True)
    rating = models.DecimalField(
        _("rating"), max_digits=7, decimal_places=2, default=Decimal("1500.00"), editable=False
    )
    experience = models.PositiveIntegerField(_("experience"), default=0, editable=False)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    # the player's own sign-in, so they can play their matches on the site's board
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("account"),
    )

    class Meta:
        ordering = ["sort_name", "name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="player_has_a_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Saved with its sort key made from the name, whoever saves it (a service, the
        admin, a file imported): a key out of date would put a renamed player out of place."""
        self.sort_name = folded(self.name)[: Player._meta.get_field("sort_name").max_length]
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields:
            kwargs["update_fields"] = {*fields, "sort_name"}
        super().save(*args, **kwargs)

    @property
    def label(self) -> str:
        """The name with the club and the id, to tell two players of the same name apart."""
        if self.club:
            return f"{self.name} ({self.club}, #{self.pk})"
        return f"{self.name} (#{self.pk})"

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])


class Invitation(models.Model):
    """A personal link that lets one player make (or link) their own account.

    The token is random and unguessable; the link works once, until it expires, unless
    the director revokes it. A player has at most one invitation open at a time: issuing
    a new one revokes the old (see :func:`club.services.invitation_issue`).
    """

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("player")
    )
    token = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("issued"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=models.Q(used_at__isnull=True, revoked_at__isnull=True),
                name="invitation_one_open_a_player",
            ),
            models.CheckConstraint(
                condition=models.Q(used_at__isnull=True) | models.Q(revoked_at__isnull=True),
                name="invitation_used_or_revoked_not_both",
            ),
            models.CheckConstraint(
                condition=models.Q(expires_at__gt=models.F("created_at")),
                name="invitation_expires_after_issue",
            ),
            models.CheckConstraint(condition=~models.Q(token=""), name="invitation_has_a_token"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.created_at:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("invitation", args=[self.token])

    @property
    def state(self) -> str:
        """open, used, revoked or expired (the refusal a visitor of the link reads)."""
        if self.used_at is not None:
            return "used"
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        return "open"


class AuditEntryIsPermanent(RuntimeError):
    """An attempt to edit or delete an audit entry: the trail is append-only."""


class AuditQuerySet(models.QuerySet["AuditEntry"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AuditEntryIsPermanent("audit entries are never edited")

    def delete(self) -> NoReturn:
        raise AuditEntryIsPermanent("audit entries are never deleted")


class AuditEntry(models.Model):
    """One change: who, when, what (a code and its parameters), the facts before and after."""

    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    # PROTECT: an account that changed something is deactivated, not deleted; the tournament
    # file's trail names the account by it (tournaments.transfer)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who"),
    )
    user_name = models.CharField(_("who"), max_length=150, blank=True)  # as they were named then
    # brought by a tournament file: the file's claim of who acted (its user name kept here),
    # never an account of this site (a file can name anyone), and shown as the file's
    imported = models.BooleanField(_("imported"), default=False)
    imported_username = models.CharField(max_length=150, blank=True)
    code = models.CharField(_("change"), max_length=40)
    params = models.JSONField(default=dict, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # what changed: a player's page lists its changes, a withdrawal finds its own entry
    # (club.audit.audit_for_subject; indexed: audit_subject), the live pages the newest
    # change of any player and how many there are (tournaments.live; indexed:
    # audit_subject_type_newest, which serves the foreign key too: it has no index of its own)
    subject_type = models.ForeignKey(
        ContentType, on_delete=models.PROTECT, related_name="+", db_index=False
    )
    subject_id = models.PositiveBigIntegerField()
    subject = GenericForeignKey("subject_type", "subject_id")
    # Where the change belongs, beyond its subject: plain ids, not foreign keys, so the trail
    # outlives what it names (a match removed, a tournament deleted) and this app need not
    # know the apps above it. Each is kept because a query reads it:
    # - match_id: a match's changes (club.audit.audit_for_match, the match's page and its
    #   Changes), whether a match has begun (matches.selectors, BEGUN_BY), the latest change
    #   of a match (matches.services), and the tournament file's trail (tournaments.transfer,
    #   the changes of its matches made before they had their place); indexed for those.
    match_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    # - tournament_id: a tournament's Changes page (club.audit.audit_for_tournament), the
    #   live pages' freshness (tournaments.live, its newest change and how many) and the
    #   tournament file's trail; indexed with the id (audit_tournament_newest) for those: the
    #   newest change of a tournament finished long ago is one look-up, not a walk back
    #   through every later entry.
    tournament_id = models.PositiveBigIntegerField(null=True, blank=True)
    # - dispute_id: the dispute a change settled, written to the tournament file with each
    #   entry of the trail and read back by its import (tournaments.transfer); read with
    #   the entry, never searched by, so not indexed.
    dispute_id = models.PositiveBigIntegerField(null=True, blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        indexes = [
            models.Index(fields=["subject_type", "subject_id"], name="audit_subject"),
            models.Index(fields=["subject_type", "id"], name="audit_subject_type_newest"),
            models.Index(fields=["tournament_id", "id"], name="audit_tournament_newest"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(imported=False) | models.Q(user__isnull=True),
                name="audit_imported_names_no_account",
            ),
            models.CheckConstraint(
                condition=models.Q(imported=True) | models.Q(imported_username=""),
                name="audit_claimed_name_only_imported",
            ),
        ]

    def __str__(self) -> str:
        # local time (settings.TIME_ZONE), as the admin's "When" shows it, not UTC
        return f"{timezone.localtime(self.at):%Y-%m-%d %H:%M} {self.user_name or '—'}: {self.code}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AuditEntryIsPermanent("audit entries are never edited")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AuditEntryIsPermanent("audit entries are never deleted")


class KeptUpload(models.Model):
    """A file uploaded for a preview, kept on the server until its uploader confirms it.

    The confirmation names it by its key instead of posting the file back (a large file
    would pass the limit of a form's fields); only the account that uploaded it may take
    it, and once: the confirmation deletes it in its own transaction. Kept in the database,
    not the cache, so every worker sees it and an outage of the cache stops no import
    (see :mod:`club.uploads`).
    """

    key = models.CharField(max_length=64, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=40)  # what the file is: "tournament"
    data = models.BinaryField()  # the file as uploaded, compressed (zlib)
    kept_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=~models.Q(key=""), name="upload_has_a_key")]

    def __str__(self) -> str:
        return f"{self.kind} {self.kept_at:%Y-%m-%d %H:%M}"
