"""Two web instances and a job worker sharing one PostgreSQL and one Redis
(scripts/two_instances.py, docs/deployment.md): a visitor may land on either instance between
two requests, and must not notice. Signed in through one, signed in on the other; a result
recorded through one, shown on the other's live page; the API's rate and the sign-in lockout
counted once for both."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from html import unescape
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="two web instances share a PostgreSQL server (run with DATABASE_URL=postgres://"
        "...); the suite's SQLite database lives in this one process",
    ),
    pytest.mark.skipif(
        not GUNICORN.exists(),
        reason="gunicorn is not installed (make test installs it from requirements/test.txt)",
    ),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    """One visitor: its cookies go with it to whichever instance it asks (as behind a proxy)."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def ask(self, base, method, path, form=None, headers=None):
        where = urlsplit(base)
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Referer"] = base + path
        link = http.client.HTTPConnection(where.hostname, where.port, timeout=20)
        link.request(method, path, body=body, headers=sent)
        response = link.getresponse()
        text = response.read().decode("utf-8", "replace")
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _eq, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        link.close()
        return response, text

    def sign_in(self, base, username, password):
        _r, page = self.ask(base, "GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = {"csrfmiddlewaretoken": token, "username": username, "password": password}
        return self.ask(base, "POST", "/accounts/login/", form)

    def token(self, base, path):
        _r, page = self.ask(base, "GET", path)
        return page, re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def words(text: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", text)))


@pytest.fixture(scope="module")
def site():
    """Both instances and the worker, with the API's anonymous rate low enough to reach."""
    ports = [free_port(), free_port()]
    database = f"crawford_two_{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    process = subprocess.Popen(
        [
            sys.executable,
            "scripts/two_instances.py",
            "--ports",
            *map(str, ports),
            "--workers",
            "1",
            "--database",
            database,
            "--redis-db",
            "9",
            "--env",
            "API_RATE_ANONYMOUS=6/min",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = " "
        while line and not line.startswith("{"):
            line = process.stdout.readline()
        if not line:
            pytest.fail(f"scripts/two_instances.py stopped ({process.wait(30)})")
        yield json.loads(line)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)


CONTENT = {"HX-Request": "true", "HX-Target": "live"}


def test_a_visitor_may_land_on_either_instance(site):
    a, b = site["instances"]
    director = Browser()
    response, _page = director.sign_in(a, *site["director"])
    assert response.status == 302, "signing in through A"
    response, page = director.ask(b, "GET", "/jobs/")
    assert response.status == 200 and "My background work" in page  # B knows the session

    bracket = f"/events/{site['event']}/bracket/"
    first, before = director.ask(b, "GET", bracket, headers=CONTENT)
    tag = first.getheader("ETag")
    assert first.status == 200 and tag
    same, _ = director.ask(b, "GET", bracket, headers={**CONTENT, "If-None-Match": tag})
    assert same.status == 304

    match = f"/matches/{site['match']}/"
    page, token = director.token(a, match)
    form = {"csrfmiddlewaretoken": token, "number": 1, "winner": 0, "cube": 2, "result": "single"}
    recorded, _ = director.ask(a, "POST", f"{match}games/", form)
    assert recorded.status == 302, "a game recorded through A's page"
    _r, shown = director.ask(a, "GET", recorded.getheader("Location"))  # its "recorded" note
    assert "Game 1 is recorded" in words(shown) and "Score 2–0" in words(shown)

    changed, after = director.ask(b, "GET", bracket, headers={**CONTENT, "If-None-Match": tag})
    assert changed.status == 200 and changed.getheader("ETag") not in (None, tag)
    # the bracket's line for the match: each player, then the score
    assert re.search(r"Giocatore 04 2 5 Giocatore 05 0", words(after))
    assert not re.search(r"Giocatore 04 2 5 Giocatore 05 0", words(before))
    again, _ = director.ask(
        a, "GET", bracket, headers={**CONTENT, "If-None-Match": changed.getheader("ETag")}
    )
    assert again.status == 304  # A and B agree on what the page is now


def test_work_tried_again_through_one_is_run_by_the_worker_and_seen_on_the_other(site):
    a, b = site["instances"]
    director = Browser()
    director.sign_in(b, *site["director"])
    job = f"/jobs/{site['failed_job']}/"
    _page, token = director.token(a, job)
    response, _ = director.ask(a, "POST", f"{job}again/", {"csrfmiddlewaretoken": token})
    assert response.status == 302, "Try again, through A"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        _r, page = director.ask(b, "GET", job)
        if "Done" in words(page) or "Failed" in words(page):
            break
        time.sleep(0.5)
    assert "Done" in words(page), words(page)
    assert "Every rating was worked out again from the first rated match." in words(page)


def test_the_api_rate_is_counted_once_for_both(site):
    a, b = site["instances"]
    visitor = Browser()
    answers = [visitor.ask(a if n % 2 else b, "GET", "/api/v1/tournaments")[0] for n in range(6)]
    assert [r.status for r in answers] == [200] * 6
    refused, _text = visitor.ask(a, "GET", "/api/v1/tournaments")
    assert refused.status == 429  # the seventh in a minute, three of them through each
    refused_b, _ = visitor.ask(b, "GET", "/api/v1/tournaments")
    assert refused_b.status == 429


def test_wrong_passwords_split_across_both_lock_the_account(site):
    a, b = site["instances"]
    visitor = Browser()
    for n in range(4):
        response, page = visitor.sign_in(a if n % 2 else b, "someone", "not-the-password")
        assert response.status == 200  # the form again, with its refusal
        assert "Please enter a correct username and password" in words(page)
    response, page = visitor.sign_in(a, "someone", "not-the-password")  # the fifth, through A
    assert response.status == 429 and "Too many wrong passwords" in words(page)
    for base in (a, b):  # the right password now waits its time, on either
        response, page = visitor.sign_in(base, "someone", "two-instances-1")
        assert response.status == 429 and "Sign-in paused" in words(page)
