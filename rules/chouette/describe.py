"""What each event says in a session's log, as a message with parameters (never a sentence).

Player ids are the parameters, or their names when ``names`` maps ids to names (the site
passes its players' names).

>>> from .events import Answer
>>> str(describe(Answer("bob", "take")))
'bob takes'
>>> str(describe(Answer("7", "drop"), names={"7": "Ann"}))
'Ann drops'
"""

from __future__ import annotations

from collections.abc import Mapping

from ..messages import Message
from ..money import Level
from .events import (
    BEAVER,
    DROP,
    Answer,
    AutomaticDouble,
    Back,
    BoxAnswers,
    BoxDoubles,
    Deal,
    End,
    Event,
    ExtraAnswer,
    ExtraDouble,
    ExtraRedouble,
    Join,
    Leave,
    MemberDoubles,
    Opening,
    Partner,
    Raccoon,
    Rest,
    StartGame,
    UndoGame,
)

__all__ = ["describe"]

_LEVELS = {
    Level.SINGLE: "chouette-level-single",
    Level.GAMMON: "chouette-level-gammon",
    Level.BACKGAMMON: "chouette-level-backgammon",
}


def describe(event: Event, names: Mapping[str, str] | None = None) -> Message:
    """The log's line for ``event``."""

    def name(player: str) -> str:
        return names.get(player, player) if names else player

    def people(players: tuple[str, ...]) -> tuple[Message, ...]:
        return tuple(Message("chouette-player", {"player": name(p)}) for p in players)

    if isinstance(event, Opening):
        rolls = tuple(
            Message("chouette-log-roll", {"player": name(p), "die": die}) for p, die in event.rolls
        )
        return Message("chouette-log-opening", {"rolls": rolls})
    if isinstance(event, Join):
        return Message("chouette-log-join", {"player": name(event.player)})
    if isinstance(event, Leave):
        return Message("chouette-log-leave", {"player": name(event.player)})
    if isinstance(event, Rest):
        return Message("chouette-log-rest", {"player": name(event.player)})
    if isinstance(event, Back):
        return Message("chouette-log-back", {"player": name(event.player)})
    if isinstance(event, Partner):
        if event.player is None:
            return Message("chouette-log-no-partner")
        return Message("chouette-log-partner", {"player": name(event.player)})
    if isinstance(event, StartGame):
        return Message("chouette-log-start")
    if isinstance(event, AutomaticDouble):
        return Message("chouette-log-automatic")
    if isinstance(event, BoxDoubles):
        return Message("chouette-log-box-doubles", {"members": people(event.members)})
    if isinstance(event, Answer):
        key = {
            DROP: "chouette-log-drop",
            BEAVER: "chouette-log-beaver",
        }.get(event.answer, "chouette-log-take")
        return Message(key, {"player": name(event.member)})
    if isinstance(event, Raccoon):
        return Message("chouette-log-raccoon", {"player": name(event.member)})
    if isinstance(event, MemberDoubles):
        return Message("chouette-log-member-doubles", {"player": name(event.member)})
    if isinstance(event, BoxAnswers):
        key = {
            DROP: "chouette-log-box-drop",
            BEAVER: "chouette-log-box-beaver",
        }.get(event.answer, "chouette-log-box-take")
        return Message(key, {"player": name(event.member)})
    if isinstance(event, ExtraDouble):
        return Message("chouette-log-extra", {"player": name(event.member)})
    if isinstance(event, ExtraRedouble):
        key = "chouette-log-extra-taker" if event.by_taker else "chouette-log-extra-member"
        return Message(key, {"player": name(event.member)})
    if isinstance(event, ExtraAnswer):
        key = "chouette-log-extra-take" if event.take else "chouette-log-extra-drop"
        return Message(key, {"player": name(event.member)})
    if isinstance(event, Deal):
        return _deal(event, people(event.members))
    if isinstance(event, End):
        return _end(event)
    assert isinstance(event, UndoGame)
    return Message("chouette-log-undo")


def _deal(event: Deal, members: tuple[Message, ...]) -> Message:
    points = event.points
    if points > 0:
        deal = Message("chouette-log-deal-pay", {"members": members, "count": points})
    elif points < 0:
        deal = Message("chouette-log-deal-paid", {"members": members, "count": -points})
    else:
        deal = Message("chouette-log-deal-even", {"members": members})
    if event.box_wins is None:
        return deal
    key = "chouette-log-deal-box-wins" if event.box_wins else "chouette-log-deal-team-wins"
    return Message(key, {"deal": deal})


def _end(event: End) -> Message:
    level = Message(_LEVELS[event.level])
    if event.resigned:
        key = "chouette-log-end-team-resigns" if event.box_wins else "chouette-log-end-box-resigns"
    else:
        key = "chouette-log-end-box-wins" if event.box_wins else "chouette-log-end-team-wins"
    return Message(key, {"level": level})
