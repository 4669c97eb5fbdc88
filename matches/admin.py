"""The admin shows matches but changes none: results change through the site's services,
where the rules, the correction rule (US rules 4.10), the version check and the audit are.
A match's players, length, result or place edited here would make a bracket show players
who never met, with nothing in the audit."""

from django.contrib import admin

from club.admin import ReadOnly

from .models import Game, Match


class GameInline(ReadOnly, admin.TabularInline[Game, Match]):
    model = Game
    extra = 0
    fields = ["number", "winner", "cube", "result", "resigned"]


@admin.register(Match)
class MatchAdmin(ReadOnly, admin.ModelAdmin[Match]):
    list_display = ["date", "player_a", "player_b", "length", "status"]
    list_filter = ["status", "length"]
    search_fields = ["player_a__name", "player_b__name"]
    inlines = [GameInline]
