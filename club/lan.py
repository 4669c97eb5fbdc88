"""This machine's address on the venue's network: the one phones on the same Wi-Fi open.

``make venue`` serves the site to the players' phones; the QR codes, the check-in poster and
the emails must then carry an address a phone can reach, not 127.0.0.1 (the laptop itself).
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

# TEST-NET-1 (RFC 5737): an address no network answers. "Connecting" a UDP socket sends
# nothing; it only makes the system choose the interface (and so our address) it would use.
OUTSIDE = ("192.0.2.1", 9)
LOOPBACK = "127.0.0.1"


def lan_address() -> str:
    """The address this machine has on its network, or 127.0.0.1 when it has none (no Wi-Fi:
    then only the machine itself reaches the site)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(OUTSIDE)
            address = probe.getsockname()[0]
        except OSError:  # no route anywhere: not on a network
            return LOOPBACK
    return address if address and address != "0.0.0.0" else LOOPBACK


def venue_url(port: int, site_url: str = "") -> str:
    """The address phones open: SITE_URL when the director set one (a name the venue's
    router gives the laptop, say), else this machine's LAN address and the port served."""
    if site_url:
        return site_url.rstrip("/")
    return f"http://{lan_address()}:{port}"


def is_loopback(url: str) -> bool:
    """True for an address only this machine can open (127.x, localhost, ::1)."""
    host = urlsplit(url).hostname or ""
    return host == "localhost" or host.startswith("127.") or host == "::1"
