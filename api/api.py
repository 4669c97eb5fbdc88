"""The API's operations: read-only, versioned under /api/v1/, every answer JSON.

Each operation parses its parameters (django-ninja, from the type hints), reads through the
apps' selectors and answers the schemas of :mod:`api.schemas`. :func:`guard` wraps every one:
the rate limit first, then the ETag (a 304 before any reading), then the operation.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from functools import cache, wraps
from typing import Any, TypeAlias, TypeVar

from django.db.models import Model, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils import translation
from ninja import NinjaAPI
from ninja.errors import ValidationError as NinjaValidationError

# The function `ninja.Query(...)` calls; ninja.Query itself is typed as an annotation (Query[int])
from ninja.params.functions import Query
from ninja.params.models import Query as QueryParam

from club.models import Player
from matches.history import HISTORY, history_of
from matches.models import Match
from tournaments.models import Bye, Entry, Event, Tournament
from tournaments.queries.events import tournament_list
from tournaments.queries.knockouts import DRAW_TITLES, event_knockout, event_placings
from tournaments.queries.players import player_rating_history, player_record_counted
from tournaments.queries.progress import event_progress, tournament_statuses
from tournaments.queries.standings import event_standings
from tournaments.rounds import round_name

from . import schemas, serializers
from .etags import data_key, etag_for, not_modified
from .params import Exact, Id, IsoDate, IsoDateTime, Search
from .throttling import throttled

VERSION = "1"
PAGE_SIZE, MAX_PAGE_SIZE = 50, 100

View: TypeAlias = Callable[..., HttpResponseBase]
Data: TypeAlias = dict[str, Any]  # an answer's JSON, before ninja checks it against its schema
M = TypeVar("M", bound=Model)


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


def error_response(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


def not_found(what: str, pk: object) -> ApiError:
    return ApiError(404, "not_found", f"No {what} with id {pk}.")


# --- the guard: rate limit, then ETag ----------------------------------------------------------


@cache
def schema_revision() -> str:
    """A hash of the OpenAPI schema: a deploy that changes the API's shape changes every ETag."""
    schema = api.get_openapi_schema(path_prefix="/api/v1/")
    return hashlib.sha256(json.dumps(schema, sort_keys=True).encode()).hexdigest()[:12]


def query_parameters(view: View) -> tuple[str, ...] | None:
    """The query parameters an operation takes, by the names clients send; None for a view
    that is not an operation (the docs, the schema), which takes any."""
    operation = getattr(view, "__self__", None)
    signature = getattr(operation, "signature", None)
    if signature is None:
        return None
    return tuple(p.alias for p in signature.params if isinstance(p.source, QueryParam))


def unknown_parameters(request: HttpRequest, known: tuple[str, ...]) -> JsonResponse | None:
    """A 422 naming the query parameters the operation does not take, and those it does: a
    misspelt filter (``players?name_part=``) would otherwise be ignored, and answer
    everything as if it had been obeyed."""
    unknown = sorted(set(request.GET) - set(known))
    if not unknown:
        return None
    listed = ", ".join(known) or "none"
    detail = (
        f"Unknown query parameter{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}. "
        f"This address takes: {listed}."
    )
    return JsonResponse(
        {"code": "unknown_parameter", "detail": detail, "unknown": unknown, "known": list(known)},
        status=422,
    )


def guarded(view: View, *, static: bool = False) -> View:
    """The rate limit (429 with Retry-After, in plain words), then the query's parameters (a
    422 for one the operation does not take), then the ETag: a 304 when the client already
    has this answer, else the view's answer with its ETag. The tag is taken before the view
    reads, so a change made meanwhile can only make the next tag differ.
    ``static``: the answer does not depend on the data (the schema, the docs)."""
    known = query_parameters(view)

    @wraps(view)
    def run(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        refusal = throttled(request)
        if refusal is not None:
            detail, wait = refusal
            response = error_response(429, "throttled", detail)
            response["Retry-After"] = str(wait)
            return response
        if known is not None:
            unknown = unknown_parameters(request, known)
            if unknown is not None:
                return unknown
        tag = etag_for(request, key="" if static else data_key(), revision=schema_revision())
        unchanged = not_modified(request, tag)
        if unchanged is not None:
            unchanged["Cache-Control"] = "no-cache"
            return unchanged
        answer = view(request, *args, **kwargs)
        if answer.status_code == 200:
            answer["ETag"] = tag
            answer["Cache-Control"] = "no-cache"  # kept, but asked again (a 304 is cheap)
        return answer

    return run


api = NinjaAPI(
    title="Crawford API",
    version=VERSION,
    description=(
        "Read-only: tournaments, events, rounds, standings, matches with their score sheets "
        "game by game, players with their ratings. Every answer carries an ETag (send it back "
        "as If-None-Match for a 304). Anonymous clients are rate-limited per address, "
        "signed-in users less. Codes (statuses, formats, results) are never translated; "
        "numbers are JSON numbers; dates and times ISO 8601."
    ),
    urls_namespace="api-v1",
    docs_url="/docs",
    docs_decorator=lambda view: guarded(view, static=True),
)
api.add_decorator(guarded, mode="view")


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, error: ApiError) -> HttpResponse:
    return error_response(error.status, error.code, error.detail)


