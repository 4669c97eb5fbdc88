"""How the jobs' changes read in the audit trail: a person starting long work, or trying it
again after it failed. The entry keeps the kind and its parameters; the title is made when
shown, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from club.audit import audit_sentences_register
from club.models import AuditEntry

from .kinds import job_title
from .models import Job


def _title(entry: AuditEntry) -> str:
    return job_title(Job(kind=entry.params.get("kind", ""), params=entry.params.get("params", {})))


def _started(entry: AuditEntry, who: str) -> str:
    return _("%(who)s started: %(title)s.") % {"who": who, "title": _title(entry)}


def _retried(entry: AuditEntry, who: str) -> str:
    return _("%(who)s tried again: %(title)s.") % {"who": who, "title": _title(entry)}


def register() -> None:
    audit_sentences_register({"job.started": _started, "job.retried": _retried})
