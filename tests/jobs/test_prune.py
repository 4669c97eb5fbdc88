"""Finished work is forgotten after JOBS_KEEP_DAYS, with its files; what is waiting, running,
recent, or a failure no later job made good is kept (jobs.prune)."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from jobs.models import Job, JobFile
from jobs.prune import jobs_prune

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def made(kind, state, days_ago, created_days_ago=None):
    at = NOW - datetime.timedelta(days=days_ago)
    created = NOW - datetime.timedelta(days=created_days_ago if created_days_ago else days_ago)
    finished = at if state in (Job.State.DONE, Job.State.FAILED) else None
    return Job.objects.create(kind=kind, state=state, created_at=created, finished_at=finished)


def test_old_finished_work_goes_with_its_file_the_rest_stays(settings):
    settings.JOBS_KEEP_DAYS = 30
    old_mail = made("mail.send", Job.State.DONE, 45)
    JobFile.objects.create(job=old_mail, role=JobFile.Role.OUTPUT, name="x.csv", data=b"")
    recent = made("mail.send", Job.State.DONE, 3)
    waiting = made("mail.send", Job.State.QUEUED, 60)
    old_failed_alone = made("ratings.rederive", Job.State.FAILED, 40)  # nothing did its work
    old_failed_made_good = made("tables.export", Job.State.FAILED, 50)
    made("tables.export", Job.State.DONE, 31, created_days_ago=49)  # old too: goes as well
    assert jobs_prune() == 4  # the old mail and its file, the old export, the failure made good
    left = set(Job.objects.values_list("pk", flat=True))
    assert left == {recent.pk, waiting.pk, old_failed_alone.pk}
    assert not JobFile.objects.exists()
    assert old_failed_made_good.pk not in left


def test_the_command_says_how_many(settings):
    settings.JOBS_KEEP_DAYS = 7
    made("mail.send", Job.State.DONE, 8)
    out = StringIO()
    call_command("jobs_prune", stdout=out)
    assert "1 finished jobs" in out.getvalue() and "7 days" in out.getvalue()
    assert not Job.objects.exists()
