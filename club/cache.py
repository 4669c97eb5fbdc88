"""The site's cache, which degrades instead of failing: the one way every app uses it.

The cache (Redis with REDIS_URL, else each process's memory) only ever holds what can be
worked out again: the rate counts of the API and of the public sign-up, the live pages'
rendered content, match files' replays. So when it cannot be reached the site goes on without
it: a read finds nothing and a write keeps nothing, which means rate limits fail open, live
pages are rendered for each poll, replays are replayed. A page never answers 500 for it.

The operator reads one warning (one line, no traceback), then another only if the cache is
still down after :data:`QUIET_SECONDS`, and a line when it answers again; never one a request.
After a failure the cache is not asked again for :data:`RETRY_SECONDS`, so a Redis that does
not answer at all (its connection timing out) costs one wait in that time, not one a call.

Use :data:`cache` as Django's own (``cache.get``, ``cache.set``, ``get_many``, ``set_many``);
it asks ``django.core.cache.caches["default"]`` on each call, so tests may change CACHES.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import caches

logger = logging.getLogger(__name__)

QUIET_SECONDS = 600  # an outage is said again at most this often while it lasts
RETRY_SECONDS = 30  # after a failure, the cache is left alone this long

T = TypeVar("T")


class DegradingCache:
    """Django's default cache, each call guarded: when the cache fails, the call's fallback."""

    clock: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Forget any outage (the tests' fixtures start each test afresh)."""
        self._down_since: float | None = None  # when the outage began, or None: it answers
        self._retry_at = 0.0
        self._warned_at: float | None = None
        self._missed = 0  # calls answered without the cache since the last warning

    # --- the calls the site makes ---------------------------------------------------------

    def get(self, key: str, default: Any = None) -> Any:
        return self._use(lambda found: found.get(key, default), default)

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        return self._use(lambda found: found.get_many(keys), {})

    def set(self, key: str, value: Any, timeout: float | None) -> None:
        self._use(lambda found: found.set(key, value, timeout), None)

    def set_many(self, values: dict[str, Any], timeout: float | None) -> None:
        self._use(lambda found: found.set_many(values, timeout), None)

    # --- the degrading ----------------------------------------------------------------------

    def _use(self, call: Callable[[Any], T], fallback: T) -> T:
        """``call`` on the cache; ``fallback`` when it fails, or failed a moment ago."""
        if self._down_since is not None and self.clock() < self._retry_at:
            self._missed += 1
            return fallback
        try:
            found = call(caches["default"])
        except Exception as error:  # Redis down, timing out, or holding what cannot be read
            self._failed(error)
            return fallback
        if self._down_since is not None:
            self._answered()
        return found

    def _failed(self, error: Exception) -> None:
        with self._lock:
            now = self.clock()
            self._missed += 1
            self._retry_at = now + RETRY_SECONDS
            if self._down_since is None:
                self._down_since = now
            if self._warned_at is not None and now - self._warned_at < QUIET_SECONDS:
                return
            first = self._warned_at is None
            self._warned_at, missed, self._missed = now, self._missed, 0
        if first:
            logger.warning(
                "The cache (%s) does not answer (%s: %s): the site goes on without it, rate "
                "limits not counted and nothing kept; said again every %s minutes while it "
                "is down.",
                where(),
                type(error).__name__,
                error,
                QUIET_SECONDS // 60,
            )
        else:
            logger.warning(
                "The cache (%s) still does not answer (%s: %s): %s calls went without it "
                "since the last warning.",
                where(),
                type(error).__name__,
                error,
                missed,
            )

    def _answered(self) -> None:
        with self._lock:
            if self._down_since is None:
                return
            seconds = round(self.clock() - self._down_since)
            self.reset()
        logger.warning("The cache (%s) answers again, after %s seconds.", where(), seconds)


def where() -> str:
    """The cache's address as the operator set it (REDIS_URL, its password left out), or
    its kind."""
    found = settings.CACHES["default"]
    location = str(found.get("LOCATION") or "")
    if not location:
        return str(found["BACKEND"]).rsplit(".", 1)[-1]
    address = urlsplit(location)
    if address.password is None:
        return location
    return address._replace(netloc=f"{address.hostname}:{address.port or 6379}").geturl()


cache = DegradingCache()
