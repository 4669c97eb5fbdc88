from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _
from django_filters.widgets import DateRangeWidget

from .models import Match


class DateRange(DateRangeWidget):
    """A date range's two boxes, each with a name of its own: the label above names the pair,
    which a screen reader does not give to either box."""

    def __init__(self) -> None:
        super().__init__()
        self.widgets[0].attrs["aria-label"] = _("date from")
        self.widgets[1].attrs["aria-label"] = _("date to")


class MatchFilter(django_filters.FilterSet):
    # no longer than a name: SQLite cannot match a pattern of 100,000 characters
    player = django_filters.CharFilter(method="by_player", label=_("player"), max_length=120)
    status = django_filters.ChoiceFilter(choices=Match.Status.choices, label=_("status"))
    length = django_filters.NumberFilter(label=_("length"))
    date = django_filters.DateFromToRangeFilter(label=_("date"), widget=DateRange())

    class Meta:
        model = Match
        fields = ["player", "status", "length", "date"]

    def by_player(self, queryset: QuerySet[Match], name: str, value: str) -> QuerySet[Match]:
        return queryset.filter(
            Q(player_a__name__icontains=value) | Q(player_b__name__icontains=value)
        )
