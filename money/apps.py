from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MoneyConfig(AppConfig):
    name = "money"
    verbose_name = _("Money sessions and chouettes")

    def ready(self) -> None:
        """How the tables' changes read in the audit trail."""
        from . import audit

        audit.register()
