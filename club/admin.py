"""The admin for the club's register and its audit trail.

A player's details (and the account linked to them) are saved through the players'
service, so each change is audited; ratings are derived from results and read-only.
The audit trail is read-only: nobody adds, edits or deletes an entry here.
"""

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .audit import audit_sentence
from .models import AuditEntry, Player
from .services import PLAYER_FIELDS, player_create, player_update


class ReadOnly:
    """Staff may look; every change goes through the site's pages and services."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club", "country", "rating", "experience"]
    search_fields = ["name", "club"]
    fields = [*PLAYER_FIELDS, "user", "rating", "experience"]
    readonly_fields = ["rating", "experience"]

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return False  # a player with results is kept; one entered by mistake is renamed

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        details = {field: form.cleaned_data[field] for field in PLAYER_FIELDS}
        if change:
            saved = player_update(
                player=obj, user=request.user, account=form.cleaned_data["user"], **details
            )
        else:
            saved = player_create(user=request.user, **details)
            if form.cleaned_data["user"] is not None:
                saved = player_update(
                    player=saved, user=request.user, account=form.cleaned_data["user"]
                )
        obj.pk = saved.pk
        obj.refresh_from_db()


# the audit trail's change view: the same "when" and sentence as the list (all read-only)
AUDIT_FIELDS = (
    "when", "user_name", "imported", "imported_username", "said", "code", "params",
    "before", "after", "subject_type", "subject_id", "match_id", "tournament_id",
    "dispute_id",
)  # fmt: skip


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, admin.ModelAdmin[AuditEntry]):
    # imported: who acted is a tournament file's claim, not an account of this site
    list_display = ["when", "user_name", "imported", "said", "code", "subject_type", "subject_id"]
    fields = readonly_fields = AUDIT_FIELDS
    list_filter = ["imported", "code"]
    search_fields = ["user_name", "code"]

    @admin.display(description=_("when"), ordering="at")
    def when(self, entry: AuditEntry) -> str:
        """The local time, as the entry's title says it (:meth:`AuditEntry.__str__`)."""
        return f"{timezone.localtime(entry.at):%Y-%m-%d %H:%M}"

    @admin.display(description=_("what happened"))
    def said(self, entry: AuditEntry) -> str:
        """The sentence the site's Changes pages show, in the admin's language: staff
        read what happened, not a code to look up."""
        return audit_sentence(entry)
