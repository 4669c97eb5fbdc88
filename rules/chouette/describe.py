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
from ..position import Variation
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
from .settings import BoxKeeping, ChouetteSettings, Consultation, CubeMode

__all__ = ["describe", "describe_settings"]


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
        word = event.answer
        return Message(
            "chouette-log-drop"
            if word == DROP
            else "chouette-log-beaver"
            if word == BEAVER
            else "chouette-log-take",
            {"player": name(event.member)},
        )
    if isinstance(event, Raccoon):
        return Message("chouette-log-raccoon", {"player": name(event.member)})
    if isinstance(event, MemberDoubles):
        return Message("chouette-log-member-doubles", {"player": name(event.member)})
    if isinstance(event, BoxAnswers):
        word = event.answer
        return Message(
            "chouette-log-box-drop"
            if word == DROP
            else "chouette-log-box-beaver"
            if word == BEAVER
            else "chouette-log-box-take",
            {"player": name(event.member)},
        )
    if isinstance(event, ExtraDouble):
        return Message("chouette-log-extra", {"player": name(event.member)})
    if isinstance(event, ExtraRedouble):
        return Message(
            "chouette-log-extra-taker" if event.by_taker else "chouette-log-extra-member",
            {"player": name(event.member)},
        )
    if isinstance(event, ExtraAnswer):
        return Message(
            "chouette-log-extra-take" if event.take else "chouette-log-extra-drop",
            {"player": name(event.member)},
        )
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
    return Message(
        "chouette-log-deal-box-wins" if event.box_wins else "chouette-log-deal-team-wins",
        {"deal": deal},
    )


def _end(event: End) -> Message:
    level = Message(
        {
            Level.SINGLE: "chouette-level-single",
            Level.GAMMON: "chouette-level-gammon",
            Level.BACKGAMMON: "chouette-level-backgammon",
        }[event.level]
    )
    if event.resigned:
        return Message(
            "chouette-log-end-team-resigns" if event.box_wins else "chouette-log-end-box-resigns",
            {"level": level},
        )
    return Message(
        "chouette-log-end-box-wins" if event.box_wins else "chouette-log-end-team-wins",
        {"level": level},
    )


def describe_settings(settings: ChouetteSettings) -> tuple[Message, ...]:
    """What the table agreed, one line each, for everyone to see (Galore 3.2: consultation
    is shown, not enforced)."""
    lines = [
        Message(
            "chouette-setting-single"
            if settings.cubes is CubeMode.SINGLE
            else "chouette-setting-multiple"
        ),
        Message(
            {
                Consultation.FREE: "chouette-setting-consultation-free",
                Consultation.FORBIDDEN: "chouette-setting-consultation-forbidden",
                Consultation.AFTER_CUBE: "chouette-setting-consultation-after-cube",
            }[settings.consultation]
        ),
        Message(
            "chouette-setting-box-captain"
            if settings.box_keeping is BoxKeeping.CAPTAIN
            else "chouette-setting-box-net"
        ),
    ]
    if settings.winners_move_up:
        lines.append(Message("chouette-setting-winners-move-up"))
    if settings.last_must_drop and settings.cubes is CubeMode.SINGLE:
        lines.append(Message("chouette-setting-last-must-drop"))
    if settings.extra_cubes:
        lines.append(Message("chouette-setting-extra-cubes"))
    if settings.partner_from is None:
        lines.append(Message("chouette-setting-no-partner"))
    else:
        lines.append(Message("chouette-setting-partner", {"count": settings.partner_from}))
    money = settings.money
    if money.jacoby:
        lines.append(Message("chouette-setting-jacoby"))
    if money.beavers:
        lines.append(Message("chouette-setting-beavers"))
    if money.raccoons:
        lines.append(Message("chouette-setting-raccoons"))
    if money.automatic_doubles:
        lines.append(Message("chouette-setting-automatic", {"count": money.automatic_doubles}))
    if money.max_cube is not None:
        lines.append(Message("chouette-setting-max-cube", {"cube": money.max_cube}))
    if money.variation is Variation.NACKGAMMON:
        lines.append(Message("chouette-setting-nackgammon"))
    return tuple(lines)
