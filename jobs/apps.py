from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JobsConfig(AppConfig):
    name = "jobs"
    verbose_name = _("Background work")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from club.policy import register_job_watchers

        from . import audit
        from .kinds import job_watchers

        audit.register()
        register_job_watchers(job_watchers)
