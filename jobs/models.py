"""A job: one piece of long work, what it was asked to do and how far it got.

The row is the truth every web process and worker shares (no state lives in the queue): the
queue only says "look at job X". Progress while it runs goes to the cache
(:mod:`jobs.progress`), since a handler may work inside one long transaction whose writes no
one else sees until it ends; the row gets the final figures.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Job(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", _("Waiting to start")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    kind = models.CharField(max_length=64)
    # the work's identity: a second request for the same work while one waits joins it
    # (jobs_one_waiting_per_key), so a double click or a retry never runs it twice
    key = models.CharField(max_length=200, blank=True, default="")
    params = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)  # 0: not known (yet)
    attempts = models.PositiveSmallIntegerField(default=0)
    # what the handler returned: codes and figures, put in words where shown
    result = models.JSONField(default=dict, blank=True)
    error = models.CharField(max_length=64, blank=True, default="")  # a code (jobs.kinds)
    error_params = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "key"],
                condition=Q(state="queued") & ~Q(key=""),
                name="jobs_one_waiting_per_key",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["queued", "running", "done", "failed"]),
                name="jobs_state_known",
            ),
            models.CheckConstraint(
                condition=Q(total=0) | Q(done__lte=models.F("total")),
                name="jobs_done_within_total",
            ),
        ]
        indexes = [
            # "is the ratings work still to do?" on every page that shows ratings
            # (with the start time: "has a later job of this kind succeeded?", the ratings'
            # notice after a failure, answered by the index alone)
            models.Index(fields=["kind", "state", "created_at"], name="jobs_kind_state"),
            models.Index(fields=["created_by", "-created_at"], name="jobs_mine"),
            # the old finished work forgotten (jobs.prune)
            models.Index(fields=["finished_at"], name="jobs_finished"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)


class JobFile(models.Model):
    """A file a job takes (an uploaded archive) or makes (a season's CSV), kept in the database
    so every web process can serve it, with no shared disk to set up; gzip-compressed."""

    class Role(models.TextChoices):
        INPUT = "input", _("File given")
        OUTPUT = "output", _("File made")

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="files")
    role = models.CharField(max_length=6, choices=Role.choices)
    name = models.CharField(max_length=200)
    content_type = models.CharField(max_length=100, default="application/octet-stream")
    size = models.PositiveBigIntegerField(default=0)  # before compression
    data = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "role"], name="jobs_one_file_per_role"),
        ]

    def __str__(self) -> str:
        return self.name
