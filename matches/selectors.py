"""Reading matches: the score sheet and everything derived from the games through rules."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, OuterRef, Q, QuerySet, Subquery, When
from django.db.models.functions import Coalesce, Least

from club.audit import audit_for_match
from club.models import AuditEntry, Player
from club.words import sentence
from rules.errors import RulesError
from rules.match import GameContext, MatchRules, checked_match, match_winner

from .audit import penalty_reason_text
from .endings import ENDINGS, cube_shown, ending_text
from .history import HISTORY, entries_with_games, match_derived, match_games, match_penalties
from .models import CUBE_VALUES, BoardAction, Game, Match, Penalty, ResultReport


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
class PenaltyRow:
    """A line of a score sheet for penalty points, before the game they precede: the
    opponent of the player penalised scores them (tournament rules)."""

    penalty: Penalty
    score_before: tuple[int, int]
    score_after: tuple[int, int]

    @property
    def penalised(self) -> Player:
        return self.penalty.match.player(self.penalty.side)

    @property
    def scorer(self) -> Player:
        return self.penalty.match.player(1 - self.penalty.side)

    @property
    def points(self) -> int:
        """The points that counted (after the match cap)."""
        side = 1 - self.penalty.side
        return self.score_after[side] - self.score_before[side]

    @property
    def reason_text(self) -> str:
        """Why, in the visitor's language: "Marco Bianchi 10 minutes late", or the
        director's words."""
        penalty = self.penalty
        return penalty_reason_text(
            {
                "name": self.penalised.name,
                "reason": penalty.reason,
                "note": penalty.note,
                "minutes_late": penalty.minutes_late,
            }
        )


SheetLine = SheetRow | PenaltyRow


@dataclass(frozen=True)
class ScoreSheet:
    """A match's score as the rules derive it from its history: its games and penalty
    points (or its recorded final score).

    ``rows``: the games; ``lines``: the games and the penalty rows in order, as the sheet
    shows them.
    """

    match: Match
    rows: tuple[SheetRow, ...]
    score: tuple[int, int]
    winner: int | None  # 0 = player A, 1 = player B
    crawford_game: int | None
    next_game: GameContext | None  # None once the match is decided
    lines: tuple[SheetLine, ...] = ()

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
    """The sheet: rules.Match does the arithmetic, the Crawford game and the cap (WBF 3, 24),
    from the games and the penalty points between them (:mod:`matches.history`)."""
    games = match_games(match)
    if match.status == Match.Status.WALKOVER and match.walkover_winner is not None:
        return ScoreSheet(match, (), (0, 0), match.walkover_winner, None, None)
    penalties_given = match_penalties(match)
    derived = match_derived(match, games=games, penalties=penalties_given)
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
    penalties = tuple(
        PenaltyRow(
            penalty=penalty, score_before=scored.score_before, score_after=scored.score_after
        )
        for penalty, scored in zip(penalties_given, derived.penalties, strict=True)
    )
    lines = _lines(rows, penalties)
    if match.final_score_a is not None and match.final_score_b is not None:
        # only the final score, or a retirement or a forfeit after the games played
        final = (match.final_score_a, match.final_score_b)
        winner = match_winner(match.length, final)
        if match.retired is None:
            return ScoreSheet(match, (), final, winner, None, None, _lines((), penalties))
        return ScoreSheet(match, rows, final, winner, None, None, lines)
    return ScoreSheet(
        match=match,
        rows=rows,
        score=derived.score,
        winner=derived.winner,
        crawford_game=derived.crawford_game,
        next_game=None if derived.over else derived.next_game,
        lines=lines,
    )


def _lines(rows: tuple[SheetRow, ...], penalties: tuple[PenaltyRow, ...]) -> tuple[SheetLine, ...]:
    """Games and penalty rows in order: a penalty before game n just above it."""
    lines: list[SheetLine] = []
    waiting = list(penalties)
    for row in rows:
        while waiting and waiting[0].penalty.before_game <= row.game.number:
            lines.append(waiting.pop(0))
        lines.append(row)
    return (*lines, *waiting)


CUBES = tuple(CUBE_VALUES[:8])  # 1 to 128: a power of two (WBF 23)
NO_DOUBLE = ("drop",)  # the endings that need a double: none in the Crawford game (WBF 24)


