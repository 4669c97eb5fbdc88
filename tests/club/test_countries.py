"""A player's country is an ISO 3166-1 alpha-2 code (issue 25.10), read from what clubs typed
("Italia", "Schweiz"), chosen by name on the form, shown by name in the visitor's language,
and served as the code by the API."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from club.countries import country_code
from club.models import AuditEntry, Player
from club.policy import SYSTEM
from club.services import player_create
from tests.helpers import page_words as text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("IT", "IT"),
        ("it", "IT"),
        ("ITA", "IT"),
        ("Italy", "IT"),
        ("Italia", "IT"),
        ("italien", "IT"),
        ("Switzerland", "CH"),
        ("Svizzera", "CH"),
        ("Schweiz", "CH"),
        ("Suisse", "CH"),
        ("Deutschland", "DE"),
        ("Germania", "DE"),
        ("Österreich", "AT"),
        ("osterreich", "AT"),
        ("  Regno   Unito ", "GB"),
        ("Stati Uniti d'America", "US"),
        ("USA", "US"),
        ("Holland", "NL"),
        ("San Marino", "SM"),
        ("", ""),
        ("Atlantis", None),
        ("Italia del Nord", None),
    ],
)
def test_a_country_is_read_from_a_code_or_its_name_in_four_languages(typed, code):
    assert country_code(typed) == code


def test_a_service_stores_the_code_and_refuses_text_that_names_no_country():
    player = player_create(name="Anna Keller", country="Schweiz", user=SYSTEM)
    assert Player.objects.get(pk=player.pk).country == "CH"
    with pytest.raises(ValidationError, match="“Atlantis” is not a country the site knows"):
        player_create(name="Nemo", country="Atlantis", user=SYSTEM)
    assert not Player.objects.filter(name="Nemo").exists()


# --- the migration: the register's free text becomes codes, nothing lost ---------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_writes_codes_and_keeps_text_it_cannot_read():
    executor = MigrationExecutor(connection)
    before = [("club", "0004_player_sort_name")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldPlayer = old.get_model("club", "Player")
    typed = {
        "Anna": "Italia",
        "Bruno": "Schweiz",
        "Carla": "svizzera",
        "Dario": "Deutschland",
        "Elena": "IT",
        "Franz": "Atlantis",
        "Gina": "",
    }
    for name, country in typed.items():
        OldPlayer.objects.create(name=name, sort_name=name.lower(), country=country)
    try:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
        found = dict(Player.objects.values_list("name", "country"))
        assert found == {
            "Anna": "IT",
            "Bruno": "CH",
            "Carla": "CH",
            "Dario": "DE",
            "Elena": "IT",
            "Franz": "",
            "Gina": "",
        }
        entries = {
            e.params["name"]: e for e in AuditEntry.objects.filter(code="player.country_coded")
        }
        assert set(entries) == {"Anna", "Bruno", "Carla", "Dario", "Franz"}  # every change
        kept = entries["Franz"]
        assert kept.before == {"country": "Atlantis"} and kept.after == {"country": ""}
        assert kept.subject_id == Player.objects.get(name="Franz").pk
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        Player.objects.all().delete()


def test_the_player_s_history_says_the_text_kept(client, director):
    """The audit entry of a country the migration could not read, on the player's page."""
    from django.contrib.contenttypes.models import ContentType

    franz = player_create(name="Franz Huber", user=SYSTEM)
    AuditEntry.objects.create(
        code="player.country_coded",
        params={"name": franz.name, "typed": "Atlantis", "code": ""},
        before={"country": "Atlantis"},
        after={"country": ""},
        subject_type=ContentType.objects.get_for_model(Player),
        subject_id=franz.pk,
    )
    client.force_login(director)
    page = text(client.get(franz.get_absolute_url()))
    assert "left the country of Franz Huber empty: “Atlantis” is not a country" in page
    page = text(client.get(franz.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it"))
    assert "ha lasciato vuoto il paese di Franz Huber: “Atlantis”" in page


# --- the form, the pages -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "name"), [("en", "Switzerland"), ("it", "Svizzera"), ("de", "Switzerland")]
)
def test_the_form_offers_countries_by_name_and_the_page_shows_the_name(
    director_client, anna, language, name
):
    """German is not one of the site's languages: the page is in English."""
    url = reverse("player_edit", args=[anna.pk])
    form = director_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(r'<select name="country"[^>]*>', form)
    assert '<option value="IT" selected>' in form and f'<option value="CH">{name}</option>' in form
    posted = {"name": "Anna Rossi", "club": "BG Zürich", "country": "CH"}
    done = director_client.post(url, posted, HTTP_ACCEPT_LANGUAGE=language)
    assert done.status_code == 302
    assert Player.objects.get(pk=anna.pk).country == "CH"
    page = text(director_client.get(anna.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language))
    assert f"Country {name}" in page or f"Paese {name}" in page


def test_the_form_refuses_text_that_is_no_country_on_its_page(director_client, anna):
    url = reverse("player_edit", args=[anna.pk])
    answer = director_client.post(url, {"name": "Anna Rossi", "country": "Italia"})
    assert answer.status_code == 400
    assert "Select a valid choice. Italia is not one of the available choices." in text(answer)
    assert Player.objects.get(pk=anna.pk).country == "IT"


def test_the_players_list_shows_the_country_s_name_and_exports_the_code(client, anna):
    assert "Italia" in text(client.get(reverse("players"), HTTP_ACCEPT_LANGUAGE="it"))
    assert "Italy" in text(client.get(reverse("players"), HTTP_ACCEPT_LANGUAGE="en"))
    exported = client.get(reverse("players"), {"_export": "csv"}).getvalue().decode()
    assert "Anna Rossi,Circolo Backgammon Milano,IT," in exported


def test_the_api_serves_the_code(client, anna):
    found = client.get("/api/v1/players").json()["items"]
    assert [p["country"] for p in found] == ["IT"]
    assert client.get("/api/v1/players?country=it").json()["count"] == 1
    assert client.get("/api/v1/players?country=CH").json()["count"] == 0


# --- a players' file names countries as people write them --------------------------------


def test_a_players_file_s_countries_in_three_languages_and_codes(director_client):
    sheet = (
        "Nome;Nazione\r\n"
        "Anna Keller;Schweiz\r\n"
        "Bruno Bianchi;Italia\r\n"
        "Carla Verdi;Germany\r\n"
        "Dario Neri;fr\r\n"
        "Elena Conti;Atlantide\r\n"  # line 6: no country: left out, said
    )
    upload = SimpleUploadedFile("giocatori.csv", sheet.encode(), content_type="text/csv")
    preview = director_client.post("/players/import/", {"file": upload})
    assert preview.status_code == 200
    assert (
        "left out: “Atlantide” is not a country the site knows (write its name in English, "
        "Italian or German, or its two-letter code: IT, CH)"
    ) in text(preview)
    checked = re.search(r'name="checked" value="([^"]+)"', preview.content.decode()).group(1)
    director_client.post("/players/import/", {"checked": checked, "confirm": "1"})
    assert dict(Player.objects.values_list("name", "country")) == {
        "Anna Keller": "CH",
        "Bruno Bianchi": "IT",
        "Carla Verdi": "DE",
        "Dario Neri": "FR",
    }


def test_the_players_list_offers_each_country_of_the_register_once(client, anna):
    for name, country in (("Bruno Bianchi", "IT"), ("Carla Keller", "CH"), ("Dario Neri", "IT")):
        player_create(user=SYSTEM, name=name, country=country)
    page = client.get(reverse("players"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.findall(r'<option value="([A-Z]{2})"', page) == ["IT", "CH"]  # Italy, Switzerland
