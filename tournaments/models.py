"""Tournaments, their events, entries and matches' places, and rating history.

What can be derived is not stored: brackets, standings, the current round and a
knockout's champion come from the entries' seeds and the matches' results (see
:mod:`tournaments.queries`).
"""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import Player
from matches.models import Match, Side, odd_length_constraint
from rules.clock import ClockSettings, FlagRule
from rules.lateness import LatenessRules

from .rounds import RoundName, round_name


class Tournament(models.Model):
    # who it is wherever it goes: written in its export and kept by an import, so a site
    # knows a tournament it already holds (issue 25.3); never reused, never shown for editing
    uuid = models.UUIDField(_("identity"), default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="directed_tournaments",
        verbose_name=_("directors"),
        blank=True,
    )
    # dice rolled at the table may be entered on the board by the players themselves
    physical_dice = models.BooleanField(
        _("players may enter dice rolled at the table"), default=False
    )
    # the playing room's tables, numbered 1 to this across all events; None: not numbered
    tables = models.PositiveSmallIntegerField(
        _("tables"),
        null=True,
        blank=True,
        help_text=_("tables in the playing room, numbered from 1; empty: matches get no table"),
    )

    # players signed in may ask to enter its events; a director approves or declines
    open_entry = models.BooleanField(_("players may ask to enter"), default=False)

    class LateRounds(models.TextChoices):
        LOSS = "loss", _("as losses")
        BYE = "bye", _("as byes (a win each)")

    # how a Swiss counts the rounds a player who arrived late did not play
    late_rounds = models.CharField(
        _("rounds missed by a late arrival in a Swiss"),
        max_length=4,
        choices=LateRounds.choices,
        default=LateRounds.LOSS,
    )

    class ResultsBy(models.TextChoices):
        DIRECTORS = "directors", _("entered by the directors only")
        PLAYERS = "players", _("reported by a player and confirmed by the opponent")

    class ReportDetail(models.TextChoices):
        EITHER = "either", _("game by game or only the final score")
        GAMES = "games", _("game by game")
        FINAL = "final", _("only the final score")

    # who enters the results: the directors, or the players from their phones (a report,
    # recorded once the opponent confirms it; a director may always enter or correct one)
    results_by = models.CharField(
        _("results"), max_length=9, choices=ResultsBy.choices, default=ResultsBy.DIRECTORS
    )
    report_detail = models.CharField(
        _("players report"), max_length=6, choices=ReportDetail.choices, default="either"
    )
    # a report not confirmed within this goes to the director's dashboard
    confirm_minutes = models.PositiveSmallIntegerField(
        _("minutes a report waits for the opponent"), default=15
    )

    # time (tournament rules, with the common defaults): penalty points for lateness, from
    # the match's call (tournaments.lateness), and the clocks of the rounds played on them
    late_minutes_per_point = models.PositiveSmallIntegerField(
        _("minutes late for each penalty point"),
        default=5,
        help_text=_("0: no penalty points for lateness"),
    )
    late_grace_minutes = models.PositiveSmallIntegerField(_("grace period (minutes)"), default=0)
    late_forfeit_at_half = models.BooleanField(
        _("a late player forfeits once the penalty points reach half the match length"),
        default=True,
    )

    class OnFlag(models.TextChoices):
        MATCH = FlagRule.MATCH.value, _("loses the match")
        GAME = FlagRule.GAME.value, _("loses the game at the current cube, with gammons")

    clock_seconds_per_point = models.PositiveSmallIntegerField(
        _("clock: seconds per point of the match length"), default=120
    )
    clock_delay_seconds = models.PositiveSmallIntegerField(
        _("clock: delay each turn (seconds)"), default=12, help_text=_("0: no delay")
    )
    clock_on_flag = models.CharField(
        _("a player whose time runs out"),
        max_length=5,
        choices=OnFlag.choices,
        default=OnFlag.MATCH,
    )

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="tournament_has_a_name"),
            models.CheckConstraint(
                condition=models.Q(results_by__in=["directors", "players"]),
                name="tournament_results_by_known",
            ),
            models.CheckConstraint(
                condition=models.Q(report_detail__in=["either", "games", "final"]),
                name="tournament_report_detail_known",
            ),
            models.CheckConstraint(
                condition=models.Q(confirm_minutes__gte=1, confirm_minutes__lte=1440),
                name="tournament_confirm_minutes_a_day_at_most",
            ),
            models.CheckConstraint(
                condition=models.Q(clock_on_flag__in=["match", "game"]),
                name="tournament_clock_on_flag_known",
            ),
            models.CheckConstraint(
                condition=models.Q(clock_seconds_per_point__gte=1),
                name="tournament_clock_has_time",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def lateness_rules(self) -> LatenessRules | None:
        """The tournament's lateness penalty for the engine; None: no penalty points."""
        if not self.late_minutes_per_point:
            return None
        return LatenessRules(
            minutes_per_point=self.late_minutes_per_point,
            grace_minutes=self.late_grace_minutes,
            forfeit_at_half=self.late_forfeit_at_half,
        )

    @property
    def clock_settings(self) -> ClockSettings:
        """The tournament's clock for the engine (used in the rounds played on clocks)."""
        return ClockSettings(
            seconds_per_point=self.clock_seconds_per_point,
            delay_seconds=self.clock_delay_seconds,
            on_flag=FlagRule(self.clock_on_flag),
        )

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])


