from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    """The bottom of the site: players, who may change what, and the record of every change."""

    name = "club"
    verbose_name = _("Club")

    def ready(self) -> None:
        from . import sentences, table_cells

        sentences.register()
        table_cells.install()
