"""What a table's page shows of the engine: a button for each event it allows now (with
whose decision it is, for each phone's own panel), each member's cube, the order's roles,
and the engine's messages with the players named. Plain reading, no request: the views
(:mod:`money.views_table`) put it on the page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from club.words import say
from rules.chouette import Chouette, describe
from rules.chouette import events as ev
from rules.chouette.settings import CubeMode
from rules.messages import Message


def euros(cents: int) -> Decimal:
    """Cents as the amount a page shows (the template localises it: "1,50" in Italian)."""
    return Decimal(cents) / 100


def role_labels() -> dict[str, str]:
    """The order's roles in the seed's words (box, capitano, squadra)."""
    return {
        "box": _("Box"),
        "partner": _("Partner"),
        "captain": _("Captain"),
        "team": _("Team"),
        "resting": _("Resting"),
        "waiting": _("Seated"),
    }


@dataclass
class Button:
    """One tap: the event it sends (as JSON), what it says, and whose move it is."""

    event: str
    label: str
    actor: str | None  # a player id, or None: anyone at the table
    kind: str  # the event's kind, for the page's colours ("take", "drop", "double"...)


@dataclass
class Group:
    """The buttons of one person (or of the table), for their phone's panel."""

    key: str
    title: str
    mine: bool
    buttons: list[Button] = field(default_factory=list)


@dataclass
class CubeRow:
    member: str
    name: str
    value: int
    where: str  # in the centre, the box's, the member's
    offer: str  # "" or what waits: "the box doubles to 4", "Anna doubles to 4"
    waiting: bool  # an offer on this cube waits for its answer
    mine: bool


class Names(dict[str, str]):
    """Player ids (as the engine has them) to names; an unknown id stays as it is."""

    def of(self, pid: str | None) -> str:
        return self.get(pid or "", pid or "")


def said(message: Message, names: Names) -> str:
    """An engine message in the visitor's words, players named rather than numbered (the
    log keeps ids: a name may be corrected later, the log stays true)."""
    return say(named(message, names))


def named(value: Any, names: Names) -> Any:
    """``value`` with every player id inside it (nested messages, lists) a name."""
    if isinstance(value, Message):
        return Message(value.key, {key: named(param, names) for key, param in value.params.items()})
    if isinstance(value, (tuple, list)):
        return type(value)(named(item, names) for item in value)
    if isinstance(value, str) and value in names:
        return names[value]
    return value


def actor_of(event: ev.Event, chouette: Chouette) -> str | None:
    """Whose decision an event is: the box's, a member's, or nobody's in particular."""
    box = chouette.lineup.box if chouette.lineup is not None else None
    if isinstance(event, (ev.BoxDoubles, ev.BoxAnswers, ev.Raccoon)):
        return box
    if isinstance(event, (ev.Answer, ev.MemberDoubles, ev.ExtraDouble)):
        return event.member
    return None


def button_label(event: ev.Event, chouette: Chouette, names: Names) -> str:
    """What a button says, in the visitor's language, with names."""
    box = names.of(chouette.lineup.box) if chouette.lineup is not None else ""
    if isinstance(event, ev.StartGame):
        return _("Start the game")
    if isinstance(event, ev.AutomaticDouble):
        return _("Equal opening dice: the cube goes up")
    if isinstance(event, ev.BoxDoubles):
        if chouette.settings.cubes is CubeMode.SINGLE or len(event.members) != 1:
            return _("%(box)s (box) doubles") % {"box": box}
        return _("%(box)s doubles %(name)s") % {"box": box, "name": names.of(event.members[0])}
    if isinstance(event, ev.Answer):
        name = names.of(event.member)
        return {
            "take": _("%(name)s takes"),
            "drop": _("%(name)s drops"),
            "beaver": _("%(name)s beavers"),
        }.get(event.answer, "%(name)s") % {"name": name}
    if isinstance(event, ev.Raccoon):
        return _("%(box)s raccoons %(name)s") % {"box": box, "name": names.of(event.member)}
    if isinstance(event, ev.MemberDoubles):
        return _("%(name)s doubles the box") % {"name": names.of(event.member)}
    if isinstance(event, ev.BoxAnswers):
        words = {
            "take": _("%(box)s takes %(name)s's double"),
            "drop": _("%(box)s drops %(name)s's double"),
            "beaver": _("%(box)s beavers %(name)s's double"),
        }
        return words.get(event.answer, "%(box)s") % {"box": box, "name": names.of(event.member)}
    if isinstance(event, ev.Partner):
        if event.player is None:
            return _("No partner this game")
        return _("%(name)s partners the box") % {"name": names.of(event.player)}
    if isinstance(event, ev.Leave):
        return _("%(name)s leaves the table") % {"name": names.of(event.player)}
    if isinstance(event, ev.Rest):
        return _("%(name)s takes a break") % {"name": names.of(event.player)}
    if isinstance(event, ev.Back):
        return _("%(name)s is back") % {"name": names.of(event.player)}
    if isinstance(event, ev.UndoGame):
        return _("Undo the last game")
    return said(ev_describe(event), names)


