"""Match pages: the score sheet for everyone, the director's forms, the printable sheet.

Each view parses the request, calls one service or selector, and renders.
"""

from collections.abc import Callable
from typing import Any, TypeAlias

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.confirm import Confirmation, confirm_page, confirmed
from club.forms import form_errors_said
from club.policy import (
    board_sides,
    can_change_match,
    can_create,
    match_scope,
    player_side,
    require,
    sign_in_required,
)
from club.tables import table_page
from club.uploads import size_gate
from rules.sheets import SheetRuling

from .audit import result_text
from .board.log import board_game_log
from .board.views import board_orientation, requested_view
from .disputes import (
    DisputeReport,
    dispute_claims,
    dispute_close,
    dispute_decide,
    dispute_open,
    dispute_report,
    dispute_sheet_apply,
    dispute_sheet_plan,
    dispute_sheets_set,
    sheet_ruling_text,
)
from .filters import MatchFilter
from .forms import (
    DiceForm,
    FinalScoreForm,
    ForfeitForm,
    GameCorrectionForm,
    GameForm,
    MatchForm,
    MatFileForm,
    PenaltyForm,
    RetireForm,
    SheetsForm,
    VersionForm,
    WalkoverForm,
)
from .matfiles import mat_import, mat_import_plan, mat_too_large, match_mat
from .models import BoardGame, Dispute, Game, Match, ResultReport
from .places import match_place
from .results import result_facts_of
from .selectors import (
    PenaltyRow,
    game_situation,
    match_changes,
    match_list,
    match_score_sheet,
)
from .services import (
    SheetChanged,
    game_correct,
    game_record,
    match_create,
    match_dice_allow,
    match_record_final_score,
    match_result_clear,
    match_retire,
    match_walkover,
)
from .tables import MatchTable

View: TypeAlias = Callable[..., HttpResponse]


def matches(request: HttpRequest) -> HttpResponseBase:
    filterset = MatchFilter(request.GET, queryset=match_list())
    page: HttpResponseBase = table_page(
        request, MatchTable(filterset.qs), filterset, "matches.html", "matches"
    )
    return page


def match_page(
    request: HttpRequest, match: Match, status: int = 200, error: str = "", **forms: Any
) -> HttpResponse:
    """The match's page: its score sheet and, for whoever may change it, its forms; a form
    refused (in ``forms``, by its slot) is shown again with its errors, and ``error`` says
    what went wrong. Every write of a match's result ends here when refused, the penalty
    views' too (:mod:`matches.penalty_views`)."""
    sheet = match_score_sheet(match=match)
    may_change = can_change_match(request.user, match)
    context: dict[str, Any] = {
        "match": match,
        "sheet": sheet,
        "scope": match_place(match),
        "may_change": may_change,
        "changes": match_changes(match=match),
        "logs": [board_game.number for board_game in match.board_games.all()],
        "disputes": list(match.disputes.all()),
        "error": error,
        "next_number": len(sheet.rows) + 1,
        # penalty points won it: taken back on their line, not as a result
        "won_by_penalty": sheet.over
        and match.final_score_a is None
        and bool(sheet.lines)
        and isinstance(sheet.lines[-1], PenaltyRow),
    }
    situation = game_situation(match=match)  # the next game: Crawford, the cubes allowed
    context["next_game"] = situation if situation.playable else None
    scope = match_scope(match)
    if scope.player_reports and (may_change or player_side(request.user, match) is not None):
        context["report_link"] = True
        context["pending_report"] = match.reports.filter(status=ResultReport.Status.PENDING).first()
    if may_change:
        version = {"version": match.version}
        context["dice_form"] = DiceForm(initial={"allowed": match.physical_dice})
        recorded = match.final_score_a is not None or match.status == Match.Status.WALKOVER
        if not sheet.over and not recorded:
            number = context["next_number"]
            context["game_form"] = forms.get("game_form") or GameForm(
                match=match,
                situation=situation,
                initial={"number": number, "cube": 1, "result": "single"},
            )
            context["retire_form"] = forms.get("retire_form") or RetireForm(
                match=match, initial=version
            )
            context["penalty_form"] = forms.get("penalty_form") or PenaltyForm(
                match=match, initial=version
            )
            context["forfeit_form"] = forms.get("forfeit_form") or ForfeitForm(
                match=match, initial=version
            )
        if not sheet.rows and not match.board_games.exists():
            score = {"score_a": match.final_score_a, "score_b": match.final_score_b}
            context["final_form"] = forms.get("final_form") or FinalScoreForm(
                initial={**version, **score}
            )
            context["walkover_form"] = forms.get("walkover_form") or WalkoverForm(
                match=match, initial=version
            )
    for slot in OWN_IDS:  # the game's form keeps Django's "id_"; the others ids of their own
        if context.get(slot) is not None:
            context[slot].auto_id = f"{slot.removesuffix('_form')}_%s"
    refused = [form for slot, form in forms.items() if context.get(slot) is not form]
    said = [error, *(said for form in refused for said in form_errors_said(form))]
    context["error"] = " ".join(s for s in said if s)  # a form the page does not show
    return render(request, "match.html", context, status=status)


