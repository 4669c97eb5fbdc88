"""Build a federation's season: tournaments, players, every match finished with its games.

    .venv/bin/python scripts/season_build.py [--tournaments 200] [--players 2000] [--seed N]
        [--database postgres://postgres@127.0.0.1:5432/crawford_season]

On the database Django is configured for (``--database`` sets ``DATABASE_URL``; migrate it
first), a season like issue 29's: tournaments on the Saturdays of a year, each with two
events of a kind the federation plays: a 64-player double elimination with a 48-player Swiss
of six rounds cut to a knockout of 8, or a 64-player progressive consolation with 48 players
in 8 round robin pools of 6. 200 tournaments make about 50,000 matches. Players have names
and clubs; some play nearly every weekend, most a few times (a skewed draw), so the busiest
player's page is as long as a real season's. Every match is finished, game by game; the
ratings are derived at the end (:func:`tournaments.advancement.ratings_rederive`).

What goes through the project's services, and what is written in bulk, and why:

- **Through the services** (each in its transaction, with its audit entry, as a director
  using the site would): the director's account, every player (``player_create``), every
  tournament and event (``tournament_create``, ``event_create``), every entry and check-in
  (``entry_register``, ``event_check_in_all``), every draw (``event_draw``), each Swiss
  round's pairing and the cut (``event_pair_next_round``, ``event_cut``), and every later
  match of a knockout (``event_advance``, as the result hook calls it). So the structure,
  brackets, byes and the pairing reasons are the site's own.
- **In bulk**, a wave of matches at a time (the matches whose players are known): the
  games, the matches' status, finish time and version, and one ``game.recorded`` audit entry
  a game. ``game_record`` for 230,000 games takes hours (each locks its match, re-derives
  its history, moves the knockout on and re-rates); here each match's games are chosen
  where they stand by the rules engine (:func:`rules.match.checked_match`'s own checks:
  the Crawford game has no cube and no drop, points are the cube times 1, 2 or 3, nothing
  follows the win), so the score derived from the stored games is the one the services
  would derive. The rows are the ones ``game_record`` writes: the same game fields, the
  match FINISHED with ``finished_at`` (the rating order) and its version bumped once a game,
  the audit entry with the same code, parameters and facts (:func:`matches.results.game_facts`),
  subject, match and tournament. Then ``event_advance`` moves the knockout on, as the hook
  would after each result; the ratings are not moved match by match but derived once at
  the end, which is what ``ratings_after`` amounts to for results recorded in order.

Time: the season's clock is simulated (:func:`season_clock`): what the services stamp
("now": the audit's time, a draw's time) is the tournament's day, and the games finish
through that day, so the audit, the rating order and the match dates agree.

Randomness comes from one injected ``random.Random(seed)``: the same seed builds the same
season (the draws' seeds are drawn from it too).
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent

FIRST = (  # noqa: SIM905 (a list of words, read as one)
    "Giulia Marco Francesca Luca Sofia Anna Tom Elena Paolo Chiara Davide Martina Alessandro "
    "Giorgio Lorenzo Matteo Andrea Simone Federico Stefano Roberto Valentina Sara Laura "
    "Silvia Elisa Marta Ilaria Beatrice Alice Nicola Pietro Riccardo Tommaso Emanuele "
    "Gabriele Filippo Carla Paola Rosa Teresa Hans Ursula Jan Eva Klaus Sean Niamh Pierre "
    "Claire Miguel Lucia Jorge Carmen Dimitris Eleni Tomasz Agnieszka Lars Ingrid"
).split()
LAST = (  # noqa: SIM905 (a list of words, read as one)
    "Romano Bianchi Greco Esposito Ricci Keller Walsh Conti Ferrari Moretti Galli Lombardi "
    "Rossi Russo Colombo Bruno Gallo Costa Fontana Rizzo Marino Giordano Mancini Barbieri "
    "Lombardo Martini Leone Longo Gentile Martinelli Vitale Serra Coppola DeLuca Santoro "
    "Mariani Rinaldi Caruso Ferrara Fabbri Villa Pellegrini Cattaneo Monti Orlando Sala "
    "Farina Marchetti Müller Schmid Huber Murphy Kelly Dubois Moreau García López "
    "Papadopoulos Nowak Hansen Larsen"
).split()
CLUBS = [
    ("Circolo Backgammon Milano", "IT"),
    ("Backgammon Club Roma", "IT"),
    ("Backgammon Club Torino", "IT"),
    ("Circolo Backgammon Bologna", "IT"),
    ("Backgammon Napoli", "IT"),
    ("Circolo Firenze", "IT"),
    ("Backgammon Verona", "IT"),
    ("BG Zürich", "CH"),
    ("Dublin Backgammon Club", "IE"),
    ("Club de Backgammon de Paris", "FR"),
    ("Wiener Backgammon Club", "AT"),
    ("Athens Tavli Club", "GR"),
]
CITIES = (  # noqa: SIM905 (a list of words, read as one)
    "Milano Roma Torino Bologna Napoli Firenze Verona Genova Bari Padova Trieste Parma"
).split()
SEASON_START = datetime.date(2026, 1, 10)  # a Saturday: one tournament weekend a week after it
DIRECTOR = "director"

# the two kinds of tournament the federation plays: (main event, side event)
DOUBLE = {"format": "double", "size": 64, "lengths": [5, 5, 7, 7, 9, 9, 11]}
PROGRESSIVE = {"format": "progressive", "size": 64, "lengths": [5, 5, 7, 7, 9, 11]}
SWISS = {
    "format": "swiss",
    "size": 48,
    "lengths": [5, 5, 5, 5, 5, 5, 7, 9, 11],
    "rounds": 6,
    "cut": 8,
}
POOLS = {"format": "round_robin", "size": 48, "lengths": [5], "pools": 8}
KINDS = [(DOUBLE, SWISS), (PROGRESSIVE, POOLS)]


@dataclass
class Season:
    """What a build made, for its caller (the benchmark, the tests)."""

    director: Any = None
    password: str = ""
    tournaments: list[Any] = field(default_factory=list)
    players: list[Any] = field(default_factory=list)
    matches: int = 0
    games: int = 0
    seconds: dict[str, float] = field(default_factory=dict)


# --- the clock ------------------------------------------------------------------------------


class SeasonClock:
    """The time the services read while the season is built: set, and moved on a little at
    every reading, so entries written one after another keep their order in time too."""

    def __init__(self, start: datetime.datetime) -> None:
        self.at = start

    def set(self, at: datetime.datetime) -> None:
        """The time now: the tournaments of a weekend, and their events, run side by side,
        so the clock is put back to each one's time as it is played."""
        self.at = at

    def __call__(self) -> datetime.datetime:
        self.at += datetime.timedelta(milliseconds=5)
        return self.at