def ev_describe(event: ev.Event) -> Message:
    return describe(event)


def button_kind(event: ev.Event) -> str:
    answer = getattr(event, "answer", None)
    if isinstance(answer, str):
        return answer
    if isinstance(event, (ev.BoxDoubles, ev.MemberDoubles, ev.AutomaticDouble, ev.Raccoon)):
        return "double"
    return "other"


# events that change who sits where: on the lineup's panel, not among the cube's taps
SEATING = (ev.Leave, ev.Rest, ev.Back)


def button_groups(
    chouette: Chouette, names: Names, me: str | None
) -> tuple[list[Group], list[Button], list[str]]:
    """The allowed taps: grouped by who decides (the visitor's own first), the seating
    taps apart, and (multiple cubes) the members the box may double, for its form."""
    groups: dict[str, Group] = {}
    seating: list[Button] = []
    box_may_double: list[str] = []
    box = chouette.lineup.box if chouette.lineup is not None else None
    for event in chouette.allowed():
        if isinstance(event, (ev.UndoGame, ev.Join, ev.Deal, ev.End, ev.Opening)):
            continue  # each has its own form
        if (
            isinstance(event, ev.BoxDoubles)
            and chouette.settings.cubes is CubeMode.MULTIPLE
            and len(event.members) != 1
        ):
            for member in event.members:
                if member not in box_may_double:
                    box_may_double.append(member)
            continue  # several cubes at once: the box's checkboxes
        button = Button(
            event=json.dumps(event.to_dict(), sort_keys=True),
            label=button_label(event, chouette, names),
            actor=actor_of(event, chouette),
            kind=button_kind(event),
        )
        if isinstance(event, SEATING):
            seating.append(button)
            continue
        key = button.actor or "table"
        if key not in groups:
            if key == "table":
                title = _("The table")
            elif key == box:
                title = _("%(name)s, box") % {"name": names.of(key)}
            else:
                title = names.of(key)
            groups[key] = Group(key=key, title=title, mine=key == me)
        groups[key].buttons.append(button)
    ordered = sorted(groups.values(), key=lambda g: (not g.mine, g.key != box, g.key == "table"))
    return ordered, seating, box_may_double


def cube_rows(chouette: Chouette, names: Names, me: str | None) -> list[CubeRow]:
    """Each member's cube as the box sees them all at once (one cube: the same for all)."""
    game = chouette.game
    if game is None:
        return []
    where = {"box": _("the box's"), "member": _("the member's"), None: _("in the centre")}
    rows = []
    for member in game.playing:
        cube = game.cubes.get(member)
        if cube is None:
            continue
        name = names.of(member)
        offer = ""
        if cube.offered_by == "box":
            offer = _("the box doubles to %(cube)s: %(name)s answers") % {
                "cube": cube.value * 2,
                "name": name,
            }
        elif cube.offered_by is not None:
            offer = _("%(name)s doubles to %(cube)s: the box answers") % {
                "cube": cube.value * 2,
                "name": name,
            }
        rows.append(
            CubeRow(
                member=member,
                name=name,
                value=cube.value,
                where=where.get(cube.owner, str(cube.owner)),
                offer=offer,
                waiting=cube.offered_by is not None,
                mine=member == me,
            )
        )
    return rows
