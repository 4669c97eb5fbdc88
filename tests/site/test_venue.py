"""The evening at the venue (issue 24.7): the players' phones reach the director's laptop.

`make venue` serves the site on the network and prints the address phones open; that
address (SITE_URL, or the machine's LAN address) is what the QR codes, the check-in poster and
the emails carry, and the site answers to it (ALLOWED_HOSTS). DEBUG is off while it serves.
"""

from __future__ import annotations

import io
import re
import socket
import subprocess

import pytest
import segno
from django.core.management import CommandError, call_command
from django.urls import reverse

from club import lan
from club.management.commands import venue
from club.services import invitation_issue
from tests.conftest import ROOT
from tests.site.test_settings import run, settings_of

VENUE = "http://192.168.1.20:8000"


def encoded(page_text: str) -> str:
    """The QR code's SVG on a page (what a phone's camera reads)."""
    return re.search(r"<svg.*?</svg>", page_text, re.S).group(0)


def svg_of(link: str) -> str:
    code = segno.make(link, error="m", micro=False)
    return code.svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", lineclass="qr-line", light="#fff"
    )


# --- the QR codes and printed links carry the address phones open -----------------------------


@pytest.mark.django_db
def test_the_check_in_poster_encodes_site_url_not_the_laptop_s_own_address(
    director_client, tournament, settings
):
    settings.SITE_URL = VENUE
    # the director's own browser is on the laptop (127.0.0.1): no phone reaches that
    page = director_client.get(
        reverse("check_in_poster", args=[tournament.pk]), HTTP_HOST="127.0.0.1"
    ).content.decode()
    link = f"{VENUE}/tournaments/{tournament.pk}/here/"
    assert link in page and "127.0.0.1" not in page
    assert encoded(page) == svg_of(link)


@pytest.mark.django_db
def test_an_invitation_card_encodes_site_url(director_client, anna, director, settings):
    settings.SITE_URL = VENUE
    invitation = invitation_issue(player=anna, user=director)
    page = director_client.get(
        reverse("player_invitation", args=[anna.pk]), HTTP_HOST="127.0.0.1"
    ).content.decode()
    link = f"{VENUE}{invitation.get_absolute_url()}"
    assert link in page
    assert encoded(page) == svg_of(link)


@pytest.mark.django_db
def test_without_site_url_the_poster_uses_the_address_the_page_was_asked_at(
    director_client, tournament, settings
):
    settings.SITE_URL = ""
    page = director_client.get(reverse("check_in_poster", args=[tournament.pk])).content.decode()
    link = f"http://testserver/tournaments/{tournament.pk}/here/"
    assert encoded(page) == svg_of(link)


# --- the settings: the address is allowed, a wrong one refused in plain words ----------------


def test_allowed_hosts_follows_site_url():
    hosts = settings_of("ALLOWED_HOSTS", SITE_URL=f"{VENUE}/")["ALLOWED_HOSTS"]
    assert hosts == ["testserver", "192.168.1.20"]
    laptop = "127.0.0.1,localhost"  # the default
    hosts = settings_of("ALLOWED_HOSTS", SITE_URL=VENUE, ALLOWED_HOSTS=laptop)["ALLOWED_HOSTS"]
    assert hosts == ["127.0.0.1", "localhost", "192.168.1.20"]
    assert settings_of("ALLOWED_HOSTS", ALLOWED_HOSTS="*", SITE_URL=VENUE)["ALLOWED_HOSTS"] == ["*"]


def test_a_site_url_that_is_no_address_is_refused_in_plain_words():
    done = run("", SITE_URL="192.168.1.20:8000")
    assert done.returncode != 0
    assert "SITE_URL must be an address such as http://192.168.1.20:8000" in done.stderr


# --- the machine's address on the network ----------------------------------------------------


def test_the_lan_address_is_this_machine_s_own_ipv4_address():
    address = lan.lan_address()
    assert socket.inet_aton(address)  # four numbers, no name
    assert not address.startswith("0.")


