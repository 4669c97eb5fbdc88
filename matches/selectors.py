"""Reading matches: the score sheet and everything derived from the games through rules."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Least

from club.audit import audit_for_match
from club.models import AuditEntry, Player
from rules.match import GameContext, match_winner
from rules.match import Match as RulesMatch

from .endings import cube_shown, ending_text
from .models import BoardAction, Game, Match, ResultReport


@dataclass(frozen=True)
class SheetRow:
    """One line of a score sheet: a game and the score around it."""

    game: Game
    score_before: tuple[int, int]
    score_after: tuple[int, int]
    crawford: bool
    post_crawford: bool
    points: int  # added to the winner's score, after the match cap

    @property
    def winner(self) -> Player:
        return self.game.match.player(self.game.winner)

    @property
    def cube(self) -> int:
        """The cube as the director entered it (for a dropped double, the value offered)."""
        return cube_shown(self.game.result, self.game.cube)

    @property
    def ending(self) -> str:
        """How the game ended, in the one wording of :mod:`matches.endings`."""
        return ending_text(self.game.result, self.game.resigned)


@dataclass(frozen=True)
class ScoreSheet:
    """A match's score as the rules derive it from its games (or its recorded final score)."""

    match: Match
    rows: tuple[SheetRow, ...]
    score: tuple[int, int]
    winner: int | None  # 0 = player A, 1 = player B
    crawford_game: int | None
    next_game: GameContext | None  # None once the match is decided

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def winner_player(self) -> Player | None:
        return None if self.winner is None else self.match.player(self.winner)

    @property
    def leader_text(self) -> str:
        """The score as people say it: "3–2"."""
        return f"{self.score[0]}–{self.score[1]}"


def match_score_sheet(*, match: Match) -> ScoreSheet:
    """The sheet: rules.Match does the arithmetic, the Crawford game and the cap (WBF 3, 24)."""
    games = list(match.games.all())
    if match.status == Match.Status.WALKOVER and match.walkover_winner is not None:
        return ScoreSheet(match, (), (0, 0), match.walkover_winner, None, None)
    final = None
    if match.final_score_a is not None and match.final_score_b is not None:
        final = (match.final_score_a, match.final_score_b)
        if match.retired is None:
            return ScoreSheet(match, (), final, match_winner(match.length, final), None, None)
    results = tuple(game.as_result() for game in games)
    derived = RulesMatch(match.length, results, holland=match.holland)
    rows = tuple(
        SheetRow(
            game=game,
            score_before=scored.score_before,
            score_after=scored.score_after,
            crawford=scored.crawford,
            post_crawford=scored.post_crawford,
            points=scored.points,
        )
        for game, scored in zip(games, derived.games, strict=True)
    )
    if final is not None:  # a retirement: the games played, then the opponent wins
        return ScoreSheet(match, rows, final, match_winner(match.length, final), None, None)
    return ScoreSheet(
        match=match,
        rows=rows,
        score=derived.score,
        winner=derived.winner,
        crawford_game=derived.crawford_game,
        next_game=None if derived.over else derived.next_game,
    )


def match_list() -> QuerySet[Match]:
    """Matches with what their table shows, in a fixed number of queries."""
    return Match.objects.select_related("player_a", "player_b").prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("number"))
    )


# the changes that begin a match (US rules 4.10) when its first game is recorded, by hand, by a
# dispute's decision or from a match file; on the board its first roll begins it
BEGUN_BY = ("game.recorded", "match.imported")


def matches_with_beginning(queryset: QuerySet[Match]) -> QuerySet[Match]:
    """The matches annotated with ``began_at``: when the site saw each begin.

    Its first roll on the board or its first game recorded, whichever came first: the
    moment its status became "in play". Derived, not stored: the board's log and the
    audit trail already hold that moment. None for a match not begun, or one the site has
    no trace of beginning (its games came with an imported tournament).
    """
    first_roll = (
        BoardAction.objects.filter(game__match=OuterRef("pk")).order_by("at").values("at")[:1]
    )
    first_record = (
        AuditEntry.objects.filter(match_id=OuterRef("pk"), code__in=BEGUN_BY)
        .order_by("at")
        .values("at")[:1]
    )
    roll, record = Subquery(first_roll), Subquery(first_record)
    # LEAST of a NULL is NULL on SQLite and not on PostgreSQL: never give it one
    return queryset.annotate(began_at=Least(Coalesce(roll, record), Coalesce(record, roll)))


def player_matches(*, player: Player) -> QuerySet[Match]:
    return match_list().filter(Q(player_a=player) | Q(player_b=player))


def player_record(*, player: Player, matches: list[Match]) -> tuple[int, int]:
    """Matches won and lost by the player (walkovers included)."""
    won = lost = 0
    for match in matches:
        sheet = match_score_sheet(match=match)
        if sheet.winner is None:
            continue
        side = 0 if match.player_a_id == player.pk else 1
        if sheet.winner == side:
            won += 1
        else:
            lost += 1
    return won, lost


def match_changes(*, match: Match) -> QuerySet[AuditEntry]:
    """The match's audit trail, newest first (each entry reads as a sentence)."""
    return audit_for_match(match_id=match.pk)


@dataclass(frozen=True)
class PlayerReports:
    """A player's waiting reports: those they must answer, and their own the opponent must."""

    to_answer: list[ResultReport]
    waiting: list[ResultReport]


def player_reports_pending(*, player: Player) -> PlayerReports:
    """The reports still waiting on this player's matches, in one query, oldest first."""
    pending = (
        ResultReport.objects.filter(
            Q(match__player_a=player) | Q(match__player_b=player),
            status=ResultReport.Status.PENDING,
        )
        .select_related("match__player_a", "match__player_b")
        .order_by("id")
    )
    to_answer: list[ResultReport] = []
    waiting: list[ResultReport] = []
    for report in pending:
        (waiting if report.reporter.pk == player.pk else to_answer).append(report)
    return PlayerReports(to_answer=to_answer, waiting=waiting)
