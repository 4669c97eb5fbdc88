"""Live pages: answered with an ETag, and 304 Not Modified while nothing changed.

The bracket, a round's pairings, the standings (the event page), the matches now playing and
the wall display refresh themselves (static/site.js ``data-refresh``): every few seconds each
phone asks its page again with ``If-None-Match``. Three hundred phones must cost the server
almost nothing while nothing happens, so the ETag is computed without rendering the page, in
one query, from what changes these pages:

- the tournament's newest audit entry and how many it has: every write to a tournament (a
  result, a walkover, a draw, a check-in, a table move, an announcement...) records one in its
  transaction, and the count sees an entry committed late with an older id (PostgreSQL);
- the newest audit entry about a player (a name or a club put right shows on every page);
- how many of its matches are in play: a match begins at the board's first roll, which is not
  an audit entry of its own (the games that follow are), and a match leaves play only through
  an audited result, so the count changes with every beginning;
- how many announcements are on show: one whose time is over leaves the wall unannounced;

and from the request: the language, who is signed in and whether they direct the tournament,
and the CSRF cookie, whose token the page's forms carry (a directors' page's content too).
A request with a message waiting for it (a flash after a redirect) gets no ETag: the page
must be rendered to show it.

Server-sent events would push instead of being asked, but each viewer would hold a worker of
the synchronous gunicorn server for as long as the page is open: 300 phones, 300 workers.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeAlias, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.db.models import Count, F, IntegerField, Model, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import condition

from club.cache import cache
from club.kept import with_token
from club.models import AuditEntry, Player
from club.policy import can_direct
from matches.models import Match

from .models import Announcement, Event, Tournament


def live_seconds() -> int:
    """How often a live page asks again (the LIVE_REFRESH_SECONDS setting, 10 by default)."""
    return int(getattr(settings, "LIVE_REFRESH_SECONDS", 10))


def wall_seconds() -> int:
    """How long the wall shows each screen (the WALL_SCREEN_SECONDS setting, 20 by default)."""
    return int(getattr(settings, "WALL_SCREEN_SECONDS", 20))


def _count(queryset: QuerySet[Model], field: str) -> Coalesce:
    """A correlated COUNT(*) as a subquery (0 when none)."""
    counted = queryset.values(field).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


# (tournament id, newest audit id, its time, audit count, newest player audit id, player
# audit count, matches in play, announcements shown): see live_stamp
Stamp: TypeAlias = tuple[int, int | None, datetime.datetime | None, int, int | None, int, int, int]


def live_stamp(*, tournament_id: int | None = None, event_id: int | None = None) -> Stamp | None:
    """What the tournament's live pages show has changed since a stamp unless it is equal:
    ``(tournament id, newest audit id, time and count, newest player audit id and count,
    matches in play, announcements shown)``, in one query; None when there is no such
    tournament or event."""
    if event_id is not None:
        tournaments = Tournament.objects.filter(
            pk=Subquery(Event.objects.filter(pk=event_id).values("tournament_id")[:1])
        )
    elif tournament_id is not None:
        tournaments = Tournament.objects.filter(pk=tournament_id)
    else:
        tournaments = Tournament.objects.none()  # neither: no such tournament
    player_kind = ContentType.objects.get_for_model(Player)  # cached by Django after once
    now = timezone.now()
    newest = AuditEntry.objects.filter(tournament_id=OuterRef("pk")).order_by("-id")
    newest_player = AuditEntry.objects.filter(subject_type=player_kind).order_by("-id")
    playing = Match.objects.filter(
        place__event__tournament=OuterRef("pk"), status=Match.Status.IN_PLAY
    )
    shown = Announcement.objects.filter(
        Q(shown_until__isnull=True) | Q(shown_until__gt=now),
        tournament=OuterRef("pk"),
        withdrawn_at__isnull=True,
    )
    row = (
        tournaments.annotate(
            newest=Subquery(newest.values("id")[:1]),
            # and its time: a database made anew reuses ids, never a microsecond too
            newest_at=Subquery(newest.values("at")[:1]),
            # and how many: PostgreSQL hands out ids before commit, so an entry committed
            # after a younger one has an older id than the newest; the trail only grows
            recorded=_count(newest.order_by(), "tournament_id"),
            newest_player=Subquery(newest_player.values("id")[:1]),
            players_recorded=_count(newest_player.order_by(), "subject_type"),
            playing=_count(playing.annotate(t=F("place__event__tournament")), "t"),
            shown=_count(shown, "tournament"),
        )
        .values_list(
            "pk",
            "newest",
            "newest_at",
            "recorded",
            "newest_player",
            "players_recorded",
            "playing",
            "shown",
        )
        .first()
    )
    # the annotations' types are the subqueries' (the stubs see Any)
    return cast(Stamp, tuple(row)) if row is not None else None


def _viewer(request: HttpRequest, tournament_id: int) -> str:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return "-"
    directing = can_direct(user, Tournament(pk=tournament_id))
    return f"{user.pk}:{'director' if directing else 'reader'}"


def live_etag(
    request: HttpRequest, *, by_minute: bool = False, directors_only: bool = False, **where: int
) -> str | None:
    """The ETag of a live page (see the module), or None: render the page as usual.

    ``by_minute``: the page also shows minutes gone by (the dashboard: since a match began,
    how late a player is), so its ETag changes with the clock's minute too.
    ``directors_only``: anyone else is answered by the view (403), never by a 304."""
    if request.method not in ("GET", "HEAD"):
        return None
    if len(messages.get_messages(request)):  # read, not consumed: the page will show them
        return None
    stamp = live_stamp(**where)
    if stamp is None:
        return None  # the view answers 404
    viewer = _viewer(request, stamp[0])
    if directors_only and not viewer.endswith(":director"):
        return None
    # another region than the content's (the check-in list's, answered the whole page, whose
    # forms carry the cookie's token) has an ETag of its own
    target = request.headers.get("HX-Target", "") if request.headers.get("HX-Request") else ""
    other = "" if target == _region(request) else target
    minute = timezone.now().strftime("%Y-%m-%d %H:%M") if by_minute else ""
    parts = (*stamp, get_language(), viewer, request.get_full_path(), other, minute)
    content = hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()
    # what the browser holds carries the CSRF token of its cookie in its forms (the whole
    # page's; a directors' page's content too, the dashboard's "Arrived"): a new cookie (signed
    # in again) is a new ETag. What is kept for the next viewers (below) is keyed without it,
    # with a mark where the token goes; a public page's content has no form, and its ETag is
    # the same for every viewer, as the kept whole page gives it to its region
    cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    held = hashlib.blake2b(f"{content}{cookie}".encode(), digest_size=12).hexdigest()
    region_etag = held if directors_only else content
    # the page gives its region this one at once; these two marks on the request are the
    # live pages' own (read back by getattr), which HttpRequest's type does not declare
    request.live_content_etag = f'"{region_etag}-c"'  # type: ignore[attr-defined]
    if content_asked(request):
        request.live_cache_key = f"live:{content}"  # type: ignore[attr-defined]
        return f"{region_etag}-c"
    # the whole page gives its region the ETag above: a directors' page is kept per cookie
    request.live_page_key = f"live-page:{region_etag}"  # type: ignore[attr-defined]
    return f"{held}-p"


def content_etag(request: HttpRequest) -> str:
    """The ETag the content only of this page has now, quoted, for the region's first
    request; empty when the page had none (a message was shown)."""
    return getattr(request, "live_content_etag", "")


CONTENT_KEPT_SECONDS = 300
REGION = "live"  # the id of a live page's region (templates/includes/live_region.html)


def live_page(
    request: HttpRequest, context: dict[str, Any], page: str, content: str
) -> HttpResponse:
    """A live page, or its content only when the page's region asks (``HX-Request``). A whole
    page that will be kept for the next viewer (:func:`live`) is rendered with a mark where
    its forms carry the CSRF token."""
    context.setdefault("refresh_seconds", live_seconds())
    context["live_etag"] = content_etag(request)
    kept = getattr(request, "live_cache_key", None) or getattr(request, "live_page_key", None)
    if kept is not None:  # for the next viewers too: forms carry a mark for each one's token
        request.page_marked = True  # type: ignore[attr-defined]  # club.context.token_mark
    if content_asked(request):
        return render(request, content, context)
    return render(request, page, context)


def _region(request: HttpRequest) -> str:
    """The id of the page's region (set by :func:`live` on the request)."""
    return str(getattr(request, "live_region", REGION))


