"""The players' pages on their phones: a match's report (make one, confirm, dispute or
withdraw it), their matches and the reports waiting for them, their emails' setting.

Each view parses the request, asks the policy, calls one service, renders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club.forms import form_errors_said
from club.policy import (
    can_answer_report,
    can_change_match,
    can_report_result,
    own_player,
    player_side,
    require,
    sign_in_required,
)

from .endings import cube_shown, ending_text
from .forms import GameForm, NotificationsForm, ReportDisputeForm, ReportScoreForm, VersionForm
from .history import match_games
from .models import Match, ResultReport
from .notify import notifications_set, player_notifications
from .places import match_place
from .reports import (
    report_claimed_score,
    report_confirm,
    report_dispute,
    report_make,
    report_withdraw,
)
from .results import games_checked
from .selectors import GameSituation, game_situation, match_list, match_score_sheet


def _match(pk: int) -> Match:
    return get_object_or_404(match_list(), pk=pk)


def _claim_rows(match: Match, report: ResultReport) -> list[dict[str, object]]:
    """The claimed games as score-sheet lines: (number, game, score before, score after)."""
    first = report.first_game
    if first is None:  # a report of the final score: no games
        return []
    recorded = [g.as_result() for g in match_games(match)][: first - 1]
    derived = games_checked(match, recorded + report.game_results())
    rows: list[dict[str, object]] = []
    for offset, game in enumerate(report.games):
        scored = derived.games[first - 1 + offset]
        rows.append(
            {
                "number": first + offset,
                "winner": match.player(game["winner"]),
                "cube": cube_shown(game["result"], game["cube"]),
                "ending": ending_text(game["result"], game.get("resigned")),
                "crawford": scored.crawford,
                "before": scored.score_before,
                "after": scored.score_after,
            }
        )
    return rows


def report_outcome_said(report: ResultReport, side: int | None) -> str:
    """What became of an earlier report, in a full sentence from where the visitor stands
    (``side``: theirs in the match, None for a director): who did what to whose report,
    never "Niccolò D'Agostino: disputed", which reads as if the reporter disputed it."""
    names = {"reporter": report.reporter.name, "opponent": report.opponent.name}
    mine, theirs = side == report.side, side == 1 - report.side
    status = report.status
    if status == ResultReport.Status.DISPUTED:
        if mine:
            return _("%(opponent)s disputed your report.") % names
        if theirs:
            return _("You disputed %(reporter)s’s report.") % names
        return _("%(opponent)s disputed %(reporter)s’s report.") % names
    if status == ResultReport.Status.CONFIRMED:
        opponent_user = report.opponent.user_id
        if opponent_user is None or report.answered_by_id != opponent_user:
            if mine:
                return _("A director recorded your report.")
            return _("A director recorded %(reporter)s’s report.") % names
        if mine:
            return _("%(opponent)s confirmed your report.") % names
        if theirs:
            return _("You confirmed %(reporter)s’s report.") % names
        return _("%(opponent)s confirmed %(reporter)s’s report.") % names
    if status == ResultReport.Status.WITHDRAWN:
        if mine:
            return _("You withdrew your report.")
        return _("%(reporter)s withdrew their report.") % names
    if status == ResultReport.Status.VOID:
        if mine:
            return _("Your report was set aside: a director entered the result.")
        return _("%(reporter)s’s report was set aside: a director entered the result.") % names
    if mine:
        return _("Your report is waiting for confirmation.")
    return _("%(reporter)s’s report is waiting for confirmation.") % names


def _page(request: HttpRequest, match: Match, status: int = 200, **forms: Any) -> HttpResponse:
    """The report page as this visitor sees it (a player of the match, or its director)."""
    user = request.user
    scope = match_place(match)
    side = player_side(user, match)
    directing = can_change_match(user, match)
    sheet = match_score_sheet(match=match)
    reports = list(match.reports.select_related("dispute").order_by("-reported_at", "-id")[:5])
    pending = next((r for r in reports if r.pending), None)
    context = {
        "match": match,
        "sheet": sheet,
        "scope": scope,
        "side": side,
        "directing": directing,
        "pending": pending,
        "earlier": [(r, report_outcome_said(r, side)) for r in reports if not r.pending],
        "on_board": match.board_games.exclude(
            number__in=[g.number for g in match_games(match)]
        ).exists(),
        "refusal": forms.pop("refusal", ""),
    }
    # the next game after those recorded and those still waiting, checked by the rules
    situation = game_situation(match=match, pending=pending)
    broken = situation.problem == "unchecked"
    if pending is not None:
        context["claimed"] = None if broken else report_claimed_score(pending)
        context["rows"] = _claim_rows(match, pending) if pending.first_game and not broken else []
        due = pending.due_at(scope.confirm_minutes)
        context["due"] = due
        context["overdue"] = timezone.now() > due
        context["answering"] = can_answer_report(user, match, pending.side)
        context["reporting"] = side == pending.side
        context["version_form"] = VersionForm(initial={"version": pending.version})
        if context["answering"]:  # the opponent's form
            context["dispute_form"] = forms.get("dispute_form") or ReportDisputeForm(
                initial={"version": pending.version}
            )
    may_report = can_report_result(user, match) and not context["on_board"]
    own_games = pending is not None and pending.side == side and pending.kind == "games"
    if may_report and (pending is None or own_games):
        if situation.playable and scope.report_detail != "final":
            context["next_number"] = situation.number
            context["game_form"] = forms.get("game_form") or GameForm(
                match=match,
                situation=situation,
                initial={"number": situation.number, "cube": 1, "result": "single"},
            )
        if pending is None and not match_games(match) and scope.report_detail != "games":
            context["score_form"] = forms.get("score_form") or ReportScoreForm()
    # games that cannot be checked: the rules' refusal in words, never a form as if all were
    # fine ("Game 2 is the Crawford game: no doubling (WBF 24).")
    unchecked = situation.refusal if broken else ""
    refused = [form for slot, form in forms.items() if context.get(slot) is not form]
    said = [
        context["refusal"],
        unchecked,
        *(said for form in refused for said in form_errors_said(form)),
    ]
    context["refusal"] = " ".join(dict.fromkeys(s for s in said if s))  # each said once
    return render(request, "report.html", context, status=status)


def _reported_next(match: Match) -> GameSituation:
    """The next game a player would report: after the games recorded and those of the
    report still waiting (the rules' refusal when they cannot be checked, no default)."""
    pending = match.reports.filter(status=ResultReport.Status.PENDING).first()
    return game_situation(match=match, pending=pending)


def _may_see(request: HttpRequest, match: Match) -> None:
    require(player_side(request.user, match) is not None or can_change_match(request.user, match))


@sign_in_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, pk: int) -> HttpResponse:
    """A match's result as the players report it: GET shows it, POST reports a game (or
    only the final score, with ``final``)."""
    found = _match(pk)
    _may_see(request, found)
    if request.method == "GET":
        return _page(request, found)
    final = "final" in request.POST
    form: ReportScoreForm | GameForm
    if final:
        form = ReportScoreForm(request.POST)
        slot = "score_form"
    else:
        form = GameForm(request.POST, match=found, situation=_reported_next(found))
        slot = "game_form"
    if form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k != "version"}
        try:
            made = report_make(match=found, user=request.user, **data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _("Reported: %(name)s is asked to confirm it.") % {"name": made.opponent.name},
            )
            return redirect("report", found.pk)
    return _page(request, _match(pk), status=400, **{slot: form})


