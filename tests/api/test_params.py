"""The API's parameters: what each refuses, in words naming it (issue 23.6 and 23.11); and
every parameter of every operation in the OpenAPI document sent what no client should send
(NUL and other control characters, huge, negative and non-numeric numbers, numbers for dates),
answered in plain words (a 4xx), never a server error.

Run it on PostgreSQL too, which refuses a NUL in a query where SQLite does not:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/crawford_test .venv/bin/python -m pytest \\
        tests/api/test_fuzz.py
"""

from __future__ import annotations

import datetime
import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.models import Event
from tournaments.services import event_draw

pytestmark = pytest.mark.django_db

API = "/api/v1"

NASTY = [
    "\x00",
    "Anna\x00Rossi",
    "\x1b[31m",
    "line\nbreak",
    "\u202eevil",
    "9" * 40,
    "18446744073709551616",  # 2**64
    "-1",
    "-" + "9" * 30,
    "0",
    "1.5",
    "0.5",
    "1e308",
    "NaN",
    "-inf",
    "abc",
    "",
    " ",
    "%",
    "_",
    "'; --",
    "x" * 5000,
    "2026-13-45",
    "0001-01-01",
    "0001-01-01T00:00:00",
    "9999-12-31T23:59:59",
    "9999-12-31T23:59:59-23:59",
    "99999-01-01",
    "2026-11-22T21:04:05+99:00",
]

# what a client might type: any text (no lone surrogates, which no URL can carry), numbers
# of any size and sign, floats, and dates and times of any year
values = st.one_of(
    st.sampled_from(NASTY),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=30),
    st.integers().map(str),
    st.floats().map(str),
    st.dates().map(datetime.date.isoformat),
    st.datetimes(timezones=st.none() | st.timezones()).map(datetime.datetime.isoformat),
)


@pytest.fixture
def openapi(client):
    return client.get(f"{API}/openapi.json").json()


@pytest.fixture
def known(event_with, finish, director, settings):
    """A drawn Swiss with a round played, so every address reads real rows; its ids for the
    path parameters a test does not change. The rate limit is out of the way."""
    settings.API_RATE_ANONYMOUS = "1000000/min"
    event = event_with(Event.Format.SWISS, 4, swiss_rounds=2)
    event_draw(event=event, seed=5, user=director)
    match = event.places.filter(round=1).first().match
    finish(match, match.player_a)
    return {
        "tournament": event.tournament_id,
        "event": event.pk,
        "match": match.pk,
        "player": match.player_a_id,
        "number": 1,
    }


def refused(client, path: str, query: dict) -> str:
    response = client.get(f"{API}/{path}", query)
    assert response.status_code == 422, (path, query, response.content[:300])
    assert response.json()["code"] == "invalid"
    return response.json()["detail"]


@pytest.mark.parametrize(
    "path, name",
    [("matches", "finished_since"), ("matches", "date_from"), ("tournaments", "date_to")],
)
@pytest.mark.parametrize("number", ["0.5", "0", "1700000000", "-1"])
def test_a_number_is_not_a_date(client, known, path, name, number):
    """pydantic reads 0.5 as a Unix time; the schema says ISO 8601 (issue 23.11)."""
    detail = refused(client, path, {name: number})
    assert detail == (
        f"{name}: write it as ISO 8601, e.g. 2026-11-22 or 2026-11-22T21:04 (not a number)"
    )


def test_dates_and_times_in_iso_8601_are_taken(client, known):
    for query in (
        {"finished_since": "2026-11-22"},
        {"finished_since": "2026-11-22T21:04"},
        {"finished_since": "2026-11-22T21:04:05+01:00"},
        {"date_from": "2026-01-01", "date_to": "2026-12-31"},
    ):
        assert client.get(f"{API}/matches", query).status_code == 200, query


def test_a_time_beyond_the_calendar_in_utc_is_refused_in_words(client, known):
    detail = refused(client, "matches", {"finished_since": "0001-01-01T00:00"})  # Rome: UTC+1
    assert detail == "finished_since: the time must fall within the years 1 to 9999 (in UTC)"


def test_a_search_leaves_out_a_nul_and_an_exact_value_refuses_it(client, known, anna):
    """PostgreSQL refuses NUL in any text: a search ignores it, a club or country names it."""
    found = client.get(f"{API}/players", {"q": "An\x00na\u202e"})
    assert found.status_code == 200 and [p["name"] for p in found.json()["items"]] == ["Anna Rossi"]
    for name in ("club", "country"):
        detail = refused(client, "players", {name: "Italia\x00"})
        assert detail == f"{name}: holds a control character (U+0000) that no stored value holds"


def test_an_id_larger_than_any_database_s_is_refused_in_words(client, known):
    detail = refused(client, "matches", {"tournament": "9" * 30})
    assert detail.startswith("tournament: ") and "9223372036854775807" in detail
    assert refused(client, "players/" + "9" * 30, {}).startswith("pk: ")


def test_a_line_break_in_an_address_is_the_api_s_404(client, known):
    response = client.get(f"{API}/players/line%0Abreak")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def operations(openapi: dict) -> list[tuple[str, list[dict]]]:
    found = [
        (path, operation.get("parameters", []))
        for path, methods in openapi["paths"].items()
        for method, operation in methods.items()
        if method == "get"
    ]
    assert len(found) == 11  # every operation the docs list (test_docs_browser)
    return found


SINGULAR = {"tournaments": "tournament", "events": "event", "matches": "match", "players": "player"}


def path_value(path: str, name: str, known: dict) -> str:
    """An existing object's id for ``{name}`` in ``path``: /players/{pk} takes a player's."""
    if name == "number":
        return str(known["number"])
    resource = re.match(rf"{API}/(\w+)/", path).group(1)
    return str(known[SINGULAR[resource]])


def ask(client, path: str, parameters: list[dict], sent: dict[str, str], known: dict):
    url = path
    query = {}
    for parameter in parameters:
        name = parameter["name"]
        if parameter["in"] == "path":
            value = sent.get(name, path_value(path, name, known))
            url = url.replace("{" + name + "}", quote(value, safe=""))
        elif name in sent:
            query[name] = sent[name]
    response = client.get(url, query)
    assert response.status_code < 500, (url, query, response.content[:300])
    if response.status_code >= 400:  # a refusal in plain words, as JSON
        assert response.json()["detail"], (url, query)
    return response


def test_every_parameter_of_every_operation_refuses_in_plain_words(client, openapi, known):
    for path, parameters in operations(openapi):
        assert ask(client, path, parameters, {}, known).status_code == 200, path
        for parameter in parameters:
            for value in NASTY:
                ask(client, path, parameters, {parameter["name"]: value}, known)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=150)
@given(data=st.data())
def test_any_values_of_any_parameters_together_never_a_server_error(client, openapi, known, data):
    path, parameters = data.draw(st.sampled_from(operations(openapi)), label="operation")
    names = [p["name"] for p in parameters]
    sent = data.draw(
        st.fixed_dictionaries({}, optional={name: values for name in names}), label="values"
    )
    ask(client, path, parameters, sent, known)
