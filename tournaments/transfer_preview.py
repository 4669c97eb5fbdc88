"""A tournament file previewed, kept on the server, and imported by its key (issue 23.9).

The import page shows what a file will create before anything is written. The file is
kept (:mod:`club.uploads`, in the database) under a key bound to the importing account,
and the confirmation posts only that key and the directors ticked: the file is never
posted back, so one as large as a tournament file may be (:data:`transfer.MAX_BYTES`)
is imported as it was previewed. The confirmation reads and checks the file again, and
takes it once, inside the import's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from club.actors import Actor
from club.policy import can_create, require
from club.uploads import upload_keep, upload_read, upload_take

from .models import Tournament
from .transfer import ImportPlan, document_read, tournament_import, tournament_import_plan

KIND = "tournament"


def tournament_preview(*, data: bytes, user: Actor) -> tuple[str, ImportPlan]:
    """Check an uploaded file and keep it: its key, and what importing it will create."""
    require(can_create(user))
    plan = tournament_import_plan(document=document_read(data))
    return upload_keep(user=user, kind=KIND, data=data), plan


def tournament_preview_again(*, key: str, user: Actor) -> ImportPlan:
    """What a kept file will create, to show its preview again (a confirmation refused)."""
    require(can_create(user))
    data = upload_read(user=user, kind=KIND, key=key)
    return tournament_import_plan(document=document_read(data))


def tournament_preview_import(*, key: str, user: Actor, directors: Iterable[str]) -> Tournament:
    """Import the file kept under ``key`` (see :func:`transfer.tournament_import`); a refusal
    keeps it for another try, a success removes it, so a second confirmation finds nothing."""
    require(can_create(user))
    with transaction.atomic():
        data = upload_take(user=user, kind=KIND, key=key)
        return tournament_import(document=document_read(data), user=user, directors=directors)
