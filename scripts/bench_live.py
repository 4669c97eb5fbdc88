"""Benchmark: phones polling a live bracket, against gunicorn on PostgreSQL.

    .venv/bin/python scripts/bench_live.py [--viewers 300] [--every 5] [--seconds 60]
        [--workers 2] [--path /events/{event}/bracket/ ...] [--change-every 5]

Makes a database of its own (``crawford_bench`` on 127.0.0.1:5432, user postgres, trust),
migrates it and loads a 64-player knockout in play at 16 tables, starts gunicorn with
``--workers`` synchronous workers on 127.0.0.1, then ``--viewers`` viewers each ask every
``--every`` seconds for each ``--path`` as the page's script does (the content only:
``HX-Request``, ``HX-Target: live``; ``If-None-Match`` with the ETag of its last answer; half
of them in Italian). Every ``--change-every`` seconds a result is recorded through the
services (a final score), so the next poll of every viewer finds a change and is answered
200 with the new content: both 200s and 304s are measured. A path may name ``{event}`` and
``{tournament}`` (e.g. ``--path /api/v1/tournaments/{tournament}/matches/``).

The load is bounded: 127.0.0.1 only, a fixed number of threads (``--threads``), and it stops
by itself after ``--seconds``; gunicorn is stopped and the database dropped (``--keep``
keeps it). Prints the latency percentiles of the 200s, of the 304s and of all, and the
errors (any other status, or no answer), and one JSON line of the same.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = Path(sys.executable)
DATABASE = "crawford_bench"
SERVER = "postgres://postgres@127.0.0.1:5432"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=300)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between a viewer's polls")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load lasts")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's sync workers")
    parser.add_argument("--threads", type=int, default=32, help="the load generator's threads")
    parser.add_argument("--port", type=int, default=8190)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--change-every", type=float, default=5.0, help="seconds between results")
    parser.add_argument(
        "--path", action="append", help="a path to poll (repeatable); default the bracket"
    )
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    options = parser.parse_args()
    if options.seconds > 600 or options.viewers > 2000:
        parser.error("at most 600 seconds and 2000 viewers: this is a bounded benchmark")

    env = {
        **os.environ,
        "DATABASE_URL": f"{SERVER}/{DATABASE}",
        "DEBUG": "0",
        "SECRET_KEY": "bench-live-not-a-secret-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "0",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
        "PYTHONWARNINGS": "ignore::UserWarning",  # no collected static files: none is asked for
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    _database("DROP DATABASE IF EXISTS", env)
    _database("CREATE DATABASE", env)
    server = None
    try:
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        event = _knockout(options.players)
        paths = [
            p.format(event=event.pk, tournament=event.tournament_id)
            for p in (options.path or ["/events/{event}/bracket/"])
        ]
        gunicorn = PYTHON.parent / "gunicorn"
        server = subprocess.Popen(
            [
                gunicorn,
                "config.wsgi",
                "--workers",
                str(options.workers),
                "--bind",
                f"127.0.0.1:{options.port}",
                "--backlog",
                "2048",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        first = {lang: _wait_for(options.port, paths, lang) for lang in ("en", "it")}
        results = _load(options, paths, event, first)
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        if not options.keep:
            _database("DROP DATABASE IF EXISTS", env)
    _report(options, paths, *results)


def _database(statement: str, env: dict[str, str]) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as connection:
        if statement.startswith("DROP"):  # a connection left by a stopped run
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [DATABASE],
            )
        connection.execute(f"{statement} {DATABASE}")


def _knockout(players: int):
    """A club, a tournament with 16 tables, a knockout of ``players`` drawn and begun."""
    import datetime

    from club.policy import SYSTEM
    from club.services import player_create
    from tournaments.models import Event
    from tournaments.services import (
        entry_check_in,
        entry_register,
        event_create,
        event_draw,
        tournament_create,
    )
    from tournaments.venue import tournament_tables_set

    tournament = tournament_create(
        name="Campionato del circolo", date=datetime.date(2026, 12, 13), user=SYSTEM
    )
    tournament_tables_set(tournament=tournament, count=16, user=SYSTEM)
    event = event_create(
        tournament=tournament,
        name="Main draw",
        format=Event.Format.CONSOLATION,
        lengths=[7, 7, 9, 9, 11, 11, 13],
        user=SYSTEM,
    )
    for number in range(1, players + 1):
        player = player_create(name=f"Giocatore {number:02}", club="Circolo", user=SYSTEM)
        entry = entry_register(event=event, player=player, user=SYSTEM)
        entry_check_in(entry=entry, user=SYSTEM)
    event_draw(event=event, seed=64, user=SYSTEM)
    for _ in range(players // 8):  # some of round 1 played already
        _result(event)
    return event


def _result(event) -> bool:
    """Record the final score of the first open match: the bracket changes."""
    from club.policy import SYSTEM
    from matches.models import Match
    from matches.services import match_record_final_score

    match = (
        Match.objects.filter(place__event=event)
        .exclude(status__in=[Match.Status.FINISHED, Match.Status.WALKOVER])
        .order_by("place__round", "pk")
        .first()
    )
    if match is None:
        return False
    match_record_final_score(match=match, score_a=match.length, score_b=2, user=SYSTEM)
    return True


CONTENT = {"HX-Request": "true", "HX-Target": "live"}  # what the page's region asks with


def _wait_for(port: int, paths: list[str], language: str) -> dict[str, str]:
    """Once gunicorn answers: each path's ETag, which a viewer's page gives its region."""
    for _ in range(100):
        try:
            tags = {}
            for path in paths:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", path, headers={**CONTENT, "Accept-Language": language})
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    raise SystemExit(f"{path} answered {response.status}")
                tags[path] = response.getheader("ETag") or ""
            return tags
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer")


def _load(options, paths: list[str], event, first: dict[str, dict[str, str]]):
    """Each viewer's polls at their times, spread evenly; a fixed pool of threads sends them."""
    start = time.monotonic() + 0.5
    end = start + options.seconds
    due: queue.Queue = queue.Queue(maxsize=options.threads * 4)
    samples: list[tuple[float, int, str]] = []  # (seconds, status, path)
    errors: list[str] = []
    lock = threading.Lock()
    # each viewer has loaded the page: its region starts with the content's ETag
    etags = {
        (viewer, path): first["it" if viewer % 2 else "en"][path]
        for viewer in range(options.viewers)
        for path in paths
    }
    late = [0.0]

    def send(viewer: int, path: str) -> None:
        headers = {
            **CONTENT,
            "Accept-Language": "it" if viewer % 2 else "en",
        }
        tag = etags.get((viewer, path))
        if tag:
            headers["If-None-Match"] = tag
        began = time.perf_counter()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=10)
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            connection.close()
        except OSError as error:
            with lock:
                errors.append(f"{path}: {error}")
            return
        took = time.perf_counter() - began
        with lock:
            samples.append((took, response.status, path))
            if response.status == 200:
                etags[(viewer, path)] = response.getheader("ETag") or ""
            elif response.status != 304:
                errors.append(f"{path}: {response.status}")

    def work() -> None:
        while (item := due.get()) is not None:
            send(*item)

    threads = [threading.Thread(target=work, daemon=True) for _ in range(options.threads)]
    for thread in threads:
        thread.start()

    changes = [0]

    def change() -> None:
        next_at = start + options.change_every
        while next_at < end:
            time.sleep(max(0.0, next_at - time.monotonic()))
            if _result(event):
                changes[0] += 1
            next_at += options.change_every

    writer = threading.Thread(target=change, daemon=True)
    writer.start()
    spacing = options.every / options.viewers
    tick = 0
    while True:
        at = start + tick * spacing
        if at >= end:
            break
        wait = at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        else:
            late[0] = max(late[0], -wait)
        viewer = tick % options.viewers
        for path in paths:
            due.put((viewer, path))
        tick += 1
    for _ in threads:
        due.put(None)
    for thread in threads:
        thread.join(timeout=15)
    writer.join(timeout=15)
    return samples, errors, changes[0], time.monotonic() - start, late[0]


