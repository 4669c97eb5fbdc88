"""ETags for the API: what the data looked like, from two indexed numbers, never a rendering.

Every change the site makes writes an audit entry (club.models.AuditEntry, append-only) in
the same transaction; the one write that does not, a match beginning at its first roll on the
board, writes a board action (matches.models.BoardAction). So the newest id of each, with how
many rows sit near the top of each table, changes whenever anything the API shows changes:

- the newest id moves with every new row;
- the count of rows among the newest ``WINDOW`` ids moves when a transaction that took an
  older id commits after a younger one (PostgreSQL hands out ids before commit), which the
  newest id alone would miss.

One query of four index look-ups (no table scan, no rendering, no hashing of a body); the tag
is a hash of that key with the request's path and query and the schema's revision (a deploy
that changes the API's shape changes every tag). Coarse on purpose: any change anywhere
changes every tag, which is always correct (a player renamed changes the matches that name
them) and still lets an idle client or a finished tournament's readers get 304s.

The live HTML pages will get ETags of their own: this module keeps the key (:func:`data_key`)
apart from the tag, so the two can share it.
"""

from __future__ import annotations

import hashlib

from django.db import connection
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import get_conditional_response

from club.models import AuditEntry
from matches.models import BoardAction

WINDOW = 1000  # ids a late commit may lag behind the newest and still be seen


def _newest(table: str) -> str:
    return (
        f"(SELECT MAX(id) FROM {table}), "
        f"(SELECT COUNT(*) FROM {table} WHERE id > "
        f"(SELECT COALESCE(MAX(id), 0) FROM {table}) - {WINDOW})"
    )


def data_key() -> str:
    """A short string that changes whenever the site's data changes (see the module)."""
    audit = connection.ops.quote_name(AuditEntry._meta.db_table)
    board = connection.ops.quote_name(BoardAction._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_newest(audit)}, {_newest(board)}")
        row = cursor.fetchone()
    return ".".join("-" if value is None else str(value) for value in row)


def etag_for(request: HttpRequest, *, key: str, revision: str) -> str:
    """The strong ETag of this request's answer: the data's key, the URL asked, the schema."""
    text = f"{revision}|{key}|{request.get_full_path()}"
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def not_modified(request: HttpRequest, etag: str) -> HttpResponseBase | None:
    """304 when the client's If-None-Match names ``etag`` (Django's own comparison)."""
    response = get_conditional_response(request, etag=etag)
    if response is not None:
        response["ETag"] = etag
    return response
