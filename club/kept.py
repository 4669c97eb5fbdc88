"""Public pages kept while nothing is written to the database (PostgreSQL's snapshot).

A page that grows with the history (a season's busiest player has a thousand matches) costs
tens of milliseconds to read and render, and a visitor's page depends only on the database,
the address, the language and whether it is a visitor (nobody signed in, no message waiting).
So such a page, once rendered for a visitor, is kept (in the site's cache) under the
database's snapshot, ``pg_current_snapshot()``: which transactions a new query would see as
committed. Two equal snapshots see the same data, and any write, anywhere, commits a
transaction and so makes the snapshot another: a kept page is never older than the database
(it may be newer, when a write commits while it is rendered, and is then kept under the
older snapshot, which no later request can have). On a quiet site (most of a federation's
week) the pages are answered from the cache; on an evening of play, each write means the
next visitor renders them again.

Only on PostgreSQL (SQLite has no snapshot to ask: the page is rendered each time), only for
GET by a visitor signed out with no message waiting, outside a transaction, and only
answers 200. Forms on the page
(the language menu) carry each visitor's own CSRF token: the page is kept with a mark where
the token goes (:func:`club.context.token_mark`), put in for each visitor.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec

from django.contrib import messages
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from .cache import cache

KEPT_SECONDS = 600
# what a kept page has where its forms carry the CSRF token (letters only: the csrf_token
# tag writes it as it is); set by club.context.token_mark on a request marked page_marked
TOKEN_MARK = "livepagecsrftokenmark"


def with_token(request: HttpRequest, kept: bytes) -> bytes:
    """A kept page (or a live page's content) with this visitor's CSRF token in its forms;
    as it is when it has none (no token asked for: no cookie set for it)."""
    mark = TOKEN_MARK.encode()
    return kept.replace(mark, get_token(request).encode()) if mark in kept else kept


def database_snapshot() -> str | None:
    """The snapshot a query would read now (``xmin:xmax:in-progress``), or None where the
    database has none to tell (SQLite), or inside a transaction, whose own writes it does
    not show (a request is in none, unless a test wraps it in one)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_snapshot()::text")
        row = cursor.fetchone()
    return str(row[0]) if row else None


def _key(request: HttpRequest) -> str | None:
    if request.method != "GET" or request.user.is_authenticated:
        return None
    if len(messages.get_messages(request)):  # read, not consumed: the page will show them
        return None
    snapshot = database_snapshot()
    if snapshot is None:
        return None
    # the day too: a page may say "today"; the language with its English formats variant
    parts = (snapshot, request.get_full_path(), get_language(), timezone.localdate())
    return "kept:" + hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


P = ParamSpec("P")


def kept_until_written(
    view: Callable[Concatenate[HttpRequest, P], HttpResponseBase],
) -> Callable[Concatenate[HttpRequest, P], HttpResponseBase]:
    """A visitor's page kept until the next write to the database (see the module)."""

    @wraps(view)
    def wrapped(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
        key = _key(request)
        if key is None:
            return view(request, *args, **kwargs)
        kept = cache.get(key)
        if kept is not None:
            response: HttpResponseBase = HttpResponse(with_token(request, kept))
        else:
            request.page_marked = True  # type: ignore[attr-defined]
            response = view(request, *args, **kwargs)
            if response.status_code == 200 and isinstance(response, HttpResponse):
                cache.set(key, response.content, KEPT_SECONDS)
                response.content = with_token(request, response.content)
        patch_vary_headers(response, ["Cookie", "Accept-Language"])
        return response

    return wrapped
