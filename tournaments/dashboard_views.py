"""The director's dashboard: one page for the whole tournament, which refreshes itself.

The view parses the request, asks the policy, calls one selector and renders. Every 15
seconds the page (static/site.js) asks the same URL for its content only, marked by the
``HX-Request`` header (htmx's, so the page could move to htmx unchanged), and swaps it in.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from club.policy import can_direct, require, sign_in_required

from .dashboard import tournament_dashboard
from .models import Tournament

REFRESH_SECONDS = 15


@sign_in_required
@require_GET
def tournament_dashboard_view(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    fragment = request.headers.get("HX-Request") == "true"
    context = {
        "tournament": found,
        "dashboard": tournament_dashboard(tournament=found, now=timezone.now()),
        "refresh_seconds": REFRESH_SECONDS,
    }
    template = "includes/dashboard.html" if fragment else "dashboard.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])  # one URL, two answers: caches keep both
    return response
