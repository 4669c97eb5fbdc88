"""The cache down (Redis unreachable): the site answers without it and says so once.

Issue 23.2: with Redis unreachable the API and every live page answered 500, one error a poll.
The cache only holds what can be computed again (rate counts, live pages' content, replays),
so an outage degrades: rate limits fail open, pages are rendered, and the log has one warning.
"""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

from tournaments.models import Event
from tournaments.services import event_draw

pytestmark = pytest.mark.django_db

CONTENT = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"}  # what site.js sends


@pytest.fixture
def drawn(event_with, director):
    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=3, user=director)
    return event


def cache_warnings(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "cache" in r.getMessage().lower()]


@pytest.mark.parametrize("resource", ["tournaments", "matches", "players"])
def test_the_api_answers_and_its_304_with_the_cache_down(client, cache_down, drawn, resource):
    first = client.get(f"/api/v1/{resource}")
    assert first.status_code == 200 and first.json()["count"] >= 1
    again = client.get(f"/api/v1/{resource}", headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304


def test_a_live_page_its_content_and_its_poll_answer_with_the_cache_down(client, cache_down, drawn):
    url = reverse("now_playing", args=[drawn.tournament_id])
    page = client.get(url)
    assert page.status_code == 200
    content = client.get(url, **CONTENT)  # the content alone is what the cache keeps
    assert content.status_code == 200 and b"<html" not in content.content
    assert client.get(url, HTTP_IF_NONE_MATCH=content["ETag"], **CONTENT).status_code == 304
    event = client.get(reverse("event", args=[drawn.pk]), **CONTENT)
    assert event.status_code == 200


def test_many_polls_log_one_warning_not_an_error_each(client, cache_down, drawn, caplog):
    caplog.set_level(logging.INFO)
    url = reverse("now_playing", args=[drawn.tournament_id])
    for _ in range(10):
        assert client.get("/api/v1/players").status_code == 200
        assert client.get(url, **CONTENT).status_code == 200
    warned = cache_warnings(caplog)
    assert len(warned) == 1 and warned[0].levelno == logging.WARNING
    assert "127.0.0.1:1" in warned[0].getMessage()  # which cache, for the operator
    assert warned[0].exc_info is None  # one line, no traceback
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
