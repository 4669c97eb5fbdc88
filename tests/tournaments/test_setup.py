"""Settings from the environment, and the demo club that `make run` loads."""

import os
import subprocess
import sys

import pytest
from django.core.management import call_command

from club.models import Player
from matches.models import Game, Match
from tests.conftest import ROOT


def settings_with(**env):
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_debug_off_refuses_the_development_secret_key():
    done = settings_with(DEBUG="0", SECRET_KEY="crawford-development-key-not-for-servers")
    assert done.returncode != 0 and "SECRET_KEY is the development default" in done.stderr
    done = settings_with(DEBUG="0", SECRET_KEY="a-real-secret-from-the-environment")
    assert done.returncode == 0 and done.stdout.strip() == "False"


@pytest.mark.django_db
def test_the_demo_club_loads_once(capsys, tmp_path, settings, client):
    settings.BASE_DIR = tmp_path  # the password file goes here, not into the checkout
    settings.DEBUG = True  # a director's laptop (tests run with DEBUG off, like a server)
    call_command("demo_club")
    first = capsys.readouterr().out
    from tournaments.models import Event, Tournament

    def counts():
        models = (Player, Match, Game, Tournament, Event)
        return tuple(model.objects.count() for model in models)

    loaded = counts()
    call_command("demo_club")
    second = capsys.readouterr().out
    # the club (8 players, 4 matches), a tournament (4 guests, a main draw and a Swiss) and
    # one on time rules (a Swiss of the club's players)
    assert loaded[0] == 12 and loaded[1] > 4 and loaded[2] > 0 and loaded[3:] == (2, 3)
    assert Match.objects.filter(place__isnull=False, status="finished").exists()
    assert counts() == loaded
    assert "already loaded" in second
    password = first.split("Director account: director / password: ")[1].split()[0]
    assert "Demo tournament loaded" in first
    assert f"Director account: director / password: {password}" in second
    # the printed account signs in through the form (where the sign-in protection sees it)
    response = client.post("/accounts/login/", {"username": "director", "password": password})
    assert response.status_code == 302 and response.wsgi_request.user.username == "director"
    user = response.wsgi_request.user
    assert user.is_staff and user.groups.filter(name="Directors").exists()
