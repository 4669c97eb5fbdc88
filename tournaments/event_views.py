"""An event's page and its director's forms (new, edit); what the entry, draw and round views
share: the event found (and directed), a service's answer, the page again with a refused form.

Each view parses the request, calls one service or selector, and renders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club.forms import form_errors_said
from club.policy import can_direct, require, sign_in_required
from club.tables import table_export

from .forms import DrawForm, EntryForm, EventForm, LateEntryForm
from .live import by_event, live, live_page, live_seconds
from .models import Entry, Event, Tournament
from .queries.brackets import event_bracket_sections
from .queries.events import event_entries, event_matches, event_rounds
from .queries.knockouts import event_knockout, event_one_defeat, event_placings
from .queries.progress import event_progress
from .queries.standings import event_cross_tables, event_standings
from .services.events import event_create, event_update
from .tables import EntryTable, PairingTable, standings_table


@sign_in_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = event_create(tournament=found, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(created)
    status = 400 if form.errors else 200
    context = {
        "form": form,
        "tournament": found,
        "title": _("New event"),
        "button": _("Create the event"),
    }
    return render(request, "event_form.html", context, status=status)


@sign_in_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Its name and Holland rule at any time; what shapes the draw, before the draw."""
    found = directed_event(request, pk)
    form = EventForm(request.POST or None, event=found)
    if request.method == "POST" and form.is_valid():
        try:
            saved = event_update(event=found, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The event is saved."))
            return redirect(saved)
    status = 400 if form.errors else 200
    context = {
        "form": form,
        "tournament": found.tournament,
        "event": found,
        "title": _("Change %(name)s") % {"name": found.name},
        "button": _("Save"),
    }
    return render(request, "event_form.html", context, status=status)


def event_or_404(pk: int) -> Event:
    """The event with its tournament, the Swiss it was cut from and its rounds; else 404."""
    return get_object_or_404(
        Event.objects.select_related("tournament", "parent").prefetch_related("rounds"), pk=pk
    )


def _event_context(request: HttpRequest, event: Event, **forms: Form) -> dict[str, Any]:
    entries = list(event_entries(event=event))
    matches = list(event_matches(event=event))
    directing = can_direct(request.user, event.tournament)
    knockout = event_knockout(event=event, entries=entries, matches=matches)
    rows = event_standings(event=event, entries=entries, matches=matches)
    hidden = [] if directing else ["actions"]
    if event.format != Event.Format.ROUND_ROBIN:
        hidden.append("pool")
    entry_table = EntryTable(entries, exclude=hidden)  # its buttons read the page's event
    rounds = event_rounds(event=event, entries=entries, matches=matches)
    hidden_reason = () if directing else ("reason",)
    sheets = knockout.sheets if knockout else None  # each match scored once for the page
    context: dict[str, Any] = {
        "event": event,
        "tournament": event.tournament,
        "directs": directing,
        "entries": entry_table,
        "checked_in": sum(e.status == Entry.Status.CHECKED_IN for e in entries),
        "registered": sum(e.status == Entry.Status.REGISTERED for e in entries),
        "htmx": directing and not event.drawn,  # check-in a row at a time
        "knockout": knockout,
        "sections": event_bracket_sections(event=event, knockout=knockout) if knockout else [],
        "standings": standings_table(rows, swiss=event.format == Event.Format.SWISS)
        if rows
        else None,
        "rounds": [
            (r, PairingTable(r.matches, exclude=hidden_reason, sheets=sheets)) for r in rounds
        ],
        "progress": event_progress(event=event, matches=matches, knockout=knockout),
        "missed_as_losses": any(row.standing.missed for row in rows),
        "cross_tables": event_cross_tables(event=event, rows=rows, matches=matches),
        "children": list(event.children.all()),
        "placings": event_placings(event=event, knockout=knockout) if knockout else [],
    }
    if directing and not event.drawn:
        context["entry_form"] = forms.get("entry_form") or EntryForm(event=event)
        context["draw_form"] = forms.get("draw_form") or DrawForm()
    begun = any(m.status in (m.Status.IN_PLAY, m.Status.FINISHED) for m in matches)
    if directing and event.drawn and event.parent_id is None and not begun:
        context["redraw_form"] = forms.get("redraw_form") or DrawForm()
    progress = context["progress"]
    first_round = progress.stage == "entries" or (progress.stage, progress.round) == ("playing", 1)
    if directing and first_round:  # a warning that can still change the format or the draw
        context["one_defeat"] = event_one_defeat(event=event, entries=entries)
    late = event.format != Event.Format.ROUND_ROBIN and not context["children"]
    late = late and progress.stage != "finished"
    if directing and event.drawn and event.parent_id is None and late:
        context["late_form"] = forms.get("late_form") or LateEntryForm(event=event)
    return context


def event_refused(request: HttpRequest, event: Event, **forms: Form) -> HttpResponse:
    """The event page again (400) with the refused form and its errors in place: the page its
    own address shows, whose live parts refresh from that address, not from the form's. The
    errors of a form the page does not show (a late arrival posted before the draw) are
    said as messages."""
    context = _event_context(request, event, **forms)
    context["refresh_seconds"] = live_seconds()
    context["page_path"] = event.get_absolute_url()
    for slot, form in forms.items():
        if context.get(slot) is not form:
            for said in form_errors_said(form):
                messages.error(request, said)
    return render(request, "event.html", context, status=400)


@live(by_event)
def event(request: HttpRequest, pk: int) -> HttpResponseBase:
    found = event_or_404(pk)
    context = _event_context(request, found)
    if context["standings"] is not None:
        download = table_export(request, context["standings"], f"standings-{found.pk}")
        if download is not None:
            return download
    return live_page(request, context, "event.html", "includes/event_live.html")


def directed_event(request: HttpRequest, pk: int) -> Event:
    """The event, for one of its tournament's directors only (anyone else: 403)."""
    found = event_or_404(pk)
    require(can_direct(request.user, found.tournament))
    return found


def event_action(
    request: HttpRequest, found: Event, action: Callable[[], object], done: str
) -> HttpResponse:
    """Run one service; its refusal is shown on the event page, in plain words."""
    try:
        action()
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, done)
    return redirect(found)
