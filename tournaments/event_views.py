"""Tournament and event pages: the public page, the director's forms, the printouts.

Each view parses the request, calls one service or selector, and renders.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from club.audit import audit_for_tournament
from club.confirm import Confirmation, confirm_page, confirmed
from club.forms import form_errors_said
from club.policy import can_create, can_direct, require, sign_in_required
from club.tables import table_export
from matches.forms import DiceForm
from matches.places import match_place

from .advancement import player_withdrawn_matches
from .announcements import announcements_shown
from .cut import cut_preview
from .forms import (
    AnnouncementForm,
    CutForm,
    DrawForm,
    EntryForm,
    EventForm,
    LateEntryForm,
    LateRoundsForm,
    OpenEntryForm,
    ReportsForm,
    TableMoveForm,
    TablesForm,
    TournamentEditForm,
    TournamentForm,
)
from .live import by_event, content_asked, content_etag, live, live_seconds
from .models import Entry, Event, Tournament
from .selectors import (
    event_bracket_sections,
    event_cross_tables,
    event_entries,
    event_finished,
    event_knockout,
    event_matches,
    event_one_defeat,
    event_placings,
    event_progress,
    event_rounds,
    event_standings,
    tournament_entry_requests,
    tournament_list,
    tournament_overview,
    tournament_playing_directors,
)
from .services.draws import event_draw, event_draw_undo, event_redraw
from .services.entries import (
    entry_check_in,
    entry_check_in_undo,
    entry_register,
    entry_reinstate,
    entry_substitute,
    entry_withdraw,
    event_check_in_all,
)
from .services.events import event_create, event_update
from .services.late import entry_late_add
from .services.swiss import event_cut, event_pair_next_round
from .services.tournaments import (
    tournament_create,
    tournament_dice_allow,
    tournament_late_rounds_set,
    tournament_reports_set,
    tournament_update,
)
from .tables import EntryTable, PairingTable, TournamentTable, standings_table
from .venue import (
    PLAYABLE,
    match_players_busy,
    match_table_move,
    tournament_room,
    tournament_tables_set,
)


def tournaments(request):
    table = TournamentTable(tournament_list())
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    return render(request, "tournaments.html", {"table": table})


@sign_in_required
@require_http_methods(["GET", "POST"])
def tournament_new(request):
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
def tournament_edit(request, pk: int):
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


def tournament(request, pk: int):
    return tournament_page(request, get_object_or_404(Tournament, pk=pk))


def tournament_page(request, found: Tournament, *, announcement_form=None, status: int = 200):
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
            "dice_form": DiceForm(initial={"allowed": found.physical_dice}) if directing else None,
            "tables_form": TablesForm(initial={"tables": found.tables}) if directing else None,
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
            "open_entry_form": OpenEntryForm(initial={"allowed": found.open_entry})
            if directing
            else None,
            "entry_requests": tournament_entry_requests(tournament=found) if directing else [],
        },
        status=status,
    )


CHANGES_SHOWN = 30


def tournament_changes(request, pk: int):
    """Every change made to the tournament, its events, entries and matches, newest first."""
    found = get_object_or_404(Tournament, pk=pk)
    page = Paginator(audit_for_tournament(tournament_id=found.pk), 200).get_page(
        request.GET.get("page")
    )
    context = {"tournament": found, "changes": page, "page": page}
    return render(request, "tournament_changes.html", context)


@sign_in_required
@require_POST
def tournament_dice(request, pk: int):
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
def tournament_late_rounds(request, pk: int):
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = LateRoundsForm(request.POST)
    if form.is_valid():
        tournament_late_rounds_set(
            tournament=found, count_as=form.cleaned_data["count_as"], user=request.user
        )
        messages.success(request, _("The setting for late arrivals is saved."))
    else:
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    return redirect(f"{found.get_absolute_url()}#late")


@sign_in_required
@require_POST
def tournament_reports(request, pk: int):
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
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    return redirect(f"{found.get_absolute_url()}#results")


@sign_in_required
@require_POST
def tournament_tables(request, pk: int):
    """How many tables the playing room has: matches are seated at them across all events."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = TablesForm(request.POST)
    if form.is_valid():
        count = form.cleaned_data["tables"]
        tournament_tables_set(tournament=found, count=count, user=request.user)
        messages.success(request, _("The tables are saved: matches waiting have been seated."))
    else:
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    return redirect(f"{found.get_absolute_url()}#tables")


def table_cards(request, pk: int):
    """A card per table of the room, with the match at it, to stand on the table."""
    found = get_object_or_404(Tournament, pk=pk)
    tables = tournament_room(tournament=found)
    return render(request, "table_cards.html", {"tournament": found, "tables": tables})


