"""Recording matches: every rule the services enforce, with the director's wording.

These run on SQLite with `make test` and again on PostgreSQL in `.ci/run`.
"""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from club.audit import audit_sentence
from club.models import AuditEntry
from club.policy import SYSTEM
from matches.models import Game, Match
from matches.selectors import match_score_sheet
from matches.services import (
    game_correct,
    game_record,
    match_create,
    match_record_final_score,
    match_walkover,
)

pytestmark = pytest.mark.django_db


def sheet(match):
    return match_score_sheet(match=Match.objects.get(pk=match.pk))


def test_the_score_is_derived_game_by_game_through_the_crawford_game(match5, record):
    record(match5, 0, cube=2)  # 2-0
    record(match5, 1, result="gammon")  # 2-2
    record(match5, 0, cube=2, result="drop")  # 4-2: Anna one short
    assert sheet(match5).next_game.crawford
    record(match5, 1)  # the Crawford game: 4-3
    assert not sheet(match5).next_game.crawford and sheet(match5).next_game.post_crawford
    record(match5, 0, cube=2)  # post-Crawford, doubling allowed again: 6 capped to 5
    result = sheet(match5)
    assert [r.score_before for r in result.rows] == [(0, 0), (2, 0), (2, 2), (4, 2), (4, 3)]
    assert [r.crawford for r in result.rows] == [False, False, False, True, False]
    assert [r.post_crawford for r in result.rows] == [False, False, False, False, True]
    assert result.score == (5, 3) and result.winner == 0 and result.crawford_game == 4
    assert result.rows[-1].points == 1  # 2 won, 1 counted: points beyond the length carry none
    assert Match.objects.get(pk=match5.pk).status == Match.Status.FINISHED


@pytest.mark.parametrize("cube, result", [(2, "single"), (1, "drop"), (4, "gammon")])
def test_no_doubling_in_the_crawford_game(match5, record, cube, result):
    record(match5, 0, cube=4)  # 4-0
    with pytest.raises(ValidationError) as refused:
        record(match5, 1, cube=cube, result=result)
    assert refused.value.messages == ["Game 2 is the Crawford game: no doubling (WBF 24)."]
    assert Game.objects.filter(match=match5).count() == 1


def test_no_game_after_the_match_is_won(match5, record):
    record(match5, 0, cube=4, result="gammon")
    with pytest.raises(ValidationError) as refused:
        record(match5, 1)
    assert refused.value.messages == [
        "Game 2 could not have been played: the match is won 5-0 at game 1 (WBF 3)."
    ]


def test_a_game_recorded_meanwhile_is_not_recorded_twice(match5, record, director):
    record(match5, 0)
    with pytest.raises(ValidationError) as refused:
        game_record(match=match5, number=1, winner=1, cube=1, result="single", user=director)
    assert "Game 1 is already recorded" in refused.value.messages[0]
    assert Game.objects.filter(match=match5).count() == 1


@pytest.mark.parametrize(
    "score, accepted", [((5, 5), False), ((6, 2), False), ((4, 3), False), ((5, 3), True)]
)
def test_final_score_only_must_be_possible(match5, director, score, accepted):
    if not accepted:
        with pytest.raises(ValidationError) as refused:
            match_record_final_score(match=match5, score_a=score[0], score_b=score[1], user=SYSTEM)
        assert "cannot be the final score of a 5-point match" in refused.value.messages[0]
        assert "(WBF 3)" in refused.value.messages[0]
        return
    match_record_final_score(match=match5, score_a=5, score_b=3, user=director)
    result = sheet(match5)
    assert result.score == (5, 3) and result.winner == 0 and result.rows == ()


def test_a_final_score_is_refused_once_games_are_recorded(match5, record):
    record(match5, 0)
    with pytest.raises(ValidationError, match="its score comes from them"):
        match_record_final_score(match=match5, score_a=5, score_b=0, user=SYSTEM)


def test_a_correction_rederives_the_games_after_it(match5, record, director):
    first = record(match5, 0)  # 1-0
    record(match5, 1, cube=2)  # 1-2
    record(match5, 0, cube=2)  # 3-2
    game_correct(game=first, winner=1, cube=1, result="single", user=director)
    assert [r.score_before for r in sheet(match5).rows] == [(0, 0), (0, 1), (0, 3)]
    entry = AuditEntry.objects.filter(code="game.corrected").get()
    assert entry.user == director and entry.before["winner"] == "Anna Rossi"
    assert entry.after["winner"] == "Bruno Bianchi" and entry.before["number"] == 1
    assert audit_sentence(entry) == (
        "director corrected game 1: Bruno Bianchi won (single game, cube 1): 1 point counted "
        "(it was: Anna Rossi won (single game, cube 1): 1 point counted)."
    )


