"""What happens at a chouette's table, one frozen value per action, as JSON-safe data.

The site stores each event's :meth:`to_dict` in order and rebuilds the session by
replaying them (:func:`rules.chouette.replay`); :func:`from_dict` reads one back.

>>> event = BoxDoubles(members=("bob", "cy"))
>>> event.to_dict()
{'kind': 'box-doubles', 'members': ['bob', 'cy']}
>>> from_dict(event.to_dict()) == event
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import ClassVar, TypeAlias

from ..errors import RulesError
from ..messages import Message
from ..money import Level

__all__ = [
    "Answer",
    "AutomaticDouble",
    "Back",
    "BoxAnswers",
    "BoxDoubles",
    "Deal",
    "End",
    "Event",
    "ExtraAnswer",
    "ExtraDouble",
    "ExtraRedouble",
    "Join",
    "Leave",
    "MemberDoubles",
    "Opening",
    "Partner",
    "Raccoon",
    "Rest",
    "StartGame",
    "UndoGame",
    "from_dict",
]

TAKE, DROP, BEAVER = "take", "drop", "beaver"
ANSWERS = (TAKE, DROP, BEAVER)


class _Event:
    """What every event shares: its kind and its plain-data form."""

    __slots__ = ()
    kind: ClassVar[str]

    def to_dict(self) -> dict[str, object]:
        """``{"kind": ..., **fields}``, with tuples as lists and a level as its name."""
        data: dict[str, object] = {"kind": self.kind}
        for item in fields(self):  # type: ignore[arg-type]
            data[item.name] = _plain(getattr(self, item.name))
        return data


def _plain(value: object) -> object:
    if isinstance(value, Level):
        return value.name.lower()
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


@dataclass(frozen=True, slots=True)
class Opening(_Event):
    """The first event of a chouette: each player's die of the opening roll (Galore 3.1)."""

    kind: ClassVar[str] = "opening"
    rolls: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Join(_Event):
    """A newcomer joins at the bottom (Galore 3.1)."""

    kind: ClassVar[str] = "join"
    player: str


@dataclass(frozen=True, slots=True)
class Leave(_Event):
    """A player leaves the table (Galore 3.1); their results stay in the totals."""

    kind: ClassVar[str] = "leave"
    player: str


@dataclass(frozen=True, slots=True)
class Rest(_Event):
    """A player takes a break (club practice)."""

    kind: ClassVar[str] = "rest"
    player: str


@dataclass(frozen=True, slots=True)
class Back(_Event):
    """A player is back from a break, at the bottom (club practice)."""

    kind: ClassVar[str] = "back"
    player: str


@dataclass(frozen=True, slots=True)
class Partner(_Event):
    """The box's partner for the next game (Galore 3.6); None: no partner."""

    kind: ClassVar[str] = "partner"
    player: str | None


@dataclass(frozen=True, slots=True)
class StartGame(_Event):
    """A game begins with the current lineup."""

    kind: ClassVar[str] = "start-game"


@dataclass(frozen=True, slots=True)
class AutomaticDouble(_Event):
    """Equal opening dice: every cube doubled, owned by nobody (Galore 2.8)."""

    kind: ClassVar[str] = "automatic-double"


@dataclass(frozen=True, slots=True)
class BoxDoubles(_Event):
    """The box doubles these members (single cube: every member still in; Galore 3.3, 3.5)."""

    kind: ClassVar[str] = "box-doubles"
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Answer(_Event):
    """A member answers the box's double (or the box's beaver): take, drop or beaver."""

    kind: ClassVar[str] = "answer"
    member: str
    answer: str


@dataclass(frozen=True, slots=True)
class Raccoon(_Event):
    """The original doubler turns a beavered cube again at once (Galore 5.4)."""

    kind: ClassVar[str] = "raccoon"
    member: str


@dataclass(frozen=True, slots=True)
class MemberDoubles(_Event):
    """A member doubles the box: their own cube (3.5), or the team's by the acting captain."""

    kind: ClassVar[str] = "member-doubles"
    member: str


@dataclass(frozen=True, slots=True)
class BoxAnswers(_Event):
    """The box answers a member's double (or a member's beaver): take, drop or beaver."""

    kind: ClassVar[str] = "box-answers"
    member: str
    answer: str


@dataclass(frozen=True, slots=True)
class ExtraDouble(_Event):
    """A member who dropped gives the lone taker an extra 2-cube, taken (Galore 3.4)."""

    kind: ClassVar[str] = "extra-double"
    member: str


