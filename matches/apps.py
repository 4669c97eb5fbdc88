from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from . import archive, audit, export_jobs, notify
        from .board.clock import clock_sentences_register

        audit.register()
        clock_sentences_register()
        # the long work this app gives the job queue
        archive.register()
        export_jobs.register()
        notify.register()
