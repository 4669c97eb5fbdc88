"""A table's page and its actions: the order in large type, the cubes, a button for each
action the engine allows now, the running totals and the session log.

A phone at the table keeps its page up to date by asking for its content only every few
seconds (static/site.js, the live pages' region; the ``HX-Request`` header asks), answered
304 while the table has not changed (its version in the ETag). Every action is a form
posted to one URL, then the page again (a phone without the script works the same).
The buttons are the engine's :meth:`Chouette.allowed`: what it would refuse is never
offered, and a tap that came too late (another phone answered first) is refused in words.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.policy import (
    can_correct_table,
    can_record_at,
    can_set_stake,
    own_player,
    require,
    sign_in_required,
)
from rules.chouette import events as ev
from rules.chouette.settings import CubeMode

from .forms import (
    ActForm,
    BoxDoublesForm,
    DealForm,
    EndForm,
    OpeningForm,
    SeatForm,
    StakeForm,
    UndoForm,
    answer_form_for,
)
from .models import Table, TableKind
from .queries import table_chouette, table_lineup_rows, table_log, table_totals
from .services import (
    TableChanged,
    table_act,
    table_close,
    table_correct,
    table_join,
    table_set_stake,
)
from .taps import Names, button_groups, cube_rows, euros, ev_describe, role_labels, said

REFRESH_SECONDS = 3  # a phone at the table asks this often (LIVE_REFRESH_SECONDS in tests)
REGION = "live"  # the region's id (templates/includes/live_region.html)


def refresh_seconds() -> int:
    return int(getattr(settings, "LIVE_REFRESH_SECONDS", REFRESH_SECONDS))


def table_context(request: HttpRequest, table: Table, **forms: Any) -> dict[str, Any]:
    """Everything the table's page and its region show."""
    seats = list(table.seats.select_related("player").order_by("joined", "pk"))
    names = Names({str(seat.player_id): seat.player.name for seat in seats})
    chouette = table_chouette(table)
    me_player = own_player(request.user)
    me = str(me_player.pk) if me_player is not None and str(me_player.pk) in names else None
    open_ = table.closed is None
    may_record = open_ and can_record_at(request.user, table)
    game = chouette.game
    lineup_rows = table_lineup_rows(table)
    labels = role_labels()
    context: dict[str, Any] = {
        "table": table,
        "chouette": chouette,
        "settings": chouette.settings,
        "multiple": chouette.settings.cubes is CubeMode.MULTIPLE,
        "is_chouette": table.kind == TableKind.CHOUETTE,
        "seats": seats,
        "lineup": [
            {
                "role": row.role,
                "label": labels.get(row.role, row.role),
                "player": row.player,
                "mine": str(row.player.pk) == me,
            }
            for row in lineup_rows
        ],
        "game": game,
        "awaiting": [
            _("the box") if who == "box" else names.of(who)
            for who in (game.awaiting if game else ())
        ],
        "cubes": cube_rows(chouette, names, me),
        # a member who dropped (or settled) has left this game: their phone says so
        "out_of_game": game is not None
        and me is not None
        and me in game.members
        and me not in game.playing,
        "totals": [
            {
                "player": row.player,
                "points": row.points,
                "money": euros(row.cents),
                "mine": str(row.player.pk) == me,
            }
            for row in table_totals(table)
        ],
        "log": [
            {
                "seq": row.seq,
                "game": row.game,
                "text": said(row.message, names),
                "author": row.author_name,
                "undone": row.undone,
                "created": row.created,
            }
            for row in table_log(table)
        ],
        "me": me,
        "may_record": may_record,
        "may_correct": can_correct_table(request.user, table),
        "may_seat": may_record,  # a guest without a phone, brought by anyone at the table
        "join_url": request.build_absolute_uri(reverse("money:join") + f"?code={table.code}"),
        "refresh_seconds": refresh_seconds(),
        "page_path": reverse("money:table", args=[table.pk]),
        "games_played": len(chouette.games),
    }
    if may_record:
        groups, seating, box_may_double = button_groups(chouette, names, me)
        version = {"version": table.version}
        context.update(groups=groups, seating=seating)
        if box_may_double:
            context["box_form"] = forms.get("box_form") or BoxDoublesForm(
                members=[(m, names.of(m)) for m in box_may_double], initial=version
            )
        if not lineup_rows or lineup_rows[0].role == "waiting":
            players = [seat.player for seat in seats]
            if len(players) >= 2:
                context["opening_form"] = forms.get("opening_form") or OpeningForm(
                    players=players, initial=version
                )
        if game is not None:
            playing = [(m, names.of(m)) for m in game.playing]
            context["deal_form"] = forms.get("deal_form") or DealForm(
                members=playing, initial=version
            )
            if not game.awaiting:
                context["end_form"] = forms.get("end_form") or EndForm(initial=version)
        if chouette.games or game is not None:
            context["undo_form"] = forms.get("undo_form") or UndoForm(initial=version)
        if context["may_seat"]:
            context["seat_form"] = forms.get("seat_form") or SeatForm(
                initial=version, seated=[seat.player_id for seat in seats]
            )
        context["act_version"] = table.version
    if open_ and any(can_set_stake(request.user, table, seat.player) for seat in seats):
        context["stake_form"] = forms.get("stake_form") or StakeForm(
            players=[s.player for s in seats if can_set_stake(request.user, table, s.player)]
        )
    refused = [form for slot, form in forms.items() if context.get(slot) is not form]
    context["error"] = " ".join(
        str(message) for form in refused for errors in form.errors.values() for message in errors
    )
    context["stakes"] = [(seat.player, euros(seat.stake_cents)) for seat in seats]
    return context


