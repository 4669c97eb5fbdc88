"""A table's log as the engine's events, and the engine replaying it: what the services
and the queries share. An engine refusal reaches the page in the visitor's language, with
the rule it enforces (the words of :mod:`club.words`, as for a match)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from club.words import sentence
from rules.chouette import Chouette, ChouetteReplayError, ChouetteSettings, replay
from rules.chouette import events as chouette_events
from rules.chouette.events import Event
from rules.errors import RulesError
from rules.messages import Message, Param

from .models import Table


def settings_of(table: Table) -> ChouetteSettings:
    """The settings the table was started with."""
    return ChouetteSettings.from_dict(table.settings)


def events_of(table: Table) -> list[Event]:
    """The log as the engine's events, in order."""
    return [
        chouette_events.from_dict(data)
        for data in table.events.order_by("seq").values_list("data", flat=True)
    ]


def player_names(table: Table) -> dict[str, str]:
    """Each seated player's name by the engine's id (``str(player.pk)``)."""
    return {
        str(player_id): name
        for player_id, name in table.seats.values_list("player_id", "player__name")
    }


def named(message: Message, names: Mapping[str, str]) -> Message:
    """The engine's message with the players it names by id (``player``) named as people
    read them: a parameter replaced by a parameter, never a sentence patched."""
    params: dict[str, Param] = {}
    for key, value in message.params.items():
        if isinstance(value, Message):
            params[key] = named(value, names)
        elif isinstance(value, tuple):
            params[key] = tuple(named(item, names) for item in value)
        elif key == "player" and isinstance(value, str):
            params[key] = names.get(value, value)
        else:
            params[key] = value
    return Message(message.key, params)


def refusal(error: RulesError, names: Mapping[str, str]) -> str:
    """The engine's refusal as the visitor reads it: players by name, the rule last."""
    return sentence(RulesError(named(error.message, names), rule=error.rule))


def replayed(table: Table, events: Iterable[Event]) -> Chouette:
    """The table's chouette after these events; a line the engine refuses is told in words,
    with its line number and the rule (it can only happen to a log a correction changed)."""
    try:
        return replay(settings_of(table), list(events))
    except ChouetteReplayError as error:
        raise ValidationError(
            _("Line %(seq)s of the log can no longer be played: %(reason)s")
            % {"seq": error.index + 1, "reason": refusal(error.error, player_names(table))}
        ) from error


def applied(table: Table, chouette: Chouette, event: Event) -> Chouette:
    """The chouette after one more event, or the engine's refusal in the visitor's
    language with the rule it enforces ("… (Galore 3.3).")."""
    try:
        return chouette.apply(event)
    except RulesError as error:
        raise ValidationError(refusal(error, player_names(table))) from error


def event_players(event: Event) -> set[str]:
    """The players an event names (``str(player.pk)``): in ``player``, ``member``,
    ``members`` and the opening's ``rolls``."""
    named: set[str] = set()
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if field.name in ("player", "member") and isinstance(value, str):
            named.add(value)
        elif field.name == "members":
            named.update(str(member) for member in value)
        elif field.name == "rolls":
            named.update(str(player) for player, _die in value)
    return named
