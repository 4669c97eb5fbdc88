"""Matches, their games, games played on the board, and disputes.

Only what happened is stored: who won each game, the cube and how it ended.
The score before each game, the Crawford game and the match score are derived
through :mod:`rules` (see :mod:`matches.selectors`), never typed twice.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.db.models.functions import Mod
from django.db.models.lookups import Exact
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.actors import Actor
from club.models import Player
from rules.clock import Clock, ClockSettings, FlagRule
from rules.game import Act, Action
from rules.match import ForfeitReason, GameResult, Outcome, PenaltyReason
from rules.match import Penalty as RulesPenalty
from rules.matchid import Resignation

CUBE_VALUES = [2**k for k in range(13)]  # 1 to 4096


def odd_length_constraint(name: str) -> models.CheckConstraint:
    """A match length is an odd number of points, in the database too (WBF 3)."""
    return models.CheckConstraint(
        condition=models.Q(Exact(Mod("length", 2), 1), length__gte=1),
        name=name,
        violation_error_message=_("A match is played to an odd number of points (WBF 3)."),
    )


class Side(models.IntegerChoices):
    """Which of a match's two players: the first-named (A) or the second (B)."""

    A = 0, _("first player")
    B = 1, _("second player")


class Match(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        IN_PLAY = "in_play", _("in play")
        FINISHED = "finished", _("finished")
        WALKOVER = "walkover", _("walkover")

    player_a = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="matches_as_a", verbose_name=_("player")
    )
    player_b = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="matches_as_b", verbose_name=_("opponent")
    )
    length = models.PositiveSmallIntegerField(_("match length"))
    date = models.DateField(_("date"), default=timezone.localdate)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    # the result, when it is not its games: only the final score, or a walkover (never both,
    # nor with games: the services see to the games, the constraints below to the rest)
    final_score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    final_score_b = models.PositiveSmallIntegerField(null=True, blank=True)
    walkover_winner = models.SmallIntegerField(choices=Side.choices, null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)  # the order ratings are applied in
    # bumped by every change of the result: a correction made on an older sheet is refused
    version = models.PositiveIntegerField(default=0)
    # the director lets the players enter dice rolled at the table (directors always may)
    physical_dice = models.BooleanField(
        _("players may enter dice rolled at the table"), default=False
    )
    # the Holland rule (Galore 5.4), set by the event the match is played in
    holland = models.BooleanField(_("Holland rule"), default=False)
    # the player who retired: the opponent wins, the final score saying so (see match_retire)
    retired = models.SmallIntegerField(choices=Side.choices, null=True, blank=True)

    class Forfeit(models.TextChoices):
        """How a match was forfeited (tournament rules): on time (a flag fell) or by
        lateness (penalty points reaching half the length). Values as rules.match's."""

        NONE = "", _("no forfeit")
        TIME = ForfeitReason.TIME.value, _("time")
        LATENESS = ForfeitReason.LATENESS.value, _("lateness")

    # a forfeit reuses the retirement's fields: ``retired`` is the side who forfeited, the
    # final score the engine's (the opponent at the length); see matches.penalties
    # db_default: rows written by code that predates the column (an older migration's
    # models, as tests/test_migrations.py uses them) are "no forfeit" too
    forfeit = models.CharField(
        _("forfeit"),
        max_length=8,
        choices=Forfeit.choices,
        default="",
        db_default="",
        blank=True,
    )

    class Meta:
        # the lists, the API's list and the home page read the newest first: indexed
        # (match_date_order, read backwards), the first page not a sort of every match
        ordering = ["-date", "-id"]
        indexes = [
            models.Index(fields=["date", "id"], name="match_date_order"),
            # the rating history's order: the rated matches after a result (tournaments.advancement)
            models.Index(fields=["finished_at", "id"], name="match_finished_order"),
        ]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            odd_length_constraint("match_length_odd_positive"),
            models.CheckConstraint(
                condition=~models.Q(player_a=models.F("player_b")),
                name="match_two_different_players",
                violation_error_message=_("A match is played by two different players."),
            ),
            models.CheckConstraint(
                condition=models.Q(final_score_a__isnull=True, final_score_b__isnull=True)
                | models.Q(final_score_a__isnull=False, final_score_b__isnull=False),
                name="match_final_score_both_or_neither",
            ),
            models.CheckConstraint(
                condition=models.Q(status="walkover", walkover_winner__isnull=False)
                | (~models.Q(status="walkover") & models.Q(walkover_winner__isnull=True)),
                name="match_walkover_has_a_winner",
            ),
            models.CheckConstraint(
                condition=models.Q(final_score_a__isnull=True) | models.Q(status="finished"),
                name="match_final_score_only_when_finished",
            ),
            models.CheckConstraint(
                condition=models.Q(final_score_a__isnull=True)
                | models.Q(final_score_a=models.F("length"), final_score_b__lt=models.F("length"))
                | models.Q(final_score_b=models.F("length"), final_score_a__lt=models.F("length")),
                name="match_final_score_reaches_the_length_once",
            ),
            models.CheckConstraint(
                condition=models.Q(status="finished", finished_at__isnull=False)
                | (~models.Q(status="finished") & models.Q(finished_at__isnull=True)),
                name="match_finished_when_it_has_a_time",
            ),
            models.CheckConstraint(
                condition=models.Q(retired__isnull=True) | models.Q(final_score_a__isnull=False),
                name="match_retirement_has_a_final_score",
            ),
            models.CheckConstraint(
                condition=models.Q(forfeit="") | models.Q(retired__isnull=False),
                name="match_forfeit_has_a_side",
            ),
            models.CheckConstraint(
                condition=models.Q(forfeit__in=["", "time", "lateness"]),
                name="match_forfeit_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a} – {self.player_b} ({self.length})"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def decided(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.WALKOVER)

    def player(self, side: int) -> Player:
        return self.player_a if side == 0 else self.player_b

    def get_retired_player(self) -> Player | None:
        """The player who retired from the match, if one did."""
        return None if self.retired is None else self.player(self.retired)


class Game(models.Model):
    class Result(models.TextChoices):
        SINGLE = Outcome.SINGLE.value, _("single game")
        GAMMON = Outcome.GAMMON.value, _("gammon")
        BACKGAMMON = Outcome.BACKGAMMON.value, _("backgammon")
        DROP = Outcome.DROP.value, _("double dropped")
        RESIGNATION = Outcome.RESIGNATION.value, _("resignation")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    winner = models.SmallIntegerField(_("winner"), choices=Side.choices)
    cube = models.PositiveIntegerField(_("cube"), default=1)
    result = models.CharField(_("result"), max_length=12, choices=Result.choices)
    # for a resignation: what was given up (1 single, 2 gammon, 3 backgammon)
    resigned = models.PositiveSmallIntegerField(_("resigned"), null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_once_a_match"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(
                condition=models.Q(cube__in=CUBE_VALUES), name="game_cube_power"
            ),
            models.CheckConstraint(
                condition=models.Q(result="resignation", resigned__in=[1, 2, 3])
                | (~models.Q(result="resignation") & models.Q(resigned__isnull=True)),
                name="game_resignation_level",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} game {self.number}"

    @property
    def outcome(self) -> Outcome:
        return Outcome(self.result)

    @property
    def points(self) -> int:
        """What the game was worth: the cube times 1, 2 or 3 (WBF 25), before any match cap."""
        return self.cube * (self.resigned or self.outcome.multiplier)

    def as_result(self) -> GameResult:
        return GameResult(
            winner=self.winner, points=self.points, outcome=self.outcome, cube=self.cube
        )


class Penalty(models.Model):
    """Penalty points (tournament rules): ``side`` is penalised, the opponent scores ``points``
    before game ``before_game`` (1: before the first game). Lateness, or a director's
    decision (a rules breach) with its reason in ``note``. The score stays derived: the
    engine puts these in the match's history (:mod:`matches.history`)."""

    class Reason(models.TextChoices):
        LATENESS = PenaltyReason.LATENESS.value, _("lateness")
        DIRECTOR = PenaltyReason.DIRECTOR.value, _("director's decision")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="penalties")
    before_game = models.PositiveSmallIntegerField(_("before game"))
    side = models.SmallIntegerField(_("penalised"), choices=Side.choices)
    points = models.PositiveSmallIntegerField(_("penalty points"))
    reason = models.CharField(_("reason"), max_length=8, choices=Reason.choices)
    note = models.CharField(_("the reason in words"), max_length=300, blank=True)
    minutes_late = models.PositiveSmallIntegerField(_("minutes late"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["match", "before_game", "id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(points__gte=1), name="penalty_at_least_one_point"
            ),
            models.CheckConstraint(
                condition=models.Q(before_game__gte=1), name="penalty_before_a_game"
            ),
            models.CheckConstraint(condition=models.Q(side__in=[0, 1]), name="penalty_side"),
            models.CheckConstraint(
                condition=models.Q(reason__in=["lateness", "director"]), name="penalty_reason_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.points} penalty points before game {self.before_game}"

    @property
    def penalised(self) -> Player:
        return self.match.player(self.side)

    @property
    def scorer(self) -> Player:
        """The opponent, who scores the points."""
        return self.match.player(1 - self.side)

    def as_entry(self) -> RulesPenalty:
        return RulesPenalty(player=self.side, points=self.points, reason=PenaltyReason(self.reason))


class BoardGame(models.Model):
    """A game played on the site's board (or imported from a match file): its log is the record.

    The engine's state is never stored, only the actions (:class:`BoardAction`);
    the board is rebuilt from them, so a game resumes exactly on any device.
    """

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="board_games")
    number = models.PositiveSmallIntegerField(_("game"))
    # bumped by every change: of two devices acting on the same board, the first wins
    version = models.PositiveIntegerField(default=0)
    # checker moves made but not yet confirmed, "source:die" pairs ("13:5 8:3")
    pending = models.CharField(max_length=40, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    imported = models.BooleanField(_("imported from a match file"), default=False)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("board game")
        verbose_name_plural = _("board games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="board_game_once_a_match"),
        ]

    def __str__(self) -> str:
        return f"{self.match} game {self.number} (board)"


class BoardAction(models.Model):
    """One action of a board game, as the engine logged it (rules.game.Action)."""

    game = models.ForeignKey(BoardGame, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveSmallIntegerField()
    act = models.CharField(max_length=12, choices=[(a.value, a.value) for a in Act])
    player = models.SmallIntegerField(choices=Side.choices)
    die1 = models.PositiveSmallIntegerField(null=True, blank=True)
    die2 = models.PositiveSmallIntegerField(null=True, blank=True)
    play = models.CharField(max_length=120, blank=True)
    resignation = models.PositiveSmallIntegerField(null=True, blank=True)
    illegal = models.CharField(max_length=300, blank=True)  # why an imported play was illegal
    at = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="board_action_once"),
            models.CheckConstraint(
                condition=models.Q(die1__isnull=True, die2__isnull=True)
                | models.Q(die1__range=(1, 6), die2__range=(1, 6)),
                name="board_action_dice",
            ),
        ]

    @property
    def dice(self) -> tuple[int, int] | None:
        # both or neither (the constraint board_action_dice)
        return None if self.die1 is None or self.die2 is None else (self.die1, self.die2)

    @classmethod
    def from_action(
        cls, *, game: BoardGame, seq: int, action: Action, user: Actor | None = None
    ) -> BoardAction:
        """The row for one of the engine's log entries (the inverse of :meth:`as_action`)."""
        return cls(
            game=game,
            seq=seq,
            act=action.act.value,
            player=action.player,
            die1=action.dice[0] if action.dice else None,
            die2=action.dice[1] if action.dice else None,
            play=action.play or "",
            resignation=int(action.resignation) if action.resignation else None,
            illegal=action.illegal or "",
            user=user if isinstance(user, User) else None,  # a person, not a visitor nor the site
        )

    def as_action(self) -> Action:
        return Action(
            Act(self.act),
            self.player,
            dice=self.dice,
            play=self.play or None,
            resignation=Resignation(self.resignation) if self.resignation else None,
            illegal=self.illegal or None,
        )


class Dispute(models.Model):
    """Two players disagree about a match's score: a log, their score sheets, the decision."""

    class Source(models.TextChoices):
        SITE = "site", _("the site's own log")
        FILE = "file", _("an uploaded match file")
        REPORT = "report", _("the players' reports")  # no log: each player's claim

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="disputes")
    opened_at = models.DateTimeField(default=timezone.now)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    source = models.CharField(_("log"), max_length=6, choices=Source.choices)
    filename = models.CharField(max_length=200, blank=True)
    mat = models.TextField()  # the log compared, as it was then (the site's log exported)
    swapped = models.BooleanField(default=False)  # the file's left column is player B
    # each player's score sheet: (A's points, B's points) as that sheet has them
    sheet_a_a = models.PositiveSmallIntegerField(null=True, blank=True)
    sheet_a_b = models.PositiveSmallIntegerField(null=True, blank=True)
    sheet_b_a = models.PositiveSmallIntegerField(null=True, blank=True)
    sheet_b_b = models.PositiveSmallIntegerField(null=True, blank=True)

    class Decision(models.TextChoices):
        LOG = "log", _("the log stands")
        CLOSED = "closed", _("closed without a change")
        REPORT = "report", _("the reported result stands")
        SHEET = "sheet", _("the score sheet stands")

    decision = models.CharField(_("decision"), max_length=300, blank=True, choices=Decision.choices)
    corrected = models.PositiveSmallIntegerField(_("games corrected or added"), default=0)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["-opened_at", "-id"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(sheet_a_a__isnull=True, sheet_a_b__isnull=True)
                | models.Q(sheet_a_a__isnull=False, sheet_a_b__isnull=False),
                name="dispute_sheet_a_whole",
            ),
            models.CheckConstraint(
                condition=models.Q(sheet_b_a__isnull=True, sheet_b_b__isnull=True)
                | models.Q(sheet_b_a__isnull=False, sheet_b_b__isnull=False),
                name="dispute_sheet_b_whole",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: dispute {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("dispute", args=[self.match_id, self.pk])

    def sheet(self, side: int) -> tuple[int, int] | None:
        first, second = (
            (self.sheet_a_a, self.sheet_a_b) if side == 0 else (self.sheet_b_a, self.sheet_b_b)
        )
        # both or neither (the constraints dispute_sheet_a_whole, dispute_sheet_b_whole)
        return None if first is None or second is None else (first, second)


class ResultReport(models.Model):
    """A result a player reported from their phone: a claim, not yet the match's result.

    It claims the next games of the match (``games``: each a dict of winner, cube, result
    and resigned, from game ``first_game`` on) or only the final score. The opponent
    confirms it, and it is recorded through the same services as a director's entry; or
    disputes it, and a dispute goes to the director. Only one report of a match waits at a
    time (the database says so). Whether it waited too long is derived from ``changed_at``
    and the tournament's time when it is read: nothing runs in the background.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        WITHDRAWN = "withdrawn", _("withdrawn")
        VOID = "void", _("void: the result was entered by a director")

    class Kind(models.TextChoices):
        GAMES = "games", _("game by game")
        FINAL = "final", _("only the final score")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="reports")
    side = models.SmallIntegerField(_("reported by"), choices=Side.choices)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("report"), max_length=5, choices=Kind.choices)
    first_game = models.PositiveSmallIntegerField(null=True, blank=True)
    games = models.JSONField(default=list, blank=True)
    score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(null=True, blank=True)
    # the match's version the claim was made on: a result written since makes it void
    match_version = models.PositiveIntegerField()
    status = models.CharField(
        _("status"), max_length=9, choices=Status.choices, default=Status.PENDING
    )
    reported_at = models.DateTimeField(_("reported at"), default=timezone.now)
    changed_at = models.DateTimeField(default=timezone.now)  # a game added to the claim
    # bumped by every change of the claim: an answer given to an older claim is refused
    version = models.PositiveIntegerField(default=0)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    dispute = models.ForeignKey(
        Dispute, on_delete=models.PROTECT, null=True, blank=True, related_name="reports"
    )

    class Meta:
        ordering = ["-reported_at", "-id"]
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(status="pending"),
                name="report_one_pending_a_match",
                violation_error_message=_("A report of this match is already waiting."),
            ),
            models.CheckConstraint(
                condition=models.Q(
                    status__in=["pending", "confirmed", "disputed", "withdrawn", "void"]
                ),
                name="report_status_known",
            ),
            models.CheckConstraint(condition=models.Q(side__in=[0, 1]), name="report_side"),
            models.CheckConstraint(
                condition=models.Q(
                    kind="games",
                    first_game__gte=1,
                    score_a__isnull=True,
                    score_b__isnull=True,
                )
                | models.Q(
                    kind="final",
                    first_game__isnull=True,
                    score_a__isnull=False,
                    score_b__isnull=False,
                ),
                name="report_games_or_final_score",
            ),
            models.CheckConstraint(
                condition=models.Q(status="pending", answered_at__isnull=True)
                | (~models.Q(status="pending") & models.Q(answered_at__isnull=False)),
                name="report_answered_when_not_pending",
            ),
            models.CheckConstraint(
                condition=models.Q(dispute__isnull=True) | models.Q(status="disputed"),
                name="report_dispute_only_when_disputed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: report {self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("report", args=[self.match_id])

    @property
    def reporter(self) -> Player:
        return self.match.player(self.side)

    @property
    def opponent(self) -> Player:
        return self.match.player(1 - self.side)

    @property
    def pending(self) -> bool:
        return self.status == self.Status.PENDING

    @property
    def last_game(self) -> int | None:
        return None if self.first_game is None else self.first_game + len(self.games) - 1

    def game_results(self) -> list[GameResult]:
        return [
            Game(
                winner=g["winner"], cube=g["cube"], result=g["result"], resigned=g.get("resigned")
            ).as_result()
            for g in self.games
        ]

    def due_at(self, minutes: int) -> datetime.datetime:
        """When the report goes to the director if the opponent has not answered."""
        return self.changed_at + datetime.timedelta(minutes=minutes)


class Notifications(models.Model):
    """A player's emails: whether they get them, and in which language (none: the site's)."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("player")
    )
    emails = models.BooleanField(_("send me emails about my matches"), default=True)
    language = models.CharField(
        _("language of the emails"), max_length=8, choices=settings.LANGUAGES, blank=True
    )

    class Meta:
        verbose_name = _("notification setting")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return f"{self.player}: {'on' if self.emails else 'off'}"


class TableCall(models.Model):
    """A player called to a table: their match is ready there (the tournaments app seats
    matches and makes the calls, :mod:`tournaments.calls`).

    Kept so that the site knows whom it told what: a call's email goes only if the call
    still holds when it is sent (``sent_at``), and a player whose call no longer holds (the
    match taken back, or moved off the table before it began) is told so. ``match`` empties
    when the match is deleted; ``label`` keeps how it was named for that email.
    """

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="table_calls", verbose_name=_("player")
    )
    match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="table_calls",
        verbose_name=_("match"),
    )
    table = models.PositiveSmallIntegerField(_("table"))
    label = models.CharField(_("match"), max_length=250)
    called_at = models.DateTimeField(_("called at"), default=timezone.now)
    sent_at = models.DateTimeField(_("email sent at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("no longer holds since"), null=True, blank=True)

    class Meta:
        ordering = ["called_at", "id"]
        verbose_name = _("call to a table")
        verbose_name_plural = _("calls to a table")
        indexes = [models.Index(fields=["closed_at"], name="table_call_open")]

    def __str__(self) -> str:
        return f"{self.player}: {self.label} at table {self.table}"


class MatchClock(models.Model):
    """A match's two clocks on the site's board (tournament rules): a saved
    :class:`rules.clock.Clock`, with the settings it was started with.

    Times are the server's, in milliseconds since the Unix epoch; the remaining times are
    each player's at the start of the running stretch (the engine's ``remaining_ms``), so
    the time left now is derived from them and the server's time, never counted by a page.
    ``flagged`` is the player whose flag fell, once the site has recorded what it cost.
    """

    class OnFlag(models.TextChoices):  # the values of rules.clock.FlagRule
        MATCH = "match", _("loses the match")
        GAME = "game", _("loses the game")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="clock")
    seconds_per_point = models.PositiveIntegerField()
    delay_seconds = models.PositiveIntegerField()
    on_flag = models.CharField(max_length=5, choices=OnFlag.choices)
    remaining_a = models.PositiveBigIntegerField()
    remaining_b = models.PositiveBigIntegerField()
    running = models.SmallIntegerField(choices=Side.choices, null=True, blank=True)
    turn_started = models.BigIntegerField(null=True, blank=True)
    delay = models.PositiveIntegerField(default=0)  # the delay still free in the stretch, ms
    paused_for = models.SmallIntegerField(choices=Side.choices, null=True, blank=True)
    last = models.BigIntegerField(null=True, blank=True)
    flagged = models.SmallIntegerField(choices=Side.choices, null=True, blank=True)
    # bumped by every change: a page polling for a newer board sees a pause or a flag
    version = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("match clock")
        verbose_name_plural = _("match clocks")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(running__isnull=True) | models.Q(turn_started__isnull=False),
                name="match_clock_running_since",
            ),
            models.CheckConstraint(
                condition=models.Q(running__isnull=True) | models.Q(paused_for__isnull=True),
                name="match_clock_running_or_paused",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: clock"

    @property
    def settings(self) -> ClockSettings:
        return ClockSettings(
            seconds_per_point=self.seconds_per_point,
            delay_seconds=self.delay_seconds,
            on_flag=FlagRule(self.on_flag),
        )

    def as_clock(self) -> Clock:
        """The engine's clock this row keeps (the inverse of :meth:`keep`)."""
        return Clock(
            settings=self.settings,
            remaining_ms=(self.remaining_a, self.remaining_b),
            running=self.running,
            turn_started=self.turn_started,
            delay_ms=self.delay,
            paused_for=self.paused_for,
            last=self.last,
        )

    def keep(self, clock: Clock) -> None:
        """Take the engine's clock into the row (not saved: the caller saves it)."""
        self.seconds_per_point = clock.settings.seconds_per_point
        self.delay_seconds = clock.settings.delay_seconds
        self.on_flag = clock.settings.on_flag.value
        self.remaining_a, self.remaining_b = clock.remaining_ms
        self.running = clock.running
        self.turn_started = clock.turn_started
        self.delay = clock.delay_ms
        self.paused_for = clock.paused_for
        self.last = clock.last


class ImportedFile(models.Model):
    """A match file an archive's import brought in, by its content's SHA-256: the same file
    met again (a second upload of the archive, "Try again" after a failure) is skipped, so
    nothing is imported twice. Deleting the match forgets it, and the file may come in again."""

    sha256 = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=255)  # as it was named inside the archive
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    imported_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name
