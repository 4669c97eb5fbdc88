"""What the API's parameters may hold, beyond what their types say (issue 23.6 and 23.11).

django-ninja parses each parameter through pydantic from its type hint, and a value the type
refuses is a 422 naming the parameter (:func:`api.api._invalid`). The plain types let through
what the database or the schema cannot take; these say no, or clean it:

- an id is a whole number a database id can be (1 to 2**63 - 1): a larger one overflowed
  the database's integer and answered 500;
- a search (``q``) has its hidden characters left out (NUL, which PostgreSQL refuses in any
  text; other controls, bidirectional overrides) and its line breaks made spaces, as the
  site's own names are stored (:func:`rules.text.one_line`);
- an exact value (``club``, ``country``) holding such a character is refused: no stored
  value holds one;
- a date or a time is written in ISO 8601 as the schema says, never a number (pydantic
  reads ``0.5`` as a Unix time), and a time must fall within the years 1 to 9999 once in UTC;
  a time without an offset is the site's time zone.

The schema is unchanged by the cleaning and the ISO check (both run in Python), and says the
ids' bounds.
"""

from __future__ import annotations

import datetime
import re
from typing import Annotated

from django.utils import timezone
from pydantic import AfterValidator, BeforeValidator, Field

from rules.text import one_line, one_line_problem

ID_MAX = 2**63 - 1  # PostgreSQL's bigint, SQLite's integer
ISO_DATE_START = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso(value: object) -> object:
    """Refuse a number (or anything else) where ISO 8601 is asked: 2026-11-22[T21:04]."""
    if isinstance(value, str) and ISO_DATE_START.match(value.strip()):
        return value.strip()
    raise ValueError("write it as ISO 8601, e.g. 2026-11-22 or 2026-11-22T21:04 (not a number)")


def _instant(value: datetime.datetime) -> datetime.datetime:
    """The time in UTC (the site's zone when it has no offset), or a refusal in words."""
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    try:
        return value.astimezone(datetime.UTC)
    except OverflowError:
        raise ValueError("the time must fall within the years 1 to 9999 (in UTC)") from None


def _exact(value: str) -> str:
    found = one_line_problem(value)
    if found is not None:
        raise ValueError(
            f"holds a control character (U+{ord(found):04X}) that no stored value holds"
        )
    return value


Id = Annotated[int, Field(ge=1, le=ID_MAX)]
Search = Annotated[str, AfterValidator(one_line)]
Exact = Annotated[str, AfterValidator(_exact)]
IsoDate = Annotated[datetime.date, BeforeValidator(_iso)]
IsoDateTime = Annotated[datetime.datetime, BeforeValidator(_iso), AfterValidator(_instant)]
