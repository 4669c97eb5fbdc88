"""A job's page (how far it got, why it stopped, its file), and the list of one's own work."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from club.policy import can_see_job, require, sign_in_required

from .kinds import job_error_text, job_kind, job_summary, job_title
from .models import Job, JobFile
from .progress import progress_read
from .services import job_file_read, job_retry, job_stuck

REFRESH_SECONDS = 2


def _visible(request: HttpRequest, pk: int) -> Job:
    """The job, if the visitor may follow it (its starter, staff, whom its kind names)."""
    job = Job.objects.filter(pk=pk).first()
    if job is None:
        raise Http404
    require(can_see_job(request.user, job))
    return job


def job_context(job: Job) -> dict[str, Any]:
    """What the page and its refreshed part show."""
    done, total = job.done, job.total
    if job.state == Job.State.RUNNING:
        heard = progress_read(job.pk)
        if heard is not None:
            done, total = heard[0], heard[1]
    kind = job_kind(job.kind)
    result_url = kind.result_url(job) if kind and kind.result_url and job.state == "done" else None
    return {
        "job": job,
        "title": job_title(job),
        "done": done,
        "total": total,
        "percent": round(100 * done / total) if total else None,
        "error_text": job_error_text(job) if job.state == Job.State.FAILED else "",
        "summary": job_summary(job) if job.state == Job.State.DONE else "",
        "output": JobFile.objects.filter(job=job, role=JobFile.Role.OUTPUT)
        .only("name", "size")
        .first(),
        "result_url": result_url,
        "stuck": job_stuck(job),
        "refresh_seconds": REFRESH_SECONDS,
    }


@sign_in_required
def job(request: HttpRequest, pk: int) -> HttpResponse:
    found = _visible(request, pk)
    context = job_context(found)
    if request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target") == "job":
        return render(request, "jobs/job_state.html", context)
    return render(request, "jobs/job.html", context)


@sign_in_required
@require_POST
def job_again(request: HttpRequest, pk: int) -> HttpResponse:
    found = _visible(request, pk)
    try:
        job_retry(job=found, user=request.user)
    except ValidationError as refusal:
        context = {**job_context(found), "refusal": " ".join(refusal.messages)}
        return render(request, "jobs/job.html", context, status=409)
    return redirect("jobs:job", pk=found.pk)


@sign_in_required
def job_download(request: HttpRequest, pk: int) -> HttpResponse:
    found = _visible(request, pk)
    kept = job_file_read(job=found, role=JobFile.Role.OUTPUT)
    if kept is None:
        raise Http404
    file, data = kept
    response = HttpResponse(data, content_type=file.content_type)
    response["Content-Disposition"] = f'attachment; filename="{file.name}"'
    return response


@sign_in_required
def jobs(request: HttpRequest) -> HttpResponse:
    """The visitor's own work, newest first (staff: everyone's), 25 a page."""
    user = request.user
    mine = Job.objects.all() if user.is_staff else Job.objects.filter(created_by_id=user.pk)
    page = Paginator(mine.order_by("-created_at", "-pk"), 25).get_page(request.GET.get("page"))
    rows = [(item, job_title(item)) for item in page.object_list]
    return render(request, "jobs/jobs.html", {"page": page, "rows": rows})
