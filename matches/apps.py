from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from . import audit
        from .board.clock import clock_sentences_register

        audit.register()
        clock_sentences_register()
