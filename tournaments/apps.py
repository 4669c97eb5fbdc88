from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Tell the apps below where a match is played and what follows its results."""
        from club.policy import register_match_scope
        from matches.hooks import register_result_listener

        from . import audit
        from .advancement import tournament_results
        from .selectors import match_scope

        register_match_scope(match_scope)
        register_result_listener(tournament_results)
        audit.register()
