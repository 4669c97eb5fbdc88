"""Where jobs run: a thread of the web process (a laptop, `make run`), a real Celery worker
through Redis (a server), and the web process again when the queue does not answer."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.urls import reverse

from jobs.models import Job
from jobs.services import job_retry, job_start
from tests.helpers import page_words

from .kinds import ROWS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REDIS = ("127.0.0.1", 6379)
BROKER = "redis://127.0.0.1:6379/7"  # a database of the tests' own, keys prefixed per run


def wait_for(check, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    return check()


def finished(job: Job) -> Job | None:
    fresh = Job.objects.get(pk=job.pk)
    return fresh if fresh.finished else None


def redis_answers() -> bool:
    try:
        socket.create_connection(REDIS, timeout=1).close()
        return True
    except OSError:
        return False


@pytest.fixture
def celery_broker():
    """The site's Celery app pointed at ``use(url, prefix)``'s broker for this test, its
    connections dropped before and after (the app keeps a pool of them)."""
    from config.celery import app

    before = (app.conf.broker_url, dict(app.conf.broker_transport_options or {}))

    def use(url: str, prefix: str = "") -> None:
        app.close()
        app.amqp._producer_pool = None
        options = {**before[1], "global_keyprefix": prefix}
        app.conf.update(broker_url=url, broker_transport_options=options)

    yield use
    app.close()
    app.amqp._producer_pool = None
    app.conf.update(broker_url=before[0], broker_transport_options=before[1])


def a_crashed_job(director, sleep: float = 0) -> Job:
    """Failed on its first attempt (a bug), it finishes when tried again (``sleep`` seconds
    after each of its two rows)."""
    job = job_start(kind=ROWS, user=director, params={"n": 2, "crash_at": 1, "sleep": sleep})
    job.refresh_from_db()
    assert job.state == Job.State.FAILED
    return job


# --- a laptop: jobs in a thread of the web process ------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_thread_runs_the_work_a_request_started(director, client, settings):
    job = a_crashed_job(director, sleep=2)
    settings.JOBS_BACKEND = "thread"
    client.force_login(director)
    response = client.post(reverse("jobs:job_again", args=[job.pk]))
    assert response.status_code == 302
    assert finished(job) is None  # the request answered without waiting for the work (4 s)
    assert "This page follows the work by itself" in page_words(client.get(response["Location"]))
    assert wait_for(lambda: finished(job), 30)
    words = page_words(client.get(reverse("jobs:job", args=[job.pk])))
    assert "Done" in words and "2 of 2 rows made" in words
    assert Group.objects.filter(name__startswith=f"job{job.pk}-").count() == 2


def test_a_laptop_sqlite_file_waits_for_its_turn_never_locked(tmp_path):
    """Background work and a request writing at once on one SQLite file: each waits for the
    other; none stops on "database is locked", nothing is tried again."""
    script = [sys.executable, str(HERE / "sqlite_laptop.py"), str(tmp_path / "laptop.sqlite3")]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    ran = subprocess.run(script, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert "database is locked" not in ran.stderr
    said = json.loads(ran.stdout.strip().splitlines()[-1])
    assert said == {
        "states": {"history": "done", "ratings": "done"},
        "errors": {"history": "", "ratings": ""},
        "attempts": {"history": 1, "ratings": 1},
        "failures": [],
    }


# --- the queue not answering: the work runs in the web process, the page answers at once ------


@pytest.mark.django_db(transaction=True)
def test_the_queue_down_costs_a_second_and_the_work_still_runs(
    director, client, settings, celery_broker, caplog
):
    job = a_crashed_job(director)
    settings.JOBS_BACKEND = "celery"
    celery_broker("redis://127.0.0.1:1/0")  # nothing listens there
    client.force_login(director)
    caplog.clear()
    asked = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="jobs.runner"):
        response = client.post(reverse("jobs:job_again", args=[job.pk]))
        took = time.monotonic() - asked
        assert response.status_code == 302
        assert took < 4, f"the page waited {took:.1f} s for the queue"  # 1.3 s seen here
        assert wait_for(lambda: finished(job), 10).state == Job.State.DONE
    warnings = [r for r in caplog.records if r.name == "jobs.runner"]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    assert "it runs in this web process" in warnings[0].getMessage()
    print(f"the page answered in {took:.2f} s")


# --- a server: a real Celery worker, through Redis, on the test database ------------------------

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a Celery worker is another process: it needs a database it can reach, and the "
    "suite's SQLite database lives in this process's memory (run with DATABASE_URL=postgres)",
)
with_redis = pytest.mark.skipif(
    not redis_answers(), reason="no Redis at 127.0.0.1:6379 for the broker"
)


@pytest.fixture
def worker(settings, celery_broker):
    """start() runs a Celery worker (one process) on the test database and a broker of this
    test's own (Redis database 7, its keys prefixed by a new name); stopped at the end."""
    prefix = f"crawford-test-{uuid.uuid4().hex[:12]}:"
    settings.JOBS_BACKEND = "celery"
    celery_broker(BROKER, prefix)
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": BROKER,
        "CELERY_KEY_PREFIX": prefix,
        "JOBS_BACKEND": "celery",
        "LOG_LEVEL": "ERROR",
    }
    env.pop("REDIS_URL", None)
    started: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, str(HERE / "worker.py")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait(10)
    import redis

    server = redis.Redis.from_url(BROKER)
    for key in server.scan_iter(f"{prefix}*"):
        server.delete(key)


@on_postgresql
@with_redis
@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_runs_the_job(director, client, worker):
    worker()
    job = job_start(kind=ROWS, user=director, params={"n": 3, "file": True}, key="worker")
    done = wait_for(lambda: finished(job), 60)  # about 5 s; more on a busy machine
    assert done is not None, "the worker did not finish the job in 60 s"
    assert (done.state, done.result, done.attempts) == ("done", {"made": 3, "rows": 3}, 1)
    client.force_login(director)
    words = page_words(client.get(reverse("jobs:job", args=[job.pk])))
    assert "Done" in words and "3 of 3 rows made" in words and "Download rows.txt" in words


@on_postgresql
@with_redis
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_job_leaves_it_to_try_again(director, client, worker):
    import datetime

    from django.utils import timezone

    first = worker()
    job = job_start(kind=ROWS, user=director, params={"n": 20, "sleep": 0.25}, key="killed")
    made = Group.objects.filter(name__startswith="killed-")
    assert wait_for(lambda: made.count() >= 2, 60), "the worker never began"
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    part = made.count()
    assert 2 <= part < 20
    assert Job.objects.get(pk=job.pk).state == Job.State.RUNNING
    # a quarter of an hour later, nothing heard: the page offers "Try again"
    long_ago = timezone.now() - datetime.timedelta(minutes=20)
    Job.objects.filter(pk=job.pk).update(started_at=long_ago)
    client.force_login(director)
    assert "Nothing has been heard" in page_words(client.get(reverse("jobs:job", args=[job.pk])))
    job_retry(job=Job.objects.get(pk=job.pk), user=director)
    worker()
    done = wait_for(lambda: finished(job), 60)
    assert done is not None and done.state == Job.State.DONE
    assert done.attempts == 2
    assert made.count() == 20  # nothing made twice
    assert done.result == {"made": 20 - part, "rows": 20}