@dataclass(frozen=True, slots=True)
class ExtraRedouble(_Event):
    """The extra cube between ``member`` and the lone taker turned again, by either."""

    kind: ClassVar[str] = "extra-redouble"
    member: str
    by_taker: bool


@dataclass(frozen=True, slots=True)
class ExtraAnswer(_Event):
    """The answer to an extra cube's redouble."""

    kind: ClassVar[str] = "extra-answer"
    member: str
    take: bool


@dataclass(frozen=True, slots=True)
class Deal(_Event):
    """The box and these members settle now at ``points`` each (club practice).

    Above 0 the members pay the box, below 0 the box pays them; they leave the game. With
    the acting captain among them, ``box_wins`` says who won the game for the rotation.
    """

    kind: ClassVar[str] = "deal"
    members: tuple[str, ...]
    points: int
    box_wins: bool | None = None


@dataclass(frozen=True, slots=True)
class End(_Event):
    """The board's result for everyone still in; the rotation (Galore 3.1) follows."""

    kind: ClassVar[str] = "end"
    box_wins: bool
    level: Level
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class UndoGame(_Event):
    """Drop the last game, finished or not, whole."""

    kind: ClassVar[str] = "undo-game"


Event: TypeAlias = (
    Opening
    | Join
    | Leave
    | Rest
    | Back
    | Partner
    | StartGame
    | AutomaticDouble
    | BoxDoubles
    | Answer
    | Raccoon
    | MemberDoubles
    | BoxAnswers
    | ExtraDouble
    | ExtraRedouble
    | ExtraAnswer
    | Deal
    | End
    | UndoGame
)

KINDS: Mapping[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        Opening,
        Join,
        Leave,
        Rest,
        Back,
        Partner,
        StartGame,
        AutomaticDouble,
        BoxDoubles,
        Answer,
        Raccoon,
        MemberDoubles,
        BoxAnswers,
        ExtraDouble,
        ExtraRedouble,
        ExtraAnswer,
        Deal,
        End,
        UndoGame,
    )
}


def from_dict(data: Mapping[str, object]) -> Event:
    """The event :meth:`to_dict` gave (after a trip through JSON, too)."""
    try:
        if not isinstance(data, Mapping):
            raise TypeError(data)
        return _read(data)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(Message("chouette-event-data", {"data": repr(data)[:200]})) from None


def _read(data: Mapping[str, object]) -> Event:
    kind = data["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(kind)
    names = {item.name for item in fields(KINDS[kind])}
    if set(data) - names - {"kind"}:
        raise ValueError("unknown fields")
    if kind == "opening":
        rolls = _list(data["rolls"])
        pairs: list[tuple[str, int]] = []
        for pair in rolls:
            player, die = _list(pair)
            pairs.append((_text(player), _whole(die)))
        return Opening(rolls=tuple(pairs))
    if kind in ("join", "leave", "rest", "back"):
        player = _text(data["player"])
        if kind == "join":
            return Join(player)
        if kind == "leave":
            return Leave(player)
        return Rest(player) if kind == "rest" else Back(player)
    if kind == "partner":
        player = data.get("player")
        return Partner(None if player is None else _text(player))
    if kind == "start-game":
        return StartGame()
    if kind == "automatic-double":
        return AutomaticDouble()
    if kind == "undo-game":
        return UndoGame()
    if kind == "box-doubles":
        return BoxDoubles(tuple(_text(m) for m in _list(data["members"])))
    if kind in ("answer", "box-answers"):
        answer_type = Answer if kind == "answer" else BoxAnswers
        return answer_type(_text(data["member"]), _text(data["answer"]))
    if kind in ("raccoon", "member-doubles", "extra-double"):
        member = _text(data["member"])
        if kind == "raccoon":
            return Raccoon(member)
        return MemberDoubles(member) if kind == "member-doubles" else ExtraDouble(member)
    if kind == "extra-redouble":
        return ExtraRedouble(_text(data["member"]), _flag(data["by_taker"]))
    if kind == "extra-answer":
        return ExtraAnswer(_text(data["member"]), _flag(data["take"]))
    if kind == "deal":
        box_wins = data.get("box_wins")
        return Deal(
            tuple(_text(m) for m in _list(data["members"])),
            _whole(data["points"]),
            None if box_wins is None else _flag(box_wins),
        )
    level = data["level"]
    if not isinstance(level, str):
        raise TypeError("level")
    return End(_flag(data["box_wins"]), Level[level.upper()], _flag(data.get("resigned", False)))


def _list(value: object) -> list[object]:
    if not isinstance(value, list | tuple):
        raise TypeError(value)
    return list(value)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(value)
    return value
