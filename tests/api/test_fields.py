"""What each field means, as a client reads it (issue 25.10): a parameter the address does not
take is refused by name, a figure that does not apply is null, a Swiss and its cut knockout
name each other, a tournament says where it stands, and every field is described."""

import datetime
import random

import pytest

from tests.tournaments.helpers import play_everything
from tournaments.models import Event
from tournaments.services import event_cut, event_draw, event_pair_next_round

pytestmark = pytest.mark.django_db

API = "/api/v1/"


def body(client, path):
    response = client.get(API + path)
    assert response.status_code == 200, (path, response.content)
    return response.json()


# --- parameters ----------------------------------------------------------------------------


def test_an_unknown_parameter_is_refused_naming_it_and_the_known_ones(client, anna, bruno):
    """``players?name_part=Anna`` used to answer every player, as if it had filtered."""
    response = client.get(API + "players?name_part=Anna&page=1")
    assert response.status_code == 422
    found = response.json()
    assert found["code"] == "unknown_parameter"
    assert found["unknown"] == ["name_part"]
    assert found["known"] == ["q", "name", "club", "country", "page", "page_size"]
    assert "name_part" in found["detail"] and "page_size" in found["detail"]


def test_an_address_without_parameters_refuses_any(client, anna):
    response = client.get(API + f"players/{anna.pk}?expand=matches")
    assert response.status_code == 422
    assert response.json()["known"] == [] and "takes: none" in response.json()["detail"]


def test_the_known_parameters_still_answer(client, anna, bruno):
    found = body(client, "players?q=ann&page=1&page_size=10")
    assert [p["name"] for p in found["items"]] == ["Anna Rossi"]


def test_players_by_their_whole_name_any_case(client, anna, bruno, field):
    field(2, prefix="Anna Rossi ")  # "Anna Rossi 01": the name holds Anna Rossi, is not it
    found = body(client, "players?name=anna rossi")
    assert [p["id"] for p in found["items"]] == [anna.pk]
    assert body(client, "players?q=anna rossi")["count"] == 3


def test_unknown_parameters_are_refused_before_the_etag(client, anna):
    tag = client.get(API + "players")["ETag"]
    response = client.get(API + "players?nmae=Anna", headers={"If-None-Match": tag})
    assert response.status_code == 422 and response.json()["unknown"] == ["nmae"]


# --- null where a figure does not apply ----------------------------------------------------


def test_a_round_robin_has_no_buchholz_and_a_swiss_no_head_to_head(
    client, event_with, finish, director
):
    robin = event_with(Event.Format.ROUND_ROBIN, 4, pools=1, lengths=(3,))
    event_draw(event=robin, seed=2, user=director)
    play_everything(robin, finish, random.Random(2))
    table = body(client, f"events/{robin.pk}/standings")["table"]
    assert table and all(r["buchholz"] is None and r["median"] is None for r in table)
    assert all(isinstance(r["head_to_head"], int) for r in table)

    swiss = event_with(Event.Format.SWISS, 4, swiss_rounds=1, lengths=(3,))
    event_draw(event=swiss, seed=2, user=director)
    play_everything(swiss, finish, random.Random(2))
    table = body(client, f"events/{swiss.pk}/standings")["table"]
    assert table and all(r["head_to_head"] is None for r in table)
    # each of the two winners beat a player with no win: a Buchholz of 0, which is a figure
    assert sorted(r["buchholz"] for r in table) == [0, 0, 1, 1]


# --- a Swiss and the knockout cut from it --------------------------------------------------


def test_a_swiss_names_the_knockout_cut_from_it_and_the_knockout_its_swiss(
    client, event_with, finish, director
):
    swiss = event_with(Event.Format.SWISS, 6, swiss_rounds=1, cut=4)
    event_draw(event=swiss, seed=3, user=director)
    play_everything(swiss, finish, random.Random(3))
    before = body(client, f"events/{swiss.pk}")
    assert before["cut"] == 4 and before["cut_to"] is None and before["parent"] is None
    knockout = event_cut(event=Event.objects.get(pk=swiss.pk), user=director)
    after = body(client, f"events/{swiss.pk}")
    assert after["cut_to"] == knockout.pk
    cut = body(client, f"events/{knockout.pk}")
    assert cut["parent"] == swiss.pk and cut["cut_to"] is None


# --- a tournament's status -----------------------------------------------------------------


def statuses(client):
    return {t["id"]: t["status"] for t in body(client, "tournaments")["items"]}


def test_a_tournament_is_upcoming_then_running_then_finished(client, event_with, finish, director):
    swiss = event_with(Event.Format.SWISS, 4, swiss_rounds=2, lengths=(3,))
    tournament = swiss.tournament
    assert statuses(client) == {tournament.pk: "upcoming"}
    event_draw(event=swiss, seed=1, user=director)
    assert statuses(client) == {tournament.pk: "running"}
    play_everything(swiss, finish, random.Random(1))
    # the first round played, the second not yet paired: still running
    assert statuses(client) == {tournament.pk: "running"}
    event_pair_next_round(event=swiss, user=director)
    play_everything(swiss, finish, random.Random(2))
    assert statuses(client) == {tournament.pk: "finished"}
    assert body(client, f"tournaments/{tournament.pk}")["status"] == "finished"


def test_a_swiss_waiting_for_its_cut_keeps_the_tournament_running(
    client, event_with, finish, director
):
    swiss = event_with(Event.Format.SWISS, 6, swiss_rounds=1, cut=4)
    event_draw(event=swiss, seed=3, user=director)
    play_everything(swiss, finish, random.Random(3))
    assert statuses(client) == {swiss.tournament_id: "running"}
    knockout = event_cut(event=Event.objects.get(pk=swiss.pk), user=director)
    assert statuses(client) == {swiss.tournament_id: "running"}
    play_everything(knockout, finish, random.Random(4))
    assert statuses(client) == {swiss.tournament_id: "finished"}


@pytest.mark.parametrize("count", [2, 12])
def test_the_statuses_take_the_same_few_queries(
    client, director, count, django_assert_max_num_queries
):
    from tournaments.services import event_create, tournament_create

    for n in range(count):
        made = tournament_create(name=f"T{n}", date=datetime.date(2026, 12, 13), user=director)
        event_create(tournament=made, name="E", format="single", lengths=[3], user=director)
    with django_assert_max_num_queries(8):
        assert len(body(client, "tournaments")["items"]) == count


# --- every field described -----------------------------------------------------------------


def test_every_field_and_parameter_has_a_description(client):
    schema = body(client, "openapi.json")
    bare = [
        f"{name}.{field}"
        for name, component in schema["components"]["schemas"].items()
        for field, spec in component.get("properties", {}).items()
        if not spec.get("description")
    ]
    assert bare == []
    bare = [
        f"{path} {p['name']}"
        for path, methods in schema["paths"].items()
        for operation in methods.values()
        for p in operation.get("parameters", [])
        if p["in"] == "query" and not (p.get("description") or p["schema"].get("description"))
    ]
    assert bare == []


def test_the_bracket_key_says_what_each_prefix_means(client):
    schema = body(client, "openapi.json")
    said = schema["components"]["schemas"]["MatchOut"]["properties"]["bracket_key"]["description"]
    for prefix in ("M the main", "C the consolation", "L the losers'", "P the play-off", "F the"):
        assert prefix in said
    assert "S (S2-3" in said and "pool's letter" in said
