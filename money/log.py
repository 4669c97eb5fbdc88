"""A table's log as the engine's events, and the engine replaying it: what the services
and the queries share. An engine refusal reaches the page in the visitor's language, with
the rule it enforces (the words of :mod:`club.words`, as for a match)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from club.words import sentence
from rules.chouette import Chouette, ChouetteReplayError, ChouetteSettings, replay
from rules.chouette import events as chouette_events
from rules.chouette.events import Event
from rules.errors import RulesError

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


def replayed(table: Table, events: Iterable[Event]) -> Chouette:
    """The table's chouette after these events; a line the engine refuses is told in words,
    with its line number and the rule (it can only happen to a log a correction changed)."""
    try:
        return replay(settings_of(table), list(events))
    except ChouetteReplayError as error:
        raise ValidationError(
            _("Line %(seq)s of the log can no longer be played: %(reason)s")
            % {"seq": error.index + 1, "reason": sentence(error.error)}
        ) from error


def applied(chouette: Chouette, event: Event) -> Chouette:
    """The chouette after one more event, or the engine's refusal in the visitor's
    language with the rule it enforces ("… (Galore 3.3).")."""
    try:
        return chouette.apply(event)
    except RulesError as error:
        raise ValidationError(sentence(error)) from error


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
