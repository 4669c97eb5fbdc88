"""Kinds of work made for the tests of the queue (registered when this module is imported: by
the tests, and by the Celery worker a test starts, tests/jobs/worker.py).

"test.rows" makes ``n`` rows (auth groups named after the job's key), one at a time and each only
if it is not there yet, so running it again after a failure part-way makes nothing twice, as a
real kind must. Its params say how it goes wrong: ``crash_at`` (a bug, on the first attempt only),
``fail`` (a reason in words), ``unavailable`` (the database not answering, that many attempts),
``sleep`` (seconds between rows: a job a worker can be killed in the middle of), ``file`` (it
makes a file to download).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import Group
from django.db import OperationalError
from django.utils.translation import gettext_noop

from jobs.kinds import JobFailed, JobKind, Progress, register_job_kind
from jobs.models import Job, JobFile
from jobs.services import job_file_write

ROWS = "test.rows"
FLAKY = "test.flaky"

# how many times each job's handler was entered, in this process (a race runs it once)
ENTERED: dict[int, int] = {}


def row_names(job: Job) -> list[str]:
    prefix = job.key or f"job{job.pk}"
    return [f"{prefix}-{i}" for i in range(1, int(job.params.get("n", 1)) + 1)]


def _rows(job: Job, progress: Progress) -> Mapping[str, Any]:
    ENTERED[job.pk] = ENTERED.get(job.pk, 0) + 1
    params = job.params
    if job.attempts <= int(params.get("unavailable", 0)):
        raise OperationalError("could not connect to server: Connection refused")
    names = row_names(job)
    made = 0
    for number, name in enumerate(names, start=1):
        if params.get("crash_at") == number and job.attempts == 1:
            raise RuntimeError(f"a bug at row {number}")
        if params.get("fail") and number == len(names):
            raise JobFailed("too_large", limit=1000)
        _group, created = Group.objects.get_or_create(name=name)
        made += created
        progress(number, len(names))
        time.sleep(float(params.get("sleep", 0)))
    if params.get("file"):
        text = "".join(f"{name}\n" for name in names).encode()
        job_file_write(
            job=job, role=JobFile.Role.OUTPUT, name="rows.txt", content_type="text/plain", data=text
        )
    return {"made": made, "rows": len(names)}


def _merge(waiting: Mapping[str, Any], asked: Mapping[str, Any]) -> dict[str, Any]:
    """Two asks waiting: the larger count."""
    return {**waiting, "n": max(int(waiting.get("n", 1)), int(asked.get("n", 1)))}


class MailServerDown(Exception):
    """A kind's own "not now" (a mail server down)."""


def _flaky(job: Job, progress: Progress) -> Mapping[str, Any]:
    ENTERED[job.pk] = ENTERED.get(job.pk, 0) + 1
    if job.attempts <= int(job.params.get("down", 99)):
        raise MailServerDown("the mail server did not answer")
    return {"sent": 1}


def register() -> None:
    register_job_kind(
        JobKind(
            kind=ROWS,
            # msgids the site's catalogue has, so the Italian page shows Italian words
            title=gettext_noop("Background work"),
            run=_rows,
            errors={
                "too_large": gettext_noop(
                    "The file is too large: a match file may be at most %(limit)s kB."
                )
            },
            summary=lambda result: f"{result.get('made')} of {result.get('rows')} rows made",
            merge=_merge,
        )
    )
    register_job_kind(
        JobKind(
            kind=FLAKY,
            title=gettext_noop("Background work"),
            run=_flaky,
            retries=2,
            transient=(MailServerDown,),
        )
    )


register()
