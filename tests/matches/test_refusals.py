"""Refused forms and parameters on the match pages: never a server error, always the page
again with what is wrong (issue 23.3, 23.6)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.models import Match
from tests.helpers import page_words as text
from tests.matches import test_reports

pytestmark = pytest.mark.django_db
knockout, duel = test_reports.knockout, test_reports.duel  # a match whose players report


@pytest.mark.parametrize(
    ("page", "parameter"),
    [("matches", "player"), ("players", "name"), ("players", "club")],
)
@pytest.mark.parametrize("export", [False, True])
def test_a_filter_longer_than_any_name_is_refused_in_words(client, match5, page, parameter, export):
    """Issue 23.6: a filter of 100,000 characters made SQLite fail ("LIKE or GLOB pattern too
    complex"); it is longer than the field it looks in, and the filter says so."""
    query = {parameter: "x" * 100_000, **({"_export": "csv"} if export else {})}
    response = client.get(reverse(page), query)
    assert response.status_code == 200
    if not export:
        assert "Ensure this value has at most" in text(response)


def test_a_country_the_register_does_not_hold_is_refused_in_words(client, match5):
    """The country is chosen among the register's (issue 25.10): Italy, as its players are."""
    page = client.get(reverse("players"), {"country": "x" * 100_000})
    assert page.status_code == 200 and "Select a valid choice" in text(page)
    shown = client.get(reverse("players"), {"country": "IT"})
    assert "Anna Rossi" in text(shown) and "Select a valid choice" not in text(shown)


def test_a_final_score_refused_on_a_sheet_with_games_says_why(director_client, match5, record):
    """The match page shows no final-score form once games are recorded: its refusal was
    answered 400 with nothing said. It is said at the top of the page."""
    record(match5, 0)
    response = director_client.post(
        reverse("final_score", args=[match5.pk]),
        {"score_a": 5, "score_b": 1, "version": Match.objects.get(pk=match5.pk).version},
    )
    assert response.status_code == 400
    assert "This match has its games recorded: its score comes from them." in text(response)


def test_a_walkover_refused_on_a_sheet_with_games_names_the_field(director_client, match5, record):
    record(match5, 0)
    response = director_client.post(reverse("walkover", args=[match5.pk]), {})
    assert response.status_code == 400
    assert "Winner: This field is required." in text(response)


def test_a_final_score_that_is_no_number_is_refused_beside_the_player(director_client, match5):
    """The final score's numbers were drawn by hand, without their errors."""
    response = director_client.post(
        reverse("final_score", args=[match5.pk]),
        {"score_a": "abc", "score_b": "-1", "version": match5.version},
    )
    assert response.status_code == 400
    page = text(response)
    assert "Anna Rossi: Enter a whole number." in page
    assert "Bruno Bianchi: Ensure this value is greater than or equal to 0." in page


@pytest.mark.parametrize("name", ["match_import", "dispute_new"])
def test_a_match_file_form_says_what_is_wrong_with_each_field(director_client, match5, name):
    response = director_client.post(reverse(name, args=[match5.pk]), {"left": "abc"})
    assert response.status_code == 400
    assert "Select a valid choice. abc is not one of the available choices." in text(response)
    nul = director_client.post(reverse(name, args=[match5.pk]), {"text": "\x00"})
    assert nul.status_code == 400
    assert "Null characters are not allowed." in text(nul)


def test_a_dispute_posted_with_nothing_asked_is_the_page_again(director_client, director, match5):
    """A post that asks nothing (no decision, no closing, no sheets) refused nothing: it
    answered 400 with nothing said; it is the page, unchanged."""
    from matches.disputes import dispute_open

    text_file = (
        f" 5 point match\n\n Game 1\n Anna Rossi : 0{' ' * 10}Bruno Bianchi : 0\n"
        "  1)                             41: 13/9 24/23\n"
        "  2) 31: 8/5 6/5                  Doubles => 2\n  3)  Drops\n"
    )
    dispute = dispute_open(match=match5, user=director, text=text_file, left=0)
    response = director_client.post(reverse("dispute", args=[match5.pk, dispute.pk]), {})
    assert response.status_code == 200
    assert Match.objects.get(pk=match5.pk).games.count() == 0


# --- the players' report page ---------------------------------------------------------------


def test_a_report_refused_where_the_page_shows_no_form_says_why(client, director, duel):
    """A director's post of a game report (the page offers them none) answered 400 with
    nothing said; a reporter's final score while their report waits, likewise."""
    from matches.reports import report_make

    match, a = duel["match"], duel["a"]
    client.force_login(director)
    response = client.post(reverse("report", args=[match.pk]), {})
    assert response.status_code == 400
    assert "Winner: This field is required." in text(response)
    report_make(match=match, user=a, number=1, winner=0, cube=1, result="single")
    client.force_login(a)
    final = client.post(reverse("report", args=[match.pk]), {"final": "1", "score_a": "3"})
    assert final.status_code == 400
    assert "This field is required." in text(final)


def test_a_dispute_of_a_report_says_which_number_is_wrong(client, duel):
    from matches.reports import report_make

    match, a, b = duel["match"], duel["a"], duel["b"]
    report = report_make(match=match, user=a, number=1, winner=0, cube=1, result="single")
    client.force_login(b)
    response = client.post(
        reverse("report_dispute", args=[match.pk]),
        {"version": report.version, "score_a": "abc", "score_b": "1"},
    )
    assert response.status_code == 400
    assert f"{match.player_a.name}: Enter a whole number." in text(response)