def _pending_or_latest(match: Match) -> ResultReport:
    found = match.reports.order_by("-reported_at", "-id").first()
    if found is None:
        raise ValidationError(_("No result of this match has been reported."))
    return found


Act: TypeAlias = Callable[
    [ResultReport], str | tuple[str, Form]
]  # what was done, or a form refused


def _answer(request: HttpRequest, pk: int, act: Act) -> HttpResponse:
    found = _match(pk)
    _may_see(request, found)
    try:
        current = _pending_or_latest(found)
        done = act(current)
    except ValidationError as error:
        return _page(request, _match(pk), status=400, refusal=" ".join(error.messages))
    if isinstance(done, tuple):  # a form that did not validate
        return _page(request, _match(pk), status=400, **dict([done]))
    messages.success(request, done)
    return redirect("report", found.pk)


def _version(request: HttpRequest) -> int:
    """The report's version the page was drawn from; refused when missing (out of date)."""
    form = VersionForm(request.POST)
    if not form.is_valid():
        raise ValidationError(form_errors_said(form))
    version: int = form.cleaned_data["version"]
    return version


@sign_in_required
@require_POST
def report_confirm_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(current: ResultReport) -> str:
        report_confirm(report=current, user=request.user, version=_version(request))
        return _("Confirmed: the result is recorded.")

    return _answer(request, pk, act)


@sign_in_required
@require_POST
def report_dispute_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(current: ResultReport) -> str | tuple[str, Form]:
        form = ReportDisputeForm(request.POST)
        if not form.is_valid():
            return ("dispute_form", form)
        data = form.cleaned_data
        report_dispute(
            report=current,
            user=request.user,
            version=data["version"],
            score_a=data["score_a"],
            score_b=data["score_b"],
        )
        return _("Disputed: the director decides, with both versions in front of them.")

    return _answer(request, pk, act)


@sign_in_required
@require_POST
def report_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(current: ResultReport) -> str:
        report_withdraw(report=current, user=request.user)
        return _("Your report is withdrawn.")

    return _answer(request, pk, act)


@sign_in_required
@require_http_methods(["GET", "POST"])
def notifications(request: HttpRequest) -> HttpResponse:
    """The signed-in player turns their emails on or off and picks their language."""
    player = own_player(request.user)
    if player is None:
        return render(request, "me_unlinked.html")
    setting = player_notifications(player=player)
    initial = {"emails": setting.emails, "language": setting.language or get_language()}
    form = NotificationsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            notifications_set(player=player, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Your email setting is saved."))
            return redirect("notifications")
    status = 400 if form.errors else 200
    context = {
        "player": player,
        "form": form,
        "address": player.email or getattr(request.user, "email", ""),
    }
    return render(request, "notifications.html", context, status=status)
