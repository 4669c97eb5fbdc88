"""The pages people read and the forms directors use."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.policy import SYSTEM
from club.services import player_create
from matches.models import Game, Match
from matches.services import match_create

pytestmark = pytest.mark.django_db


def make_players(count):
    return [player_create(name=f"Player {i:02d}", club="Club", user=SYSTEM) for i in range(count)]


def make_matches(count):
    people = make_players(count + 1)
    return [
        match_create(player_a=people[i], player_b=people[i + 1], length=3, user=SYSTEM)
        for i in range(count)
    ]


@pytest.mark.parametrize("url_name, make", [("players", make_players), ("matches", make_matches)])
def test_list_pages_do_not_query_more_with_more_rows(
    client, django_assert_num_queries, url_name, make, record
):
    made = make(2)
    if url_name == "matches":
        record(made[0], 0)
    with CaptureQueriesContext(connection) as two_rows:
        assert client.get(reverse(url_name)).status_code == 200
    made = make(20)
    if url_name == "matches":
        for match in made[:5]:
            record(match, 0)
    with django_assert_num_queries(len(two_rows.captured_queries)):
        response = client.get(reverse(url_name))
    assert response.status_code == 200 and "Player 19" in response.content.decode()


def test_match_page_shows_the_sheet_with_the_crawford_game(client, match5, record):
    record(match5, 0, cube=4)
    record(match5, 1)
    page = client.get(match5.get_absolute_url()).content.decode()
    assert "4–1" in page  # the running score
    assert 'class="crawford"' in page and "Crawford" in page
    assert "post-Crawford" in page and "is post-Crawford: the cube is live again" in page


def test_csv_export(client, match5, record):
    record(match5, 1, cube=2, result="gammon")
    response = client.get(reverse("matches"), {"_export": "csv"})
    rows = list(csv.reader(io.StringIO(response.getvalue().decode())))
    assert response["Content-Type"].startswith("text/csv")
    assert rows[1][1:5] == ["Anna Rossi", "Bruno Bianchi", "5", "0-4"]


def test_filters(client, match5):
    other = match_create(
        player_a=player_create(name="Carla", user=SYSTEM),
        player_b=player_create(name="Dario", user=SYSTEM),
        length=7,
        user=SYSTEM,
    )
    page = client.get(reverse("matches"), {"player": "carla"}).content.decode()
    assert "Carla" in page and "Anna Rossi" not in page
    assert other.pk


def test_player_page_shows_the_record(client, match5, record, anna):
    record(match5, 0, cube=2)
    record(match5, 0, cube=2)
    record(match5, 0)  # the Crawford game
    page = client.get(anna.get_absolute_url()).content.decode()
    assert '<dd class="won">1</dd>' in page and '<dd class="lost">0</dd>' in page


def test_a_refused_game_keeps_what_the_director_typed(director_client, match5, record):
    record(match5, 0, cube=4)
    response = director_client.post(
        reverse("game_new", args=[match5.pk]),
        {"number": 2, "winner": 1, "cube": 2, "result": "gammon"},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Game 2 is the Crawford game: no doubling (WBF 24)." in page
    assert '<option value="gammon" selected>' in page
    assert '<option value="2" selected>' in page
    assert 'value="1" required id="id_winner_1" checked' in page


def test_recording_through_the_form(director_client, match5):
    response = director_client.post(
        reverse("game_new", args=[match5.pk]),
        {"number": 1, "winner": 1, "cube": 2, "result": "drop"},
    )
    assert response.status_code == 302
    game = Game.objects.get(match=match5)
    # a dropped double entered as the value offered: played for 1, it scores 1 (WBF 23)
    assert (game.winner, game.cube, game.points) == (1, 1, 1)


def test_final_score_refusal_on_the_page(director_client, match5):
    response = director_client.post(
        reverse("final_score", args=[match5.pk]),
        {"score_a": 5, "score_b": 5, "version": match5.version},
    )
    assert response.status_code == 400
    assert "5–5 cannot be the final score of a 5-point match" in response.content.decode()
    assert Match.objects.get(pk=match5.pk).final_score_a is None


def test_not_found_page_is_in_the_sites_style(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "This page does not exist" in response.content.decode()


def test_server_error_page_says_nothing_is_lost(rf):
    from tournaments.views import server_error

    response = server_error(rf.get("/"))
    assert response.status_code == 500 and "Nothing you saved is lost" in response.content.decode()


def test_printable_blank_score_sheet(client, match5):
    page = client.get(reverse("score_sheet", args=[match5.pk])).content.decode()
    assert "Match to 5 points" in page
    assert page.count("<tr><td>") == 9  # a 5-point match has at most 9 games
    assert "Crawford" in page


def test_the_match_page_shows_the_audit_trail(client, match5, record):
    record(match5, 1, cube=2, result="gammon")
    page = client.get(match5.get_absolute_url()).content.decode()
    audit = page.split('id="audit"')[1]
    assert (
        "director recorded game 1: Bruno Bianchi won (gammon, cube 2): 4 points counted." in audit
    )
    assert "{" not in audit  # sentences, never the raw facts
