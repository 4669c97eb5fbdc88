"""A whole tournament as one JSON document, and back: to move it between machines, or keep it.

The document (``"format": "crawford-tournament"``, ``"version": 2``) holds the
tournament, its events with their rounds, entries and byes, every match of its
events with its place, games, board games (the engine's log) and disputes, and
the tournament's audit trail as history. Players are embedded once each, with
their contact details, and named everywhere else by a local key (``p1``, ``p2``
...); events, matches and disputes too (``e1``, ``m1``, ``d1``). No id of the
exporting database appears in it, so it imports anywhere.

The tournament carries its identity (``"uuid"``, since version 2): an import keeps it, so
the copy is the same tournament wherever it goes, and a site refuses a file of a tournament
it already holds (issue 25.3): its results, and its players' ratings, would count twice.
Exported from site A, imported into B and exported from B, it is still A's tournament, and
A refuses it; a tournament deleted is no longer held, and may be imported again. A version 1
document has no identity: it still imports (with a new one). Since a copy imported from
one has an identity of its own, a preview also names the tournaments of the same name and
date already here, for the director to judge. A site that reads only version 1 refuses a
version 2 document (update it first): it would import the tournament without its identity.

What is derived is not carried: ratings (re-derived after an import), scores,
brackets and standings. Nor are the accounts: directors, and who acted in the
trail, on the board and in disputes, are named by user name, and a file can name
anyone, so an import links none of them to an account of this site (issue 23.4):

- the trail is kept as the file's claims: each entry is marked imported, keeps the
  name and user name the file gives, and reads "According to the file: ...";
  the import's own entry is the only one by the importing account;
- the directors the file names are shown, and only those the importer ticks (among
  the accounts they may name, :func:`club.policy.directors_nameable`) direct the
  copy, with the importer;
- board actions and disputes of the copy name no account.

An export writes an imported entry as the file gave it (its user name and name),
so export, import and export again give the same trail; every importing site treats
a file's trail as claims anyway. Board actions and disputes of an imported tournament
are written with no account (``null``), as on a site that had none of the accounts.

:func:`tournament_export` reads (a selector); :func:`tournament_import_plan`
reads and checks a document (the preview); :func:`tournament_import` writes it
(a service: one transaction, an audit entry). A document that is not one, is
from a newer version, or breaks the rules is refused in plain words before
anything is written: every match's games are checked by the rules engine
(:func:`rules.match.checked_match`) and every board game's log replayed
(:meth:`rules.game.Game.replay`), as the board does.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn
from uuid import UUID, uuid4

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from django.db.models import Model, Q
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.countries import country_code
from club.models import AuditEntry, Player
from club.policy import can_create, directors_nameable, require
from club.services import player_create
from club.words import sentence
from matches.matfiles import mat_import_plan
from matches.models import CUBE_VALUES, BoardAction, BoardGame, Dispute, Game, Match
from matches.services import length_checked
from rules.errors import RulesError
from rules.game import Act, Action, Phase
from rules.game import Game as RulesGame
from rules.match import (
    GameContext,
    GameResult,
    MatchRules,
    Outcome,
    checked_match,
    match_winner,
    score_possible,
)
from rules.match import Match as RulesMatch
from rules.text import one_line
from rules.turn import Turn

from .advancement import ratings_rederive
from .audit import tournament_audit_record
from .models import Bye, Entry, Event, Place, Round, Tournament
from .pairing.bracket import FINAL_KEY, RESET_KEY, resolve
from .queries.knockouts import SHAPES
from .rounds import round_name

FORMAT = "crawford-tournament"
VERSION = 2  # 2: the tournament's identity ("uuid"); 1: without it, still read
MAX_BYTES = 20_000_000  # a 64-player tournament played wholly on the board is about 6 MB
SMALL = 32767  # PositiveSmallIntegerField
BIG = 2**63 - 1


# --- export ----------------------------------------------------------------------------------


def _time(value: datetime.datetime | None) -> str | None:
    return None if value is None else value.astimezone(datetime.UTC).isoformat()


def _sorted_json(value: Any) -> Any:
    """A JSON value with its objects' keys in order (PostgreSQL's jsonb keeps its own)."""
    if isinstance(value, dict):
        return {key: _sorted_json(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted_json(item) for item in value]
    return value


def _username(user: Any) -> str | None:
    return None if user is None else user.get_username()


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
}


def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready document; the same tournament gives the same one."""
    events = list(tournament.events.order_by("id").prefetch_related("rounds"))
    matches = list(
        Match.objects.filter(place__event__tournament=tournament)
        .select_related("place", "player_a", "player_b")
        .prefetch_related("games", "board_games__actions__user", "disputes")
        .order_by("id")
    )
    entries = list(
        Entry.objects.filter(event__tournament=tournament).select_related("player").order_by("id")
    )
    byes = list(
        Bye.objects.filter(event__tournament=tournament)
        .select_related("player")
        .order_by("round", "id")
    )
    people = {e.player_id: e.player for e in entries}
    people.update({b.player_id: b.player for b in byes})
    for match in matches:
        people.update({match.player_a_id: match.player_a, match.player_b_id: match.player_b})
    ordered = sorted(
        people.values(), key=lambda p: (p.name, p.club, str(p.country), p.email, p.phone, p.pk)
    )
    player_key = {p.pk: f"p{n}" for n, p in enumerate(ordered, 1)}
    event_key = {e.pk: f"e{n}" for n, e in enumerate(events, 1)}
    match_key = {m.pk: f"m{n}" for n, m in enumerate(matches, 1)}
    dispute_key: dict[int, str] = {}
    for match in matches:
        for dispute in sorted(match.disputes.all(), key=lambda d: d.pk):
            dispute_key[dispute.pk] = f"d{len(dispute_key) + 1}"

    refs = _subject_refs(tournament, entries, matches, player_key, event_key, match_key)
    for pk, key in dispute_key.items():
        refs[(Dispute, pk)] = {"kind": "dispute", "dispute": key}

    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "uuid": str(tournament.uuid),
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "venue": tournament.venue,
            "physical_dice": tournament.physical_dice,
            "late_rounds": tournament.late_rounds,
            "directors": sorted(u.get_username() for u in tournament.directors.all()),
        },
        "players": [
            {
                "key": player_key[p.pk],
                "name": p.name,
                "club": p.club,
                "country": str(p.country),  # ISO 3166-1 alpha-2, "" when not known
                "email": p.email,
                "phone": p.phone,
            }
            for p in ordered
        ],
        "events": [_event_out(event, entries, byes, player_key, event_key) for event in events],
        "matches": [
            _match_out(match, player_key, event_key, match_key, dispute_key) for match in matches
        ],
        "audit": _audit_out(tournament, matches, refs, match_key, dispute_key),
    }


def tournament_export_text(*, tournament: Tournament) -> str:
    """The document as the file holds it: UTF-8 JSON, one value a line, a final newline."""
    return json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1) + "\n"