def test_a_correction_that_puts_a_double_in_the_crawford_game_is_refused(match5, record):
    first = record(match5, 0)  # 1-0
    record(match5, 1, cube=2)  # 1-2: game 2 had a double
    with pytest.raises(ValidationError) as refused:
        # game 1 as a 4-point gammon would make game 2 the Crawford game
        game_correct(game=first, winner=0, cube=2, result="gammon", user=SYSTEM)
    assert refused.value.messages == ["Game 2 is the Crawford game: no doubling (WBF 24)."]
    assert Game.objects.get(pk=first.pk).cube == 1  # nothing changed


def test_a_correction_that_ends_the_match_before_later_games_is_refused(match5, record):
    first = record(match5, 0)
    record(match5, 1)
    with pytest.raises(ValidationError) as refused:
        game_correct(game=first, winner=0, cube=4, result="gammon", user=SYSTEM)
    assert refused.value.messages == [
        "Game 2 could not have been played: the match is won 5-0 at game 1 (WBF 3)."
    ]


def test_resignations_count_what_was_given_up(match5, record):
    game = record(match5, 1, cube=2, result="resignation", resigned=2)
    assert game.points == 4 and sheet(match5).score == (0, 4)
    with pytest.raises(ValidationError, match="single game, a gammon or a backgammon"):
        record(match5, 0, result="resignation")


def test_walkover(match5, director):
    match_walkover(match=match5, winner=1, user=director)
    assert sheet(match5).winner == 1
    entry = AuditEntry.objects.filter(match_id=match5.pk, code="result.walkover").get()
    assert entry.user == director
    assert audit_sentence(entry) == "director recorded a walkover to Bruno Bianchi."


def test_every_change_is_audited_with_who_and_before_and_after(match5, record, director):
    record(match5, 0, cube=2)
    entries = list(AuditEntry.objects.filter(match_id=match5.pk).order_by("id"))
    assert [audit_sentence(e) for e in entries] == [
        "director created the 5-point match Anna Rossi – Bruno Bianchi.",
        "director recorded game 1: Anna Rossi won (single game, cube 2): 2 points counted.",
    ]
    assert entries[1].user == director and entries[1].before is None
    assert entries[1].after == {
        "number": 1,
        "winner": "Anna Rossi",
        "outcome": "single",
        "resigned": None,
        "cube": 2,
        "points": 2,
    }


def test_the_audit_gives_the_points_that_counted(match5, record):
    record(match5, 0, cube=4)  # 4-0
    record(match5, 0, cube=1, result="gammon")  # the Crawford game: worth 2, one counted
    entry = AuditEntry.objects.filter(match_id=match5.pk, code="game.recorded").latest("id")
    assert audit_sentence(entry) == (
        "director recorded game 2: Anna Rossi won (gammon, cube 1): 1 point counted."
    )


@pytest.mark.parametrize("length", [0, 4, -3])
def test_match_length_is_odd_and_positive(anna, bruno, length):
    with pytest.raises(ValidationError, match="WBF 3"):
        match_create(player_a=anna, player_b=bruno, length=length, user=SYSTEM)


def test_the_database_refuses_what_the_forms_refuse(anna, bruno):
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(player_a=anna, player_b=bruno, length=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(player_a=anna, player_b=anna, length=5)
    match = Match.objects.create(player_a=anna, player_b=bruno, length=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(match=match, number=1, winner=0, cube=3, result="single")
    Game.objects.create(match=match, number=1, winner=0, cube=1, result="single")
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(match=match, number=1, winner=1, cube=1, result="single")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's row locks (run by .ci/run's PostgreSQL pass); "
    "SQLite serialises every write",
)
def test_two_directors_saving_at_once_lose_nothing_and_duplicate_nothing(anna, bruno, director):
    match = match_create(player_a=anna, player_b=bruno, length=5, user=SYSTEM)
    barrier = threading.Barrier(2)
    outcomes = []

    def save(winner):
        from django.db import connections

        try:
            barrier.wait()
            game_record(match=match, number=1, winner=winner, cube=1, result="single", user=SYSTEM)
            outcomes.append("saved")
        except ValidationError as error:
            outcomes.append(error.messages[0])
        finally:
            connections.close_all()  # this thread's own connections

    threads = [threading.Thread(target=save, args=(w,)) for w in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes)[-1] == "saved" and len(outcomes) == 2
    refusal = next(o for o in outcomes if o != "saved")
    assert "Game 1 is already recorded" in refusal
    assert Game.objects.filter(match=match).count() == 1
    assert AuditEntry.objects.filter(match_id=match.pk, code="game.recorded").count() == 1