@api.exception_handler(Http404)
def _http404(request: HttpRequest, error: Http404) -> HttpResponse:
    return error_response(404, "not_found", "Nothing here: see /api/v1/docs for the addresses.")


def _said(problem: dict[str, Any]) -> str:
    """pydantic's message; our own refusals (api.params) without its "Value error, "."""
    if problem.get("type") == "value_error" and "error" in problem.get("ctx", {}):
        return str(problem["ctx"]["error"])
    return str(problem.get("msg", ""))


@api.exception_handler(NinjaValidationError)
def _invalid(request: HttpRequest, error: NinjaValidationError) -> HttpResponse:
    problems = [
        f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: {_said(e)}"
        for e in error.errors
    ]
    return JsonResponse(
        {"code": "invalid", "detail": "; ".join(problems), "errors": error.errors}, status=422
    )


# --- pagination ----------------------------------------------------------------------------


def paginate(
    request: HttpRequest,
    queryset: QuerySet[M],
    page: int,
    page_size: int,
    out: Callable[[M], Data] | None,
    *,
    prepare: Callable[[list[M]], Callable[[M], Data]] | None = None,
) -> Data:
    """One page of ``queryset``, each item through ``out``; links to the pages beside it.
    ``prepare``: reads what the page's items need all at once, and gives each item's ``out``."""
    size = max(1, min(page_size, MAX_PAGE_SIZE))
    count = queryset.count()
    pages = max(1, math.ceil(count / size))
    if page > pages:
        plural = "s" if pages != 1 else ""
        raise ApiError(404, "not_found", f"No page {page}: {pages} page{plural} of {size}.")
    items = list(queryset[(page - 1) * size : page * size])
    each = prepare(items) if prepare else out
    if each is None:
        raise TypeError("paginate() needs out or prepare")

    def link(number: int) -> str | None:
        if not 1 <= number <= pages:
            return None
        query = request.GET.copy()
        query["page"] = str(number)
        return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")

    return {
        "count": count,
        "page": page,
        "pages": pages,
        "next": link(page + 1),
        "previous": link(page - 1),
        "items": [each(item) for item in items],
    }


def answers(body: Any) -> dict[int, Any]:
    """An operation's answers for the schema: its body, and the refusals any may give."""
    return {200: body, 404: schemas.Error, 422: schemas.Error, 429: schemas.Error}


Page = Query(1, ge=1, description="the page's number, from 1")
Size = Query(
    PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description=f"items a page, at most {MAX_PAGE_SIZE}"
)


# --- tournaments and events --------------------------------------------------------------------


@api.get("/tournaments", response=answers(schemas.TournamentPage), tags=["tournaments"])
def tournaments(
    request: HttpRequest,
    date_from: IsoDate | None = Query(None, description="on or after this day (ISO 8601)"),
    date_to: IsoDate | None = Query(None, description="on or before this day (ISO 8601)"),
    q: Search = Query("", description="part of the name (any case)"),
    page: int = Page,
    page_size: int = Size,
) -> Data:
    """Tournaments, the newest first."""
    found = tournament_list()
    if date_from:
        found = found.filter(date__gte=date_from)
    if date_to:
        found = found.filter(date__lte=date_to)
    if q:
        found = found.filter(name__icontains=q)
    return paginate(request, found, page, page_size, None, prepare=_tournaments_out)


def _tournaments_out(tournaments: list[Tournament]) -> Callable[[Tournament], Data]:
    statuses = tournament_statuses(tournaments=tournaments)
    return lambda t: serializers.tournament_out(t, statuses[t.pk])


@api.get("/tournaments/{int:pk}", response=answers(schemas.TournamentDetail), tags=["tournaments"])
def tournament(request: HttpRequest, pk: Id) -> Data:
    found = tournament_list().filter(pk=pk).first()
    if found is None:
        raise not_found("tournament", pk)
    return {
        **_tournaments_out([found])(found),
        "events": [serializers.event_ref(e) for e in found.events.order_by("id")],
    }


def _event(pk: int) -> Event:
    found = (
        Event.objects.select_related("tournament").prefetch_related("rounds").filter(pk=pk).first()
    )
    if found is None:
        raise not_found("event", pk)
    return found


