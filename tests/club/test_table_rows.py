"""A table's rows written in Python (templates/tables/rows.html, club/templatetags/table_rows.py)
are the bytes templates/tables/stacked.html writes: any text escaped the same, numbers in the
visitor's format, defaults, computed attributes, localised columns, in English and Italian."""

from __future__ import annotations

from decimal import Decimal

import django_tables2 as tables
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st


class Sample(tables.Table):
    text = tables.Column(verbose_name="text <&>")
    number = tables.Column(verbose_name="number")
    blank = tables.Column(verbose_name="", default="none")
    marked = tables.Column(attrs={"td": {"class": "mark", "data-x": "a&b"}})
    computed = tables.Column(
        verbose_name="computed", attrs={"td": {"data-value": lambda value: f"v{value}"}}
    )
    localized = tables.Column(verbose_name="localised", localize=True)
    unlocalized = tables.Column(verbose_name="unlocalised", localize=False)
    rendered = tables.Column(verbose_name="rendered", empty_values=())

    class Meta:
        attrs = {"class": "table sample"}
        row_attrs = {"id": lambda record: f"row-{record['number']}"}
        orderable = False

    def render_rendered(self, record: dict) -> str:
        return f"<b>{record['text']}</b>"


def written(table: tables.Table, template: str) -> str:
    request = RequestFactory().get("/")
    page = Template("{% load django_tables2 %}{% render_table table template %}")
    return page.render(Context({"table": table, "template": template, "request": request}))


values = st.one_of(
    st.none(),
    st.text(max_size=12),
    st.integers(-(10**7), 10**7),
    st.decimals(
        allow_nan=False, allow_infinity=False, places=2, min_value=-(10**6), max_value=10**6
    ),
    st.booleans(),
)
records = st.fixed_dictionaries(
    {
        "text": st.text(max_size=20),
        "number": st.integers(-(10**6), 10**6),
        "blank": values,
        "marked": values,
        "computed": values,
        "localized": values,
        "unlocalized": values,
    }
)


@given(rows=st.lists(records, max_size=6), language=st.sampled_from(["en", "it"]))
def test_rows_in_python_are_the_template_s_bytes(rows, language):
    with translation.override(language):
        fast = written(Sample(rows), "tables/rows.html")
        slow = written(Sample(rows), "tables/stacked.html")
    assert fast == slow


def test_a_decimal_is_written_in_the_visitor_s_format():
    row = {"text": "x", "number": 1, "localized": Decimal("1234.50")}
    with translation.override("it"):
        fast = written(Sample([row]), "tables/rows.html")
    assert ">1234,50</td>" in fast
    assert 'id="row-1"' in fast and 'data-label="text &lt;&amp;&gt;"' in fast
