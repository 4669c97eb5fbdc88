"""Reading players, tournaments and events: brackets, standings and rounds are derived here.

A knockout's state comes from the pure bracket (:mod:`tournaments.pairing.bracket`),
the entries' seeds and the winners of the matches played; standings come from the
finished matches through :mod:`tournaments.pairing.standings`. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise
from typing import Any, cast

from django.db.models import (
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
)
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.actors import Actor
from club.models import Player
from club.policy import MatchScope, PlayerScope
from club.selectors import players_namesakes
from matches.models import Game, Match, ResultReport
from matches.places import MatchPlace, ReportDetail
from matches.selectors import (
    ScoreSheet,
    match_score_sheet,
    player_matches,
    player_reports_pending,
)

from .models import Bye, Entry, EntryRequest, Event, Place, RatingChange, Table, Tournament
from .pairing.bracket import (
    PENDING,
    Bracket,
    BracketState,
    LoserOf,
    Slot,
    WinnerOf,
    double_elimination,
    first_defeat_ends,
    first_match_exits,
    resolve,
    single_elimination,
    with_consolation,
)
from .pairing.standings import Result, Standing, round_robin_standings, swiss_standings
from .reasons import reason_text
from .rounds import RoundName, round_name


def match_scope(match: Match) -> MatchScope | None:
    """Where a match is played, for the policy (registered at start-up): its tournament,
    who directs it, what the tournament lets its players do; None for a match outside
    any tournament."""
    tournament = Tournament.objects.filter(events__places__match_id=match.pk).first()
    if tournament is None:
        return None
    return MatchScope(
        tournament_id=tournament.pk,
        directors=frozenset(tournament.directors.values_list("pk", flat=True)),
        physical_dice=tournament.physical_dice,
        player_reports=tournament.results_by == tournament.ResultsBy.PLAYERS,
    )


def match_place(match: Match) -> MatchPlace | None:
    """Where a match is played and how its result is reported, for the match's pages
    (registered at start-up, see :mod:`matches.places`); None for a match outside any
    tournament."""
    place = (
        Place.objects.filter(match_id=match.pk)
        .select_related("event__tournament", "event__parent", "match__table")
        .first()
    )
    if place is None:
        return None
    tournament = place.event.tournament
    try:
        table: int | None = place.match.table.number
    except Table.DoesNotExist:
        table = None
    return MatchPlace(
        # one of the three, by the table's constraint (tournament_report_detail_known)
        report_detail=cast(ReportDetail, tournament.report_detail),
        confirm_minutes=tournament.confirm_minutes,
        label=_("%(tournament)s · %(event)s · %(round)s (%(key)s)")
        % {
            "tournament": tournament.name,
            "event": place.event.name,
            "round": str(place.round_name),  # "round 2", "final"
            "key": place.bracket_key,
        },
        url=place.event.get_absolute_url(),
        table=table,
    )


def player_scope(player: Player) -> PlayerScope:
    """The directors of every tournament the player is entered in or has a match of (a
    substitute's predecessor keeps their matches), for the policy (registered at start-up)."""
    played = Tournament.objects.filter(
        Q(events__entries__player=player.pk)
        | Q(events__places__match__player_a=player.pk)
        | Q(events__places__match__player_b=player.pk)
    )
    directors = Tournament.directors.through.objects.filter(
        tournament__in=played.values("pk")
    ).values_list("user_id", flat=True)
    entered = played.exists()
    return PlayerScope(entered=entered, directors=frozenset(directors) if entered else frozenset())


def tournament_playing_directors(*, tournament: Tournament) -> QuerySet[Player]:
    """The players entered in the tournament whose account is one of its directors: a link
    the policy refuses to make (:func:`club.policy.link_refusal`), but which a director
    added, or an entry made, after the link brings about; the tournament's page says so."""
    return (
        Player.objects.filter(
            entries__event__tournament=tournament,
            user__in=tournament.directors.values("pk"),
        )
        .distinct()
        .order_by("sort_name", "name", "id")
    )


def directs_a_tournament(user: Actor) -> bool:
    """The account directs some tournament (for the policy, registered at start-up)."""
    if user.pk is None:  # a visitor, or the site itself
        return False
    return Tournament.directors.through.objects.filter(user_id=user.pk).exists()


def player_list() -> QuerySet[Player]:
    return Player.objects.all()


def player_rating_history(*, player: Player) -> QuerySet[RatingChange]:
    return player.rating_changes.select_related(
        "match__player_a",
        "match__player_b",
        "match__place__event__tournament",
        "match__place__event__parent",  # a cut knockout is named after its Swiss
    )


def player_match_list(*, player: Player) -> QuerySet[Match]:
    """The player's matches, each with the event and round it is played in (if any)."""
    return player_matches(player=player).select_related("place__event__tournament")


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


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(event_count=Count("events"))


def tournament_events(*, tournament: Tournament) -> QuerySet[Event]:
    # a cut knockout is named after its Swiss (Event.name)
    return (
        tournament.events.select_related("parent")
        .prefetch_related("rounds")
        .annotate(entry_count=Count("entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN)))
    )


def event_entries(*, event: Event) -> QuerySet[Entry]:
    return event.entries.select_related("player").order_by("seed", "player__sort_name", "id")


def event_matches(*, event: Event) -> QuerySet[Match]:
    """Every match of the event with its players and games, in a fixed number of queries."""
    return (
        Match.objects.filter(place__event=event)
        .select_related("player_a", "player_b", "place", "table")
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
        .order_by("place__round", "id")
    )


# --- knockouts ---------------------------------------------------------------------------

SHAPES = {
    Event.Format.SINGLE: single_elimination,
    Event.Format.LAST_CHANCE: single_elimination,
    Event.Format.CONSOLATION: with_consolation,
    Event.Format.PROGRESSIVE: lambda n, **options: with_consolation(n, progressive=True, **options),
    Event.Format.DOUBLE: lambda n, **options: double_elimination(n),
}


def event_bracket(*, event: Event, entrants: int) -> Bracket:
    return SHAPES[event.format](entrants, third_place=event.third_place)


def event_one_defeat(*, event: Event, entries: list[Entry]) -> tuple[int, int, int] | None:
    """(fewest, most who go home after their first match, of how many) when a first defeat
    would end the event for most of the field: the drawn players, or before the draw those
    checked in (else those entered)."""
    if not event.knockout:
        return None
    drawn = [e for e in entries if e.seed is not None]
    playing = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    count = len(drawn or playing or [e for e in entries if e.status != Entry.Status.WITHDRAWN])
    if count < 3:
        return None
    bracket = event_bracket(event=event, entrants=count)
    if 2 * first_defeat_ends(bracket) <= count:
        return None
    return (*first_match_exits(bracket), count)


@dataclass(frozen=True)
class Knockout:
    """A knockout as it stands: the bracket, each place's state, and the real matches."""

    bracket: Bracket
    state: BracketState
    players: dict[int, Player]  # seed -> player
    matches: dict[str, Match]  # bracket key -> match
    sheets: dict[int, ScoreSheet]  # match id -> its score sheet

    def player(self, side) -> Player | None:
        return self.players.get(side) if isinstance(side, int) else None

    @property
    def champion(self) -> Player | None:
        return self.player(self.state.champion)


def event_knockout(
    *, event: Event, entries: list[Entry] | None = None, matches: list[Match] | None = None
) -> Knockout | None:
    """None before the draw. Results are read from the matches' sheets (rules derive them)."""
    if not event.drawn or not event.knockout:
        return None
    entries = entries if entries is not None else list(event_entries(event=event))
    matches = matches if matches is not None else list(event_matches(event=event))
    players = {e.seed: e.player for e in entries if e.seed is not None}
    seed_of = {p.pk: seed for seed, p in players.items()}
    bracket = event_bracket(event=event, entrants=len(players))
    by_key = {m.place.bracket_key: m for m in matches if m.place.bracket_key}
    sheets = {m.pk: match_score_sheet(match=m) for m in matches}
    results = {}
    for key, match in by_key.items():
        sheet = sheets[match.pk]
        if sheet.winner is not None:
            results[key] = seed_of[match.player(sheet.winner).pk]
    return Knockout(bracket, resolve(bracket, results), players, by_key, sheets)


@dataclass(frozen=True)
class Placing:
    """One finishing place: "1", or a range shared by those out at the same stage."""

    first: int
    last: int
    players: tuple[Player, ...]

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def _placings(stages: list[list[Player]]) -> list[Placing]:
    """Stages best first; a stage's players share the places after those above them."""
    found, above = [], 0
    for stage in stages:
        if stage:
            found.append(Placing(above + 1, above + len(stage), tuple(stage)))
            above += len(stage)
    return found


def _round_losers(knockout: Knockout, draw: str) -> list[list[Player]]:
    """The losers of each round of a draw's decided matches, the last round first."""
    stages = []
    for round_matches in reversed(knockout.bracket.rounds(draw)):
        stage = []
        for match in round_matches:
            slot = knockout.state.slots[match.key]
            loser = knockout.player(slot.loser)
            if loser is not None:
                stage.append(loser)
        stages.append(sorted(stage, key=lambda p: (p.sort_name, p.name)))
    return stages


def event_placings(*, event: Event, knockout: Knockout) -> list[tuple[str, list[Placing]]]:
    """A finished knockout's final placings for every entrant, by the round reached: the
    main draw (1, 2, 3–4 or a play-off's 3 and 4, 5–8, …), then a consolation's own.
    Empty until the champion is known."""
    champion = knockout.champion
    if champion is None:
        return []
    sections = []
    if event.format == Event.Format.DOUBLE:
        finals = [s for k, s in knockout.state.slots.items() if s.match.draw == "final"]
        runner_up = knockout.player(finals[-1].loser) if finals else None
        stages = [[champion], [runner_up] if runner_up else [], *_round_losers(knockout, "losers")]
        return [(str(DRAW_TITLES["main"]), _placings(stages))]
    main = _round_losers(knockout, "main")
    stages = [[champion], *main]
    playoff = knockout.state.slots.get("P1-1")
    if playoff is not None and knockout.player(playoff.winner) is not None:
        third, fourth = knockout.player(playoff.winner), knockout.player(playoff.loser)
        stages[2:3] = [[third], [fourth] if fourth else []]
    sections.append((str(DRAW_TITLES["main"]), _placings(stages)))
    consolation = knockout.bracket.rounds("consolation")
    if consolation:
        last = knockout.state.slots[consolation[-1][0].key]
        winner = knockout.player(last.winner)
        if winner is not None:
            stages = [[winner], *_round_losers(knockout, "consolation")]
            sections.append((str(DRAW_TITLES["consolation"]), _placings(stages)))
    return sections


def knockout_players_alive(knockout: Knockout) -> set[int]:
    """Player ids who may still play in the knockout (or have won it)."""
    alive = {knockout.state.champion} if knockout.state.champion is not PENDING else set()
    for slot in knockout.state.slots.values():
        if slot.winner is PENDING:
            alive.update(s for s in (slot.first, slot.second) if isinstance(s, int))
    return {knockout.players[s].pk for s in alive if isinstance(s, int)}


# --- the bracket as drawn on the page ---------------------------------------------------


@dataclass(frozen=True)
class BracketLine:
    """One side of a match box: a name (or "bye", or a place still to be decided)."""

    name: str
    seed: int | None
    score: int | None
    won: bool
    bye: bool
    pending: str  # e.g. "winner of M1-3" while unknown


class Join(StrEnum):
    """How a box is joined to the round before it on the page (the value names its CSS class)."""

    NONE = ""  # no line: its players come from elsewhere (a seed, the main draw's losers)
    PAIR = "pair"  # the winners of the two boxes beside it: a bracket line joins all three
    LEVEL = "level"  # the winner of the one box level with it, and a newcomer: a straight line


@dataclass(frozen=True)
class BracketBox:
    key: str
    lines: tuple[BracketLine, BracketLine]
    match: Match | None
    length: int
    fed_by: tuple[str, ...] = ()  # keys of the earlier matches whose winners play here
    join: Join = Join.NONE

    @property
    def walkover(self) -> bool:
        return self.match is not None and self.match.status == Match.Status.WALKOVER


@dataclass(frozen=True)
class BracketColumn:
    title: str
    boxes: tuple[BracketBox, ...]


@dataclass(frozen=True)
class BracketSection:
    """What prints on one page: a draw, or a 32-player part of a big main draw."""

    title: str
    columns: tuple[BracketColumn, ...]


DRAW_TITLES = {
    "main": gettext_lazy("Main draw"),
    "consolation": gettext_lazy("Consolation"),
    "losers": gettext_lazy("Losers' draw"),
    "third": gettext_lazy("Play-off for third place"),
}
PAGE_ENTRANTS = 32  # one landscape page holds a 32-player draw


def _source_text(source) -> str:
    if isinstance(source, WinnerOf):
        return _("winner of %(key)s") % {"key": source.key}
    if isinstance(source, LoserOf):
        return _("loser of %(key)s") % {"key": source.key}
    return ""


def _box(event: Event, knockout: Knockout, slot: Slot) -> BracketBox:
    match = knockout.matches.get(slot.match.key)
    sheet = knockout.sheets.get(match.pk) if match else None
    lines = []
    for index, side in enumerate((slot.first, slot.second)):
        player = knockout.player(side)
        score = None
        played = sheet is not None and (sheet.rows or sheet.match.final_score_a is not None)
        if played and player is not None:
            score = sheet.score[0 if sheet.match.player_a_id == player.pk else 1]
        lines.append(
            BracketLine(
                name=player.name if player else "",
                seed=side if isinstance(side, int) else None,
                score=score,
                won=side is not None and side is not PENDING and slot.winner == side,
                bye=side is None,
                pending=_source_text(slot.match.sources[index]) if side is PENDING else "",
            )
        )
    length = event.length_for(999 if slot.match.draw == "final" else slot.match.round)
    fed_by = tuple(s.key for s in slot.match.sources if isinstance(s, WinnerOf))
    return BracketBox(slot.match.key, (lines[0], lines[1]), match, length, fed_by)


def event_bracket_sections(*, event: Event, knockout: Knockout) -> list[BracketSection]:
    """The bracket in printable sections: each draw on its own page; a main draw of more
    than 32 entrants split into 32-player parts, then a page for the rounds after them."""
    sections = []
    slots = knockout.state.slots
    for draw in ("main", "third", "consolation", "losers"):
        rounds = knockout.bracket.rounds(draw)
        if not rounds:
            continue
        title = DRAW_TITLES[draw]
        columns = [
            [_box(event, knockout, slots[m.key]) for m in round_matches] for round_matches in rounds
        ]
        if draw == "main" and len(columns[0]) * 2 > PAGE_ENTRANTS:
            per_page = PAGE_ENTRANTS // 2
            parts = len(columns[0]) // per_page
            for part in range(parts):
                part_columns = []
                for r, column in enumerate(columns):
                    width = per_page >> r
                    if width < 1:
                        break
                    part_columns.append(column[part * width : (part + 1) * width])
                sections.append(
                    _section(f"{title} ({part + 1}/{parts + 1})", part_columns, start=1)
                )
            later = [c for r, c in enumerate(columns) if (per_page >> r) < 1]
            start = len(columns) - len(later) + 1
            sections.append(_section(f"{title} ({parts + 1}/{parts + 1})", later, start=start))
        else:
            sections.append(_section(title, columns, start=rounds[0][0].round))
    finals = [s for s in slots.values() if s.match.draw == "final"]  # and played again
    if finals:
        columns = []
        for slot in finals:  # a column each, named as every page names it
            name = round_name(slot.match.round, [slot.match.key])
            columns.append(BracketColumn(name.title, (_box(event, knockout, slot),)))
        sections.append(BracketSection(_("Final"), tuple(columns)))
    return sections


def _join(box: BracketBox, index: int, count: int, before: list[BracketBox]) -> Join:
    """A line only where the page tells the truth: the two boxes beside this one in the column
    before (twice as many boxes as this one's) feed it, or, in a round that takes in newcomers
    (as many boxes as the one before), the box level with it does."""
    feeders = set(box.fed_by)
    if len(before) == 2 * count and feeders == {b.key for b in before[2 * index : 2 * index + 2]}:
        return Join.PAIR
    if len(before) == count and feeders == {before[index].key}:
        return Join.LEVEL
    return Join.NONE


def _section(title: str, columns: list[list[BracketBox]], *, start: int) -> BracketSection:
    joined = [columns[0]] if columns else []
    for before, column in pairwise(columns):
        count = len(column)
        joined.append([replace(b, join=_join(b, i, count, before)) for i, b in enumerate(column)])
    return BracketSection(
        title,
        tuple(
            BracketColumn(_("Round %(number)s") % {"number": start + i}, tuple(column))
            for i, column in enumerate(joined)
        ),
    )


# --- Swiss and round robin ---------------------------------------------------------------


def _results(matches: list[Match]) -> list[Result]:
    found = []
    for match in matches:
        sheet = match_score_sheet(match=match)
        if sheet.winner is None:
            continue
        found.append(
            Result(
                match.player_a_id,
                match.player_b_id,
                match.player(sheet.winner).pk,
                *(sheet.score if match.status != Match.Status.WALKOVER else (0, 0)),
            )
        )
    return found


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    player: Player
    pool: str
    withdrawn: bool = False  # still ranked on what they played, and marked as gone


def event_standings(
    *, event: Event, entries: list[Entry] | None = None, matches: list[Match] | None = None
) -> list[StandingRow]:
    """Swiss: wins, Buchholz, median; round robin: wins, head-to-head, points difference
    (per pool, pools one after another). Empty for knockouts and before the draw."""
    if not event.drawn or event.knockout:
        return []
    entries = entries if entries is not None else list(event_entries(event=event))
    matches = matches if matches is not None else list(event_matches(event=event))
    drawn = [e for e in entries if e.seed is not None]
    players = {e.player_id: e.player for e in drawn}
    gone = {e.player_id for e in drawn if e.status == Entry.Status.WITHDRAWN}
    if event.format == Event.Format.SWISS:
        byes: dict[int, int] = {}
        for bye in event.byes.all():
            byes[bye.player_id] = byes.get(bye.player_id, 0) + 1
        # the rounds a late arrival missed, scored as byes or as losses (the tournament says)
        late = {e.player_id: e.joined_round - 1 for e in drawn if (e.joined_round or 0) > 1}
        missed: dict[int, int] = {}
        if event.tournament.late_rounds == Tournament.LateRounds.BYE:
            for player, count in late.items():
                byes[player] = byes.get(player, 0) + count
        else:
            missed = late
        seeds = {e.player_id: e.seed for e in drawn}
        table = swiss_standings(_results(matches), seeds=seeds, byes=byes, missed=missed)
        return [StandingRow(s, players[s.key], "", s.key in gone) for s in table]
    rows = []
    for pool in sorted({e.pool for e in drawn}):
        members = [e for e in drawn if e.pool == pool]
        ids = {e.player_id for e in members}
        pool_matches = [m for m in matches if m.player_a_id in ids and m.player_b_id in ids]
        seeds = {e.player_id: e.seed for e in members}
        table = round_robin_standings(_results(pool_matches), seeds=seeds)
        pool_name = members[0].pool_name
        rows += [StandingRow(s, players[s.key], pool_name, s.key in gone) for s in table]
    return rows


@dataclass(frozen=True)
class CrossCell:
    """One match of a round robin's cross-table, seen from the row's player: their points
    first; ``won`` is None while the match is undecided."""

    match: Match
    won: bool | None
    scored: int
    conceded: int
    walkover: bool


@dataclass(frozen=True)
class CrossRow:
    row: StandingRow
    number: int  # the row's number in the pool, which heads the player's column
    cells: tuple[CrossCell | None, ...]  # None: the diagonal, or a pair with no match


@dataclass(frozen=True)
class CrossTable:
    """A round robin pool's players against each other, in the standings' order. ``level``:
    once the pool is finished, the places still shared after every tie-break, each with
    its players, for the director (or a play-off) to decide."""

    pool: str  # empty when the event has one pool
    rows: tuple[CrossRow, ...]
    level: tuple[tuple[int, tuple[Player, ...]], ...]


def event_cross_tables(
    *, event: Event, rows: list[StandingRow], matches: list[Match]
) -> list[CrossTable]:
    """A round robin's cross-table for each pool, from its standings rows and its matches."""
    if event.format != Event.Format.ROUND_ROBIN:
        return []
    by_pair: dict[frozenset[int], Match] = {
        frozenset((m.player_a_id, m.player_b_id)): m for m in matches
    }
    tables = []
    pools = list(dict.fromkeys(row.pool for row in rows))
    for pool in pools:
        members = [row for row in rows if row.pool == pool]
        crossed = []
        for number, mine in enumerate(members, 1):
            cells = []
            for other in members:
                match = by_pair.get(frozenset((mine.player.pk, other.player.pk)))
                cells.append(None if mine is other or match is None else _cell(match, mine))
            crossed.append(CrossRow(mine, number, tuple(cells)))
        level: dict[int, list[Player]] = {}
        if all(c.won is not None for r in crossed for c in r.cells if c is not None):
            for row in members:
                if row.standing.shared:
                    level.setdefault(row.standing.rank, []).append(row.player)
        shared = tuple((rank, tuple(players)) for rank, players in level.items())
        tables.append(CrossTable(pool if len(pools) > 1 else "", tuple(crossed), shared))
    return tables


def _cell(match: Match, row: StandingRow) -> CrossCell:
    sheet = match_score_sheet(match=match)
    side = 0 if match.player_a_id == row.player.pk else 1
    walkover = match.status == Match.Status.WALKOVER
    score = (0, 0) if walkover else sheet.score
    won = None if sheet.winner is None else sheet.winner == side
    return CrossCell(match, won, score[side], score[1 - side], walkover)


def event_current_round(*, event: Event, matches: list[Match]) -> int | None:
    """The earliest round with a match still to finish; None when all are done."""
    waiting = [m.place.round for m in matches if not m.decided]
    return min(waiting) if waiting else None


@dataclass(frozen=True)
class Progress:
    """Where an event stands, for the line at the top of its page."""

    stage: str  # entries, playing, to_pair, to_cut, finished
    round: int | None = None
    champion: Player | None = None
    round_name: RoundName | None = None  # the round in play or to pair: "Round 3", "Final"


def event_progress(*, event: Event, matches: list[Match], knockout: Knockout | None) -> Progress:
    if not event.drawn:
        return Progress("entries")
    current = event_current_round(event=event, matches=matches)
    if current is not None:
        keys = [m.place.bracket_key for m in matches if m.place.round == current]
        return Progress("playing", current, round_name=round_name(current, keys))
    if knockout is not None:
        return Progress("finished", champion=knockout.champion)
    if event.format == Event.Format.SWISS:
        paired = max((m.place.round for m in matches), default=0)
        paired = max([paired, *event.byes.values_list("round", flat=True)])
        if paired < (event.swiss_rounds or 0):
            return Progress("to_pair", paired + 1, round_name=RoundName(paired + 1))
        if event.cut and not event.children.exists():
            return Progress("to_cut")
    return Progress("finished")


def event_finished(*, event: Event) -> bool:
    """Whether the event is over (every round played, a knockout's champion known, a Swiss
    cut made): nobody joins or withdraws any more, so its page offers neither."""
    return events_finished(events=Event.objects.filter(pk=event.pk)).get(event.pk, False)


def events_finished(*, events: QuerySet[Event]) -> dict[int, bool]:
    """:func:`event_finished` for each of ``events``, in one query however many there are:
    drawn, no match left undecided, a Swiss's rounds all paired and its cut made."""
    decided = (Match.Status.FINISHED, Match.Status.WALKOVER)
    last = "-round"
    rows = events.annotate(
        undecided=Exists(
            Match.objects.filter(place__event=OuterRef("pk")).exclude(status__in=decided)
        ),
        last_place=Subquery(
            Place.objects.filter(event=OuterRef("pk")).order_by(last).values("round")[:1]
        ),
        last_bye=Subquery(
            Bye.objects.filter(event=OuterRef("pk")).order_by(last).values("round")[:1]
        ),
        cut_made=Exists(Event.objects.filter(parent=OuterRef("pk"))),
    ).values_list(
        "pk",
        "drawn_at",
        "format",
        "swiss_rounds",
        "cut",
        "undecided",
        "last_place",
        "last_bye",
        "cut_made",
    )
    found = {}
    for pk, drawn_at, format_, rounds, cut, undecided, place, bye, cut_made in rows:
        if drawn_at is None or undecided:
            found[pk] = False
        elif format_ != Event.Format.SWISS:  # as event_progress says
            found[pk] = True
        else:
            paired = max(place or 0, bye or 0)
            found[pk] = paired >= (rounds or 0) and (not cut or cut_made)
    return found


class TournamentStatus(StrEnum):
    """Where a tournament stands, derived from its events (the API's tournament ``status``)."""

    UPCOMING = "upcoming"  # no event drawn yet (or no event at all)
    RUNNING = "running"  # an event drawn, and not every event finished
    FINISHED = "finished"  # every event finished (event_finished)


def tournament_statuses(*, tournaments: list[Tournament]) -> dict[int, TournamentStatus]:
    """Each tournament's :class:`TournamentStatus`, in two queries for the lot."""
    events = Event.objects.filter(tournament__in=[t.pk for t in tournaments])
    finished = events_finished(events=events)
    by_tournament: dict[int, list[tuple[bool, bool]]] = {t.pk: [] for t in tournaments}
    for pk, tournament, drawn_at in events.values_list("pk", "tournament_id", "drawn_at"):
        by_tournament[tournament].append((drawn_at is not None, finished[pk]))
    statuses = {}
    for pk, found in by_tournament.items():
        if not any(drawn for drawn, _done in found):
            statuses[pk] = TournamentStatus.UPCOMING
        elif all(done for _drawn, done in found):
            statuses[pk] = TournamentStatus.FINISHED
        else:
            statuses[pk] = TournamentStatus.RUNNING
    return statuses


@dataclass(frozen=True)
class RoundPairings:
    number: int
    matches: tuple[Match, ...]
    byes: tuple[str, ...]  # Swiss byes and round robin rests: who does not play
    length: int
    name: RoundName  # "Round 3", or a double elimination's "Final"


def event_rounds(
    *, event: Event, entries: list[Entry] | None = None, matches: list[Match] | None = None
) -> list[RoundPairings]:
    entries = entries if entries is not None else list(event_entries(event=event))
    matches = matches if matches is not None else list(event_matches(event=event))
    numbers = sorted({m.place.round for m in matches})
    byes = list(event.byes.select_related("player"))
    rounds = []
    for number in numbers:
        in_round = tuple(m for m in matches if m.place.round == number)
        resting: list[str] = [
            f"{b.player.name} ({reason_text(b.reason_code, b.reason_params, b.player.name)})"
            for b in byes
            if b.round == number
        ]
        if event.format == Event.Format.ROUND_ROBIN:
            playing = {p for m in in_round for p in (m.player_a_id, m.player_b_id)}
            resting += [
                e.player.name
                for e in entries
                if e.seed is not None
                and e.player_id not in playing
                and e.status != Entry.Status.WITHDRAWN
            ]
        name = round_name(number, [m.place.bracket_key for m in in_round])
        rounds.append(RoundPairings(number, in_round, tuple(resting), event.length_of(name), name))
    return rounds


def tournament_players_out(*, tournament: Tournament, player: Player) -> bool | None:
    """For a last chance: True when the player has played a knockout here and is out of all
    of them; None when they have not played one; False while they are still in one."""
    seen = False
    for event in tournament.events.filter(entries__player=player).exclude(
        format=Event.Format.LAST_CHANCE
    ):
        knockout = event_knockout(event=event)
        if knockout is None:
            continue
        seen = True
        if player.pk in knockout_players_alive(knockout):
            return False
    return True if seen else None


def event_player_matches(*, event: Event, player: Player) -> QuerySet[Match]:
    return event_matches(event=event).filter(Q(player_a=player) | Q(player_b=player))


@dataclass(frozen=True)
class EventSummary:
    event: Event
    progress: Progress


def tournament_overview(*, tournament: Tournament) -> list[EventSummary]:
    """Each event with where it stands (round in play, champion), for the public page."""
    summaries = []
    for event in tournament_events(tournament=tournament):
        matches = list(event_matches(event=event))
        knockout = event_knockout(event=event, matches=matches)
        summaries.append(
            EventSummary(event, event_progress(event=event, matches=matches, knockout=knockout))
        )
    return summaries


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
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
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


def tournament_entry_requests(*, tournament: Tournament) -> list[EntryRequest]:
    """The requests to enter waiting for a director's answer, oldest first; each with
    ``namesakes``, the players already registered under the asker's name (anyone may sign
    up under any name: the director sees who else bears it, by club and id)."""
    waiting = list(
        EntryRequest.objects.filter(
            event__tournament=tournament, status=EntryRequest.Status.PENDING
        )
        .select_related("event", "player")
        .order_by("asked_at", "id")
    )
    namesakes = players_namesakes(players={r.player for r in waiting})
    for asked in waiting:
        asked.namesakes = namesakes.get(asked.player_id, [])
    return waiting