@sign_in_required
@require_POST
def round_table_move(request, pk: int, number: int):
    """The director moves a match of the round to another table."""
    found = _event(pk)
    require(can_direct(request.user, found.tournament))
    pairing_round = _round(found, number)
    form = TableMoveForm(request.POST, matches=pairing_round.matches)
    if form.is_valid():
        match = next(m for m in pairing_round.matches if str(m.pk) == form.cleaned_data["match"])
        try:
            match_table_move(match=match, number=form.cleaned_data["table"], user=request.user)
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            messages.success(
                request,
                _("%(code)s is now at table %(table)s.")
                % {"code": match.place.bracket_key, "table": form.cleaned_data["table"]},
            )
            for busy in match_players_busy(match=match):  # seated by hand: the director is told
                messages.warning(request, _busy_words(busy))
    else:
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    return redirect("round", pk=pk, number=number)


def _busy_words(busy) -> str:
    """A player of a match seated by hand is busy in another: where, in plain words."""
    where = {"name": busy.player.name, "match": str(busy.match), "table": busy.table}
    if busy.table is not None:
        return (
            _(
                "%(name)s is at table %(table)s in another match (%(match)s): this match "
                "can begin when they are free."
            )
            % where
        )
    return (
        _("%(name)s is playing another match (%(match)s): this match can begin when they are free.")
        % where
    )


@sign_in_required
@require_http_methods(["GET", "POST"])
def event_new(request, pk: int):
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
def event_edit(request, pk: int):
    """Its name and Holland rule at any time; what shapes the draw, before the draw."""
    found = _directed_event(request, pk)
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


def _event(pk: int) -> Event:
    return get_object_or_404(
        Event.objects.select_related("tournament", "parent").prefetch_related("rounds"), pk=pk
    )


def _event_context(request, event: Event, **forms) -> dict:
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
    context = {
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
            (r, PairingTable(r.matches, exclude=() if directing else ("reason",))) for r in rounds
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


def _event_refused(request, event: Event, **forms) -> HttpResponse:
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


def _live(request, context: dict, page: str, content: str):
    """A live page, or its content only when the page's region asks (``HX-Request``)."""
    context["refresh_seconds"] = live_seconds()
    context["live_etag"] = content_etag(request)
    if content_asked(request):
        return render(request, content, context)
    return render(request, page, context)


@live(by_event)
def event(request, pk: int):
    found = _event(pk)
    context = _event_context(request, found)
    if context["standings"] is not None:
        download = table_export(request, context["standings"], f"standings-{found.pk}")
        if download is not None:
            return download
    return _live(request, context, "event.html", "includes/event_live.html")


def _directed_event(request, pk: int) -> Event:
    found = _event(pk)
    require(can_direct(request.user, found.tournament))
    return found


def _act(request, found: Event, action, done: str):
    """Run one service; its refusal is shown on the event page, in plain words."""
    try:
        action()
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, done)
    return redirect(found)


@sign_in_required
@require_POST
def entries_add(request, pk: int):
    found = _directed_event(request, pk)
    form = EntryForm(request.POST, event=found)
    if not form.is_valid():
        return _event_refused(request, found, entry_form=form)
    added, refused = [], []
    for player in form.cleaned_data["players"]:
        try:
            entry_register(event=found, player=player, user=request.user)
        except ValidationError as error:
            refused += error.messages
        else:
            added.append(player.name)
    if added:
        messages.success(request, _("Entered: %(names)s.") % {"names": ", ".join(added)})
    for message in refused:
        messages.error(request, message)
    return redirect(found)


def _entry(request, pk: int) -> Entry:
    found = get_object_or_404(Entry.objects.select_related("event__tournament", "player"), pk=pk)
    require(can_direct(request.user, found.event.tournament))
    return found


@sign_in_required
@require_POST
def entry_check_in_view(request, pk: int):
    entry = _entry(request, pk)
    return _act(
        request,
        entry.event,
        lambda: entry_check_in(entry=entry, user=request.user),
        _("%(player)s is checked in.") % {"player": entry.player.name},
    )


@sign_in_required
@require_POST
def entry_check_in_undo_view(request, pk: int):
    entry = _entry(request, pk)
    return _act(
        request,
        entry.event,
        lambda: entry_check_in_undo(entry=entry, user=request.user),
        _("%(player)s is no longer checked in.") % {"player": entry.player.name},
    )


