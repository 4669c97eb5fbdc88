"""English and Italian throughout, switched by the visitor."""

import datetime
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_italian_from_the_browsers_language(client, match5, record):
    record(match5, 0, cube=4)
    page = client.get(match5.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert '<html lang="it">' in page
    assert "Il gioco 2 è il gioco Crawford: niente raddoppi (WBF 24)." in page
    assert "Foglio segnapunti" in page and "Giocatori" in page


def test_the_language_switch_remembers_the_choice(client, match5):
    response = client.post(reverse("set_language"), {"language": "it", "next": "/players/"})
    assert response.status_code == 302
    page = client.get("/players/").content.decode()
    assert "<h1>Giocatori</h1>" in page
    client.post(reverse("set_language"), {"language": "en", "next": "/players/"})
    assert "<h1>Players</h1>" in client.get("/players/").content.decode()


def test_dates_follow_the_visitors_locale(client, match5):
    match5.date = datetime.date(2026, 11, 23)
    match5.save()

    def pages(language):
        match = client.get(match5.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
        matches = client.get("/matches/", HTTP_ACCEPT_LANGUAGE=language)
        return match.content.decode(), matches.content.decode()

    british, british_list = pages("en-GB,en;q=0.8")
    american, american_list = pages("en-US,en;q=0.9")
    italian, italian_list = pages("it-IT,it;q=0.9")
    # an en-GB browser: English words, British dates; the menu still has English chosen;
    # lists write the long date as the pages do (issue 24.14c)
    assert "23 Nov 2026" in british and "23 Nov 2026" in british_list
    assert "Sign in" in british and "<h1>Matches</h1>" in british_list
    assert '<option value="en" selected>' in british
    assert "Nov. 23, 2026" in american and "Nov. 23, 2026" in american_list
    assert '<option value="en" selected>' in american
    # Italian writes its months in lower case
    assert "23 novembre 2026" in italian and "23 novembre 2026" in italian_list
    assert "Novembre" not in italian
    for page in (british, british_list, american, american_list, italian, italian_list):
        assert not re.search(r"\b\d{1,2}/\d{1,2}/\d{4}\b", page)  # no short dates beside


def test_a_match_page_writes_its_dates_in_one_format(director_client, match5, record, director):
    """Issue 24.14c: "Nov. 26, 2026" beside "11/26/2026 12:16 p.m." in the changes."""
    from matches.disputes import dispute_open
    from matches.matfiles import match_mat

    match5.date = datetime.date(2026, 11, 23)
    match5.save()
    record(match5, 0)
    dispute_open(match=match5, user=director, text=match_mat(match=match5), filename="", left=None)
    for language, date in [("en-US", "Nov. 23, 2026"), ("it", "23 novembre 2026")]:
        page = director_client.get(match5.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
        page = page.content.decode()
        assert date in page
        assert not re.search(r"\b\d{1,2}/\d{1,2}/\d{4}\b", page)  # no short date anywhere


def test_an_italian_director_reads_the_rules_refusal_in_italian(director_client, match5, record):
    record(match5, 0, cube=4)
    response = director_client.post(
        reverse("game_new", args=[match5.pk]),
        {"number": 2, "winner": 1, "cube": 2, "result": "single"},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.status_code == 400
    assert "Il gioco 2 è il gioco Crawford: niente raddoppi (WBF 24)." in (
        response.content.decode()
    )


def test_an_italian_director_runs_an_event_in_italian(director_client, event_with, director):
    from tournaments.models import Event
    from tournaments.services import event_draw

    event = event_with(Event.Format.CONSOLATION, 6, seeding=Event.Seeding.RATING)  # 2 to C
    page = director_client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it")
    page = page.content.decode()
    assert "iscrizioni aperte fino al sorteggio" in page and "Fai il sorteggio" in page
    event_draw(event=event, user=director)
    page = director_client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it")
    page = page.content.decode()
    assert "Tabellone principale" in page and "Consolazione" in page and "riposo" in page
    assert "Turno 1 in corso" in page
    refused = director_client.post(
        reverse("draw", args=[event.pk]), {}, HTTP_ACCEPT_LANGUAGE="it", follow=True
    )
    assert "Il sorteggio di" in refused.content.decode() and "è già fatto" in (
        refused.content.decode()
    )


def test_every_message_of_the_site_has_its_italian():
    """Nothing half-translated: no fuzzy entry and no empty translation in the catalogue."""
    from tests.conftest import ROOT

    text = (ROOT / "locale/it/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]  # the first is the header
    fuzzy = [e for e in entries if "#, fuzzy" in e]
    empty = [
        e
        for e in entries
        if re.search(r'^msgstr(\[\d\])? ""$', e, re.M) and '\n"' not in e.split("msgstr")[-1]
    ]
    assert not fuzzy and not empty, (fuzzy + empty)[:3]