@dataclass(frozen=True)
class GameSituation:
    """Where a game of a match stands, as every form and page that enters one reads it.

    ``score`` is before the game; ``crawford``, ``post_crawford`` and ``holland`` are the
    rules' (WBF 24, Galore 5.4); ``cubes`` and ``results`` are what may be entered for it
    (the cube as people say it, :mod:`matches.endings`' codes): in the Crawford game the
    cube stays at 1 and nobody drops a double.

    ``problem`` says why no game can be entered, never a silent default: ``""`` when one
    can; ``"over"`` when the match is won before it; ``"recorded"`` when the match's result
    is recorded another way (a final score, a walkover); ``"missing"`` when the games before
    it are not all there; ``"unchecked"`` when the games
    before it (recorded, and reported still waiting) cannot be checked by the rules, whose
    refusal ``refusal`` says in words ("Game 2 is the Crawford game: no doubling (WBF 24).").
    """

    number: int
    length: int
    score: tuple[int, int]
    crawford: bool
    post_crawford: bool
    holland: bool
    cubes: tuple[int, ...]
    results: tuple[str, ...]
    problem: str = ""
    refusal: str = ""

    @property
    def playable(self) -> bool:
        """Whether the game can be entered (no problem)."""
        return not self.problem

    @property
    def over(self) -> bool:
        return self.problem == "over"

    @property
    def context(self) -> GameContext:
        """The engine's context of the game (the board plays it)."""
        return GameContext(
            rules=MatchRules(self.length, holland=self.holland),
            score=self.score,
            crawford=self.crawford,
            post_crawford=self.post_crawford,
            number=self.number,
        )


def game_situation(
    *, match: Match, number: int | None = None, pending: ResultReport | None = None
) -> GameSituation:
    """Game ``number`` of the match (the next one when None): the score before it, the
    Crawford game, and what may be entered. ``pending``: a report still waiting whose games
    come after those recorded (a report of the final score adds none).

    rules.Match does the arithmetic (WBF 3, 24), checking every game before this one where
    it stands; this reads its answer and never derives the Crawford game itself.
    """
    results = [game.as_result() for game in match_games(match)]
    recorded = len(results)
    if pending is not None and pending.kind == ResultReport.Kind.GAMES:
        first = pending.first_game or recorded + 1  # always given for a report of games
        results = results[: first - 1] + pending.game_results()
    number = len(results) + 1 if number is None else number

    def refused(problem: str, refusal: str = "", score: tuple[int, int] = (0, 0)) -> GameSituation:
        length, holland = match.length, match.holland
        return GameSituation(number, length, score, False, False, holland, (), (), problem, refusal)

    if number > recorded and (
        match.status == Match.Status.WALKOVER or match.final_score_a is not None
    ):
        return refused("recorded")
    if not 1 <= number <= len(results) + 1:
        return refused("missing")
    try:
        history = entries_with_games(match, results[: number - 1])
        derived = checked_match(match.length, history, holland=match.holland)
    except RulesError as error:
        return refused("unchecked", sentence(error))
    if derived.over:
        return refused("over", score=derived.score)
    context = derived.next_game  # the engine's: the score, the Crawford game (WBF 24)
    endings = tuple(code for code, _words in ENDINGS)
    doubling = context.cube_available
    return GameSituation(
        number=number,
        length=match.length,
        score=context.score,
        crawford=context.crawford,
        post_crawford=context.post_crawford,
        holland=match.holland,
        cubes=CUBES if doubling else (1,),
        results=endings if doubling else tuple(e for e in endings if e not in NO_DOUBLE),
    )


def match_list() -> QuerySet[Match]:
    """Matches with what their table shows, in a fixed number of queries."""
    return Match.objects.select_related("player_a", "player_b").prefetch_related(*HISTORY)


# the changes that begin a match (US rules 4.10) when its first game is recorded, by hand, by a
# dispute's decision or from a match file; on the board its first roll begins it
BEGUN_BY = ("game.recorded", "match.imported")


def matches_with_beginning(
    queryset: QuerySet[Match], *, status: str | None = None
) -> QuerySet[Match]:
    """The matches annotated with ``began_at``: when the site saw each begin.

    Its first roll on the board or its first game recorded, whichever came first: the
    moment its status became "in play". Derived, not stored: the board's log and the
    audit trail already hold that moment. None for a match not begun, or one the site has
    no trace of beginning (its games came with an imported tournament). ``status``: only
    the matches with it are looked up (the others None): the dashboard asks those in play,
    not a whole tournament's finished matches.
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
    began: Least | Case = Least(Coalesce(roll, record), Coalesce(record, roll))
    if status is not None:  # the database looks up only the rows the condition holds for
        began = Case(When(status=status, then=began), default=None)
    return queryset.annotate(began_at=began)


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