@sign_in_required
@require_http_methods(["GET", "POST"])
def entry_withdraw_view(request, pk: int):
    """Asks first (what the withdrawal does to the draw), then withdraws."""
    entry = _entry(request, pk)
    name = entry.player.name
    closed = request.method == "POST" and event_finished(event=entry.event)  # refused at once
    if not confirmed(request) and not closed:
        walkovers = player_withdrawn_matches(event=entry.event, player=entry.player)
        consequences = [
            _("%(opponent)s gets a walkover in %(match)s.")
            % {
                "opponent": (m.player_b if m.player_a_id == entry.player_id else m.player_a).name,
                "match": str(m),
            }
            for m in walkovers
        ]
        if entry.event.drawn:
            consequences.append(
                _("Any later match of %(player)s is a walkover as it comes.") % {"player": name}
            )
        return confirm_page(
            request,
            Confirmation(
                title=_("Withdraw %(player)s?") % {"player": name},
                what=_("%(player)s leaves %(event)s.")
                % {"player": name, "event": entry.event.name},
                consequences=tuple(consequences),
                undo=_(
                    "A withdrawal can be undone (Reinstate) while no later match fed by its "
                    "walkovers has begun."
                ),
                button=_("Withdraw %(player)s") % {"player": name},
                action=reverse("entry_withdraw", args=[entry.pk]),
                back=entry.event.get_absolute_url(),
            ),
        )
    return _act(
        request,
        entry.event,
        lambda: entry_withdraw(entry=entry, user=request.user),
        _("%(player)s has withdrawn.") % {"player": name},
    )


@sign_in_required
@require_POST
def entry_reinstate_view(request, pk: int):
    entry = _entry(request, pk)
    return _act(
        request,
        entry.event,
        lambda: entry_reinstate(entry=entry, user=request.user),
        _("%(player)s is reinstated.") % {"player": entry.player.name},
    )


@sign_in_required
@require_POST
def draw(request, pk: int):
    found = _directed_event(request, pk)
    form = DrawForm(request.POST)
    if not form.is_valid():
        return _event_refused(request, found, draw_form=form)
    return _act(
        request,
        found,
        lambda: event_draw(event=found, seed=form.cleaned_data["seed"], user=request.user),
        _("The draw is made."),
    )


@sign_in_required
@require_POST
def redraw(request, pk: int):
    """Asks first (the matches removed, the old seed), then makes the draw again."""
    found = _directed_event(request, pk)
    form = DrawForm(request.POST)
    if not form.is_valid():
        return _event_refused(request, found, redraw_form=form)
    seed = form.cleaned_data["seed"]
    if not confirmed(request) and found.drawn:  # not drawn: the service says so
        count = found.places.count()
        if found.seeding != Event.Seeding.RANDOM:
            how = _("The draw of %(event)s is made again by rating.")
        elif seed is None:
            how = _("The draw of %(event)s is made again with a new random seed.")
        else:
            how = _("The draw of %(event)s is made again with the seed %(seed)s.")
        consequences = [
            ngettext(
                "Its %(count)s match, not begun, is removed; the new draw makes the first "
                "round again.",
                "Its %(count)s matches, none begun, are removed; the new draw makes the first "
                "round again.",
                count,
            )
            % {"count": count}
        ]
        if found.draw_seed is not None:
            consequences.append(
                _("The old seed, %(seed)s, stays in the changes.") % {"seed": found.draw_seed}
            )
        return confirm_page(
            request,
            Confirmation(
                title=_("Redraw %(event)s?") % {"event": found.name},
                what=how % {"event": found.name, "seed": seed},
                consequences=tuple(consequences),
                button=_("Redraw"),
                action=reverse("redraw", args=[found.pk]),
                back=found.get_absolute_url(),
                fields=(
                    ("seed", seed if found.seeding == Event.Seeding.RANDOM else None),
                    ("drawn_at", found.drawn_at.isoformat()),
                ),
            ),
        )
    return _act(
        request,
        found,
        lambda: event_redraw(
            event=found, seed=seed, drawn_at=request.POST.get("drawn_at"), user=request.user
        ),
        _("The draw is made again."),
    )


@sign_in_required
@require_POST
def check_in_all(request, pk: int):
    found = _directed_event(request, pk)
    try:
        count = event_check_in_all(event=found, user=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            ngettext("%(count)s player is checked in.", "%(count)s players are checked in.", count)
            % {"count": count},
        )
    return redirect(found)


@sign_in_required
@require_POST
def draw_undo(request, pk: int):
    """Asks first, then takes the draw back and opens check-in again."""
    found = _directed_event(request, pk)
    if not confirmed(request) and found.drawn:  # not drawn: the service says so
        count = found.places.count()
        return confirm_page(
            request,
            Confirmation(
                title=_("Take back the draw of %(event)s?") % {"event": found.name},
                what=_(
                    "The players are no longer drawn and check-in is open again: check in "
                    "who arrived, undo a wrong check-in, then make the draw."
                ),
                consequences=(
                    ngettext(
                        "Its %(count)s match, not begun, is removed.",
                        "Its %(count)s matches, none begun, are removed.",
                        count,
                    )
                    % {"count": count},
                    _("The old draw stays in the changes."),
                ),
                button=_("Take back the draw"),
                action=reverse("draw_undo", args=[found.pk]),
                back=found.get_absolute_url(),
                fields=(("drawn_at", found.drawn_at.isoformat()),),
            ),
        )
    return _act(
        request,
        found,
        lambda: event_draw_undo(
            event=found, drawn_at=request.POST.get("drawn_at") or None, user=request.user
        ),
        _("The draw is taken back: check-in is open again."),
    )


