from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Match
from .selectors import match_score_sheet


class MatchTable(tables.Table):
    date = tables.DateColumn(verbose_name=_("date"), linkify=True, short=False)
    player_a = tables.Column(verbose_name=_("player"), linkify=True, order_by=("player_a__name",))
    player_b = tables.Column(verbose_name=_("opponent"), linkify=True, order_by=("player_b__name",))
    length = tables.Column(verbose_name=_("length"))
    status = tables.Column(verbose_name=_("status"))
    score = tables.Column(verbose_name=_("score"), empty_values=(), orderable=False)

    class Meta:
        model = Match
        fields = ["date", "player_a", "player_b", "length", "score", "status"]
        attrs = {"class": "table"}

    def render_score(self, record: Match) -> str:
        score = match_score_sheet(match=record).score
        return f"{score[0]}–{score[1]}"

    def value_score(self, record: Match) -> str:
        score = match_score_sheet(match=record).score
        return f"{score[0]}-{score[1]}"
