"""Load a demo club and make a director account; a second run loads nothing twice.

Refused with DEBUG off (a server) unless --force: it makes up players and a staff account.
"""

from __future__ import annotations

import datetime
import random
import secrets
from pathlib import Path
from typing import Any, TypeAlias

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission, User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from club.models import Player
from club.services import player_create, player_update
from matches.board.service import board_game_act, board_game_start
from matches.models import BoardGame, Match
from matches.penalties import match_forfeit
from matches.services import game_record, match_create, match_record_final_score
from money.models import Table, TableKind
from money.services import table_act, table_set_stake, table_start
from rules.chouette import ChouetteSettings
from rules.chouette import events as chouette
from rules.money import Level, MoneyRules
from tournaments.models import Event, Round, Tournament
from tournaments.services.arrivals import arrival_confirm, arrival_record
from tournaments.services.draws import event_draw
from tournaments.services.entries import entry_check_in, entry_register
from tournaments.services.events import event_create
from tournaments.services.rounds import event_round, round_times_set
from tournaments.services.tournaments import (
    tournament_create,
    tournament_reports_set,
    tournament_time_set,
)
from tournaments.venue import tournament_tables_set

PLAYERS = [
    ("Giulia Romano", "Circolo Backgammon Milano", "IT"),
    ("Marco Bianchi", "Circolo Backgammon Milano", "IT"),
    ("Francesca Greco", "Circolo Backgammon Milano", "IT"),
    ("Luca Esposito", "Backgammon Club Roma", "IT"),
    ("Sofia Ricci", "Backgammon Club Roma", "IT"),
    ("Anna Keller", "BG Zürich", "CH"),
    ("Tom Walsh", "Dublin Backgammon Club", "IE"),
    ("Elena Conti", "Circolo Backgammon Milano", "IT"),
]
GUESTS = [
    ("Paolo Ferrari", "Backgammon Club Torino", "IT"),
    ("Chiara Moretti", "Backgammon Club Torino", "IT"),
    ("Davide Galli", "Circolo Backgammon Bologna", "IT"),
    ("Martina Lombardi", "Circolo Backgammon Bologna", "IT"),
]
TOURNAMENT = "Torneo d'Autunno"
# a tournament on time rules: lateness penalties and clocks, its first round called earlier
TIME_TOURNAMENT = "Trofeo a Tempo"
TIME_PLAYERS = ["Marco Bianchi", "Luca Esposito", "Anna Keller", "Tom Walsh"]
TIME_CALLED_MINUTES_AGO = 50
CHOUETTE = "Venerdì sera"  # the demo chouette (money/)
DRAW_SEED = 20261122
DEMO_TABLES = 8  # the club's room: the two events' first rounds need 10, so two matches wait
# (player a, player b, length, games as (winner, cube, result, resigned)) or a final score
GameRow: TypeAlias = tuple[int, int, str, int | None]
MATCHES: list[tuple[int, int, int, list[GameRow] | tuple[int, int]]] = [
    # 2-0, 2-2, 4-2, then the Crawford game 4-3, post-Crawford 5-3
    (
        0,
        1,
        5,
        [
            (0, 2, "single", None),
            (1, 1, "gammon", None),
            (0, 2, "drop", None),
            (1, 1, "single", None),
            (0, 1, "drop", None),
        ],
    ),
    # 0-4, 1-4, 1-6: the next game is the Crawford game
    (2, 3, 7, [(1, 2, "gammon", None), (0, 1, "single", None), (1, 2, "drop", None)]),
    (4, 5, 3, (3, 1)),
    (6, 7, 5, []),
]


