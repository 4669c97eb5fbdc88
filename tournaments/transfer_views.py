"""Moving a tournament: its directors download it whole; a director imports one from a file.

Each view parses the request, asks the policy, calls one selector or service, and renders.
The import is shown before it is made: the uploaded file is kept on the server under a key
bound to the importer (:mod:`tournaments.transfer_preview`), the confirmation posts that key
and the directors ticked, and the file is checked again as it is imported.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import etag, require_GET, require_http_methods

from club.policy import can_create, can_direct, require, sign_in_required

from .models import Tournament
from .transfer import (
    MAX_BYTES,
    ImportPlan,
    document_schema_tag,
    document_schema_text,
    import_directors_offered,
    tournament_export_text,
)
from .transfer_preview import (
    tournament_preview,
    tournament_preview_again,
    tournament_preview_import,
)


@sign_in_required
@require_GET
def tournament_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole tournament as JSON: it holds the players' emails and phones, so only its
    directors (and staff) may download it."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    try:
        text = tournament_export_text(tournament=found)
    except ValidationError as refused:  # a value no file can carry: said on the page
        messages.error(request, " ".join(refused.messages))
        return redirect(found)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    name = slugify(f"{found.name} {found.date}") or f"tournament-{found.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


class TournamentFileForm(forms.Form):
    """A tournament file to preview, or, to confirm a preview, the key it is kept under."""

    file = forms.FileField(
        label=gettext_lazy("Tournament file (.json)"),
        required=False,
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )
    key = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        data["data"] = upload.read(MAX_BYTES + 1) if upload else None
        if data["data"] is None and not data.get("key"):
            raise ValidationError(_("Choose a tournament file."))
        return data


def _preview(request: HttpRequest, key: str, plan: ImportPlan, chosen: list[str]) -> dict[str, Any]:
    """What the preview shows: the plan, its key, and the directors the file names as the
    importer may choose them (ticked: ``chosen``; none at first)."""
    offered = import_directors_offered(plan=plan, user=request.user)
    return {
        "plan": plan,
        "key": key,
        "offered": offered,
        "not_offered": [account for account in plan.directors if account not in offered],
        "chosen": chosen,
    }


def _refused_again(request: HttpRequest, key: str, chosen: list[str]) -> dict[str, Any]:
    """After a refused confirmation, the preview again (nothing if the file is gone)."""
    try:
        plan = tournament_preview_again(key=key, user=request.user)
    except ValidationError:
        return {}
    return _preview(request, key, plan, chosen)


@sign_in_required
@require_http_methods(["GET", "POST"])
def tournament_import_view(request: HttpRequest) -> HttpResponse:
    """Upload a tournament file, see what it will create, confirm; refusals on the page."""
    require(can_create(request.user))
    posted = request.method == "POST"
    form = TournamentFileForm(request.POST if posted else None, request.FILES if posted else None)
    context: dict[str, Any] = {"form": form}
    if not posted:
        return render(request, "tournament_import.html", context)
    if form.is_valid():
        data, key = form.cleaned_data["data"], form.cleaned_data["key"]
        chosen = request.POST.getlist("directors")
        try:
            if data is not None:
                key, plan = tournament_preview(data=data, user=request.user)
                context.update(_preview(request, key, plan, []))
                return render(request, "tournament_import.html", context)
            created = tournament_preview_import(key=key, user=request.user, directors=chosen)
            messages.success(
                request, _("The tournament %(name)s is imported.") % {"name": created.name}
            )
            return redirect(created)
        except ValidationError as error:
            form.add_error(None, error)
            if data is None:
                context.update(_refused_again(request, key, chosen))
    return render(request, "tournament_import.html", context, status=400)


@etag(lambda request: f'"{document_schema_tag()}"')
def transfer_schema(request: HttpRequest) -> HttpResponse:
    """The tournament file's JSON Schema (what the export writes and the import reads), public
    like the API's OpenAPI schema beside it (``/api/v1/transfer.schema.json``): a file's shape
    holds nothing private."""
    return HttpResponse(document_schema_text(), content_type="application/json; charset=utf-8")