@contextmanager
def season_clock(start: datetime.datetime) -> Iterator[SeasonClock]:
    """``django.utils.timezone.now`` and the fields stamped with it by default (an audit
    entry's ``at``) read the season's clock until the block ends.

    The services call ``timezone.now()`` through the module, which the patch replaces; a
    field's default is the function itself, taken when the model was defined, so it is
    replaced on the field for the block (and its cached default forgotten both ways)."""
    from django.apps import apps
    from django.utils import timezone

    real = timezone.now
    clock = SeasonClock(start)
    stamped = [
        f
        for model in apps.get_models()
        for f in model._meta.concrete_fields
        if getattr(f, "default", None) is real
    ]

    def point(to: Callable[[], datetime.datetime]) -> None:
        for f in stamped:
            f.default = to
            f.__dict__.pop("_get_default", None)  # a cached_property of Field

    point(clock)
    try:
        with mock.patch("django.utils.timezone.now", clock):
            yield clock
    finally:
        point(real)


# --- people ---------------------------------------------------------------------------------


def director_account(password: str) -> Any:
    """The federation's director: staff, in the Directors group, directing every tournament
    (each is created in their name), so their session may correct any result."""
    from django.conf import settings
    from django.contrib.auth.models import Group, User

    group, _ = Group.objects.get_or_create(name=settings.DIRECTORS_GROUP)
    user = User.objects.filter(username=DIRECTOR).first()
    if user is None:
        user = User.objects.create_user(DIRECTOR, password=password, first_name="Federation")
    else:
        user.set_password(password)
    user.is_staff = True
    user.save()
    user.groups.add(group)
    return user


def players_make(count: int, rng: random.Random, director: Any) -> list[Any]:
    """``count`` players with names (first and last from the lists, a number after the
    name when the lists run out), clubs and countries, through ``player_create``."""
    from club.services import player_create

    names = [f"{first} {last}" for first in FIRST for last in LAST]
    rng.shuffle(names)
    made = []
    for index in range(count):
        name = names[index % len(names)]
        if index >= len(names):
            name = f"{name} {index // len(names) + 1}"
        club, country = rng.choice(CLUBS)
        made.append(player_create(name=name, club=club, country=country, user=director))
    return made


