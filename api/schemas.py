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

Side = Literal["a", "b"]
MatchStatus = Literal["scheduled", "in_play", "finished", "walkover"]
GameResult = Literal["single", "gammon", "backgammon", "drop", "resignation"]
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


class Error(Schema):
    """A refusal: ``code`` is stable, ``detail`` says it in plain English."""

    code: str = Field(description="not_found, throttled or method_not_allowed")
    detail: str


class PlayerRef(Schema):
    id: int
    name: str


class Score(Schema):
    a: int = Field(description="player a's points")
    b: int = Field(description="player b's points")


# --- players -------------------------------------------------------------------------------


class PlayerOut(Schema):
    """A player: never their email or phone."""

    id: int
    name: str
    club: str
    country: str
    rating: float = Field(description="FIBS rating, two decimals, as a JSON number")
    experience: int = Field(description="match points played (FIBS experience)")


class PlayerDetail(PlayerOut):
    matches_won: int
    matches_lost: int


class RatingChangeOut(Schema):
    order: int = Field(description="the match's place in the site's history of rated matches")
    match: int = Field(description="the match's id")
    date: datetime.date = Field(description="the match's date")
    finished_at: datetime.datetime | None
    opponent: PlayerRef
    won: bool
    rating_before: float
    rating_after: float
    change: float
    experience_after: int
    tournament: int | None


# --- matches -------------------------------------------------------------------------------


class GameOut(Schema):
    """One game of the score sheet; the score, Crawford and post-Crawford are derived by the
    rules engine from the games before it (WBF 24), never stored."""

    number: int
    winner: Side
    cube: int
    result: GameResult
    resigned: int | None = Field(description="for a resignation: 1 single, 2 gammon, 3 backgammon")
    points: int = Field(description="added to the winner's score, after the match length's cap")
    crawford: bool = Field(description="this is the Crawford game (no doubling)")
    post_crawford: bool
    score_before: Score
    score_after: Score


class MatchOut(Schema):
    id: int
    player_a: PlayerRef
    player_b: PlayerRef
    length: int
    date: datetime.date
    status: MatchStatus
    score: Score = Field(description="the games' running total, or the recorded final score")
    winner: Side | None
    retired: Side | None = Field(description="the player who retired from the match")
    crawford_game: int | None = Field(description="the number of the Crawford game, once known")
    finished_at: datetime.datetime | None
    tournament: int | None
    event: int | None
    round: int | None = Field(
        description="the round's number, in the order of play (a double elimination's final "
        "comes after every other round)"
    )
    round_stage: RoundStage | None = Field(description=ROUND_STAGE + "; null outside a tournament")
    bracket_key: str = Field(description="the match's place in a knockout, e.g. M1-3; or empty")
    table: int | None = Field(description="the table it is played at, while seated")


class MatchDetail(MatchOut):
    holland: bool = Field(description="the Holland rule applies post-Crawford")
    games: list[GameOut] = Field(description="empty when only a final score was recorded")


# --- tournaments, events, rounds, standings ------------------------------------------------


class EventRef(Schema):
    id: int
    name: str
    format: EventFormat


class TournamentOut(Schema):
    id: int
    name: str
    date: datetime.date
    venue: str
    event_count: int


class TournamentDetail(TournamentOut):
    events: list[EventRef]


class RoundLength(Schema):
    number: int
    length: int = Field(description="the match length of this round (the last holds for later)")


class EntryOut(Schema):
    player: PlayerRef
    status: EntryStatus
    seed: int | None
    pool: str = Field(description="round robin pool letter, A, B, …; or empty")
    joined_round: int | None


class Progress(Schema):
    stage: Stage
    round: int | None
    round_stage: RoundStage | None = Field(description=ROUND_STAGE + "; null when no round is")
    champion: PlayerRef | None


class EventDetail(Schema):
    id: int
    tournament: int
    name: str
    format: EventFormat
    seeding: Seeding
    holland: bool
    third_place: bool
    swiss_rounds: int | None
    pools: int | None
    cut: int | None
    parent: int | None = Field(description="the Swiss this knockout was cut from")
    drawn_at: datetime.datetime | None
    draw_seed: int | None = Field(description="a random draw's published seed")
    lengths: list[RoundLength]
    entries: list[EntryOut]
    progress: Progress


class ByeOut(Schema):
    player: PlayerRef
    reason: str = Field(description="the pairing's reason code; may be empty")


class RoundOut(Schema):
    event: int
    number: int
    stage: RoundStage = Field(description=ROUND_STAGE)
    length: int
    matches: list[MatchOut]
    byes: list[ByeOut] = Field(description="a Swiss round's bye: a win without a match")
    resting: list[PlayerRef] = Field(description="round robin players without a match")


class StandingOut(Schema):
    rank: int
    player: PlayerRef
    pool: str
    played: int
    wins: int
    losses: int
    byes: int
    buchholz: int
    median: int
    head_to_head: int
    points_for: int
    points_against: int
    difference: int
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
    draw: Literal["main", "consolation"]
    first: int
    last: int
    players: list[PlayerRef]


class StandingsOut(Schema):
    """A Swiss or round robin: ``table`` (Swiss: wins, Buchholz, median; round robin: wins,
    then among players level on wins head-to-head wins, the points difference in the matches
    among them, the overall points difference, the points scored, applied again among any
    still level; pool by pool). A knockout: ``placings`` once the champion is known (places
    shared by those out in the same round)."""

    event: int
    format: EventFormat
    table: list[StandingOut]
    placings: list[PlacingOut]


# --- pages of a list -----------------------------------------------------------------------


class PageOf(Schema):
    count: int = Field(description="items in all pages")
    page: int
    pages: int
    next: str | None = Field(description="the next page's URL; null on the last")
    previous: str | None


class TournamentPage(PageOf):
    items: list[TournamentOut]


class MatchPage(PageOf):
    items: list[MatchOut]


class PlayerPage(PageOf):
    items: list[PlayerOut]


class RatingPage(PageOf):
    items: list[RatingChangeOut]
