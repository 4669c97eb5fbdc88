"""A round's pages and the printouts: the bracket, a round's pairings and score sheets, and a
match moved to another table by the director.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.policy import can_direct, require, sign_in_required
from matches.history import match_penalties
from matches.places import match_place

from .event_views import event_or_404
from .forms import RoundTimesForm, TableMoveForm
from .live import by_event, live, live_page
from .models import Event
from .queries.brackets import event_bracket_sections
from .queries.events import RoundPairings, event_rounds
from .queries.knockouts import event_knockout
from .tables import PairingTable
from .venue import PLAYABLE, Busy, match_players_busy, match_table_move


@live(by_event)
def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket to print: landscape, each draw (or 32-player part) on its own page. On a
    screen it refreshes itself."""
    found = event_or_404(pk)
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
    return live_page(request, context, "bracket_print.html", "includes/bracket_live.html")


def _round(found: Event, number: int) -> RoundPairings:
    for candidate in event_rounds(event=found):
        if candidate.number == number:
            return candidate
    raise Http404


@live(by_event)
def round_pairings(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    found = event_or_404(pk)
    pairing_round = _round(found, number)
    table = PairingTable(pairing_round.matches, exclude=("reason", "match"))
    playing = [m for m in pairing_round.matches if m.status in PLAYABLE]
    directs = can_direct(request.user, found.tournament)
    directing = directs and found.tournament.tables
    times = RoundTimesForm(
        initial={"starts_at": pairing_round.starts_at, "clocks": pairing_round.clocks}
    )
    context = {
        "event": found,
        "tournament": found.tournament,
        "round": pairing_round,
        "table": table,
        "move_form": TableMoveForm(matches=playing) if directing and playing else None,
        "times_form": times if directs else None,
    }
    return live_page(request, context, "round_print.html", "includes/round_live.html")


def round_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A blank score sheet per match of the round still to finish, one per printed page."""
    found = event_or_404(pk)
    pairing_round = _round(found, number)
    sheets = [
        {
            "match": m,
            "lines": range(1, 2 * m.length),
            "dense": m.length > 9,
            "where": match_place(m).label,
            "code": m.place.bracket_key,
            "table": getattr(m, "table", None),  # none: Django raises, the sheet has no table
            "given": match_penalties(m),  # those recorded already, prefetched with the round
        }
        for m in pairing_round.matches
        if m.status in PLAYABLE  # a finished match needs no sheet
    ]
    return render(
        request,
        "round_sheets.html",
        {"event": found, "tournament": found.tournament, "round": pairing_round, "sheets": sheets},
    )


@sign_in_required
@require_POST
def round_table_move(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The director moves a match of the round to another table."""
    found = event_or_404(pk)
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
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect("round", pk=pk, number=number)


def _busy_words(busy: Busy) -> str:
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
