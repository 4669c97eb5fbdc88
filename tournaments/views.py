"""Public pages for players, and the director's player form."""

from typing import TypedDict

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods
from django_tables2 import Table

from club.audit import audit_for_subject
from club.confirm import Confirmation, confirm_page, confirmed
from club.filters import PlayerFilter
from club.forms import PlayerForm, PlayersFileForm, columns_unused_said, import_line_said
from club.kept import kept_until_written
from club.models import Player
from club.policy import can_change_player, can_create, require, sign_in_required
from club.selectors import players_import_preview
from club.services import player_create, player_update, players_import
from club.tables import PlayerTable, table_page
from matches.selectors import match_list
from matches.tables import MatchTable
from money.views import player_table_rows

from .queries.players import (
    player_list,
    player_match_list,
    player_rating_history,
    player_record_counted,
    rating_list,
)
from .ratings import fibs_steps, rating_kept
from .ratings_jobs import can_rederive_ratings, ratings_rederive_start, ratings_state
from .tables import PlayerMatchTable, RatingHistoryTable, RatingListTable


class Example(TypedDict):
    winner: tuple[float, int]  # rating, experience
    loser: tuple[float, int]
    length: int


# the formula page's worked example: a newcomer rated below an experienced player beats them
# in a 7-point match; every figure shown is computed from these by tournaments.ratings
EXAMPLE: Example = {"winner": (1580.0, 150), "loser": (1720.0, 860), "length": 7}


def home(request: HttpRequest) -> HttpResponse:
    recent = MatchTable(match_list()[:10], orderable=False)
    return render(request, "home.html", {"recent": recent})


def players(request: HttpRequest) -> HttpResponseBase:
    filterset = PlayerFilter(request.GET, queryset=player_list())
    extra = {"ratings_pending": ratings_state()}
    return table_page(
        request, PlayerTable(filterset.qs), filterset, "players.html", "players", extra
    )


def ratings(request: HttpRequest) -> HttpResponseBase:
    """The club's rating list, public like the players' list; staff and the Directors group
    see the button that works every rating out again."""
    filterset = PlayerFilter(request.GET, queryset=rating_list())
    extra = {
        "ratings_pending": ratings_state(),
        "may_rederive": can_rederive_ratings(request.user),
    }
    return table_page(
        request, RatingListTable(filterset.qs), filterset, "ratings.html", "ratings", extra
    )


@sign_in_required
@require_http_methods(["GET", "POST"])
def ratings_again(request: HttpRequest) -> HttpResponse:
    """Every rating worked out again, as a job, after asking; then the job's page."""
    require(can_rederive_ratings(request.user))
    if not confirmed(request):
        return confirm_page(
            request,
            Confirmation(
                title=_("Work out every rating again?"),
                what=_(
                    "Every player’s rating and experience are worked out again from the first "
                    "finished match, in the order the matches finished."
                ),
                consequences=(
                    _(
                        "It runs in the background and may take a few minutes: until it ends, "
                        "the pages that show ratings say they are being brought up to date."
                    ),
                    _("A rating that is already right stays as it is."),
                ),
                button=_("Work out every rating again"),
                action=reverse("ratings_again"),
                back=reverse("ratings"),
            ),
        )
    job = ratings_rederive_start(user=request.user)
    return redirect("jobs:job", pk=job.pk)


def rating_formula(request: HttpRequest) -> HttpResponse:
    """The FIBS formula as the site computes it, with a worked example computed by it."""
    steps = fibs_steps(**EXAMPLE)
    favourite = fibs_steps(
        winner=EXAMPLE["loser"], loser=EXAMPLE["winner"], length=EXAMPLE["length"]
    )
    context = {
        "example": EXAMPLE,
        "steps": steps,
        "winner_after": rating_kept(steps.change.winner_rating),
        "loser_after": rating_kept(steps.change.loser_rating),
        "favourite": favourite,
    }
    return render(request, "rating_formula.html", context)


# a player's matches and rating changes, a page at a time, as the other lists
PER_PAGE = 25


