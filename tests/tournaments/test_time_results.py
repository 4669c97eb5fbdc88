"""Penalty points and forfeits count like any result (issue 28; tournament rules): in a
round robin's points difference and a Swiss's wins, in who moves on in a knockout, in the
FIBS ratings; taken back, they come out of all three, and refused as any correction once a
later match has begun (US rules 4.10)."""

import pytest
from django.core.exceptions import ValidationError

from matches.models import Match
from matches.penalties import match_forfeit, match_penalty_award, match_penalty_remove
from matches.selectors import match_score_sheet
from matches.services import match_result_clear
from tournaments.models import Event, RatingChange
from tournaments.queries.events import event_matches
from tournaments.queries.standings import event_standings
from tournaments.ratings import fibs_update, rating_kept
from tournaments.services import event_draw, event_pair_next_round

from .helpers import between, by_key

pytestmark = pytest.mark.django_db


def fresh(match):
    return Match.objects.get(pk=match.pk)


def side_of(match, player):
    return 0 if fresh(match).player_a_id == player.pk else 1


def standing_of(event, player):
    rows = event_standings(event=event)
    return next(row.standing for row in rows if row.player.pk == player.pk)


def keys(event):
    return {m.place.bracket_key: str(m) for m in event_matches(event=event)}


@pytest.fixture
def penalise(director):
    """penalise(match, player, points, reason="director"): ``player`` is penalised, the
    opponent scores the points."""

    def award(match, player, points, reason="director", **more):
        if reason == "director":
            more.setdefault("note", "Rolled before the opponent's move had ended")
        return match_penalty_award(
            match=fresh(match),
            side=side_of(match, player),
            points=points,
            reason=reason,
            user=director,
            **more,
        )

    return award


@pytest.fixture
def forfeit(director):
    """forfeit(match, player, reason="time"): ``player`` forfeits the match."""

    def lose(match, player, reason="time"):
        return match_forfeit(
            match=fresh(match), side=side_of(match, player), reason=reason, user=director
        )

    return lose


@pytest.fixture
def win_game(record):
    """win_game(match, player, cube=1, result="single"): the next game, won by ``player``."""

    def play(match, player, cube=1, result="single"):
        return record(match, side_of(match, player), cube=cube, result=result)

    return play


@pytest.fixture
def knockout(event_with, director):
    """A 4-player single elimination to 5 points, seeded by rating: M1-1 is P01 v P04,
    M1-2 P02 v P03."""
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING, lengths=(5, 5))
    event_draw(event=event, user=director)
    return event


# --- standings ------------------------------------------------------------------------------


def test_a_round_robin_counts_penalty_points_in_the_points_difference(
    event_with, field, director, penalise, win_game, finish
):
    """P02, 10 minutes late, gives P01 2 points; P01 then wins 4 and 1 in games: 7-0, of
    which 2 came from the penalty. The points difference is the match's score, penalty
    points included, as the sheet derives it."""
    p1, p2, p3 = field(3)
    event = event_with(Event.Format.ROUND_ROBIN, [p1, p2, p3], pools=1, lengths=(7,))
    event_draw(event=event, user=director)
    match = between(event, p1, p2)
    penalise(match, p2, 2, reason="lateness", minutes_late=10)
    win_game(match, p1, cube=4)
    win_game(match, p1)
    sheet = match_score_sheet(match=fresh(match))
    assert sorted(sheet.score) == [0, 7] and sheet.winner == side_of(match, p1)
    assert fresh(match).status == Match.Status.FINISHED
    first, second = standing_of(event, p1), standing_of(event, p2)
    assert (first.wins, first.points_for, first.points_against) == (1, 7, 0)
    assert (second.losses, second.points_for, second.points_against) == (1, 0, 7)


def test_a_round_robin_counts_a_forfeit_as_a_win_at_the_length(
    event_with, field, director, forfeit, win_game
):
    """P02 leads 3-0 and then forfeits on time: P01 wins 7-3 (the loser keeps their points)."""
    p1, p2, p3 = field(3)
    event = event_with(Event.Format.ROUND_ROBIN, [p1, p2, p3], pools=1, lengths=(7,))
    event_draw(event=event, user=director)
    match = between(event, p1, p2)
    win_game(match, p2, cube=2, result="drop")
    win_game(match, p2)
    forfeit(match, p2, reason="time")
    first, second = standing_of(event, p1), standing_of(event, p2)
    assert (first.wins, first.points_for, first.points_against) == (1, 7, 3)
    assert (second.losses, second.points_for, second.points_against) == (1, 3, 7)


