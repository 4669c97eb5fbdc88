"""Players from a CSV file, read as spreadsheets write it: plain Python, no database.

A header row names the columns (name, club, country, email, phone, in English or Italian,
in any order; other columns are left aside). The separator is a comma or, as Italian
Excel writes it, a semicolon: the one that splits the header into known columns. The text
is UTF-8, with or without a byte-order mark, else Windows-1252 (Latin-1 as Excel saves it).

A file that cannot be read raises :class:`CsvRefused` with a code and its parameters; the
page says it in the visitor's language. Rows are checked against the register elsewhere
(:func:`club.selectors.players_import_preview`).
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.text import one_line

COLUMNS = ("name", "club", "country", "email", "phone")
# a header as a spreadsheet may write it (lower case, spaces and dots aside) -> its column
HEADERS = {
    "name": "name",
    "nome": "name",
    "club": "club",
    "circolo": "club",
    "country": "country",
    "paese": "country",
    "nazione": "country",
    "email": "email",
    "e-mail": "email",
    "mail": "email",
    "phone": "phone",
    "telefono": "phone",
    "tel": "phone",
    "cellulare": "phone",
}
SEPARATORS = (",", ";")
MAX_BYTES = 1_000_000


class CsvRefused(ValueError):
    """The file as a whole cannot be read: ``code`` says why, ``params`` the details.

    Codes: ``too-large`` (``megabytes``), ``not-text``, ``empty``, ``no-name-column``
    (``found``: the header as read), ``malformed`` (``line``).
    """

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.params = dict(params or {})


@dataclass(frozen=True)
class Row:
    """One player's row, as written (each cell made one line: a quoted cell may hold line
    breaks, and a player's details never do, :func:`rules.text.one_line`); ``line``: where
    it starts."""

    line: int
    name: str = ""
    club: str = ""
    country: str = ""
    email: str = ""
    phone: str = ""
    extra: tuple[str, ...] = field(default=(), compare=False)  # cells under no known header

    def details(self) -> dict[str, str]:
        return {column: getattr(self, column) for column in COLUMNS}


def decode(data: bytes) -> str:
    """The file's text: UTF-8 (a byte-order mark dropped), else Windows-1252, else Latin-1."""
    if len(data) > MAX_BYTES:
        raise CsvRefused("too-large", {"megabytes": MAX_BYTES // 1_000_000})
    if b"\x00" in data:  # a spreadsheet's own format (.xlsx, .ods) or UTF-16: not CSV text
        raise CsvRefused("not-text")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")  # every byte is a Latin-1 character


def _header_key(cell: str) -> str:
    return " ".join(cell.strip().lower().replace(".", " ").split())


def _columns(header: list[str]) -> dict[int, str]:
    """Which known column each cell of the header names (the first of each, if repeated)."""
    found: dict[int, str] = {}
    for index, cell in enumerate(header):
        column = HEADERS.get(_header_key(cell))
        if column is not None and column not in found.values():
            found[index] = column
    return found


def _first_line(text: str) -> str:
    for line in io.StringIO(text, newline=""):  # lines as csv reads them: \n, \r or both
        if line.strip():
            return line
    raise CsvRefused("empty")


def separator(text: str) -> str:
    """The separator that splits the header into the most known columns (a comma if even)."""
    first = _first_line(text)

    def known(sep: str) -> int:
        header = next(csv.reader([first], delimiter=sep))
        return len(_columns(header))

    return max(SEPARATORS, key=known)  # max keeps the first of equals: the comma


def rows_read(text: str) -> list[Row]:
    """The players' rows of a CSV text, blank rows left out, each with its line number."""
    sep = separator(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    rows: list[Row] = []
    columns: dict[int, str] | None = None
    start = 1
    try:
        for cells in reader:
            line, start = start, reader.line_num + 1
            if not any(one_line(cell) for cell in cells):
                continue
            if columns is None:
                columns = _columns(cells)
                if "name" not in columns.values():
                    raise CsvRefused("no-name-column", {"found": sep.join(cells)[:200]})
                continue
            values = {column: "" for column in COLUMNS}
            extra = []
            for index, cell in enumerate(cells):
                if index in columns:
                    values[columns[index]] = one_line(cell)
                elif one_line(cell):
                    extra.append(one_line(cell))
            rows.append(Row(line=line, extra=tuple(extra), **values))
    except csv.Error as error:
        raise CsvRefused("malformed", {"line": reader.line_num}) from error
    if columns is None:
        raise CsvRefused("empty")
    return rows


def players_read(data: bytes) -> tuple[str, list[Row]]:
    """An uploaded file's text and its players' rows, or :class:`CsvRefused`."""
    text = decode(data)
    return text, rows_read(text)
