"""A list's whole CSV as background work, when its download is capped (issue 29).

A download is streamed and holds at most ``EXPORT_MAX_ROWS`` rows (:mod:`club.tables`), so no
request reads a season. The whole file is prepared by a job instead: the list is built again
from its name and its filters (the registry below: each app that has a list registers how to
build it, as the matches do here), read a slice at a time with progress after each, and kept
as the job's file, which the job's page offers. The same columns, cells and language as the
streamed file, with every row.

The job's key is the visitor, the list and its filters, so a double click prepares one file.
Running it again writes the file again whole: nothing is added twice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import django_tables2 as tables
from django.http import HttpRequest, QueryDict
from django.utils import translation
from django.utils.translation import gettext_noop, ngettext
from django_tables2 import RequestConfig

from club.actors import Actor
from club.tables import export_query, export_whole
from jobs.kinds import JobFailed, JobKind, Progress, register_job_kind
from jobs.models import Job, JobFile
from jobs.services import job_file_write, job_start

KIND = "tables.export"

# a list's name (its download's file name) -> the table its filters (a query string) make
_TABLES: dict[str, Callable[[QueryDict], tables.Table]] = {}


def register_export_table(name: str, build: Callable[[QueryDict], tables.Table]) -> None:
    _TABLES[name] = build


def export_table_known(name: str) -> bool:
    return name in _TABLES


def _matches_table(query: QueryDict) -> tables.Table:
    from .filters import MatchFilter
    from .selectors import match_list
    from .tables import MatchTable

    return MatchTable(MatchFilter(query, queryset=match_list()).qs)


def export_prepare(*, user: Actor, table: str, query: QueryDict, language: str) -> Job:
    """Start preparing the whole file of the list ``table`` as its filters ``query`` choose,
    in ``language`` (the visitor's, as the streamed file is written in); the same asked again
    while it waits is the same job."""
    if table not in _TABLES:
        raise ValueError(f"no list {table!r} is registered for export")
    filters = export_query(query)
    digest = hashlib.sha256(filters.encode()).hexdigest()[:32]
    return job_start(
        kind=KIND,
        user=user,
        params={"table": table, "query": filters, "language": language},
        key=f"{getattr(user, 'pk', '')}:{table}:{digest}",
    )


def _run(job: Job, progress: Progress) -> Mapping[str, Any]:
    name = str(job.params.get("table", ""))
    build = _TABLES.get(name)
    if build is None:
        raise JobFailed("unknown_table", table=name)
    query = QueryDict(str(job.params.get("query", "")))
    with translation.override(str(job.params.get("language") or "") or None):
        table = build(query)
        asked = HttpRequest()
        asked.GET = query  # the list's order, as the page sorted it
        RequestConfig(asked, paginate=False).configure(table)
        text, rows = export_whole(table, progress)
    job_file_write(
        job=job,
        role=JobFile.Role.OUTPUT,
        name=f"{name}.csv",
        content_type="text/csv; charset=utf-8",
        data=text.encode("utf-8"),
    )
    return {"rows": rows}


def _summary(result: Mapping[str, Any]) -> str:
    rows = int(result.get("rows") or 0)
    return ngettext("The file holds %(rows)s row.", "The file holds %(rows)s rows.", rows) % {
        "rows": rows
    }


def register() -> None:
    register_export_table("matches", _matches_table)
    register_job_kind(
        JobKind(
            kind=KIND,
            title=gettext_noop("The whole list as a CSV file (%(table)s.csv)"),
            run=_run,
            summary=_summary,
            errors={"unknown_table": gettext_noop("This site no longer has the list %(table)s.")},
        )
    )
