"""Serve the site to the players' phones on the venue's network (``make venue``).

``make run`` serves only the laptop itself (127.0.0.1). Here the site listens on every address
of the machine, and the address phones use (SITE_URL, or this machine's LAN address) is put in
the QR codes, the check-in poster and the emails, allowed as a host, and printed.

It serves with DEBUG off: on a shared network nobody must see Django's debug pages (the
settings, the code) when something goes wrong. DEBUG off needs a secret key (made once and
kept in ``.venue-secret-key``, unless SECRET_KEY is set) and the static files collected; the
cookies stay allowed over plain http (SECURE_COOKIES=0), as a LAN has no certificate.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.lan import is_loopback, venue_url

KEY_FILE = Path(settings.BASE_DIR) / ".venue-secret-key"


def venue_secret_key() -> str:
    """SECRET_KEY from the environment, else one made on the first evening and kept, so the
    players' sign-ins last from one evening to the next."""
    if os.environ.get("SECRET_KEY", "").strip():
        return os.environ["SECRET_KEY"].strip()
    if KEY_FILE.exists() and KEY_FILE.read_text().strip():
        return KEY_FILE.read_text().strip()
    key = secrets.token_urlsafe(50)
    KEY_FILE.write_text(key + "\n")
    KEY_FILE.chmod(0o600)
    return key


def venue_environment(port: int) -> dict[str, str]:
    """The environment the site is served with at the venue."""
    site_url = venue_url(port, os.environ.get("SITE_URL", "").strip())
    return {
        **os.environ,
        "SITE_URL": site_url,
        "DEBUG": "0",
        "SECRET_KEY": venue_secret_key(),
        "SECURE_COOKIES": os.environ.get("SECURE_COOKIES", "").strip() or "0",
    }


class Command(BaseCommand):
    help = "Serve the site to the phones on this network and print the address they open."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
        parser.add_argument(
            "--bind",
            default="0.0.0.0",
            help="the address to listen on (default 0.0.0.0: every address of this machine)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        port = options["port"]
        if not 0 < port < 65536:
            raise CommandError(f"--port must be from 1 to 65535, not {port}")
        environment = venue_environment(port)
        address = environment["SITE_URL"]
        host = urlsplit(address).hostname
        if not host or urlsplit(address).scheme not in ("http", "https"):
            raise CommandError(
                f"SITE_URL must be an address such as http://192.168.1.20:8000, not {address!r}"
            )
        manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
        # DEBUG off serves the static files collected (whitenoise), not those of the apps
        collected = subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v0"], env=environment, check=False
        )
        if collected.returncode:
            raise CommandError("Could not collect the static files (see above).")
        self.stdout.write(f"Phones open: {address}/")
        if is_loopback(address):
            self.stdout.write(
                "This machine is on no network: only it can open the site. Join the venue's "
                "Wi-Fi (or set SITE_URL) and start again."
            )
        self.stdout.write(
            "The QR codes, the check-in poster and the emails use this address. "
            f"Serving on {options['bind']}:{port} with DEBUG off; Ctrl-C stops."
        )
        if not get_user_model().objects.exists():
            self.stdout.write(
                "No account yet: `make run` makes the demo club's director, or "
                "`python manage.py createsuperuser` an empty club's."
            )
        self.stdout.flush()
        command = [*manage, "runserver", "--noreload", f"{options['bind']}:{port}"]
        os.execve(sys.executable, command, environment)
