"""``{% table_row row %}``: one row of a django-tables2 table written as
``templates/tables/stacked.html`` writes it, byte for byte, in Python.

Why: stacked.html puts every cell through the template engine: the column's td attributes
worked out again, its heading asked twice (for ``data-label``), the cell localised and escaped.
On a season's 64-player double elimination that was most of the event page's time (13 round
tables, 127 matches, a thousand cells; docs/benchmarks.md, A season). What does not change from
row to row (a column's heading, and its td attributes unless they are computed from the record)
is worked out once per table here; each cell is still django-tables2's own
(``BoundRow.get_cell``: the accessor, the default, the column's render method and link),
written as the template writes a variable (``render_value_in_context``), unless the table
has a ``cell_<column>(record)`` method: then that gives the cell, for a column whose cells
are worth writing without django-tables2's work per cell (its accessor, the model field's
choices looked up, its render method's arguments); the table's tests hold the two equal.

A table opts in with ``template_name = "tables/rows.html"`` in its Meta; everything else in
that template (heading, empty text, footer, pagination) is stacked.html's.
``tests/club/test_table_rows.py`` holds the two to the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import template
from django.template.base import render_value_in_context
from django.templatetags.l10n import localize, unlocalize
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.template.context import Context
    from django_tables2 import Table
    from django_tables2.columns import BoundColumn
    from django_tables2.rows import BoundRow

register = template.Library()


@dataclass(frozen=True)
class _Column:
    """A visible column's part of every row: its name, the td's attributes (None when they are
    computed from each record) and data-label, and how its cells are localised."""

    bound: BoundColumn
    td: str | None
    label: str
    localize: bool | None
    cell: Callable[[Any], Any] | None  # the table's cell_<name>, if it has one


def _computed(attrs: Any) -> bool:
    """Whether django-tables2's ``computed_values`` would call something in ``attrs``."""
    if callable(attrs):
        return True
    if isinstance(attrs, dict):
        return any(_computed(value) for value in attrs.values())
    return False


def _td_attrs_computed(table: Table, column: BoundColumn) -> bool:
    """``BoundColumn.attrs``: the table's attrs updated by the column's, their "td" (or else
    "cell") run through ``computed_values`` with the record and the value."""
    attrs = dict(table.attrs)
    attrs.update(dict(column.column.attrs))
    return _computed(attrs.get("td", attrs.get("cell", {})))


def _columns(table: Table, context: Context) -> list[_Column]:
    found = []
    for column in table.columns:
        header = column.header
        label = f'\n          data-label="{render_value_in_context(header, context)}"'
        computed = _td_attrs_computed(table, column)
        found.append(
            _Column(
                bound=column,
                td=None if computed else _td(column, context),
                label=label if header else "",
                localize=column.localize,
                cell=getattr(table, f"cell_{column.name}", None),
            )
        )
    return found


def _td(column: BoundColumn, context: Context) -> str:
    return render_value_in_context(column.attrs["td"].as_html(), context)


def _variable(value: Any) -> Any:
    """A template variable as ``Variable._resolve_lookup`` leaves it: a callable called."""
    if callable(value) and not getattr(value, "do_not_call_in_templates", False):
        if getattr(value, "alters_data", False):
            return ""  # the engine's string_if_invalid
        return value()
    return value


def _cell(value: Any, localized: bool | None, context: Context) -> str:
    """``{{ cell }}``, ``{{ cell|localize }}`` or ``{{ cell|unlocalize }}``, as the column says."""
    value = _variable(value)
    if localized is None:
        return render_value_in_context(value, context)
    return render_value_in_context(localize(value) if localized else unlocalize(value), context)


@register.simple_tag(takes_context=True)
def table_row(context: Context, row: BoundRow) -> SafeString:
    """The row's ``<tr>`` as stacked.html's ``table.tbody.row`` block writes it."""
    table = row.table
    key = f"table_rows {id(table)}"
    columns = context.render_context.get(key)
    if columns is None:  # once per table rendered, in the language it is rendered in
        columns = context.render_context[key] = _columns(table, context)
    record = row.record
    parts = ["\n<tr ", render_value_in_context(row.attrs.as_html(), context), ">\n    "]
    for column in columns:
        bound = column.bound
        cell = row.get_cell(bound.name) if column.cell is None else column.cell(record)
        bound.current_value = cell  # as BoundRow.items() leaves them, for computed attrs
        bound.current_record = record
        td = column.td if column.td is not None else _td(bound, context)
        parts += ("\n        <td ", td, column.label, "\n          >")
        parts += (_cell(cell, column.localize, context), "</td>\n    ")
    parts.append("\n</tr>\n")
    return mark_safe("".join(parts))  # each part escaped above, as the template escapes it