def test_a_machine_on_no_network_gets_the_loopback_address(monkeypatch):
    class NoRoute(socket.socket):
        def connect(self, address):
            raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(lan.socket, "socket", NoRoute)
    assert lan.lan_address() == "127.0.0.1"
    assert lan.is_loopback(lan.venue_url(8000))


# --- the command: prints the address, serves on the network with DEBUG off -------------------


@pytest.fixture
def served(monkeypatch, tmp_path):
    """`manage.py venue`, stopped where it would start the server: what it would run."""
    calls = {}

    def collect(command, env, check):
        calls["collect"] = command
        return subprocess.CompletedProcess(command, 0)

    def serve(program, command, env):
        calls["serve"], calls["env"] = command, env

    monkeypatch.setattr(venue.subprocess, "run", collect)
    monkeypatch.setattr(venue.os, "execve", serve)
    monkeypatch.setattr(venue, "KEY_FILE", tmp_path / ".venue-secret-key")
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.20")
    for name in ("SITE_URL", "SECRET_KEY", "SECURE_COOKIES", "DEBUG"):
        monkeypatch.delenv(name, raising=False)

    def start(**options):
        out = io.StringIO()
        call_command("venue", stdout=out, **options)
        return out.getvalue(), calls

    return start


@pytest.mark.django_db
def test_the_command_prints_the_address_phones_open_and_serves_the_network(served):
    said, calls = served(port=8123)
    assert "Phones open: http://192.168.1.20:8123/" in said
    assert calls["serve"][-1] == "0.0.0.0:8123" and "runserver" in calls["serve"]
    assert "collectstatic" in calls["collect"]
    env = calls["env"]
    assert env["SITE_URL"] == "http://192.168.1.20:8123"
    # DEBUG is never on for the whole network to see; cookies still go over the LAN's http
    assert env["DEBUG"] == "0" and env["SECURE_COOKIES"] == "0"
    assert len(env["SECRET_KEY"]) > 40
    assert "No account yet" in said  # an empty database says how to get one


@pytest.mark.django_db
def test_the_command_keeps_its_secret_key_from_one_evening_to_the_next(served):
    first = served(port=8000)[1]["env"]["SECRET_KEY"]
    assert served(port=8000)[1]["env"]["SECRET_KEY"] == first


@pytest.mark.django_db
def test_site_url_set_by_the_director_is_the_address_printed(served, monkeypatch):
    monkeypatch.setenv("SITE_URL", "http://crawford.lan:8000/")
    said, calls = served(port=8000)
    assert "Phones open: http://crawford.lan:8000/" in said
    assert calls["env"]["SITE_URL"] == "http://crawford.lan:8000"


@pytest.mark.django_db
def test_on_no_network_the_command_says_phones_cannot_reach_it(served, monkeypatch):
    monkeypatch.setattr(lan, "lan_address", lambda: "127.0.0.1")
    said, _ = served(port=8000)
    assert "on no network" in said


@pytest.mark.django_db
def test_a_port_out_of_range_is_refused(served):
    with pytest.raises(CommandError, match="--port must be from 1 to 65535"):
        served(port=70000)


def test_the_served_site_has_debug_off_answers_the_address_and_sends_cookies_over_http(
    monkeypatch, tmp_path
):
    """What the served process reads: the command's environment, settings read afresh."""
    monkeypatch.setattr(venue, "KEY_FILE", tmp_path / ".venue-secret-key")
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.20")
    monkeypatch.delenv("SITE_URL", raising=False)
    env = venue.venue_environment(8000)
    keep = ("SITE_URL", "DEBUG", "SECRET_KEY", "SECURE_COOKIES")
    found = settings_of(
        "DEBUG", "ALLOWED_HOSTS", "SESSION_COOKIE_SECURE", **{k: env[k] for k in keep}
    )
    assert found["DEBUG"] is False and found["SESSION_COOKIE_SECURE"] is False
    assert "192.168.1.20" in found["ALLOWED_HOSTS"]


def test_make_venue_runs_the_command_on_the_port_asked():
    done = subprocess.run(
        ["make", "-n", "venue", "PORT=8123"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "manage.py venue --port 8123" in done.stdout
