"""Tables and their downloads, for every list page of the site."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import django_filters
import django_tables2 as tables
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig
from django_tables2.export import TableExport
from tablib import Dataset

from .countries import country_name
from .models import Player

# what a spreadsheet reads as the start of a formula (OWASP "CSV injection"), and the
# tab and carriage return some of them strip first
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A cell a spreadsheet will not run: text that would start a formula gets a quote.

    >>> spreadsheet_safe("=1+1"), spreadsheet_safe("@SUM(A1)"), spreadsheet_safe("Anna")
    ("'=1+1", "'@SUM(A1)", 'Anna')
    >>> spreadsheet_safe(-3)  # a number is data, not a formula
    -3
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeExport(TableExport):
    """django-tables2's export with every text cell made spreadsheet-safe."""

    def table_to_dataset(
        self,
        table: tables.Table,
        exclude_columns: Iterable[str] | None,
        dataset_kwargs: dict[str, Any] | None = None,
    ) -> Dataset:
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        rows = [tuple(spreadsheet_safe(cell) for cell in row) for row in dataset]
        headers = [spreadsheet_safe(header) for header in dataset.headers or []]
        dataset.wipe()
        dataset.headers = headers
        for row in rows:
            dataset.append(row)
        return dataset


EXPORT_FORMATS = ("csv",)


def table_export(request: HttpRequest, table: tables.Table, name: str) -> HttpResponse | None:
    """The table as a download when ``?_export=csv`` asks for one."""
    export = request.GET.get("_export")
    if export not in EXPORT_FORMATS:
        return None
    download: HttpResponse = SafeExport(export, table).response(f"{name}.{export}")
    return download


def table_page(
    request: HttpRequest,
    table: tables.Table,
    filterset: django_filters.FilterSet,
    template: str,
    export_name: str,
) -> HttpResponse:
    """A filtered, sorted, paginated table page, or its CSV when ``?_export=csv`` asks."""
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    download = table_export(request, table, export_name)
    if download is not None:
        return download
    return render(request, template, {"table": table, "filter": filterset})


class PlayerTable(tables.Table):
    name = tables.Column(linkify=True, order_by=("sort_name", "name", "id"))
    rating = tables.Column(verbose_name=_("rating"))

    def render_country(self, record: Player) -> str:
        """The country's name in the visitor's language (stored as its ISO code)."""
        return country_name(str(record.country))

    def value_country(self, record: Player) -> str:
        """The CSV export writes the code: the same in every language, read back by the
        players' import."""
        return str(record.country)

    class Meta:
        model = Player
        fields = ["name", "club", "country", "rating", "experience"]
        attrs = {"class": "table"}
