"""The tournament pages as a director and a visitor use them (Django's test client)."""

import csv
import io
import random
import re

import pytest
from django.conf import settings
from django.urls import reverse

from club.policy import SYSTEM
from matches.models import Match
from tournaments.models import Entry, Event, Tournament
from tournaments.services import event_draw

from .helpers import by_key, play_everything

pytestmark = pytest.mark.django_db


def text(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_a_director_creates_a_tournament_and_an_event(director_client, director):
    response = director_client.post(
        reverse("tournament_new"),
        {"name": "Coppa Milano", "date": "2026-12-13", "venue": "Circolo", "directors": []},
    )
    tournament = Tournament.objects.get(name="Coppa Milano")
    assert response.status_code == 302 and list(tournament.directors.all()) == [director]
    url = reverse("event_new", args=[tournament.pk])
    response = director_client.post(
        url, {"name": "Main", "format": "consolation", "lengths": "5, 6, 7", "seeding": "random"}
    )
    assert response.status_code == 400
    assert "odd number of points, not 6 (WBF 3)" in text(response)
    assert 'value="5, 6, 7"' in response.content.decode()  # nothing typed is lost
    response = director_client.post(
        url, {"name": "Swiss", "format": "swiss", "lengths": "3", "seeding": "rating"}
    )
    assert "how many rounds the Swiss has" in text(response)
    response = director_client.post(
        url, {"name": "Main", "format": "consolation", "lengths": "5 5 7", "seeding": "random"}
    )
    event = Event.objects.get(given_name="Main")
    assert response.status_code == 302
    assert [r.length for r in event.rounds.all()] == [5, 5, 7]
    page = text(director_client.get(tournament.get_absolute_url()))
    assert "Main" in page and "entries open" in page


def test_the_new_tournament_form_names_its_creator_and_starts_today(
    director_client, director, django_user_model, directors_group
):
    """Issue 24.14a-b: the creating director was an unticked box under "You are one of them",
    and the date was empty."""
    from django.utils import timezone

    alone = text(director_client.get(reverse("tournament_new")))
    assert "You (director) direct it; no other director is registered yet." in alone
    sara = django_user_model.objects.create_user("sara", password="pw-sara-1")
    sara.groups.add(directors_group)
    response = director_client.get(reverse("tournament_new"))
    page = response.content.decode()
    assert "You (director) direct it already; tick the others who run it with you." in text(
        response
    )
    assert f'name="directors" value="{sara.pk}"' in page
    assert f'name="directors" value="{director.pk}"' not in page  # nothing to untick
    assert f'name="date" value="{timezone.localdate().isoformat()}"' in page
    italian = director_client.get(reverse("tournament_new"), HTTP_ACCEPT_LANGUAGE="it")
    assert "Tu (director) lo dirigi già; spunta gli altri che lo dirigono con te." in text(italian)
    assert "Altri direttori di torneo" in text(italian)
    response = director_client.post(
        reverse("tournament_new"),
        {"name": "Coppa", "date": timezone.localdate().isoformat(), "directors": [sara.pk]},
    )
    assert response.status_code == 302
    directors = Tournament.objects.get(name="Coppa").directors.order_by("username")
    assert [u.username for u in directors] == ["director", "sara"]


def test_an_event_created_without_a_name_is_named_by_its_format(director_client, tournament):
    data = {"name": "", "format": "double", "lengths": "5", "seeding": "random"}
    response = director_client.post(reverse("event_new", args=[tournament.pk]), data)
    assert response.status_code == 302
    assert Event.objects.get(tournament=tournament).name == "double elimination"


@pytest.mark.parametrize(
    ("lengths", "says"),
    [
        ("99999", "A match is at most 99 points long, not 99999."),  # overflowed the database
        ("5, ²", "not “²”"),  # a digit to str.isdigit, not to int()
        ("5, 101", "at most 99 points"),
        ("5, -3", "not “-3”"),
        ("٥", "not “٥”"),  # an Arabic-Indic five: digits are 0-9 here
    ],
)
def test_event_lengths_are_refused_in_plain_words(director_client, tournament, lengths, says):
    url = reverse("event_new", args=[tournament.pk])
    data = {"name": "Main", "format": "single", "lengths": lengths, "seeding": "random"}
    response = director_client.post(url, data)
    assert response.status_code == 400
    assert says in text(response)
    assert not Event.objects.exists()


def test_entries_check_in_and_the_draw_through_the_event_page(director_client, event_with, field):
    event = event_with(Event.Format.SINGLE, 0)
    players = field(6)
    url = reverse("entries_add", args=[event.pk])
    director_client.post(url, {"players": [p.pk for p in players]})
    assert event.entries.count() == 6
    page = text(director_client.get(event.get_absolute_url()))
    assert "0 players checked in" in page
    for entry in event.entries.all()[:5]:
        director_client.post(reverse("entry_check_in", args=[entry.pk]))
    response = director_client.post(reverse("draw", args=[event.pk]), {"seed": "4242"}, follow=True)
    page = text(response)
    assert "The draw is made." in page and "seed 4242" in page
    assert "random.Random(4242)" in page
    assert response.content.decode().count("<em>bye</em>") == 3  # 5 players, a bracket of 8
    assert Entry.objects.filter(event=event, seed__isnull=True).count() == 1  # not checked in
    # after the draw: no more entries, and the refusal is said in words
    response = director_client.post(reverse("draw", args=[event.pk]), {}, follow=True)
    assert "already made" in text(response)


def test_a_refused_draw_is_explained(director_client, event_with):
    event = event_with(Event.Format.SINGLE, 3, check_in=False)
    response = director_client.post(reverse("draw", args=[event.pk]), {}, follow=True)
    assert "No player has checked in yet: a draw needs two or more." in text(response)
    assert "Only 0" not in text(response)
    response = director_client.post(
        reverse("draw", args=[event.pk]), {}, follow=True, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert "Nessun giocatore è ancora presente: per il sorteggio ne servono almeno due." in (
        text(response)
    )
    assert not Event.objects.get(pk=event.pk).drawn


def test_a_director_of_another_tournament_cannot_run_this_one(
    client, event_with, django_user_model, directors_group
):
    event = event_with(Event.Format.SINGLE, 4)
    other = django_user_model.objects.create_user("other", password="x")
    other.groups.add(directors_group)
    client.force_login(other)
    response = client.post(reverse("draw", args=[event.pk]), {"seed": "1"})
    assert response.status_code == 403 and not Event.objects.get(pk=event.pk).drawn
    assert client.get(reverse("event_new", args=[event.tournament_id])).status_code == 403


def test_the_bracket_shows_winners_scores_byes_and_the_champion(
    client, event_with, finish, director
):
    event = event_with(Event.Format.CONSOLATION, 6, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m12 = by_key(event, "M1-2")  # P04 v P05
    finish(m12, m12.player_b, loser_points=3)
    page = client.get(reverse("bracket", args=[event.pk])).content.decode()
    box = page[page.index('id="box-M1-2"') :][:1200]
    won = r'class="line won">\s*<span class="seed">5</span> <span class="name" title="P05">P05'
    assert re.search(won, box)  # the full name in a title: a narrow column cuts it short
    assert '<span class="score">3</span>' in box and '<span class="score">5</span>' in box
    assert page.count("<em>bye</em>") >= 2
    play_everything(event, finish, random.Random(2))
    page = text(client.get(reverse("bracket", args=[event.pk])))
    from tournaments.queries.knockouts import event_knockout

    champion = event_knockout(event=event).champion.name
    assert f"Champion: {champion}" in page


def boxes(page):
    """Each bracket box's key and classes, as the page writes them."""
    found = re.findall(r'<li class="([^"]*)" id="box-([^"]+)"', page)
    return {key: set(classes.split()) for classes, key in found}


def test_bracket_lines_join_a_box_only_to_the_boxes_that_feed_it(client, event_with, director):
    """A progressive consolation's round 2 takes in the main draw's round-2 losers: each of its
    boxes is fed by the one box level with it, not by two; its round 3 halves again."""
    event = event_with(Event.Format.PROGRESSIVE, 16)
    event_draw(event=event, seed=1, user=director)
    page = client.get(reverse("bracket", args=[event.pk])).content.decode()
    found = boxes(page)
    joined = {key for key, classes in found.items() if classes & {"join-pair", "join-level"}}
    assert not {key for key in found if key[1] == "1"} & joined  # nothing before round 1
    pairs = ["M2-1", "M2-4", "M3-1", "M3-2", "M4-1", "C3-1", "C3-2", "C5-1"]
    assert all("join-pair" in found[key] for key in pairs)
    levels = ["C2-1", "C2-2", "C2-3", "C2-4", "C4-1", "C4-2"]
    assert all(found[key] == {"slot", "join-level"} for key in levels)
    # every round is the same column of one grid: no width of its own, no style attribute
    assert set(re.findall(r'<div class="(bracket-round[^"]*)"', page)) == {"bracket-round"}
    assert " style=" not in page
    css = (settings.BASE_DIR / "static" / "crawford.css").read_text()
    assert re.search(r"\.bracket \{[^}]*grid-auto-columns: minmax\(11rem, 14rem\)", css)


def test_swiss_standings_download_as_csv(client, event_with, finish, director):
    event = event_with(Event.Format.SWISS, 5, swiss_rounds=2)
    event_draw(event=event, seed=5, user=director)
    play_everything(event, finish, random.Random(5))
    response = client.get(event.get_absolute_url() + "?_export=csv")
    rows = list(csv.reader(io.StringIO(response.getvalue().decode())))
    assert rows[0][:5] == ["#", "player", "played", "wins", "losses"]
    assert "Buchholz" in rows[0] and "median" in rows[0] and "pool" not in rows[0]
    assert len(rows) == 6
    assert sum(int(r[3]) for r in rows[1:]) == 2 + 1  # two matches, one bye
    page = text(client.get(event.get_absolute_url()))
    assert "Round 2 to be paired" in page


def test_round_printouts_pairing_list_and_one_sheet_per_match(client, event_with, director):
    event = event_with(Event.Format.ROUND_ROBIN, 5, pools=1, lengths=(7,))
    event_draw(event=event, seed=2, user=director)
    page = text(client.get(reverse("round", args=[event.pk, 1])))
    assert "Round 1: matches to 7 points" in page and "Not playing this round" in page
    sheets = client.get(reverse("round_sheets", args=[event.pk, 1])).content.decode()
    in_round = Match.objects.filter(place__event=event, place__round=1).count()
    assert sheets.count('class="sheet-page"') == in_round == 2
    assert sheets.count("Match to 7 points") == 2
    assert sheets.count("no doubling (WBF 24)") == 2
    assert client.get(reverse("round", args=[event.pk, 9])).status_code == 404


def test_the_player_page_shows_the_rating_history(client, anna, bruno, director):
    from matches.services import match_create, match_record_final_score

    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    match_record_final_score(match=match, score_a=3, score_b=1, user=director)
    page = text(client.get(anna.get_absolute_url()))
    assert "Rating history" in page and "+17.32" in page  # 4 · 5 · √3 · 0.5
    italian = text(client.get(anna.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it"))
    assert "+17,32" in italian and "1517,32" in italian  # like the ratings beside it


@pytest.mark.parametrize("page", ["event", "bracket"])
def test_the_bracket_page_costs_the_same_queries_for_8_or_64_players(
    client, event_with, director, django_assert_num_queries, page
):
    small = event_with(Event.Format.DOUBLE, 8)
    big = event_with(Event.Format.DOUBLE, 64)
    for event in (small, big):
        event_draw(event=event, seed=3, user=director)
    client.get(reverse(page, args=[small.pk]))  # warm up sessions and the like
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()  # each page rendered, not kept under its ETag (tournaments.live)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse(page, args=[small.pk])).status_code == 200
    cache.clear()
    with django_assert_num_queries(len(queries)):
        assert client.get(reverse(page, args=[big.pk])).status_code == 200


def test_the_director_sees_why_each_swiss_pairing_was_made_and_visitors_do_not(
    director_client, event_with, director
):
    from django.test import Client

    event = event_with(Event.Format.SWISS, 5, swiss_rounds=3)
    event_draw(event=event, seed=8, user=director)
    directing = text(director_client.get(event.get_absolute_url()))
    assert "why this pairing" in directing and "same score group (0 wins)" in directing
    assert "bye, the lowest-ranked player who has not had one" in directing
    public = text(Client().get(event.get_absolute_url()))
    assert "same score group" not in public and "P01" in public


def test_swiss_reasons_after_round_one_name_wins_not_players(
    director_client, event_with, director, finish
):
    """Reasons used to be English with ids replaced by names: a player whose id was the
    number of wins turned "(1 win)" into "(P01 win)". Now a code and numbers, said where
    shown, in the visitor's language."""
    from tournaments.services import event_pair_next_round

    event = event_with(Event.Format.SWISS, 4, swiss_rounds=3)
    event_draw(event=event, seed=8, user=director)
    for place in event.places.all():  # the first-named player wins each match
        finish(place.match, place.match.player_a)
    event_pair_next_round(event=event, user=director)
    page = director_client.get(event.get_absolute_url()).content.decode()
    round_two = page.split('id="round-2"')[1]
    assert "same score group (1 win)" in round_two and "same score group (0 wins)" in round_two
    assert not re.search(r"\(P\d\d wins?\)", page)


def test_the_public_tournament_page_shows_each_event_s_round_and_champion(
    client, event_with, finish, director
):
    knockout = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    swiss = event_with(Event.Format.SWISS, 4, swiss_rounds=2)
    for event in (knockout, swiss):
        event_draw(event=event, seed=1, user=director)
    page = text(client.get(knockout.tournament.get_absolute_url()))
    assert page.count("Round 1 in play") == 2 and "draw seed 1" in page
    play_everything(knockout, finish, random.Random(4))
    play_everything(swiss, finish, random.Random(4))
    from tournaments.queries.knockouts import event_knockout

    champion = event_knockout(event=knockout).champion.name
    page = text(client.get(knockout.tournament.get_absolute_url()))
    assert f"Champion: {champion}" in page and "Round 2 to be paired" in page