def match_queryset() -> QuerySet[Match]:
    """Matches with all a list shows, in a fixed number of queries however many there are."""
    return Match.objects.select_related(
        "player_a", "player_b", "place__event", "table"
    ).prefetch_related(*HISTORY)


def _event_data(event: Event) -> tuple[list[Entry], list[Match]]:
    entries = list(
        event.entries.select_related("player").order_by("seed", "player__sort_name", "id")
    )
    matches = list(match_queryset().filter(place__event=event).order_by("place__round", "id"))
    return entries, matches


@api.get("/events/{int:pk}", response=answers(schemas.EventDetail), tags=["tournaments"])
def event(request: HttpRequest, pk: Id) -> Data:
    """An event: its format, its rounds' lengths, its entries and where it stands."""
    found = _event(pk)
    entries, matches = _event_data(found)
    knockout = event_knockout(event=found, entries=entries, matches=matches)
    progress = event_progress(event=found, matches=matches, knockout=knockout)
    return {
        "id": found.pk,
        "tournament": found.tournament_id,
        "name": found.name,
        "format": found.format,
        "seeding": found.seeding,
        "holland": found.holland,
        "third_place": found.third_place,
        "swiss_rounds": found.swiss_rounds,
        "pools": found.pools,
        "cut": found.cut,
        "parent": found.parent_id,
        "cut_to": next((child.pk for child in found.children.order_by("id")), None),
        "drawn_at": found.drawn_at,
        "draw_seed": found.draw_seed,
        "lengths": [{"number": r.number, "length": r.length} for r in found.rounds.all()],
        "entries": [serializers.entry_out(e) for e in entries],
        "progress": {
            "stage": progress.stage,
            "round": progress.round,
            "round_stage": progress.round_name.stage.value if progress.round_name else None,
            "champion": serializers.player_ref(progress.champion),
        },
    }


def _rounds(event: Event, entries: list[Entry], matches: list[Match]) -> list[dict[str, Any]]:
    byes = list(Bye.objects.filter(event=event).select_related("player"))
    numbers = sorted({m.place.round for m in matches} | {b.round for b in byes})
    drawn = [e for e in entries if e.seed is not None and e.status != Entry.Status.WITHDRAWN]
    found = []
    for number in numbers:
        in_round = [m for m in matches if m.place.round == number]
        name = round_name(number, [m.place.bracket_key for m in in_round])
        playing = {p for m in in_round for p in (m.player_a_id, m.player_b_id)}
        resting = []
        if event.format == Event.Format.ROUND_ROBIN:
            resting = [
                serializers.player_ref(e.player) for e in drawn if e.player_id not in playing
            ]
        found.append(
            {
                "event": event.pk,
                "number": number,
                "stage": name.stage.value,
                "length": event.length_of(name),
                "matches": [serializers.match_out(m) for m in in_round],
                "byes": [
                    {"player": serializers.player_ref(b.player), "reason": b.reason_code}
                    for b in byes
                    if b.round == number
                ],
                "resting": resting,
            }
        )
    return found


@api.get("/events/{int:pk}/rounds", response=answers(list[schemas.RoundOut]), tags=["tournaments"])
def rounds(request: HttpRequest, pk: Id) -> list[Data]:
    """The event's rounds paired so far, each with its matches (and a Swiss round's bye)."""
    found = _event(pk)
    return _rounds(found, *_event_data(found))


@api.get(
    "/events/{int:pk}/rounds/{int:number}", response=answers(schemas.RoundOut), tags=["tournaments"]
)
def round_(request: HttpRequest, pk: Id, number: Id) -> Data:
    found = _event(pk)
    entries, matches = _event_data(found)
    for paired in _rounds(found, entries, matches):
        if paired["number"] == number:
            return paired
    raise ApiError(404, "not_found", f"Event {pk} has no round {number} paired.")


@api.get("/events/{int:pk}/standings", response=answers(schemas.StandingsOut), tags=["tournaments"])
def standings(request: HttpRequest, pk: Id) -> Data:
    """A Swiss's or round robin's table; a finished knockout's placings."""
    found = _event(pk)
    entries, matches = _event_data(found)
    swiss = found.format == Event.Format.SWISS  # else a round robin: the tie-breaks differ
    table = [
        {
            "rank": row.standing.rank,
            "player": serializers.player_ref(row.player),
            "pool": row.pool,
            "played": row.standing.played,
            "wins": row.standing.wins,
            "losses": row.standing.losses,
            "byes": row.standing.byes,
            "buchholz": row.standing.buchholz if swiss else None,
            "median": row.standing.median if swiss else None,
            "head_to_head": None if swiss else row.standing.head_to_head,
            "points_for": row.standing.points_for,
            "points_against": row.standing.points_against,
            "difference": row.standing.difference,
            "withdrawn": row.withdrawn,
            "shared": row.standing.shared,
            "decided_by": row.standing.decided_by,
        }
        for row in event_standings(event=found, entries=entries, matches=matches)
    ]
    placings = []
    knockout = event_knockout(event=found, entries=entries, matches=matches)
    if knockout is not None:
        with translation.override(None):  # the sections' titles as their msgids: the codes
            codes = {str(title): code for code, title in DRAW_TITLES.items()}
            sections = event_placings(event=found, knockout=knockout)
        for title, places in sections:
            placings += [
                {
                    "draw": codes[title],
                    "first": place.first,
                    "last": place.last,
                    "players": [serializers.player_ref(p) for p in place.players],
                }
                for place in places
            ]
    return {"event": found.pk, "format": found.format, "table": table, "placings": placings}


