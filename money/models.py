"""Money sessions and chouettes: the table, who sits at it, and its log.

Only what happened is stored: the chouette engine's events in order (:class:`TableEvent`),
each as its ``to_dict()``. The lineup, the cubes, each game's ledger and every total are
derived by replaying them through :mod:`rules.chouette` (see :mod:`money.queries`), so a
correction of one event is a correction of everything after it, and nothing can disagree.
A two-player money session is a chouette of two players: one engine, one kind of log.
"""

from __future__ import annotations

from django.conf import settings as site_settings  # a table has a field named settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from club.models import Player

# the join code's letters: upper case and digits, without 0/O and 1/I, which people misread
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
CODE_PATTERN = r"^[A-HJ-NP-Z2-9]{4,8}$"


class TableKind(models.TextChoices):
    CHOUETTE = "chouette", _("chouette")
    MONEY = "money", _("money session")


class Table(models.Model):
    """A chouette for the evening, or a money session between two players: never rated."""

    kind = models.CharField(_("kind"), max_length=10, choices=TableKind.choices)
    name = models.CharField(_("name"), max_length=80)
    # what the others type (or scan as a QR code) to sit down
    code = models.CharField(_("join code"), max_length=8, unique=True)
    # the engine's settings as agreed at the start: ChouetteSettings.to_dict()
    settings = models.JSONField(_("settings"), default=dict)
    created_by = models.ForeignKey(
        site_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="money_tables",
        verbose_name=_("started by"),
    )
    created = models.DateTimeField(_("started"), auto_now_add=True)
    closed = models.DateTimeField(_("closed at"), null=True, blank=True)
    # bumped by every write: of two phones acting on the same table, the first wins
    version = models.PositiveIntegerField(default=0)

    class Meta:
        # /tables/ reads the newest first, a page at a time: a person's own tables
        # (table_created_order, read backwards) and the open ones (table_open_order: the few
        # still open, never a walk through every closed evening)
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["created", "id"], name="table_created_order"),
            models.Index(
                fields=["created", "id"],
                condition=models.Q(closed__isnull=True),
                name="table_open_order",
            ),
        ]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=TableKind.values), name="money_table_kind"
            ),
            models.CheckConstraint(condition=~models.Q(name=""), name="money_table_has_a_name"),
            models.CheckConstraint(
                condition=models.Q(code__regex=CODE_PATTERN), name="money_table_code_letters"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("money:table", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.closed is None


class Seat(models.Model):
    """A player at a table, and the money they play for a point (club practice: each player
    may have their own stake; a transfer is valued at the lower of the two)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    stake_cents = models.PositiveIntegerField(_("stake a point, in cents"), default=0)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["table", "joined", "id"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="money_seat_once_a_table"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"


class TableEvent(models.Model):
    """One event of the table's log, as the engine's ``to_dict()`` has it (players as
    ``str(player.pk)``). Never deleted: an undo is an event of its own, a correction
    replaces the data and keeps the old in the audit entry."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    data = models.JSONField()
    author = models.ForeignKey(
        site_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="money_event_once"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="money_event_seq_positive"),
            models.CheckConstraint(
                condition=models.Q(data__has_key="kind"), name="money_event_has_a_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.seq}"


class TableMove(models.Model):
    """A checker play or a roll of a game played on the site's board at this table: a
    :class:`rules.game.Action` as the matches board stores it (``act``, ``player``,
    ``dice``, ``play``, ``resignation``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    game = models.PositiveIntegerField()  # GameState.number
    seq = models.PositiveIntegerField()
    data = models.JSONField()
    author = models.ForeignKey(
        site_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "game", "seq"], name="money_move_once"),
            models.CheckConstraint(
                condition=models.Q(game__gte=1, seq__gte=1), name="money_move_numbers_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} game {self.game} #{self.seq}"