def field_chosen(players: Sequence[Any], size: int, weights: Sequence[float], rng: random.Random):
    """``size`` different players, each with a chance by weight (Efraimidis and Spirakis'
    sampling without replacement): the regulars come nearly every time."""
    keyed = sorted(
        ((rng.random() ** (1 / weights[i]), i) for i in range(len(players))), reverse=True
    )
    return [players[i] for _, i in keyed[:size]]


# --- games ----------------------------------------------------------------------------------


def games_chosen(length: int, strength: float, rng: random.Random, holland: bool = False):
    """A whole match's games, each one the rules allow where it stands: returns the
    rules' match (its derived score, Crawford game and winner) and the games' results.

    ``strength``: how much likelier player A is to win a game (a difference of skill)."""
    from rules.match import GameResult, Outcome, check_result, checked_match
    from rules.match import Match as RulesMatch

    a_wins = 1 / (1 + 10 ** (-strength / 1000))
    match = RulesMatch(length, holland=holland)
    results: list[GameResult] = []
    while not match.over:
        context = match.next_game
        winner = 0 if rng.random() < a_wins else 1
        cube = 1 if context.crawford else rng.choices((1, 2, 4, 8), (55, 32, 11, 2))[0]
        outcomes = [Outcome.SINGLE, Outcome.GAMMON, Outcome.BACKGAMMON, Outcome.RESIGNATION]
        weights = [56, 15, 2, 4]
        if not context.crawford:  # a double dropped: never in the Crawford game (WBF 24)
            outcomes.append(Outcome.DROP)
            weights.append(23)
        outcome = rng.choices(outcomes, weights)[0]
        if outcome is Outcome.RESIGNATION:
            points = cube * rng.choice((1, 1, 2))
        else:
            points = cube * outcome.multiplier
        result = GameResult(winner=winner, points=points, outcome=outcome, cube=cube)
        check_result(context, result)  # the engine's own check, as the service's
        results.append(result)
        match = match.add(result)
    return checked_match(length, results, holland=holland), results


def matches_play(
    matches: Sequence[Any],
    *,
    tournament: Any,
    begins: datetime.datetime,
    minutes: int,
    skill: dict[int, float],
    rng: random.Random,
    director: Any,
) -> int:
    """Finish ``matches`` (not begun) game by game, in bulk: see the module's docstring for
    what is written and why it is what ``game_record`` writes. Each match ends between
    ``begins`` and ``minutes`` later; returns the number of games."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import transaction

    from club.audit import actor_name
    from club.models import AuditEntry
    from matches.models import Game, Match
    from matches.results import game_facts

    who = actor_name(director)
    kind = ContentType.objects.get_for_model(Game)
    games: list[Game] = []
    stamps: list[datetime.datetime] = []
    derived_of: dict[int, Any] = {}
    for match in matches:
        strength = skill[match.player_a_id] - skill[match.player_b_id]
        derived, results = games_chosen(match.length, strength, rng, match.holland)
        derived_of[match.pk] = derived
        ends = begins + datetime.timedelta(minutes=rng.uniform(0.4, 1.0) * minutes)
        step = (ends - begins) / (len(results) + 1)
        for number, result in enumerate(results, 1):
            resigned = None
            if result.outcome.value == "resignation":
                resigned = result.points // result.cube
            games.append(
                Game(
                    match=match,
                    number=number,
                    winner=result.winner,
                    cube=result.cube,
                    result=result.outcome.value,
                    resigned=resigned,
                )
            )
            stamps.append(begins + step * number)
        match.status = Match.Status.FINISHED
        match.finished_at = begins + step * len(results)
        match.version += len(results)
    with transaction.atomic():
        Game.objects.bulk_create(games, batch_size=1000)
        AuditEntry.objects.bulk_create(
            (
                AuditEntry(
                    at=at,
                    user=director,
                    user_name=who,
                    code="game.recorded",
                    params={
                        "match": f"{game.match.player_a.name} – {game.match.player_b.name}",
                        "number": game.number,
                    },
                    after=game_facts(game, derived_of[game.match.pk]),
                    subject_type=kind,
                    subject_id=game.pk,
                    match_id=game.match.pk,
                    tournament_id=tournament.pk,
                )
                for game, at in zip(games, stamps, strict=True)
            ),
            batch_size=1000,
        )
        Match.objects.bulk_update(matches, ["status", "finished_at", "version"], batch_size=1000)
    return len(games)


# --- tournaments ----------------------------------------------------------------------------


def open_matches(event: Any) -> list[Any]:
    """The event's matches not decided yet whose players are known, in bracket order."""
    from matches.models import Match

    return list(
        Match.objects.filter(place__event=event)
        .exclude(status__in=[Match.Status.FINISHED, Match.Status.WALKOVER])
        .select_related("player_a", "player_b")
        .order_by("place__round", "place__id")
    )


