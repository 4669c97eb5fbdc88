"""Tournament pages: the list, the tournament's page and its changes, the director's forms
(new, edit, dice, late arrivals, results, tables) and the table cards.

Each view parses the request, calls one service or selector, and renders.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from club.audit import audit_for_tournament
from club.policy import can_create, can_direct, require, sign_in_required
from matches.forms import DiceForm

from .announcements import announcements_shown
from .forms import (
    AnnouncementForm,
    LateRoundsForm,
    OpenEntryForm,
    ReportsForm,
    TablesForm,
    TimeRulesForm,
    TournamentEditForm,
    TournamentForm,
)
from .models import Tournament
from .queries.events import tournament_entry_requests, tournament_list
from .queries.progress import tournament_overview
from .selectors import tournament_playing_directors
from .services.tournaments import (
    tournament_create,
    tournament_dice_allow,
    tournament_late_rounds_set,
    tournament_reports_set,
    tournament_update,
)
from .tables import TournamentTable
from .venue import tournament_room, tournament_tables_set


def tournaments(request: HttpRequest) -> HttpResponse:
    table = TournamentTable(tournament_list())
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    return render(request, "tournaments.html", {"table": table})


@sign_in_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    require(can_create(request.user))
    form = TournamentForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        created = tournament_create(user=request.user, **form.cleaned_data)
        return redirect(created)
    status = 400 if form.errors else 200
    context = {"form": form, "title": _("New tournament"), "button": _("Create the tournament")}
    return render(request, "tournament_form.html", context, status=status)


@sign_in_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Its name, date, venue, directors and dice setting put right, by its directors."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = TournamentEditForm(request.POST or None, tournament=found)
    if request.method == "POST" and form.is_valid():
        try:
            saved = tournament_update(tournament=found, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The tournament is saved."))
            return redirect(saved)
    status = 400 if form.errors else 200
    context = {
        "form": form,
        "tournament": found,
        "title": _("Change %(name)s") % {"name": found.name},
        "button": _("Save"),
    }
    return render(request, "tournament_form.html", context, status=status)


def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    return tournament_page(request, get_object_or_404(Tournament, pk=pk))


def tournament_page(
    request: HttpRequest,
    found: Tournament,
    *,
    announcement_form: AnnouncementForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The tournament's page; a refused announcement comes back in its form with what is
    wrong (status 400), its text kept for correction."""
    events = tournament_overview(tournament=found)
    directing = can_direct(request.user, found)
    if announcement_form is None and directing:
        announcement_form = AnnouncementForm()
    return render(
        request,
        "tournament.html",
        {
            "tournament": found,
            "events": events,
            "directs": directing,
            "directors": found.directors.order_by("username"),
            "playing_directors": tournament_playing_directors(tournament=found),
            # forms on one page: ids of their own, or a label ticks another form's box
            "dice_form": DiceForm(initial={"allowed": found.physical_dice}, auto_id="dice_%s")
            if directing
            else None,
            "tables_form": TablesForm(initial={"tables": found.tables}) if directing else None,
            "time_form": TimeRulesForm.of(found) if directing else None,
            "late_rounds_form": LateRoundsForm(initial={"count_as": found.late_rounds})
            if directing
            else None,
            "reports_form": ReportsForm(
                initial={
                    "results_by": found.results_by,
                    "report_detail": found.report_detail,
                    "confirm_minutes": found.confirm_minutes,
                }
            )
            if directing
            else None,
            "changes": audit_for_tournament(tournament_id=found.pk)[:CHANGES_SHOWN],
            "announcements": list(announcements_shown(tournament=found)),
            "announcement_form": announcement_form,
            "open_entry_form": OpenEntryForm(
                initial={"allowed": found.open_entry}, auto_id="open_entry_%s"
            )
            if directing
            else None,
            "entry_requests": tournament_entry_requests(tournament=found) if directing else [],
        },
        status=status,
    )


CHANGES_SHOWN = 30


def tournament_changes(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change made to the tournament, its events, entries and matches, newest first."""
    found = get_object_or_404(Tournament, pk=pk)
    page = Paginator(audit_for_tournament(tournament_id=found.pk), 200).get_page(
        request.GET.get("page")
    )
    context = {"tournament": found, "changes": page, "page": page}
    return render(request, "tournament_changes.html", context)


@sign_in_required
@require_POST
def tournament_dice(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = DiceForm(request.POST)
    if form.is_valid():
        tournament_dice_allow(
            tournament=found, allowed=form.cleaned_data["allowed"], user=request.user
        )
        messages.success(request, _("The dice setting is saved."))
    return redirect(found)


@sign_in_required
@require_POST
def tournament_late_rounds(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = LateRoundsForm(request.POST)
    if form.is_valid():
        tournament_late_rounds_set(
            tournament=found, count_as=form.cleaned_data["count_as"], user=request.user
        )
        messages.success(request, _("The setting for late arrivals is saved."))
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect(f"{found.get_absolute_url()}#late")


@sign_in_required
@require_POST
def tournament_reports(request: HttpRequest, pk: int) -> HttpResponse:
    """Who enters the results: the directors, or the players from their phones."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = ReportsForm(request.POST)
    if form.is_valid():
        try:
            tournament_reports_set(tournament=found, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("The setting for results is saved."))
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect(f"{found.get_absolute_url()}#results")


@sign_in_required
@require_POST
def tournament_tables(request: HttpRequest, pk: int) -> HttpResponse:
    """How many tables the playing room has: matches are seated at them across all events."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = TablesForm(request.POST)
    if form.is_valid():
        count = form.cleaned_data["tables"]
        tournament_tables_set(tournament=found, count=count, user=request.user)
        messages.success(request, _("The tables are saved: matches waiting have been seated."))
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect(f"{found.get_absolute_url()}#tables")


def table_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """A card per table of the room, with the match at it, to stand on the table."""
    found = get_object_or_404(Tournament, pk=pk)
    tables = tournament_room(tournament=found)
    return render(request, "table_cards.html", {"tournament": found, "tables": tables})
