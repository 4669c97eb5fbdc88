"""Reading players: what pages and forms ask of the club's register."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import Field, Q, QuerySet

from .countries import country_code
from .csvimport import COLUMNS, Row
from .models import Player


def player_namesakes(*, name: str, exclude: int | None = None) -> QuerySet[Player]:
    """Players registered under the same name (case and spacing aside): maybe the same person."""
    found = Player.objects.filter(name__iexact=" ".join(name.split()))
    return found.exclude(pk=exclude) if exclude is not None else found


def players_namesakes(*, players: Iterable[Player]) -> dict[int, list[Player]]:
    """For each player (by id), the others registered under the same name, as
    :func:`player_namesakes` finds them, in one query: the same person twice, or someone
    passing for another, told apart by club and id."""
    players = list(players)
    names = {" ".join(p.name.split()) for p in players}
    if not names:
        return {}
    same_name = Q()
    for name in names:
        same_name |= Q(name__iexact=name)
    found = list(Player.objects.filter(same_name).order_by("sort_name", "name", "id"))

    def key(name: str) -> str:
        return " ".join(name.split()).casefold()

    return {
        p.pk: [o for o in found if o.pk != p.pk and key(o.name) == key(p.name)] for p in players
    }


class ImportStatus(StrEnum):
    """What the import does with a row of a players' file."""

    NEW = "new"  # registered
    NAMESAKE = "namesake"  # registered, though a player of that name is in another club
    REGISTERED = "registered"  # left out: already registered, same name and club
    REPEATED = "repeated"  # left out: an earlier row of the file is the same player
    REFUSED = "refused"  # left out: the row cannot be a player (``problem`` says why)

    @property
    def creates(self) -> bool:
        return self in (ImportStatus.NEW, ImportStatus.NAMESAKE)


@dataclass(frozen=True)
class ImportLine:
    row: Row
    status: ImportStatus
    problem: str = ""  # refused: "no-name", "bad-email", "bad-country", "too-long" (field, limit)
    params: dict[str, Any] = field(default_factory=dict)
    namesakes: tuple[Player, ...] = ()  # namesake, registered: the players already there


def _same(text: str) -> str:
    """Names and clubs compared as a person reads them: case and spacing aside."""
    return " ".join(text.split()).casefold()


def _problem(row: Row) -> tuple[str, dict[str, Any]] | None:
    if not row.name:
        return "no-name", {}
    if country_code(row.country) is None:  # a name in en/it/de/fr or a code: the code kept
        return "bad-country", {"country": row.country}
    for column in COLUMNS:
        if column == "country":
            continue
        found = Player._meta.get_field(column)  # a text field, each with a max_length
        limit = found.max_length if isinstance(found, Field) else None
        if limit is not None and len(getattr(row, column)) > limit:
            return "too-long", {"field": column, "limit": limit}
    if row.email:
        try:
            validate_email(row.email)
        except ValidationError:
            return "bad-email", {"email": row.email}
    return None


def players_import_preview(rows: Iterable[Row]) -> list[ImportLine]:
    """What importing these rows would do, row by row, against the register as it is now.

    One query, however many rows: the register's names and clubs are read once.
    """
    rows = list(rows)
    wanted = {_same(row.name) for row in rows if row.name}
    by_name: dict[str, list[Player]] = defaultdict(list)
    if wanted:
        for player in Player.objects.only("id", "name", "club").order_by("pk"):
            key = _same(player.name)
            if key in wanted:
                by_name[key].append(player)
    seen: set[tuple[str, str]] = set()
    in_file: dict[str, list[Row]] = defaultdict(list)
    lines = []
    for row in rows:
        problem = _problem(row)
        if problem is not None:
            lines.append(ImportLine(row, ImportStatus.REFUSED, problem[0], problem[1]))
            continue
        name, club = _same(row.name), _same(row.club)
        registered = tuple(by_name.get(name, ()))
        same_club = tuple(p for p in registered if _same(p.club) == club)
        if same_club:
            lines.append(ImportLine(row, ImportStatus.REGISTERED, namesakes=same_club))
        elif (name, club) in seen:
            lines.append(ImportLine(row, ImportStatus.REPEATED))
        elif registered or in_file[name]:
            lines.append(ImportLine(row, ImportStatus.NAMESAKE, namesakes=registered))
        else:
            lines.append(ImportLine(row, ImportStatus.NEW))
        seen.add((name, club))
        in_file[name].append(row)
    return lines
