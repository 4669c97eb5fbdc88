"""Work every rating out again from the first finished match (after an import, or to check)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments.advancement import ratings_rederive


class Command(BaseCommand):
    help = (
        "Work out every player's rating and experience again from the start, the finished "
        "matches in the order they finished (the site does this itself from a corrected "
        "result on; this is the whole history)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        def progress(done: int, total: int) -> None:
            self.stderr.write(f"\r{done} of {total} finished matches", ending="")
            self.stderr.flush()

        with transaction.atomic():
            ratings_rederive(progress=progress)
        self.stderr.write("")
        self.stdout.write("Ratings worked out again.")
