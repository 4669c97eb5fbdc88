"""The admin shows tables but changes none: a table changes through the site's services,
where the engine replays its log, the version check and the audit are. An event edited here
would change every total after it with nothing in the audit."""

from django.contrib import admin

from club.admin import ReadOnly

from .models import Seat, Table, TableEvent


class SeatInline(ReadOnly, admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    fields = readonly_fields = ("player", "stake_cents", "joined")


class TableEventInline(ReadOnly, admin.TabularInline[TableEvent, Table]):
    model = TableEvent
    extra = 0
    fields = readonly_fields = ("seq", "data", "author", "created")


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin[Table]):
    list_display = ["name", "kind", "code", "created", "closed"]
    list_filter = ["kind"]
    search_fields = ["name", "code", "seats__player__name"]
    fields = readonly_fields = (
        "name",
        "kind",
        "code",
        "settings",
        "created_by",
        "created",
        "closed",
        "version",
    )
    inlines = [SeatInline, TableEventInline]
