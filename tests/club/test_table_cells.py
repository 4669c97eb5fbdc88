"""A cell's render method is asked its signature once per function, not once per cell
(club.table_cells): the answers are django-tables2's own."""

from __future__ import annotations

import functools

import pytest
from django_tables2 import utils

from club import table_cells


class Column:
    def render(self, value, record):
        return value

    def value(self, **kwargs):
        return kwargs


def plain(value, *args, bound_column=None):
    return value


CALLABLES = [
    Column().render,
    Column().value,
    plain,
    lambda record: record,
    functools.partial(plain, bound_column=None),
]


@pytest.mark.parametrize("fn", CALLABLES, ids=["method", "kwargs", "function", "lambda", "partial"])
def test_the_answer_is_django_tables2_s_own(fn):
    assert table_cells.signature(fn) == table_cells._original(fn)


def test_a_method_is_asked_once_whatever_its_object(monkeypatch):
    asked = []
    original = table_cells._original

    def counting(fn):
        asked.append(fn)
        return original(fn)

    monkeypatch.setattr(table_cells, "_original", counting)
    table_cells._kept.clear()
    for _ in range(3):
        table_cells.signature(Column().render)  # a new bound method each time
    assert len(asked) == 1
    table_cells.signature(functools.partial(plain))  # never kept
    table_cells.signature(functools.partial(plain))
    assert len(asked) == 3


def test_the_site_s_tables_use_it():
    assert utils.signature is table_cells.signature
