"""A corrected result works the ratings out again from that result on, not from the start
(tournaments.advancement.ratings_rederive_from), and gives what the whole history gives."""

import contextlib
from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from club.models import Player
from club.policy import SYSTEM
from club.services import player_create
from matches.models import Match
from matches.services import (
    match_create,
    match_record_final_score,
    match_result_clear,
    match_walkover,
)
from tests.tournaments.helpers import clock_at, final_score, ratings_now
from tournaments.advancement import ratings_rederive, ratings_rederive_from
from tournaments.models import RatingChange

pytestmark = pytest.mark.django_db

LENGTHS = (1, 3, 5, 7)


class _Undo(Exception):
    pass


operations = st.lists(
    st.tuples(
        st.sampled_from(["new", "new", "correct", "clear", "walkover", "again"]),
        st.integers(0, 4),  # player a (or the match, for the others)
        st.integers(0, 4),  # player b
        st.sampled_from(LENGTHS),
        st.booleans(),  # a wins
        st.integers(0, 6),  # the loser's points
        st.integers(0, 5),  # the clock, in minutes: ties and results out of order
    ),
    min_size=1,
    max_size=12,
)


def test_any_results_and_corrections_give_what_the_whole_history_gives(director):
    players = [player_create(name=f"R{i}", user=SYSTEM) for i in range(5)]

    @settings(max_examples=60, deadline=None, database=None)
    @given(operations)
    def history(steps):
        try:
            with transaction.atomic():
                _play(steps)
                raise _Undo
        except _Undo:
            pass

    def _play(steps):
        matches: list[Match] = []
        for kind, first, second, length, a_wins, loser_points, minute in steps:
            # a refusal in plain words (a walkover recorded twice…) changes nothing
            with contextlib.suppress(ValidationError):
                _step(matches, kind, first, second, length, a_wins, loser_points, minute)
            step = ratings_now()
            ratings_rederive()
            assert ratings_now() == step, (kind, steps)

    def _step(matches, kind, first, second, length, a_wins, loser_points, minute):
        with clock_at(minute), transaction.atomic():
            if kind == "new" or not matches:
                if first == second:
                    second = (first + 1) % len(players)
                match = match_create(
                    player_a=players[first], player_b=players[second], length=length, user=SYSTEM
                )
                score = final_score(match, a_wins, loser_points)
                match_record_final_score(
                    match=match, score_a=score[0], score_b=score[1], user=director
                )
                matches.append(match)
                return
            match = Match.objects.get(pk=matches[first % len(matches)].pk)
            if kind == "clear" and match.decided:
                match_result_clear(match=match, user=director)
            elif kind == "walkover":
                match_walkover(match=match, winner=0 if a_wins else 1, user=director)
            elif kind in ("correct", "again"):
                score = final_score(match, a_wins, loser_points)
                match_record_final_score(
                    match=match, score_a=score[0], score_b=score[1], user=director
                )

    history()


def test_a_correction_rewrites_only_what_follows_it(director):
    anna, bruno, carla = (player_create(name=n, user=SYSTEM) for n in ("Anna", "Bruno", "Carla"))
    first = match_create(player_a=anna, player_b=carla, length=3, user=SYSTEM)
    match_record_final_score(match=first, score_a=3, score_b=1, user=director)
    kept = RatingChange.objects.get(player=carla)
    corrected = match_create(player_a=anna, player_b=bruno, length=5, user=SYSTEM)
    match_record_final_score(match=corrected, score_a=5, score_b=2, user=director)
    later = match_create(player_a=bruno, player_b=carla, length=7, user=SYSTEM)
    match_record_final_score(match=later, score_a=7, score_b=0, user=director)

    match_record_final_score(match=corrected, score_a=1, score_b=5, user=director)  # Bruno won

    assert RatingChange.objects.get(pk=kept.pk).rating_after == kept.rating_after  # untouched
    assert list(
        RatingChange.objects.filter(player=bruno).order_by("order").values_list("order", flat=True)
    ) == [2, 3]
    bruno.refresh_from_db()
    assert bruno.rating > Decimal("1500.00") and bruno.experience == 5 + 7
    step = ratings_now()
    ratings_rederive()
    assert ratings_now() == step