class Event(models.Model):
    """One competition within a tournament: a knockout, a Swiss, round robin pools."""

    class Format(models.TextChoices):
        SINGLE = "single", _("single elimination")
        CONSOLATION = "consolation", _("single elimination with a consolation for round 1 losers")
        PROGRESSIVE = "progressive", _("single elimination with a progressive consolation")
        DOUBLE = "double", _("double elimination")
        LAST_CHANCE = "last_chance", _("last chance (knockout for players already out)")
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin pools")

    class Seeding(models.TextChoices):
        RANDOM = "random", _("random draw (the seed is published)")
        RATING = "rating", _("by rating")
        STANDINGS = "standings", _("by the standings of the event it is cut from")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="events", verbose_name=_("tournament")
    )
    # the name a director gave; empty: the site names it (see ``name``) in each visitor's language
    given_name = models.CharField(_("name"), max_length=120, blank=True)
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    seeding = models.CharField(
        _("draw"), max_length=10, choices=Seeding.choices, default=Seeding.RANDOM
    )
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), null=True, blank=True)
    cut = models.PositiveSmallIntegerField(
        _("cut to a knockout of"), null=True, blank=True, help_text=_("players; empty for none")
    )
    pools = models.PositiveSmallIntegerField(_("pools"), null=True, blank=True)
    holland = models.BooleanField(
        _("Holland rule"),
        default=False,
        help_text=_("post-Crawford, the trailer may not double before their third turn"),
    )
    third_place = models.BooleanField(
        _("play-off for third place"),
        default=False,
        help_text=_("a knockout: the semi-finals' losers play for third place"),
    )
    # a knockout cut from a Swiss is fed by it
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    draw_seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(format="swiss") | models.Q(swiss_rounds__gte=1),
                name="event_swiss_has_rounds",
            ),
            models.CheckConstraint(
                condition=~models.Q(format="round_robin") | models.Q(pools__gte=1),
                name="event_round_robin_has_pools",
            ),
            models.CheckConstraint(
                condition=models.Q(cut__isnull=True) | models.Q(format="swiss", cut__gte=2),
                name="event_cut_only_from_a_swiss",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("event", args=[self.pk])

    @property
    def name(self) -> str:
        """The name a director gave, or the one the site makes, in the language of whoever
        reads it: a knockout cut from a Swiss is "Swiss – last 4", any other the name of its
        format. What it is is stored (no name, the link to the Swiss and its cut), never the
        words of the director who made it."""
        if self.given_name:
            return self.given_name
        parent = self.parent if self.parent_id is not None else None
        if parent is not None and parent.cut:
            return gettext("%(event)s – last %(count)s") % {
                "event": parent.name,
                "count": parent.cut,
            }
        return str(self.Format(self.format).label)

    @name.setter
    def name(self, value: str) -> None:
        self.given_name = value

    @property
    def drawn(self) -> bool:
        return self.drawn_at is not None

    @property
    def knockout(self) -> bool:
        return self.format not in (self.Format.SWISS, self.Format.ROUND_ROBIN)

    def length_for(self, round_number: int) -> int:
        """Each round's length; the last one given holds for any later round."""
        lengths = [r.length for r in self.rounds.all()]
        return lengths[min(round_number, len(lengths)) - 1]

    def length_of(self, name: RoundName) -> int:
        """A named round's length: a double elimination's final (and the final played
        again) is played to the last length given, however many rounds came before."""
        return self.length_for(999 if name.final else name.number)


class Round(models.Model):
    """A round's match length: 5, 5, 7, 7, 9, 11 in the final; its call and its clocks.

    The rows are the lengths as given, one a round from 1, the last holding for any later
    round; a round given a start time or clocks beyond them gets a row of its own, with the
    length it already had (:func:`tournaments.services.rounds.round_times_set`).
    """

    class Clocks(models.TextChoices):
        # the values of matches.clocks.ClockUse
        REQUIRED = "required", _("Clocks required")
        ALLOWED = "allowed", _("Clocks allowed")
        NONE = "none", _("No clocks")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    length = models.PositiveSmallIntegerField(_("match length"))
    # the round's call: a match is called at the later of this and its first table call
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    clocks = models.CharField(
        _("clocks"), max_length=8, choices=Clocks.choices, default=Clocks.NONE
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_once_an_event"),
            odd_length_constraint("round_length_odd_positive"),
            models.CheckConstraint(
                condition=models.Q(clocks__in=["required", "allowed", "none"]),
                name="round_clocks_known",
            ),
        ]


class Entry(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        CHECKED_IN = "checked_in", _("checked in")
        WITHDRAWN = "withdrawn", _("withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.REGISTERED
    )
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)  # set by the draw
    pool = models.PositiveSmallIntegerField(_("pool"), null=True, blank=True)  # round robin
    # a late arrival in a Swiss plays from this round; the rounds before count as the
    # tournament's late_rounds says (None: drawn with everyone)
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), null=True, blank=True)

    class Meta:
        ordering = ["event", "seed", "player__sort_name", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_once_an_event"),
            models.UniqueConstraint(
                fields=["event", "seed"],
                condition=models.Q(seed__isnull=False),
                name="entry_seed_once_an_event",
            ),
            models.CheckConstraint(
                condition=models.Q(seed__isnull=True) | models.Q(seed__gte=1),
                name="entry_seed_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(joined_round__isnull=True)
                | models.Q(seed__isnull=False, joined_round__gte=2),
                name="entry_joins_a_later_round_once_drawn",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event.name}"

    @property
    def pool_name(self) -> str:
        return "" if self.pool is None else chr(ord("A") + self.pool - 1)


class EntryRequest(models.Model):
    """A player asks to enter an event; a director approves (the entry is made) or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the director")
        APPROVED = "approved", _("approved")
        DECLINED = "declined", _("declined")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="entry_requests", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="entry_requests", verbose_name=_("player")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    asked_at = models.DateTimeField(_("asked"), default=timezone.now)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["event", "asked_at", "id"]
        verbose_name = _("request to enter")
        verbose_name_plural = _("requests to enter")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=models.Q(status="pending"),
                name="entry_request_one_pending",
            ),
            models.CheckConstraint(
                condition=models.Q(status="pending", decided_at__isnull=True)
                | (~models.Q(status="pending") & models.Q(decided_at__isnull=False)),
                name="entry_request_decided_when_not_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} asks to enter {self.event.name}"


class Bye(models.Model):
    """A Swiss round's bye: a win without a match."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="byes")
    round = models.PositiveSmallIntegerField(_("round"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="byes")
    # why: a code of tournaments.pairing.reasons and its parameters, rendered where shown
    reason_code = models.CharField(max_length=40, blank=True)
    reason_params = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["event", "round"]
        constraints = [
            models.UniqueConstraint(fields=["event", "round"], name="bye_once_a_round"),
        ]


class RatingChange(models.Model):
    """One finished match's effect on one player's rating (FIBS formula, ratings.py)."""

    # indexed with the order (rating_change_player_order), which serves the key too
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    # a rated result cannot disappear under the history: ratings are re-derived first
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="+")
    order = models.PositiveIntegerField()  # the match's place in the history of finished matches
    rating_before = models.DecimalField(max_digits=7, decimal_places=2)
    rating_after = models.DecimalField(max_digits=7, decimal_places=2)
    experience_after = models.PositiveIntegerField()

    class Meta:
        # by the player's id, not by the player (their name, a join and a sort of every
        # change read): one player's history is then rating_change_player_order read backwards
        ordering = ["player_id", "-order"]
        indexes = [
            # a player's history and their last change (the player's page, the rating list,
            # the API), read backwards
            models.Index(fields=["player", "order"], name="rating_change_player_order"),
            # the last change of all (a newly rated match comes after it) and the changes
            # from a corrected result onward
            models.Index(fields=["order"], name="rating_change_order"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="rating_change_once_a_match"),
        ]

    @property
    def change(self) -> Decimal:
        return self.rating_after - self.rating_before


class Place(models.Model):
    """A match's place in an event: its round, its bracket place, and why it was paired.

    The match itself knows nothing of tournaments (the matches app sits below this
    one); the tournament holds where each of its matches stands.
    """

    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="place")
    # PROTECT: an event (and so a tournament) with matches is not deleted with them
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="places")
    round = models.PositiveSmallIntegerField(_("round"))
    bracket_key = models.CharField(_("place"), max_length=12, blank=True)
    # why this pairing: a code of tournaments.pairing.reasons and its parameters
    reason_code = models.CharField(max_length=40, blank=True)
    reason_params = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["event", "round", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "bracket_key"],
                condition=~models.Q(bracket_key=""),
                name="place_bracket_key_once",
            ),
            models.CheckConstraint(condition=models.Q(round__gte=1), name="place_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.bracket_key}"

    @property
    def round_name(self) -> RoundName:
        """What the round is called: "Round 3", or double elimination's "Final" (see
        :mod:`tournaments.rounds`)."""
        return round_name(self.round, [self.bracket_key])


class Table(models.Model):
    """A table of the playing room and the match at it (see :mod:`tournaments.venue`).

    One match a table and one table a match, by the database itself: never two matches on
    one table at once. A table is freed when its match ends.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="room", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    match = models.OneToOneField(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="table",
        verbose_name=_("match"),
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_once_a_room"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return str(self.number)


class Announcement(models.Model):
    """A notice the director posts for the playing room's wall display (and the tournament's
    page): shown from ``posted_at`` until ``shown_until`` (none: until withdrawn), or until a
    director withdraws it. Withdrawn notices stay, like the audit that names them."""

    TEXT_LENGTH = 280

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="announcements",
        verbose_name=_("tournament"),
    )
    text = models.TextField(_("announcement"), max_length=TEXT_LENGTH)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("posted by"),
    )
    posted_at = models.DateTimeField(_("posted at"))
    shown_until = models.DateTimeField(_("shown until"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        ordering = ["-posted_at", "-id"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        indexes = [models.Index(fields=["tournament", "withdrawn_at"], name="announcement_shown")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(text=""), name="announcement_has_text"),
            models.CheckConstraint(
                condition=models.Q(shown_until__isnull=True)
                | models.Q(shown_until__gt=models.F("posted_at")),
                name="announcement_shown_after_posted",
            ),
        ]

    def __str__(self) -> str:
        return self.text[:40]


class Arrival(models.Model):
    """A player of a called match arriving at it, recorded by a director with one click: the
    penalty points of their lateness (rules.lateness, the tournament's rules), to confirm,
    or to waive. Confirmed, the points are the match's (matches.models.Penalty), or a
    forfeit when they reach half its length."""

    class State(models.TextChoices):
        PENDING = "pending", _("to confirm")
        CONFIRMED = "confirmed", _("confirmed")
        WAIVED = "waived", _("no penalty")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="arrivals", verbose_name=_("match")
    )
    side = models.SmallIntegerField(_("player"), choices=Side.choices)
    called_at = models.DateTimeField(_("called at"))  # the match's call, when they arrived
    arrived_at = models.DateTimeField(_("arrived at"))
    minutes_late = models.PositiveSmallIntegerField(_("minutes late"))
    points = models.PositiveSmallIntegerField(_("penalty points"))
    state = models.CharField(_("state"), max_length=9, choices=State.choices, default=State.PENDING)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["match", "side"]
        verbose_name = _("arrival")
        verbose_name_plural = _("arrivals")
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], name="arrival_once_a_player"),
            models.CheckConstraint(condition=models.Q(side__in=[0, 1]), name="arrival_side"),
            models.CheckConstraint(
                condition=models.Q(state__in=["pending", "confirmed", "waived"]),
                name="arrival_state_known",
            ),
            models.CheckConstraint(
                condition=~models.Q(state="pending") | models.Q(points__gte=1),
                name="arrival_pending_only_with_points",
            ),
            models.CheckConstraint(
                condition=models.Q(state="pending", decided_at__isnull=True)
                | (~models.Q(state="pending") & models.Q(decided_at__isnull=False)),
                name="arrival_decided_when_not_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.get_side_display()} arrived at {self.arrived_at}"

    @property
    def player(self) -> Player:
        return self.match.player(self.side)
