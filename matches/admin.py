from django.contrib import admin

from .models import AuditEntry, Game, Match


class GameInline(admin.TabularInline):
    """Read-only here: games change through the match page, where the rules and the audit are."""

    model = Game
    extra = 0
    can_delete = False
    readonly_fields = ["number", "winner", "cube", "result", "resigned"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["date", "player_a", "player_b", "length", "status"]
    list_filter = ["status", "length"]
    search_fields = ["player_a__name", "player_b__name"]
    inlines = [GameInline]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "match", "user", "action"]
    readonly_fields = ["match", "user", "at", "action", "before", "after"]
