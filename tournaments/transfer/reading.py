"""A file read into the document's models, or refused in plain words naming the place.

:func:`document_read` turns an upload's bytes into JSON (refusing what is not JSON, or gives
a key twice); :func:`document_parsed` reads that JSON into :class:`.document.Document` (or a
version 1 document) with pydantic. Pydantic's errors are never shown: the first becomes
"``matches[3].games[2].cube`` should be a whole number from 1 to 64" (1 for the first item,
as a reader counts), the words each value declares (:class:`.document.Says`).
"""

from __future__ import annotations

import json
from typing import Any, NoReturn, get_args, get_origin

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from pydantic import BaseModel
from pydantic import ValidationError as ShapeError
from pydantic_core import ErrorDetails

from .document import (
    LIST,
    MAX_BYTES,
    OBJECT,
    VERSION,
    Document,
    DocumentV1,
    Header,
    Says,
)


def document_read(data: bytes) -> Any:
    """An uploaded file's JSON, or the reason it is not JSON we read, in plain words."""
    if len(data) > MAX_BYTES:
        raise ValidationError(
            _("The file is too large for a tournament (over %(megabytes)s MB).")
            % {"megabytes": MAX_BYTES // 1_000_000}
        )
    try:
        return json.loads(
            data.decode("utf-8-sig"), parse_constant=_no_constant, object_pairs_hook=_object
        )
    except _KeyTwice as error:
        raise ValidationError(
            _(
                "This file is not a tournament we can read: the key “%(key)s” is given twice "
                "in one of its objects."
            )
            % {"key": error.key[:80]}
        ) from error
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ValidationError(
            _("This file is not a tournament exported from Crawford: it is not JSON.")
        ) from error


class _KeyTwice(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once: of a key given twice, Python keeps the
    last value and other readers the first, so which one a file means is a guess."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return found


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number JSON allows")


def document_parsed(document: Any) -> DocumentV1:
    """``document`` (JSON as :func:`document_read` gives it) read into the models: a
    :class:`.document.Document`, or a :class:`.document.DocumentV1` for a version 1 file."""
    not_ours = _("This file is not a tournament exported from Crawford.")
    try:
        text = json.dumps(document, ensure_ascii=False)
    except (TypeError, ValueError) as error:  # not JSON: only a caller's own object can be
        raise ValidationError(not_ours) from error
    try:
        header = Header.model_validate_json(text)
    except ShapeError as error:
        raise ValidationError(not_ours) from error
    if header.version > VERSION:
        raise ValidationError(
            _(
                "This file was exported by a newer version of Crawford (file format %(version)s; "
                "this site reads up to %(supported)s): update this site first."
            )
            % {"version": header.version, "supported": VERSION}
        )
    shape = Document if header.version >= 2 else DocumentV1
    try:
        return shape.model_validate_json(text)
    except ShapeError as error:
        raise ValidationError(_refusal(shape, error.errors()[0])) from None


def _refusal(shape: type[BaseModel], error: ErrorDetails) -> str:
    """Pydantic's error in the words of the document: where, and what is wrong there."""
    loc = error["loc"]
    says, depth = _says_at(shape, loc)
    if error["type"] == "missing" and (says is None or depth == len(loc)):  # a key, not a number
        return _("The file does not hold a tournament we can read: %(where)s is missing.") % {
            "where": place_in_file(loc)
        }
    if says is not None:  # the place is the value's (a pair's, not one of its two numbers')
        loc = loc[:depth]
    ctx = error.get("ctx") or {}
    says = ctx.get("says") or says or (LIST if error["type"] == "list_type" else OBJECT)
    return _("The file does not hold a tournament we can read: %(where)s should be %(what)s.") % {
        "where": place_in_file(loc),
        "what": str(says),
    }


def place_in_file(loc: tuple[int | str, ...]) -> str:
    """``("matches", 0, "games")`` as a reader finds it: ``matches[1].games``."""
    where = ""
    for step in loc:
        if isinstance(step, int):
            where += f"[{step + 1}]"
        else:
            where += f".{step}" if where else step
    return where


def _says_at(shape: Any, loc: tuple[int | str, ...]) -> tuple[Says | None, int]:
    """The words the value at ``loc`` declares (on its field, or on a list's items), and
    how far into ``loc`` that value is."""
    kind = shape
    for depth, step in enumerate(loc, 1):
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            field = kind.model_fields.get(str(step))
            if field is None:
                return None, 0
            says = _says(field.metadata)
            if says is not None:
                return says, depth
            kind = field.annotation
        elif get_origin(kind) is list:
            (kind,) = get_args(kind)
            if hasattr(kind, "__metadata__"):  # Annotated: the items' words, else their type
                says = _says(kind.__metadata__)
                if says is not None:
                    return says, depth
                kind = kind.__origin__
        else:
            return None, 0
    return None, 0


def _says(metadata: Any) -> Says | None:
    return next((item for item in metadata if isinstance(item, Says)), None)
