"""The kinds of work: each app registers its own at start-up (its ``AppConfig.ready``), so this
app, below them, runs their handlers without importing them.

A handler takes the job and a :class:`Progress` and returns a summary (codes and figures, put in
words by the kind's ``summary``). It must be safe to run again after a failure part-way: it
works in transactions of its own and skips what is already done, so "Try again" never
duplicates anything. It says why it cannot go on by raising :class:`JobFailed` with a code of
its ``errors``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

if TYPE_CHECKING:
    from club.actors import Actor

    from .models import Job


class Progress(Protocol):
    def __call__(self, done: int, total: int) -> None: ...


Handler = Callable[["Job", Progress], Mapping[str, Any]]


class JobFailed(Exception):
    """The work cannot go on, for a reason the kind's ``errors`` put in words: a code and its
    parameters (never a sentence made here)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


# what any job may end with, whatever its kind
COMMON_ERRORS: dict[str, str] = {
    "crashed": gettext_noop(
        "The work stopped on an error of the site (it is in the site’s log). Try again; if it "
        "stops again, tell the site’s administrator."
    ),
    "unavailable": gettext_noop(
        "The database or the job queue did not answer, %(attempts)s times. Try again in a few "
        "minutes."
    ),
    "unknown_kind": gettext_noop("This site no longer knows this kind of work (%(kind)s)."),
}


@dataclass(frozen=True)
class JobKind:
    kind: str  # "ratings.rederive": the app, then what
    title: str  # a msgid (gettext_noop), with %(name)s parameters from the job's params
    run: Handler
    errors: Mapping[str, str] = field(default_factory=dict)  # code -> msgid with %(params)s
    # the result in words, in the viewer's language (None: nothing more than "Done")
    summary: Callable[[Mapping[str, Any]], str] | None = None
    # a second request for work already waiting: its params and the waiting job's, merged
    # (None: the waiting job is kept as it is)
    merge: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None
    # who besides the job's starter (and staff) may follow it
    may_see: Callable[[Actor, Job], bool] | None = None
    # where its result is looked at, once done (None: the job's own page)
    result_url: Callable[[Job], str | None] | None = None
    retries: int = 3  # automatic retries when the database or the queue does not answer
    # more errors that mean "not now" for this kind (a mail server down: OSError, SMTPException)
    transient: tuple[type[Exception], ...] = ()


_KINDS: dict[str, JobKind] = {}


def register_job_kind(kind: JobKind) -> None:
    _KINDS[kind.kind] = kind


def job_kind(kind: str) -> JobKind | None:
    return _KINDS.get(kind)


def job_watchers(user: Actor, job: Job) -> bool:
    """The policy's question to the job's kind (club.policy.can_see_job asks it)."""
    found = _KINDS.get(job.kind)
    return found is not None and found.may_see is not None and found.may_see(user, job)


def job_title(job: Job) -> str:
    found = job_kind(job.kind)
    if found is None:
        return job.kind
    try:
        return str(_(found.title) % job.params)
    except (KeyError, TypeError, ValueError):
        return _(found.title)


def job_error_text(job: Job) -> str:
    """Why a failed job stopped, in the viewer's language."""
    found = job_kind(job.kind)
    words = dict(COMMON_ERRORS)
    if found is not None:
        words.update(found.errors)
    msgid = words.get(job.error) or COMMON_ERRORS["crashed"]
    try:
        return str(_(msgid) % job.error_params)
    except (KeyError, TypeError, ValueError):
        return _(msgid)


def job_summary(job: Job) -> str:
    found = job_kind(job.kind)
    if found is None or found.summary is None:
        return ""
    return found.summary(job.result)
