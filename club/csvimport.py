"""Players from a CSV file, read as spreadsheets write it: plain Python, no database.

A header row names the columns (name, club, country, email, phone, in English or Italian,
in any order). The name may be split in two columns, a first name and a last name ("Nome;
Cognome", "First name,Surname"): they are joined, first name first, as the register writes
names. Every column the import does not use is named (:attr:`Sheet.unused`), so the preview
can say so: a column left aside silently is a sheet's data lost without a word. The
separator is a comma or, as Italian Excel writes it, a semicolon: the one that splits the
header into known columns. The text is UTF-8, with or without a byte-order mark, else
Windows-1252 (Latin-1 as Excel saves it).

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
# the halves of a name split in two columns, joined into ``name``
FIRST, LAST = "first", "last"
# a header as a spreadsheet may write it (lower case; spaces, dots and underscores aside)
# -> its column. "Nome" alone is the name; beside "Cognome" it is the first name.
HEADERS = {
    "name": "name",
    "nome": "name",
    "full name": "name",
    "player": "name",
    "nome e cognome": "name",
    "cognome e nome": "name",
    "nome completo": "name",
    "giocatore": "name",
    "first name": FIRST,
    "firstname": FIRST,
    "first": FIRST,
    "given name": FIRST,
    "given names": FIRST,
    "forename": FIRST,
    "nome di battesimo": FIRST,
    "last name": LAST,
    "lastname": LAST,
    "last": LAST,
    "surname": LAST,
    "family name": LAST,
    "cognome": LAST,
    "club": "club",
    "circolo": "club",
    "country": "country",
    "paese": "country",
    "nazione": "country",
    "email": "email",
    "e-mail": "email",
    "mail": "email",
    "email address": "email",
    "e-mail address": "email",
    "indirizzo email": "email",
    "indirizzo e-mail": "email",
    "phone": "phone",
    "telefono": "phone",
    "tel": "phone",
    "cellulare": "phone",
    "phone number": "phone",
    "mobile": "phone",
    "numero di telefono": "phone",
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
    return " ".join(cell.strip().lower().replace(".", " ").replace("_", " ").split())


def _columns(header: list[str]) -> dict[int, str]:
    """Which column each cell of the header names (the first of each, if repeated).

    A name split in two (a last-name column beside a first name, or beside "name" standing
    for the first name) fills ``first`` and ``last``, joined by :func:`rows_read`; a lone
    first- or last-name column is the name.
    """
    found: dict[int, str] = {}
    for index, cell in enumerate(header):
        column = HEADERS.get(_header_key(cell))
        if column is not None and column not in found.values():
            found[index] = column
    roles = set(found.values())
    if LAST in roles and FIRST not in roles and "name" in roles:
        found = {i: FIRST if c == "name" else c for i, c in found.items()}  # Nome;Cognome
    roles = set(found.values())
    if FIRST in roles and LAST in roles:
        return {i: c for i, c in found.items() if c != "name"}  # a third, full name: unused
    if "name" not in roles:
        return {i: "name" if c in (FIRST, LAST) else c for i, c in found.items()}
    return {i: c for i, c in found.items() if c not in (FIRST, LAST)}


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


@dataclass(frozen=True)
class Unused:
    """A column the import leaves aside: its heading as written, its place (1 for the first);
    a column without a heading is named only when a row holds something in it."""

    number: int
    heading: str


@dataclass(frozen=True)
class Sheet:
    """A players' file as read: its rows and the columns not used."""

    rows: list[Row]
    unused: tuple[Unused, ...] = ()


def sheet_read(text: str) -> Sheet:
    """The players' rows of a CSV text, blank rows left out, each with its line number, and
    the columns it does not use (say them: a column left aside silently is data lost)."""
    sep = separator(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    rows: list[Row] = []
    header: list[str] = []
    columns: dict[int, str] | None = None
    filled: set[int] = set()  # columns without a known heading that hold something
    start = 1
    try:
        for cells in reader:
            line, start = start, reader.line_num + 1
            if not any(one_line(cell) for cell in cells):
                continue
            if columns is None:
                header, columns = cells, _columns(cells)
                if "name" not in columns.values() and FIRST not in columns.values():
                    raise CsvRefused("no-name-column", {"found": sep.join(cells)[:200]})
                continue
            values = {column: "" for column in (*COLUMNS, FIRST, LAST)}
            extra = []
            for index, cell in enumerate(cells):
                if index in columns:
                    values[columns[index]] = one_line(cell)
                elif one_line(cell):
                    extra.append(one_line(cell))
                    filled.add(index)
            first, last = values.pop(FIRST), values.pop(LAST)
            if first or last:
                values["name"] = " ".join(part for part in (first, last) if part)
            rows.append(Row(line=line, extra=tuple(extra), **values))
    except csv.Error as error:
        raise CsvRefused("malformed", {"line": reader.line_num}) from error
    if columns is None:
        raise CsvRefused("empty")
    headings = {i: one_line(cell) for i, cell in enumerate(header) if one_line(cell)}
    unused = sorted((set(headings) | filled) - set(columns))
    return Sheet(rows, tuple(Unused(i + 1, headings.get(i, "")) for i in unused))


def rows_read(text: str) -> list[Row]:
    """The players' rows of a CSV text (:func:`sheet_read`), blank rows left out."""
    return sheet_read(text).rows


def players_read(data: bytes) -> tuple[str, Sheet]:
    """An uploaded file's text and its players' rows as a :class:`Sheet`, or
    :class:`CsvRefused`."""
    text = decode(data)
    return text, sheet_read(text)