class Command(BaseCommand):
    help = "Load a demo club (players and matches) and a director account, once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="load it even with DEBUG off (a server)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "This site runs with DEBUG off, so it looks like a server: the demo club would add "
                "made-up players and matches and a staff account named 'director'. Nothing was "
                "loaded. To load it anyway (a demonstration server), add --force."
            )
        directors, _ = Group.objects.get_or_create(name=settings.DIRECTORS_GROUP)
        # in the admin, directors see everything and edit players and matches
        directors.permissions.add(
            *Permission.objects.filter(
                content_type__app_label__in=["club", "tournaments", "matches", "money"]
            ).exclude(codename__regex=r"^(add_|change_|delete_)(game|auditentry)$|^delete_match$")
        )
        username, password = self.director(directors)
        # what this run added, counted in the database: the club, the tournament's guests, the
        # tournament's matches and the board's, so the message can never fall behind the code
        players_before, matches_before = Player.objects.count(), Match.objects.count()
        with transaction.atomic():
            if not Player.objects.filter(name=PLAYERS[0][0]).exists():
                self.load(get_user_model().objects.get(username=username))
        with transaction.atomic():
            tournament_loaded = not Tournament.objects.filter(name=TOURNAMENT).exists()
            if tournament_loaded:
                self.load_tournament(get_user_model().objects.get(username=username))
        with transaction.atomic():
            time_loaded = not Tournament.objects.filter(name=TIME_TOURNAMENT).exists()
            if time_loaded:
                self.load_time_tournament(get_user_model().objects.get(username=username))
        board_match = None
        with transaction.atomic():
            if not BoardGame.objects.exists():
                board_match = self.load_board(get_user_model().objects.get(username=username))
        tables_loaded = False
        with transaction.atomic():
            if not Table.objects.exists():
                self.load_tables(get_user_model().objects.get(username=username))
                tables_loaded = True
        players = Player.objects.count() - players_before
        matches = Match.objects.count() - matches_before
        if players or matches:
            self.stdout.write(f"Demo club loaded: {players} players, {matches} matches.")
        else:
            self.stdout.write("The demo club is already loaded.")
        if tournament_loaded:
            self.stdout.write(f"Demo tournament loaded: {TOURNAMENT}.")
        if time_loaded:
            self.stdout.write(
                f"Demo tournament on time rules loaded: {TIME_TOURNAMENT} (a late arrival "
                "penalised, a match lost on time)."
            )
        if board_match is not None:
            self.stdout.write(f"Demo game on the board: /matches/{board_match.pk}/board/")
        if tables_loaded:
            self.stdout.write(f"Demo tables: {CHOUETTE} (a chouette of 5) and a money session.")
        self.stdout.write(f"Director account: {username} / password: {password}")
        with transaction.atomic():
            player = self.player_account(password, get_user_model().objects.get(username=username))
        if player is not None:
            self.stdout.write(
                f"Player account: player / password: {password} ({player.name}, /me/)"
            )

    def director(self, group: Group) -> tuple[str, str]:
        """The demo director; the password is kept in a local file so every run can print it."""
        users = get_user_model()
        secret = Path(settings.BASE_DIR) / ".demo-director"
        user = users.objects.filter(username="director").first()
        if user is not None and secret.exists():
            return user.username, secret.read_text(encoding="utf-8").strip()
        password = secrets.token_urlsafe(9)
        if user is None:
            user = users.objects.create_user("director", password=password)
        else:
            user.set_password(password)
        user.is_staff = True  # directors use the admin too
        user.save()
        user.groups.add(group)
        secret.write_text(password + "\n", encoding="utf-8")
        return user.username, password

    def load(self, director: User) -> None:
        people = [player_create(name=n, club=c, country=k, user=director) for n, c, k in PLAYERS]
        today = datetime.date.today()
        for offset, (a, b, length, played) in enumerate(MATCHES):
            match = match_create(
                player_a=people[a],
                player_b=people[b],
                length=length,
                date=today - datetime.timedelta(days=len(MATCHES) - offset),
                user=director,
            )
            if isinstance(played, tuple):
                match_record_final_score(
                    match=match, score_a=played[0], score_b=played[1], user=director
                )
                continue
            for number, (winner, cube, result, resigned) in enumerate(played, start=1):
                game_record(
                    match=Match.objects.get(pk=match.pk),
                    number=number,
                    winner=winner,
                    cube=cube,
                    result=result,
                    resigned=resigned,
                    user=director,
                )

    def player_account(self, password: str, director: User) -> Player | None:
        """A player of the demo tournament with an account ("player", the director's
        password), to try the players' side: My page, reporting a result. Made once."""
        users = get_user_model()
        user = users.objects.filter(username="player").first()
        if user is not None:
            return Player.objects.filter(user=user).first()
        waiting = (
            Match.objects.filter(
                place__event__tournament__name=TOURNAMENT, status=Match.Status.SCHEDULED
            )
            .exclude(player_a__user__isnull=False)
            .order_by("id")
            .first()
        )
        if waiting is None:
            return None
        user = users.objects.create_user("player", password=password)
        return player_update(player=waiting.player_a, account=user, user=director)

    def load_board(self, director: User) -> Match:
        """A game in progress on the site's board, with dice as if rolled at the table."""
        first, second = Player.objects.order_by("pk")[:2]
        match = match_create(player_a=first, player_b=second, length=5, user=director)
        board_game = board_game_start(match=match, user=director)
        for action, details in (
            ("opening", {"dice": (3, 1)}),
            ("play", {"play": "8/5 6/5"}),
            ("roll", {"dice": (6, 4)}),
        ):
            board_game.refresh_from_db()
            board_game_act(
                board_game=board_game,
                version=board_game.version,
                action=action,
                user=director,
                **details,
            )
        return match

    def load_tables(self, director: User) -> None:
        """A chouette of five, three games played with a change of box, and a money session
        between two players: recorded through the tables' services, as the phones would."""
        five = [Player.objects.get(name=name) for name, _, _ in PLAYERS[:5]]
        ids = [str(player.pk) for player in five]
        table = table_start(
            user=director,
            kind=TableKind.CHOUETTE,
            name=CHOUETTE,
            settings=ChouetteSettings(),
            players=five,
            stake_cents=100,
        )
        # Sofia Ricci plays for 0.50 a point: her games count at the lower stake
        table_set_stake(user=director, table=table, player=five[4], stake_cents=50)
        marco, francesca, luca, sofia = ids[1:]
        for event in (
            # the opening roll: Giulia the box, Marco the captain (Galore 3.1)
            chouette.Opening(rolls=tuple(zip(ids, (6, 5, 4, 3, 2), strict=True))),
            # game 1: the box doubles, Luca drops, the others take; the box wins
            chouette.StartGame(),
            chouette.BoxDoubles(members=(marco, francesca, luca, sofia)),
            chouette.Answer(member=marco, answer="take"),
            chouette.Answer(member=francesca, answer="take"),
            chouette.Answer(member=luca, answer="drop"),
            chouette.Answer(member=sofia, answer="take"),
            chouette.End(box_wins=True, level=Level.SINGLE),
            # game 2: Francesca captains, doubles, the box takes and loses a gammon: she
            # becomes the box, Giulia goes to the bottom
            chouette.StartGame(),
            chouette.MemberDoubles(member=francesca),
            chouette.BoxAnswers(member=francesca, answer="take"),
            chouette.End(box_wins=False, level=Level.GAMMON),
            # game 3: Francesca's first as the box, a single game won
            chouette.StartGame(),
            chouette.End(box_wins=True, level=Level.SINGLE),
        ):
            table_act(user=director, table=table, event=event)
        anna, tom = Player.objects.get(name="Anna Keller"), Player.objects.get(name="Tom Walsh")
        session = table_start(
            user=director,
            kind=TableKind.MONEY,
            name=f"{anna.name} – {tom.name}",
            settings=ChouetteSettings(money=MoneyRules(jacoby=True, beavers=True)),
            players=[anna, tom],
            stake_cents=200,
        )
        for event in (
            chouette.Opening(rolls=((str(anna.pk), 5), (str(tom.pk), 3))),
            chouette.StartGame(),
            chouette.End(box_wins=True, level=Level.SINGLE),
            chouette.StartGame(),
            chouette.BoxDoubles(members=(str(tom.pk),)),
            chouette.Answer(member=str(tom.pk), answer="take"),
            chouette.End(box_wins=False, level=Level.GAMMON),
        ):
            table_act(user=director, table=session, event=event)

    def load_time_tournament(self, director: User) -> None:
        """A Swiss of four on time rules (tournament rules, the common defaults): a point for
        every 5 minutes late, a forfeit at half the match length, 2 minutes a point on the
        clocks with a 12-second delay, a fallen flag losing the match. Round 1 was called
        50 minutes ago with clocks required: in one match a player arrived 12 minutes late
        (2 penalty points, which make game 2 the Crawford game); in the other, played on
        the club's clocks, a flag fell after two games."""
        tournament = tournament_create(
            name=TIME_TOURNAMENT,
            date=datetime.date.today(),
            venue="Circolo Backgammon Milano",
            user=director,
        )
        tournament_time_set(
            tournament=tournament,
            late_minutes_per_point=5,
            late_grace_minutes=0,
            late_forfeit_at_half=True,
            clock_seconds_per_point=120,
            clock_delay_seconds=12,
            clock_on_flag=Tournament.OnFlag.MATCH,
            user=director,
        )
        swiss = event_create(
            tournament=tournament,
            name="Swiss",
            format=Event.Format.SWISS,
            lengths=[5, 5],
            swiss_rounds=2,
            user=director,
        )
        for name in TIME_PLAYERS:
            entry = entry_register(event=swiss, player=Player.objects.get(name=name), user=director)
            entry_check_in(entry=entry, user=director)
        called = timezone.now().replace(second=0, microsecond=0) - datetime.timedelta(
            minutes=TIME_CALLED_MINUTES_AGO
        )
        round_times_set(
            round=event_round(event=swiss, number=1),
            starts_at=called,
            clocks=Round.Clocks.REQUIRED,
            user=director,
        )
        event_draw(event=swiss, seed=DRAW_SEED, user=director)
        late, flagged = Match.objects.filter(place__event=swiss, place__round=1).order_by("id")
        # player A 12 minutes late: 2 points to player B before the first game; B on time
        arrival = arrival_record(
            match=late, side=0, user=director, at=called + datetime.timedelta(minutes=12)
        )
        arrival_confirm(arrival=arrival, user=director)
        arrival_record(match=late, side=1, user=director, at=called - datetime.timedelta(minutes=3))
        # 2-0, B wins a gammon: 4-0, so game 2 is the Crawford game; A wins it: 1-4
        self.games(late, [(1, 1, "gammon"), (0, 1, "single")], director)
        # on the club's clocks: B wins 1, A wins 2 (cube 2), then A's flag falls: 2-5
        self.games(flagged, [(1, 1, "single"), (0, 2, "single")], director)
        match_forfeit(match=Match.objects.get(pk=flagged.pk), side=0, reason="time", user=director)

    def games(self, match: Match, played: list[tuple[int, int, str]], director: User) -> None:
        """The next games of a match, recorded by hand: (winner, cube, result) each."""
        for winner, cube, result in played:
            fresh = Match.objects.get(pk=match.pk)
            game_record(
                match=fresh,
                number=fresh.games.count() + 1,
                winner=winner,
                cube=cube,
                result=result,
                user=director,
            )

    def load_tournament(self, director: User) -> None:
        """A 12-player knockout with a consolation, round 1 played; a Swiss in its first round."""
        guests = [player_create(name=n, club=c, country=k, user=director) for n, c, k in GUESTS]
        club = [Player.objects.get(name=name) for name, _, _ in PLAYERS]
        tournament = tournament_create(
            name=TOURNAMENT,
            date=datetime.date.today(),
            venue="Circolo Backgammon Milano",
            user=director,
        )
        main = event_create(
            tournament=tournament,
            name="Main",
            format=Event.Format.CONSOLATION,
            lengths=[5, 5, 7, 9],
            user=director,
        )
        swiss = event_create(
            tournament=tournament,
            name="Swiss",
            format=Event.Format.SWISS,
            lengths=[3, 3, 5],
            swiss_rounds=3,
            cut=4,
            seeding=Event.Seeding.RATING,
            user=director,
        )
        for event, people in ((main, club + guests), (swiss, club)):
            for person in people:
                entry = entry_register(event=event, player=person, user=director)
                entry_check_in(entry=entry, user=director)
        tournament_tables_set(tournament=tournament, count=DEMO_TABLES, user=director)
        tournament_reports_set(  # the players report their results, the opponent confirms
            tournament=tournament,
            results_by=Tournament.ResultsBy.PLAYERS,
            report_detail=Tournament.ReportDetail.EITHER,
            confirm_minutes=15,
            user=director,
        )
        event_draw(event=main, seed=DRAW_SEED, user=director)
        event_draw(event=swiss, user=director)
        rng = random.Random(DRAW_SEED)
        for event in (main, swiss):
            for match in Match.objects.filter(place__event=event, place__round=1).order_by("id"):
                loser_points = rng.randrange(match.length)
                a_wins = rng.random() < 0.5
                match_record_final_score(
                    match=match,
                    score_a=match.length if a_wins else loser_points,
                    score_b=loser_points if a_wins else match.length,
                    user=director,
                )
