"""The document's shape, once: pydantic models, built by the export and read by the import.

A file is read with :meth:`Document.model_validate_json` (strict: a number is never read
from text, nor a flag from a number; times carry their time zone), and an export builds the
same models and dumps them, so what is written is what is read. What a document must satisfy
beyond its shape (the keys between its parts, the rules of the game) is :mod:`.checks`.

Each value that can be wrong says, in plain words, what it should be (:class:`Says`): a
refusal names the place in the file and those words (:mod:`.reading`), never pydantic's
own text. :func:`document_schema` is the shape as a JSON Schema, published beside the API's
OpenAPI (``/api/v1/transfer.schema.json``, ``docs/transfer.schema.json``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Final, Literal
from uuid import UUID

from django.db.models import Model
from django.utils.translation import gettext, gettext_noop
from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PlainSerializer,
    PrivateAttr,
    field_validator,
    model_serializer,
)
from pydantic_core import PydanticCustomError
from pydantic_core.core_schema import SerializerFunctionWrapHandler, ValidationInfo

from club.models import Player
from matches.models import CUBE_VALUES, BoardAction, BoardGame, Dispute, Game, Match, Penalty
from rules.game import Act, Action
from rules.text import one_line

from ..models import Arrival, Entry, Event, Place, Round, Tournament

FORMAT: Final = "crawford-tournament"
VERSION = 2  # 2: the tournament's identity ("uuid"); 1: without it, still read
MAX_BYTES = 20_000_000  # a 64-player tournament played wholly on the board is about 6 MB
SMALL = 32767  # PositiveSmallIntegerField
BIG = 2**63 - 1

# The models an audit entry of a tournament can be about, by the name the document gives them.
SUBJECTS: dict[str, type[Model]] = {
    "tournament": Tournament,
    "event": Event,
    "entry": Entry,
    "place": Place,
    "match": Match,
    "game": Game,
    "board_game": BoardGame,
    "dispute": Dispute,
    "player": Player,
    "penalty": Penalty,  # named by its match and its place among the match's penalties
    "arrival": Arrival,  # named by its match and the player who arrived
}


# --- what each value should be, in words ----------------------------------------------------


@dataclass(frozen=True)
class Says:
    """What a value should be, as a refusal says it: "… should be <words>"."""

    words: str  # marked for translation (gettext_noop), translated when a refusal is shown
    params: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        text = gettext(self.words)
        return text % dict(self.params) if self.params else text

    @classmethod
    def whole(cls, low: int, high: int) -> Says:
        return cls(
            gettext_noop("a whole number from %(low)s to %(high)s"), (("low", low), ("high", high))
        )

    @classmethod
    def text(cls, count: int) -> Says:
        return cls(gettext_noop("text of at most %(count)s characters"), (("count", count),))

    @classmethod
    def choice(cls, values: list[str]) -> Says:
        return cls(gettext_noop("one of %(choices)s"), (("choices", ", ".join(values)),))


FLAG = Says(gettext_noop("true or false"))
OBJECT = Says(gettext_noop("an object"))
LIST = Says(gettext_noop("a list"))
NOT_EMPTY = Says(gettext_noop("text that is not empty"))
COUNTRY = Says(gettext_noop("a country's two-letter code (IT, CH) or its name"))
DICE = Says(gettext_noop("two dice from 1 to 6, or nothing (null)"))
ROLLED = Says(gettext_noop("two dice from 1 to 6"))
NUL = Says(gettext_noop("text without NUL characters"))
FINITE = Says(gettext_noop("a finite number"))


def wrong(says: Says) -> PydanticCustomError:
    """A value pydantic read that a rule refuses: the refusal says ``says``."""
    return PydanticCustomError("wrong", "should be {says}", {"says": says})


# --- the values --------------------------------------------------------------------------------


def _not_blank(text: str) -> str:
    if not text.strip():
        raise wrong(NOT_EMPTY)
    return text


def _country(text: str) -> str:
    """A country's ISO 3166-1 alpha-2 code: files written before the site kept codes hold
    the name a club typed ("Italia", "Schweiz"), read as its code (club.countries)."""
    from club.countries import country_code

    code = country_code(one_line(text))
    if code is None:
        raise wrong(COUNTRY)
    return code


def _storable(value: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """Any JSON a database keeps: no NUL character (PostgreSQL refuses it), finite numbers."""
    found: list[Any] = [value]
    while found:
        item = found.pop()
        if isinstance(item, str) and "\x00" in item:
            raise wrong(NUL)
        if isinstance(item, float) and not math.isfinite(item):
            raise wrong(FINITE)
        if isinstance(item, dict):
            found += [*item, *item.values()]
        elif isinstance(item, list):
            found += item
    return value


def _utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat()


NO_NUL = r"^[^\x00]*$"
Key = Annotated[
    str, Field(max_length=40, pattern=NO_NUL), Says.text(40), AfterValidator(_not_blank)
]
Ref = Annotated[str, Field(max_length=40, pattern=NO_NUL), Says.text(40)]  # a key named
Name = Annotated[  # a name shown as one line, made one line as every service stores it
    str, Field(max_length=120, pattern=NO_NUL), Says.text(120), AfterValidator(one_line)
]
Code = Annotated[str, Field(max_length=40, pattern=NO_NUL), Says.text(40)]
Phone = Annotated[
    str, Field(max_length=40, pattern=NO_NUL), Says.text(40), AfterValidator(one_line)
]
Email = Annotated[
    str, Field(max_length=254, pattern=NO_NUL), Says.text(254), AfterValidator(one_line)
]
Account = Annotated[str, Field(max_length=150, pattern=NO_NUL), Says.text(150)]
UserName = Annotated[str | None, Field(max_length=150, pattern=NO_NUL), Says.text(150)]
Count = Annotated[int, Field(ge=1, le=SMALL), Says.whole(1, SMALL)]
Whole = Annotated[int, Field(ge=0, le=SMALL), Says.whole(0, SMALL)]
MaybeWhole = Annotated[int | None, Field(ge=0, le=SMALL), Says.whole(0, SMALL)]
MaybeCount = Annotated[int | None, Field(ge=1, le=SMALL), Says.whole(1, SMALL)]
Later = Annotated[int | None, Field(ge=2, le=SMALL), Says.whole(2, SMALL)]
Side = Annotated[int, Field(ge=0, le=1), Says.whole(0, 1)]  # 0: player A, 1: player B
MaybeSide = Annotated[int | None, Field(ge=0, le=1), Says.whole(0, 1)]
Resigned = Annotated[int | None, Field(ge=1, le=3), Says.whole(1, 3)]  # 1 single, 2, 3
Flag = Annotated[bool, FLAG]
Moment = Annotated[  # a date and time with its zone; written in UTC
    AwareDatetime, PlainSerializer(_utc), Says(gettext_noop("a date and time with its time zone"))
]
MaybeMoment = Annotated[
    AwareDatetime | None,
    PlainSerializer(lambda moment: None if moment is None else _utc(moment)),
    Says(gettext_noop("a date and time with its time zone")),
]
Day = Annotated[datetime.date, Says(gettext_noop("a date (YYYY-MM-DD)"))]
Score = Annotated[int, Field(ge=0, le=SMALL)]
Pair = Annotated[tuple[Score, Score] | None, Says(gettext_noop("two numbers, or nothing (null)"))]
Die = Annotated[int, Field(ge=1, le=6)]
Dice = Annotated[tuple[Die, Die] | None, DICE]
JsonObject = Annotated[dict[str, JsonValue], Field(), OBJECT, AfterValidator(_storable)]
MaybeJsonObject = Annotated[
    dict[str, JsonValue] | None,
    OBJECT,
    AfterValidator(lambda value: None if value is None else _storable(value)),
]


class Part(BaseModel):
    """A part of the document: read strictly; keys it does not know are left aside."""

    model_config = ConfigDict(strict=True, extra="ignore")


# --- the parts ---------------------------------------------------------------------------------


class PlayerPart(Part):
    """A player, embedded once, named elsewhere by its key (p1, p2, ...)."""

    key: Key
    name: Annotated[Name, AfterValidator(_not_blank)]
    club: Name
    country: Annotated[  # ISO 3166-1 alpha-2, "" when not known
        str, Field(max_length=60, pattern=NO_NUL), Says.text(60), AfterValidator(_country)
    ]
    email: Email
    phone: Phone
    _existing: Player | None = PrivateAttr(default=None)

    @property
    def existing(self) -> Player | None:
        """The player of this site it is, when there is one (the import's plan finds it)."""
        return self._existing

    @existing.setter
    def existing(self, player: Player | None) -> None:
        self._existing = player


class EntryPart(Part):
    player: Ref
    status: Annotated[Entry.Status, Says.choice(Entry.Status.values)]
    seed: MaybeCount
    pool: MaybeCount
    joined_round: Later = None  # a late arrival in a Swiss (files before it: none)


class ByePart(Part):
    round: Count
    player: Ref
    reason_code: Code
    reason_params: JsonObject


class RoundTimesPart(Part):
    """A round's call and clocks (issue 28), written for the rounds that have either."""

    number: Count
    starts_at: MaybeMoment = None
    clocks: Annotated[Round.Clocks, Says.choice(Round.Clocks.values)] = Round.Clocks.NONE


class EventPart(Part):
    key: Key
    name: Name  # empty: the site names it, in each reader's language
    format: Annotated[Event.Format, Says.choice(Event.Format.values)]
    seeding: Annotated[Event.Seeding, Says.choice(Event.Seeding.values)]
    swiss_rounds: MaybeCount
    cut: Later
    pools: MaybeCount
    holland: Flag = False  # files written before these settings: off
    third_place: Flag = False
    parent: Annotated[str | None, Field(max_length=40, pattern=NO_NUL), Says.text(40)]
    draw_seed: Annotated[int | None, Field(ge=-BIG - 1, le=BIG), Says.whole(-BIG - 1, BIG)]
    drawn_at: MaybeMoment
    rounds: list[Count]  # each round's match length
    round_times: list[RoundTimesPart] = []  # files before issue 28: no call, no clocks
    entries: list[EntryPart]
    byes: list[ByePart]
    _matches: list[MatchPart] = PrivateAttr(default_factory=list)

    @property
    def format_label(self) -> str:
        return str(Event.Format(self.format).label)

    @property
    def matches(self) -> list[MatchPart]:
        """Its matches (the document lists them apart; the import's plan gathers them)."""
        return self._matches


class GamePart(Part):
    number: Count
    winner: Side
    cube: Annotated[int, Field(ge=1, le=CUBE_VALUES[-1]), Says.whole(1, CUBE_VALUES[-1])]
    result: Annotated[Game.Result, Says.choice(Game.Result.values)]
    resigned: Resigned


class PenaltyPart(Part):
    """Penalty points (tournament rules): ``side`` is penalised, the opponent scores
    ``points`` before game ``before_game``; in the order they were given."""

    before_game: Count
    side: Side
    points: Count
    reason: Annotated[Penalty.Reason, Says.choice(Penalty.Reason.values)]
    note: Annotated[str, Field(max_length=300, pattern=NO_NUL), Says.text(300)] = ""
    minutes_late: MaybeWhole = None
    created_at: Moment
    created_by: UserName = None  # who gave them, as the exporting site named them


class ArrivalPart(Part):
    """A player of a called match arriving, as a director recorded it (issue 28)."""

    side: Side
    called_at: Moment
    arrived_at: Moment
    minutes_late: Whole
    points: Whole
    state: Annotated[Arrival.State, Says.choice(Arrival.State.values)]
    recorded_by: UserName = None
    decided_at: MaybeMoment = None
    decided_by: UserName = None


class ActionPart(Part):
    """One entry of a board game's log (what the board keeps of each action)."""

    act: Annotated[Act, Says.choice([a.value for a in Act])]
    player: Side
    dice: Dice
    play: Annotated[str, Field(max_length=120, pattern=NO_NUL), Says.text(120)]
    resignation: Resigned
    illegal: Annotated[str, Field(max_length=300, pattern=NO_NUL), Says.text(300)]
    at: Moment
    user: UserName  # who acted, as the exporting site named them: no account here

    @field_validator("dice")
    @classmethod
    def _rolled(cls, dice: tuple[int, int] | None, info: ValidationInfo) -> tuple[int, int] | None:
        if dice is None and info.data.get("act") is Act.ROLL:
            raise wrong(ROLLED)
        return dice

    def as_action(self) -> Action:
        return BoardAction(
            act=self.act.value,
            player=self.player,
            die1=self.dice[0] if self.dice else None,
            die2=self.dice[1] if self.dice else None,
            play=self.play,
            resignation=self.resignation,
            illegal=self.illegal,
        ).as_action()


class BoardGamePart(Part):
    number: Count
    started_at: Moment
    imported: Flag
    pending: Code  # checker moves made and not yet confirmed: "24:6 13:5"
    actions: list[ActionPart]


class DisputePart(Part):
    key: Key
    opened_at: Moment
    opened_by: UserName
    source: Annotated[Dispute.Source, Says.choice(Dispute.Source.values)]
    filename: Annotated[str, Field(max_length=200, pattern=NO_NUL), Says.text(200)]
    mat: Annotated[str, Field(max_length=2_000_000, pattern=NO_NUL), Says.text(2_000_000)]
    swapped: Flag
    sheet_a: Pair
    sheet_b: Pair
    decision: Annotated[Literal[""] | Dispute.Decision, Says.choice(["", *Dispute.Decision.values])]
    corrected: Annotated[int, Field(ge=0, le=SMALL), Says.whole(0, SMALL)]
    decided_at: MaybeMoment
    decided_by: UserName


class MatchPart(Part):
    key: Key
    event: Ref
    round: Count
    bracket_key: Annotated[str, Field(max_length=12, pattern=NO_NUL), Says.text(12)]
    reason_code: Code
    reason_params: JsonObject
    player_a: Ref
    player_b: Ref
    length: Count
    date: Day
    status: Annotated[Match.Status, Says.choice(Match.Status.values)]
    final_score: Pair
    walkover_winner: MaybeSide
    retired: MaybeSide = None  # the player who retired (a final score after games)
    forfeit: Annotated[  # a retirement that is a forfeit: on time, or by lateness
        Match.Forfeit, Says.choice(Match.Forfeit.values)
    ] = Match.Forfeit.NONE
    finished_at: MaybeMoment
    physical_dice: Flag
    holland: Flag = False
    games: list[GamePart]
    penalties: list[PenaltyPart] = []  # files before issue 28: none
    board_games: list[BoardGamePart]
    disputes: list[DisputePart]
    arrivals: list[ArrivalPart] = []
    _label: str = PrivateAttr(default="")
    _winner: int | None = PrivateAttr(default=None)

    @property
    def label(self) -> str:
        """The match as a refusal names it: "Main, round 2, Anna – Bruno"."""
        return self._label

    @label.setter
    def label(self, label: str) -> None:
        self._label = label

    @property
    def winner(self) -> int | None:
        """Its winner as the rules derive it (the checks find it)."""
        return self._winner

    @winner.setter
    def winner(self, side: int | None) -> None:
        self._winner = side


class SubjectPart(Part):
    """What an audit entry is about, by the document's keys (kind "match", match "m3");
    an object no longer there keeps its kind, and "gone" is true."""

    kind: Annotated[str, Field(max_length=120, pattern=NO_NUL), Says.text(120)]
    gone: Flag = False
    event: Ref | None = None
    player: Ref | None = None
    match: Ref | None = None
    dispute: Ref | None = None
    number: MaybeCount = None  # a game's or a board game's

    @model_serializer(mode="wrap")
    def _given(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Only the keys its kind names."""
        given: dict[str, Any] = handler(self)
        return {
            key: value for key, value in given.items() if value is not None and value is not False
        }


class AuditPart(Part):
    at: Moment
    code: Key
    params: JsonObject
    before: MaybeJsonObject
    after: MaybeJsonObject
    user: UserName  # who the file says acted (None: the site itself)
    user_name: Annotated[
        str, Field(max_length=150, pattern=NO_NUL), Says.text(150), AfterValidator(one_line)
    ]
    subject: SubjectPart
    match: Ref | None
    dispute: Ref | None
    tournament: Flag  # an entry of the tournament (else of a match, before it was placed)


class TournamentPartV1(Part):
    uuid: Annotated[UUID | None, Says(gettext_noop("a UUID (32 hexadecimal digits)"))] = None
    name: Annotated[Name, AfterValidator(_not_blank)]
    date: Day
    venue: Name
    physical_dice: Flag
    late_rounds: Annotated[  # files written before the setting: the default
        Tournament.LateRounds, Says.choice(Tournament.LateRounds.values)
    ] = Tournament.LateRounds.LOSS
    # time (issue 28); files written before these settings: the defaults
    late_minutes_per_point: Whole = 5
    late_grace_minutes: Whole = 0
    late_forfeit_at_half: Flag = True
    clock_seconds_per_point: Count = 120
    clock_delay_seconds: Whole = 12
    clock_on_flag: Annotated[Tournament.OnFlag, Says.choice(Tournament.OnFlag.values)] = (
        Tournament.OnFlag.MATCH
    )
    directors: list[Account]  # user names: no account of this site because a file says so


class TournamentPart(TournamentPartV1):
    uuid: Annotated[UUID, Says(gettext_noop("a UUID (32 hexadecimal digits)"))]  # its identity


class Header(Part):
    """What every version of the document begins with."""

    format: Literal["crawford-tournament"]
    version: Annotated[int, Field(ge=1)]


class DocumentV1(Header):
    """A version 1 document: the tournament without its identity."""

    tournament: TournamentPartV1
    players: list[PlayerPart]
    events: list[EventPart]
    matches: list[MatchPart]
    audit: list[AuditPart]


class Document(DocumentV1):
    """A whole tournament, as a Crawford site exports it (format version 2)."""

    model_config = ConfigDict(title="Crawford tournament")

    version: Literal[2]
    tournament: TournamentPart


def document_schema() -> dict[str, Any]:
    """The document's JSON Schema (2020-12), from the models."""
    schema = Document.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


@cache
def document_schema_text() -> str:
    """The schema as it is served and committed (``docs/transfer.schema.json``)."""
    return json.dumps(document_schema(), ensure_ascii=False, indent=2) + "\n"


def document_schema_tag() -> str:
    """A tag of the schema's text, for its ETag: it changes when the models do."""
    return hashlib.sha256(document_schema_text().encode()).hexdigest()[:32]
