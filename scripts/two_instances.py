"""Two web instances and a job worker on one PostgreSQL database and one Redis, as a server with
a proxy in front of two gunicorns would run them (docs/deployment.md, Two web instances):

    .venv/bin/python scripts/two_instances.py [--ports 8001 8002] [--workers 2] [--redis-db 8]
        [--database crawford_two] [--no-worker] [--keep]

Makes a database of its own (``--database`` on 127.0.0.1:5432, user postgres, trust),
migrates it, collects the static files (staticfiles/, as a deployment does) and loads a
director (``director``, password ``two-instances-1``), a knockout of eight players with one
result recorded (scripts/bench_live.py's) and a job that failed, then starts a gunicorn on each
port (``--workers`` synchronous workers each) and a Celery worker (``--pool solo``), all with
the same settings: DATABASE_URL, REDIS_URL (the cache: rate counts, live pages' content, jobs'
progress), CELERY_BROKER_URL (the same Redis database, its keys prefixed ``two:``), DEBUG off.
Sessions and sign-in lockouts are in the database, so every instance shares them too.

Prints one line of JSON once every instance answers (the addresses, the tournament, the event
and an open match), then runs until stopped (Ctrl-C or SIGTERM): the processes are stopped, the
database dropped (``--keep`` keeps it) and the site's keys in that Redis database removed.
tests/jobs/test_two_instances.py runs it so.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = Path(sys.executable)
SERVER = "postgres://postgres@127.0.0.1:5432"
PASSWORD = "two-instances-1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ports", type=int, nargs=2, default=[8001, 8002])
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's workers, each instance")
    parser.add_argument("--database", default="crawford_two")
    parser.add_argument("--redis-db", type=int, default=8, help="the Redis database (0-15)")
    parser.add_argument("--no-worker", action="store_true", help="no Celery worker beside them")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--env", action="append", default=[], help="NAME=VALUE for every instance (repeatable)"
    )
    options = parser.parse_args()
    redis_url = f"redis://127.0.0.1:6379/{options.redis_db}"
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DATABASE_URL": f"{SERVER}/{options.database}",
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "CELERY_KEY_PREFIX": "two:",
        "DEBUG": "0",
        "SECRET_KEY": "two-instances-not-a-secret-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "0",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
        "PYTHONWARNINGS": "ignore::UserWarning",  # no collected static files
        "DJANGO_SETTINGS_MODULE": "config.settings",
        **dict(item.split("=", 1) for item in options.env),
    }
    processes: list[subprocess.Popen[bytes]] = []
    signal.signal(signal.SIGTERM, _stop)

    _database("DROP DATABASE IF EXISTS", options.database)
    _database("CREATE DATABASE", options.database)
    _redis_clear(redis_url)
    try:
        for command in (["migrate"], ["collectstatic", "--noinput"]):  # as a deployment does
            subprocess.run([PYTHON, "manage.py", *command, "-v0"], cwd=ROOT, env=env, check=True)
        os.environ.update(env)
        sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]
        import django

        django.setup()
        facts = _load()
        from django.db import connections

        connections.close_all()
        gunicorn = PYTHON.parent / "gunicorn"
        for port in options.ports:
            processes.append(
                subprocess.Popen(
                    [
                        gunicorn,
                        "config.wsgi",
                        "--workers",
                        str(options.workers),
                        "--bind",
                        f"127.0.0.1:{port}",
                        "--log-level",
                        "warning",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=sys.stderr,  # this script's own output is its line of JSON
                )
            )
        if not options.no_worker:
            worker = [PYTHON, "-m", "celery", "-A", "config.celery", "worker", "--pool", "solo"]
            processes.append(
                subprocess.Popen(
                    [*worker, "--loglevel", "WARNING"], cwd=ROOT, env=env, stdout=sys.stderr
                )
            )
        for port in options.ports:
            _wait_for(port)
        print(
            json.dumps(
                {
                    "instances": [f"http://127.0.0.1:{port}" for port in options.ports],
                    "worker": not options.no_worker,
                    "director": ["director", PASSWORD],
                    **facts,
                }
            ),
            flush=True,
        )
        while all(p.poll() is None for p in processes):
            time.sleep(0.5)
    except (_Stop, KeyboardInterrupt):
        pass
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if not options.keep:
            _database("DROP DATABASE IF EXISTS", options.database)
        _redis_clear(redis_url)


class _Stop(Exception):
    pass


def _stop(*_args: object) -> None:
    raise _Stop


def _load() -> dict[str, int]:
    """The director, a second account (to be locked out), a knockout with one result."""
    from bench_live import _knockout  # scripts/bench_live.py: its tournament, smaller
    from django.contrib.auth.models import Group, User

    from jobs.models import Job
    from matches.models import Match

    director = User.objects.create_user("director", password=PASSWORD)
    director.groups.add(Group.objects.get_or_create(name="Directors")[0])
    User.objects.create_user("someone", password=PASSWORD)
    event = _knockout(8)
    event.tournament.directors.add(director)  # its director: may record its results
    match = (
        Match.objects.filter(place__event=event)
        .exclude(status__in=[Match.Status.FINISHED, Match.Status.WALKOVER])
        .order_by("place__round", "pk")
        .first()
    )
    # the ratings' work, stopped on an error: "Try again" through one instance hands it to the
    # worker, and the other shows it done
    failed = Job.objects.create(
        kind="ratings.rederive",
        params={"order": 1},
        state=Job.State.FAILED,
        error="crashed",
        attempts=1,
        created_by=director,
    )
    return {
        "tournament": event.tournament_id,
        "event": event.pk,
        "match": match.pk if match else 0,
        "failed_job": failed.pk,
    }


def _database(statement: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as connection:
        if statement.startswith("DROP"):  # a connection left by a stopped run
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [name],
            )
        connection.execute(f"{statement} {name}")


def _redis_clear(url: str) -> None:
    """The site's keys in that Redis database (the cache's and the queue's), none other."""
    import redis

    server = redis.Redis.from_url(url)
    for pattern in ("crawford:*", "two:*"):
        for key in server.scan_iter(pattern):
            server.delete(key)


def _wait_for(port: int) -> None:
    for _ in range(150):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/")
            if connection.getresponse().status < 500:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn on port {port} did not answer")


if __name__ == "__main__":
    main()
