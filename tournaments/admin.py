from django.contrib import admin

from .models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "country", "rating", "experience"]
    search_fields = ["name", "club"]
