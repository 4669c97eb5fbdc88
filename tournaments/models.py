"""Players (tournaments arrive in a later issue)."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.urls import reverse
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

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="player_has_a_name"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("player", args=[self.pk])
