"""Importing players from a CSV file: a preview of every row, then one confirmed import."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import club.services
from club.audit import audit_for_subject
from club.csvimport import rows_read
from club.models import AuditEntry, Player
from club.policy import SYSTEM
from club.services import player_create, players_import
from tests.helpers import page_words as text

pytestmark = pytest.mark.django_db

URL = "/players/import/"
PLAYERS_DATA = Path(__file__).resolve().parent.parent / "data" / "players"
FILE = (
    "Nome;Circolo;Nazione;Email;Telefono\r\n"
    "Carla Verdi;Circolo di Napoli;Italia;carla@example.org;\r\n"  # line 2: new
    "anna rossi;circolo backgammon milano;;;\r\n"  # line 3: already registered
    "Anna Rossi;Circolo di Torino;Italia;;\r\n"  # line 4: a namesake, registered
    ";Nessuno;;;\r\n"  # line 5: no name
    "Dario Neri;;;dario-at-example;\r\n"  # line 6: a bad email
    "\r\n"
    "Niccolò Bianchi;Società Backgammon;Italia;;\r\n"  # line 8: new
    "Carla Verdi;Circolo di Napoli;;;\r\n"  # line 9: the same as line 2
)


def upload(text, encoding="utf-8-sig", name="giocatori.csv"):
    return SimpleUploadedFile(name, text.encode(encoding), content_type="text/csv")


def test_the_preview_says_what_each_row_will_do_and_the_import_does_it(
    director_client, anna, django_assert_max_num_queries
):
    assert reverse("players_import") == URL
    assert f'href="{URL}"' in director_client.get(reverse("players")).content.decode()
    before = Player.objects.count()
    with django_assert_max_num_queries(8):  # the session, the user, the policy, the register
        preview = director_client.post(URL, {"file": upload(FILE, "cp1252")})
    assert preview.status_code == 200
    said = text(preview)
    rows = {
        int(m.group(1)): m.group(2).strip()
        for m in re.finditer(
            r"<tr class=\"import-\w+\">\s*<td[^>]*>(\d+)</td>(.*?)</tr>",
            preview.content.decode(),
            re.S,
        )
    }
    assert sorted(rows) == [2, 3, 4, 5, 6, 8, 9]
    assert "3 players will be registered" in said
    assert "left out: already registered as Anna Rossi (Circolo Backgammon Milano" in said
    assert "will be registered, though the name is already registered: Anna Rossi" in said
    assert "left out: no name" in said
    assert "left out: “dario-at-example” is not an email address" in said
    assert "left out: the same player as an earlier row" in said
    assert "Niccolò Bianchi" in said and "Società Backgammon" in said
    assert Player.objects.count() == before  # nothing yet
    checked = re.search(r'name="checked" value="([^"]+)"', preview.content.decode()).group(1)
    done = director_client.post(URL, {"checked": checked, "confirm": "1"})
    assert done.status_code == 302 and done["Location"] == reverse("players")
    created = Player.objects.exclude(pk=anna.pk).order_by("pk")
    assert [(p.name, p.club) for p in created] == [
        ("Carla Verdi", "Circolo di Napoli"),
        ("Anna Rossi", "Circolo di Torino"),
        ("Niccolò Bianchi", "Società Backgammon"),
    ]
    assert created[0].email == "carla@example.org" and created[0].country == "IT"
    for player in created:
        (entry,) = audit_for_subject(subject=player)
        assert entry.code == "player.created" and entry.user_name == "director"
    message = text(director_client.get(reverse("players")))
    assert "3 players are registered; 4 rows left out." in message


def test_the_confirmation_checks_again_what_changed_meanwhile(director_client, anna):
    preview = director_client.post(URL, {"file": upload("name,club\nCarla Verdi,Napoli\n")})
    checked = re.search(r'name="checked" value="([^"]+)"', preview.content.decode()).group(1)
    player_create(name="Carla Verdi", club="Napoli", user=SYSTEM)  # another director, meanwhile
    done = director_client.post(URL, {"checked": checked, "confirm": "1"})
    assert done.status_code == 302
    assert Player.objects.filter(name="Carla Verdi").count() == 1


def test_a_changed_or_missing_file_is_refused_in_plain_words(director_client):
    preview = director_client.post(URL, {"file": upload("name\nCarla Verdi\n")})
    checked = re.search(r'name="checked" value="([^"]+)"', preview.content.decode()).group(1)
    forged = checked.replace(checked[5], "A" if checked[5] != "A" else "B", 1)
    refused = director_client.post(URL, {"checked": forged, "confirm": "1"})
    assert refused.status_code == 400
    assert "The file you checked has expired or was changed: choose it again." in text(refused)
    nothing = director_client.post(URL, {"confirm": "1"})
    assert nothing.status_code == 400 and "Choose a players file." in text(nothing)
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"club;country\nMilano;Italia\n", "The first row names no “name” column"),
        (b"PK\x03\x04\x00\x00", "This is not a CSV file: save the sheet as CSV"),
        (b"", "The submitted file is empty."),
        (b"\r\n\r\n", "The file holds no players"),
        (b"name\n" + b"Anna Rossi\n" * 100_000, "too large for a players file (over 1 MB)"),
        (b'name\n"Anna\x00', "This is not a CSV file"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_in_plain_words(director_client, data, says):
    upload_file = SimpleUploadedFile("players.csv", data, content_type="text/csv")
    refused = director_client.post(URL, {"file": upload_file})
    assert refused.status_code == 400 and says in text(refused)
    assert not Player.objects.exists()


def test_a_file_of_rows_all_left_out_offers_no_button(director_client, anna):
    preview = director_client.post(
        URL, {"file": upload("name,club\nAnna Rossi,Circolo Backgammon Milano\n")}
    )
    assert preview.status_code == 200
    assert 'name="confirm"' not in preview.content.decode()
    assert "0 players will be registered" in text(preview)


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_only_the_club_s_directors_import_players(client, member, who):
    if who == "member":
        client.force_login(member)
    assert URL not in client.get(reverse("players")).content.decode()
    for response in (client.get(URL), client.post(URL, {"file": upload("name\nIntruder\n")})):
        if who == "anonymous":
            assert response.status_code == 302 and reverse("login") in response["Location"]
        else:
            assert response.status_code == 403
    assert not Player.objects.exists()


def test_the_service_asks_the_policy_and_writes_all_or_nothing(member, director, monkeypatch):
    rows = rows_read("name\nAnna Rossi\nBruno Bianchi\n")
    with pytest.raises(PermissionDenied):
        players_import(rows=rows, user=member)
    real = club.services.audit_record
    calls = []

    def failing(**kwargs):
        calls.append(kwargs)
        if len(calls) == 2:
            raise RuntimeError("the database went away")
        return real(**kwargs)

    monkeypatch.setattr(club.services, "audit_record", failing)
    with pytest.raises(RuntimeError):
        players_import(rows=rows, user=director)
    assert not Player.objects.exists() and not AuditEntry.objects.exists()


def test_the_preview_costs_the_same_queries_for_5_or_200_rows(director_client):
    counts = []
    for size in (5, 200):
        body = "name,club\n" + "".join(f"Player {i},Club {i % 7}\n" for i in range(size))
        with CaptureQueriesContext(connection) as queries:
            assert director_client.post(URL, {"file": upload(body)}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


# Sheets as spreadsheets save them (tests/data/README.md): who each registers, what it leaves
SHEETS = {
    "soci_circolo_milano.csv": (
        [
            ("Niccolò D'Agostino", "Circolo Backgammon Milano", "niccolo.dagostino@example.org"),
            ("Tommaso Rè", "Società Scacchi e Backgammon Torino", ""),
            ("Éric Lefèvre", "Backgammon Club de Lyon", "eric.lefevre@example.fr"),
            ("Maria Grazia Bianchi", "Circolo Backgammon Milano", "mg.bianchi@example.org"),
            ("Lucia Ferraro", "", ""),
        ],
        ("“Tessera n.”, “Note”", "“Tessera n.”, “Note”"),
    ),
    "members_quoted_bom.csv": (
        [
            ("Zoë Müller", "Backgammon Club Zürich", "zoe.mueller@example.ch"),
            ("Seán O'Brien", "Dublin Backgammon Club", "sean@example.ie"),
            ("Anne-Marie de la Tour", "Cercle de Paris", ""),
            ("Björn Ångström", "Stockholm BG", "bjorn@example.se"),
            ('James "Jim" Smith', "London BG Club, Soho", "jim@example.co.uk"),
        ],
        ("“Rating”, “Member since”", "“Rating”, “Member since”"),
    ),
    "signup_google_forms.csv": (
        [
            ("Chiara Esposito", "Circolo di Napoli", "chiara.esposito@example.it"),
            ("Marco Gallo", "", "marco.gallo@example.it"),
            ("Ana Sofía Pérez", "Club Backgammon Madrid", "anasofia@example.es"),
        ],
        ("“Timestamp”, “Which events?”", "“Timestamp”, “Which events?”"),
    ),
    "iscritti_torneo.csv": (
        [
            ("Niccolò D'Agostino", "Circolo Backgammon Milano", ""),
            ("Tommaso Rè", "Società Scacchi e Backgammon Torino", ""),
            ("Éric Lefèvre", "Backgammon Club de Lyon", ""),
        ],
        ("column 5 (no heading), “Pagato”", "colonna 5 (senza intestazione), “Pagato”"),
    ),
}


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("sheet", sorted(SHEETS))
def test_a_spreadsheet_s_sheet_registers_whole_names_and_names_the_columns_not_used(
    director_client, sheet, language
):
    """Nome;Cognome or First Name,Last Name are joined into the name (not the first name
    alone), and every column the import leaves aside is named in the preview."""
    players, (unused_en, unused_it) = SHEETS[sheet]
    data = (PLAYERS_DATA / sheet).read_bytes()
    director_client.cookies["django_language"] = language
    preview = director_client.post(
        URL, {"file": SimpleUploadedFile(sheet, data, content_type="text/csv")}
    )
    assert preview.status_code == 200
    said = text(preview)
    if language == "en":
        assert f"These columns were not used: {unused_en}." in said
    else:
        assert f"Queste colonne non sono state usate: {unused_it}." in said
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", html.unescape(preview.content.decode()))
    for name, _club, _email in players:
        assert name in cells
    checked = re.search(r'name="checked" value="([^"]+)"', preview.content.decode()).group(1)
    done = director_client.post(URL, {"checked": checked, "confirm": "1"})
    assert done.status_code == 302
    assert list(Player.objects.order_by("pk").values_list("name", "club", "email")) == players


def test_a_sheet_whose_columns_are_all_used_says_nothing_of_unused_columns(director_client):
    preview = director_client.post(
        URL, {"file": upload("Nome;Cognome;Circolo\nAnna;Rossi;Milano\n")}
    )
    assert "Anna Rossi" in text(preview)
    assert "were not used" not in text(preview) and 'id="unused"' not in preview.content.decode()