# the match page's forms besides the game's: each its own ids, or one form's label (the
# walkover's "winner") names another's control (issue 30.7)
OWN_IDS = (
    "dice_form",
    "retire_form",
    "penalty_form",
    "forfeit_form",
    "final_form",
    "walkover_form",
)


def changed_page(request: HttpRequest, pk: int, changed: SheetChanged) -> HttpResponse:
    """Another director changed the result first: their change, and the sheet as it is."""
    return match_page(request, get_object_or_404(match_list(), pk=pk), 409, changed.messages[0])


def match(request: HttpRequest, pk: int) -> HttpResponse:
    return match_page(request, get_object_or_404(match_list(), pk=pk))


def score_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """A blank sheet to print: the length at the top, a line per game, the Crawford line,
    and the penalty points already given (tournament rules), each on its line.

    A match to N points has at most 2N - 1 games; long matches print denser to stay on a page.
    """
    found = get_object_or_404(match_list(), pk=pk)
    lines = range(1, 2 * found.length)
    place = match_place(found)
    given = [line for line in match_score_sheet(match=found).lines if isinstance(line, PenaltyRow)]
    context = {
        "match": found,
        "lines": lines,
        "dense": found.length > 9,
        "where": place.label,
        "penalties": given,  # penalty points given so far, printed under the sheet
    }
    return render(request, "score_sheet.html", context)


