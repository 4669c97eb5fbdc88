"""A forgotten password reaches the address the person's mail goes to (issue 25.1), in their
language and saying how long the link works, Django's missing Italian supplied (issue 25.8)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from club.models import Player
from matches.models import Notifications

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna_account(anna):
    """Anna's own sign-in, made when her address was the old one (copied to the account)."""
    account = get_user_model().objects.create_user(
        "anna", email="anna.old@example.org", password="pw-anna-1"
    )
    Player.objects.filter(pk=anna.pk).update(user=account, email="anna.old@example.org")
    return account


def reset(client, email, language="en"):
    return client.post(
        reverse("password_reset"), {"email": email}, follow=True, HTTP_ACCEPT_LANGUAGE=language
    )


def link_in(mail) -> str:
    return re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body).group(1)


def test_a_reset_goes_to_the_address_the_player_changed_to(client, anna_account, mailoutbox):
    client.force_login(anna_account)
    details = {"name": "Anna Rossi", "club": "Circolo Backgammon Milano", "phone": ""}
    changed = client.post(reverse("my_profile"), {**details, "email": "anna.new@example.org"})
    assert changed.status_code == 302
    emails_page = client.get(reverse("notifications")).content.decode()
    assert "They go to anna.new@example.org." in emails_page  # what /me/emails/ promises
    client.logout()

    reset(client, "anna.old@example.org")
    assert mailoutbox == []  # the old address gets nothing

    response = reset(client, "Anna.New@example.org")
    assert "<h1>Check your email</h1>" in response.content.decode()
    assert [mail.to for mail in mailoutbox] == [["anna.new@example.org"]]
    form = client.get(link_in(mailoutbox[0]), follow=True)  # the link works
    chosen = {"new_password1": "backgammon-at-dawn-7", "new_password2": "backgammon-at-dawn-7"}
    done = client.post(form.redirect_chain[-1][0], chosen, follow=True)
    assert "<h1>Password changed</h1>" in done.content.decode()
    signed_in = {"username": "anna", "password": "backgammon-at-dawn-7"}
    assert client.post(reverse("login"), signed_in).status_code == 302


def test_a_director_changing_the_address_moves_the_reset_too(
    client, director, anna_account, mailoutbox
):
    from club.services import player_update

    player_update(player=Player.objects.get(user=anna_account), user=director, email="a@club.it")
    anna_account.refresh_from_db()
    assert anna_account.email == "a@club.it"  # one address per person, kept in step
    reset(client, "a@club.it")
    assert [mail.to for mail in mailoutbox] == [["a@club.it"]]


def test_an_account_out_of_step_is_found_by_the_players_address(client, anna_account, mailoutbox):
    """An account made before the two were kept in step: the player's address decides."""
    Player.objects.filter(user=anna_account).update(email="anna.new@example.org")
    reset(client, "anna.old@example.org")
    assert mailoutbox == []
    reset(client, "anna.new@example.org")
    assert [mail.to for mail in mailoutbox] == [["anna.new@example.org"]]


def test_an_unknown_address_shows_the_same_page_as_a_known_one(client, anna_account, mailoutbox):
    known = reset(client, "anna.old@example.org")
    unknown = reset(client, "nobody@example.org")
    assert unknown.redirect_chain == known.redirect_chain
    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    page = [token.sub("", answer.content.decode()) for answer in (known, unknown)]
    assert page[0] == page[1]  # the same page: nothing tells who has an account
    assert [mail.to for mail in mailoutbox] == [["anna.old@example.org"]]


@pytest.mark.parametrize(
    "language, advice",
    [
        ("en", "once signed in, you change it in My details"),
        ("it", "dopo l’accesso lo cambi in I miei dati"),
    ],
)
def test_the_reset_page_says_who_can_correct_the_address(client, db, language, advice):
    page = client.get(reverse("password_reset"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert advice in page
    assert "admin" not in page.split("<main")[-1].lower()  # a director cannot, there


@pytest.mark.parametrize(
    "language, subject, validity",
    [
        ("en", "[Crawford] Password reset", "The link works once, for 3 days."),
        ("it", "[Crawford] Reimpostazione della password", "una sola volta, per 3 giorni."),
    ],
)
def test_the_reset_mail_is_the_sites_own_in_the_visitors_language(
    client, anna_account, mailoutbox, language, subject, validity
):
    reset(client, "anna.old@example.org", language)
    mail = mailoutbox[0]
    assert mail.subject == subject
    assert validity in mail.body and "“anna”" in mail.body


def test_the_reset_mail_is_in_the_language_the_player_chose(
    client, anna, anna_account, mailoutbox, settings
):
    Notifications.objects.create(player=anna, emails=True, language="it")
    settings.PASSWORD_RESET_TIMEOUT = 2 * 3600
    reset(client, "anna.old@example.org", "en")
    assert "Il link funziona una sola volta, per 2 ore." in mailoutbox[0].body


def test_a_short_password_is_refused_in_italian(client, anna_account, mailoutbox):
    reset(client, "anna.old@example.org", "it")
    form = client.get(link_in(mailoutbox[0]), follow=True, HTTP_ACCEPT_LANGUAGE="it")
    short = {"new_password1": "bg7x", "new_password2": "bg7x"}
    page = client.post(form.redirect_chain[-1][0], short, HTTP_ACCEPT_LANGUAGE="it")
    text = page.content.decode()
    assert "Questa password è troppo corta. Deve contenere almeno 8 caratteri." in text
    assert "too short" not in text