@dataclass
class Day:
    """A tournament's day as its matches are played: waves of matches, one after another."""

    tournament: Any
    clock: SeasonClock
    at: datetime.datetime
    skill: dict[int, float]
    rng: random.Random
    director: Any
    games: int = 0
    matches: int = 0

    def play(self, matches: Sequence[Any], minutes: int = 70) -> None:
        """Play a wave: every match ends within ``minutes``; the clock moves past them."""
        if not matches:
            return
        self.clock.set(self.at)
        self.games += matches_play(
            matches,
            tournament=self.tournament,
            begins=self.at,
            minutes=minutes,
            skill=self.skill,
            rng=self.rng,
            director=self.director,
        )
        self.matches += len(matches)
        self.at += datetime.timedelta(minutes=minutes + 5)
        self.clock.set(self.at)


def knockout_play(day: Day, event: Any) -> None:
    """Play a drawn knockout to its end: each wave the matches whose players are known,
    then the knockout moved on as the result hook moves it (``event_advance``)."""
    from django.db import transaction

    from tournaments.advancement import event_advance

    while matches := open_matches(event):
        with transaction.atomic():  # the results and what follows them, as the hook has it
            day.play(matches)
            event_advance(event=event, user=day.director)


def event_made(tournament: Any, spec: dict[str, Any], players: Sequence[Any], day: Day) -> Any:
    """An event through the services: created, its players entered and checked in, drawn."""
    from tournaments.services import (
        entry_register,
        event_check_in_all,
        event_create,
        event_draw,
    )

    director = day.director
    event = event_create(
        tournament=tournament,
        name="",
        format=spec["format"],
        lengths=spec["lengths"],
        swiss_rounds=spec.get("rounds"),
        cut=spec.get("cut"),
        pools=spec.get("pools"),
        user=director,
    )
    for player in players:
        entry_register(event=event, player=player, user=director)
    event_check_in_all(event=event, user=director)
    event_draw(event=event, seed=day.rng.randrange(2**32), user=director)
    return event


def event_play(event: Any, spec: dict[str, Any], day: Day) -> None:
    """Play an event to its end, by its format."""
    from tournaments.services import event_cut, event_pair_next_round

    if spec["format"] == "swiss":
        for round_number in range(1, spec["rounds"] + 1):
            if round_number > 1:
                event_pair_next_round(event=event, user=day.director)
            day.play(open_matches(event), minutes=60)
        knockout = event_cut(event=event, user=day.director)
        knockout_play(day, knockout)
    elif spec["format"] == "round_robin":
        waiting = open_matches(event)
        for round_number in sorted({m.place.round for m in waiting}):
            day.play([m for m in waiting if m.place.round == round_number], minutes=50)
    else:
        knockout_play(day, event)


