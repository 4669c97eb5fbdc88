"""Results and their audit trail are never deleted by accident; ratings follow results."""

from decimal import Decimal

import pytest
from django.db.models import ProtectedError

from club.models import AuditEntry, Player
from club.policy import SYSTEM
from matches.models import Game, Match
from matches.services import match_delete, match_record_final_score, match_walkover
from tournaments.models import Event, RatingChange, Tournament
from tournaments.services import event_draw

pytestmark = pytest.mark.django_db


def test_a_tournament_with_results_cannot_be_deleted(event_with, director, record):
    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    match = Match.objects.filter(place__event=event).first()
    record(match, 0)
    trail = AuditEntry.objects.filter(tournament_id=event.tournament_id).count()
    with pytest.raises(ProtectedError):
        event.tournament.delete()
    with pytest.raises(ProtectedError):
        Match.objects.get(pk=match.pk).delete()
    assert Tournament.objects.filter(pk=event.tournament_id).exists()
    assert Game.objects.filter(match=match).count() == 1
    assert AuditEntry.objects.filter(tournament_id=event.tournament_id).count() == trail


def test_a_match_never_begun_may_go_and_its_trail_stays(match5):
    match_delete(match=match5, user=SYSTEM)
    assert not Match.objects.filter(pk=match5.pk).exists()
    codes = list(AuditEntry.objects.filter(match_id=match5.pk).values_list("code", flat=True))
    assert sorted(codes) == ["match.created", "match.deleted"]


def test_a_rated_result_that_disappears_takes_its_rating_change_with_it(match5, director):
    match_record_final_score(match=match5, score_a=5, score_b=2, user=director)
    assert RatingChange.objects.filter(match=match5).count() == 2
    with pytest.raises(ProtectedError):
        Match.objects.get(pk=match5.pk).delete()  # the history holds it
    # it was a walkover after all: not a rated result any more
    match_walkover(match=Match.objects.get(pk=match5.pk), winner=0, user=director)
    assert not RatingChange.objects.exists()
    ratings = set(Player.objects.values_list("rating", "experience"))
    assert ratings == {(Decimal("1500.00"), 0)}
