"""What the API answers, field by field: the names and types are the API's contract.

tests/api/schema_snapshot.json pins them: changing a field here breaks that test on purpose
(bump the version, /api/v2/, or update the snapshot deliberately).

Codes, not words: statuses, formats and results are stable lower-case codes (``finished``,
``single``, ``gammon``), never translated; names are as the club typed them. Numbers are JSON
numbers, dates and times ISO 8601 (times in UTC). Player "a" and "b" are a match's first- and
second-named players.
"""

from __future__ import annotations

import datetime
from typing import Literal

from ninja import Field, Schema

from tournaments.ratings_jobs import ratings_pending

Side = Literal["a", "b"]
MatchStatus = Literal["scheduled", "in_play", "finished", "walkover"]
GameResult = Literal["single", "gammon", "backgammon", "drop", "resignation"]
PenaltyReason = Literal["lateness", "director"]  # the values of matches.models.Penalty.Reason
ForfeitReason = Literal["time", "lateness"]  # of matches.models.Match.Forfeit
EventFormat = Literal[
    "single", "consolation", "progressive", "double", "last_chance", "swiss", "round_robin"
]
Seeding = Literal["random", "rating", "standings"]
EntryStatus = Literal["registered", "checked_in", "withdrawn"]
Stage = Literal["entries", "playing", "to_pair", "to_cut", "finished"]
# what placed a round robin player among those level with them on wins (the values of
# tournaments.pairing.standings.Decider)
DecidedBy = Literal[
    "wins", "head_to_head", "head_to_head_difference", "difference", "points_for", "shared"
]
RoundStage = Literal["round", "final", "final_again"]
ROUND_STAGE = (
    "what the round is: round (a numbered round), final (a double elimination's final, "
    "played after the losers' draw's last round) or final_again (that final played again: "
    "the losers' draw's player won it, so each finalist has lost once)"
)
TournamentStatus = Literal["upcoming", "running", "finished"]

BRACKET_KEYS = (
    "the match's place in its event, ROUND-MATCH after a letter: in a knockout M the main "
    "draw, C the consolation, L the losers' draw (double elimination), P the play-off for "
    "third place, F the final of a double elimination (F1-1; F2-1 the final played again); "
    "in a Swiss S (S2-3: round 2, its third match); in a round robin the pool's letter "
    "(B3-1: pool B, round 3, its first match); empty for a match outside any event"
)


class Error(Schema):
    """A refusal: ``code`` is stable, ``detail`` says it in plain English. An unknown query
    parameter's refusal adds ``unknown`` and ``known``: the parameters sent that the address
    does not take, and those it takes."""

    code: str = Field(
        description="not_found (404), invalid (422: a parameter's value), unknown_parameter "
        "(422: a parameter the address does not take), method_not_allowed (405), "
        "throttled (429)"
    )
    detail: str = Field(description="what went wrong, in plain English")


class PlayerRef(Schema):
    id: int = Field(description="the player's id: /api/v1/players/{id}")
    name: str = Field(description="the name as the club typed it")


class Score(Schema):
    a: int = Field(description="player a's points")
    b: int = Field(description="player b's points")


# --- players -------------------------------------------------------------------------------


class PlayerOut(Schema):
    """A player: never their email or phone."""

    id: int = Field(description="the player's id")
    name: str = Field(description="the name as the club typed it")
    club: str = Field(description="the club as typed; may be empty")
    country: str = Field(
        description="ISO 3166-1 alpha-2 code in capitals (IT, CH, DE); empty when not known"
    )
    rating: float = Field(description="FIBS rating, two decimals, as a JSON number")
    experience: int = Field(description="match points played (FIBS experience)")


class PlayerDetail(PlayerOut):
    matches_won: int = Field(description="matches won, walkovers included")
    matches_lost: int = Field(description="matches lost, walkovers included")
    ratings_pending: bool = Field(
        description="the ratings are being brought up to date after a correction: rating "
        "and experience may change in a few moments (ask again)"
    )

    @staticmethod
    def resolve_ratings_pending(obj: object) -> bool:
        """Asked of the site, not of the player: whether a ratings job waits or runs."""
        return ratings_pending()


class RatingChangeOut(Schema):
    order: int = Field(description="the match's place in the site's history of rated matches")
    match: int = Field(description="the match's id")
    date: datetime.date = Field(description="the match's date")
    finished_at: datetime.datetime | None = Field(description="when the match ended, UTC")
    opponent: PlayerRef = Field(description="who the player met")
    won: bool = Field(description="the player won the match")
    rating_before: float = Field(description="the player's FIBS rating before the match")
    rating_after: float = Field(description="the player's FIBS rating after it")
    change: float = Field(description="rating_after - rating_before")
    experience_after: int = Field(description="the player's experience after the match")
    tournament: int | None = Field(description="the tournament's id; null outside one")


# --- matches -------------------------------------------------------------------------------