def _content_asked(request: HttpRequest) -> bool:
    return (
        request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target") == REGION
    )


def _etag(request: HttpRequest, table: Table) -> str:
    """The content depends on the table (its version, closed or not), the language and who
    looks (their buttons): all in the tag, so a 304 is as sound as the page."""
    parts = (table.pk, table.version, table.closed, get_language(), request.user.pk)
    return '"' + hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest() + '-t"'


def _page(request: HttpRequest, table: Table, status: int = 200, **forms: Any) -> HttpResponse:
    fragment = _content_asked(request)
    context = table_context(request, table, **forms)
    if fragment:
        response = render(request, "money/table_live.html", context, status=status)
        response["ETag"] = _etag(request, table)
    else:
        context["live_etag"] = _etag(request, table)
        response = render(request, "money/table.html", context, status=status)
    patch_vary_headers(response, ["Accept-Language", "Cookie", "HX-Request", "HX-Target"])
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _table(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("created_by"), pk=pk)


@sign_in_required
@require_GET
def table(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's page; its region's poll gets the content only, or 304 if unchanged."""
    found = _table(pk)
    if _content_asked(request) and request.headers.get("If-None-Match") == _etag(request, found):
        response = HttpResponseNotModified()
        response["ETag"] = _etag(request, found)
        return response
    return _page(request, found)


def _done(request: HttpRequest, table: Table, text: str) -> HttpResponse:
    messages.success(request, text)
    return redirect(reverse("money:table", args=[table.pk]) + "#live")


def _names(table: Table) -> Names:
    return Names({str(s.player_id): s.player.name for s in table.seats.select_related("player")})


# a tap of these carries the page's version: it changes what the others are looking at (the
# order, the game as a whole), so a page out of date must look again; an answer or a double
# is checked by the engine alone (two members answering at once must both get through)
WHOLE_TABLE = (ev.UndoGame, ev.StartGame, ev.Partner, ev.Leave, ev.Rest, ev.Back)


@sign_in_required
@require_POST
def act(request: HttpRequest, pk: int) -> HttpResponse:
    """One tap: the event its button carries, applied if the engine allows it now."""
    found = _table(pk)
    require(can_record_at(request.user, found))
    return _formed(
        request, found, "act_form", ActForm(request.POST), lambda f: f.cleaned_data["event"]
    )


def _formed(
    request: HttpRequest, found: Table, slot: str, form: Any, event_of: Any
) -> HttpResponse:
    """A form that makes one event (a tap, the opening, a deal, a result, the box's
    doubles); the service's refusal shown on the page in words (409: the table changed)."""
    status = 400
    if form.is_valid():
        event = event_of(form)
        careful = slot != "act_form" or isinstance(event, WHOLE_TABLE)
        try:
            table_act(
                user=request.user,
                table=found,
                event=event,
                version=form.cleaned_data["version"] if careful else None,
            )
        except ValidationError as error:
            form.add_error(None, error)
            status = 409 if isinstance(error, TableChanged) else 400
        else:
            return _done(request, found, said(ev_describe(event), _names(found)))
    return _page(request, found, status, **{slot: form})


@sign_in_required
@require_POST
def opening(request: HttpRequest, pk: int) -> HttpResponse:
    """The opening roll: the order of the chouette (Galore 3.1)."""
    found = _table(pk)
    require(can_record_at(request.user, found))
    players = [
        seat.player for seat in found.seats.select_related("player").order_by("joined", "pk")
    ]
    form = OpeningForm(request.POST, players=players)
    return _formed(request, found, "opening_form", form, lambda f: f.event())


@sign_in_required
@require_POST
def box_doubles(request: HttpRequest, pk: int) -> HttpResponse:
    """Multiple cubes: the box doubles the members it chooses (Galore 3.5)."""
    found = _table(pk)
    require(can_record_at(request.user, found))
    chouette = table_chouette(found)
    playing = list(chouette.game.playing) if chouette.game is not None else []
    names = _names(found)
    form = BoxDoublesForm(request.POST, members=[(m, names.of(m)) for m in playing])
    return _formed(request, found, "box_form", form, lambda f: f.event())


@sign_in_required
@require_POST
def deal(request: HttpRequest, pk: int) -> HttpResponse:
    """A deal between the box and some members (club practice)."""
    found = _table(pk)
    require(can_record_at(request.user, found))
    chouette = table_chouette(found)
    names = _names(found)
    playing = list(chouette.game.playing) if chouette.game is not None else []
    form = DealForm(request.POST, members=[(m, names.of(m)) for m in playing])
    return _formed(request, found, "deal_form", form, lambda f: f.event())


@sign_in_required
@require_POST
def end(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's result for those still in; the rotation follows (Galore 3.1)."""
    found = _table(pk)
    require(can_record_at(request.user, found))
    return _formed(request, found, "end_form", EndForm(request.POST), lambda f: f.event())


@sign_in_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """The last game dropped whole: an UndoGame appended, so the log keeps every line."""
    found = _table(pk)
    require(can_record_at(request.user, found))
    form = UndoForm(request.POST)
    return _formed(request, found, "undo_form", form, lambda f: ev.UndoGame())


@sign_in_required
@require_POST
def seat(request: HttpRequest, pk: int) -> HttpResponse:
    """A player seated by the creator or a director: they join at the bottom."""
    found = _table(pk)
    require(can_record_at(request.user, found))
    form = SeatForm(request.POST, seated=list(found.seats.values_list("player_id", flat=True)))
    if form.is_valid():
        player = form.cleaned_data["player"]
        try:
            table_join(
                user=request.user,
                table=found,
                player=player,
                stake_cents=form.cleaned_data["stake"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return _done(request, found, _("%(name)s is seated.") % {"name": player.name})
    return _page(request, found, 400, seat_form=form)


@sign_in_required
@require_POST
def stake(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's stake a point: their own before the first game, or a director's."""
    found = _table(pk)
    seats = found.seats.select_related("player")
    form = StakeForm(request.POST, players=[s.player for s in seats])
    if form.is_valid():
        player = form.cleaned_data["player"]
        require(can_set_stake(request.user, found, player))
        try:
            table_set_stake(
                user=request.user,
                table=found,
                player=player,
                stake_cents=form.cleaned_data["stake"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return _done(request, found, _("The stake of %(name)s is set.") % {"name": player.name})
    elif not any(can_set_stake(request.user, found, s.player) for s in seats):
        require(False)
    return _page(request, found, 400, stake_form=form)


@sign_in_required
@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    """The evening is over: the table takes no more games; its settlement stays."""
    found = _table(pk)
    require(can_record_at(request.user, found))
    form = UndoForm(request.POST)
    if form.is_valid() and form.cleaned_data["version"] != found.version:
        form.add_error(None, _("The table changed meanwhile: look at it again, then close it."))
    if form.is_valid():
        try:
            table_close(user=request.user, table=found)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The table is closed."))
            return redirect("money:settlement", pk=found.pk)
    return _page(request, found, 400, close_form=form)


@sign_in_required
@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, pk: int, seq: int) -> HttpResponse:
    """A director puts one event of the log right; the whole log must still replay, and the
    audit keeps the event as it was."""
    found = _table(pk)
    require(can_correct_table(request.user, found))
    row = get_object_or_404(found.events, seq=seq)
    names = _names(found)
    before = ev.from_dict(row.data)
    form = answer_form_for(before, request.POST or None, names=names, version=found.version)
    if request.method == "POST" and form.is_valid():
        try:
            table_correct(user=request.user, table=found, seq=seq, event=form.corrected(before))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return _done(request, found, _("Entry %(seq)s is corrected.") % {"seq": seq})
    context = {
        "table": found,
        "row": row,
        "before": said(ev_describe(before), names),
        "form": form,
    }
    return render(request, "money/correct.html", context, status=400 if form.errors else 200)
