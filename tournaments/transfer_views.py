"""Moving a tournament: its directors download it whole; a director imports one from a file.

Each view parses the request, asks the policy, calls one selector or service, and renders.
The import is shown before it is made: the checked file travels from the preview to the
confirmation signed and compressed in the form (:mod:`django.core.signing`), so nothing is
kept on the server in between, and the confirmation checks it all again.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from club.policy import can_create, can_direct, require, sign_in_required

from .models import Tournament
from .transfer import (
    MAX_BYTES,
    ImportPlan,
    document_read,
    import_directors_offered,
    tournament_export_text,
    tournament_import,
    tournament_import_plan,
)

SALT = "tournaments.transfer.import"
KEPT = 24 * 60 * 60  # a preview may be confirmed for a day


@sign_in_required
@require_GET
def tournament_export(request, pk: int):
    """The whole tournament as JSON: it holds the players' emails and phones, so only its
    directors (and staff) may download it."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    response = HttpResponse(
        tournament_export_text(tournament=found), content_type="application/json; charset=utf-8"
    )
    name = slugify(f"{found.name} {found.date}") or f"tournament-{found.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


class TournamentFileForm(forms.Form):
    """A tournament file, uploaded; after the preview, the checked file signed in ``checked``."""

    file = forms.FileField(
        label=gettext_lazy("Tournament file (.json)"),
        required=False,
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )
    checked = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            data["document"] = document_read(upload.read(MAX_BYTES + 1))
            data["checked"] = signing.dumps(data["document"], salt=SALT, compress=True)
        elif data.get("checked"):
            try:
                data["document"] = signing.loads(data["checked"], salt=SALT, max_age=KEPT)
            except signing.BadSignature as error:
                raise ValidationError(
                    _("The file you checked has expired or was changed: choose it again.")
                ) from error
        else:
            raise ValidationError(_("Choose a tournament file."))
        return data


def _preview(request, plan: ImportPlan, chosen: list[str]) -> dict:
    """What the preview shows: the plan, and the directors the file names as the importer
    may choose them (ticked: ``chosen``; none at first)."""
    offered = import_directors_offered(plan=plan, user=request.user)
    return {
        "plan": plan,
        "offered": offered,
        "not_offered": [account for account in plan.directors if account not in offered],
        "chosen": chosen,
    }


@sign_in_required
@require_http_methods(["GET", "POST"])
def tournament_import_view(request):
    """Upload a tournament file, see what it will create, confirm; refusals on the page."""
    require(can_create(request.user))
    posted = request.method == "POST"
    form = TournamentFileForm(request.POST if posted else None, request.FILES if posted else None)
    context: dict = {"form": form}
    status = 200
    if posted:
        status = 400
        if form.is_valid():
            document = form.cleaned_data["document"]
            chosen = request.POST.getlist("directors") if "confirm" in request.POST else []
            try:
                if "confirm" in request.POST:
                    created = tournament_import(
                        document=document, user=request.user, directors=chosen
                    )
                    messages.success(
                        request,
                        _("The tournament %(name)s is imported.") % {"name": created.name},
                    )
                    return redirect(created)
                context.update(_preview(request, tournament_import_plan(document=document), []))
                context["checked"] = form.cleaned_data["checked"]
                status = 200
            except ValidationError as error:
                form.add_error(None, error)
                if "confirm" in request.POST:  # the preview again, to choose otherwise
                    try:
                        plan = tournament_import_plan(document=document)
                    except ValidationError:
                        plan = None
                    if plan is not None:
                        context.update(_preview(request, plan, chosen))
                        context["checked"] = form.cleaned_data["checked"]
    return render(request, "tournament_import.html", context, status=status)