def test_a_swiss_pairs_the_next_round_on_wins_from_penalties_and_forfeits(
    event_with, field, director, penalise, forfeit
):
    """Round 1 of a 4-player Swiss to 3: one match won by a director's 3 penalty points
    before any game, the other by a lateness forfeit. The two winners meet in round 2."""
    players = field(4)
    event = event_with(
        Event.Format.SWISS, players, lengths=(3, 3), swiss_rounds=2, seeding=Event.Seeding.RATING
    )
    event_draw(event=event, user=director)
    first, second = (m for m in event_matches(event=event) if m.place.round == 1)
    penalise(first, first.player_b, 3, note="Dice rolled before the opponent's move ended")
    forfeit(second, second.player_a, reason="lateness")
    winners = {first.player_a, second.player_b}
    for winner in winners:
        assert standing_of(event, winner).wins == 1
    event_pair_next_round(event=event, user=director)
    round_2 = [m for m in event_matches(event=event) if m.place.round == 2]
    assert {frozenset((m.player_a, m.player_b)) for m in round_2} >= {frozenset(winners)}


# --- advancement and ratings ----------------------------------------------------------------


def test_in_a_knockout_the_winner_by_forfeit_or_penalty_moves_on_and_both_are_rated(
    knockout, director, penalise, forfeit, win_game
):
    """M1-1: P01 wins a game, then forfeits on time: P04 moves on. M1-2: P03 is given 5
    penalty points (the length): P03 wins before a game is played. Both results move the
    players' ratings by the FIBS formula, as any finished match to 5 does."""
    m11, m12 = by_key(knockout, "M1-1"), by_key(knockout, "M1-2")
    p01, p04, p02, p03 = m11.player_a, m11.player_b, m12.player_a, m12.player_b
    before = {p.pk: (float(p.rating), p.experience) for p in (p01, p04, p02, p03)}
    win_game(m11, p01)
    forfeit(m11, p01, reason="time")
    penalise(m12, p02, 5)
    m11, m12 = fresh(m11), fresh(m12)
    assert (m11.status, m11.final_score_a, m11.final_score_b) == ("finished", 1, 5)
    assert m12.status == "finished" and match_score_sheet(match=m12).score == (0, 5)
    assert keys(knockout)["M2-1"] == "P04 – P03 (5)"
    for winner, loser in ((p04, p01), (p03, p02)):
        change = fibs_update(winner=before[winner.pk], loser=before[loser.pk], length=5)
        rated = {
            c.player_id: c.rating_after
            for c in RatingChange.objects.filter(player__in=[winner, loser])
        }
        assert rated == {
            winner.pk: rating_kept(change.winner_rating),
            loser.pk: rating_kept(change.loser_rating),
        }


def test_a_forfeit_or_a_deciding_penalty_taken_back_undoes_the_advance_and_the_rating(
    knockout, director, penalise, forfeit
):
    m11, m12 = by_key(knockout, "M1-1"), by_key(knockout, "M1-2")
    forfeit(m11, m11.player_a, reason="lateness")
    penalty = penalise(m12, m12.player_a, 5)
    assert "M2-1" in keys(knockout) and RatingChange.objects.count() == 4
    match_result_clear(match=fresh(m11), user=director)
    m11 = fresh(m11)
    assert (m11.forfeit, m11.retired, m11.final_score_a) == ("", None, None)
    assert m11.status == Match.Status.SCHEDULED
    match_penalty_remove(penalty=penalty, user=director)
    m12 = fresh(m12)
    assert m12.status == Match.Status.SCHEDULED and not m12.penalties.exists()
    assert "M2-1" not in keys(knockout)
    assert not RatingChange.objects.exists()


def test_a_forfeit_or_penalty_stands_once_the_match_it_fed_has_begun(
    knockout, director, penalise, forfeit, win_game
):
    """US rules 4.10: once the final has begun, neither result is taken back."""
    m11, m12 = by_key(knockout, "M1-1"), by_key(knockout, "M1-2")
    forfeit(m11, m11.player_a)
    penalty = penalise(m12, m12.player_a, 5)
    final = by_key(knockout, "M2-1")
    win_game(final, final.player_a)
    with pytest.raises(ValidationError, match=r"US rules 4\.10"):
        match_result_clear(match=fresh(m11), user=director)
    with pytest.raises(ValidationError, match=r"US rules 4\.10"):
        match_penalty_remove(penalty=penalty, user=director)
    assert fresh(m11).forfeit == "time" and fresh(m12).penalties.count() == 1