def content_asked(request: HttpRequest) -> bool:
    """The page's region asks for its content only: ``HX-Request`` and ``HX-Target`` the
    region's id (``live``; the dashboard's is ``dashboard``). htmx's own requests (a check-in
    on the event page) carry ``HX-Request`` through their redirect to the page too, and must
    get the whole page."""
    return request.headers.get("HX-Request") == "true" and request.headers.get(
        "HX-Target"
    ) == _region(request)


P = ParamSpec("P")


def live(
    where: Callable[[dict[str, Any]], dict[str, int]],
    *,
    region: str = REGION,
    by_minute: bool = False,
    directors_only: bool = False,
) -> Callable[
    [Callable[Concatenate[HttpRequest, P], HttpResponseBase]],
    Callable[Concatenate[HttpRequest, P], HttpResponseBase],
]:
    """A live page: ETag and 304 through Django's ``condition``; its answers (304 included)
    must be checked again before reuse (``no-cache``) and vary with the language, the
    cookies (who is signed in) and ``HX-Request`` (the content only). ``region``: the id of
    the page's region that asks for its content; ``by_minute`` and ``directors_only`` as
    :func:`live_etag` has them."""

    def decorate(
        view: Callable[Concatenate[HttpRequest, P], HttpResponseBase],
    ) -> Callable[Concatenate[HttpRequest, P], HttpResponseBase]:
        def etag(request: HttpRequest, **kwargs: Any) -> str | None:
            return live_etag(
                request, by_minute=by_minute, directors_only=directors_only, **where(kwargs)
            )

        @wraps(view)
        def rendered_once(
            request: HttpRequest, *args: P.args, **kwargs: P.kwargs
        ) -> HttpResponseBase:
            """What is rendered is kept under its ETag (per process without Redis): after a
            change, the first viewer renders the content (or the page) and the others' are
            answered from the cache. The ETag names everything it depends on, so this is as
            sound as the 304 itself. A whole page is kept only as :func:`live_page` rendered
            it, with the token's mark, never with a visitor's token."""
            content_key = getattr(request, "live_cache_key", None)
            page_key = getattr(request, "live_page_key", None)
            key = content_key or page_key
            if key is not None:
                kept = cache.get(key)
                if kept is not None:
                    return HttpResponse(with_token(request, kept))
            response = view(request, *args, **kwargs)
            if (
                key is not None
                and response.status_code == 200
                and isinstance(response, HttpResponse)
                and getattr(request, "page_marked", False)  # rendered by live_page to be kept
            ):
                cache.set(key, response.content, CONTENT_KEPT_SECONDS)
                response.content = with_token(request, response.content)
            return response

        conditional = condition(etag_func=etag)(rendered_once)

        @wraps(view)
        def wrapped(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
            request.live_region = region  # type: ignore[attr-defined]
            response = conditional(request, *args, **kwargs)
            patch_vary_headers(response, ["Accept-Language", "Cookie", "HX-Request", "HX-Target"])
            if response.status_code in (200, 304):
                patch_cache_control(response, no_cache=True, private=True)
            return response

        return wrapped

    return decorate


def by_event(kwargs: dict[str, Any]) -> dict[str, int]:
    return {"event_id": kwargs["pk"]}


def by_tournament(kwargs: dict[str, Any]) -> dict[str, int]:
    return {"tournament_id": kwargs["pk"]}
