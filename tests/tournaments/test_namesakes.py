"""Anyone may sign up under any name: the director's list of requests to enter shows who is
already registered under the asker's name, with club and id (issue 23.8)."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.helpers import page_words as text
from tournaments.services import (
    entry_request_sign_up,
)

pytestmark = pytest.mark.django_db


def sign_up(event, name: str, club: str = "", n: int = 1):
    return entry_request_sign_up(
        event=event,
        username=f"asker{n}",
        password="tavola-reale-42",
        name=name,
        club=club,
        user=AnonymousUser(),
    )


def test_a_request_under_a_registered_name_shows_its_namesakes(director_client, anna, open_event):
    asked = sign_up(open_event, "anna  ROSSI", club="Circolo di Torino")
    other = sign_up(open_event, "Carla Verdi", n=2)
    response = director_client.get(open_event.tournament.get_absolute_url())
    page = response.content.decode()
    request = re.search(rf'<li id="request-{asked.pk}">(.*?)</li>', page, re.S).group(1)
    assert "Already registered under this name:" in request
    assert f'<a href="{anna.get_absolute_url()}">{anna.label}</a>' in html.unescape(request)
    assert f"(Circolo Backgammon Milano, #{anna.pk})" in request
    assert f"#{asked.player.pk})</a>" in request  # the asker, told apart by club and id
    assert request.count("#") == 2  # the asker is not their own namesake
    alone = re.search(rf'<li id="request-{other.pk}">(.*?)</li>', page, re.S).group(1)
    assert "Already registered" not in alone


def test_the_namesakes_are_said_in_italian(director_client, anna, open_event):
    sign_up(open_event, "Anna Rossi")
    response = director_client.get(
        open_event.tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it"
    )
    assert "Già registrati con questo nome:" in text(response)
    assert "qualcuno che si spaccia per lui" in text(response)


def test_the_namesakes_cost_the_same_for_one_request_or_five(director_client, anna, open_event):
    def page() -> tuple[str, int]:
        with CaptureQueriesContext(connection) as done:
            response = director_client.get(open_event.tournament.get_absolute_url())
        return text(response), len(done)

    sign_up(open_event, "Anna Rossi")
    shown, one = page()
    assert shown.count("Already registered under this name:") == 1
    for n in range(2, 6):
        sign_up(open_event, "Anna Rossi" if n % 2 else f"Player {n}", n=n)
    shown, five = page()
    assert shown.count("Already registered under this name:") == 3  # the three Annas
    assert five == one
