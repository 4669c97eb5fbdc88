"""What importing a document will create, read and checked: the preview, before anything is
written (:func:`tournament_import_plan`, a selector)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy

from club.models import Player

from ..models import Tournament
from .checks import document_checked
from .document import AuditPart, DocumentV1, EventPart, MatchPart, PlayerPart
from .reading import document_parsed


@dataclass(frozen=True)
class ImportPlan:
    """What an import will create, checked: shown to the director before they confirm."""

    document: DocumentV1  # the file, read
    here: Tournament | None  # this site's tournament of that identity: not imported again
    # else this site's of the same name and date: perhaps this one, from a file without identity
    alike: tuple[Tournament, ...]
    directors: tuple[User, ...]  # the accounts of this site the file names
    directors_missing: tuple[str, ...]  # user names this site has no account for

    @property
    def version(self) -> int:
        return self.document.version

    @property
    def uuid(self) -> UUID | None:
        """The tournament's identity (None: a version 1 file has none)."""
        return self.document.tournament.uuid

    @property
    def name(self) -> str:
        return self.document.tournament.name

    @property
    def date(self) -> datetime.date:
        return self.document.tournament.date

    @property
    def venue(self) -> str:
        return self.document.tournament.venue

    @property
    def physical_dice(self) -> bool:
        return self.document.tournament.physical_dice

    @property
    def late_rounds(self) -> str:
        return self.document.tournament.late_rounds

    @property
    def directors_named(self) -> tuple[str, ...]:
        """The user names the file gives as its directors."""
        return tuple(dict.fromkeys(self.document.tournament.directors))

    @property
    def players(self) -> Sequence[PlayerPart]:
        return self.document.players

    @property
    def events(self) -> Sequence[EventPart]:
        return self.document.events

    @property
    def matches(self) -> Sequence[MatchPart]:
        return self.document.matches

    @property
    def audit(self) -> Sequence[AuditPart]:
        return self.document.audit

    @property
    def players_new(self) -> list[PlayerPart]:
        return [p for p in self.players if p.existing is None]

    @property
    def players_matched(self) -> list[PlayerPart]:
        return [p for p in self.players if p.existing is not None]

    @property
    def game_count(self) -> int:
        return sum(len(m.games) for m in self.matches)

    @property
    def board_game_count(self) -> int:
        return sum(len(m.board_games) for m in self.matches)

    @property
    def dispute_count(self) -> int:
        return sum(len(m.disputes) for m in self.matches)

    @property
    def penalty_count(self) -> int:
        return sum(len(m.penalties) for m in self.matches)

    @property
    def forfeit_count(self) -> int:
        """Matches forfeited on time or by lateness (tournament rules)."""
        return sum(bool(m.forfeit) for m in self.matches)


def tournament_import_plan(*, document: Any) -> ImportPlan:
    """Read and check a document (JSON as :func:`.reading.document_read` gives it) and say
    what importing it would create; nothing is written. A refusal is a ValidationError in
    plain words."""
    read = document_parsed(document)
    document_checked(read)
    _match_players(read.players)
    usernames = read.tournament.directors
    found = tuple(User.objects.filter(username__in=usernames).order_by("username"))
    known = {u.get_username() for u in found}
    head = read.tournament
    here = None if head.uuid is None else Tournament.objects.filter(uuid=head.uuid).first()
    alike = Tournament.objects.filter(name=head.name, date=head.date).order_by("pk")
    return ImportPlan(
        document=read,
        here=here,
        alike=() if here else tuple(alike),
        directors=found,
        directors_missing=tuple(sorted(set(usernames) - known)),
    )


def tournament_here_refusal(tournament: Tournament) -> ValidationError:
    """The refusal to import a tournament this site already holds (same identity): a code
    with parameters, its words and date in the language of whoever reads it."""
    return ValidationError(
        gettext_lazy(
            "This tournament is already on this site: “%(name)s” of %(date)s. Importing it "
            "again would count its results, and move its players' ratings, a second time: "
            "nothing was imported."
        ),
        code="tournament_here",
        params={"name": tournament.name, "date": lazy(date_format, str)(tournament.date)},
    )


def _match_players(players: list[PlayerPart]) -> None:
    """Each player of the file is this site's player of the same name, club and country
    (preferring the same email; never one player for two of the file), else a new one."""
    taken: set[int] = set()
    names = {p.name for p in players}
    here: dict[tuple[str, str, str], list[Player]] = {}
    for found in Player.objects.filter(name__in=names).order_by("id"):
        here.setdefault((found.name, found.club, str(found.country)), []).append(found)
    for player in players:
        candidates = [
            p for p in here.get((player.name, player.club, player.country), []) if p.pk not in taken
        ]
        if not candidates:
            continue
        same_email = [p for p in candidates if player.email and p.email == player.email]
        chosen = (same_email or candidates)[0]
        player.existing = chosen
        taken.add(chosen.pk)
