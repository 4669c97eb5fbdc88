"""The tables' pages: the list, starting a chouette or a money session, joining by code.

Each view parses the request, asks the policy, calls one service and renders; a service's
refusal (already in the visitor's words) is shown as the form's error, never a 500. The
table's own page and its actions are in :mod:`money.views_table`, the printable
settlement in :mod:`money.views_print`.

Every page here asks to sign in first: a table says who owes whom money, which is for the
club's members, not for the open web.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from club.models import Player
from club.policy import can_start_table, own_player, require, sign_in_required

from .forms import ChouetteForm, JoinForm, MoneySessionForm, normal_code
from .models import Table, TableKind
from .queries import player_tables, tables_for, tables_open
from .services import table_join, table_start

PER_PAGE = 25  # tables a page, as the site's other lists


@sign_in_required
@require_GET
def tables(request: HttpRequest) -> HttpResponse:
    """The open tables of the evening, the visitor's own, and a box to type a code in.

    Both lists grow with the club's evenings: each comes a page at a time, newest first,
    with its own page number (``mine-page``, ``open-page``), so turning one leaves the
    other where it was. A page number that is not one shows the first page, one past the
    end the last (as the other lists do)."""
    context: dict[str, Any] = {
        "open_tables": _a_page(request, tables_open(), "open-page"),
        "my_tables": _a_page(request, tables_for(request.user), "mine-page"),
        "join_form": JoinForm(),
        "may_start": can_start_table(request.user),
    }
    return render(request, "money/tables.html", context)


def _a_page(request: HttpRequest, rows: QuerySet[Table], field: str) -> Page[Table]:
    """The page of ``rows`` the request asks for by ``field``: PER_PAGE at most."""
    return Paginator(rows, PER_PAGE).get_page(request.GET.get(field))


def _start_page(request: HttpRequest, form: Any, kind: str) -> HttpResponse:
    title = _("New chouette") if kind == TableKind.CHOUETTE else _("New money session")
    context = {"form": form, "title": title, "kind": kind}
    return render(request, "money/start.html", context, status=400 if form.errors else 200)


@sign_in_required
@require_http_methods(["GET", "POST"])
def chouette_new(request: HttpRequest) -> HttpResponse:
    """A chouette for the evening: the settings (the seed's by default) and, if at hand,
    the players to seat at once; the others join with the code or the QR code."""
    require(can_start_table(request.user))
    me = own_player(request.user)
    initial = {"players": [me.pk]} if me is not None else {}
    form = ChouetteForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            created = table_start(
                user=request.user,
                kind=TableKind.CHOUETTE,
                name=data["name"],
                settings=form.chouette_settings(),
                players=list(data["players"]),
                stake_cents=data["stake"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The chouette is open: the others join with its code."))
            return redirect("money:table", pk=created.pk)
    return _start_page(request, form, TableKind.CHOUETTE)


@sign_in_required
@require_http_methods(["GET", "POST"])
def money_new(request: HttpRequest) -> HttpResponse:
    """A money session between two players, started by either of them (no director, no
    rating): a chouette of two with one cube."""
    require(can_start_table(request.user))
    me = own_player(request.user)
    form = MoneySessionForm(request.POST or None, initial={"player_a": me.pk if me else None})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        a, b = data["player_a"], data["player_b"]
        try:
            created = table_start(
                user=request.user,
                kind=TableKind.MONEY,
                name=f"{a.name} – {b.name}",
                settings=form.chouette_settings(),
                players=[a, b],
                stake_cents=data["stake"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The money session is open."))
            return redirect("money:table", pk=created.pk)
    return _start_page(request, form, TableKind.MONEY)


@sign_in_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    """Sit down at a table by its code: typed, or read from the QR code the table's page
    shows (which links here with ``?code=``). The player is the visitor's own."""
    code = normal_code(request.GET.get("code", ""))
    form = JoinForm(request.POST or None, initial={"code": code})
    me = own_player(request.user)
    table = None
    if request.method == "POST" and form.is_valid():
        table = Table.objects.filter(code=form.cleaned_data["code"], closed__isnull=True).first()
        if table is None:
            form.add_error("code", _("No open table has this code: check it with the table."))
        elif me is None:
            form.add_error(
                None, _("Your account is not linked to a player: ask a director to seat you.")
            )
        else:
            try:
                table_join(
                    user=request.user,
                    table=table,
                    player=me,
                    stake_cents=form.cleaned_data["stake"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("You are seated at %(name)s.") % {"name": table.name})
                return redirect("money:table", pk=table.pk)
    elif code and me is not None:
        table = Table.objects.filter(code=normal_code(code)).first()
        if table is not None and table.seats.filter(player=me).exists():
            return redirect("money:table", pk=table.pk)  # already seated: the QR leads home
    context = {"form": form, "me": me, "table": table, "back": reverse("money:tables")}
    return render(request, "money/join.html", context, status=400 if form.errors else 200)


def player_table_rows(player: Player) -> list[dict[str, Any]]:
    """The player's chouettes and money sessions for their page: each table, their points
    and their money there (shown to signed-in members only, by the page)."""
    return [
        {"table": row.table, "points": row.points, "money": Decimal(row.cents) / 100}
        for row in player_tables(player)
    ]
