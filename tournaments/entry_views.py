"""An event's entries, from the director's forms: players entered, checked in (one, or all at
once), withdrawn and reinstated, late arrivals and substitutes.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from club.confirm import Confirmation, confirm_page, confirmed
from club.policy import can_direct, require, sign_in_required

from .advancement import player_withdrawn_matches
from .event_views import directed_event, event_action, event_refused
from .forms import EntryForm, LateEntryForm
from .models import Entry
from .queries.progress import event_finished
from .services.entries import (
    entry_check_in,
    entry_check_in_undo,
    entry_register,
    entry_reinstate,
    entry_substitute,
    entry_withdraw,
    event_check_in_all,
)
from .services.late import entry_late_add


@sign_in_required
@require_POST
def entries_add(request: HttpRequest, pk: int) -> HttpResponse:
    found = directed_event(request, pk)
    form = EntryForm(request.POST, event=found)
    if not form.is_valid():
        return event_refused(request, found, entry_form=form)
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


def _entry(request: HttpRequest, pk: int) -> Entry:
    found = get_object_or_404(Entry.objects.select_related("event__tournament", "player"), pk=pk)
    require(can_direct(request.user, found.event.tournament))
    return found


@sign_in_required
@require_POST
def entry_check_in_view(request: HttpRequest, pk: int) -> HttpResponse:
    entry = _entry(request, pk)
    return event_action(
        request,
        entry.event,
        lambda: entry_check_in(entry=entry, user=request.user),
        _("%(player)s is checked in.") % {"player": entry.player.name},
    )


@sign_in_required
@require_POST
def entry_check_in_undo_view(request: HttpRequest, pk: int) -> HttpResponse:
    entry = _entry(request, pk)
    return event_action(
        request,
        entry.event,
        lambda: entry_check_in_undo(entry=entry, user=request.user),
        _("%(player)s is no longer checked in.") % {"player": entry.player.name},
    )


@sign_in_required
@require_http_methods(["GET", "POST"])
def entry_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
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
    return event_action(
        request,
        entry.event,
        lambda: entry_withdraw(entry=entry, user=request.user),
        _("%(player)s has withdrawn.") % {"player": name},
    )


@sign_in_required
@require_POST
def entry_reinstate_view(request: HttpRequest, pk: int) -> HttpResponse:
    entry = _entry(request, pk)
    return event_action(
        request,
        entry.event,
        lambda: entry_reinstate(entry=entry, user=request.user),
        _("%(player)s is reinstated.") % {"player": entry.player.name},
    )


@sign_in_required
@require_POST
def check_in_all(request: HttpRequest, pk: int) -> HttpResponse:
    found = directed_event(request, pk)
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
def late_entry(request: HttpRequest, pk: int) -> HttpResponse:
    found = directed_event(request, pk)
    form = LateEntryForm(request.POST, event=found)
    if not form.is_valid():
        return event_refused(request, found, late_form=form)
    player, replaces = form.cleaned_data["player"], form.cleaned_data.get("replaces")
    if replaces is not None:
        return event_action(
            request,
            found,
            lambda: entry_substitute(entry=replaces, player=player, user=request.user),
            _("%(player)s takes the place of %(gone)s.")
            % {"player": player.name, "gone": replaces.player.name},
        )
    return event_action(
        request,
        found,
        lambda: entry_late_add(event=found, player=player, user=request.user),
        _("%(player)s is entered and checked in.") % {"player": player.name},
    )
