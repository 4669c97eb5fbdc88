"""Reading players: the club's lists, a player's ratings and matches, and what a player
signed in sees on their own page (next match, results, entries, reports to answer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import (
    Case,
    Count,
    DecimalField,
    Exists,
    ExpressionWrapper,
    F,
    Func,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce

from club.models import Player
from matches.history import HISTORY
from matches.models import Game, Match, Penalty, ResultReport
from matches.selectors import match_score_sheet, player_matches, player_reports_pending

from ..models import Entry, EntryRequest, Event, Place, RatingChange, Tournament
from ..rounds import RoundName


def player_list() -> QuerySet[Player]:
    return Player.objects.all()


def player_rating_history(*, player: Player) -> QuerySet[RatingChange]:
    """The player's rating changes, each with its match, its players and where it was
    played: the match's place read in a query of its own (eight tables joined in one
    took PostgreSQL 5 ms to plan, a page of 25 rows 0.6 ms to read)."""
    return player.rating_changes.select_related(
        "match__player_a", "match__player_b"
    ).prefetch_related(
        Prefetch(
            "match__place",
            queryset=Place.objects.select_related(
                "event__tournament",
                "event__parent",  # a cut knockout is named after its Swiss
            ),
        )
    )


def player_match_list(*, player: Player) -> QuerySet[Match]:
    """The player's matches, newest first (the matches' date order, as their index has it),
    each with the event and round it is played in (if any): for a page at a time."""
    return (
        player_matches(player=player)
        .select_related("place__event__tournament")
        .order_by("-date", "-id")
    )


# what a game is worth before the match cap (WBF 25): the cube times 1, 2 or 3, a resignation
# the cube times what was given up (as :attr:`matches.models.Game.points`)
_GAME_POINTS = F("cube") * Case(
    When(result=Game.Result.RESIGNATION, then=F("resigned")),
    When(result=Game.Result.GAMMON, then=Value(2)),
    When(result=Game.Result.BACKGAMMON, then=Value(3)),
    default=Value(1),
)


def _lead_of_a() -> CombinedExpression:
    """How far player A of the outer match is ahead before the cap: the points of the games
    each side won and of the penalties given against the other (tournament rules), A's
    counted up and B's down, in one pass over the match's games and one over its penalties
    (a subquery for each side cost a season's busiest player's page twice the time)."""
    games = (
        Game.objects.filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(lead=Sum(Case(When(winner=0, then=_GAME_POINTS), default=-_GAME_POINTS)))
        .values("lead")
    )
    penalties = (  # given against B: A's points
        Penalty.objects.filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(lead=Sum(Case(When(side=1, then=F("points")), default=-F("points"))))
        .values("lead")
    )
    zero = Value(0)
    return Coalesce(Subquery(games), zero) + Coalesce(Subquery(penalties), zero)


def matches_with_winner(matches: QuerySet[Match]) -> QuerySet[Match]:
    """The matches annotated with ``winner`` (0: player A, 1: player B, None while not
    decided), in the database, as :func:`matches.selectors.match_score_sheet` decides it:
    a walkover's winner; the final score when only it was written (a retirement too); the
    opponent of a player who forfeited; else the side whose games and penalty points
    reached the length (nothing is recorded after a win, so the other side's are fewer)."""
    finished = Q(status=Match.Status.FINISHED)
    return matches.alias(a_lead=_lead_of_a()).annotate(
        winner=Case(
            When(status=Match.Status.WALKOVER, then=F("walkover_winner")),
            When(
                finished & Q(final_score_a__isnull=False),
                then=Case(
                    When(final_score_a__gt=F("final_score_b"), then=Value(0)), default=Value(1)
                ),
            ),
            When(finished & ~Q(forfeit="") & Q(retired__isnull=False), then=1 - F("retired")),
            When(
                finished,
                then=Case(When(Q(a_lead__gt=0), then=Value(0)), default=Value(1)),
            ),
            default=None,
            output_field=IntegerField(null=True),
        )
    )


@dataclass(frozen=True)
class PlayerRecord:
    """A player's figures over all their matches, counted by the database in one query."""

    played: int  # decided: won or lost (walkovers included)
    won: int
    lost: int


def player_record_counted(*, player: Player) -> PlayerRecord:
    """Matches won and lost by the player (walkovers included), over all of them, in one
    query whatever their number: what :func:`matches.selectors.player_record` counts from
    every match's score sheet.

    Grouped by the player's side and the winner (at most six rows) rather than counted with
    filters on the winner: a filter names the winner's expression once per use, and the
    database sums each match's games again for each (five times; 20-30 ms for a season's
    990 matches, 8 ms grouped)."""
    side = Case(When(player_a=player, then=Value(0)), default=Value(1))
    counted = (
        matches_with_winner(Match.objects.filter(Q(player_a=player) | Q(player_b=player)))
        .order_by()
        .annotate(side=side)
        .values("side", "winner")
        .annotate(count=Count("pk"))
    )
    won = lost = 0
    for row in counted:
        if row["winner"] is None:
            continue
        if row["winner"] == row["side"]:
            won += row["count"]
        else:
            lost += row["count"]
    return PlayerRecord(played=won + lost, won=won, lost=lost)


def rating_list() -> QuerySet[Player]:
    """The club's rating list: every player with a rated match, best first, each with
    ``rank`` (players on the same rating share one: 1, 2, 2, 4; a filtered list keeps the
    ranks of the whole list), ``rated`` (rated matches), ``last_change`` and ``last_date``
    (the latest rated match's change and date)."""
    has_rated = Exists(RatingChange.objects.filter(player=OuterRef("pk")))
    better = Player.objects.filter(has_rated, rating__gt=OuterRef("rating")).order_by()
    ahead = better.annotate(count=Func(F("pk"), function="COUNT")).values("count")
    last = RatingChange.objects.filter(player=OuterRef("pk")).order_by("-order")
    moved = ExpressionWrapper(
        F("rating_after") - F("rating_before"),
        output_field=DecimalField(max_digits=7, decimal_places=2),
    )
    return (
        Player.objects.filter(has_rated)
        .annotate(
            rank=Subquery(ahead, output_field=IntegerField()) + 1,
            rated=Subquery(
                RatingChange.objects.filter(player=OuterRef("pk"))
                .order_by()
                .annotate(count=Func(F("pk"), function="COUNT"))
                .values("count"),
                output_field=IntegerField(),
            ),
            last_change=Subquery(last.annotate(moved=moved).values("moved")[:1]),
            last_date=Subquery(last.values("match__date")[:1]),
        )
        .order_by("-rating", "sort_name", "name", "id")
    )


# --- a player's own page ---------------------------------------------------------------


@dataclass(frozen=True)
class PlayerMatch:
    """One of the player's matches as they see it: who they play, where, and how it stands."""

    match: Match
    opponent: Player
    score: tuple[int, int]  # the player's points first
    won: bool | None  # None while not decided
    table: int | None
    event: Event | None
    round: RoundName | None
    reports: bool = False  # the tournament lets its players report results


@dataclass(frozen=True)
class PlayerRating:
    """One of the player's rating changes as they see it, with where the match was played."""

    change: RatingChange
    event: Event | None
    round: RoundName | None


@dataclass(frozen=True)
class PlayerEntry:
    entry: Entry
    check_in_open: bool  # the player may check in now, from their phone


@dataclass(frozen=True)
class PlayerReport:
    """A report waiting on one of the player's matches, with the match as they see it
    (event, round, length, table): two matches against the same opponent told apart."""

    report: ResultReport
    item: PlayerMatch


@dataclass(frozen=True)
class PlayerReportsSeen:
    """The player's waiting reports: those they must answer, and their own."""

    to_answer: list[PlayerReport]
    waiting: list[PlayerReport]


def _reports_seen(
    player: Player, matches: QuerySet[Match], known: list[PlayerMatch]
) -> PlayerReportsSeen:
    """The player's waiting reports, each with its match; the matches already read for the
    page are used, the others (a report on a match meanwhile decided) read in one query."""
    reports = player_reports_pending(player=player)
    by_match = {item.match.pk: item for item in known}
    missing = {r.match_id for r in [*reports.to_answer, *reports.waiting]} - set(by_match)
    if missing:
        by_match |= {m.pk: _player_match(player, m) for m in matches.filter(pk__in=missing)}
    return PlayerReportsSeen(
        to_answer=[PlayerReport(r, by_match[r.match_id]) for r in reports.to_answer],
        waiting=[PlayerReport(r, by_match[r.match_id]) for r in reports.waiting],
    )


@dataclass(frozen=True)
class PlayerHome:
    player: Player
    next_match: PlayerMatch | None
    in_play: list[PlayerMatch]
    results: list[PlayerMatch]
    ratings: list[PlayerRating]
    entries: list[PlayerEntry]
    requests: list[Any]
    reports: PlayerReportsSeen  # results reported and waiting: for this player to answer, or theirs

    @property
    def check_in(self) -> list[PlayerEntry]:
        """The entries the player may check in now."""
        return [item for item in self.entries if item.check_in_open]


RESULTS_SHOWN = 20


def _player_match(player: Player, match: Match) -> PlayerMatch:
    sheet = match_score_sheet(match=match)
    side = 0 if match.player_a_id == player.pk else 1
    place = getattr(match, "place", None)
    table = getattr(match, "table", None)
    return PlayerMatch(
        match=match,
        opponent=match.player_b if side == 0 else match.player_a,
        score=(sheet.score[side], sheet.score[1 - side]),
        won=None if sheet.winner is None else sheet.winner == side,
        table=table.number if table is not None else None,
        event=place.event if place is not None else None,
        round=place.round_name if place is not None else None,
        reports=place is not None
        and place.event.tournament.results_by == Tournament.ResultsBy.PLAYERS,
    )


def _player_rating(change: RatingChange) -> PlayerRating:
    place = getattr(change.match, "place", None)
    return PlayerRating(
        change=change,
        event=place.event if place is not None else None,
        round=place.round_name if place is not None else None,
    )


def player_home(*, player: Player) -> PlayerHome:
    """What a player signed in looks for on their phone, in a fixed number of queries: their
    next match, those in play, their last results and rating changes, their entries."""
    matches = (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related(
            "player_a", "player_b", "place__event__tournament", "place__event__parent", "table"
        )
        .prefetch_related(*HISTORY)
    )
    waiting = [
        _player_match(player, m)
        for m in matches.filter(status=Match.Status.SCHEDULED).order_by(
            "date", "place__round", "id"
        )
    ]
    in_play = [
        _player_match(player, m)
        for m in matches.filter(status=Match.Status.IN_PLAY).order_by("date", "id")
    ]
    decided = matches.filter(status__in=(Match.Status.FINISHED, Match.Status.WALKOVER))
    results = [
        _player_match(player, m)
        for m in decided.order_by("-date", "-finished_at", "-id")[:RESULTS_SHOWN]
    ]
    ratings = [_player_rating(c) for c in player_rating_history(player=player)[:RESULTS_SHOWN]]
    entries = [
        PlayerEntry(
            entry=entry,
            check_in_open=entry.status == Entry.Status.REGISTERED and not entry.event.drawn,
        )
        for entry in Entry.objects.filter(player=player)
        .select_related("event__tournament", "event__parent")
        .order_by("-event__tournament__date", "event__tournament_id", "event_id")[:RESULTS_SHOWN]
    ]
    requests = list(
        player.entry_requests.filter(status=EntryRequest.Status.PENDING).select_related(
            "event__tournament"
        )
    )
    # a match at a table first: the one the player is called to, whatever the order
    waiting.sort(key=lambda item: item.table is None)
    return PlayerHome(
        player=player,
        next_match=waiting[0] if waiting else None,
        in_play=in_play,
        results=results,
        ratings=ratings,
        entries=entries,
        requests=requests,
        reports=_reports_seen(player, matches, [*waiting, *in_play, *results]),
    )
