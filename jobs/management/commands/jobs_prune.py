"""Forget finished work older than JOBS_KEEP_DAYS now (finishing a job also does it, at most
once an hour): for a server's daily timer, or after lowering the setting."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from jobs.prune import jobs_prune


class Command(BaseCommand):
    help = "Forget background work finished more than JOBS_KEEP_DAYS days ago (default 30)."

    def handle(self, *args: Any, **options: Any) -> None:
        count = jobs_prune()
        self.stdout.write(
            f"{count} finished jobs (with their files) older than "
            f"{settings.JOBS_KEEP_DAYS} days forgotten."
        )
