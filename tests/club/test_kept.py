"""A visitor's page kept until the next write (club.kept): a player's page, on PostgreSQL.

The keeping rests on PostgreSQL's snapshot, which a test's own transaction hides (its writes
are not committed): these tests commit, as a server does."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.kept import TOKEN_MARK
from club.policy import SYSTEM
from club.services import player_update
from matches.services import match_create, match_record_final_score

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="PostgreSQL's snapshot: on SQLite every page is rendered; "
        "set DATABASE_URL to a PostgreSQL database (.ci/run's PostgreSQL pass does)",
    ),
    pytest.mark.django_db(transaction=True),
]

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def played(anna, bruno, django_user_model, directors_group):
    cache.clear()
    director = django_user_model.objects.create_user("dora", password="pw-dora-1")
    director.groups.add(directors_group)
    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    match_record_final_score(match=match, score_a=3, score_b=1, user=SYSTEM)
    return anna


def test_a_second_visitor_s_page_costs_one_query_and_shows_the_same(played):
    url = played.get_absolute_url()
    first = Client().get(url)
    assert first.status_code == 200 and "Bruno Bianchi" in first.content.decode()
    with CaptureQueriesContext(connection) as queries:
        second = Client().get(url)
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]
    assert TOKEN.sub("", second.content.decode()) == TOKEN.sub("", first.content.decode())
    assert "Cookie" in second["Vary"] and "Accept-Language" in second["Vary"]


def test_any_write_shows_on_the_next_visit(played, bruno):
    url = played.get_absolute_url()
    assert "Bruno Bianchi" in Client().get(url).content.decode()
    player_update(player=bruno, user=SYSTEM, name="Bruno Bianchini")  # another player's name
    assert "Bruno Bianchini" in Client().get(url).content.decode()
    match = match_create(player_a=played, player_b=bruno, length=5, user=SYSTEM)
    match_record_final_score(match=match, score_a=1, score_b=5, user=SYSTEM)
    shown = Client().get(url).content.decode()
    assert "1–5" in shown or "1-5" in shown


def test_each_visitor_posts_with_their_own_token(played):
    """The language menu's form: a kept page never carries another visitor's token."""
    url = played.get_absolute_url()
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    shown, again = first.get(url).content.decode(), second.get(url).content.decode()
    assert TOKEN_MARK not in shown and TOKEN_MARK not in again
    for visitor, html in ((first, shown), (second, again)):
        posted = visitor.post(
            reverse("set_language"),
            {"csrfmiddlewaretoken": TOKEN.findall(html)[0], "language": "it", "next": url},
        )
        assert posted.status_code == 302, "a visitor's own token is refused"


def test_each_language_and_anyone_signed_in_get_their_own_page(played, django_user_model):
    url = played.get_absolute_url()
    assert "Rating history" in Client().get(url).content.decode()
    italian = Client().get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Andamento del rating FIBS" in italian
    director = Client()
    director.force_login(django_user_model.objects.get(username="dora"))
    edit = reverse("player_edit", args=[played.pk])
    assert edit in director.get(url).content.decode()  # rendered for them, not the kept one
    assert edit not in Client().get(url).content.decode()