# --- matches -----------------------------------------------------------------------------------


@api.get("/matches", response=answers(schemas.MatchPage), tags=["matches"])
def matches(
    request: HttpRequest,
    tournament: Id | None = Query(None, description="a tournament's id"),
    event: Id | None = Query(None, description="an event's id"),
    player: Id | None = Query(None, description="a player's id: their matches"),
    status: schemas.MatchStatus | None = Query(None, description="the match's status"),
    finished_since: IsoDateTime | None = Query(
        None, description="ISO 8601; a date or a time without offset is the site's time zone"
    ),
    date_from: IsoDate | None = Query(None, description="played on or after this day"),
    date_to: IsoDate | None = Query(None, description="played on or before this day"),
    page: int = Page,
    page_size: int = Size,
) -> Data:
    """Matches, the newest first (by date, then the latest made), with their scores."""
    found = match_queryset().order_by("-date", "-id")
    if tournament is not None:
        found = found.filter(place__event__tournament_id=tournament)
    if event is not None:
        found = found.filter(place__event_id=event)
    if player is not None:
        found = found.filter(Q(player_a_id=player) | Q(player_b_id=player))
    if status:
        found = found.filter(status=status)
    if finished_since is not None:  # in UTC (api.params)
        found = found.filter(finished_at__gte=finished_since)
    if date_from:
        found = found.filter(date__gte=date_from)
    if date_to:
        found = found.filter(date__lte=date_to)
    return paginate(request, found, page, page_size, serializers.match_out)


@api.get("/matches/{int:pk}", response=answers(schemas.MatchDetail), tags=["matches"])
def match(request: HttpRequest, pk: Id) -> Data:
    """A match with its score sheet game by game: the score after each game, the Crawford
    game and the post-Crawford games, all derived by the rules engine."""
    found = match_queryset().filter(pk=pk).first()
    if found is None:
        raise not_found("match", pk)
    return serializers.match_detail(found)


# --- players -----------------------------------------------------------------------------------


@api.get("/players", response=answers(schemas.PlayerPage), tags=["players"])
def players(
    request: HttpRequest,
    q: Search = Query("", description="part of the name (any case)"),
    name: Exact = Query("", description="the whole name, exactly (any case)"),
    club: Exact = Query("", description="the club, exactly (any case)"),
    country: Exact = Query(
        "", description="the country's ISO 3166-1 alpha-2 code (any case): IT, CH, DE"
    ),
    page: int = Page,
    page_size: int = Size,
) -> Data:
    """Players by name, with their ratings."""
    found = Player.objects.order_by("sort_name", "name", "id")
    if q:
        found = found.filter(name__icontains=q)
    if name:
        found = found.filter(name__iexact=name)
    if club:
        found = found.filter(club__iexact=club)
    if country:
        found = found.filter(country__iexact=country)
    return paginate(request, found, page, page_size, serializers.player_out)


def _player(pk: int) -> Player:
    found = Player.objects.filter(pk=pk).first()
    if found is None:
        raise not_found("player", pk)
    return found


@api.get("/players/{int:pk}", response=answers(schemas.PlayerDetail), tags=["players"])
def player(request: HttpRequest, pk: Id) -> Data:
    """The player, with their matches won and lost (walkovers included) over all of them."""
    # counted by the database in one aggregate, as the player's page counts them: a player
    # with a thousand matches costs what one with three does (issue 29)
    found = _player(pk)
    record = player_record_counted(player=found)
    return {
        **serializers.player_out(found),
        "matches_won": record.won,
        "matches_lost": record.lost,
    }


@api.get("/players/{int:pk}/ratings", response=answers(schemas.RatingPage), tags=["players"])
def ratings(request: HttpRequest, pk: Id, page: int = Page, page_size: int = Size) -> Data:
    """The player's rating history, the latest rated match first."""
    found = _player(pk)
    history = player_rating_history(player=found).prefetch_related(*history_of("match"))
    return paginate(request, history, page, page_size, serializers.rating_change_out)
