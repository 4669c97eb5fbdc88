"""Time: the tournament's time rules, a round's start and clocks, and the players arriving
at a called match (one click on the dashboard, then the penalty confirmed or waived).

Each view parses the request, asks the policy, calls one service and goes back to the
page it came from, saying what was done or, in plain words, why not.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.policy import can_direct, require, sign_in_required
from matches.models import Match

from .event_views import event_or_404
from .forms import RoundTimesForm, TimeRulesForm
from .models import Arrival, Tournament
from .services.arrivals import arrival_confirm, arrival_record, arrival_waive
from .services.rounds import event_round, round_times_set
from .services.tournaments import tournament_time_set


def _form_errors(request: HttpRequest, form: TimeRulesForm | RoundTimesForm) -> None:
    messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))


@sign_in_required
@require_POST
def tournament_time(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's lateness penalty and clocks."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = TimeRulesForm(request.POST)
    if form.is_valid():
        try:
            tournament_time_set(tournament=found, user=request.user, **form.cleaned_data)
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            messages.success(request, _("The time rules are saved."))
    else:
        _form_errors(request, form)
    return redirect(f"{found.get_absolute_url()}#time")


@sign_in_required
@require_POST
def round_times(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's start and clocks, from its pairings page."""
    found = event_or_404(pk)
    require(can_direct(request.user, found.tournament))
    form = RoundTimesForm(request.POST)
    if form.is_valid():
        try:
            round_times_set(
                round=event_round(event=found, number=number),
                starts_at=form.cleaned_data["starts_at"],
                clocks=form.cleaned_data["clocks"],
                user=request.user,
            )
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            messages.success(request, _("The round's start and clocks are saved."))
    else:
        _form_errors(request, form)
    return redirect(f"{reverse('round', args=[pk, number])}#round-times")


def _match_and_side(request: HttpRequest, pk: int) -> tuple[Match, int]:
    """The match (of a tournament the user directs) and the side posted."""
    match = get_object_or_404(
        Match.objects.select_related("player_a", "player_b", "place__event__tournament"),
        pk=pk,
        place__isnull=False,
    )
    require(can_direct(request.user, match.place.event.tournament))
    side = request.POST.get("side")
    if side not in ("0", "1"):
        raise Http404
    return match, int(side)


def _dashboard(match: Match) -> HttpResponse:
    url = reverse("tournament_dashboard", args=[match.place.event.tournament_id])
    return redirect(f"{url}#called")


@sign_in_required
@require_POST
def arrival_record_view(request: HttpRequest, pk: int) -> HttpResponse:
    """One click: the player arrived now."""
    match, side = _match_and_side(request, pk)
    try:
        arrival = arrival_record(match=match, side=side, user=request.user, at=timezone.now())
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        if arrival.state == Arrival.State.PENDING:
            messages.info(
                request,
                _("%(player)s arrived: confirm the lateness penalty below, or give none.")
                % {"player": match.player(side).name},
            )
        else:
            messages.success(
                request,
                _("%(player)s arrived: no penalty points.") % {"player": match.player(side).name},
            )
    return _dashboard(match)


def _arrival_decide(request: HttpRequest, pk: int, *, confirm: bool) -> HttpResponse:
    match, side = _match_and_side(request, pk)
    arrival = get_object_or_404(Arrival.objects.select_related("match"), match=match, side=side)
    arrival.match = match
    name = match.player(side).name
    try:
        if confirm:
            arrival_confirm(arrival=arrival, user=request.user)
        else:
            arrival_waive(arrival=arrival, user=request.user)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        said = (
            _("The lateness penalty of %(player)s is confirmed.")
            if confirm
            else _("No lateness penalty for %(player)s.")
        )
        messages.success(request, said % {"player": name})
    return _dashboard(match)


@sign_in_required
@require_POST
def arrival_confirm_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _arrival_decide(request, pk, confirm=True)


@sign_in_required
@require_POST
def arrival_waive_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _arrival_decide(request, pk, confirm=False)
