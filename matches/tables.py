from __future__ import annotations

import django_tables2 as tables
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from club.tables import DateColumn, date_cell, linked

from .models import Match
from .selectors import match_score_sheet

# the statuses' names per language, worked out once: django-tables2 asks the model's
# get_status_display() for each cell, which rebuilds the choices' dictionary and translates
# every name each time (0.2 s of a season's 10,000-row download)
_STATUS_NAMES: dict[str | None, dict[str, str]] = {}


def status_name(status: str) -> str:
    """A match status's name in the active language, as ``get_status_display()`` says it."""
    language = get_language()
    names = _STATUS_NAMES.get(language)
    if names is None:
        names = _STATUS_NAMES[language] = {value: str(name) for value, name in Match.Status.choices}
    return names.get(status, status)


class MatchTable(tables.Table):
    date = DateColumn(verbose_name=_("date"), linkify=True, short=False)
    player_a = tables.Column(verbose_name=_("player"), linkify=True, order_by=("player_a__name",))
    player_b = tables.Column(verbose_name=_("opponent"), linkify=True, order_by=("player_b__name",))
    length = tables.Column(verbose_name=_("length"))
    # read from the record by render_status and value_status: with the field itself as its
    # accessor, django-tables2 would call get_status_display() before either (see above)
    status = tables.Column(
        verbose_name=_("status"), accessor="pk", order_by=("status",), empty_values=()
    )
    score = tables.Column(verbose_name=_("score"), empty_values=(), orderable=False)

    class Meta:
        model = Match
        fields = ["date", "player_a", "player_b", "length", "score", "status"]
        attrs = {"class": "table"}
        template_name = "tables/rows.html"  # rows written in Python: a page of 25 to 100

    # a row's cells as django-tables2 writes them, without its work per cell:
    # tables/rows.html asks these, tests/tournaments/test_list_page_rows.py holds them equal
    def cell_date(self, record: Match) -> SafeString:
        return linked(record.get_absolute_url(), date_cell(self, "date", record.date))

    def cell_player_a(self, record: Match) -> SafeString:
        return linked(record.player_a.get_absolute_url(), record.player_a)

    def cell_player_b(self, record: Match) -> SafeString:
        return linked(record.player_b.get_absolute_url(), record.player_b)

    def cell_length(self, record: Match) -> int:
        return record.length

    def cell_score(self, record: Match) -> str:
        return self.render_score(record)

    def cell_status(self, record: Match) -> str:
        return status_name(record.status)

    def render_status(self, record: Match) -> str:
        return status_name(record.status)

    def value_status(self, record: Match) -> str:
        return status_name(record.status)

    def render_score(self, record: Match) -> str:
        score = match_score_sheet(match=record).score
        return f"{score[0]}–{score[1]}"

    def value_score(self, record: Match) -> str:
        score = match_score_sheet(match=record).score
        return f"{score[0]}-{score[1]}"
