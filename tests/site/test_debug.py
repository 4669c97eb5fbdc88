"""DEBUG is off unless the environment turns it on; `make run` turns it on for itself.

A server that forgets DEBUG gets plain error pages, secure cookies and a refusal of the
development secret key, never Django's debug pages. Settings are read once, at start-up, so
each case starts Python afresh, with an environment holding only what it names.
"""

import os
import subprocess
import sys

from tests.conftest import ROOT

PRINT_DEBUG = (
    "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
)


def settings_in(**env):
    """Python reading config.settings with PATH and this environment, nothing else."""
    return subprocess.run(
        [sys.executable, "-c", PRINT_DEBUG],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_debug_is_off_when_the_environment_does_not_set_it():
    done = settings_in(SECRET_KEY="a-real-secret-from-the-environment")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_debug_is_on_when_the_environment_turns_it_on():
    for value in ("1", "true", "on"):
        done = settings_in(DEBUG=value)  # the development secret key is allowed then
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "True"
    done = settings_in(DEBUG="0", SECRET_KEY="a-real-secret-from-the-environment")
    assert done.stdout.strip() == "False"


def test_without_debug_nor_a_secret_key_the_site_refuses_to_start_and_says_why():
    done = settings_in()
    assert done.returncode != 0
    assert "SECRET_KEY is the development default" in done.stderr
    assert "DEBUG=1 on a laptop" in done.stderr


def made(target):
    """The manage.py commands `make TARGET` would run (make -n prints them, runs nothing)."""
    done = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return [line for line in done.stdout.splitlines() if "manage.py" in line]


def test_make_run_turns_debug_on_for_itself():
    commands = made("run")
    assert [command.split()[-1] for command in commands] == [
        "--noinput",
        "demo_club",
        "127.0.0.1:8000",
    ]
    assert all(command.startswith("DEBUG=1 ") for command in commands)


def test_make_venue_sets_up_as_a_laptop_and_serves_with_debug_off():
    # the set-up needs no secret key; `manage.py venue` serves the network with DEBUG=0
    # and a key of its own (tests/site/test_venue.py)
    commands = made("venue")
    assert [command.split()[3] for command in commands] == ["migrate", "venue"]
    assert all(command.startswith("DEBUG=1 ") for command in commands)
