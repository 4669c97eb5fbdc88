"""How often a client may call the API: per address without signing in, per account with.

The counting is django-ninja's, in the site's cache (:class:`club.throttling.SiteRate`: Redis
with REDIS_URL, else each process's memory; with the cache down every request goes through);
the rates come from settings on every request (API_RATE_ANONYMOUS, API_RATE_SIGNED_IN), so a
server changes them without code.
"""

from __future__ import annotations

from django.http import HttpRequest

from club.throttling import SiteRate

PERIODS = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}


class ApiRate(SiteRate):
    """A rate of the API's, said in its refusal."""

    def in_words(self) -> str:
        period = PERIODS.get(self.duration or 0, f"{self.duration} seconds")
        return f"{self.num_requests} requests a {period}"


class AnonymousRate(ApiRate):
    """Visitors who have not signed in, counted by address."""

    scope = "api-anonymous"
    setting = "API_RATE_ANONYMOUS"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if request.user.is_authenticated:
            return None
        return self.key_for(self.get_ident(request))


class SignedInRate(ApiRate):
    """Signed-in users (a session of the site), counted by account: a higher rate."""

    scope = "api-signed-in"
    setting = "API_RATE_SIGNED_IN"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if not request.user.is_authenticated:
            return None
        return self.key_for(request.user.pk)


def throttled(request: HttpRequest) -> tuple[str, int] | None:
    """None when the request may go on; else (the refusal in plain words, seconds to wait)."""
    for rate in (AnonymousRate(), SignedInRate()):
        if not rate.allow_request(request):
            wait = rate.wait_seconds()
            who = "signed in" if request.user.is_authenticated else "from one address"
            detail = (
                f"Too many requests: the API answers {rate.in_words()} {who}. "
                f"Try again in {wait} second{'s' if wait != 1 else ''}."
            )
            if not request.user.is_authenticated:
                detail += " Signed-in users may ask more often."
            return detail, wait
    return None
