"""Work every rating out again from the first finished match (after an import, or to check),
as the ratings' job, followed here with a progress bar."""

from __future__ import annotations

import threading
import time
from contextlib import nullcontext
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.test.utils import override_settings

from club.policy import SYSTEM
from jobs.kinds import job_error_text
from jobs.models import Job
from jobs.progress import progress_read
from jobs.runner import backend, job_run
from tournaments.advancement import ratings_rederive_later

WIDTH = 30  # the bar's characters
# a job still waiting this long with a job queue: no worker is taking it, and the command says so
WAITING_SAY_SECONDS = 30.0


def bar(done: int, total: int) -> str:
    """``[#########.....] 45%  2250 of 5000 finished matches`` (no figures yet: the bar empty)."""
    filled = WIDTH * done // total if total else 0
    percent = f"{100 * done // total:3d}%" if total else "   "
    return f"[{'#' * filled}{'.' * (WIDTH - filled)}] {percent}  {done} of {total} finished matches"


def _run_here(job_id: int) -> None:
    try:
        job_run(job_id)
    finally:
        connections.close_all()


class Command(BaseCommand):
    help = (
        "Work out every player's rating and experience again from the start, the finished "
        "matches in the order they finished (the site does this itself from a corrected "
        "result on; this is the whole history). It is the ratings' job, as staff start it from "
        "the rating list: with a job queue (CELERY_BROKER_URL set) a worker runs it and this "
        "command follows it with a progress bar; without one (JOBS_BACKEND thread, a laptop) "
        "it runs in this process, with the same bar. A request for it already waiting is "
        "joined, not run twice."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-wait",
            action="store_true",
            help="start the job and say its number, without following it",
        )
        parser.add_argument(
            "--here",
            action="store_true",
            help="run it in this process even with a job queue (no worker running, say)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        here = (backend() != "celery" or options["here"]) and not options["no_wait"]
        # no worker: this process runs it (a job already waiting is joined, and run here too)
        with override_settings(JOBS_BACKEND="held") if here else nullcontext():
            job = ratings_rederive_later(1, user=SYSTEM)
        self.stdout.write(f"Job {job.pk}: every rating worked out again.")
        if options["no_wait"]:
            return
        if here and backend() == "thread":  # beside the bar, on a connection of its own
            threading.Thread(target=_run_here, args=(job.pk,), daemon=True).start()
        elif here:  # --here with a queue, or the tests' backends: at once, then the bar
            job_run(job.pk)
        job = self.follow(job)
        self.stderr.write("")
        if job.state == Job.State.FAILED:
            raise CommandError(job_error_text(job))
        self.stdout.write("Ratings worked out again.")

    def follow(self, job: Job) -> Job:
        """Draw the bar until the job is done or failed: its figures from the cache while it
        runs (the worker's, or this process's job thread), the row's once it ends."""
        shown = ""
        began = time.monotonic()
        said_waiting = False
        while True:
            job.refresh_from_db()
            done, total = job.done, job.total
            heard = progress_read(job.pk) if job.state == Job.State.RUNNING else None
            if heard is not None:
                done, total = heard[0], heard[1]
            line = bar(done, total)
            if line != shown:
                self.stderr.write("\r" + line, ending="")
                self.stderr.flush()
                shown = line
            if job.finished:
                return job
            waited = time.monotonic() - began
            if job.state == Job.State.QUEUED and not said_waiting and waited > WAITING_SAY_SECONDS:
                said_waiting = True
                self.stderr.write(
                    "\nNo worker has taken the job yet: is one running (celery -A config.celery "
                    "worker)? Ctrl-C stops following it, and it stays waiting; --here runs it "
                    "in this process."
                )
            time.sleep(0.5)
