"""An event's draw and rounds, from the director's forms: the draw made, made again or taken
back, a Swiss's next round paired, and its cut to a knockout.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from club.confirm import Confirmation, confirm_page, confirmed
from club.policy import sign_in_required

from .cut import cut_preview
from .event_views import directed_event, event_action, event_refused
from .forms import CutForm, DrawForm
from .models import Event
from .services.draws import event_draw, event_draw_undo, event_redraw
from .services.swiss import event_cut, event_pair_next_round


@sign_in_required
@require_POST
def draw(request: HttpRequest, pk: int) -> HttpResponse:
    found = directed_event(request, pk)
    form = DrawForm(request.POST)
    if not form.is_valid():
        return event_refused(request, found, draw_form=form)
    return event_action(
        request,
        found,
        lambda: event_draw(event=found, seed=form.cleaned_data["seed"], user=request.user),
        _("The draw is made."),
    )


@sign_in_required
@require_POST
def redraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first (the matches removed, the old seed), then makes the draw again."""
    found = directed_event(request, pk)
    form = DrawForm(request.POST)
    if not form.is_valid():
        return event_refused(request, found, redraw_form=form)
    seed = form.cleaned_data["seed"]
    if not confirmed(request) and found.drawn_at is not None:  # not drawn: the service says so
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
    return event_action(
        request,
        found,
        lambda: event_redraw(
            event=found, seed=seed, drawn_at=request.POST.get("drawn_at"), user=request.user
        ),
        _("The draw is made again."),
    )


@sign_in_required
@require_POST
def draw_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first, then takes the draw back and opens check-in again."""
    found = directed_event(request, pk)
    if not confirmed(request) and found.drawn_at is not None:  # not drawn: the service says so
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
    return event_action(
        request,
        found,
        lambda: event_draw_undo(
            event=found, drawn_at=request.POST.get("drawn_at") or None, user=request.user
        ),
        _("The draw is taken back: check-in is open again."),
    )


@sign_in_required
@require_POST
def pair_next_round(request: HttpRequest, pk: int) -> HttpResponse:
    found = directed_event(request, pk)
    return event_action(
        request,
        found,
        lambda: event_pair_next_round(event=found, user=request.user),
        _("The next round is paired."),
    )


@sign_in_required
@require_http_methods(["GET", "POST"])
def cut(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first: who goes through, their seeds, the knockout's lengths (editable) and, when
    players are level at the cut line, the rule that decides or the director's choice; then
    makes the cut. A refusal (the Swiss not finished, a stale preview) is said on the page."""
    found = directed_event(request, pk)
    context: dict[str, Any] = {"event": found, "tournament": found.tournament}
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
