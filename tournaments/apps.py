from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Tell the apps below where a match is played, where a player plays, who directs,
        how a tournament's results are reported, what follows a match's results, and the
        clock rule a match is played under."""
        from club.policy import register_match_scope, register_player_scope
        from matches.clocks import register_clock_rules
        from matches.hooks import register_result_listener
        from matches.places import register_place_finder

        from . import audit, ratings_jobs
        from .advancement import tournament_results
        from .clocks import tournament_clock_rules
        from .selectors import directs_a_tournament, match_place, match_scope, player_scope

        register_match_scope(match_scope)
        register_place_finder(match_place)
        register_player_scope(player_scope, directing=directs_a_tournament)
        register_result_listener(tournament_results)
        register_clock_rules(tournament_clock_rules)
        audit.register()
        ratings_jobs.register()
