"""Shared test settings: where the suite's data lives (in the repository), hypothesis profiles."""

import datetime
import os
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"  # the corpus, gnubg's readings, positions: tests/data/README.md


def data_files(folder: str, pattern: str) -> list[Path]:
    """The data files a test is parametrised over, never none.

    A folder that is missing or empty would leave pytest an empty parametrisation, which it
    skips without a word; instead the test gets one path that does not exist and fails naming it.
    """
    found = sorted((DATA / folder).glob(pattern))
    return found or [DATA / folder / f"{pattern} (none here: see tests/data/README.md)"]


settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_addoption(parser):
    parser.addoption(
        "--reference",
        action="append",
        default=[],
        help="extra gnubg legal-play JSONL files (made by scripts/gnubg_legal.py) to check against",
    )


# --- the site: small fixtures that stack ---------------------------------------------

import pytest  # noqa: E402


@pytest.fixture
def directors_group(db):
    from django.contrib.auth.models import Group

    return Group.objects.get_or_create(name="Directors")[0]


@pytest.fixture
def director(directors_group, django_user_model):
    user = django_user_model.objects.create_user("director", password="pw-director-1")
    user.groups.add(directors_group)
    return user


@pytest.fixture
def other_director(django_user_model, directors_group):
    """A club director who runs another tournament: a member of the Directors group."""
    from tournaments.services import tournament_create

    user = django_user_model.objects.create_user("other", password="pw-other-1")
    user.groups.add(directors_group)
    tournament_create(name="Another club's cup", date=datetime.date(2026, 12, 20), user=user)
    return user


@pytest.fixture
def member(django_user_model, db):
    """Signed in, but not a director."""
    return django_user_model.objects.create_user("member", password="pw-member-1")


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def member_client(client, member):
    client.force_login(member)
    return client


@pytest.fixture
def anna(db):
    from club.policy import SYSTEM
    from club.services import player_create

    return player_create(
        name="Anna Rossi", club="Circolo Backgammon Milano", country="Italia", user=SYSTEM
    )


@pytest.fixture
def bruno(db):
    from club.policy import SYSTEM
    from club.services import player_create

    return player_create(
        name="Bruno Bianchi", club="Backgammon Club Roma", country="Italia", user=SYSTEM
    )


@pytest.fixture
def match5(anna, bruno, director):
    """A 5-point match outside any tournament, nothing played yet."""
    from matches.services import match_create

    return match_create(player_a=anna, player_b=bruno, length=5, user=director)


@pytest.fixture
def record(director):
    """Record the next game of a match: record(match, winner, cube=1, result="single")."""
    from matches.models import Match
    from matches.services import game_record

    def play(match, winner, cube=1, result="single", resigned=None):
        fresh = Match.objects.get(pk=match.pk)
        return game_record(
            match=fresh,
            number=fresh.games.count() + 1,
            winner=winner,
            cube=cube,
            result=result,
            resigned=resigned,
            user=director,
        )

    return play


# --- tournaments: a field of players, a tournament, an event drawn -----------------


@pytest.fixture
def field(db):
    """field(n): n players named P01.. with ratings falling from 1700 (P01 is the best)."""
    from decimal import Decimal

    from club.models import Player
    from club.policy import SYSTEM
    from club.services import player_create

    def make(count, prefix="P"):
        made = [player_create(name=f"{prefix}{i:02}", user=SYSTEM) for i in range(1, count + 1)]
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
def open_event(tournament, director):
    """A knockout of the tournament whose players may ask to enter it."""
    from tournaments.models import Event
    from tournaments.services import event_create, tournament_open_entry_set

    event = event_create(
        tournament=tournament, name="Main", format=Event.Format.SINGLE, lengths=[5], user=director
    )
    tournament_open_entry_set(tournament=tournament, allowed=True, user=director)
    return event


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


@pytest.fixture
def double_final_again(event_with, director, finish):
    """A 9-player double elimination played up to its final played again, not yet begun:
    the winners chosen at random, but the final won by the losers' draw's player, so the
    unbeaten player has lost once and the final is played again (issue 25.2)."""
    import random

    from tests.tournaments.helpers import by_key, play_everything
    from tournaments.models import Event
    from tournaments.pairing.bracket import FINAL_KEY, RESET_KEY
    from tournaments.services import event_draw

    event = event_with(Event.Format.DOUBLE, 9)
    event_draw(event=event, seed=9, user=director)

    def losers_side_wins_the_final(match):
        return match.player_b if match.place.bracket_key == FINAL_KEY else None

    # 2n - 2 matches: 7 players out with two defeats, the losers' finalist's, the final's
    played = play_everything(
        event, finish, random.Random(9), limit=16, choose=losers_side_wins_the_final
    )
    assert played == 16 and not by_key(event, RESET_KEY).decided
    return event


# --- real-browser tests: Debian's chromium driven by Playwright ---------------------------

import shutil  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Playwright's sync API runs an event loop in this thread; the test's own database calls are
# ordinary synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def site(django_db_setup, live_server):
    """The live server, started after the test database so it stops (and lets go) first."""
    return live_server


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def english():
    """Each test starts in English: a page asked for in Italian leaves the thread's language set."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: one test's API requests never throttle another's."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def jobs_at_once(settings):
    """Background work runs at once, in the request that asks for it (jobs.runner "eager"):
    a test sees its outcome on the next line. Tests of the queue itself set "held" (the job
    waits until jobs.runner.jobs_run_waiting) or run a real Celery worker."""
    settings.JOBS_BACKEND = "eager"


@pytest.fixture
def held(settings):
    """Jobs wait until the test runs them (jobs.runner.jobs_run_waiting)."""
    settings.JOBS_BACKEND = "held"


@pytest.fixture(autouse=True)
def seeded_dice(settings):
    """The board's dice repeat in tests (production dice come from the secure source)."""
    settings.DICE_SEED = "crawford-tests"


@pytest.fixture
def cache_down():
    """The site's cache is Redis at a port where nothing answers: an outage (issue 23.2).
    Over when this fixture ends (not with ``settings``), so other fixtures clear a cache."""
    from django.test import override_settings

    from club.cache import cache

    redis = "django.core.cache.backends.redis.RedisCache"
    cache.reset()
    with override_settings(
        CACHES={"default": {"BACKEND": redis, "LOCATION": "redis://127.0.0.1:1/0"}}
    ):
        yield
    cache.reset()  # the next test's cache answers at once, not after the pause of an outage
