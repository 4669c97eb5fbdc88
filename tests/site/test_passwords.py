"""A new password is not like the user name and not all digits, said on the forms that make
an account (an invitation, asking to enter an event) in the visitor's language (issue 23.11)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.urls import reverse

from club.services import invitation_issue

pytestmark = pytest.mark.django_db

REFUSALS = {
    "numeric": {
        "password": "20261122",
        "en": "This password is entirely numeric.",
        "it": "Questa password è interamente numerica.",
    },
    "like the user name": {
        "password": "carlaverdi7",
        "en": "The password is too similar to the username.",
        "it": "La password è troppo simile a nome utente.",
    },
}


def sign_up(password: str) -> dict[str, str]:
    return {
        "name": "Carla Verdi",
        "club": "",
        "email": "",
        "phone": "",
        "username": "carlaverdi",
        "password1": password,
        "password2": password,
    }


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("kind", REFUSALS)
def test_asking_to_enter_refuses_a_weak_password_in_words(client, open_event, kind, language):
    refusal = REFUSALS[kind]
    response = client.post(
        reverse("event_ask", args=[open_event.pk]),
        sign_up(refusal["password"]),
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert refusal[language] in response.content.decode()
    assert not get_user_model().objects.filter(username="carlaverdi").exists()


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("kind", REFUSALS)
def test_an_invitation_refuses_a_weak_password_in_words(client, anna, director, kind, language):
    refusal = REFUSALS[kind]
    invitation = invitation_issue(player=anna, user=director)
    password = refusal["password"]
    response = client.post(
        reverse("invitation", args=[invitation.token]),
        {"username": "carlaverdi", "password1": password, "password2": password},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert refusal[language] in response.content.decode()
    assert not get_user_model().objects.filter(username="carlaverdi").exists()


def test_the_passwords_the_suite_types_into_forms_pass(django_user_model):
    """The passwords the other tests make accounts with on the pages are still accepted."""
    for username in ("anna", "carla", "intruder", "late", "first", "player"):
        validate_password("tavola-reale-42", django_user_model(username=username))
    validate_password("backgammon-at-dawn-7", django_user_model(username="director"))