def _event_out(event, entries, byes, player_key, event_key) -> dict[str, Any]:
    return {
        "key": event_key[event.pk],
        "name": event.given_name,  # empty: the site names it, in each reader's language
        "format": event.format,
        "seeding": event.seeding,
        "swiss_rounds": event.swiss_rounds,
        "cut": event.cut,
        "pools": event.pools,
        "holland": event.holland,
        "third_place": event.third_place,
        "parent": event_key.get(event.parent_id) if event.parent_id else None,
        "draw_seed": event.draw_seed,
        "drawn_at": _time(event.drawn_at),
        "rounds": [r.length for r in sorted(event.rounds.all(), key=lambda r: r.number)],
        "entries": [
            {
                "player": player_key[e.player_id],
                "status": e.status,
                "seed": e.seed,
                "pool": e.pool,
                "joined_round": e.joined_round,
            }
            for e in entries
            if e.event_id == event.pk
        ],
        "byes": [
            {
                "round": b.round,
                "player": player_key[b.player_id],
                "reason_code": b.reason_code,
                "reason_params": _sorted_json(b.reason_params),
            }
            for b in byes
            if b.event_id == event.pk
        ],
    }


def _match_out(match: Match, player_key, event_key, match_key, dispute_key) -> dict[str, Any]:
    place = match.place
    final = None if match.final_score_a is None else [match.final_score_a, match.final_score_b]
    return {
        "key": match_key[match.pk],
        "event": event_key[place.event_id],
        "round": place.round,
        "bracket_key": place.bracket_key,
        "reason_code": place.reason_code,
        "reason_params": _sorted_json(place.reason_params),
        "player_a": player_key[match.player_a_id],
        "player_b": player_key[match.player_b_id],
        "length": match.length,
        "date": match.date.isoformat(),
        "status": match.status,
        "final_score": final,
        "walkover_winner": match.walkover_winner,
        "retired": match.retired,
        "finished_at": _time(match.finished_at),
        "physical_dice": match.physical_dice,
        "holland": match.holland,
        "games": [
            {
                "number": g.number,
                "winner": g.winner,
                "cube": g.cube,
                "result": g.result,
                "resigned": g.resigned,
            }
            for g in sorted(match.games.all(), key=lambda g: g.number)
        ],
        "board_games": [
            {
                "number": b.number,
                "started_at": _time(b.started_at),
                "imported": b.imported,
                "pending": b.pending,
                "actions": [
                    {
                        "act": a.act,
                        "player": a.player,
                        "dice": None if a.die1 is None else [a.die1, a.die2],
                        "play": a.play,
                        "resignation": a.resignation,
                        "illegal": a.illegal,
                        "at": _time(a.at),
                        "user": _username(a.user),
                    }
                    for a in sorted(b.actions.all(), key=lambda a: a.seq)
                ],
            }
            for b in sorted(match.board_games.all(), key=lambda b: b.number)
        ],
        "disputes": [
            {
                "key": dispute_key[d.pk],
                "opened_at": _time(d.opened_at),
                "opened_by": _username(d.opened_by),
                "source": d.source,
                "filename": d.filename,
                "mat": d.mat,
                "swapped": d.swapped,
                "sheet_a": None if d.sheet(0) is None else list(d.sheet(0)),
                "sheet_b": None if d.sheet(1) is None else list(d.sheet(1)),
                "decision": d.decision,
                "corrected": d.corrected,
                "decided_at": _time(d.decided_at),
                "decided_by": _username(d.decided_by),
            }
            for d in sorted(match.disputes.all(), key=lambda d: d.pk)
        ],
    }


def _subject_refs(tournament, entries, matches, player_key, event_key, match_key):
    """(model, id) -> how the document names that object."""
    refs: dict[tuple[type[Model], int | None], dict[str, Any]] = {
        (Tournament, tournament.pk): {"kind": "tournament"}
    }
    for pk, key in event_key.items():
        refs[(Event, pk)] = {"kind": "event", "event": key}
    for entry in entries:
        refs[(Entry, entry.pk)] = {
            "kind": "entry",
            "event": event_key[entry.event_id],
            "player": player_key[entry.player_id],
        }
    for pk, key in player_key.items():
        refs[(Player, pk)] = {"kind": "player", "player": key}
    for match in matches:
        key = match_key[match.pk]
        refs[(Match, match.pk)] = {"kind": "match", "match": key}
        refs[(Place, match.place.pk)] = {"kind": "place", "match": key}
        for game in match.games.all():
            refs[(Game, game.pk)] = {"kind": "game", "match": key, "number": game.number}
        for board in match.board_games.all():
            refs[(BoardGame, board.pk)] = {
                "kind": "board_game",
                "match": key,
                "number": board.number,
            }
    return refs


def _audit_out(tournament, matches, refs, match_key, dispute_key) -> list[dict[str, Any]]:
    """The trail: entries of the tournament, and those of its matches made before they had
    their place (a match is created, then placed)."""
    entries = (
        AuditEntry.objects.filter(Q(tournament_id=tournament.pk) | Q(match_id__in=list(match_key)))
        .select_related("user", "subject_type")
        .order_by("at", "id")
    )
    kinds = {model: kind for kind, model in SUBJECTS.items()}
    out = []
    for entry in entries:
        model = entry.subject_type.model_class()
        subject = refs.get((model, entry.subject_id)) if model is not None else None
        if subject is None:  # no longer there (a match never begun, removed), or not ours
            kind = kinds.get(model) or f"{entry.subject_type.app_label}.{entry.subject_type.model}"
            subject = {"kind": kind, "gone": True}
        params = dict(entry.params)
        if entry.dispute_id in dispute_key and params.get("dispute") == entry.dispute_id:
            params["dispute"] = dispute_key[entry.dispute_id]  # the dispute, not its id
        out.append(
            {
                "at": _time(entry.at),
                "code": entry.code,
                "params": _sorted_json(params),
                "before": _sorted_json(entry.before),
                "after": _sorted_json(entry.after),
                "user": _claimed(entry) if entry.imported else _username(entry.user),
                "user_name": entry.user_name,
                "subject": subject,
                "match": match_key.get(entry.match_id) if entry.match_id else None,
                "dispute": dispute_key.get(entry.dispute_id) if entry.dispute_id else None,
                "tournament": entry.tournament_id == tournament.pk,
            }
        )
    return out


def _claimed(entry: AuditEntry) -> str | None:
    """Who an imported entry says acted, as its file named them (None: the site itself)."""
    return entry.imported_username or None


# --- reading a document ----------------------------------------------------------------------


