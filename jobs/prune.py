"""Finished work is kept JOBS_KEEP_DAYS (30 by default), then forgotten with its files: every
email and every correction's ratings is a job, so a season would otherwise keep hundreds of
thousands of rows no page shows. A failed job is kept while no later job of its kind has
succeeded: it is what tells the pages their figures may be stale (the ratings' notice)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from club.cache import cache

from .models import Job

EVERY_SECONDS = 3600  # how often finishing a job also forgets the old ones, at most


def jobs_prune(*, now: datetime.datetime | None = None) -> int:
    """Forget the jobs finished more than JOBS_KEEP_DAYS ago; how many were forgotten."""
    before = (now or timezone.now()) - datetime.timedelta(days=settings.JOBS_KEEP_DAYS)
    later_done = Job.objects.filter(
        kind=OuterRef("kind"), state=Job.State.DONE, created_at__gt=OuterRef("created_at")
    )
    old = Job.objects.filter(finished_at__lt=before).filter(
        Q(state=Job.State.DONE) | (Q(state=Job.State.FAILED) & Q(Exists(later_done)))
    )
    deleted, _by_model = old.delete()
    return int(deleted)


def jobs_prune_now_and_then() -> None:
    """At most once an hour (the cache says when it was last done; with the cache down, each
    time: one delete by the index on the finish time)."""
    if cache.get("jobs:pruned") is not None:
        return
    cache.set("jobs:pruned", True, EVERY_SECONDS)
    jobs_prune()