@sign_in_required
@require_POST
def late_entry(request, pk: int):
    found = _directed_event(request, pk)
    form = LateEntryForm(request.POST, event=found)
    if not form.is_valid():
        return _event_refused(request, found, late_form=form)
    player, replaces = form.cleaned_data["player"], form.cleaned_data.get("replaces")
    if replaces is not None:
        return _act(
            request,
            found,
            lambda: entry_substitute(entry=replaces, player=player, user=request.user),
            _("%(player)s takes the place of %(gone)s.")
            % {"player": player.name, "gone": replaces.player.name},
        )
    return _act(
        request,
        found,
        lambda: entry_late_add(event=found, player=player, user=request.user),
        _("%(player)s is entered and checked in.") % {"player": player.name},
    )


@sign_in_required
@require_POST
def pair_next_round(request, pk: int):
    found = _directed_event(request, pk)
    return _act(
        request,
        found,
        lambda: event_pair_next_round(event=found, user=request.user),
        _("The next round is paired."),
    )


@sign_in_required
@require_http_methods(["GET", "POST"])
def cut(request, pk: int):
    """Asks first: who goes through, their seeds, the knockout's lengths (editable) and, when
    players are level at the cut line, the rule that decides or the director's choice; then
    makes the cut. A refusal (the Swiss not finished, a stale preview) is said on the page."""
    found = _directed_event(request, pk)
    context = {"event": found, "tournament": found.tournament}
    try:
        preview = cut_preview(event=found)
    except ValidationError as error:
        return render(request, "event_cut.html", {**context, "refused": error.messages}, status=400)
    form = CutForm(request.POST if confirmed(request) else None, preview=preview)
    refused: list[str] = []
    if form.is_bound and form.is_valid():
        try:
            knockout = event_cut(
                event=found,
                user=request.user,
                lengths=form.lengths(),
                chosen=form.cleaned_data.get("chosen") if preview.tied else None,
                version=form.cleaned_data["version"],
            )
        except ValidationError as error:
            refused = error.messages
            if getattr(error, "code", None) == "stale":  # the cut as it stands now
                preview = cut_preview(event=found)
                form = CutForm(preview=preview)
        else:
            messages.success(request, _("The cut is made: the knockout is drawn."))
            return redirect(knockout)
    status = 400 if refused or form.errors else 200
    context |= {"preview": preview, "form": form, "refused": refused}
    return render(request, "event_cut.html", context, status=status)


# --- printouts ---------------------------------------------------------------------------


@live(by_event)
def bracket(request, pk: int):
    """The bracket to print: landscape, each draw (or 32-player part) on its own page. On a
    screen it refreshes itself."""
    found = _event(pk)
    knockout = event_knockout(event=found)
    if knockout is None:
        raise Http404
    sections = event_bracket_sections(event=found, knockout=knockout)
    context = {
        "event": found,
        "tournament": found.tournament,
        "knockout": knockout,
        "sections": sections,
    }
    return _live(request, context, "bracket_print.html", "includes/bracket_live.html")


def _round(found: Event, number: int):
    for candidate in event_rounds(event=found):
        if candidate.number == number:
            return candidate
    raise Http404


@live(by_event)
def round_pairings(request, pk: int, number: int):
    found = _event(pk)
    pairing_round = _round(found, number)
    table = PairingTable(pairing_round.matches, exclude=("reason", "match"))
    playing = [m for m in pairing_round.matches if m.status in PLAYABLE]
    directing = can_direct(request.user, found.tournament) and found.tournament.tables
    context = {
        "event": found,
        "tournament": found.tournament,
        "round": pairing_round,
        "table": table,
        "move_form": TableMoveForm(matches=playing) if directing and playing else None,
    }
    return _live(request, context, "round_print.html", "includes/round_live.html")


def round_sheets(request, pk: int, number: int):
    """A blank score sheet per match of the round still to finish, one per printed page."""
    found = _event(pk)
    pairing_round = _round(found, number)
    sheets = [
        {
            "match": m,
            "lines": range(1, 2 * m.length),
            "dense": m.length > 9,
            "where": match_place(m).label,
            "code": m.place.bracket_key,
            "table": getattr(m, "table", None),  # none: Django raises, the sheet has no table
        }
        for m in pairing_round.matches
        if m.status in PLAYABLE  # a finished match needs no sheet
    ]
    return render(
        request,
        "round_sheets.html",
        {"event": found, "tournament": found.tournament, "round": pairing_round, "sheets": sheets},
    )
