"""Penalty points and forfeits (tournament rules): the director's forms on a match's page.

Penalty points are given before the next game and can be taken back; a forfeit (a flag
fallen on a physical clock, or lateness) ends the match. Each view parses the request,
asks the policy, calls one service (:mod:`matches.penalties`) and renders; a refusal is the
match's page again with the form and its error in words (:func:`matches.views.match_page`).
Kept apart from :mod:`matches.views`, which holds the match's other pages and forms.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.confirm import Confirmation, confirm_page, confirmed
from club.forms import form_errors_said
from club.policy import can_change_match, require, sign_in_required

from .audit import penalty_text
from .forms import ForfeitForm, PenaltyForm, VersionForm
from .models import Match, Penalty
from .penalties import match_forfeit, match_penalty_award, match_penalty_remove
from .selectors import match_list
from .services import SheetChanged
from .views import changed_page, form_write, match_page


@sign_in_required
@require_POST
def penalty_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Penalty points (tournament rules): given before the next game, audited with the
    reason; refused in words (the match decided, a game on the board)."""
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = PenaltyForm(request.POST, match=found)
    done = _("The penalty points are recorded.")
    return form_write(request, found, form, match_penalty_award, done, "penalty_form")


@sign_in_required
@require_POST
def penalty_remove(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Asks first, then takes penalty points back (a correction: US rules 4.10)."""
    penalty = get_object_or_404(
        Penalty.objects.select_related("match__player_a", "match__player_b"),
        match_id=pk,
        pk=number,
    )
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = VersionForm(request.POST)
    if not form.is_valid():  # no version: the page it came from was out of date
        return match_page(request, found, status=400, error=" ".join(form_errors_said(form)))
    version = form.cleaned_data["version"]
    facts = {
        "name": penalty.penalised.name,
        "scorer": penalty.scorer.name,
        "points": penalty.points,
        "reason": penalty.reason,
        "note": penalty.note,
        "minutes_late": penalty.minutes_late,
        "before_game": penalty.before_game,
    }
    if not confirmed(request):
        return confirm_page(
            request,
            Confirmation(
                title=_("Take back the penalty points?"),
                what=_("Taken back: %(penalty)s.") % {"penalty": penalty_text(facts)},
                undo=_("Penalty points taken back can be given again, before the next game."),
                button=_("Take back the penalty points"),
                action=reverse("penalty_remove", args=[found.pk, penalty.pk]),
                back=found.get_absolute_url(),
                fields=(("version", version),),
            ),
        )
    try:
        match_penalty_remove(penalty=penalty, user=request.user, version=version)
    except SheetChanged as changed:
        return changed_page(request, pk, changed)
    except ValidationError as error:
        return match_page(request, found, status=400, error=" ".join(error.messages))
    messages.success(request, _("The penalty points are taken back."))
    return redirect(found)


@sign_in_required
@require_POST
def forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first (who forfeited, who wins), then records the forfeit: a flag fallen on a
    physical clock, or lateness (tournament rules)."""
    found = get_object_or_404(match_list(), pk=pk)
    require(can_change_match(request.user, found))
    form = ForfeitForm(request.POST, match=found)
    if form.is_valid() and not confirmed(request):
        side, reason = form.cleaned_data["side"], form.cleaned_data["reason"]
        loser, winner = found.player(side), found.player(1 - side)
        values = {"name": loser.name, "winner": winner.name, "length": found.length}
        what = (
            _(
                "%(name)s's flag fell: %(name)s loses the %(length)s-point match on time "
                "and %(winner)s wins it, the score written as %(length)s for them."
            )
            if reason == Match.Forfeit.TIME
            else _(
                "%(name)s forfeits the %(length)s-point match by lateness: %(winner)s wins "
                "it, the score written as %(length)s for them."
            )
        )
        return confirm_page(
            request,
            Confirmation(
                title=_("%(name)s forfeits?") % {"name": loser.name},
                what=what % values,
                undo=_(
                    "A forfeit can be taken back, and the match goes on from its games, while "
                    "no later match of either player has begun."
                ),
                button=_("Record that %(name)s forfeits") % {"name": loser.name},
                action=reverse("forfeit", args=[found.pk]),
                back=found.get_absolute_url(),
                fields=(
                    ("forfeit-side", side),
                    ("forfeit-reason", reason),
                    ("forfeit-version", form.cleaned_data["version"]),
                ),
            ),
        )
    done = _("The forfeit is recorded.")
    return form_write(request, found, form, match_forfeit, done, "forfeit_form")
