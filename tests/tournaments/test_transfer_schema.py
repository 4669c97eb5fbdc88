"""The tournament file's shape, defined once (issue 26.2): pydantic models the export builds and
the import reads, published as a JSON Schema beside the API's, and a wrong file refused in
plain words naming where, never with pydantic's own text or a 500."""

from __future__ import annotations

import copy
import datetime
import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from club.policy import SYSTEM
from tests.tournaments.helpers import another_tournament
from tournaments.models import Event, Tournament
from tournaments.transfer import (
    document_schema,
    document_schema_text,
    tournament_export,
    tournament_import,
    tournament_import_plan,
)
from tournaments.transfer.document import Document

pytestmark = pytest.mark.django_db

SCHEMA_URL = "/api/v1/transfer.schema.json"
COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "transfer.schema.json"


@pytest.fixture
def played(tournament, event_with, director, finish):
    """A conftest tournament's knockout, drawn, with a result: its file, as another site's."""
    from matches.models import Match
    from tournaments.services import event_draw

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    match = Match.objects.filter(place__event=event).order_by("id").first()
    finish(match, match.player_a)
    return another_tournament(tournament_export(tournament=tournament))


# --- the schema --------------------------------------------------------------------------------


def test_the_schema_is_served_beside_the_api_s_without_signing_in(client):
    response = client.get(SCHEMA_URL)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    schema = response.json()
    assert schema == document_schema()
    assert schema["properties"]["version"] == {"const": 2, "title": "Version", "type": "integer"}
    assert "uuid" in schema["$defs"]["TournamentPart"]["required"]
    again = client.get(SCHEMA_URL, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    refused = client.post(SCHEMA_URL)
    assert refused.status_code == 405 and refused.json()["code"] == "method_not_allowed"


def test_the_committed_schema_is_the_one_the_models_make():
    """docs/transfer.schema.json never drifts: regenerate it with
    ``python manage.py shell -c "from tournaments.transfer import document_schema_text as t;
    open('docs/transfer.schema.json', 'w').write(t())"``."""
    assert COMMITTED.read_text(encoding="utf-8") == document_schema_text()


def test_the_api_docs_name_the_schema():
    api = (COMMITTED.parent / "api.md").read_text(encoding="utf-8")
    assert "/api/v1/transfer.schema.json" in api and "docs/transfer.schema.json" in api


# --- one shape, read and written ----------------------------------------------------------------


def test_an_export_read_by_the_models_writes_itself_again(played):
    assert Document.model_validate_json(json.dumps(played)).model_dump(mode="json") == played


@settings(max_examples=30, deadline=None)
@given(
    moment=st.datetimes(
        min_value=datetime.datetime(2000, 1, 1),
        max_value=datetime.datetime(2100, 1, 1),
        timezones=st.sampled_from(
            [datetime.UTC, datetime.timezone(datetime.timedelta(hours=5, minutes=30))]
            + [datetime.timezone(datetime.timedelta(hours=-7))]
        ),
    )
)
def test_a_time_in_any_zone_is_read_as_that_instant_and_written_in_utc(moment):
    from tournaments.transfer.document import AuditPart

    entry = {
        "at": moment.isoformat(),
        "code": "tournament.changed",
        "params": {},
        "before": None,
        "after": None,
        "user": None,
        "user_name": "",
        "subject": {"kind": "tournament"},
        "match": None,
        "dispute": None,
        "tournament": True,
    }
    read = AuditPart.model_validate_json(json.dumps(entry))
    assert read.at == moment
    written = read.model_dump(mode="json")
    assert written["at"] == moment.astimezone(datetime.UTC).isoformat()
    assert AuditPart.model_validate_json(json.dumps(written)) == read


def test_export_import_export_gives_the_same_file(played, director):
    created = tournament_import(document=copy.deepcopy(played), user=director)
    again = tournament_export(tournament=created)
    assert again["audit"].pop()["code"] == "tournament.imported"
    assert again == played


# --- a wrong file, in plain words ---------------------------------------------------------------


def _set(path, value):
    def tamper(document):
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        if value is KeyError:
            del parent[path[-1]]
        else:
            parent[path[-1]] = value

    return tamper


READ = "The file does not hold a tournament we can read: "


@pytest.mark.parametrize(
    ("tamper", "says"),
    [
        (_set(("matches", 0, "length"), "5"), "matches[1].length should be a whole number from 1"),
        (_set(("matches", 0, "length"), 5.0), "matches[1].length should be a whole number from 1"),
        (_set(("players", 1, "name"), KeyError), "players[2].name is missing."),
        (_set(("tournament",), []), "tournament should be an object."),
        (_set(("events",), {}), "events should be a list."),
        (_set(("events", 0, "rounds", 0), "3"), "events[1].rounds[1] should be a whole number"),
        (_set(("events", 0, "format"), "ko"), "events[1].format should be one of single, "),
        (_set(("tournament", "directors", 0), 7), "tournament.directors[1] should be text of at"),
        (_set(("tournament", "physical_dice"), 0), "tournament.physical_dice should be true or"),
        (_set(("tournament", "date"), "13/12/2026"), "tournament.date should be a date (YYYY-MM"),
        (_set(("matches", 0, "finished_at"), "2026-12-13T12:00:00"), "with its time zone."),
        (_set(("matches", 0, "final_score"), [5]), "final_score should be two numbers, or"),
        (_set(("matches", 0, "reason_params"), {"x": "a\x00b"}), "without NUL characters."),
        (_set(("players", 0, "key"), " "), "players[1].key should be text that is not empty."),
        (_set(("audit", 0, "subject", "kind"), 3), "audit[1].subject.kind should be text of"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_naming_where(played, tamper, says):
    tamper(played)
    with pytest.raises(ValidationError) as refused:
        tournament_import_plan(document=played)
    message = refused.value.messages[0]
    assert message.startswith(READ) and says in message, message


def _upload(client, content: bytes):
    upload = SimpleUploadedFile("tournament.json", content, content_type="application/json")
    return client.post(reverse("tournament_import"), {"file": upload})


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", READ + "matches[1].round should be a whole number from 1 to 32767."),
        ("it", "matches[1].round dovrebbe essere un numero intero da 1 a 32767."),
    ],
)
def test_the_import_page_refuses_a_wrong_kind_in_words_never_pydantic_s(
    played, director_client, language, says
):
    played["matches"][0]["round"] = "one"
    director_client.cookies["django_language"] = language
    response = _upload(director_client, json.dumps(played).encode())
    assert response.status_code == 400  # the form again, the refusal on it (as every refusal)
    page = response.content.decode()
    assert 'role="alert"' in page and says in page, page
    for raw in ("pydantic", "Input should", "validation error", "Traceback", "[type="):
        assert raw not in page
    assert not Tournament.objects.filter(uuid=played["tournament"]["uuid"]).exists()


def test_the_import_page_names_a_missing_key(played, director_client):
    del played["tournament"]["name"]
    response = _upload(director_client, json.dumps(played).encode())
    assert response.status_code == 400
    assert READ + "tournament.name is missing." in response.content.decode()


def test_a_version_1_file_without_settings_added_since_still_imports(played):
    """Files written before the identity, the late rounds, Holland and the third place, and
    the time of issue 28 (lateness, clocks, start times, penalties, forfeits, arrivals)."""
    played["version"] = 1
    del played["tournament"]["uuid"], played["tournament"]["late_rounds"]
    for name in [key for key in played["tournament"] if key.startswith(("late_", "clock_"))]:
        del played["tournament"][name]
    for event in played["events"]:
        del event["holland"], event["third_place"], event["round_times"]
        for entry in event["entries"]:
            del entry["joined_round"]
    for match in played["matches"]:
        del match["retired"], match["holland"]
        del match["penalties"], match["forfeit"], match["arrivals"]
    created = tournament_import(document=played, user=SYSTEM)
    assert created.late_rounds == Tournament.LateRounds.LOSS
    assert (created.late_minutes_per_point, created.clock_on_flag) == (5, "match")
    assert str(created.uuid) != ""


# --- a tournament no file can carry -----------------------------------------------------------


@pytest.mark.parametrize(
    "language, says",
    [
        ("en", "This tournament holds a value a tournament file cannot carry (players: country)"),
        ("it", "Questo torneo contiene un valore che un file di torneo non può portare"),
    ],
)
def test_a_download_the_file_cannot_carry_is_refused_in_words_on_the_page(
    tournament, event_with, director_client, language, says
):
    """The export is checked by the models the import reads with: a country code no country
    has, written in the database behind the site's back, is said on the tournament's page,
    never a 500 nor a file no site would import."""
    from club.models import Player

    event_with(Event.Format.SINGLE, 4)
    first = Player.objects.filter(entries__event__tournament=tournament).order_by("id").first()
    Player.objects.filter(pk=first.pk).update(country="ZZ")
    director_client.cookies["django_language"] = language
    url = reverse("tournament_export", args=[tournament.pk])
    response = director_client.get(url, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[0][0] == tournament.get_absolute_url()
    assert "attachment" not in response.get("Content-Disposition", "")
    assert says in response.content.decode()


def test_the_export_command_says_the_same_in_words(tournament, event_with):
    from django.core.management import CommandError, call_command

    from club.models import Player

    event_with(Event.Format.SINGLE, 4)
    Player.objects.filter(entries__event__tournament=tournament).update(country="ZZ")
    with pytest.raises(CommandError, match=r"cannot carry \(players: country\)"):
        call_command("tournament_export", tournament.pk)
