"""Tournament fixtures, stacked small: a field of players, a tournament, an event drawn."""

import datetime

import pytest


@pytest.fixture
def field(db):
    """field(n): n players named P01.. with ratings falling from 1700 (P01 is the best)."""
    from decimal import Decimal

    from tournaments.models import Player
    from tournaments.services import player_create

    def make(count, prefix="P"):
        made = [player_create(name=f"{prefix}{i:02}") for i in range(1, count + 1)]
        for index, player in enumerate(made):
            player.rating = Decimal(1700 - 10 * index)
        Player.objects.bulk_update(made, ["rating"])
        return made

    return make


@pytest.fixture
def tournament(director):
    from tournaments.services import tournament_create

    return tournament_create(
        name="Torneo di Natale", date=datetime.date(2026, 12, 13), venue="Milano", user=director
    )


@pytest.fixture
def event_with(tournament, field, director):
    """event_with(format, players, **options): an event with the players entered and checked in."""
    from tournaments.services import entry_check_in, entry_register, event_create

    def make(format, players, *, lengths=(5, 5, 7, 7, 9, 11), check_in=True, **options):
        event = event_create(
            tournament=tournament,
            name=f"{format} {len(players) if isinstance(players, list) else players}",
            format=format,
            lengths=list(lengths),
            user=director,
            **options,
        )
        people = players if isinstance(players, list) else field(players)
        for player in people:
            entry = entry_register(event=event, player=player, user=director)
            if check_in:
                entry_check_in(entry=entry, user=director)
        return event

    return make


@pytest.fixture
def finish(director):
    """finish(match, winner_player): the final score, the winner reaching the length."""
    from matches.models import Match
    from matches.services import match_record_final_score

    def play(match, winner, loser_points=0):
        fresh = Match.objects.get(pk=match.pk)
        a_wins = winner.pk == fresh.player_a_id
        scores = (fresh.length, loser_points) if a_wins else (loser_points, fresh.length)
        return match_record_final_score(
            match=fresh, score_a=scores[0], score_b=scores[1], user=director
        )

    return play
