"""Benchmark: the bracket pages of big knockouts, on a throwaway SQLite database.

    .venv/bin/python scripts/bench_bracket.py [--sizes 32 64 128 256] [--repeat 5] [--rows]

For each size a double-elimination event is drawn and its first round played;
then the event page and the printable bracket are requested through Django's
test client. Prints one JSON line per page and size: the best time of
``--repeat`` requests and the number of database queries, which should not grow
with the field (the test suite pins that too). ``--rows`` prints instead the rows of
docs/benchmarks.md's table: each page at the largest size beside the smallest.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_report import Row, met, print_rows, row

ROOT = Path(__file__).resolve().parent.parent


PAGES = {"event": "the event page", "bracket": "the printable bracket"}


def rows(results: list[dict[str, Any]], repeat: int) -> list[Row]:
    """Each page at the largest size, beside the smallest: its time and its queries."""
    found: list[Row] = []
    for name, page in PAGES.items():
        lines = sorted((r for r in results if r["benchmark"] == f"{name} page"), key=_players)
        large, small = lines[-1], lines[0]
        beside = small is not large
        found += [
            row(
                f"{page} of a double elimination of {large['players']} players, round 1 played"
                f" ({large['matches']} matches), "
                + (f"best of {repeat} requests" if repeat > 1 else "one request"),
                round(large["seconds"] * 1000),
                "ms",
                "",
                f"{small['players']} players: {small['seconds'] * 1000:.0f} ms" if beside else "",
            ),
            row(
                f"database queries of {page}, {large['players']} players",
                large["queries"],
                "queries",
                "the same for every size: "
                + met(len({r["queries"] for r in lines}) == 1)
                + (f" ({len(lines)} sizes)" if beside else ""),
                f"{small['players']} players: {small['queries']}" if beside else "",
            ),
        ]
    return found


def _players(result: dict[str, Any]) -> int:
    players: int = result["players"]
    return players


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[32, 64, 128, 256])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rows", action="store_true", help="rows of docs/benchmarks.md")
    options = parser.parse_args()
    results: list[dict[str, Any]] = []

    workdir = tempfile.mkdtemp(prefix="crawford-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # measured as on a laptop (make run), DEBUG's default off
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)

    import datetime

    from club.policy import SYSTEM
    from club.services import player_create
    from matches.models import Match
    from matches.services import match_record_final_score
    from tournaments.models import Entry, Event
    from tournaments.services import event_create, event_draw, tournament_create

    tournament = tournament_create(name="Benchmark", date=datetime.date(2026, 12, 13), user=SYSTEM)
    client = Client()
    for size in options.sizes:
        event = event_create(
            tournament=tournament,
            name=f"{size}",
            format=Event.Format.DOUBLE,
            lengths=[5],
            user=SYSTEM,
        )
        players = [player_create(name=f"Player {size}-{i:03}", user=SYSTEM) for i in range(size)]
        Entry.objects.bulk_create(
            Entry(event=event, player=p, status=Entry.Status.CHECKED_IN) for p in players
        )
        event_draw(event=event, seed=size, user=SYSTEM)
        for match in Match.objects.filter(place__event=event, place__round=1):
            match_record_final_score(match=match, score_a=5, score_b=2, user=SYSTEM)
        for name in ("event", "bracket"):
            url = reverse(name, args=[event.pk])
            client.get(url)
            best = float("inf")
            for _ in range(options.repeat):
                with CaptureQueriesContext(connection) as queries:
                    start = time.perf_counter()
                    response = client.get(url)
                    best = min(best, time.perf_counter() - start)
                assert response.status_code == 200
            result = {
                "benchmark": f"{name} page",
                "players": size,
                "matches": Match.objects.filter(place__event=event).count(),
                "seconds": round(best, 3),
                "queries": len(queries),
            }
            results.append(result)
            if not options.rows:
                print(json.dumps(result), flush=True)
    if options.rows:
        print_rows(rows(results, options.repeat))


if __name__ == "__main__":
    main()