class GameOut(Schema):
    """One game of the score sheet; the score, Crawford and post-Crawford are derived by the
    rules engine from the games before it (WBF 24), never stored."""

    number: int = Field(description="the game's number in the match, from 1")
    winner: Side = Field(description="who won the game: a or b")
    cube: int = Field(description="the cube's value at the end: 1, 2, 4, …")
    result: GameResult = Field(description="how the game ended")
    resigned: int | None = Field(description="for a resignation: 1 single, 2 gammon, 3 backgammon")
    points: int = Field(description="added to the winner's score, after the match length's cap")
    crawford: bool = Field(description="this is the Crawford game (no doubling)")
    post_crawford: bool = Field(description="played after the Crawford game")
    score_before: Score = Field(description="the match score before this game")
    score_after: Score = Field(description="the match score after this game")


class PenaltyOut(Schema):
    """Penalty points (tournament rules): the player penalised, the opponent scoring them
    before a game; the score around them derived by the rules engine, as for games."""

    before_game: int = Field(description="the number of the game they precede, from 1")
    side: Side = Field(description="the player penalised (a or b): the opponent scores")
    points: int = Field(description="added to the opponent's score, after the length's cap")
    reason: PenaltyReason = Field(
        description="lateness (arriving late at the match's call) or director (a director's "
        "decision, for a breach of the rules)"
    )
    score_before: Score = Field(description="the match score before the penalty")
    score_after: Score = Field(description="the match score after the penalty")


class MatchOut(Schema):
    id: int = Field(description="the match's id: /api/v1/matches/{id}")
    player_a: PlayerRef = Field(description="the first-named player")
    player_b: PlayerRef = Field(description="the second-named player")
    length: int = Field(description="the match length in points")
    date: datetime.date = Field(description="the day it is played")
    status: MatchStatus = Field(description="where the match stands")
    score: Score = Field(description="the games' running total, or the recorded final score")
    winner: Side | None = Field(description="a or b once decided; else null")
    retired: Side | None = Field(description="the player who retired from the match")
    crawford_game: int | None = Field(description="the number of the Crawford game, once known")
    finished_at: datetime.datetime | None = Field(description="when it ended, UTC; else null")
    tournament: int | None = Field(description="the tournament's id; null outside one")
    event: int | None = Field(description="the event's id; null outside one")
    round: int | None = Field(
        description="the round's number in the order of play (a double elimination's final "
        "comes after every other round); null outside an event"
    )
    round_stage: RoundStage | None = Field(description=ROUND_STAGE + "; null outside a tournament")
    bracket_key: str = Field(description=BRACKET_KEYS)
    table: int | None = Field(description="the table it is played at, while seated")


class MatchDetail(MatchOut):
    holland: bool = Field(description="the Holland rule applies post-Crawford")
    games: list[GameOut] = Field(description="empty when only a final score was recorded")
    penalties: list[PenaltyOut] = Field(
        description="penalty points given, in order (each before the game it names)"
    )
    forfeit: ForfeitReason | None = Field(
        description="why the match was forfeited (retired is the player who forfeited): time "
        "(their flag fell) or lateness (penalty points reaching half the length); null when "
        "it was not"
    )


# --- tournaments, events, rounds, standings ------------------------------------------------


class EventRef(Schema):
    id: int = Field(description="the event's id: /api/v1/events/{id}")
    name: str = Field(description="the event's name")
    format: EventFormat = Field(description="how it is played")


class TournamentOut(Schema):
    id: int = Field(description="the tournament's id: /api/v1/tournaments/{id}")
    name: str = Field(description="the tournament's name")
    date: datetime.date = Field(description="the day it starts")
    venue: str = Field(description="where it is played; may be empty")
    event_count: int = Field(description="how many events it holds")
    status: TournamentStatus = Field(
        description="derived from its events: upcoming (none drawn yet), running (one drawn, "
        "not all finished), finished (every event finished: its rounds played, a knockout's "
        "champion known, a Swiss's cut made)"
    )


class TournamentDetail(TournamentOut):
    events: list[EventRef] = Field(description="its events, in the order they were made")


class RoundLength(Schema):
    number: int = Field(description="the round's number, from 1")
    length: int = Field(description="the match length of this round (the last holds for later)")


class EntryOut(Schema):
    player: PlayerRef = Field(description="who entered")
    status: EntryStatus = Field(description="registered, checked in or withdrawn")
    seed: int | None = Field(description="the place in the draw, from 1; null before the draw")
    pool: str = Field(description="round robin pool letter, A, B, …; or empty")
    joined_round: int | None = Field(
        description="a Swiss's late arrival: the first round they play; else null"
    )


class Progress(Schema):
    stage: Stage = Field(
        description="entries (not drawn), playing, to_pair (a Swiss's next round), to_cut "
        "(a Swiss finished, its knockout not yet cut), finished"
    )
    round: int | None = Field(description="the round being played or to pair; else null")
    round_stage: RoundStage | None = Field(description=ROUND_STAGE + "; null when no round is")
    champion: PlayerRef | None = Field(description="a knockout's winner, once known")


