"""django-tables2 asks ``inspect.signature`` of a column's render method for every cell it
renders (``django_tables2.utils.call_with_appropriate``): on a season's 10,000-row CSV that
was about half the time, and most of an event page's 13 tables (docs/benchmarks.md, A
season). The answer depends on the function alone, so it is worked out once per function.

Only functions and methods are kept (a method by its function: the bound method is a new
object at each access), never a ``functools.partial`` or another callable whose answer could
change; they are the code's, not the data's, so the dictionary stays small (and is emptied if
it ever grows past KEEP, say by lambdas made per request).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from django_tables2 import utils

KEEP = 4096
_original: Callable[[Any], tuple[tuple[str, ...], str | None]] = utils.signature
_kept: dict[tuple[object, bool], tuple[tuple[str, ...], str | None]] = {}


def signature(fn: Any) -> tuple[tuple[str, ...], str | None]:
    """django-tables2's own ``signature(fn)``, remembered for functions and methods."""
    if inspect.ismethod(fn):
        key: tuple[object, bool] = (fn.__func__, True)
    elif inspect.isfunction(fn):
        key = (fn, False)
    else:
        return _original(fn)
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= KEEP:
            _kept.clear()
        found = _kept[key] = _original(fn)
    return found


def install() -> None:
    """From the club app's ready(): every table of the site renders through it."""
    utils.signature = signature
