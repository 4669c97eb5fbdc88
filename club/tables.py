"""Tables and their downloads, for every list page of the site."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator, Mapping
from itertools import chain
from typing import Any

import django_filters
import django_tables2 as tables
from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, QueryDict, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template.defaultfilters import date as date_filter
from django.utils import translation
from django.utils.encoding import force_str
from django.utils.formats import number_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig
from django_tables2.rows import BoundRow

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


EXPORT_FORMATS = ("csv",)
# rows read from the database at a time: each chunk is one query and its prefetches, so a
# download's memory and queries stay those of a chunk, whatever the rows
EXPORT_CHUNK_ROWS = 500


class _Lines:
    """A file-like object the csv writer writes one line into, read back at once."""

    def write(self, text: str) -> str:
        return text


def export_rows(table: tables.Table, limit: int) -> Iterator[list[Any]]:
    """The table's header and at most ``limit`` rows, as django-tables2's export writes them
    (every text cell made spreadsheet-safe), then a last line saying so when there were more.

    A queryset is read ``EXPORT_CHUNK_ROWS`` at a time (its prefetches with each slice), never
    held whole. Its query runs before the first line comes: a failing one is an error page,
    not a download cut short.
    """
    columns = [
        column for column in table.columns.iterall() if not column.column.exclude_from_export
    ]
    data = table.data.data
    if isinstance(data, QuerySet):
        records: Iterator[Any] = _in_slices(data, limit + 1)
    else:
        records = iter(list(data)[: limit + 1])
    first = next(records, None)  # the query runs here, in the view
    header = [spreadsheet_safe(force_str(column.header, strings_only=True)) for column in columns]
    cut = gettext(
        "Only the first %(limit)s rows: narrow the list with its filters to download the rest."
    ) % {"limit": number_format(limit, force_grouping=True)}

    def lines() -> Iterator[list[Any]]:
        yield header
        if first is None:
            return
        for count, record in enumerate(chain([first], records)):
            if count == limit:
                yield [cut]
                return
            row = BoundRow(record, table=table)
            yield [
                spreadsheet_safe(force_str(row.get_cell_value(column.name), strings_only=True))
                for column in columns
            ]

    return lines()


def _in_slices(
    data: QuerySet[Any], count: int | None, said: Callable[[int], None] | None = None
) -> Iterator[Any]:
    """At most ``count`` records (None: all of them), ``EXPORT_CHUNK_ROWS`` a query (its
    prefetches with each); ``said`` is told how many were read after each slice.

    Slices rather than ``.iterator()``: on PostgreSQL that is a server-side cursor, which a
    streamed response outlives when its transaction ends first (a test's, or a request's
    under ATOMIC_REQUESTS): "cursor does not exist". The order gets the primary key last,
    so that no row falls between two slices or comes twice.
    """
    ordering = list(data.query.order_by) or list(data.model._meta.ordering)
    data = data.order_by(*ordering, "pk")
    start = 0
    while count is None or start < count:
        end = start + EXPORT_CHUNK_ROWS if count is None else min(start + EXPORT_CHUNK_ROWS, count)
        chunk = list(data[start : end + 1])  # one more: whether another slice is needed
        yield from chunk[: end - start]
        if said is not None:
            said(min(len(chunk), end - start) + start)
        if len(chunk) <= end - start:
            return
        start = end


def export_whole(table: tables.Table, progress: Callable[[int, int], None]) -> tuple[str, int]:
    """Every row of the table as CSV text, with the same header, columns and cells as the
    streamed download (:func:`export_rows`), and how many rows: the file a job prepares when
    the download is capped (``matches.export_jobs``). Read a slice at a time, ``progress``
    told (rows read, rows in all) after each, so a season's file shows how far it got."""
    columns = [
        column for column in table.columns.iterall() if not column.column.exclude_from_export
    ]
    data = table.data.data
    if isinstance(data, QuerySet):
        total = data.count()
        records: Iterator[Any] = _in_slices(data, None, lambda done: progress(done, total))
    else:
        listed = list(data)
        total = len(listed)
        records = iter(listed)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [spreadsheet_safe(force_str(column.header, strings_only=True)) for column in columns]
    )
    count = 0
    for record in records:
        row = BoundRow(record, table=table)
        writer.writerow(
            [
                spreadsheet_safe(force_str(row.get_cell_value(column.name), strings_only=True))
                for column in columns
            ]
        )
        count += 1
    progress(count, max(count, total))
    return out.getvalue(), count