def _percentiles(times: list[float]) -> dict[str, float]:
    if len(times) < 2:
        return {"count": len(times)}
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return {
        "count": len(times),
        "p50_ms": round(cuts[49] * 1000, 1),
        "p95_ms": round(cuts[94] * 1000, 1),
        "p99_ms": round(cuts[98] * 1000, 1),
        "max_ms": round(max(times) * 1000, 1),
    }


def _report(options, paths, samples, errors, changes, elapsed, late) -> None:
    summary = {
        "viewers": options.viewers,
        "every_s": options.every,
        "workers": options.workers,
        "seconds": round(elapsed, 1),
        "requests_per_s": round(len(samples) / elapsed, 1),
        "results_recorded": changes,
        "paths": paths,
        "all": _percentiles([t for t, _, _ in samples]),
        "200": _percentiles([t for t, s, _ in samples if s == 200]),
        "304": _percentiles([t for t, s, _ in samples if s == 304]),
        "errors": len(errors),
        "generator_late_s": round(late, 3),
    }
    for path in paths:
        summary[path] = _percentiles([t for t, _, p in samples if p == path])
    for name in ("all", "200", "304"):
        figures = summary[name]
        print(
            f"{name:>4}: {figures.get('count', 0):6} requests"
            + (
                f"  p50 {figures['p50_ms']} ms  p95 {figures['p95_ms']} ms  "
                f"p99 {figures['p99_ms']} ms  max {figures['max_ms']} ms"
                if "p50_ms" in figures
                else ""
            )
        )
    print(f"errors: {len(errors)}", *sorted(set(errors))[:5], sep="\n  ")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
