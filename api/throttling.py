"""How often a client may call the API: per address without signing in, per account with.

The counting is django-ninja's (a sliding window of request times kept in the site's cache:
Redis with REDIS_URL, else each process's memory); the rates come from settings on every
request (API_RATE_ANONYMOUS, API_RATE_SIGNED_IN), so a server changes them without code.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.http import HttpRequest
from ninja.throttling import SimpleRateThrottle

from club.cache import cache

PERIODS = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}


class SiteRate(SimpleRateThrottle):
    """A rate read from a setting; one instance per request (it keeps that request's count)."""

    setting = ""
    cache = cache  # a cache that is down lets every request through (club.cache)
    cache_format = "api-throttle:%(scope)s:%(ident)s"

    def __init__(self) -> None:
        self.rate = getattr(settings, self.setting)
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def in_words(self) -> str:
        period = PERIODS.get(self.duration or 0, f"{self.duration} seconds")
        return f"{self.num_requests} requests a {period}"


class AnonymousRate(SiteRate):
    """Visitors who have not signed in, counted by address."""

    scope = "anonymous"
    setting = "API_RATE_ANONYMOUS"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SignedInRate(SiteRate):
    """Signed-in users (a session of the site), counted by account: a higher rate."""

    scope = "signed-in"
    setting = "API_RATE_SIGNED_IN"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


def throttled(request: HttpRequest) -> tuple[str, int] | None:
    """None when the request may go on; else (the refusal in plain words, seconds to wait)."""
    for rate in (AnonymousRate(), SignedInRate()):
        if not rate.allow_request(request):
            wait = max(1, math.ceil(rate.wait() or rate.duration or 1))
            who = "signed in" if request.user.is_authenticated else "from one address"
            detail = (
                f"Too many requests: the API answers {rate.in_words()} {who}. "
                f"Try again in {wait} second{'s' if wait != 1 else ''}."
            )
            if not request.user.is_authenticated:
                detail += " Signed-in users may ask more often."
            return detail, wait
    return None
