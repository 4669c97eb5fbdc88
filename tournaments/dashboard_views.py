"""The director's dashboard: one page for the whole tournament, which refreshes itself.

The view parses the request, asks the policy, calls one selector and renders. Every 15
seconds the page (static/site.js) asks the same URL for its content only, marked by the
``HX-Request`` header (htmx's, so the page could move to htmx unchanged), and swaps it in.
It is a live page (:mod:`tournaments.live`): while nothing is written to the tournament and
the clock's minute stays the same (it shows minutes since a match began, and lateness), it
is answered 304, or from what the first request rendered; a director's tablets and phones
left open on it all evening cost a query each.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.http import require_GET

from club.policy import can_direct, require, sign_in_required

from .dashboard import tournament_dashboard
from .live import by_tournament, live, live_page
from .models import Tournament

REFRESH_SECONDS = 15


@sign_in_required
@require_GET
@live(by_tournament, region="dashboard", by_minute=True, directors_only=True)
def tournament_dashboard_view(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    context = {
        "tournament": found,
        "dashboard": tournament_dashboard(tournament=found, now=timezone.now()),
        "refresh_seconds": REFRESH_SECONDS,
    }
    return live_page(request, context, "dashboard.html", "includes/dashboard.html")
