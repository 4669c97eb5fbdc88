"""The ratings' re-derivation as a job (issue 29): the whole history, or from one rated match on.

The work runs in one transaction (the history changes whole or not at all) under the ratings'
own lock (tournaments.advancement._history_lock), so it may wait for a correction's request to
end, and the next one waits for it. Run again after a failure, it starts from the history as
the last committed change left it: nothing is applied twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from jobs.kinds import JobKind, Progress, register_job_kind
from jobs.models import Job

from .advancement import ratings_rederive, ratings_rederive_from

KIND = "ratings.rederive"


def _run(job: Job, progress: Progress) -> Mapping[str, Any]:
    order = job.params.get("order")
    with transaction.atomic():
        if isinstance(order, int) and order > 1:
            ratings_rederive_from(order)
        else:
            ratings_rederive(progress=progress)
    return {"order": order or 1}


def _merge(waiting: Mapping[str, Any], asked: Mapping[str, Any]) -> dict[str, Any]:
    """Two corrections waiting: one re-derivation from the earlier of the two."""
    orders = [o for o in (waiting.get("order"), asked.get("order")) if isinstance(o, int)]
    return {"order": min(orders) if orders else 1}


def _summary(result: Mapping[str, Any]) -> str:
    order = result.get("order") or 1
    if order <= 1:
        return _("Every rating was worked out again from the first rated match.")
    return ngettext(
        "The ratings were worked out again from rated match %(order)s on.",
        "The ratings were worked out again from rated match %(order)s on.",
        order,
    ) % {"order": order}


def register() -> None:
    register_job_kind(
        JobKind(
            kind=KIND,
            title=gettext_noop("The players’ ratings brought up to date"),
            run=_run,
            summary=_summary,
            merge=_merge,
        )
    )
