"""A laptop's site (`make run`: SQLite, jobs in a thread of the web process): background work
that writes while a request writes too must wait its turn, never stop on "database is locked".

Run by tests/jobs/test_backends.py in a Python of its own, on a SQLite file (the suite's
database is in memory, where SQLite's locking is not a file's):

    python tests/jobs/sqlite_laptop.py /tmp/some.sqlite3

Prints one line of JSON: how each job ended and how many of the request's writes failed.
"""

from __future__ import annotations

import io
import json
import os
import sys
import threading
import time
from pathlib import Path


def main(path: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ["JOBS_BACKEND"] = "thread"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_dev")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import OperationalError, transaction

    from jobs.kinds import JobKind, register_job_kind
    from jobs.models import Job
    from jobs.services import job_start

    call_command("migrate", verbosity=0)
    call_command("demo_club", stdout=io.StringIO())  # players and rated matches to work over
    director = User.objects.get(username="director")
    read, writing = threading.Event(), threading.Event()

    def read_then_write(job, progress):
        """The ratings' pattern: read the history, then write it whole, in one transaction."""
        with transaction.atomic():
            seen = Group.objects.count()
            read.set()
            writing.wait(2)  # a request's write has begun meanwhile (or it waits for us)
            time.sleep(0.2)
            Group.objects.create(name=f"job-{job.pk}")
        return {"seen": seen}

    register_job_kind(JobKind(kind="laptop.history", title="History", run=read_then_write))

    failures: list[str] = []

    def request_writes(count: int, first_wait: threading.Event | None = None) -> None:
        for number in range(count):
            try:
                with transaction.atomic():
                    Group.objects.filter(name__startswith="request-").count()
                    Group.objects.create(name=f"request-{time.monotonic_ns()}-{number}")
                    if first_wait is not None and number == 0:
                        writing.set()
                        time.sleep(0.5)  # the request is slow to finish
            except OperationalError as error:
                failures.append(str(error))
                writing.set()

    history = job_start(kind="laptop.history", user=director, key="history")
    read.wait(5)
    request_writes(3, first_wait=read)
    # the real ratings job (the demo's players), while requests keep writing
    ratings = job_start(kind="ratings.rederive", user=director, params={"order": 1})
    request_writes(20)
    deadline = time.monotonic() + 30
    states: dict[str, str] = {}
    while time.monotonic() < deadline:
        states = {
            name: Job.objects.get(pk=job.pk).state
            for name, job in (("history", history), ("ratings", ratings))
        }
        if all(state in ("done", "failed") for state in states.values()):
            break
        time.sleep(0.1)
    ended = {
        name: Job.objects.get(pk=job.pk)
        for name, job in (("history", history), ("ratings", ratings))
    }
    print(
        json.dumps(
            {
                "states": states,
                "errors": {name: job.error for name, job in ended.items()},
                "attempts": {name: job.attempts for name, job in ended.items()},
                "failures": failures,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
