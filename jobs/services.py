"""Starting work, trying it again, and the files jobs take and make.

A job is started in the caller's transaction and handed to the queue when it commits (a change
undone starts nothing); under the tests' "eager" backend it runs at once, inside it, as the work
did before it became a job.
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.actors import Actor
from club.audit import audit_record
from club.policy import can_see_job, require

from .kinds import job_kind
from .models import Job, JobFile
from .progress import QUIET_MINUTES, progress_read
from .runner import backend, job_dispatch


def job_start(
    *,
    kind: str,
    user: Actor,
    params: Mapping[str, Any] | None = None,
    key: str = "",
    upload: tuple[str, str, bytes] | None = None,
) -> Job:
    """Ask for work of ``kind``; with a ``key``, work of that kind and key already waiting is
    joined instead (its parameters merged by the kind's ``merge``), so asking twice runs it once.
    ``upload`` is a file the work reads: (name, content type, bytes). A person starting work is
    in the audit; the site starting it (a correction's ratings) is not: the change that asked
    for it is."""
    found = job_kind(kind)
    if found is None:
        raise ValueError(f"no job kind {kind!r} is registered")
    asked = dict(params or {})
    person = user if isinstance(user, User) else None
    with transaction.atomic():
        if key:
            waiting = _join(kind, key, asked)
            if waiting is not None:
                return waiting
        try:
            with transaction.atomic():
                job = Job.objects.create(kind=kind, key=key, params=asked, created_by=person)
        except IntegrityError:  # another request made it between our look and our write
            waiting = _join(kind, key, asked)
            if waiting is None:
                raise
            return waiting
        if upload is not None:
            job_file_write(
                job=job,
                role=JobFile.Role.INPUT,
                name=upload[0],
                content_type=upload[1],
                data=upload[2],
            )
        if person is not None:
            audit_record(
                user=user, code="job.started", subject=job, params={"kind": kind, "params": asked}
            )
        _hand_over(job)
    return job


def _join(kind: str, key: str, asked: dict[str, Any]) -> Job | None:
    waiting = (
        Job.objects.select_for_update().filter(kind=kind, key=key, state=Job.State.QUEUED).first()
    )
    if waiting is None:
        return None
    merge = job_kind(kind).merge  # type: ignore[union-attr]  # checked by job_start
    if merge is not None:
        waiting.params = merge(waiting.params, asked)
        waiting.save(update_fields=["params"])
    return waiting


def _hand_over(job: Job) -> None:
    if backend() == "eager":
        job_dispatch(job.pk)
    else:
        job_id = job.pk
        transaction.on_commit(lambda: job_dispatch(job_id))


def job_stuck(job: Job) -> bool:
    """Running, and not a word from it for QUIET_MINUTES: its worker died (or was stopped)."""
    if job.state != Job.State.RUNNING:
        return False
    heard = progress_read(job.pk)
    last = heard[2] if heard else None
    started = job.started_at.timestamp() if job.started_at else None
    when = max(t for t in (last, started, 0.0) if t is not None)
    return timezone.now().timestamp() - when > timedelta(minutes=QUIET_MINUTES).total_seconds()


def job_retry(*, job: Job, user: Actor) -> Job:
    """A failed (or lost) job waits again, with what it was asked; the handler skips what a
    previous attempt finished."""
    require(can_see_job(user, job))
    with transaction.atomic():
        locked = Job.objects.select_for_update().get(pk=job.pk)
        if locked.state not in (Job.State.FAILED,) and not job_stuck(locked):
            raise ValidationError(
                _("This work is not stopped: it can be tried again only after it fails."),
                code="job_not_failed",
            )
        if (
            locked.key
            and Job.objects.filter(
                kind=locked.kind, key=locked.key, state=Job.State.QUEUED
            ).exists()
        ):
            raise ValidationError(
                _("The same work is already waiting to start: follow it instead."),
                code="job_waiting",
            )
        locked.state = Job.State.QUEUED
        locked.finished_at = None
        locked.save(update_fields=["state", "finished_at"])
        audit_record(
            user=user,
            code="job.retried",
            subject=locked,
            params={"kind": locked.kind, "params": locked.params},
        )
        _hand_over(locked)
    return locked


def job_file_write(*, job: Job, role: str, name: str, content_type: str, data: bytes) -> JobFile:
    """The job's file of that role, written again if a previous attempt wrote one."""
    found, _created = JobFile.objects.update_or_create(
        job=job,
        role=role,
        defaults={
            "name": name,
            "content_type": content_type,
            "size": len(data),
            "data": gzip.compress(data, compresslevel=6),
        },
    )
    return found


def job_file_read(*, job: Job, role: str) -> tuple[JobFile, bytes] | None:
    found = JobFile.objects.filter(job=job, role=role).first()
    if found is None:
        return None
    return found, gzip.decompress(bytes(found.data))
