"""The club's rating list, the page explaining the FIBS formula, and the event and round beside
each match of a player's page (issue 25.13), in English and Italian, through the views."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from club.models import Player
from club.policy import SYSTEM
from club.services import player_create
from matches.models import Match
from matches.services import match_create
from tournaments.models import Event
from tournaments.ratings import fibs_steps, fibs_update, rating_kept
from tournaments.services import event_draw
from tournaments.views import EXAMPLE

from ..helpers import page_words

pytestmark = pytest.mark.django_db


def table_rows(response, table_id):
    """The cells' words of each body row of the table with this id."""
    page = response.content.decode()
    table = re.search(rf'<table[^>]*id="{table_id}".*?</table>', page, re.S).group(0)
    body = re.search(r"<tbody.*?</tbody>", table, re.S).group(0)
    return [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]
        for cells in (
            re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
        )
    ]


@pytest.fixture
def rated(finish):
    """Four players of one rated match each, in two equal pairs (Ada beat Bea, Cleo beat
    Dora: 5-point matches, everyone new), and Ezio, who never played a rated match."""
    made = {
        name: player_create(name=name, club=club, user=SYSTEM)
        for name, club in [
            ("Ada", "Milano"),
            ("Bea", "Roma"),
            ("Cleo", "Roma"),
            ("Dora", "Milano"),
            ("Ezio", "Roma"),
        ]
    }
    for winner, loser in (("Ada", "Bea"), ("Cleo", "Dora")):
        match = match_create(player_a=made[winner], player_b=made[loser], length=5, user=SYSTEM)
        finish(match, made[winner])
    return made


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_rating_list_ranks_the_rated_players_and_equal_ratings_share_a_rank(
    client, rated, language
):
    gain = rating_kept(fibs_update(winner=(1500, 0), loser=(1500, 0), length=5).winner_rating)
    won, lost = str(gain), str(Decimal(3000) - gain)  # 1544.72, 1455.28
    if language == "it":
        won, lost = won.replace(".", ","), lost.replace(".", ",")
    response = client.get(reverse("ratings"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    rows = table_rows(response, "rating-list")
    # rank, name, club, country, rating, rated matches, experience, last change, last date
    assert [row[:2] + [row[4], row[5], row[6]] for row in rows] == [
        ["1", "Ada", won, "1", "5"],
        ["1", "Cleo", won, "1", "5"],
        ["3", "Bea", lost, "1", "5"],
        ["3", "Dora", lost, "1", "5"],
    ]  # Ezio has no rated match: not on the list
    assert rows[0][7].startswith("+") and rows[2][7].startswith("-")
    heading = "Classifica del rating FIBS" if language == "it" else "Rating list"
    dated = "Rating FIBS al" if language == "it" else "Ratings on"  # a printed list is dated
    assert heading in page_words(response) and dated in page_words(response)


def test_a_filtered_rating_list_keeps_the_ranks_of_the_whole_list(client, rated):
    rows = table_rows(client.get(reverse("ratings"), {"club": "Milano"}), "rating-list")
    assert [row[:2] for row in rows] == [["1", "Ada"], ["3", "Dora"]]
    rows = table_rows(client.get(reverse("ratings"), {"name": "dora"}), "rating-list")
    assert [row[:2] for row in rows] == [["3", "Dora"]]


def test_the_rating_list_sorts_by_name_and_downloads_with_its_ranks(client, rated):
    rows = table_rows(client.get(reverse("ratings"), {"sort": "name"}), "rating-list")
    assert [row[1] for row in rows] == ["Ada", "Bea", "Cleo", "Dora"]
    download = client.get(reverse("ratings"), {"_export": "csv"}).getvalue().decode()
    lines = download.splitlines()
    assert lines[0].startswith("#,name,club")
    assert lines[3].startswith("3,Bea,Roma")


def test_the_rating_list_with_no_rated_match_says_so(client, db):
    page = page_words(client.get(reverse("ratings")))
    assert "No player has a rated match yet." in page


def test_the_players_list_and_a_player_s_page_lead_to_the_rating_list_and_the_formula(
    client, rated
):
    players = client.get(reverse("players")).content.decode()
    assert f'href="{reverse("ratings")}"' in players
    ratings = client.get(reverse("ratings")).content.decode()
    assert f'href="{reverse("rating_formula")}"' in ratings
    player = client.get(rated["Ada"].get_absolute_url()).content.decode()
    assert f'href="{reverse("rating_formula")}"' in player


def figure(response, element_id):
    found = re.search(rf'id="{element_id}">([^<]*)<', response.content.decode())
    return found.group(1)


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_formula_s_worked_example_is_what_the_rating_function_gives(client, language):
    """Every figure of the example comes from tournaments.ratings: the same steps, the same
    ratings after, to the cent as the site keeps them."""
    response = client.get(reverse("rating_formula"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    after = fibs_update(**EXAMPLE)
    steps = fibs_steps(**EXAMPLE)

    def said(value, places):
        text = f"{value:.{places}f}"
        return text.replace(".", ",") if language == "it" else text

    assert figure(response, "winner-after") == said(rating_kept(after.winner_rating), 2)
    assert figure(response, "loser-after") == said(rating_kept(after.loser_rating), 2)
    assert figure(response, "winner-experience") == str(after.winner_experience)
    assert figure(response, "loser-experience") == str(after.loser_experience)
    assert figure(response, "gain") == "+" + said(after.winner_rating - EXAMPLE["winner"][0], 2)
    assert figure(response, "loss") == "−" + said(EXAMPLE["loser"][0] - after.loser_rating, 2)
    assert figure(response, "upset") == said(steps.upset, 4)
    assert figure(response, "swing") == said(steps.swing, 4)
    assert figure(response, "winner-k") == said(steps.winner_k, 2)
    words = page_words(response)
    if language == "it":
        assert "La formula del rating FIBS" in words and "Un esempio svolto" in words
    else:
        assert "The FIBS rating formula" in words and "A worked example" in words


def test_the_worked_example_is_what_the_site_does_to_a_match_played(client, finish):
    """The example's players given their ratings and experience, the match played: the
    ratings the site keeps are the example's."""
    (w_rating, w_exp), (l_rating, l_exp) = EXAMPLE["winner"], EXAMPLE["loser"]
    winner = player_create(name="Newcomer", user=SYSTEM)
    loser = player_create(name="Old Hand", user=SYSTEM)
    Player.objects.filter(pk=winner.pk).update(rating=Decimal(str(w_rating)), experience=w_exp)
    Player.objects.filter(pk=loser.pk).update(rating=Decimal(str(l_rating)), experience=l_exp)
    match = match_create(player_a=winner, player_b=loser, length=EXAMPLE["length"], user=SYSTEM)
    finish(match, winner)
    response = client.get(reverse("rating_formula"))
    winner.refresh_from_db()
    loser.refresh_from_db()
    assert figure(response, "winner-after") == str(winner.rating)
    assert figure(response, "loser-after") == str(loser.rating)
    assert figure(response, "winner-experience") == str(winner.experience)


@pytest.fixture
def played(event_with, director, finish, field):
    """A 4-player knockout drawn, its first-round matches played, and one match of its
    first player outside any tournament."""
    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    first = list(Match.objects.filter(place__event=event).order_by("pk"))
    for match in first:
        finish(match, match.player_a)
    player = first[0].player_a
    friendly = match_create(player_a=player, player_b=first[0].player_b, length=3, user=SYSTEM)
    finish(friendly, player)
    return event, player


@pytest.mark.parametrize(("language", "said"), [("en", "round"), ("it", "turno")])
def test_a_player_s_matches_and_rating_changes_name_their_event_and_round(
    client, played, language, said
):
    event, player = played
    response = client.get(player.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    label = f"{event.tournament.name} · {event.name}"
    assert f'<a href="{event.get_absolute_url()}">{label}</a>' in response.content.decode()
    header = "gara" if language == "it" else "event"
    assert f'data-label="{header}"' in response.content.decode()
    # date, event, ...: the final waiting, the first round won, the friendly
    matches = [row[1] for row in table_rows(response, "player-matches")]
    assert matches == [f"{label} · {said} 2", f"{label} · {said} 1", ""]
    # date, match, event, ...: the first round and the friendly moved the rating
    ratings = [row[2] for row in table_rows(response, "rating-history")]
    assert sorted(ratings) == ["", f"{label} · {said} 1"]


def test_a_player_s_page_costs_the_same_queries_for_one_event_or_three(
    client, event_with, director, finish, field, django_assert_num_queries
):
    """The event and round come with the matches (select_related), not one query a row."""
    players = field(2)

    def play_in_new_event():
        event = event_with(Event.Format.SINGLE, players)
        event_draw(event=event, seed=1, user=director)
        for match in Match.objects.filter(place__event=event):
            finish(match, match.player_a)

    play_in_new_event()
    url = players[0].get_absolute_url()
    client.get(url)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    play_in_new_event()
    play_in_new_event()
    with django_assert_num_queries(len(queries)):
        assert client.get(url).status_code == 200


def test_a_long_rating_list_is_paged_and_prints_whole_on_one_page(client, field, finish):
    players = field(26)
    for winner, loser in zip(players[::2], players[1::2], strict=True):
        finish(match_create(player_a=winner, player_b=loser, length=1, user=SYSTEM), winner)
    response = client.get(reverse("ratings"))
    assert len(table_rows(response, "rating-list")) == 25
    whole = re.search(
        r'id="whole-list" href="([^"]*)"|href="([^"]*)" id="whole-list"', response.content.decode()
    )
    url = (whole.group(1) or whole.group(2)).replace("&amp;", "&")
    assert "26 players" in page_words(response)
    assert len(table_rows(client.get(reverse("ratings") + url), "rating-list")) == 26


@pytest.mark.parametrize(("language", "said"), [("en", "round"), ("it", "turno")])
def test_a_player_s_own_page_names_the_event_and_round_of_their_rating_changes(
    client, played, django_user_model, language, said
):
    from club.services import player_update

    event, player = played
    account = django_user_model.objects.create_user("p04", password="pw-player-1")
    player_update(player=player, account=account, user=SYSTEM)
    client.force_login(account)
    response = client.get(reverse("me"), HTTP_ACCEPT_LANGUAGE=language)
    ratings = re.search(r'<section id="ratings".*?</section>', response.content.decode(), re.S)
    label = f"{event.tournament.name} · {event.name}"
    assert f'href="{event.get_absolute_url()}" class="where">{label}</a> · {said} 1' in ratings[0]
    assert f'href="{reverse("rating_formula")}"' in ratings[0]
    # the next match, the final, is named by the same helper
    nexts = re.search(r'<section id="next-match".*?</section>', response.content.decode(), re.S)
    assert f"{label} · {said} 2" in nexts[0]
