"""HTTPS and security headers: what `check --deploy` asks of a server, from the environment the
deployment guide (docs/deployment.md) documents, and the Content-Security-Policy on every page."""

import re
import secrets

import pytest
from django.urls import reverse

from tests.conftest import ROOT
from tests.site.test_settings import python, run

# docs/deployment.md, "Running on a server": the environment of a site behind a TLS proxy
SERVER = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "results.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://results.example.org",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
    "CONN_MAX_AGE": "60",
}
CHECK_DEPLOY = ("manage.py", "check", "--deploy", "--fail-level", "WARNING")


def test_check_deploy_is_clean_with_the_documented_server_settings():
    done = python(*CHECK_DEPLOY, **SERVER)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "System check identified no issues (0 silenced)."
    section = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    section = section.split("## Running on a server")[1]
    section = section.split("\n## ")[0]
    assert all(f"`{name}`" in section for name in SERVER)  # each one is documented


def test_check_deploy_names_what_is_missing():
    done = python(*CHECK_DEPLOY, DEBUG="0", SECRET_KEY=SERVER["SECRET_KEY"], ALLOWED_HOSTS="x.org")
    assert done.returncode != 0
    assert "(security.W004)" in done.stderr and "(security.W008)" in done.stderr  # HSTS, https


PROXIED = """
from django.test import Client, override_settings
client = Client(SERVER_NAME="results.example.org")
plain = client.get("/accounts/login/")
print("plain", plain.status_code, plain["Location"])
uncollected = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
with override_settings(STORAGES={"staticfiles": uncollected}):  # no collectstatic here
    secure = client.get("/accounts/login/", headers={"X-Forwarded-Proto": "https"})
print("secure", secure.status_code, secure["Strict-Transport-Security"])
print("cookie", secure.cookies["csrftoken"]["secure"])
"""


def test_behind_the_proxy_http_is_redirected_and_https_is_kept(tmp_path):
    database = f"sqlite:///{tmp_path / 'empty.sqlite3'}"  # the sign-in page reads no table
    done = run(PROXIED, **SERVER, DATABASE_URL=database)
    assert done.returncode == 0, done.stderr
    assert "plain 301 https://results.example.org/accounts/login/" in done.stdout
    assert "secure 200 max-age=31536000; includeSubDomains; preload" in done.stdout
    assert "cookie True" in done.stdout


def policy(response):
    header = response["Content-Security-Policy"]
    return dict(
        (name, " ".join(values))
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    )


STRICT = {
    "default-src": "'self'",
    "img-src": "'self' data:",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",  # issue 23.11
    "object-src": "'none'",
}


@pytest.mark.django_db
def test_every_page_carries_the_content_security_policy(client, match5, director):
    pages = ["/", reverse("players"), match5.get_absolute_url(), reverse("login")]
    pages += [reverse("password_reset"), reverse("board", args=[match5.pk]), "/no-such-page/"]
    for url in pages:
        assert policy(client.get(url)) == STRICT, url
    for _ in range(5):  # the sign-in pause page too
        paused = client.post(reverse("login"), {"username": "director", "password": "wrong"})
    assert paused.status_code == 429 and policy(paused) == STRICT


def test_no_template_has_inline_script_style_or_handlers():
    """The policy refuses them: behaviour lives in static/*.js, looks in static/*.css."""
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert not re.search(r"\son[a-z]+\s*=", text), template
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), template
        assert "<style" not in text and not re.search(r"\sstyle\s*=", text), template