def table_export(
    request: HttpRequest, table: tables.Table, name: str
) -> StreamingHttpResponse | None:
    """The table as a download when ``?_export=csv`` asks for one: streamed, a chunk of rows
    at a time, and at most ``settings.EXPORT_MAX_ROWS`` of them (the filters narrow it)."""
    export = request.GET.get("_export")
    if export not in EXPORT_FORMATS:
        return None
    rows = export_rows(table, settings.EXPORT_MAX_ROWS)
    writer = csv.writer(_Lines())
    language = get_language()

    def content() -> Iterator[str]:
        with translation.override(language):  # the cells' words, read after the view returned
            for row in rows:
                yield writer.writerow(row)

    download = StreamingHttpResponse(content(), content_type="text/csv; charset=utf-8")
    download["Content-Disposition"] = f'attachment; filename="{name}.{export}"'
    return download


# what a list's address carries that is not its rows' choice: which page, which download
NOT_THE_ROWS = ("page", "per_page", "_export")


def export_query(query: QueryDict) -> str:
    """The filters and the order of a list, as a query string in a stable order: what a
    prepared download is asked for (and its key, so the same list asked twice is one job)."""
    kept = QueryDict(mutable=True)
    for name in sorted(query):
        if name not in NOT_THE_ROWS:
            kept.setlist(name, [value for value in query.getlist(name) if value != ""])
    return kept.urlencode()


def table_page(
    request: HttpRequest,
    table: tables.Table,
    filterset: django_filters.FilterSet,
    template: str,
    export_name: str,
    extra: Mapping[str, Any] | None = None,
) -> HttpResponseBase:
    """A filtered, sorted, paginated table page, or its CSV when ``?_export=csv`` asks;
    ``extra``: more for the page's template (a notice, a button)."""
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    download = table_export(request, table, export_name)
    if download is not None:
        return download
    bound = number_format(settings.EXPORT_MAX_ROWS, force_grouping=True)
    context = {
        "table": table,
        "filter": filterset,
        "export_max_rows": bound,
        # the page's own count (its paginator's): past the bound, a page may offer the
        # whole file as background work instead (the matches list does)
        "export_capped": table.paginator.count > settings.EXPORT_MAX_ROWS,
        "export_query": export_query(request.GET),
        **(extra or {}),
    }
    return render(request, template, context)


class DateColumn(tables.DateColumn):
    """django-tables2's DateColumn (the same text, the same ISO date in a download), its
    cell formatted here rather than by its template ``{{ value|date:FORMAT|default:default }}``,
    which django-tables2 compiles and renders again for every cell: a player's page shows 50
    dates, the matches list 25."""

    def __init__(self, format: str | None = None, short: bool = True, **kwargs: Any) -> None:
        super().__init__(format=format, short=short, **kwargs)
        self.date_format = format or ("SHORT_DATE_FORMAT" if short else "DATE_FORMAT")

    def render(self, value: Any, bound_column: Any, **kwargs: Any) -> SafeString:
        """The template's text: the date filter's, else the column's default, escaped."""
        return self.text(value, bound_column.default)

    def text(self, value: Any, default: Any) -> SafeString:
        """A cell's text (see :func:`date_cell`)."""
        return escape(date_filter(value, self.date_format) or default)


def date_cell(table: tables.Table, name: str, value: Any) -> SafeString:
    """The text of ``table``'s DateColumn ``name`` for ``value``, for a table's
    ``cell_<column>`` (club/templatetags/table_rows.py)."""
    column = table.base_columns[name]
    assert isinstance(column, DateColumn), f"{name} is not a DateColumn"
    return column.text(value, table.default)


def linked(url: str, content: Any) -> SafeString:
    """A cell as ``linkify`` writes it, for a table's ``cell_<column>``."""
    return format_html('<a href="{}">{}</a>', url, content)


def _or_default(table: tables.Table, value: Any) -> Any:
    """A cell's value, or the table's default where django-tables2 shows it (None, "")."""
    return table.default if value is None or value == "" else value


class PlayerTable(tables.Table):
    name = tables.Column(linkify=True, order_by=("sort_name", "name", "id"))
    rating = tables.Column(verbose_name=_("rating"))

    # a row's cells as django-tables2 writes them, without its work per cell:
    # tables/rows.html asks these, tests/tournaments/test_list_page_rows.py holds them equal
    def cell_name(self, record: Player) -> SafeString:
        return linked(record.get_absolute_url(), record.name)

    def cell_club(self, record: Player) -> Any:
        return _or_default(self, record.club)

    def cell_country(self, record: Player) -> Any:
        return _or_default(self, record.country and self.render_country(record))

    def cell_rating(self, record: Player) -> Any:
        return _or_default(self, record.rating)

    def cell_experience(self, record: Player) -> Any:
        return _or_default(self, record.experience)

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
        template_name = "tables/rows.html"  # rows written in Python: a page of 25 to 100
