"""What the permission policy reads of tournaments (registered at start-up): where a match
is played, where a player plays, who directs; and the directors who play in their own.

The pages' reads of tournaments, events and players are in :mod:`tournaments.queries`.
"""

from __future__ import annotations

from typing import cast

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from club.actors import Actor
from club.models import Player
from club.policy import MatchScope, PlayerScope
from matches.models import Match
from matches.places import MatchPlace, ReportDetail

from .models import Place, Table, Tournament


def match_scope(match: Match) -> MatchScope | None:
    """Where a match is played, for the policy (registered at start-up): its tournament,
    who directs it, what the tournament lets its players do; None for a match outside
    any tournament."""
    tournament = Tournament.objects.filter(events__places__match_id=match.pk).first()
    if tournament is None:
        return None
    return MatchScope(
        tournament_id=tournament.pk,
        directors=frozenset(tournament.directors.values_list("pk", flat=True)),
        physical_dice=tournament.physical_dice,
        player_reports=tournament.results_by == tournament.ResultsBy.PLAYERS,
    )


def match_place(match: Match) -> MatchPlace | None:
    """Where a match is played and how its result is reported, for the match's pages
    (registered at start-up, see :mod:`matches.places`); None for a match outside any
    tournament."""
    place = (
        Place.objects.filter(match_id=match.pk)
        .select_related("event__tournament", "event__parent", "match__table")
        .first()
    )
    if place is None:
        return None
    tournament = place.event.tournament
    try:
        table: int | None = place.match.table.number
    except Table.DoesNotExist:
        table = None
    return MatchPlace(
        # one of the three, by the table's constraint (tournament_report_detail_known)
        report_detail=cast(ReportDetail, tournament.report_detail),
        confirm_minutes=tournament.confirm_minutes,
        label=_("%(tournament)s · %(event)s · %(round)s (%(key)s)")
        % {
            "tournament": tournament.name,
            "event": place.event.name,
            "round": str(place.round_name),  # "round 2", "final"
            "key": place.bracket_key,
        },
        url=place.event.get_absolute_url(),
        table=table,
    )


def player_scope(player: Player) -> PlayerScope:
    """The directors of every tournament the player is entered in or has a match of (a
    substitute's predecessor keeps their matches), for the policy (registered at start-up)."""
    played = Tournament.objects.filter(
        Q(events__entries__player=player.pk)
        | Q(events__places__match__player_a=player.pk)
        | Q(events__places__match__player_b=player.pk)
    )
    directors = Tournament.directors.through.objects.filter(
        tournament__in=played.values("pk")
    ).values_list("user_id", flat=True)
    entered = played.exists()
    return PlayerScope(entered=entered, directors=frozenset(directors) if entered else frozenset())


def tournament_playing_directors(*, tournament: Tournament) -> QuerySet[Player]:
    """The players entered in the tournament whose account is one of its directors: a link
    the policy refuses to make (:func:`club.policy.link_refusal`), but which a director
    added, or an entry made, after the link brings about; the tournament's page says so."""
    return (
        Player.objects.filter(
            entries__event__tournament=tournament,
            user__in=tournament.directors.values("pk"),
        )
        .distinct()
        .order_by("sort_name", "name", "id")
    )


def directs_a_tournament(user: Actor) -> bool:
    """The account directs some tournament (for the policy, registered at start-up)."""
    if user.pk is None:  # a visitor, or the site itself
        return False
    return Tournament.directors.through.objects.filter(user_id=user.pk).exists()