def _a_page(request: HttpRequest, table: Table) -> None:
    """The page of ``table`` the request asks for (its own page number, by the table's
    prefix), always PER_PAGE rows at most: unlike RequestConfig, no ``per_page`` in the
    address makes one page hold a player's whole history. A page number that is not one
    shows the first page, one past the end the last (as RequestConfig does)."""
    table.request = request
    try:
        table.paginate(page=request.GET.get(table.prefixed_page_field, 1), per_page=PER_PAGE)
    except PageNotAnInteger:
        table.page = table.paginator.page(1)
    except EmptyPage:
        table.page = table.paginator.page(table.paginator.num_pages)


@kept_until_written
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's page: the figures over all their matches (counted by the database), then
    their matches and rating changes a page at a time, each table with its own page number.
    A visitor's is kept until the next write (a season's busiest player's takes 60 ms)."""
    person = get_object_or_404(Player, pk=pk)
    record = player_record_counted(player=person)
    table = PlayerMatchTable(player_match_list(player=person), orderable=False, prefix="matches-")
    ratings = RatingHistoryTable(player_rating_history(player=person))
    for paged in (table, ratings):
        _a_page(request, paged)
    may_change = can_change_player(request.user, person)
    context = {
        "player": person,
        "table": table,
        "played": record.played,
        "won": record.won,
        "lost": record.lost,
        "ratings": ratings,
        "may_change": may_change,
        "ratings_pending": ratings_state(),
    }
    if may_change:
        context["changes"] = audit_for_subject(subject=person).order_by("-at", "-id")[:30]
    if request.user.is_authenticated:  # money between named players: for the club's members
        context["money_tables"] = player_table_rows(request, person)
    return render(request, "player.html", context)


@sign_in_required
@require_http_methods(["GET", "POST"])
def player_new(request: HttpRequest) -> HttpResponse:
    require(can_create(request.user))
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        created = player_create(user=request.user, **form.cleaned_data)
        messages.success(request, _("%(name)s is registered.") % {"name": created.name})
        return redirect(created)
    context = {"form": form, "title": _("New player")}
    return render(request, "player_form.html", context, status=400 if form.errors else 200)


@sign_in_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's details put right: a misspelt name, a new club, an email."""
    person = get_object_or_404(Player, pk=pk)
    require(can_change_player(request.user, person))
    saved_name = person.name  # the heading names the player as saved, not as typed
    form = PlayerForm(request.POST or None, instance=person)
    if request.method == "POST" and form.is_valid():
        try:
            saved = player_update(player=person, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": saved.name})
            return redirect(saved)
    title = _("Change %(name)s") % {"name": saved_name}
    context = {"form": form, "player_url": person.get_absolute_url(), "title": title}
    return render(request, "player_form.html", context, status=400 if form.errors else 200)


@sign_in_required
@require_http_methods(["GET", "POST"])
def players_import_view(request: HttpRequest) -> HttpResponse:
    """Upload a CSV of players, see what each row will do, confirm; refusals on the page."""
    require(can_create(request.user))
    posted = request.method == "POST"
    form = PlayersFileForm(request.POST if posted else None, request.FILES if posted else None)
    context: dict[str, object] = {"form": form, "lines": None}
    if posted and form.is_valid():
        rows = form.cleaned_data["rows"]
        if "confirm" in request.POST:
            lines = players_import(rows=rows, user=request.user)
            created = sum(line.status.creates for line in lines)
            messages.success(
                request,
                ngettext(
                    "%(count)s player is registered; %(left)s row left out.",
                    "%(count)s players are registered; %(left)s rows left out.",
                    created,
                )
                % {"count": created, "left": len(lines) - created},
            )
            return redirect("players")
        lines = players_import_preview(rows)
        context.update(
            lines=[(line, import_line_said(line)) for line in lines],
            creating=sum(line.status.creates for line in lines),
            checked=form.cleaned_data["checked"],
            unused=columns_unused_said(form.cleaned_data["unused"]),
        )
    status = 400 if form.errors else 200
    return render(request, "players_import.html", context, status=status)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    return render(request, "500.html", status=500)
