"""Signing in: a forgotten password reset by mail, and a pause after repeated wrong passwords."""

import re
from datetime import timedelta

import pytest
from django.db.models import F
from django.urls import reverse

pytestmark = pytest.mark.django_db


def sign_in(client, username, password):
    """Through the sign-in form, as a visitor does: True when it lets them in."""
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302 and "_auth_user_id" in client.session


def test_a_forgotten_password_is_reset_through_a_mailed_link(client, director, mailoutbox):
    director.email = "td@example.org"
    director.save()
    page = client.get(reverse("login")).content.decode()
    assert f'<a href="{reverse("password_reset")}">Forgot your password?</a>' in page

    response = client.post(reverse("password_reset"), {"email": "TD@example.org"}, follow=True)
    assert "<h1>Check your email</h1>" in response.content.decode()
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["td@example.org"]
    mail = mailoutbox[0]
    assert "Password reset" in mail.subject and "director" in mail.body  # the username, too
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body).group(1)

    form = client.get(link, follow=True)  # Django moves the token out of the address first
    assert "<h1>Choose a new password</h1>" in form.content.decode()
    chosen = {"new_password1": "backgammon-at-dawn-7", "new_password2": "backgammon-at-dawn-7"}
    done = client.post(form.redirect_chain[-1][0], chosen, follow=True)
    assert "<h1>Password changed</h1>" in done.content.decode()

    assert not sign_in(client, "director", "pw-director-1")  # the old password is gone
    assert sign_in(client, "director", "backgammon-at-dawn-7")
    client.logout()
    again = client.get(link, follow=True).content.decode()  # the link worked once
    assert "<h1>This link no longer works</h1>" in again


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, director, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert "<h1>Check your email</h1>" in response.content.decode()  # no hint who has an account
    assert mailoutbox == []


def test_a_weak_new_password_is_refused_with_the_reason(client, director, mailoutbox):
    director.email = "td@example.org"
    director.save()
    client.post(reverse("password_reset"), {"email": "td@example.org"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    weak = {"new_password1": "password", "new_password2": "password"}
    response = client.post(form.redirect_chain[-1][0], weak)
    assert response.status_code == 200
    assert "This password is too common." in response.content.decode()
    assert sign_in(client, "director", "pw-director-1")  # nothing changed


def test_the_reset_mail_is_in_the_visitors_language(client, director, mailoutbox):
    director.email = "td@example.org"
    director.save()
    client.post(reverse("password_reset"), {"email": "td@example.org"}, HTTP_ACCEPT_LANGUAGE="it")
    assert "Vai alla pagina seguente e scegli una nuova password" in mailoutbox[0].body


def test_the_fifth_wrong_password_pauses_sign_in_even_with_the_right_one(
    client, director, member, settings
):
    from axes.models import AccessAttempt

    assert settings.AXES_FAILURE_LIMIT == 5
    wrong = {"username": "director", "password": "pw-director-2"}
    for _ in range(4):
        response = client.post(reverse("login"), wrong)
        assert "Please enter a correct username and password" in response.content.decode()
    response = client.post(reverse("login"), wrong)
    assert response.status_code == 429
    page = response.content.decode()
    assert "<h1>Sign-in paused</h1>" in page and "paused for 15 minutes" in page
    assert f'<a href="{reverse("password_reset")}">Forgot your password?</a>' in page

    assert not sign_in(client, "director", "pw-director-1")  # the right password waits too
    admin = {"username": "director", "password": "pw-director-1", "next": "/admin/"}
    assert client.post("/admin/login/", admin).status_code == 429  # and the admin's sign-in
    assert sign_in(client, "member", "pw-member-1")  # another account is not held back
    client.logout()

    # the wait is over: the right password works, and the slips are forgotten
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=16))
    assert sign_in(client, "director", "pw-director-1")
    assert not AccessAttempt.objects.filter(username="director").exists()