class EventDetail(Schema):
    id: int = Field(description="the event's id")
    tournament: int = Field(description="the tournament's id")
    name: str = Field(description="the event's name")
    format: EventFormat = Field(description="how it is played")
    seeding: Seeding = Field(description="how the draw is seeded")
    holland: bool = Field(description="the Holland rule applies post-Crawford")
    third_place: bool = Field(description="a knockout's semi-finals' losers play for third")
    swiss_rounds: int | None = Field(description="a Swiss's number of rounds; else null")
    pools: int | None = Field(description="a round robin's number of pools; else null")
    cut: int | None = Field(
        description="a Swiss: the number of players its knockout is cut to; else null"
    )
    parent: int | None = Field(description="the Swiss this knockout was cut from")
    cut_to: int | None = Field(
        description="a Swiss: the knockout cut from it (an event's id), once the cut is "
        "made; else null. That knockout's parent is this Swiss"
    )
    drawn_at: datetime.datetime | None = Field(description="when it was drawn, UTC; else null")
    draw_seed: int | None = Field(description="a random draw's published seed")
    lengths: list[RoundLength] = Field(description="each round's match length")
    entries: list[EntryOut] = Field(description="its players, in seed order once drawn")
    progress: Progress = Field(description="where it stands")


class ByeOut(Schema):
    player: PlayerRef = Field(description="who has the bye")
    reason: str = Field(description="the pairing's reason code; may be empty")


class RoundOut(Schema):
    event: int = Field(description="the event's id")
    number: int = Field(description="the round's number, from 1")
    stage: RoundStage = Field(description=ROUND_STAGE)
    length: int = Field(description="the round's match length")
    matches: list[MatchOut] = Field(description="the round's matches")
    byes: list[ByeOut] = Field(description="a Swiss round's bye: a win without a match")
    resting: list[PlayerRef] = Field(description="round robin players without a match")


class StandingOut(Schema):
    rank: int = Field(description="the place, from 1; players level on every tie-break share it")
    player: PlayerRef = Field(description="the player")
    pool: str = Field(description="a round robin's pool letter; empty in a Swiss")
    played: int = Field(description="matches played")
    wins: int = Field(description="matches won, byes included")
    losses: int = Field(description="matches lost")
    byes: int = Field(description="a Swiss's byes (each a win); 0 in a round robin")
    buchholz: int | None = Field(
        description="a Swiss's tie-break: the opponents' wins added up; null in a round robin"
    )
    median: int | None = Field(
        description="a Swiss's tie-break: Buchholz without the best and the worst opponent; "
        "null in a round robin"
    )
    head_to_head: int | None = Field(
        description="a round robin's tie-break: wins against the players level on wins; "
        "null in a Swiss"
    )
    points_for: int = Field(description="match points won in its matches")
    points_against: int = Field(description="match points the opponents won")
    difference: int = Field(
        description="points_for - points_against (a round robin's last tie-break)"
    )
    withdrawn: bool = Field(
        description="the player has withdrawn: still ranked on the matches played"
    )
    shared: bool = Field(
        description="another player has the same rank: level on every tie-break (a round "
        "robin's director, or a play-off, decides between them)"
    )
    decided_by: DecidedBy | None = Field(
        description="round robin: what placed the player among those level on wins: wins "
        "(nobody else has as many), head_to_head (wins in the matches among them), "
        "head_to_head_difference (points difference in those matches), difference (in all "
        "their matches), points_for (points scored in all), or shared (level on all of "
        "them); null in a Swiss"
    )


class PlacingOut(Schema):
    draw: Literal["main", "consolation"] = Field(description="the draw the places are in")
    first: int = Field(description="the first place shared, from 1")
    last: int = Field(description="the last place shared (first when not shared)")
    players: list[PlayerRef] = Field(description="who holds these places")


class StandingsOut(Schema):
    """A Swiss or round robin: ``table`` (Swiss: wins, Buchholz, median; round robin: wins,
    then among players level on wins head-to-head wins, the points difference in the matches
    among them, the overall points difference, the points scored, applied again among any
    still level; pool by pool). A knockout: ``placings`` once the champion is known (places
    shared by those out in the same round)."""

    event: int = Field(description="the event's id")
    format: EventFormat = Field(description="the event's format")
    table: list[StandingOut] = Field(description="a Swiss's or round robin's table; else empty")
    placings: list[PlacingOut] = Field(description="a finished knockout's places; else empty")


# --- pages of a list -----------------------------------------------------------------------


class PageOf(Schema):
    count: int = Field(description="items in all pages")
    page: int = Field(description="this page's number, from 1")
    pages: int = Field(description="how many pages there are (at least 1)")
    next: str | None = Field(description="the next page's URL; null on the last")
    previous: str | None = Field(description="the previous page's URL; null on the first")


class TournamentPage(PageOf):
    items: list[TournamentOut] = Field(description="this page's tournaments")


class MatchPage(PageOf):
    items: list[MatchOut] = Field(description="this page's matches")


class PlayerPage(PageOf):
    items: list[PlayerOut] = Field(description="this page's players")


class RatingPage(PageOf):
    items: list[RatingChangeOut] = Field(description="this page's rating changes")
