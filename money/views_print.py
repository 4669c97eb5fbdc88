"""The end of the evening on paper: each player's total and who pays whom.

The transfers are the fewest that settle every total (rules.settlement); the amounts
sum to zero, which the page says, so a club can check the sheet before the money moves.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from club.policy import sign_in_required

from .models import Table
from .queries import table_settlement, table_totals
from .taps import euros


@sign_in_required
@require_GET
def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Table, pk=pk)
    totals = table_totals(found)
    transfers = table_settlement(found)
    context = {
        "table": found,
        "totals": [
            {"player": row.player, "points": row.points, "money": euros(row.cents)}
            for row in totals
        ],
        "transfers": [
            {"payer": row.payer, "payee": row.payee, "money": euros(row.cents)} for row in transfers
        ],
        "points_sum": sum(row.points for row in totals),
        "money_sum": euros(sum(row.cents for row in totals)),
        "stakes": [
            (seat.player, euros(seat.stake_cents))
            for seat in found.seats.select_related("player").order_by("player__name")
        ],
    }
    return render(request, "money/settlement.html", context)
