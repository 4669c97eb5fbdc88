from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from .models import Match


class MatchFilter(django_filters.FilterSet):
    # no longer than a name: SQLite cannot match a pattern of 100,000 characters
    player = django_filters.CharFilter(method="by_player", label=_("player"), max_length=120)
    status = django_filters.ChoiceFilter(choices=Match.Status.choices, label=_("status"))
    length = django_filters.NumberFilter(label=_("length"))
    date = django_filters.DateFromToRangeFilter(label=_("date"))

    class Meta:
        model = Match
        fields = ["player", "status", "length", "date"]

    def by_player(self, queryset: QuerySet[Match], name: str, value: str) -> QuerySet[Match]:
        return queryset.filter(
            Q(player_a__name__icontains=value) | Q(player_b__name__icontains=value)
        )
