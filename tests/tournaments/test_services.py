"""Draws, advancement, walkovers, corrections, Swiss and round robin, ratings: through the
services, on the database (SQLite here, PostgreSQL in .ci/run's second pass)."""

import random
import subprocess
import sys
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from club.audit import audit_sentence
from club.models import AuditEntry
from club.policy import SYSTEM
from matches.models import Match
from matches.services import game_correct, match_record_final_score
from tournaments.models import Entry, Event, RatingChange
from tournaments.queries.events import event_matches
from tournaments.queries.knockouts import event_knockout
from tournaments.queries.standings import event_standings
from tournaments.services import (
    entry_check_in,
    entry_register,
    entry_withdraw,
    event_cut,
    event_draw,
    event_pair_next_round,
)

from .helpers import by_key, play_everything

pytestmark = pytest.mark.django_db

# --- the draw ----------------------------------------------------------------------------


def test_a_bye_advances_at_once_and_only_real_pairs_get_a_match(event_with, director):
    event = event_with(Event.Format.SINGLE, 5, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    seeds = {e.seed: e.player.name for e in event.entries.select_related("player")}
    assert seeds == {1: "P01", 2: "P02", 3: "P03", 4: "P04", 5: "P05"}  # by rating
    keys = sorted(m.place.bracket_key for m in event_matches(event=event))
    # 8 places, 3 byes to seeds 1-3: round 1 has one real match (4 v 5); seeds 2 and 3 both
    # had byes, so their round 2 match exists at once
    assert keys == ["M1-2", "M2-2"]
    assert str(by_key(event, "M2-2")) == "P02 – P03 (5)"
    assert by_key(event, "M1-2").length == 5


def test_unchecked_players_are_left_out_and_entries_close_at_the_draw(event_with, field, director):
    event = event_with(Event.Format.SINGLE, 4)
    late = field(1, prefix="Late")[0]
    entry = entry_register(event=event, player=late, user=director)  # late entry: still open
    event_draw(event=event, seed=7, user=director)
    entry.refresh_from_db()
    assert entry.seed is None  # not checked in: not drawn
    with pytest.raises(ValidationError, match="entries are closed"):
        entry_register(event=event, player=field(1, prefix="Later")[0], user=director)
    with pytest.raises(ValidationError, match="check-in is over"):
        entry_check_in(entry=entry, user=director)
    with pytest.raises(ValidationError, match="already made"):
        event_draw(event=event, user=director)


def test_a_draw_needs_two_players(event_with, director):
    event = event_with(Event.Format.SINGLE, 3, check_in=False)
    with pytest.raises(ValidationError, match="No player has checked in yet"):
        event_draw(event=event, user=director)


def test_the_published_seed_repeats_the_random_draw(event_with, director):
    from tests.conftest import ROOT

    event = event_with(Event.Format.SINGLE, 12)
    event_draw(event=event, seed=20261213, user=director)
    entries = list(event.entries.select_related("player").order_by("seed"))
    names = [e.player.name for e in entries]
    assert names != sorted(names)  # shuffled
    shuffled = list(reversed(names))  # anyone can type the names in any order
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.pairing.seeding", "20261213", *shuffled],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert [line.split()[1] for line in done.stdout.splitlines()] == names


def test_round_lengths_follow_the_rounds(event_with, finish, director):
    event = event_with(Event.Format.SINGLE, 8, lengths=(3, 5, 7), seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    rng = random.Random(1)
    play_everything(event, finish, rng)
    lengths = {m.place.round: m.length for m in event_matches(event=event)}
    assert lengths == {1: 3, 2: 5, 3: 7}


# --- advancement -------------------------------------------------------------------------


def test_the_winner_moves_on_and_the_loser_goes_to_the_consolation(event_with, finish, director):
    event = event_with(Event.Format.CONSOLATION, 8, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    assert str(m11) == "P01 – P08 (5)" and str(m12) == "P04 – P05 (5)"
    finish(m11, m11.player_b)  # P08 beats P01
    waiting = Match.objects.filter(place__event=event, place__bracket_key="M2-1")
    assert not waiting.exists()  # waits for M1-2
    finish(m12, m12.player_a)
    assert str(by_key(event, "M2-1")) == "P08 – P04 (5)"
    assert str(by_key(event, "C1-1")) == "P01 – P05 (5)"  # both first-round losers


def test_advancement_is_part_of_the_result_s_transaction(event_with, finish, director, monkeypatch):
    import tournaments.advancement

    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    finish(m11, m11.player_a)

    def broken(**kwargs):
        raise RuntimeError("the next match could not be made")

    monkeypatch.setattr(tournaments.advancement, "event_advance", broken)
    with pytest.raises(RuntimeError):
        finish(m12, m12.player_a)
    m12.refresh_from_db()
    assert m12.status == Match.Status.SCHEDULED and m12.final_score_a is None  # nothing half-done


def test_a_knockout_played_through_crowns_one_champion(event_with, finish, director):
    for format in (Event.Format.SINGLE, Event.Format.PROGRESSIVE, Event.Format.DOUBLE):
        event = event_with(format, 11)
        event_draw(event=event, seed=5, user=director)
        played = play_everything(event, finish, random.Random(format))
        knockout = event_knockout(event=event)
        assert knockout.champion is not None, format
        if format == Event.Format.SINGLE:
            assert played == 10  # everyone but the champion loses once
        if format == Event.Format.DOUBLE:
            losses = {}
            for match in event_matches(event=event):
                loser = match.player_b if match.final_score_a == match.length else match.player_a
                losses[loser.name] = losses.get(loser.name, 0) + 1
            assert all(n == 2 for name, n in losses.items() if name != knockout.champion.name)
            assert played in (20, 21)  # 2n - 2, or 2n - 1 with the final replayed


def test_the_double_elimination_final_is_replayed_when_the_unbeaten_player_loses_it(
    event_with, finish, director
):
    event = event_with(Event.Format.DOUBLE, 2, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    first = by_key(event, "M1-1")
    finish(first, first.player_a)  # P01 unbeaten
    final = by_key(event, "F1-1")
    finish(final, final.player_b)  # P02 from the losers' side wins: each has lost once
    again = by_key(event, "F2-1")
    assert {again.player_a.name, again.player_b.name} == {"P01", "P02"}
    finish(again, again.player_b)
    assert event_knockout(event=event).champion.name == "P02"


# --- walkovers ---------------------------------------------------------------------------


def test_withdrawing_gives_the_opponent_a_walkover_and_moves_them_on(event_with, finish, director):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11 = by_key(event, "M1-1")  # P01 v P04
    entry = event.entries.get(player=m11.player_b)
    entry_withdraw(entry=entry, user=director)
    m11.refresh_from_db()
    assert m11.status == Match.Status.WALKOVER and m11.walkover_winner == 0
    # P01 is through to the final, which waits for M1-2; P01 withdraws before it exists
    entry_withdraw(entry=event.entries.get(player=m11.player_a), user=director)
    m12 = by_key(event, "M1-2")
    finish(m12, m12.player_b)
    final = by_key(event, "M2-1")
    assert final.status == Match.Status.WALKOVER and final.walkover_winner == 1
    assert event_knockout(event=event).champion == m12.player_b
    # walkovers do not move ratings; the one match played does
    assert [c.match_id for c in RatingChange.objects.all()] == [m12.pk, m12.pk]


def test_a_player_in_the_middle_of_a_match_cannot_just_withdraw(event_with, record, director):
    event = event_with(Event.Format.SINGLE, 2)
    event_draw(event=event, seed=1, user=director)
    match = by_key(event, "M1-1")
    record(match, 0)
    with pytest.raises(ValidationError, match="in the middle of the match"):
        entry_withdraw(entry=event.entries.get(player=match.player_a), user=director)
    assert event.entries.get(player=match.player_a).status == Entry.Status.CHECKED_IN


# --- corrections -------------------------------------------------------------------------


def test_a_correction_moves_the_right_player_on_until_the_next_match_begins(
    event_with, finish, record, director
):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")  # P01 v P04, P02 v P03
    finish(m11, m11.player_a)
    finish(m12, m12.player_a)
    assert str(by_key(event, "M2-1")) == "P01 – P02 (5)"
    # the director typed the wrong winner: P04 won M1-1 5-3
    match_record_final_score(match=m11, score_a=3, score_b=5, user=director)
    assert str(by_key(event, "M2-1")) == "P04 – P02 (5)"
    moved = AuditEntry.objects.get(match_id=m11.pk, code="place.changed")
    assert audit_sentence(moved) == (
        "The site changed who plays M2-1: P04 – P02 (it was P01 – P02 (5))."
    )
    record(by_key(event, "M2-1"), 0)  # the final begins
    with pytest.raises(ValidationError, match=r"started a later match .*US rules 4\.10"):
        match_record_final_score(match=m11, score_a=5, score_b=3, user=director)
    m11.refresh_from_db()
    assert (m11.final_score_a, m11.final_score_b) == (3, 5)


def test_a_game_correction_is_refused_once_a_later_match_has_begun(event_with, record, director):
    event = event_with(Event.Format.SINGLE, 3, lengths=(1,), seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m12 = by_key(event, "M1-2")  # P02 v P03, a 1-point match; P01 has a bye
    game = record(m12, 0)
    final = by_key(event, "M2-1")
    record(final, 1)
    with pytest.raises(ValidationError, match=r"US rules 4\.10"):
        game_correct(game=game, winner=1, cube=1, result="single", user=director)


def test_opening_the_next_board_does_not_freeze_a_correction_the_first_roll_does(
    event_with, record, director, django_user_model
):
    """A match has begun at its first roll or its first recorded game (US rules 4.10), not
    when a player presses "Start game" with nobody at the table."""
    from matches.board.service import board_game_act, board_game_start

    event = event_with(Event.Format.SINGLE, 3, lengths=(1,), seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m12 = by_key(event, "M1-2")  # P02 v P03; P01 waits in the final
    game = record(m12, 0)
    final = by_key(event, "M2-1")  # P01 v P02
    final.player_a.user = django_user_model.objects.create_user("p01", password="pw-p01-1")
    final.player_a.save()
    board = board_game_start(match=final, user=final.player_a.user)  # P01 opens the board
    assert Match.objects.get(pk=final.pk).status == Match.Status.SCHEDULED
    game_correct(game=game, winner=1, cube=1, result="single", user=director)  # still allowed
    final = by_key(event, "M2-1")  # now P01 v P03; the board opened for it is cleared away
    assert str(final) == "P01 – P03 (1)" and not final.board_games.exists()
    board = board_game_start(match=final, user=director)
    board_game_act(board_game=board, version=board.version, action="opening", user=director)
    assert Match.objects.get(pk=final.pk).status == Match.Status.IN_PLAY  # the first roll
    with pytest.raises(ValidationError, match=r"US rules 4\.10"):
        game_correct(game=game, winner=0, cube=1, result="single", user=director)


# --- Swiss -------------------------------------------------------------------------------


def test_a_swiss_with_an_odd_field_gives_no_one_two_byes_and_no_rematch(
    event_with, finish, director
):
    event = event_with(Event.Format.SWISS, 7, swiss_rounds=5, cut=4)
    event_draw(event=event, seed=3, user=director)
    rng = random.Random(3)
    for round_number in range(1, 6):
        play_everything(event, finish, rng)
        if round_number < 5:
            assert event_pair_next_round(event=event, user=director) == round_number + 1
    byes = list(event.byes.values_list("player_id", flat=True))
    assert len(byes) == 5 and len(set(byes)) == 5  # a bye each round, never twice
    pairs = [frozenset((m.player_a_id, m.player_b_id)) for m in event_matches(event=event)]
    assert len(pairs) == len(set(pairs)) == 15  # 3 matches a round, no rematch
    assert all(m.place.reason_code for m in event_matches(event=event))
    with pytest.raises(ValidationError, match="All 5 Swiss rounds are paired"):
        event_pair_next_round(event=event, user=director)
    rows = event_standings(event=event)
    assert [r.standing.wins for r in rows] == sorted((r.standing.wins for r in rows), reverse=True)
    assert sum(r.standing.wins for r in rows) == 15 + 5  # a win per match and per bye
    knockout = event_cut(event=event, user=director)
    seeded = [e.player for e in knockout.entries.order_by("seed")]
    assert seeded == [r.player for r in rows[:4]]  # the top four, in standings order
    # five Swiss rounds used 5, 5, 7, 7, 9: the knockout goes on with 11
    assert str(by_key(knockout, "M1-1")) == f"{seeded[0].name} – {seeded[3].name} (11)"


def test_the_next_swiss_round_waits_for_the_last_one(event_with, director):
    event = event_with(Event.Format.SWISS, 4, swiss_rounds=3)
    event_draw(event=event, seed=1, user=director)
    with pytest.raises(ValidationError, match="Round 1 is not finished: 2 matches still to play"):
        event_pair_next_round(event=event, user=director)


# --- round robin -------------------------------------------------------------------------


def test_round_robin_pools_meet_everyone_once(event_with, finish, director):
    event = event_with(Event.Format.ROUND_ROBIN, 9, pools=2, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    pools = {}
    for entry in event.entries.select_related("player"):
        pools.setdefault(entry.pool_name, []).append(entry.player.name)
    assert sorted(pools["A"]) == ["P01", "P04", "P05", "P08", "P09"]  # snake: 1,4,5,8,9
    matches = list(event_matches(event=event))
    assert len(matches) == 10 + 6  # 5 players: 10 matches; 4 players: 6
    play_everything(event, finish, random.Random(9))
    rows = event_standings(event=event)
    assert [r.pool for r in rows] == ["A"] * 5 + ["B"] * 4
    assert sum(r.standing.wins for r in rows) == 16


# --- last chance -------------------------------------------------------------------------


def test_a_last_chance_takes_only_players_already_out(event_with, finish, field, director):
    from tournaments.services import event_create

    main = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    last = event_create(
        tournament=main.tournament,
        name="Last chance",
        format=Event.Format.LAST_CHANCE,
        lengths=[3],
        user=director,
    )
    event_draw(event=main, user=director)
    m11 = by_key(main, "M1-1")
    with pytest.raises(ValidationError, match="still playing"):
        entry_register(event=last, player=m11.player_b, user=director)
    with pytest.raises(ValidationError, match="has not played a knockout"):
        entry_register(event=last, player=field(1, prefix="Guest")[0], user=director)
    finish(m11, m11.player_a)
    assert entry_register(event=last, player=m11.player_b, user=director).pk


# --- ratings -----------------------------------------------------------------------------


def test_ratings_move_when_a_match_finishes_and_are_rederived_after_a_correction(
    anna, bruno, director
):
    from matches.services import match_create

    match = match_create(player_a=anna, player_b=bruno, length=1, user=SYSTEM)
    match_record_final_score(match=match, score_a=1, score_b=0, user=director)
    anna.refresh_from_db()
    bruno.refresh_from_db()
    # newcomers (K = 5), equal ratings, 1 point: 4 · 5 · √1 · 0.5 = 10
    assert (anna.rating, bruno.rating) == (Decimal("1510.00"), Decimal("1490.00"))
    assert [c.change for c in anna.rating_changes.all()] == [Decimal("10.00")]
    later = match_create(player_a=anna, player_b=bruno, length=5, user=SYSTEM)
    match_record_final_score(match=later, score_a=2, score_b=5, user=director)
    # the first result was wrong: Bruno won it; everything after is worked out again
    match_record_final_score(match=match, score_a=0, score_b=1, user=director)
    anna.refresh_from_db()
    bruno.refresh_from_db()
    assert [c.match_id for c in bruno.rating_changes.all()] == [later.pk, match.pk]
    first = bruno.rating_changes.get(match=match)
    assert (first.rating_before, first.rating_after) == (Decimal("1500.00"), Decimal("1510.00"))
    assert bruno.rating > Decimal("1510.00") and anna.rating < Decimal("1490.00")
    assert anna.experience == bruno.experience == 1 + 5


def test_rederiving_from_scratch_gives_what_the_results_gave_one_by_one(
    event_with, finish, director
):
    from club.models import Player
    from tournaments.advancement import ratings_rederive

    event = event_with(Event.Format.ROUND_ROBIN, 6, pools=1)
    Player.objects.update(rating=Decimal("1500.00"))  # the field fixture's ratings are made up
    event_draw(event=event, seed=11, user=director)
    play_everything(event, finish, random.Random(11))
    before = {p.name: (p.rating, p.experience) for p in Player.objects.all()}
    assert len({r for r, _ in before.values()}) > 1
    ratings_rederive()
    assert {p.name: (p.rating, p.experience) for p in Player.objects.all()} == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's row locks (run by .ci/run's PostgreSQL pass); "
    "SQLite serialises every write",
)
def test_two_results_recorded_at_once_still_make_the_next_match(event_with, director):
    import threading

    from django.db import connections

    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    first, second = by_key(event, "M1-1"), by_key(event, "M1-2")
    barrier = threading.Barrier(2)
    errors = []

    def finish_now(match):
        try:
            barrier.wait()
            match_record_final_score(match=match, score_a=5, score_b=1, user=director)
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=finish_now, args=(m,)) for m in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert str(by_key(event, "M2-1")) == "P01 – P02 (5)"
