import django_tables2 as tables
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from .models import Player


class PlayerTable(tables.Table):
    name = tables.Column(linkify=True)
    rating = tables.Column(verbose_name=_("rating"))

    class Meta:
        model = Player
        fields = ["name", "club", "country", "rating", "experience"]
        attrs = {"class": "table"}


def table_page(request, table, filterset, template: str, export_name: str):
    """A filtered, sorted, paginated table page, or its CSV when ``?_export=csv`` asks."""
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    export = request.GET.get("_export")
    if TableExport.is_valid_format(export):
        return TableExport(export, table).response(f"{export_name}.{export}")
    return render(request, template, {"table": table, "filter": filterset})
