"""Rates read from settings, counted by django-ninja's throttle in the site's cache.

django-ninja's SimpleRateThrottle keeps each client's recent request times (a sliding window)
in the cache: here :mod:`club.cache`'s, so with the cache down every request goes through (the
rate fails open) rather than failing. A client's address is read as django-ninja reads it:
the connection's, or behind API_PROXIES proxies the one they append to X-Forwarded-For (a
forged header changes nothing). The rate comes from its setting on every use, so a server
changes it without code. Used by the API (:mod:`api.throttling`) and the public sign-up.
"""

from __future__ import annotations

import math
from typing import cast

from django.conf import settings
from django.core.cache.backends.base import BaseCache
from django.http import HttpRequest
from ninja.throttling import SimpleRateThrottle

from .cache import cache


class SiteRate(SimpleRateThrottle):
    """A rate read from a setting; one instance per request (it keeps that request's count)."""

    setting = ""
    # a cache that is down lets every request through (club.cache); the throttle asks it
    # only get() and set(), which it answers as Django's caches do
    cache = cast(BaseCache, cache)
    cache_format = "throttle:%(scope)s:%(ident)s"

    def __init__(self) -> None:
        self.rate = getattr(settings, self.setting)
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def key_for(self, ident: object) -> str:
        """The cache key of one client's (an address's, an account's) recent requests."""
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def wait_seconds(self) -> int:
        """After a refusal: whole seconds until the next request is let through."""
        return max(1, math.ceil(self.wait() or self.duration or 1))


class NewAccountsRate(SiteRate):
    """Accounts a visitor makes asking to enter an event, counted by address (SIGN_UP_RATE):
    a script making accounts by the dozen is refused, a family at one address is not."""

    scope = "new-accounts"
    setting = "SIGN_UP_RATE"

    def get_cache_key(self, request: HttpRequest) -> str:
        return self.key_for(self.get_ident(request))
