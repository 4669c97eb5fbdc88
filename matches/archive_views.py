"""Pages that hand long work to the job queue (issue 29): a director's archive of match files
to import, and a list's whole CSV when its download is capped.

Each parses the request, asks the policy, calls one service, and sends the visitor to the
job's page, which follows the work and offers its result.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import number_format
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from club.policy import can_create, require, sign_in_required
from club.tables import export_query
from club.uploads import size_gate

from .archive import archive_import_start, archive_too_large
from .export_jobs import export_prepare, export_table_known

# what a request to the archive page may carry besides the archive: the form's few fields
FORM_OVERHEAD_BYTES = 65_536


class ArchiveForm(forms.Form):
    archive = forms.FileField(label=_("Archive of match files (.zip)"))

    @property
    def status(self) -> int:
        """413 for an archive over the limit, 400 for another refusal."""
        if self.has_error(NON_FIELD_ERRORS, "too_large"):
            return 413
        return 400 if self.errors else 200


# an archive larger than one may be is refused before Django reads the request, as one
# match file is (club.uploads.size_gate): the page with its empty form and the limit in words
archive_size_gate = size_gate(
    lambda: settings.ARCHIVE_MAX_BYTES + FORM_OVERHEAD_BYTES, "archive_too_large"
)


@archive_size_gate
@sign_in_required
@require_http_methods(["GET", "POST"])
def archive_import(request: HttpRequest) -> HttpResponse:
    """Upload a .zip of .mat files; its import runs as a job, whose page says how it went."""
    require(can_create(request.user))
    if getattr(request, "archive_too_large", False):
        form = ArchiveForm({})
        form.add_error(None, archive_too_large())
    elif request.method == "POST":
        form = ArchiveForm(request.POST, request.FILES)
    else:
        form = ArchiveForm()
    if form.is_bound and form.is_valid():
        upload = form.cleaned_data["archive"]
        try:
            if upload.size > settings.ARCHIVE_MAX_BYTES:
                raise archive_too_large()
            job = archive_import_start(
                user=request.user,
                name=upload.name or "archive.zip",
                data=upload.read(),
                language=get_language(),
            )
        except ValidationError as refusal:
            form.add_error(None, refusal)
        else:
            return redirect("jobs:job", pk=job.pk)
    context = {
        "form": form,
        "archive_max_mb": number_format(settings.ARCHIVE_MAX_BYTES // 1_000_000),
        "match_file_max_kb": number_format(
            settings.MATCH_FILE_MAX_BYTES // 1000, force_grouping=True
        ),
    }
    return render(request, "matches_import.html", context, status=form.status)


@sign_in_required
@require_http_methods(["GET", "POST"])
def table_prepare(request: HttpRequest, table: str) -> HttpResponse:
    """The whole CSV of a list, its filters and order as the address says, as a job: asked
    with a button (a POST), or shown first to a visitor sent here through the sign-in."""
    if not export_table_known(table):
        raise Http404
    if request.method == "POST":
        job = export_prepare(
            user=request.user, table=table, query=request.GET, language=get_language()
        )
        return redirect("jobs:job", pk=job.pk)
    query = export_query(request.GET)
    return render(request, "table_prepare.html", {"table": table, "query": query})
