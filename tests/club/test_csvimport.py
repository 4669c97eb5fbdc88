"""Reading players' CSV files as spreadsheets write them (club.csvimport: no database)."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from club.csvimport import (
    COLUMNS,
    CsvRefused,
    Row,
    Unused,
    decode,
    players_read,
    rows_read,
    sheet_read,
)
from rules.text import one_line

# any text a cell may hold, line breaks and both separators included (not NUL: see decode)
CELL = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))


def written(rows: list[list[str]], sep: str, header=COLUMNS) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


@given(
    rows=st.lists(st.lists(CELL, min_size=5, max_size=5), max_size=12),
    sep=st.sampled_from([",", ";"]),
    bom=st.booleans(),
)
def test_any_rows_csv_writes_read_back_the_same(rows, sep, bom):
    data = written(rows, sep).encode("utf-8-sig" if bom else "utf-8")
    _, read = players_read(data)
    read = read.rows
    # each cell made one line: line breaks and hidden characters never reach a player (23.5)
    expected = [[one_line(cell) for cell in row] for row in rows if any(map(one_line, row))]
    assert [[getattr(r, c) for c in COLUMNS] for r in read] == expected


@given(rows=st.lists(st.lists(CELL, min_size=5, max_size=5), min_size=1, max_size=8))
def test_line_numbers_point_at_each_row_s_first_line(rows):
    text = written(rows, ";")
    lines = list(io.StringIO(text, newline=""))  # lines as csv counts them
    for row in rows_read(text):
        start = "".join(lines[row.line - 1 :])  # the text from that line on
        first = next(csv.reader(io.StringIO(start, newline=""), delimiter=";"))
        assert one_line(first[0]) == row.name


def test_an_italian_excel_file_semicolons_bom_and_crlf():
    data = (
        "\ufeffNome;Circolo;Nazione;E-mail;Telefono\r\n"
        "Anna Rossi;Circolo Backgammon Milano;Italia;anna@example.org;+39 02 1234\r\n"
        "\r\n"
        '"Verdi; Carla";"Circolo di Napoli";Italia;;\r\n'
    ).encode()
    _, sheet = players_read(data)
    assert sheet.rows == [
        Row(3 - 1, "Anna Rossi", "Circolo Backgammon Milano", "Italia", "anna@example.org",
            "+39 02 1234"),
        Row(4, "Verdi; Carla", "Circolo di Napoli", "Italia"),
    ]  # fmt: skip


def test_latin_1_accents_quoted_commas_extra_columns_and_blank_lines():
    text = (
        "name,club,rating,country\n"
        "\n"
        '"Bianchi, Niccolò",Società Scacchi e Backgammon,1612,Italia\n'
        "   \n"
        ",,,\n"
        "Zoë Müller,,1500,Deutschland,left over\n"
    )
    _, sheet = players_read(text.encode("latin-1"))
    assert sheet.unused == (Unused(3, "rating"), Unused(5, ""))  # said in the preview
    assert [(r.line, r.name, r.club, r.country, r.extra) for r in sheet.rows] == [
        (3, "Bianchi, Niccolò", "Società Scacchi e Backgammon", "Italia", ("1612",)),
        (6, "Zoë Müller", "", "Deutschland", ("1500", "left over")),
    ]


def test_windows_1252_quotes_and_euro_read_as_written():
    assert decode("name\n“Nicolò” €".encode("cp1252")) == "name\n“Nicolò” €"


def test_a_quoted_name_over_two_lines_counts_from_its_first_and_is_one_line():
    rows = rows_read('name,club\n"Anna\nRossi",Milano\nBruno,"Roma\u202e"\n')
    assert [(r.line, r.name, r.club) for r in rows] == [
        (2, "Anna Rossi", "Milano"),
        (4, "Bruno", "Roma"),
    ]


def test_the_separator_is_the_one_that_finds_the_columns():
    assert [r.club for r in rows_read("name;club\nAnna, Rossi;Milano\n")] == ["Milano"]
    assert [r.club for r in rows_read("name,club\nAnna; Rossi,Milano\n")] == ["Milano"]
    assert [r.name for r in rows_read("name\nAnna; Rossi\n")] == ["Anna; Rossi"]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "empty"),
        (b"\r\n\r\n  \n", "empty"),
        (b"club,country\nMilano,Italia\n", "no-name-column"),
        (b"PK\x03\x04\x00\x00binary", "not-text"),
        ("name\n".encode("utf-16"), "not-text"),
        (b"name\n" + b"x" * 1_000_000, "too-large"),
    ],
)
def test_a_file_that_is_no_players_list_is_refused_with_a_code(data, code):
    with pytest.raises(CsvRefused) as refused:
        players_read(data)
    assert refused.value.code == code


def test_a_header_alone_is_an_empty_list_not_a_refusal():
    assert rows_read("name,club,country\n") == []


@pytest.mark.parametrize(
    ("header", "row", "name", "unused"),
    [
        ("Nome;Cognome;Circolo;Email", "Anna;Rossi;Milano;a@example.org", "Anna Rossi", ()),
        ("Cognome;Nome;Circolo", "Rossi;Anna;Milano", "Anna Rossi", ()),
        ("First name,Last name,Club", "Anna,Rossi,Milano", "Anna Rossi", ()),
        ("Surname,Given name", "Rossi,Anna", "Anna Rossi", ()),
        ("first_name,last_name", "Anna,Rossi", "Anna Rossi", ()),
        ("Name,Surname", "Anna,Rossi", "Anna Rossi", ()),
        ("Forename;Family name", "Anna;Rossi", "Anna Rossi", ()),
        ("Nome;Cognome", "Anna;", "Anna", ()),
        ("Nome;Cognome", ";Rossi", "Rossi", ()),
        ("Name,First name,Last name", "A. Rossi,Anna,Rossi", "Anna Rossi", (Unused(1, "Name"),)),
        ("Name,First name", "Anna Rossi,Anna", "Anna Rossi", (Unused(2, "First name"),)),
        ("Cognome", "Rossi", "Rossi", ()),
        ("Nome e cognome;Tessera", "Anna Rossi;12", "Anna Rossi", (Unused(2, "Tessera"),)),
        ("Email;Nome;Email", "a@example.org;Anna Rossi;b@example.org", "Anna Rossi",
         (Unused(3, "Email"),)),
    ],
)  # fmt: skip
def test_a_name_in_two_columns_is_joined_and_every_column_left_aside_is_named(
    header, row, name, unused
):
    sheet = sheet_read(f"{header}\n{row}\n")
    assert [r.name for r in sheet.rows] == [name]
    assert sheet.unused == unused


def test_the_email_in_an_italian_four_column_sheet_is_kept_with_the_whole_name():
    (row,) = rows_read("Nome;Cognome;Circolo;Email\nAnna;Rossi;Milano;anna@example.org\n")
    assert (row.name, row.club, row.email) == ("Anna Rossi", "Milano", "anna@example.org")