@sign_in_required
@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    require(can_create(request.user))
    form = MatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = match_create(user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(created)
    return render(request, "match_form.html", {"form": form}, status=400 if form.errors else 200)


@sign_in_required
@require_POST
def game_new(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = GameForm(request.POST, match=found, situation=game_situation(match=found))
    if form.is_valid():
        try:
            game = game_record(match=found, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Game %(number)s is recorded.") % {"number": game.number})
            return redirect(found)
    return match_page(request, found, status=400, game_form=form)


@sign_in_required
@require_http_methods(["GET", "POST"])
def game_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("match"), match_id=pk, number=number)
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    initial = {
        "version": found.version,
        "number": number,
        "winner": game.winner,
        "cube": game.cube,
        "result": game.result,
        "resigned": game.resigned,
    }
    situation = game_situation(match=found, number=number)
    form = GameCorrectionForm(
        request.POST or None, match=found, situation=situation, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k != "number"}
        try:
            game_correct(game=game, user=request.user, **data)
        except SheetChanged as changed:
            return changed_page(request, pk, changed)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Game %(number)s is corrected.") % {"number": number})
            return redirect(found)
    status = 400 if form.errors else 200
    return render(
        request, "game_form.html", {"form": form, "match": found, "game": game}, status=status
    )


def form_write(
    request: HttpRequest,
    found: Match,
    form: Form,
    service: Callable[..., object],
    done: str,
    slot: str,
) -> HttpResponse:
    """A match form's write: the service on the form's data, then the match page, or the
    form again with the refusal in words (400), or the sheet changed by someone else."""
    if form.is_valid():
        try:
            service(match=found, user=request.user, **form.cleaned_data)
        except SheetChanged as changed:
            return changed_page(request, found.pk, changed)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, done)
            return redirect(found)
    shown: dict[str, Any] = {slot: form}
    return match_page(request, found, status=400, **shown)


@sign_in_required
@require_POST
def final_score(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = FinalScoreForm(request.POST)
    done = _("The final score is recorded.")
    return form_write(request, found, form, match_record_final_score, done, "final_form")


@sign_in_required
@require_POST
def walkover(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first (who wins without playing, what it replaces), then records the walkover."""
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = WalkoverForm(request.POST, match=found)
    if form.is_valid() and not confirmed(request):
        winner = found.player(form.cleaned_data["winner"])
        replaced = result_facts_of(found) if found.decided else None
        return confirm_page(
            request,
            Confirmation(
                title=_("A walkover to %(name)s?") % {"name": winner.name},
                what=_("%(winner)s wins by walkover against %(loser)s (%(length)s-point match).")
                % {
                    "winner": winner.name,
                    "loser": found.player(1 - form.cleaned_data["winner"]).name,
                    "length": found.length,
                },
                consequences=(
                    (_("It replaces %(result)s.") % {"result": result_text(replaced)},)
                    if replaced
                    else ()
                ),
                undo=_(
                    "A walkover can be given to the other player, or taken back for the match "
                    "to be played, while no later match of either player has begun."
                ),
                button=_("Record a walkover to %(name)s") % {"name": winner.name},
                action=reverse("walkover", args=[found.pk]),
                back=found.get_absolute_url(),
                fields=(
                    ("winner", form.cleaned_data["winner"]),
                    ("version", form.cleaned_data["version"]),
                ),
            ),
        )
    done = _("The walkover is recorded.")
    return form_write(request, found, form, match_walkover, done, "walkover_form")


@sign_in_required
@require_POST
def retire(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first (who retired, who wins), then records the retirement."""
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = RetireForm(request.POST, match=found)
    if form.is_valid() and not confirmed(request):
        side = form.cleaned_data["side"]
        retired, winner = found.player(side), found.player(1 - side)
        return confirm_page(
            request,
            Confirmation(
                title=_("%(name)s retired?") % {"name": retired.name},
                what=_(
                    "%(name)s retires from the %(length)s-point match against %(winner)s: "
                    "%(winner)s wins it, the score written as %(length)s for them."
                )
                % {"name": retired.name, "winner": winner.name, "length": found.length},
                undo=_(
                    "A retirement can be taken back, and the match goes on from its games, "
                    "while no later match of either player has begun."
                ),
                button=_("Record that %(name)s retired") % {"name": retired.name},
                action=reverse("retire", args=[found.pk]),
                back=found.get_absolute_url(),
                fields=(
                    ("side", side),
                    ("version", form.cleaned_data["version"]),
                ),
            ),
        )
    done = _("The retirement is recorded.")
    return form_write(request, found, form, match_retire, done, "retire_form")


@sign_in_required
@require_POST
def result_clear(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first, then takes back a walkover or a final score: the match is to be played."""
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = VersionForm(request.POST)
    if not form.is_valid():  # no version: the page it came from was out of date
        return match_page(request, found, status=400, error=" ".join(form_errors_said(form)))
    version = form.cleaned_data["version"]
    if not confirmed(request):
        return confirm_page(
            request,
            Confirmation(
                title=_("Take back the result of %(match)s?") % {"match": str(found)},
                what=_("The result, %(result)s, is taken back: the match is to be played again.")
                % {"result": result_text(result_facts_of(found))},
                button=_("Take back the result"),
                action=reverse("result_clear", args=[found.pk]),
                back=found.get_absolute_url(),
                fields=(("version", version),),
            ),
        )
    try:
        match_result_clear(match=found, user=request.user, version=version)
    except SheetChanged as changed:
        return changed_page(request, pk, changed)
    except ValidationError as error:
        return match_page(request, found, status=400, error=" ".join(error.messages))
    messages.success(request, _("The result is taken back: the match is to be played."))
    return redirect(found)


@sign_in_required
@require_POST
def match_dice(request: HttpRequest, pk: int) -> HttpResponse:
    """The director lets the players enter dice rolled at the table, or takes it back."""
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = DiceForm(request.POST)
    if form.is_valid():
        match_dice_allow(match=found, allowed=form.cleaned_data["allowed"], user=request.user)
        messages.success(request, _("The dice setting is saved."))
    return redirect(found)


@require_GET
def game_log(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A game played on the board (or imported): its actions, and the board after one of them."""
    found = get_object_or_404(match_list(), pk=pk)
    board_game = (
        BoardGame.objects.select_related("match__player_a", "match__player_b")
        .filter(match=found, number=number)
        .first()
    )
    if board_game is None and not found.games.filter(number=number).exists():
        raise Http404
    at = request.GET.get("at", "")
    shown = int(at) if at.isdigit() else None  # anything else: the last action
    view = requested_view(request)
    orientation = board_orientation(view, board_sides(request.user, found))
    log = (
        board_game_log(board_game=board_game, at=shown, orientation=orientation)
        if board_game
        else None
    )
    context = {
        "match": found,
        "number": number,
        "board_game": board_game,
        "log": log,
        "view": view,
    }
    return render(request, "game_log.html", context)


@require_GET
def match_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The match as a .mat file, for GNU Backgammon, eXtreme Gammon and the rest."""
    found = get_object_or_404(match_list(), pk=pk)
    response = HttpResponse(match_mat(match=found), content_type="text/plain; charset=utf-8")
    name = slugify(f"{found.player_a} {found.player_b} {found.date}") or f"match-{found.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}.mat"'
    return response


# a view taking a match file: a request larger than one may be is refused unread
match_file_form = size_gate(lambda: settings.MATCH_FILE_REQUEST_MAX_BYTES, "match_file_too_large")


def _mat_file_form(request: HttpRequest, match: Match) -> MatFileForm:
    """The match-file form as posted (or empty), or the refusal of a request too large to read."""
    if getattr(request, "match_file_too_large", False):
        form = MatFileForm({}, match=match)  # bound to nothing: the body is never read
        form.add_error(None, mat_too_large())
        return form
    if request.method == "POST":
        return MatFileForm(request.POST, request.FILES, match=match)
    return MatFileForm(match=match)


@match_file_form
@sign_in_required
@require_http_methods(["GET", "POST"])
def match_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload a .mat file, see what the replay makes of it, then import it."""
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = _mat_file_form(request, found)
    context = {"match": found, "form": form}
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            if "confirm" in request.POST:
                mat_import(match=found, text=data["text"], left=data["left"], user=request.user)
                messages.success(request, _("The match file is imported."))
                return redirect(found)
            context["plan"] = mat_import_plan(match=found, text=data["text"], left=data["left"])
            context["text"] = data["text"]
        except ValidationError as error:
            form.add_error(None, error)
    return render(request, "match_import.html", context, status=form.status)


def _sheet_apply(request: HttpRequest, found: Dispute) -> HttpResponse:
    """Asks first, saying what applying the sheet does; then applies it. A plan the rules
    cannot carry out is refused in words on the dispute's page (by the caller)."""
    if not confirmed(request):
        if found.decided_at is not None:
            raise ValidationError(_("This dispute is decided."))
        plan = dispute_sheet_plan(dispute=found)
        if plan.refusal:
            raise ValidationError(plan.refusal)
        score = plan.score or (0, 0)
        match = found.match
        return confirm_page(
            request,
            Confirmation(
                title=_("Apply the score sheet that stands: %(a)s–%(b)s?")
                % {"a": score[0], "b": score[1]},
                what=plan.describe(match),
                consequences=(sheet_ruling_text(match, plan.ruling, log=found.source != "report"),),
                undo=_(
                    "Each change goes through the same correction as any other and links this "
                    "dispute; a game can be corrected again on the match's page."
                ),
                button=_("Apply the score sheet: %(a)s–%(b)s") % {"a": score[0], "b": score[1]},
                action=found.get_absolute_url(),
                back=found.get_absolute_url(),
                fields=(("apply_sheet", "1"),),
            ),
        )
    dispute_sheet_apply(dispute=found, user=request.user)
    messages.success(request, _("The score sheet is applied and the dispute decided."))
    return redirect(found)


@match_file_form
@sign_in_required
@require_http_methods(["GET", "POST"])
def dispute_new(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = _mat_file_form(request, found)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            opened = dispute_open(
                match=found,
                user=request.user,
                text=data["text"],
                filename=data.get("filename", ""),
                left=data["left"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(opened)
    return render(request, "dispute_new.html", {"match": found, "form": form}, status=form.status)


@sign_in_required
@require_http_methods(["GET", "POST"])
def dispute(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The replay beside the recorded score; directors enter the sheets and decide.

    A refusal (a correction the rules forbid once a later match has begun, US rules
    4.10) is shown on the page, which stays as it was.
    """
    disputes = Dispute.objects.select_related("match__player_a", "match__player_b")
    found = get_object_or_404(disputes, match_id=pk, pk=number)
    require(can_change_match(request.user, found.match))
    sheets = SheetsForm(request.POST if "sheets" in request.POST else None)
    refusals: list[str] = []
    status = 200
    if request.method == "POST":
        try:
            if "decide" in request.POST:
                dispute_decide(dispute=found, user=request.user)
                messages.success(request, _("The decision is recorded and the match corrected."))
                return redirect(found)
            if "close" in request.POST:
                dispute_close(dispute=found, user=request.user)
                messages.success(request, _("The dispute is closed; the match is as recorded."))
                return redirect(found)
            if "apply_sheet" in request.POST:
                return _sheet_apply(request, found)
            if sheets.is_valid():
                dispute_sheets_set(
                    dispute=found,
                    sheet_a=sheets.cleaned_data["sheet_a"],
                    sheet_b=sheets.cleaned_data["sheet_b"],
                    user=request.user,
                )
                return redirect(found)
        except ValidationError as error:
            refusals = error.messages
        status = 400 if refusals or sheets.errors else 200  # nothing asked: the page
        found = disputes.get(pk=found.pk)  # as it is now, after the refusal
    claim: ResultReport | None = None
    ruling: SheetRuling | None = None  # the rule applied to the players' two claims
    report: DisputeReport | None = None
    standing: SheetRuling  # the sheet that stands
    if found.source == Dispute.Source.REPORT:  # no log: the players' two claims
        claim, standing = dispute_claims(dispute=found)
        ruling = standing
    else:
        report = dispute_report(dispute=found)
        standing = report.ruling
    if not sheets.is_bound:
        sheets = SheetsForm(
            initial={
                "a_a": found.sheet_a_a,
                "a_b": found.sheet_a_b,
                "b_a": found.sheet_b_a,
                "b_b": found.sheet_b_b,
            }
        )
    context = {
        "match": found.match,
        "dispute": found,
        "sheet_score": standing.score,  # the score of the sheet that stands
        "report": report,
        "claim": claim,
        "claim_ruling": sheet_ruling_text(found.match, ruling, log=False)
        if ruling is not None
        else "",
        "sheets": sheets,
        "refusals": refusals,
    }
    return render(request, "dispute.html", context, status=status)
