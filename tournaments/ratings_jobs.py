"""The ratings' re-derivation as a job (issue 29): the whole history, or from one rated match on.

A correction's request only asks for it (tournaments.advancement.ratings_after, which says why
the history stays right meanwhile); the work runs in one transaction (the history changes whole
or not at all) under the ratings' own lock (tournaments.advancement._history_lock), so it may
wait for a request's change to end, and the next change waits for it. It reads the history and
the results only once it holds the lock: what was appended while it waited is worked out again
with the rest. Run again after a failure, it starts from the history as the last committed
change left it: nothing is applied twice.

While a ratings job waits or runs, the pages that show ratings say they are being brought up to
date (:func:`ratings_pending`); the job's end writes an entry in the audit, which the API's and
the live pages' tags follow, so no client keeps the ratings it had.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from club.actors import Actor
from club.audit import audit_record, audit_sentences_register
from club.models import AuditEntry
from club.policy import SYSTEM, in_directors_group, require
from jobs.kinds import JobKind, Progress, register_job_kind
from jobs.models import Job

from .advancement import (
    RATINGS_JOB,
    ratings_rederive,
    ratings_rederive_from,
    ratings_rederive_later,
)

KIND = RATINGS_JOB
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)  # before any job


def ratings_state() -> str:
    """ "working": a ratings job waits or runs, so the ratings are being brought up to date;
    "failed": the last one failed and none has done its work since (the figures may be those
    from before a correction until a director tries again); "": the ratings are up to date.
    One query, by the index on the jobs' kind and state (jobs_kind_state), on every page that
    shows ratings."""
    # the newest done job's start, worked out once (the index, backwards, its first row):
    # a failure before it was made good by it
    last_done = Coalesce(
        Subquery(
            Job.objects.filter(kind=KIND, state=Job.State.DONE)
            .order_by("-created_at")
            .values("created_at")[:1]
        ),
        Value(EPOCH),
    )
    found = (
        Job.objects.filter(kind=KIND)
        .filter(
            Q(state__in=(Job.State.QUEUED, Job.State.RUNNING))
            | Q(state=Job.State.FAILED, created_at__gt=last_done)
        )
        .order_by("-state")  # running, queued, then failed: the first says it
        .values_list("state", flat=True)
        .first()
    )
    if found is None:
        return ""
    return "failed" if found == Job.State.FAILED else "working"


def ratings_pending() -> bool:
    """The ratings are not (yet) what the results say: being brought up to date, or the work
    that would have failed (:func:`ratings_state`)."""
    return bool(ratings_state())


def can_rederive_ratings(user: Actor) -> bool:
    """Staff and the Directors group may ask for every rating to be worked out again: it
    changes nothing that is right, and costs the job queue a few minutes."""
    return isinstance(user, User) and in_directors_group(user)


def ratings_rederive_start(*, user: Actor) -> Job:
    """Every rating worked out again, as a job (joined if one waits); audited as the job's
    start (job.started) under the person's name."""
    require(can_rederive_ratings(user))
    return ratings_rederive_later(1, user=user)


def _run(job: Job, progress: Progress) -> Mapping[str, Any]:
    asked = dict(job.params)
    for failed in _uncovered(job):  # what a failed run left undone is done with this one
        asked = _merge(asked, failed.params)
    order = asked.get("order")
    players = [p for p in asked.get("players", []) if isinstance(p, int)]
    with transaction.atomic():
        if isinstance(order, int) and order > 1:
            rated = ratings_rederive_from(order, players=players, progress=progress)
        else:
            order, players = 1, []
            rated = ratings_rederive(progress=progress)
        # the ratings changed with no other change: the API's and the live pages' tags
        # follow the audit, so the job's end is in it
        audit_record(
            user=SYSTEM,
            code="ratings.rederived",
            subject=job,
            params={"order": order, "rated": rated},
        )
    return {"order": order, "rated": rated, **({"players": players} if players else {})}


def _uncovered(job: Job) -> list[Job]:
    """The ratings jobs that failed and that no run since has covered (from their order or
    earlier, their players included): a correction after a failure asks only from its own
    match, so the next run takes the failed ones' work on too. Few rows: the failed ones
    since the last whole re-derivation."""
    ratings = Job.objects.filter(kind=KIND).exclude(pk=job.pk)
    last_whole = (
        ratings.filter(state=Job.State.DONE, result__order=1)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    ) or 0
    failed = list(ratings.filter(state=Job.State.FAILED, pk__gt=last_whole).order_by("pk"))
    if not failed:
        return []
    done = list(
        ratings.filter(state=Job.State.DONE, pk__gt=failed[0].pk).values_list("pk", "result")
    )

    def covered(failed: Job) -> bool:
        order = failed.params.get("order") or 1
        players = set(failed.params.get("players", []))

        def covers(result: Mapping[str, Any]) -> bool:
            since = result.get("order") or 1
            return since == 1 or (since <= order and players <= set(result.get("players", [])))

        return any(pk > failed.pk and covers(result) for pk, result in done)

    return [f for f in failed if not covered(f)]


def _merge(waiting: Mapping[str, Any], asked: Mapping[str, Any]) -> dict[str, Any]:
    """Two corrections waiting: one re-derivation from the earlier of the two, starting again
    the players either named."""
    orders = [o for o in (waiting.get("order"), asked.get("order")) if isinstance(o, int)]
    merged: dict[str, Any] = {"order": min(orders) if orders else 1}
    players = sorted(
        {p for p in [*waiting.get("players", []), *asked.get("players", [])] if isinstance(p, int)}
    )
    if players:
        merged["players"] = players
    return merged


def _summary(result: Mapping[str, Any]) -> str:
    order = result.get("order") or 1
    rated = result.get("rated")
    if order <= 1:
        said = _("Every rating was worked out again from the first rated match.")
    else:
        said = ngettext(
            "The ratings were worked out again from rated match %(order)s on.",
            "The ratings were worked out again from rated match %(order)s on.",
            order,
        ) % {"order": order}
    if isinstance(rated, int):
        said += " " + _("Rated matches worked through: %(count)s.") % {"count": rated}
    return said


def _may_see(user: Actor, job: Job) -> bool:
    """Staff and the Directors group follow the ratings' work, whoever started it (the site,
    after a correction)."""
    return in_directors_group(user)


def _said(entry: AuditEntry, who: str) -> str:
    order = entry.params.get("order") or 1
    if order <= 1:
        return _("%(who)s worked every rating out again.") % {"who": who}
    return _("%(who)s worked the ratings out again from rated match %(order)s on.") % {
        "who": who,
        "order": order,
    }


def register() -> None:
    register_job_kind(
        JobKind(
            kind=KIND,
            title=gettext_noop("Bringing the players’ ratings up to date"),
            run=_run,
            summary=_summary,
            merge=_merge,
            may_see=_may_see,
        )
    )
    audit_sentences_register({"ratings.rederived": _said})
