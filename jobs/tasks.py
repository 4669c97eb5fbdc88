"""The one Celery task: "run job N". Everything else about the job is in its row
(:mod:`jobs.runner`), so a message delivered twice, or after a worker died, runs it once."""

from __future__ import annotations

from celery import shared_task

from .runner import job_dispatch, job_run


@shared_task(name="jobs.run", acks_late=True, ignore_result=True)  # type: ignore[untyped-decorator]
def job_task(job_id: int, attempt: int = 0) -> str:
    outcome = job_run(job_id)
    if outcome == "retry":
        job_dispatch(job_id, attempt=attempt + 1)
    return outcome