def document_read(data: bytes) -> dict[str, Any]:
    """An uploaded file's document, or the reason it is not one, in plain words."""
    if len(data) > MAX_BYTES:
        raise ValidationError(
            _("The file is too large for a tournament (over %(megabytes)s MB).")
            % {"megabytes": MAX_BYTES // 1_000_000}
        )
    try:
        document = json.loads(
            data.decode("utf-8-sig"), parse_constant=_no_constant, object_pairs_hook=_object
        )
    except _KeyTwice as error:
        raise ValidationError(
            _(
                "This file is not a tournament we can read: the key “%(key)s” is given twice "
                "in one of its objects."
            )
            % {"key": error.key[:80]}
        ) from error
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ValidationError(
            _("This file is not a tournament exported from Crawford: it is not JSON.")
        ) from error
    if not isinstance(document, dict):
        raise ValidationError(_("This file is not a tournament exported from Crawford."))
    return document


class _KeyTwice(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once: of a key given twice, Python keeps the
    last value and other readers the first, so which one a file means is a guess."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return found


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number JSON allows")


def _missing(where: str) -> NoReturn:
    raise ValidationError(
        _("The file does not hold a tournament we can read: %(where)s is missing.")
        % {"where": where}
    )


def _wrong(where: str, what: str) -> NoReturn:
    raise ValidationError(
        _("The file does not hold a tournament we can read: %(where)s should be %(what)s.")
        % {"where": where, "what": what}
    )


class _Part:
    """A JSON object of the document and where it is, for the refusals."""

    def __init__(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            _wrong(where, _("an object"))
        self.value, self.where = value, where

    def _get(self, name: str) -> tuple[Any, str]:
        where = f"{self.where}.{name}" if self.where else name
        if name not in self.value:
            _missing(where)
        return self.value[name], where

    def part(self, name: str) -> _Part:
        value, where = self._get(name)
        return _Part(value, where)

    def parts(self, name: str) -> list[_Part]:
        value, where = self._get(name)
        if not isinstance(value, list):
            _wrong(where, _("a list"))
        return [_Part(item, f"{where}[{n}]") for n, item in enumerate(value, 1)]

    def texts(self, name: str, max_length: int) -> list[str]:
        value, where = self._get(name)
        if not isinstance(value, list):
            _wrong(where, _("a list"))
        return [_text(item, f"{where}[{n}]", max_length) for n, item in enumerate(value, 1)]

    def integers(self, name: str, low: int, high: int) -> list[int]:
        value, where = self._get(name)
        if not isinstance(value, list):
            _wrong(where, _("a list"))
        return [_integer(item, f"{where}[{n}]", low, high) for n, item in enumerate(value, 1)]

    def text(self, name: str, max_length: int, *, blank: bool = True) -> str:
        value, where = self._get(name)
        text = _text(value, where, max_length)
        if not blank and not text.strip():
            _wrong(where, _("text that is not empty"))
        return text

    def line(self, name: str, max_length: int, *, blank: bool = True) -> str:
        """Text shown as one line (a name, a club): made one line as every service stores it
        (:func:`rules.text.one_line`), whatever the file holds."""
        value, where = self._get(name)
        text = one_line(_text(value, where, max_length))
        if not blank and not text:
            _wrong(where, _("text that is not empty"))
        return text

    def country(self, name: str) -> str:
        """A country's ISO 3166-1 alpha-2 code: files written before the site kept codes
        hold the name a club typed ("Italia", "Schweiz"), read as its code (club.countries)."""
        value, where = self._get(name)
        code = country_code(one_line(_text(value, where, 60)))
        if code is None:
            _wrong(where, _("a country's two-letter code (IT, CH) or its name"))
        return code

    def optional_text(self, name: str, max_length: int) -> str | None:
        value, where = self._get(name)
        return None if value is None else _text(value, where, max_length)

    def integer(self, name: str, low: int, high: int) -> int:
        value, where = self._get(name)
        return _integer(value, where, low, high)

    def optional_integer(self, name: str, low: int, high: int) -> int | None:
        value, where = self._get(name)
        return None if value is None else _integer(value, where, low, high)

    def flag(self, name: str) -> bool:
        value, where = self._get(name)
        if not isinstance(value, bool):
            _wrong(where, _("true or false"))
        return value

    def optional_flag(self, name: str) -> bool:
        """A flag a file written before it existed leaves out: false then."""
        return name in self.value and self.flag(name)

    def choice(self, name: str, choices: Iterable[str]) -> str:
        value, where = self._get(name)
        allowed = list(choices)
        if value not in allowed or not isinstance(value, str):
            _wrong(where, _("one of %(choices)s") % {"choices": ", ".join(allowed)})
        return value

    def uuid(self, name: str) -> UUID:
        value, where = self._get(name)
        try:
            return UUID(value)
        except (TypeError, ValueError, AttributeError):
            _wrong(where, _("a UUID (32 hexadecimal digits)"))

    def date(self, name: str) -> datetime.date:
        value, where = self._get(name)
        try:
            return datetime.date.fromisoformat(value)
        except (TypeError, ValueError):
            _wrong(where, _("a date (YYYY-MM-DD)"))

    def time(self, name: str) -> datetime.datetime:
        value, where = self._get(name)
        return _moment(value, where)

    def optional_time(self, name: str) -> datetime.datetime | None:
        value, where = self._get(name)
        return None if value is None else _moment(value, where)

    def pair(self, name: str, high: int) -> tuple[int, int] | None:
        value, where = self._get(name)
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != 2:
            _wrong(where, _("two numbers, or nothing (null)"))
        return (_integer(value[0], where, 0, high), _integer(value[1], where, 0, high))

    def json(self, name: str, *, null: bool = False) -> dict[str, Any] | None:
        """An object of any JSON kept as it is (reasons' and audit entries' parameters)."""
        value, where = self._get(name)
        if value is None and null:
            return None
        if not isinstance(value, dict):
            _wrong(where, _("an object"))
        _storable(value, where)
        return value


def _text(value: Any, where: str, max_length: int) -> str:
    if not isinstance(value, str) or len(value) > max_length or "\x00" in value:
        _wrong(where, _("text of at most %(count)s characters") % {"count": max_length})
    return value


def _integer(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _wrong(where, _("a whole number from %(low)s to %(high)s") % {"low": low, "high": high})
    return value


def _moment(value: Any, where: str) -> datetime.datetime:
    try:
        moment = datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        moment = None
    if moment is None or moment.tzinfo is None:
        _wrong(where, _("a date and time with its time zone"))
    return moment


def _storable(value: Any, where: str) -> None:
    """Any JSON a database keeps: no NUL character (PostgreSQL refuses it), finite numbers."""
    if isinstance(value, str):
        if "\x00" in value:
            _wrong(where, _("text without NUL characters"))
    elif isinstance(value, dict):
        for key, item in value.items():
            _storable(key, where)
            _storable(item, where)
    elif isinstance(value, list):
        for item in value:
            _storable(item, where)
    elif isinstance(value, float) and not math.isfinite(value):
        _wrong(where, _("a finite number"))


# --- the document, read ----------------------------------------------------------------------


@dataclass
class PlayerIn:
    key: str
    name: str
    club: str
    country: str
    email: str
    phone: str
    existing: Player | None = None  # the player of this site it is, when there is one


@dataclass
class EntryIn:
    player: str
    status: str
    seed: int | None
    pool: int | None
    joined_round: int | None = None  # a late arrival in a Swiss


@dataclass
class ByeIn:
    round: int
    player: str
    reason_code: str
    reason_params: dict[str, Any]


@dataclass
class EventIn:
    key: str
    name: str
    format: str
    seeding: str
    swiss_rounds: int | None
    cut: int | None
    pools: int | None
    parent: str | None
    draw_seed: int | None
    drawn_at: datetime.datetime | None
    lengths: list[int]
    entries: list[EntryIn]
    byes: list[ByeIn]
    matches: list[MatchIn] = field(default_factory=list)
    holland: bool = False
    third_place: bool = False

    @property
    def format_label(self) -> str:
        return str(Event.Format(self.format).label)


@dataclass
class GameIn:
    number: int
    winner: int
    cube: int
    result: str
    resigned: int | None


@dataclass
class ActionIn:
    act: str
    player: int
    dice: tuple[int, int] | None
    play: str
    resignation: int | None
    illegal: str
    at: datetime.datetime
    user: str | None

    def as_action(self) -> Action:
        return BoardAction(
            act=self.act,
            player=self.player,
            die1=self.dice[0] if self.dice else None,
            die2=self.dice[1] if self.dice else None,
            play=self.play,
            resignation=self.resignation,
            illegal=self.illegal,
        ).as_action()


@dataclass
class BoardGameIn:
    number: int
    started_at: datetime.datetime
    imported: bool
    pending: str
    actions: list[ActionIn]


@dataclass
class DisputeIn:
    key: str
    opened_at: datetime.datetime
    opened_by: str | None
    source: str
    filename: str
    mat: str
    swapped: bool
    sheet_a: tuple[int, int] | None
    sheet_b: tuple[int, int] | None
    decision: str
    corrected: int
    decided_at: datetime.datetime | None
    decided_by: str | None


@dataclass
class MatchIn:
    key: str
    event: str
    round: int
    bracket_key: str
    reason_code: str
    reason_params: dict[str, Any]
    player_a: str
    player_b: str
    length: int
    date: datetime.date
    status: str
    final_score: tuple[int, int] | None
    walkover_winner: int | None
    finished_at: datetime.datetime | None
    physical_dice: bool
    games: list[GameIn]
    board_games: list[BoardGameIn]
    disputes: list[DisputeIn]
    label: str = ""  # how refusals name it: event, round, players
    winner: int | None = None  # as the rules derive it
    retired: int | None = None  # the player who retired (a final score after games)
    holland: bool = False


@dataclass
class AuditIn:
    at: datetime.datetime
    code: str
    params: dict[str, Any]
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    user: str | None
    user_name: str
    subject: dict[str, Any]
    match: str | None
    dispute: str | None
    tournament: bool


@dataclass(frozen=True)
class ImportPlan:
    """What an import will create, checked: shown to the director before they confirm."""

    uuid: UUID | None  # the tournament's identity (None: a version 1 file has none)
    here: Tournament | None  # this site's tournament of that identity: not imported again
    # else this site's of the same name and date: perhaps this one, from a file without identity
    alike: tuple[Tournament, ...]
    name: str
    date: datetime.date
    venue: str
    physical_dice: bool
    late_rounds: str
    directors_named: tuple[str, ...]  # the user names the file gives as its directors
    directors: tuple[Any, ...]  # the accounts of this site the file names as directors
    directors_missing: tuple[str, ...]  # user names this site has no account for
    players: tuple[PlayerIn, ...]
    events: tuple[EventIn, ...]
    matches: tuple[MatchIn, ...]
    audit: tuple[AuditIn, ...]

    @property
    def players_new(self) -> list[PlayerIn]:
        return [p for p in self.players if p.existing is None]

    @property
    def players_matched(self) -> list[PlayerIn]:
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


def _header(document: Mapping[str, Any]) -> int:
    if document.get("format") != FORMAT:
        raise ValidationError(_("This file is not a tournament exported from Crawford."))
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValidationError(_("This file is not a tournament exported from Crawford."))
    if version > VERSION:
        raise ValidationError(
            _(
                "This file was exported by a newer version of Crawford (file format %(version)s; "
                "this site reads up to %(supported)s): update this site first."
            )
            % {"version": version, "supported": VERSION}
        )
    return version


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


def _read_players(doc: _Part) -> list[PlayerIn]:
    players = []
    for part in doc.parts("players"):
        players.append(
            PlayerIn(
                key=part.text("key", 40, blank=False),
                name=part.line("name", 120, blank=False),
                club=part.line("club", 120),
                country=part.country("country"),
                email=part.line("email", 254),
                phone=part.line("phone", 40),
            )
        )
    return players


def _read_event(part: _Part) -> EventIn:
    return EventIn(
        key=part.text("key", 40, blank=False),
        name=part.line("name", 120),  # empty: named by the site (Event.name)
        format=part.choice("format", Event.Format.values),
        seeding=part.choice("seeding", Event.Seeding.values),
        swiss_rounds=part.optional_integer("swiss_rounds", 1, SMALL),
        cut=part.optional_integer("cut", 2, SMALL),
        pools=part.optional_integer("pools", 1, SMALL),
        holland=part.optional_flag("holland"),
        third_place=part.optional_flag("third_place"),
        parent=part.optional_text("parent", 40),
        draw_seed=part.optional_integer("draw_seed", -BIG - 1, BIG),
        drawn_at=part.optional_time("drawn_at"),
        lengths=part.integers("rounds", 1, SMALL),
        entries=[
            EntryIn(
                player=entry.text("player", 40),
                status=entry.choice("status", Entry.Status.values),
                seed=entry.optional_integer("seed", 1, SMALL),
                pool=entry.optional_integer("pool", 1, SMALL),
                joined_round=entry.optional_integer("joined_round", 2, SMALL)
                if "joined_round" in entry.value
                else None,
            )
            for entry in part.parts("entries")
        ],
        byes=[
            ByeIn(
                round=bye.integer("round", 1, SMALL),
                player=bye.text("player", 40),
                reason_code=bye.text("reason_code", 40),
                reason_params=bye.json("reason_params") or {},
            )
            for bye in part.parts("byes")
        ],
    )


def _read_match(part: _Part) -> MatchIn:
    return MatchIn(
        key=part.text("key", 40, blank=False),
        event=part.text("event", 40),
        round=part.integer("round", 1, SMALL),
        bracket_key=part.text("bracket_key", 12),
        reason_code=part.text("reason_code", 40),
        reason_params=part.json("reason_params") or {},
        player_a=part.text("player_a", 40),
        player_b=part.text("player_b", 40),
        length=part.integer("length", 1, SMALL),
        date=part.date("date"),
        status=part.choice("status", Match.Status.values),
        final_score=part.pair("final_score", SMALL),
        walkover_winner=part.optional_integer("walkover_winner", 0, 1),
        retired=part.optional_integer("retired", 0, 1) if "retired" in part.value else None,
        finished_at=part.optional_time("finished_at"),
        physical_dice=part.flag("physical_dice"),
        holland=part.optional_flag("holland"),
        games=[
            GameIn(
                number=game.integer("number", 1, SMALL),
                winner=game.integer("winner", 0, 1),
                cube=game.integer("cube", 1, CUBE_VALUES[-1]),
                result=game.choice("result", Game.Result.values),
                resigned=game.optional_integer("resigned", 1, 3),
            )
            for game in part.parts("games")
        ],
        board_games=[
            BoardGameIn(
                number=board.integer("number", 1, SMALL),
                started_at=board.time("started_at"),
                imported=board.flag("imported"),
                pending=board.text("pending", 40),
                actions=[_read_action(action) for action in board.parts("actions")],
            )
            for board in part.parts("board_games")
        ],
        disputes=[
            DisputeIn(
                key=dispute.text("key", 40, blank=False),
                opened_at=dispute.time("opened_at"),
                opened_by=dispute.optional_text("opened_by", 150),
                source=dispute.choice("source", Dispute.Source.values),
                filename=dispute.text("filename", 200),
                mat=dispute.text("mat", 2_000_000),
                swapped=dispute.flag("swapped"),
                sheet_a=dispute.pair("sheet_a", SMALL),
                sheet_b=dispute.pair("sheet_b", SMALL),
                decision=dispute.choice("decision", ["", *Dispute.Decision.values]),
                corrected=dispute.integer("corrected", 0, SMALL),
                decided_at=dispute.optional_time("decided_at"),
                decided_by=dispute.optional_text("decided_by", 150),
            )
            for dispute in part.parts("disputes")
        ],
    )


def _read_action(part: _Part) -> ActionIn:
    act = part.choice("act", [a.value for a in Act])
    dice = part.pair("dice", 6)
    if dice is not None and not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
        _wrong(f"{part.where}.dice", _("two dice from 1 to 6, or nothing (null)"))
    if dice is None and act == Act.ROLL.value:
        _wrong(f"{part.where}.dice", _("two dice from 1 to 6"))
    return ActionIn(
        act=act,
        player=part.integer("player", 0, 1),
        dice=dice,
        play=part.text("play", 120),
        resignation=part.optional_integer("resignation", 1, 3),
        illegal=part.text("illegal", 300),
        at=part.time("at"),
        user=part.optional_text("user", 150),
    )


def _read_audit(part: _Part) -> AuditIn:
    subject = part.json("subject") or {}
    return AuditIn(
        at=part.time("at"),
        code=part.text("code", 40, blank=False),
        params=part.json("params") or {},
        before=part.json("before", null=True),
        after=part.json("after", null=True),
        user=part.optional_text("user", 150),
        user_name=part.line("user_name", 150),
        subject=subject,
        match=part.optional_text("match", 40),
        dispute=part.optional_text("dispute", 40),
        tournament=part.flag("tournament"),
    )


# --- checking it -----------------------------------------------------------------------------


def _unknown(where: str, key: str) -> NoReturn:
    raise ValidationError(
        _(
            "The file does not hold together: %(where)s refers to “%(key)s”, which the file "
            "does not define."
        )
        % {"where": where, "key": key}
    )


def _twice(what: str, key: str) -> NoReturn:
    raise ValidationError(
        _("The file does not hold together: %(what)s “%(key)s” appears twice.")
        % {"what": what, "key": key}
    )


def _keys(items: Iterable[Any], what: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in items:
        if item.key in found:
            _twice(what, item.key)
        found[item.key] = item
    return found


def _refuse(match: MatchIn, reason: str) -> NoReturn:
    raise ValidationError(_("%(match)s: %(reason)s") % {"match": match.label, "reason": reason})


def _check_event(event: EventIn, events: dict[str, EventIn], players: dict[str, PlayerIn]) -> None:
    def refuse(reason: str) -> NoReturn:
        raise ValidationError(_("%(event)s: %(reason)s") % {"event": event.name, "reason": reason})

    if event.format == Event.Format.SWISS and not event.swiss_rounds:
        refuse(_("Say how many rounds the Swiss has."))
    if event.format == Event.Format.ROUND_ROBIN and not event.pools:
        refuse(_("Say how many round robin pools there are."))
    if event.cut is not None and event.format != Event.Format.SWISS:
        refuse(_("Only a Swiss is cut to a knockout."))
    if not event.lengths:
        refuse(_("Give at least one match length."))
    for length in event.lengths:
        try:
            length_checked(length)
        except ValidationError as error:
            refuse(" ".join(error.messages))
    if event.parent is not None and event.parent not in events:
        refuse(_("it is cut from an event the file does not hold before it."))
    seen: set[str] = set()
    seeds: set[int] = set()
    for entry in event.entries:
        if entry.player not in players:
            _unknown(f"{event.name}", entry.player)
        if entry.player in seen:
            refuse(_("%(player)s is entered twice.") % {"player": players[entry.player].name})
        seen.add(entry.player)
        if entry.seed is not None:
            if entry.seed in seeds:
                refuse(_("two players have the seed %(seed)s.") % {"seed": entry.seed})
            seeds.add(entry.seed)
        if entry.pool is not None and (
            event.format != Event.Format.ROUND_ROBIN or entry.pool > (event.pools or 0)
        ):
            refuse(
                _("%(player)s is in a pool the event does not have.")
                % {"player": players[entry.player].name}
            )
    drawn = event.drawn_at is not None
    if not drawn and (seeds or event.byes):
        refuse(_("the draw is not made, yet the file gives it seeds, matches or byes."))
    seeded = {e.player for e in event.entries if e.seed is not None}
    unpooled = any(e.pool is None for e in event.entries if e.seed is not None)
    if drawn and event.format == Event.Format.ROUND_ROBIN and unpooled:
        refuse(_("a player drawn in a round robin has no pool."))
    rounds: set[int] = set()
    for bye in event.byes:
        if bye.player not in players:
            _unknown(f"{event.name}", bye.player)
        if bye.player not in seeded:
            refuse(
                _("%(player)s has a bye but is not in the draw.")
                % {"player": players[bye.player].name}
            )
        if bye.round in rounds:
            refuse(_("two byes in round %(round)s.") % {"round": bye.round})
        rounds.add(bye.round)


def _label(match: MatchIn, events: dict[str, EventIn], players: dict[str, PlayerIn]) -> str:
    """A match as a refusal names it: "Main, round 2, Anna – Bruno", "Double, final, …"."""
    name = round_name(match.round, [match.bracket_key])
    a, b = players[match.player_a].name, players[match.player_b].name
    return f"{events[match.event].name}, {name}, {a} – {b}"


def _check_match(match: MatchIn, event: EventIn, players: dict[str, PlayerIn]) -> None:
    """The match's result as the services would have written it, its games by the rules."""
    if event.drawn_at is None:
        _refuse(match, _("its event's draw is not made."))
    if match.player_a == match.player_b:
        _refuse(match, _("A match is played by two different players."))
    seeded = {e.player for e in event.entries if e.seed is not None}
    for key in (match.player_a, match.player_b):
        if key not in seeded:
            _refuse(
                match,
                _("%(player)s is not in the draw of the event.") % {"player": players[key].name},
            )
    try:
        length_checked(match.length)
    except ValidationError as error:
        _refuse(match, " ".join(error.messages))
    numbers = [g.number for g in match.games]
    if numbers != list(range(1, len(numbers) + 1)):
        _refuse(match, _("its games are not numbered 1, 2, 3 and so on."))
    status = Match.Status
    final, walkover = match.final_score, match.walkover_winner
    retired = match.retired is not None  # then games, and the final score they lead to
    played = bool(match.games) and not retired
    if sum(bool(x) for x in (played, final is not None, walkover is not None)) > 1:
        _refuse(
            match,
            _("a result is its games, only a final score, or a walkover: never two of them."),
        )
    if (match.status == status.WALKOVER) != (walkover is not None):
        _refuse(match, _("a walkover needs its winner, and only a walkover has one."))
    if (match.status == status.FINISHED) != (match.finished_at is not None):
        _refuse(match, _("a finished match has the time it finished, and only a finished one."))
    if match.board_games and not retired and (final is not None or walkover is not None):
        _refuse(match, _("only a match played game by game has games on the board."))
    derived = RulesMatch(match.length)
    if retired:
        derived = _retirement_checked(match)
    elif match.games:
        derived = _games_checked(match)
        expected = status.FINISHED if derived.over else status.IN_PLAY
        if match.status != expected:
            _refuse(match, _("its status does not follow from its games."))
        match.winner = derived.winner
    elif final is not None:
        if not score_possible(match.length, final) or max(final) != match.length:
            _refuse(
                match,
                _(
                    "%(a)s–%(b)s cannot be the final score of a %(length)s-point match: exactly "
                    "one player reaches %(length)s, and points beyond it do not count (WBF 3)."
                )
                % {"a": final[0], "b": final[1], "length": match.length},
            )
        if match.status != status.FINISHED:
            _refuse(match, _("its status does not follow from its final score."))
        match.winner = match_winner(match.length, final)
    elif walkover is not None:
        match.winner = walkover
    elif match.status not in (status.SCHEDULED, status.IN_PLAY):
        _refuse(match, _("its status does not follow from its result."))
    boards: set[int] = set()
    for board in match.board_games:
        if board.number in boards:
            _refuse(
                match, _("two games numbered %(number)s on the board.") % {"number": board.number}
            )
        boards.add(board.number)
        _board_checked(match, derived, board)
    for number, dispute in enumerate(match.disputes, 1):
        _dispute_checked(match, players, number, dispute)


def _retirement_checked(match: MatchIn) -> RulesMatch:
    """A retirement: the games played, then the opponent at the match length (a retirement
    loses the match), the retiring player at the score the games gave them."""
    assert match.retired is not None
    derived = _games_checked(match) if match.games else RulesMatch(match.length)
    score = list(derived.score)
    score[1 - match.retired] = match.length
    if derived.over or match.final_score != (score[0], score[1]):
        _refuse(
            match,
            _(
                "after a retirement the final score is the games' score with the opponent at "
                "the match length: %(a)s–%(b)s."
            )
            % {"a": score[0], "b": score[1]},
        )
    if match.status != Match.Status.FINISHED or match.walkover_winner is not None:
        _refuse(match, _("its status does not follow from its result."))
    match.winner = 1 - match.retired
    return derived


def _games_checked(match: MatchIn) -> RulesMatch:
    """The games by the rules engine (WBF 3, 23-25); a refusal names the first game it meets."""
    results: list[GameResult] = []
    for game in match.games:
        if (game.result == Outcome.RESIGNATION.value) != (game.resigned is not None):
            _refuse(
                match,
                _("game %(number)s: say what was resigned, and only for a resignation.")
                % {"number": game.number},
            )
        points = game.cube * (game.resigned or Outcome(game.result).multiplier)
        results.append(
            GameResult(
                winner=game.winner, points=points, outcome=Outcome(game.result), cube=game.cube
            )
        )
    try:
        return checked_match(match.length, results)
    except RulesError:
        for count in range(1, len(results) + 1):
            try:
                checked_match(match.length, results[:count])
            except RulesError as error:
                _refuse(
                    match,
                    _("game %(number)s: %(reason)s") % {"number": count, "reason": sentence(error)},
                )
        raise


PENDING_MOVE = re.compile(r"([0-9]{1,2}):([1-6])", re.ASCII)


def _board_checked(match: MatchIn, derived: RulesMatch, board: BoardGameIn) -> None:
    """The board game's log replayed through the engine, in its place in the match."""

    def refuse(reason: str) -> NoReturn:
        _refuse(
            match,
            _("game %(number)s on the board: %(reason)s")
            % {"number": board.number, "reason": reason},
        )

    rules = MatchRules(match.length)
    if board.number <= len(derived.games):
        scored = derived.games[board.number - 1]
        context = GameContext(
            rules=rules,
            score=scored.score_before,
            crawford=scored.crawford,
            post_crawford=scored.post_crawford,
            number=board.number,
        )
    elif board.number == len(derived.games) + 1 and not derived.over:
        context = derived.next_game
    else:
        refuse(_("The match is over: no game %(number)s.") % {"number": board.number})
    try:
        game = RulesGame.replay([a.as_action() for a in board.actions], context)
    except RulesError as error:
        refuse(sentence(error))
    except (ValueError, AssertionError):
        refuse(_("its log cannot be replayed."))
    if not board.pending:
        return
    recorded = board.number <= len(derived.games)
    if game.phase is not Phase.MOVE or game.dice is None or recorded:
        refuse(_("checker moves wait for a play that is not due."))
    turn = Turn.begin(game.position, game.dice, game.legal_plays)
    for token in board.pending.split():
        found = PENDING_MOVE.fullmatch(token)
        move = (int(found.group(1)), int(found.group(2))) if found else None
        following = None
        for option in turn.options if move else ():
            if option.source == move[0]:
                after = turn.move(option.source, option.destination)
                if after.moves[-1] == move:
                    following = after
                    break
        if following is None:
            refuse(_("its checker moves not yet confirmed cannot be made."))
        turn = following


def _dispute_checked(
    match: MatchIn, players: dict[str, PlayerIn], number: int, dispute: DisputeIn
) -> None:
    """The dispute's log can be read and replayed as its page will (matches.disputes)."""
    shown = Match(
        player_a=Player(name=players[match.player_a].name),
        player_b=Player(name=players[match.player_b].name),
        length=match.length,
    )
    try:
        mat_import_plan(match=shown, text=dispute.mat, left=int(dispute.swapped))
    except ValidationError as error:
        _refuse(
            match,
            _("dispute %(number)s: %(reason)s")
            % {"number": number, "reason": " ".join(error.messages)},
        )


# a file exported before a double elimination's final came after the losers' draw's last
# round numbered the final round 1 and the final played again round 2
_FINAL_ROUNDS_BEFORE = {FINAL_KEY: 1, RESET_KEY: 2}


def _check_knockout(event: EventIn, players: dict[str, PlayerIn]) -> None:
    """A knockout's matches are those its draw and results make (as event_advance keeps them).

    A double elimination's final numbered as older files did is taken in the round it has now.
    """

    def refuse(key: str) -> NoReturn:
        raise ValidationError(
            _("%(event)s: the matches do not follow from the draw and the results (at %(key)s).")
            % {"event": event.name, "key": key}
        )

    seeds = {e.seed: e.player for e in event.entries if e.seed is not None}
    if sorted(seeds) != list(range(1, len(seeds) + 1)) or len(seeds) < 2:
        raise ValidationError(
            _("%(event)s: the seeds of a knockout are 1, 2, 3 and so on, for two players or more.")
            % {"event": event.name}
        )
    seed_of = {player: seed for seed, player in seeds.items()}
    by_key: dict[str, MatchIn] = {}
    for match in event.matches:
        if not match.bracket_key or match.bracket_key in by_key:
            refuse(match.bracket_key or "—")
        by_key[match.bracket_key] = match
    results = {
        key: seed_of[m.player_a if m.winner == 0 else m.player_b]
        for key, m in by_key.items()
        if m.winner is not None
    }
    try:
        state = resolve(SHAPES[event.format](len(seeds), third_place=event.third_place), results)
    except (ValueError, KeyError):
        refuse(next(iter(results), "—"))
    for key, slot in state.slots.items():
        a = seeds.get(slot.first) if isinstance(slot.first, int) else None
        b = seeds.get(slot.second) if isinstance(slot.second, int) else None
        existing = by_key.get(key)
        if existing is None:
            if a is not None and b is not None:
                refuse(key)
            continue
        if existing.round == _FINAL_ROUNDS_BEFORE.get(key):
            existing.round = slot.match.round
        if (existing.player_a, existing.player_b) != (a, b) or existing.round != slot.match.round:
            refuse(key)
    for key in by_key:
        if key not in state.slots:
            refuse(key)


def _check_audit(
    audit: list[AuditIn], events, players, matches, disputes: dict[str, DisputeIn]
) -> None:
    for number, entry in enumerate(audit, 1):
        where = f"audit[{number}]"
        if entry.match is not None and entry.match not in matches:
            _unknown(where, entry.match)
        if entry.dispute is not None and entry.dispute not in disputes:
            _unknown(where, entry.dispute)
        _subject_in(entry.subject, f"{where}.subject", events, players, matches, disputes)


def _subject_in(subject, where, events, players, matches, disputes) -> None:
    kind = subject.get("kind")
    if not isinstance(kind, str):
        _missing(f"{where}.kind")
    if subject.get("gone") is True:
        if kind not in SUBJECTS and _content_type(kind) is None:
            _wrong(f"{where}.kind", _("one of %(choices)s") % {"choices": ", ".join(SUBJECTS)})
        return
    needs = {
        "tournament": {},
        "event": {"event": events},
        "entry": {"event": events, "player": players},
        "player": {"player": players},
        "place": {"match": matches},
        "match": {"match": matches},
        "game": {"match": matches},
        "board_game": {"match": matches},
        "dispute": {"dispute": disputes},
    }
    if kind not in needs:
        _wrong(f"{where}.kind", _("one of %(choices)s") % {"choices": ", ".join(SUBJECTS)})
    for name, known in needs[kind].items():
        key = subject.get(name)
        if not isinstance(key, str) or key not in known:
            _unknown(f"{where}.{name}", str(key))
    if kind in ("game", "board_game"):
        number = subject.get("number")
        match = matches[subject["match"]]
        held = match.games if kind == "game" else match.board_games
        if number not in [item.number for item in held]:
            _unknown(f"{where}.number", str(number))
    if kind == "entry":
        event = events[subject["event"]]
        if subject["player"] not in [e.player for e in event.entries]:
            _unknown(f"{where}.player", subject["player"])


def _content_type(kind: str) -> ContentType | None:
    """A model of this site named "app_label.model" (what a gone subject of another kind is)."""
    app_label, _dot, model = kind.partition(".")
    return ContentType.objects.filter(app_label=app_label, model=model).first()


def _match_players(players: list[PlayerIn]) -> None:
    """Each player of the file is this site's player of the same name, club and country
    (preferring the same email; never one player for two of the file), else a new one."""
    taken: set[int] = set()
    names = {p.name for p in players}
    here: dict[tuple[str, str, str], list[Player]] = {}
    for player in Player.objects.filter(name__in=names).order_by("id"):
        here.setdefault((player.name, player.club, str(player.country)), []).append(player)
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


def tournament_import_plan(*, document: Mapping[str, Any]) -> ImportPlan:
    """Check a document and say what importing it would create (nothing is written)."""
    if not isinstance(document, Mapping):
        raise ValidationError(_("This file is not a tournament exported from Crawford."))
    version = _header(document)
    doc = _Part(dict(document), "")
    head = doc.part("tournament")
    identity = head.uuid("uuid") if version >= 2 or "uuid" in head.value else None
    name = head.line("name", 120, blank=False)
    date = head.date("date")
    venue = head.line("venue", 120)
    physical_dice = head.flag("physical_dice")
    late_rounds = (  # a file written before the setting existed: the default
        head.choice("late_rounds", Tournament.LateRounds.values)
        if "late_rounds" in head.value
        else Tournament.LateRounds.LOSS
    )
    usernames = head.texts("directors", 150)

    player_list = _read_players(doc)
    players = _keys(player_list, _("the player"))
    event_list: list[EventIn] = []
    events: dict[str, EventIn] = {}
    for part in doc.parts("events"):
        event = _read_event(part)
        if event.key in events:
            _twice(_("the event"), event.key)
        _check_event(event, events, players)  # a parent is an event before it
        events[event.key] = event
        event_list.append(event)
    match_list = [_read_match(part) for part in doc.parts("matches")]
    matches = _keys(match_list, _("the match"))
    disputes = _keys([d for m in match_list for d in m.disputes], _("the dispute"))
    for number, match in enumerate(match_list, 1):
        where = f"matches[{number}]"
        if match.event not in events:
            _unknown(where, match.event)
        for key in (match.player_a, match.player_b):
            if key not in players:
                _unknown(where, key)
        match.label = _label(match, events, players)
        event = events[match.event]
        _check_match(match, event, players)
        event.matches.append(match)
    for event in event_list:
        if event.format in SHAPES and event.drawn_at is not None:
            _check_knockout(event, players)
        elif event.format not in SHAPES:
            keys = [m.bracket_key for m in event.matches if m.bracket_key]
            if len(keys) != len(set(keys)):
                raise ValidationError(
                    _("%(event)s: two matches have the same place.") % {"event": event.name}
                )
    audit = [_read_audit(part) for part in doc.parts("audit")]
    _check_audit(audit, events, players, matches, disputes)

    _match_players(player_list)
    accounts = get_user_model().objects.filter(username__in=usernames).order_by("username")
    found = tuple(accounts)
    known = {u.get_username() for u in found}
    here = None if identity is None else Tournament.objects.filter(uuid=identity).first()
    alike = () if here else tuple(Tournament.objects.filter(name=name, date=date).order_by("pk"))
    return ImportPlan(
        uuid=identity,
        here=here,
        alike=alike,
        name=name,
        date=date,
        venue=venue,
        physical_dice=physical_dice,
        late_rounds=late_rounds,
        directors_named=tuple(dict.fromkeys(usernames)),
        directors=found,
        directors_missing=tuple(sorted(set(usernames) - known)),
        players=tuple(player_list),
        events=tuple(event_list),
        matches=tuple(match_list),
        audit=tuple(audit),
    )


# --- import ----------------------------------------------------------------------------------


def import_directors_offered(*, plan: ImportPlan, user: Any) -> list[Any]:
    """The accounts the file names as directors that ``user`` may make directors of the copy
    (:func:`club.policy.directors_nameable`): what the preview offers to tick."""
    named = [account.pk for account in plan.directors]
    return list(directors_nameable(user).filter(pk__in=named).order_by("username"))


def _directors_chosen(plan: ImportPlan, user: Any, usernames: Iterable[str]) -> list[Any]:
    """The accounts ticked, each one the file names and ``user`` may name, or the refusal."""
    offered = {
        account.get_username(): account
        for account in import_directors_offered(plan=plan, user=user)
    }
    named = {account.get_username() for account in plan.directors}
    chosen = []
    for name in dict.fromkeys(usernames):
        if name in offered:
            chosen.append(offered[name])
        elif name in named:
            raise ValidationError(
                _(
                    "You may not make %(name)s a director of the tournament: only members of "
                    "the Directors group can be named."
                )
                % {"name": name}
            )
        else:
            raise ValidationError(
                _(
                    "“%(name)s” is not one of the directors the file names with an account on "
                    "this site: choose among those offered."
                )
                % {"name": name}
            )
    return chosen


def tournament_import(
    *, document: Mapping[str, Any], user: Any, directors: Iterable[str] = ()
) -> Tournament:
    """Recreate a tournament from its document, as a new tournament of this site.

    It keeps the document's identity, and one this site already holds is refused
    (:func:`tournament_here_refusal`): never a second copy, its ratings moved twice.
    Players are matched to this site's (same name, club and country) or created.
    The importing person directs it, with ``directors``: user names the file gives
    as its directors, chosen by the importer among the accounts they may name;
    no one else becomes a director because the file says so. Events, entries,
    matches, games, board games, disputes and the trail keep their times; the
    trail is kept as the file's claims, and one audit entry by the importer records
    the import; ratings are re-derived, since rated results arrived.
    """
    require(can_create(user))
    plan = tournament_import_plan(document=document)
    if plan.here is not None:
        raise tournament_here_refusal(plan.here)
    chosen = _directors_chosen(plan, user, directors)
    try:
        with transaction.atomic():
            tournament = _write(plan, user, chosen)
            tournament_audit_record(
                tournament,
                user,
                "tournament.imported",
                params={"name": tournament.name},
                after={
                    "format": FORMAT,
                    "version": document["version"],
                    "uuid": str(tournament.uuid),
                    "events": len(plan.events),
                    "matches": len(plan.matches),
                    "players_new": [p.name for p in plan.players_new],
                    "players_matched": [p.name for p in plan.players_matched],
                    "directors": sorted(u.get_username() for u in tournament.directors.all()),
                    "directors_missing": list(plan.directors_missing),
                },
            )
            ratings_rederive()
    except (IntegrityError, DataError) as error:  # the checks should leave the database nothing
        here = Tournament.objects.filter(uuid=plan.uuid).first() if plan.uuid else None
        if here is not None:  # imported meanwhile, by another request
            raise tournament_here_refusal(here) from error
        raise ValidationError(
            _("The file does not hold together: the database refused it, and nothing was imported.")
        ) from error
    return tournament


def _write(plan: ImportPlan, user: Any, directors: list[Any]) -> Tournament:
    people: dict[str, Player] = {}
    for player in plan.players:
        people[player.key] = player.existing or player_create(
            name=player.name,
            club=player.club,
            country=player.country,
            email=player.email,
            phone=player.phone,
            user=user,
        )
    tournament = Tournament.objects.create(
        uuid=plan.uuid or uuid4(),  # the file's identity, or a new one for a version 1 file
        name=plan.name,
        date=plan.date,
        venue=plan.venue,
        physical_dice=plan.physical_dice,
        late_rounds=plan.late_rounds,
    )
    tournament.directors.set(directors)
    if getattr(user, "is_authenticated", False):
        tournament.directors.add(user)

    events: dict[str, Event] = {}
    for event in plan.events:
        events[event.key] = Event.objects.create(
            tournament=tournament,
            given_name=event.name,
            format=event.format,
            seeding=event.seeding,
            swiss_rounds=event.swiss_rounds,
            cut=event.cut,
            pools=event.pools,
            holland=event.holland,
            third_place=event.third_place,
            parent=events[event.parent] if event.parent else None,
            draw_seed=event.draw_seed,
            drawn_at=event.drawn_at,
        )
    Round.objects.bulk_create(
        Round(event=events[e.key], number=n, length=length)
        for e in plan.events
        for n, length in enumerate(e.lengths, 1)
    )
    entries = [
        Entry(
            event=events[e.key],
            player=people[entry.player],
            status=entry.status,
            seed=entry.seed,
            pool=entry.pool,
            joined_round=entry.joined_round,
        )
        for e in plan.events
        for entry in e.entries
    ]
    Entry.objects.bulk_create(entries)
    Bye.objects.bulk_create(
        Bye(
            event=events[e.key],
            round=bye.round,
            player=people[bye.player],
            reason_code=bye.reason_code,
            reason_params=bye.reason_params,
        )
        for e in plan.events
        for bye in e.byes
    )

    matches: dict[str, Match] = {}
    places, games, actions = [], [], []
    boards: dict[tuple[str, int], BoardGame] = {}
    disputes: dict[str, Dispute] = {}
    for m in plan.matches:
        match = Match.objects.create(  # one by one: the ids keep the file's order
            player_a=people[m.player_a],
            player_b=people[m.player_b],
            length=m.length,
            date=m.date,
            status=m.status,
            final_score_a=m.final_score[0] if m.final_score else None,
            final_score_b=m.final_score[1] if m.final_score else None,
            walkover_winner=m.walkover_winner,
            retired=m.retired,
            finished_at=m.finished_at,
            physical_dice=m.physical_dice,
            holland=m.holland,
        )
        matches[m.key] = match
        places.append(
            Place(
                match=match,
                event=events[m.event],
                round=m.round,
                bracket_key=m.bracket_key,
                reason_code=m.reason_code,
                reason_params=m.reason_params,
            )
        )
        games += [
            Game(
                match=match,
                number=g.number,
                winner=g.winner,
                cube=g.cube,
                result=g.result,
                resigned=g.resigned,
            )
            for g in m.games
        ]
        for b in m.board_games:
            board = BoardGame.objects.create(
                match=match,
                number=b.number,
                pending=b.pending,
                started_at=b.started_at,
                imported=b.imported,
            )
            boards[(m.key, b.number)] = board
            for seq, a in enumerate(b.actions, 1):
                row = BoardAction.from_action(game=board, seq=seq, action=a.as_action())
                row.at = a.at  # who acted is the file's say: no account of this site
                actions.append(row)
        for d in m.disputes:
            disputes[d.key] = Dispute.objects.create(
                match=match,
                opened_at=d.opened_at,
                source=d.source,
                filename=d.filename,
                mat=d.mat,
                swapped=d.swapped,
                sheet_a_a=d.sheet_a[0] if d.sheet_a else None,
                sheet_a_b=d.sheet_a[1] if d.sheet_a else None,
                sheet_b_a=d.sheet_b[0] if d.sheet_b else None,
                sheet_b_b=d.sheet_b[1] if d.sheet_b else None,
                decision=d.decision,
                corrected=d.corrected,
                decided_at=d.decided_at,
            )
    Place.objects.bulk_create(places)
    Game.objects.bulk_create(games, batch_size=500)
    BoardAction.objects.bulk_create(actions, batch_size=500)

    found = {
        "tournament": {None: tournament},
        "event": events,
        "player": people,
        "match": matches,
        "dispute": disputes,
        "entry": {(e.event.pk, e.player.pk): e for e in entries},
        "place": {p.match.pk: p for p in places},
        "game": {(g.match.pk, g.number): g for g in games},
        "board_game": {(b.match.pk, b.number): b for b in boards.values()},
    }
    kinds = {kind: ContentType.objects.get_for_model(model) for kind, model in SUBJECTS.items()}
    AuditEntry.objects.bulk_create(
        (_audit_row(a, found, kinds, tournament) for a in plan.audit),
        batch_size=500,
    )
    return tournament


def _audit_row(entry: AuditIn, found, kinds, tournament: Tournament) -> AuditEntry:
    """The file's entry, kept as its claim: marked imported, naming who the file says acted
    (never an account of this site)."""
    subject = entry.subject
    kind = subject["kind"]
    if subject.get("gone") is True:  # it was no longer there: the kind is kept, with no object
        content_type = kinds.get(kind) or _content_type(kind)
        subject_id = 0
    else:
        content_type = kinds[kind]
        matches = found["match"]
        key: Any = None
        if kind == "tournament":
            key = None
        elif kind in ("event", "player", "match", "dispute"):
            key = subject[kind]
        elif kind == "entry":
            key = (found["event"][subject["event"]].pk, found["player"][subject["player"]].pk)
        elif kind == "place":
            key = matches[subject["match"]].pk
        else:
            key = (matches[subject["match"]].pk, subject["number"])
        subject_id = found[kind][key].pk
    params = dict(entry.params)
    dispute = found["dispute"].get(entry.dispute) if entry.dispute else None
    if dispute is not None and params.get("dispute") == entry.dispute:
        params["dispute"] = dispute.pk
    return AuditEntry(
        at=entry.at,
        user=None,
        user_name=entry.user_name,
        imported=True,
        imported_username=entry.user or "",
        code=entry.code,
        params=params,
        before=entry.before,
        after=entry.after,
        subject_type=content_type,
        subject_id=subject_id,
        match_id=found["match"][entry.match].pk if entry.match else None,
        tournament_id=tournament.pk if entry.tournament else None,
        dispute_id=dispute.pk if dispute is not None else None,
    )
