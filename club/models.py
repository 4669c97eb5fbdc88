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


class Player(models.Model):
    """A club member or guest; rating and experience are computed from matches (FIBS formula)."""

    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=60, blank=True)
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
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="player_has_a_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def label(self) -> str:
        """The name with the club and the id, to tell two players of the same name apart."""
        if self.club:
            return f"{self.name} ({self.club}, #{self.pk})"
        return f"{self.name} (#{self.pk})"

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])


class AuditEntryIsPermanent(RuntimeError):
    """An attempt to edit or delete an audit entry: the trail is append-only."""


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AuditEntryIsPermanent("audit entries are never edited")

    def delete(self) -> NoReturn:
        raise AuditEntryIsPermanent("audit entries are never deleted")


class AuditEntry(models.Model):
    """One change: who, when, what (a code and its parameters), the facts before and after."""

    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    # PROTECT: an account that changed something is deactivated, not deleted
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who"),
    )
    user_name = models.CharField(_("who"), max_length=150, blank=True)  # as they were named then
    code = models.CharField(_("change"), max_length=40)
    params = models.JSONField(default=dict, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    subject_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    subject_id = models.PositiveBigIntegerField()
    subject = GenericForeignKey("subject_type", "subject_id")
    # where the change belongs, for the pages that list changes (plain ids: see the module)
    match_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    tournament_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    dispute_id = models.PositiveBigIntegerField(null=True, blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="audit_subject")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user_name or '—'}: {self.code}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AuditEntryIsPermanent("audit entries are never edited")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AuditEntryIsPermanent("audit entries are never deleted")
