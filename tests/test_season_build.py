"""The season generator (scripts/season_build.py) on a tiny season: what a visitor would see.

Three tournaments of the federation's two kinds (a double elimination with a Swiss cut to a
knockout; a progressive consolation with round robin pools), their fields scaled down to 8
and 6 players, built in the test database through the same code as the benchmark's 50,000
matches. The games are written in bulk there, so what the services would guarantee is
checked here from the stored rows: each match's score derived from its games reaches the
length once, the Crawford game has no cube, every game has its audit entry, the ratings
are those of the FIBS formula applied in the order the matches finished, and the pages
answer.
"""

import datetime
import importlib.util
import random
import sys
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import ROOT

SPEC = importlib.util.spec_from_file_location("season_build", ROOT / "scripts" / "season_build.py")
season_build = importlib.util.module_from_spec(SPEC)
sys.modules["season_build"] = season_build  # its dataclasses look their module up
SPEC.loader.exec_module(season_build)


@pytest.fixture
def season(db):
    return season_build.season_build(tournaments=3, players=20, seed=7, sizes=0.125)


def rules_match(match):
    """The match as the engine scores its stored games (no site code in between)."""
    from rules.match import checked_match

    games = sorted(match.games.all(), key=lambda g: g.number)
    return checked_match(match.length, [g.as_result() for g in games], holland=match.holland)


def test_every_match_is_finished_and_its_games_reach_the_length_once(season):
    from matches.models import Match
    from matches.selectors import match_list, match_score_sheet

    matches = list(match_list())
    assert len(matches) == season.matches > 60
    assert sum(m.games.count() for m in matches) == season.games
    for match in matches:
        assert match.status == Match.Status.FINISHED and match.finished_at is not None
        sheet = match_score_sheet(match=match)
        derived = rules_match(match)
        assert sheet.score == derived.score
        assert sorted(sheet.score)[1] == match.length > sorted(sheet.score)[0]  # one winner
        assert sheet.winner == derived.winner is not None
        assert match.version == len(sheet.rows)  # bumped once a game, as game_record does
        for row in sheet.rows:
            if row.crawford:  # WBF 24: no doubling in the Crawford game
                assert row.game.cube == 1 and row.game.result != "drop"
        assert len(sheet.rows) == len(derived.games)


def test_every_game_has_its_audit_entry_with_the_points_that_counted(season):
    from club.models import AuditEntry
    from matches.models import Game
    from matches.selectors import match_list

    entries = {
        e.subject_id: e
        for e in AuditEntry.objects.filter(code="game.recorded").select_related("subject_type")
    }
    assert len(entries) == Game.objects.count() == season.games
    # named as the services name the director in their own entries (the draw's, say)
    named = AuditEntry.objects.filter(code="event.drawn").values_list("user_name", flat=True)
    assert set(named) == {"Federation"}
    for match in match_list():
        derived = rules_match(match)
        for game, scored in zip(
            sorted(match.games.all(), key=lambda g: g.number), derived.games, strict=True
        ):
            entry = entries[game.pk]
            assert entry.subject_type.model == "game" and entry.match_id == match.pk
            assert entry.tournament_id == match.place.event.tournament_id
            assert entry.after["points"] == scored.points
            assert entry.after["winner"] == match.player(game.winner).name
            assert entry.user_name == "Federation" and entry.user == season.director


def test_the_audit_and_the_results_fall_on_the_tournament_s_weekend(season):
    from club.models import AuditEntry
    from matches.models import Match

    for tournament in season.tournaments:
        days = {tournament.date, tournament.date + datetime.timedelta(days=1)}
        stamps = AuditEntry.objects.filter(tournament_id=tournament.pk).values_list("at", flat=True)
        assert stamps and {timezone.localdate(at) for at in stamps} <= days
        finished = Match.objects.filter(place__event__tournament=tournament)
        assert {timezone.localdate(m.finished_at) for m in finished} <= days
    assert timezone.now().year >= 2026  # the clock is the real one again after the build


def test_the_ratings_are_the_fibs_formula_in_the_order_the_matches_finished(season):
    from club.models import Player
    from matches.models import Match
    from tournaments.advancement import ratings_rederive
    from tournaments.models import RatingChange
    from tournaments.ratings import fibs_update, rating_kept

    # the slow twin: the engine's winner of each match, the formula, nothing else of the site
    ratings = {p.pk: (Decimal("1500.00"), 0) for p in Player.objects.all()}
    for match in Match.objects.order_by("finished_at", "id"):
        winner = rules_match(match).winner
        won, lost = match.player(winner).pk, match.player(1 - winner).pk
        after = fibs_update(
            winner=(float(ratings[won][0]), ratings[won][1]),
            loser=(float(ratings[lost][0]), ratings[lost][1]),
            length=match.length,
        )
        ratings[won] = rating_kept(after.winner_rating), after.winner_experience
        ratings[lost] = rating_kept(after.loser_rating), after.loser_experience
    stored = {p.pk: (p.rating, p.experience) for p in Player.objects.all()}
    assert stored == ratings
    assert len({rating for rating, _ in stored.values()}) > 5  # they did move
    history = list(RatingChange.objects.values_list("player_id", "match_id", "rating_after"))
    ratings_rederive()  # a fresh full re-derivation changes nothing
    assert {p.pk: (p.rating, p.experience) for p in Player.objects.all()} == stored
    assert list(RatingChange.objects.values_list("player_id", "match_id", "rating_after")) == (
        history
    )


def test_the_pages_answer_on_the_season(season, client):
    from django.db.models import Count

    from club.models import Player
    from tournaments.models import Event

    busiest = (
        Player.objects.annotate(
            played=Count("matches_as_a", distinct=True) + Count("matches_as_b", distinct=True)
        )
        .order_by("-played")
        .first()
    )
    assert busiest.played >= 10
    pages = [reverse("matches"), reverse("player", args=[busiest.pk]), reverse("home")]
    formats = set()
    for event in Event.objects.all():
        formats.add(event.format)
        pages.append(reverse("event", args=[event.pk]))
        if event.knockout:
            pages.append(reverse("bracket", args=[event.pk]))
    assert formats == {"double", "swiss", "single", "progressive", "round_robin"}  # single: the cut
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
    assert busiest.name in client.get(reverse("player", args=[busiest.pk])).content.decode()


def test_the_same_seed_draws_the_same_games():
    rng, again = random.Random(3), random.Random(3)
    first = [season_build.games_chosen(7, 100.0, rng)[1] for _ in range(20)]
    assert first == [season_build.games_chosen(7, 100.0, again)[1] for _ in range(20)]
    lengths = {len(results) for results in first}
    assert len(lengths) > 3  # matches of different lengths in games: the draw varies


@given(
    seed=st.integers(0, 2**32),
    length=st.sampled_from([1, 3, 5, 7, 9, 11, 13, 25]),
    strength=st.floats(-800, 800),
)
def test_the_chosen_games_are_a_match_the_engine_accepts(seed, length, strength):
    from rules.match import checked_match

    derived, results = season_build.games_chosen(length, strength, random.Random(seed))
    assert checked_match(length, results).score == derived.score
    assert max(derived.score) == length > min(derived.score)
    crawford = [g for g in derived.games if g.crawford]
    assert len(crawford) <= 1 and all(g.result.cube == 1 for g in crawford)
    if length > 1 and crawford:  # the first game with a player one point short
        before = crawford[0].score_before
        assert max(before) == length - 1
