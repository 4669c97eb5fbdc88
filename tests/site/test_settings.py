"""What an operator sets in the environment, and what the site then does (docs/deployment.md:
Running on a server). Settings are read once, at start-up, so each case starts Python afresh."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

SERVER = {"DEBUG": "0", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "testserver"}


def python(*args, **env):
    """Python in the project folder with this environment, over the server's defaults."""
    unset = ("SECURE_", "EMAIL_", "DJANGO_ALLOW_ASYNC_UNSAFE")  # the tests' own is not a server's
    clean = {k: v for k, v in os.environ.items() if not k.startswith(unset)}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **SERVER, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def run(code, **env):
    """Run code after django.setup() with this environment."""
    return python("-c", "import django; django.setup()\n" + code, **env)


def settings_of(*names, **env):
    """The named settings as the site reads them from this environment."""
    code = "import json; from django.conf import settings as s\n"
    code += f"print(json.dumps({{n: getattr(s, n) for n in {names!r}}}, default=str))"
    done = run(code, **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


BOOM = """
from django.test import Client, override_settings
from django.urls import path

def boom(request):
    raise RuntimeError("the board fell off the table")

urlpatterns = [path("tables/7/", boom)]
with override_settings(ROOT_URLCONF="__main__"):
    response = Client(raise_request_exception=False).get("/tables/7/")
print("status", response.status_code)
"""


def test_a_server_error_is_logged_to_stderr_with_its_path_and_mailed_to_the_admins():
    done = run(BOOM, ADMINS="Ann Rossi <ann@example.org>, bob@example.org")
    assert done.returncode == 0, done.stderr
    assert "status 500" in done.stdout  # the visitor gets the plain error page
    lines = done.stderr.splitlines()
    # one line an operator can grep for, naming what failed, then the traceback
    line = next(line for line in lines if " ERROR django.request " in line)
    assert line.endswith("ERROR django.request Internal Server Error: /tables/7/")
    assert "RuntimeError: the board fell off the table" in lines
    # no EMAIL_HOST: the mail to the admins is printed on the console
    assert "To: ann@example.org, bob@example.org" in done.stdout
    assert "Subject: [Crawford] ERROR (EXTERNAL IP): Internal Server Error: /tables/7/" in (
        done.stdout
    )


def test_admins_that_are_not_addresses_are_refused_in_plain_words():
    done = run("", ADMINS="Ann Rossi")
    assert done.returncode != 0
    assert "ADMINS: 'Ann Rossi' is not a list of email addresses" in done.stderr


def test_kept_database_connections_are_checked_before_reuse():
    kept = settings_of("DATABASES", CONN_MAX_AGE="60")["DATABASES"]["default"]
    assert kept["CONN_MAX_AGE"] == 60 and kept["CONN_HEALTH_CHECKS"] is True
    fresh = settings_of("DATABASES", CONN_MAX_AGE="0")["DATABASES"]["default"]
    assert fresh["CONN_MAX_AGE"] == 0 and fresh["CONN_HEALTH_CHECKS"] is False
    done = run("", CONN_MAX_AGE="a minute")
    assert done.returncode != 0
    assert "CONN_MAX_AGE must be a whole number from 0, not 'a minute'" in done.stderr


def test_mail_goes_through_smtp_when_a_host_is_set():
    laptop = settings_of("EMAIL_BACKEND", "SERVER_EMAIL", DEFAULT_FROM_EMAIL="club@example.org")
    assert laptop == {
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
        "SERVER_EMAIL": "club@example.org",  # error mails come from the club's address too
    }
    names = ("EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "EMAIL_HOST_USER")
    server = settings_of(*names, EMAIL_HOST="smtp.example.org", EMAIL_HOST_USER="crawford")
    assert server == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_USE_TLS": True,
        "EMAIL_HOST_USER": "crawford",
    }
    relay = settings_of("EMAIL_PORT", "EMAIL_USE_TLS", EMAIL_HOST="localhost", EMAIL_USE_TLS="0")
    assert relay == {"EMAIL_PORT": 25, "EMAIL_USE_TLS": False}


def test_the_sign_in_pause_lasts_as_long_as_the_environment_says():
    assert settings_of("AXES_COOLOFF_TIME")["AXES_COOLOFF_TIME"] == "0:15:00"
    assert settings_of("AXES_COOLOFF_TIME", LOGIN_COOLOFF_MINUTES="60") == {
        "AXES_COOLOFF_TIME": "1:00:00"
    }
    done = run("", LOGIN_COOLOFF_MINUTES="0")  # 0 would lock an account for good
    assert "LOGIN_COOLOFF_MINUTES must be a whole number from 1, not '0'" in done.stderr


def test_the_match_file_limit_and_django_s_own_limit_above_it():
    names = ("MATCH_FILE_MAX_BYTES", "MATCH_FILE_REQUEST_MAX_BYTES", "DATA_UPLOAD_MAX_MEMORY_SIZE")
    assert settings_of(*names) == {
        "MATCH_FILE_MAX_BYTES": 1_000_000,  # 1 MB: a 25-point match is about 30 kB
        "MATCH_FILE_REQUEST_MAX_BYTES": 2_065_536,
        "DATA_UPLOAD_MAX_MEMORY_SIZE": 2_621_440,  # Django's default, already above it
    }
    larger = settings_of(*names, MATCH_FILE_MAX_KB="3000")
    assert larger["MATCH_FILE_MAX_BYTES"] == 3_000_000
    assert larger["DATA_UPLOAD_MAX_MEMORY_SIZE"] == larger["MATCH_FILE_REQUEST_MAX_BYTES"]
    done = run("", MATCH_FILE_MAX_KB="1 MB")
    assert "MATCH_FILE_MAX_KB must be a whole number from 1, not '1 MB'" in done.stderr


KEEP = """
from django.core.cache import caches
cache = caches["default"]
from rules.matfile import read_mat
from rules.replay import replay_match
from tests.conftest import DATA
replay = replay_match(read_mat((DATA / "corpus/mat/gnubg-scripts_test-match01.mat").read_bytes()))
cache.set("site-test-replay", replay, 60)
print("kept", cache.get("site-test-replay") == replay, type(cache).__name__)
cache.delete("site-test-replay")
"""


def test_replays_are_kept_in_memory_or_in_redis_for_every_worker():
    caches = settings_of("CACHES")["CACHES"]["default"]
    assert caches["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    try:
        import redis  # noqa: F401
    except ImportError:  # the server extra is not installed here: said in plain words
        done = run("", REDIS_URL="redis://127.0.0.1:6379/0")
        assert "REDIS_URL is set but the redis package is not installed" in done.stderr
        return
    done = run(KEEP, REDIS_URL="redis://127.0.0.1:6379/0")
    if "ConnectionError" in done.stderr:
        pytest.skip("no Redis answers on 127.0.0.1:6379")
    assert done.stdout.split() == ["kept", "True", "RedisCache"], done.stderr