def tournament_build(
    number: int,
    players: Sequence[Any],
    weights: Sequence[float],
    skill: dict[int, float],
    rng: random.Random,
    director: Any,
    clock: SeasonClock,
    sizes: float = 1.0,
) -> Day:
    """Tournament ``number`` of the season, on its Saturday, played to the end.

    ``sizes``: the events' fields as a fraction of the federation's (a small season for tests).
    """
    from django.utils import timezone

    from tournaments.services import tournament_create

    main, side = KINDS[number % len(KINDS)]
    date = SEASON_START + datetime.timedelta(days=7 * (number // 4))
    morning = timezone.make_aware(datetime.datetime.combine(date, datetime.time(9, 0)))
    clock.set(morning)
    city = CITIES[number % len(CITIES)]
    tournament = tournament_create(
        name=f"Open di {city} {number + 1}", date=date, venue=f"Circolo di {city}", user=director
    )
    day = Day(tournament, clock, morning, skill, rng, director)
    wanted = [max(2, round(spec["size"] * sizes)) for spec in (main, side)]
    chosen = field_chosen(players, sum(wanted), weights, rng)
    events = []
    for spec, people in ((main, chosen[: wanted[0]]), (side, chosen[wanted[0] :])):
        spec = dict(spec)
        if spec["format"] == "round_robin":  # pools of three or more
            spec["pools"] = max(1, min(spec["pools"], len(people) // 3))
        if spec["format"] == "swiss":  # fewer rounds and a smaller cut for a small field
            spec["rounds"] = min(spec["rounds"], max(2, len(people).bit_length()))
            spec["cut"] = 8 if len(people) >= 16 else 4 if len(people) >= 8 else 2
        events.append((event_made(tournament, spec, people, day), spec))
    for event, spec in events:  # the two events side by side, from ten o'clock
        alongside = Day(
            tournament, clock, morning + datetime.timedelta(hours=1), skill, rng, director
        )
        event_play(event, spec, alongside)
        day.games += alongside.games
        day.matches += alongside.matches
    return day


def season_build(
    *,
    tournaments: int,
    players: int,
    seed: int,
    password: str = "",
    sizes: float = 1.0,
    progress: Callable[[str], None] | None = None,
) -> Season:
    """Build the season on Django's database (migrated): see the module's docstring.

    ``sizes`` scales every event's field (1: the federation's 64 and 48 players), for a
    small season in a test; ``password`` is the director's (made up when empty)."""
    import secrets

    from django.db import reset_queries, transaction
    from django.utils import timezone

    from tournaments.advancement import ratings_rederive

    rng = random.Random(seed)
    season = Season(password=password or secrets.token_urlsafe(12))
    say = progress or (lambda line: None)
    began = time.monotonic()
    start = timezone.make_aware(datetime.datetime.combine(SEASON_START, datetime.time(8, 0)))
    with season_clock(start - datetime.timedelta(days=7)) as clock:
        season.director = director_account(season.password)
        season.players = players_make(players, rng, season.director)
        season.seconds["players"] = time.monotonic() - began
        say(f"{players} players made in {season.seconds['players']:.0f} s")
        # a skewed field: the regulars (low ranks) come nearly every weekend
        weights = [1 / (rank + 8) ** 1.1 for rank in range(players)]
        skill = {p.pk: rng.gauss(0, 250) for p in season.players}
        for number in range(tournaments):
            day = tournament_build(
                number, season.players, weights, skill, rng, season.director, clock, sizes
            )
            season.tournaments.append(day.tournament)
            season.matches += day.matches
            season.games += day.games
            reset_queries()  # a build with DEBUG on keeps no list of every query
            if (number + 1) % max(1, tournaments // 20) == 0 or number + 1 == tournaments:
                spent = time.monotonic() - began
                say(
                    f"tournament {number + 1}/{tournaments}: {season.matches} matches, "
                    f"{season.games} games, {spent:.0f} s"
                )
    season.seconds["structure_and_games"] = time.monotonic() - began
    rated = time.monotonic()

    def rating_progress(done: int, total: int) -> None:
        if done % 10000 == 0 or done == total:
            say(f"ratings: {done}/{total} matches")

    with transaction.atomic():  # as the ratings_rederive command runs it
        ratings_rederive(rating_progress)
    season.seconds["ratings"] = time.monotonic() - rated
    season.seconds["total"] = time.monotonic() - began
    say(f"ratings derived in {season.seconds['ratings']:.0f} s")
    return season


def django_setup(database: str | None) -> None:
    """Django on ``database`` (a URL; the environment's DATABASE_URL when None), DEBUG off
    unless the environment turns it on, so a long build keeps no list of its queries."""
    if database:
        os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if os.environ.get("DEBUG", "0") not in ("1", "true", "yes", "on"):
        os.environ.setdefault("SECRET_KEY", "season-build-not-a-secret-" + "x" * 40)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument(
        "--database", help="a database URL (default: DATABASE_URL); migrated already"
    )
    parser.add_argument("--password", default="", help="the director's (made up when empty)")
    parser.add_argument(
        "--sizes", type=float, default=1.0, help="the events' fields as a fraction of 64 and 48"
    )
    options = parser.parse_args(argv)
    if options.tournaments < 1 or options.players < 4:
        parser.error("at least one tournament and four players")
    django_setup(options.database)
    season = season_build(
        tournaments=options.tournaments,
        players=options.players,
        seed=options.seed,
        password=options.password,
        sizes=options.sizes,
        progress=lambda line: print(line, flush=True),
    )
    print(
        f"season built: {len(season.tournaments)} tournaments, {len(season.players)} players, "
        f"{season.matches} matches, {season.games} games in {season.seconds['total']:.0f} s; "
        f"director: {DIRECTOR} / {season.password}",
        flush=True,
    )


if __name__ == "__main__":
    main()