def test_a_result_cleared_leaves_its_players_as_before_it(director):
    anna, bruno = (player_create(name=n, user=SYSTEM) for n in ("Anna", "Bruno"))
    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    match_record_final_score(match=match, score_a=3, score_b=0, user=director)
    match_result_clear(match=Match.objects.get(pk=match.pk), user=director)
    assert not RatingChange.objects.exists()
    assert set(Player.objects.values_list("rating", "experience")) == {(Decimal("1500.00"), 0)}


def _correction_queries(director, unrelated: int) -> tuple[int, int]:
    """Queries of a correction, and rating changes rewritten, after ``unrelated`` matches of
    other players."""
    others = [player_create(name=f"O{i:03}", user=SYSTEM) for i in range(2 * unrelated)]
    for a, b in zip(others[::2], others[1::2], strict=True):
        match = match_create(player_a=a, player_b=b, length=3, user=SYSTEM)
        match_record_final_score(match=match, score_a=3, score_b=1, user=director)
    anna, bruno = (player_create(name=n, user=SYSTEM) for n in ("Anna", "Bruno"))
    match = match_create(player_a=anna, player_b=bruno, length=5, user=SYSTEM)
    match_record_final_score(match=match, score_a=5, score_b=1, user=director)
    later = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    match_record_final_score(match=later, score_a=0, score_b=3, user=director)
    before = set(RatingChange.objects.values_list("pk", flat=True))
    match = Match.objects.get(pk=match.pk)
    with CaptureQueriesContext(connection) as queries:
        match_record_final_score(match=match, score_a=2, score_b=5, user=director)
    rewritten = len(before - set(RatingChange.objects.values_list("pk", flat=True)))
    step = ratings_now()
    ratings_rederive()
    assert ratings_now() == step
    return len(queries), rewritten


def test_a_correction_costs_the_same_after_few_or_many_unrelated_results(director):
    few = _correction_queries(director, 2)
    RatingChange.objects.all().delete()
    Match.objects.all().delete()
    Player.objects.all().delete()
    many = _correction_queries(director, 30)
    assert few == many
    assert few[1] == 4  # the corrected match's two changes and the later one's: no others


def test_ratings_rederive_from_the_start_is_the_whole_history(director):
    anna, bruno = (player_create(name=n, user=SYSTEM) for n in ("Anna", "Bruno"))
    for score in ((3, 1), (0, 3), (3, 2)):
        match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
        match_record_final_score(match=match, score_a=score[0], score_b=score[1], user=director)
    step = ratings_now()
    Player.objects.update(rating=Decimal("1234.00"), experience=99)
    ratings_rederive_from(1)
    assert ratings_now() == step


def test_the_command_works_every_rating_out_again_and_says_how_far_it_is(director):
    anna, bruno = (player_create(name=n, user=SYSTEM) for n in ("Anna", "Bruno"))
    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    match_record_final_score(match=match, score_a=3, score_b=1, user=director)
    step = ratings_now()
    Player.objects.update(rating=Decimal("1400.00"))
    out, err = StringIO(), StringIO()
    call_command("ratings_rederive", stdout=out, stderr=err)
    assert ratings_now() == step
    assert "1 of 1 finished matches" in err.getvalue()
    assert "Ratings worked out again." in out.getvalue()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's locks (run by .ci/run's PostgreSQL pass); "
    "SQLite serialises every write",
)
def test_two_corrections_at_once_still_give_what_the_whole_history_gives(director):
    import threading

    from django.db import connections

    a, b, c, d = (player_create(name=n, user=SYSTEM) for n in ("A", "B", "C", "D"))
    pairs = ((a, b), (c, d), (a, c), (b, d), (a, d))
    matches = []
    for first, second in pairs:
        match = match_create(player_a=first, player_b=second, length=5, user=SYSTEM)
        matches.append(match_record_final_score(match=match, score_a=5, score_b=2, user=director))
    barrier = threading.Barrier(2)
    errors = []

    def correct(match):
        try:
            barrier.wait()
            fresh = Match.objects.get(pk=match.pk)
            match_record_final_score(match=fresh, score_a=3, score_b=5, user=director)
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=correct, args=(m,)) for m in matches[:2]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    step = ratings_now()
    assert [order for _, _, order, *_ in step[1]].count(5) == 2
    with transaction.atomic():
        ratings_rederive()
    assert ratings_now() == step
