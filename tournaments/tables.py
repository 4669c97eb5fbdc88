import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Player


class PlayerTable(tables.Table):
    name = tables.Column(linkify=True)
    rating = tables.Column(verbose_name=_("rating"))

    class Meta:
        model = Player
        fields = ["name", "club", "country", "rating", "experience"]
        attrs = {"class": "table"}
