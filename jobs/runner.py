"""Running a job, wherever it runs: a Celery worker (a server, JOBS_BACKEND=celery), a thread of
the web process (a laptop with no Redis: `make run`), or at once in the caller (the tests).

The row decides: a job runs only from "waiting", taken under its row lock, so a message the
queue delivers twice, or a worker and a retry racing, runs it once. A failure ends in words (a
code of the kind's ``errors``); the database or the queue not answering puts the job back to
wait and tries again a few times, later each time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    transaction,
)
from django.utils import timezone

from .kinds import JobFailed, job_kind
from .models import Job
from .progress import progress_say
from .prune import jobs_prune_now_and_then

logger = logging.getLogger(__name__)

# the errors that say "not now" rather than "never": a database restarting, a dropped connection
TRANSIENT: tuple[type[Exception], ...] = (OperationalError, InterfaceError)

# how long to wait before the n-th automatic retry, in seconds
BACKOFF = (2, 10, 60, 300)


def backend() -> str:
    """celery | thread | eager | held (the tests' "wait until told")."""
    return str(getattr(settings, "JOBS_BACKEND", "thread"))


def job_run(job_id: int) -> str:
    """Run the job if it is waiting; say how it went: done, failed, retry or skipped."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.state != Job.State.QUEUED:
            return "skipped"
        job.state = Job.State.RUNNING
        job.attempts += 1
        job.started_at = timezone.now()
        job.error, job.error_params = "", {}
        job.save(update_fields=["state", "attempts", "started_at", "error", "error_params"])
    kind = job_kind(job.kind)
    if kind is None:
        _finish(job, Job.State.FAILED, error="unknown_kind", error_params={"kind": job.kind})
        return "failed"
    figures = {"done": job.done, "total": job.total}

    def progress(done: int, total: int) -> None:
        figures["done"], figures["total"] = done, total
        progress_say(job.pk, done, total)

    progress_say(job.pk, 0, 0)
    try:
        result = kind.run(job, progress)
    except JobFailed as failure:
        _finish(
            job,
            Job.State.FAILED,
            error=failure.code,
            error_params=failure.params,
            done=figures["done"],
            total=figures["total"],
        )
        return "failed"
    except (*TRANSIENT, *kind.transient) as error:
        if job.attempts <= kind.retries:
            logger.warning("Job %s (%s) will be tried again: %s", job.pk, job.kind, error)
            Job.objects.filter(pk=job.pk).update(state=Job.State.QUEUED)
            return "retry"
        _finish(job, Job.State.FAILED, error="unavailable", error_params={"attempts": job.attempts})
        return "failed"
    except Exception:
        logger.exception("Job %s (%s) stopped on an error", job.pk, job.kind)
        _finish(
            job, Job.State.FAILED, error="crashed", done=figures["done"], total=figures["total"]
        )
        return "failed"
    total = figures["total"] or figures["done"]
    _finish(job, Job.State.DONE, result=dict(result), done=total, total=total)
    return "done"


def _finish(
    job: Job,
    state: str,
    *,
    error: str = "",
    error_params: Mapping[str, Any] | None = None,
    result: Mapping[str, Any] | None = None,
    done: int = 0,
    total: int = 0,
) -> None:
    done = min(done, total) if total else 0
    Job.objects.filter(pk=job.pk).update(
        state=state,
        error=error,
        error_params=dict(error_params or {}),
        result=dict(result or {}),
        done=done,
        total=total,
        finished_at=timezone.now(),
    )
    progress_say(job.pk, done, total)
    if backend() != "eager":  # a worker's or a thread's housekeeping, never a request's
        jobs_prune_now_and_then()


def job_dispatch(job_id: int, *, attempt: int = 0) -> None:
    """Hand the job to whatever runs jobs here; ``attempt`` > 0 waits the back-off first."""
    mode = backend()
    if mode == "held":
        return
    if mode == "eager":
        _run_and_retry(job_id, attempt, wait=False)
        return
    if mode == "celery":
        try:
            from .tasks import job_task

            countdown = BACKOFF[min(attempt, len(BACKOFF)) - 1] if attempt else 0
            job_task.apply_async(args=[job_id], countdown=countdown)
            return
        except Exception as error:  # the broker down: kombu's errors, a refused connection
            logger.warning(
                "The job queue did not take job %s (%s: %s): it runs in this web process",
                job_id,
                type(error).__name__,
                error,
            )
    _pool().submit(_in_thread, job_id, attempt)


def _run_and_retry(job_id: int, attempt: int, *, wait: bool) -> None:
    if wait and attempt:
        time.sleep(BACKOFF[min(attempt, len(BACKOFF)) - 1])
    if job_run(job_id) == "retry":
        if backend() == "eager":
            _run_and_retry(job_id, attempt + 1, wait=False)
        else:
            job_dispatch(job_id, attempt=attempt + 1)


def _in_thread(job_id: int, attempt: int) -> None:
    close_old_connections()
    try:
        _run_and_retry(job_id, attempt, wait=True)
    except DatabaseError:
        logger.exception("Job %s could not be run in this process", job_id)
    finally:
        close_old_connections()


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """One worker thread a process: jobs run one after the other, as a Celery worker with one
    process would, and SQLite never sees two of them writing at once."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crawford-job")
        return _POOL


def jobs_run_waiting() -> int:
    """Run every waiting job here and now (the tests' "held" backend, a command): how many ran."""
    count = 0
    for job_id in (
        Job.objects.filter(state=Job.State.QUEUED)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
    ):
        if job_run(job_id) != "skipped":
            count += 1
    return count
