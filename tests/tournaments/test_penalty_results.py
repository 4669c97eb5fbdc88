"""Penalty points and forfeits flow into a tournament like any result (tournament rules):
the winner moves on, ratings count it, and taking one back is a correction (US rules 4.10).
"""

import pytest
from django.core.exceptions import ValidationError

from matches.models import Match
from matches.penalties import match_forfeit, match_penalty_award, match_penalty_remove
from matches.services import match_result_clear
from tests.tournaments.helpers import by_key
from tournaments.models import Event, RatingChange
from tournaments.queries.knockouts import event_knockout
from tournaments.services import event_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(event_with, director):
    event = event_with(Event.Format.SINGLE, 4, lengths=(5,))
    event_draw(event=event, seed=1, user=director)
    return event


def fresh(match):
    return Match.objects.get(pk=match.pk)


def test_a_time_forfeit_moves_the_winner_on_and_is_rated(four, record, director, finish):
    other = by_key(four, "M1-2")
    finish(other, other.player_a)
    match = by_key(four, "M1-1")
    record(match, 0)
    match_forfeit(match=fresh(match), side=0, reason="time", user=director)
    final = by_key(four, "M2-1")
    assert match.player_b in (final.player_a, final.player_b)
    assert RatingChange.objects.filter(match=match).count() == 2  # played, so rated
    winner = next(c for c in RatingChange.objects.filter(match=match) if c.player == match.player_b)
    assert winner.rating_after > winner.rating_before


def test_penalty_points_that_win_the_match_move_the_winner_on(four, director, finish):
    other = by_key(four, "M1-1")
    finish(other, other.player_a)
    match = by_key(four, "M1-2")
    match_penalty_award(
        match=fresh(match), side=1, points=5, reason="lateness", minutes_late=50, user=director
    )
    assert fresh(match).status == Match.Status.FINISHED
    knockout = event_knockout(event=four)
    final = by_key(four, "M2-1")
    assert match.player_a in (final.player_a, final.player_b)
    assert knockout is not None


def test_a_forfeit_taken_back_takes_the_winner_back_out(four, record, director):
    match = by_key(four, "M1-1")
    record(match, 0)
    match_forfeit(match=fresh(match), side=1, reason="lateness", user=director)
    assert RatingChange.objects.filter(match=match).exists()
    match_result_clear(match=fresh(match), user=director)
    assert fresh(match).status == Match.Status.IN_PLAY
    assert not RatingChange.objects.filter(match=match).exists()
    knockout = event_knockout(event=four)
    assert knockout is not None and knockout.champion is None


def test_a_penalty_is_not_taken_back_once_the_next_match_has_begun(four, record, director, finish):
    """US rules 4.10: the same rule as correcting a game."""
    first, second = by_key(four, "M1-1"), by_key(four, "M1-2")
    penalty = match_penalty_award(
        match=fresh(first), side=1, points=5, reason="director", note="Abuse", user=director
    )
    finish(second, second.player_a)
    record(by_key(four, "M2-1"), 0)  # the final has begun
    with pytest.raises(ValidationError) as refused:
        match_penalty_remove(penalty=penalty, user=director)
    assert "US rules 4.10" in refused.value.messages[0]
