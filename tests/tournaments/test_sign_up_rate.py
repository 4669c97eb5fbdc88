"""Asking to enter an event makes an account: so many an hour from one address (issue 23.8).

A script made 30 accounts from one address in 17 seconds. The sign-up is counted per address
as the API counts its calls (SIGN_UP_RATE, django-ninja's throttle in the site's cache), and
refused with a page in plain words (429); with the cache down it is not counted (fails open).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from club.models import Player
from tournaments.models import Event
from tournaments.services import event_create, tournament_open_entry_set

pytestmark = pytest.mark.django_db

PASSWORD = "tavola-reale-42"


@pytest.fixture
def ask(tournament, director, client, settings):
    """ask(n, **request): visitor n makes an account and asks to enter; the response."""
    settings.SIGN_UP_RATE = "3/hour"
    event = event_create(
        tournament=tournament, name="Main", format=Event.Format.SINGLE, lengths=[5], user=director
    )
    tournament_open_entry_set(tournament=tournament, allowed=True, user=director)
    url = reverse("event_ask", args=[event.pk])

    def post(number: int, mistaken: bool = False, **request):
        client.logout()  # each a visitor: a new account signs in at once
        data = {
            "name": f"Giocatore {number}",
            "club": "",
            "email": "",
            "phone": "",
            "username": f"giocatore{number}",
            "password1": PASSWORD,
            "password2": PASSWORD + ("!" if mistaken else ""),
        }
        return client.post(url, data, **request)

    return post


def made() -> int:
    return get_user_model().objects.filter(username__startswith="giocatore").count()


def test_so_many_accounts_an_hour_from_one_address_then_a_page_in_words(ask):
    for number in range(3):
        assert ask(number).status_code == 302
    refused = ask(3)
    assert refused.status_code == 429
    assert 3500 <= int(refused["Retry-After"]) <= 3600
    text = refused.content.decode()
    assert (
        "Too many accounts have been made from your address for now: try again in 60 "
        "minutes, or ask the director to enter you."
    ) in text
    assert made() == 3 and not Player.objects.filter(name="Giocatore 3").exists()
    assert ask(4, REMOTE_ADDR="10.0.0.2").status_code == 302  # another address
    forged = ask(5, HTTP_X_FORWARDED_FOR="10.9.9.9")  # a forged header is not another address
    assert forged.status_code == 429 and made() == 4


def test_the_refusal_in_italian(ask):
    for number in range(3):
        ask(number)
    refused = ask(3, HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 429
    assert (
        "Dal tuo indirizzo sono stati creati troppi account per ora: riprova tra 60 minuti, "
        "o chiedi al direttore di iscriverti."
    ) in refused.content.decode()


def test_a_form_refused_for_its_mistakes_is_not_counted(ask):
    for number in range(5):
        assert ask(number, mistaken=True).status_code == 400  # the passwords differ
    for number in range(3):
        assert ask(number).status_code == 302
    assert made() == 3


def test_behind_a_proxy_each_visitor_is_counted_by_their_own_address(ask, settings):
    settings.NINJA_NUM_PROXIES = 1  # API_PROXIES=1: the proxy appends the visitor's address
    first = {"HTTP_X_FORWARDED_FOR": "203.0.113.7", "REMOTE_ADDR": "127.0.0.1"}
    second = {"HTTP_X_FORWARDED_FOR": "198.51.100.9", "REMOTE_ADDR": "127.0.0.1"}
    for number in range(3):
        assert ask(number, **first).status_code == 302
    assert ask(3, **first).status_code == 429
    assert ask(4, **second).status_code == 302


def test_with_the_cache_down_sign_ups_are_not_counted(ask, cache_down):
    for number in range(5):
        assert ask(number).status_code == 302
    assert made() == 5


def test_the_rate_comes_from_the_environment():
    from tests.site.test_settings import python, settings_of

    assert settings_of("SIGN_UP_RATE") == {"SIGN_UP_RATE": "10/hour"}
    assert settings_of("SIGN_UP_RATE", SIGN_UP_RATE="3/DAY") == {"SIGN_UP_RATE": "3/day"}
    refused = python("-c", "import django; django.setup()", SIGN_UP_RATE="many")
    assert refused.returncode != 0 and "SIGN_UP_RATE must read like 60/min" in refused.stderr
