"""Match pages: the score sheet for everyone, the director's forms, the printable sheet.

Each view parses the request, calls one service or selector, and renders.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.permissions import director_required
from tournaments.tables import table_page

from .filters import MatchFilter
from .forms import FinalScoreForm, GameForm, MatchForm, WalkoverForm
from .models import Game, Match
from .selectors import match_audit, match_list, match_score_sheet
from .services import (
    game_correct,
    game_record,
    match_create,
    match_record_final_score,
    match_walkover,
)
from .tables import MatchTable


def matches(request):
    filterset = MatchFilter(request.GET, queryset=match_list())
    return table_page(request, MatchTable(filterset.qs), filterset, "matches.html", "matches")


def _page(request, match, status=200, **forms):
    sheet = match_score_sheet(match=match)
    context = {"match": match, "sheet": sheet, "audit": match_audit(match=match)}
    recorded = match.final_score_a is not None or match.status == Match.Status.WALKOVER
    if not sheet.over and not recorded:
        number = len(sheet.rows) + 1
        context["game_form"] = forms.get("game_form") or GameForm(
            match=match, initial={"number": number, "cube": 1, "result": "single"}
        )
        context["next_number"] = number
        if not sheet.rows:
            context["final_form"] = forms.get("final_form") or FinalScoreForm()
            context["walkover_form"] = forms.get("walkover_form") or WalkoverForm(match=match)
    return render(request, "match.html", context, status=status)


def match(request, pk: int):
    return _page(request, get_object_or_404(match_list(), pk=pk))


def score_sheet(request, pk: int):
    """A blank sheet to print: the length at the top, a line per game, the Crawford line.

    A match to N points has at most 2N - 1 games; long matches print denser to stay on a page.
    """
    found = get_object_or_404(match_list(), pk=pk)
    lines = range(1, 2 * found.length)
    context = {"match": found, "lines": lines, "dense": found.length > 9}
    return render(request, "score_sheet.html", context)


@director_required
@require_http_methods(["GET", "POST"])
def match_new(request):
    form = MatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = match_create(user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(created)
    return render(request, "match_form.html", {"form": form}, status=400 if form.errors else 200)


@director_required
@require_POST
def game_new(request, pk: int):
    found = get_object_or_404(match_list(), pk=pk)
    form = GameForm(request.POST, match=found)
    if form.is_valid():
        try:
            game = game_record(match=found, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Game %(number)s is recorded.") % {"number": game.number})
            return redirect(found)
    return _page(request, found, status=400, game_form=form)


@director_required
@require_http_methods(["GET", "POST"])
def game_edit(request, pk: int, number: int):
    game = get_object_or_404(Game.objects.select_related("match"), match_id=pk, number=number)
    found = get_object_or_404(match_list(), pk=pk)
    initial = {
        "number": number,
        "winner": game.winner,
        "cube": game.cube,
        "result": game.result,
        "resigned": game.resigned,
    }
    form = GameForm(request.POST or None, match=found, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k != "number"}
        try:
            game_correct(game=game, user=request.user, **data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Game %(number)s is corrected.") % {"number": number})
            return redirect(found)
    status = 400 if form.errors else 200
    return render(
        request, "game_form.html", {"form": form, "match": found, "game": game}, status=status
    )


@director_required
@require_POST
def final_score(request, pk: int):
    found = get_object_or_404(match_list(), pk=pk)
    form = FinalScoreForm(request.POST)
    if form.is_valid():
        try:
            match_record_final_score(match=found, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The final score is recorded."))
            return redirect(found)
    return _page(request, found, status=400, final_form=form)


@director_required
@require_POST
def walkover(request, pk: int):
    found = get_object_or_404(match_list(), pk=pk)
    form = WalkoverForm(request.POST, match=found)
    if form.is_valid():
        try:
            match_walkover(match=found, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The walkover is recorded."))
            return redirect(found)
    return _page(request, found, status=400, walkover_form=form)
