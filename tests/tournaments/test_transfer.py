"""A whole tournament exported as JSON and imported again: round trip, refusals, rights, commands.

The tournament is the demo club's (a 12-player knockout with a consolation, a Swiss), played on
here until it holds every kind of thing a tournament can: a corrected final score, a walkover,
games through the Crawford game and a corrected game, a withdrawal and a Swiss bye, games on
the board (one finished by a drop, one with a checker moved and not yet confirmed), and a
dispute decided from the site's own log beside one still open.
"""

from __future__ import annotations

import copy
import dataclasses
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from hypothesis import given, settings
from hypothesis import strategies as st

from club.models import AuditEntry, Player
from club.policy import SYSTEM
from matches.board.service import board_game_act, board_game_start, board_state
from matches.disputes import dispute_decide, dispute_open, dispute_sheets_set
from matches.models import BoardAction, BoardGame, Dispute, Game, Match
from matches.selectors import match_score_sheet
from matches.services import (
    game_correct,
    game_record,
    match_record_final_score,
    match_retire,
    match_walkover,
)
from tests.tournaments.helpers import another_tournament
from tournaments.advancement import ratings_rederive
from tournaments.models import Bye, Entry, Event, Place, RatingChange, Round, Tournament
from tournaments.queries.brackets import event_bracket_sections
from tournaments.queries.events import event_rounds
from tournaments.queries.knockouts import event_knockout
from tournaments.queries.standings import event_standings
from tournaments.services import entry_withdraw, event_pair_next_round, tournament_create
from tournaments.transfer import (
    document_read,
    import_directors_offered,
    tournament_export,
    tournament_export_text,
    tournament_import,
    tournament_import_plan,
)

pytestmark = pytest.mark.django_db

MODELS = (
    Tournament,
    Event,
    Round,
    Entry,
    Bye,
    Place,
    Match,
    Game,
    BoardGame,
    BoardAction,
    Dispute,
    Player,
    AuditEntry,
    RatingChange,
)


def counts():
    return [model.objects.count() for model in MODELS]


# --- a tournament with every kind of thing ---------------------------------------------------


def _act(board, action, user, **details):
    board.refresh_from_db()
    return board_game_act(
        board_game=board, version=board.version, action=action, user=user, **details
    )


def _games(match, user, *games):
    for winner, cube, result in games:
        fresh = Match.objects.get(pk=match.pk)
        game_record(
            match=fresh,
            number=fresh.games.count() + 1,
            winner=winner,
            cube=cube,
            result=result,
            user=user,
        )


def _build_demo():
    """The demo club's tournament, played on until it holds every kind of thing."""
    call_command("demo_club", force=True, stdout=io.StringIO())  # tests run with DEBUG off
    director = get_user_model().objects.get(username="director")
    tournament = Tournament.objects.get(name="Torneo d'Autunno")
    main = tournament.events.get(given_name="Main")
    swiss = tournament.events.get(given_name="Swiss")

    # the consolation: a final score, then corrected the other way round
    consolation = Match.objects.filter(place__event=main, place__bracket_key__startswith="C")
    first = consolation.order_by("id").first()
    match_record_final_score(match=first, score_a=5, score_b=2, user=director)
    match_record_final_score(match=first, score_a=2, score_b=5, user=director)

    # round 2 of the main draw: a walkover, and a 5-point match through the Crawford game
    second = list(
        Match.objects.filter(place__event=main, place__bracket_key__startswith="M2").order_by("id")
    )
    match_walkover(match=second[0], winner=0, user=director)
    _games(second[1], director, (0, 2, "gammon"), (1, 1, "single"), (0, 1, "single"))
    third = Game.objects.get(match=second[1], number=3)
    game_correct(game=third, winner=0, cube=1, result="gammon", user=director)

    # a consolation match: a game, then a retirement (the opponent wins the match)
    retiring = consolation.order_by("id")[1]
    _games(retiring, director, (1, 1, "single"))
    match_retire(match=Match.objects.get(pk=retiring.pk), side=1, user=director)

    # the Swiss is played under the Holland rule (Galore 5.4), its matches too
    Event.objects.filter(pk=swiss.pk).update(holland=True)
    Match.objects.filter(place__event=swiss).update(holland=True)

    # the Swiss: a withdrawal, so round 2 has a bye
    entry_withdraw(entry=swiss.entries.order_by("seed").last(), user=director)
    event_pair_next_round(event=swiss, user=director)

    # a Swiss match on the board: game 1 ends on a dropped double, game 2 is under way
    played = Match.objects.filter(place__event=swiss, place__round=2).order_by("id").first()
    board = board_game_start(match=played, user=director)
    _act(board, "opening", director, dice=(3, 1))
    _act(board, "play", director, play="8/5 6/5")
    _act(board, "double", director)
    _act(board, "drop", director)
    board = board_game_start(match=Match.objects.get(pk=played.pk), user=director)
    _act(board, "opening", director, dice=(4, 2))
    _act(board, "play", director, play="8/4 6/4")
    _act(board, "roll", director, dice=(6, 5))
    _act(board, "move", director, source=24, destination=18)  # not yet confirmed

    # two disputes over it: one decided from the site's own log, one still open
    dispute = dispute_open(match=Match.objects.get(pk=played.pk), user=director)
    dispute_sheets_set(dispute=dispute, sheet_a=(1, 0), sheet_b=(0, 1), user=director)
    dispute_decide(dispute=dispute, user=director)
    dispute_open(match=Match.objects.get(pk=played.pk), user=director)
    return tournament, director


@pytest.fixture
def demo(settings, tmp_path):
    settings.BASE_DIR = tmp_path  # the demo director's password file goes here
    return _build_demo()


@pytest.fixture(scope="module")
def demo_document(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo tournament's document, built once for the module and rolled back: tests that
    import it do so into a site that has none of its players (as on another machine)."""
    from django.test import override_settings

    folder = tmp_path_factory.mktemp("demo")
    with (
        django_db_blocker.unblock(),
        override_settings(BASE_DIR=folder, DICE_SEED="t"),
        transaction.atomic(),
    ):
        tournament, _ = _build_demo()
        document = tournament_export(tournament=tournament)
        transaction.set_rollback(True)
    return document


@pytest.fixture
def document(demo_document):
    return copy.deepcopy(demo_document)


def test_the_demo_tournament_holds_every_kind_of_thing(document):
    matches = document["matches"]
    codes = {entry["code"] for entry in document["audit"]}
    assert {"consolation", "swiss"} <= {e["format"] for e in document["events"]}
    assert any(e["byes"] for e in document["events"])
    assert any(e["status"] == "withdrawn" for ev in document["events"] for e in ev["entries"])
    assert any(m["walkover_winner"] is not None for m in matches)
    assert any(m["final_score"] for m in matches)
    assert any(len(m["games"]) == 3 for m in matches)
    assert any(m["retired"] == 1 and m["games"] and m["final_score"] for m in matches)
    assert any(e["holland"] for e in document["events"]) and any(m["holland"] for m in matches)
    boards = [b for m in matches for b in m["board_games"]]
    assert len(boards) == 2 and boards[1]["pending"] == "24:6"
    assert {a["act"] for b in boards for a in b["actions"]} >= {"opening roll", "double", "drop"}
    disputes = [d for m in matches for d in m["disputes"]]
    assert [d["decision"] for d in disputes] == ["log", ""]
    assert {
        "game.corrected",
        "result.walkover",
        "entry.withdrawn",
        "event.paired",
        "board.started",
        "dispute.decided",
        "place.created",
    } <= codes
    assert any(e["before"] for e in document["audit"] if e["code"] == "result.final_score")


# --- the document ----------------------------------------------------------------------------


def test_the_document_names_everything_by_local_keys(document):
    assert (document["format"], document["version"]) == ("crawford-tournament", 2)
    assert list(document) == ["format", "version", "tournament", "players", "events", "matches"] + [
        "audit"
    ]
    assert document["tournament"]["directors"] == ["director"]
    players = document["players"]
    assert [p["key"] for p in players] == [f"p{n}" for n in range(1, len(players) + 1)]
    assert {"name", "club", "country", "email", "phone"} <= set(players[0])
    keys = {p["key"] for p in players}
    for match in document["matches"]:
        assert {match["player_a"], match["player_b"]} <= keys
        assert match["event"] in {e["key"] for e in document["events"]}
        assert "id" not in match and "pk" not in match
    # no id of this database in the disputes' audit parameters either
    disputed = [e for e in document["audit"] if e["code"].startswith("dispute.")]
    assert disputed and all(e["params"]["dispute"] in ("d1", "d2") for e in disputed)
    assert all(e["dispute"] in ("d1", "d2") for e in disputed)


def _brackets(event):
    knockout = event_knockout(event=event)
    if knockout is None:
        return None
    return [
        (
            section.title,
            [
                (
                    column.title,
                    [
                        (
                            box.key,
                            box.length,
                            box.match.status if box.match else None,
                            [
                                (ln.name, ln.seed, ln.score, ln.won, ln.bye, ln.pending)
                                for ln in box.lines
                            ],
                        )
                        for box in column.boxes
                    ],
                )
                for column in section.columns
            ],
        )
        for section in event_bracket_sections(event=event, knockout=knockout)
    ] + [knockout.champion.name if knockout.champion else None]


def _standings(event):
    rows = []
    for row in event_standings(event=event):
        facts = dataclasses.asdict(row.standing)
        facts.pop("key"), facts.pop("opponents")
        rows.append((row.player.name, row.pool, facts))
    return rows


def _rounds(event):
    return [
        (
            r.number,
            r.length,
            r.byes,
            [(str(m.player_a), str(m.player_b), m.status) for m in r.matches],
        )
        for r in event_rounds(event=event)
    ]


def _sheets(tournament):
    found = Match.objects.filter(place__event__tournament=tournament).order_by("id")
    sheets = []
    for match in found:
        sheet = match_score_sheet(match=match)
        rows = [
            (
                row.game.number,
                row.winner.name,
                row.score_before,
                row.score_after,
                row.crawford,
                row.post_crawford,
                row.points,
            )
            for row in sheet.rows
        ]
        sheets.append((str(match), sheet.score, sheet.winner, sheet.crawford_game, rows))
    return sheets


def _boards(tournament):
    found = BoardGame.objects.filter(match__place__event__tournament=tournament)
    states = []
    for board in found.order_by("match_id", "number"):
        state = board_state(board_game=board)
        turn = state.turn
        states.append(
            (
                state.position.id,
                state.game.phase,
                state.game.dice,
                state.game.cube,
                state.recorded,
                turn.moves if turn else None,
                [(a.act, a.player, a.dice, a.play) for a in state.game.log],
            )
        )
    return states


def _no_accounts(document):
    """The document as a copy exports it: who acted on the board or in a dispute names no
    account (an import links none, issue 23.4); the trail keeps the file's names."""
    for match in document["matches"]:
        for board in match["board_games"]:
            for action in board["actions"]:
                action["user"] = None
        for dispute in match["disputes"]:
            dispute["opened_by"] = dispute["decided_by"] = None
        for penalty in match["penalties"]:
            penalty["created_by"] = None
        for arrival in match["arrivals"]:
            arrival["recorded_by"] = arrival["decided_by"] = None
    return document


def test_round_trip_the_copy_is_the_tournament_again(demo, client):
    tournament, director = demo
    text = tournament_export_text(tournament=tournament)
    assert text == tournament_export_text(tournament=tournament)  # byte for byte
    original = json.loads(text)
    before = RatingChange.objects.count()
    sent = another_tournament(original)  # this site holds the original: compared side by side

    copy_ = tournament_import(document=json.loads(json.dumps(sent)), user=director)

    # the demo's other tournament (on time rules) is not this one
    assert (
        copy_.pk != tournament.pk and Tournament.objects.filter(name=tournament.name).count() == 2
    )
    again = tournament_export(tournament=copy_)
    imported = again["audit"].pop()
    assert imported["code"] == "tournament.imported" and imported["user"] == "director"
    assert again == _no_accounts(copy.deepcopy(sent))  # the history and the identity included
    # the players are this site's own, matched; nothing of the original changed
    assert Player.objects.count() == 12
    assert tournament_export(tournament=tournament) == original

    pairs = list(zip(tournament.events.order_by("id"), copy_.events.order_by("id"), strict=True))
    for first, second in pairs:
        assert _brackets(second) == _brackets(first)
        assert _standings(second) == _standings(first)
        assert _rounds(second) == _rounds(first)
    assert _sheets(copy_) == _sheets(tournament)
    assert _boards(copy_) == _boards(tournament) and len(_boards(copy_)) == 2

    # ratings: the copy's rated results count too, and are what re-deriving from scratch gives
    rated = RatingChange.objects.filter(match__place__event__tournament=copy_).count()
    assert rated == RatingChange.objects.filter(match__place__event__tournament=tournament).count()
    assert rated > 0 and RatingChange.objects.count() > before
    ratings = sorted(Player.objects.values_list("pk", "rating", "experience"))
    history = sorted(RatingChange.objects.values_list("player", "match", "order", "rating_after"))
    ratings_rederive()
    assert sorted(Player.objects.values_list("pk", "rating", "experience")) == ratings
    assert (
        sorted(RatingChange.objects.values_list("player", "match", "order", "rating_after"))
        == history
    )

    # and every page of the copy shows
    client.force_login(director)
    pages = [copy_.get_absolute_url(), reverse("tournament_changes", args=[copy_.pk])]
    pages += [event.get_absolute_url() for event in copy_.events.all()]
    for match in Match.objects.filter(place__event__tournament=copy_):
        pages.append(match.get_absolute_url())
        pages += [d.get_absolute_url() for d in match.disputes.all()]
        if match.board_games.exists():
            pages.append(reverse("board", args=[match.pk]))
            pages.append(reverse("game_log", args=[match.pk, 1]))
    for page in pages:
        assert client.get(page).status_code == 200, page
    assert "imported the tournament Torneo d&#x27;Autunno from a file" in (
        client.get(copy_.get_absolute_url()).content.decode()
    )


def test_players_are_matched_or_added_and_directors_only_those_ticked(
    demo, django_user_model, directors_group
):
    tournament, _ = demo
    importer = django_user_model.objects.create_user("federation", password="pw-federation-1")
    importer.groups.add(directors_group)
    django_user_model.objects.create_user("anna", password="pw-anna-1")
    document = another_tournament(tournament_export(tournament=tournament))
    document["tournament"]["directors"] = ["anna", "director", "nobody-here"]
    moved = next(p for p in document["players"] if p["name"] == "Tom Walsh")
    moved["club"] = "Galway Backgammon Club"  # not the Tom Walsh of this site

    plan = tournament_import_plan(document=document)
    assert [p.name for p in plan.players_new] == ["Tom Walsh"]
    assert len(plan.players_matched) == 11
    assert [u.username for u in plan.directors] == ["anna", "director"]
    assert plan.directors_missing == ("nobody-here",)

    created = tournament_import(document=document, user=importer, directors=["director"])
    assert sorted(created.directors.values_list("username", flat=True)) == [
        "director",
        "federation",
    ]
    walshes = Player.objects.filter(name="Tom Walsh").order_by("id")
    assert [p.club for p in walshes] == ["Dublin Backgammon Club", "Galway Backgammon Club"]
    assert Entry.objects.filter(event__tournament=created, player=walshes[1]).exists()
    added = AuditEntry.objects.get(code="player.created", params__name="Tom Walsh", user=importer)
    assert added.after["club"] == "Galway Backgammon Club"
    entry = AuditEntry.objects.get(code="tournament.imported")
    assert entry.user == importer and entry.tournament_id == created.pk
    assert entry.after["players_new"] == ["Tom Walsh"]


def test_importing_needs_the_right_to_create_tournaments(document, member):
    from django.core.exceptions import PermissionDenied

    before = counts()
    with pytest.raises(PermissionDenied):
        tournament_import(document=document, user=member)
    assert counts() == before


def test_a_site_without_its_players_or_directors_gets_them_from_the_file(document, client):
    """Another machine: every player is added (contact details too), no director account
    exists (the command imports as the site itself), the pages show."""
    created = tournament_import(document=document, user=SYSTEM)
    assert Player.objects.count() == len(document["players"]) == 12
    assert created.directors.count() == 0
    assert AuditEntry.objects.filter(code="player.created").count() == 12
    again = tournament_export(tournament=created)
    assert again["audit"].pop()["code"] == "tournament.imported"
    document["tournament"]["directors"] = []  # no account here: not a director here
    assert again == _no_accounts(document)  # the trail as the file gave it
    for event in created.events.all():
        assert client.get(event.get_absolute_url()).status_code == 200


def test_names_in_a_file_are_made_one_line_as_the_site_stores_them(document):
    """A file edited to put line breaks and a right-to-left override in names (issue 23.5):
    imported on one line, as every service stores names, so the copy's .mat export reads."""
    player = document["players"][0]
    player["name"], player["club"] = "Anna\r\nRossi", "Circolo\u202eonaliM"
    document["tournament"]["name"] = "Torneo\nd'Autunno"
    document["tournament"]["venue"] = "Milano\t"
    document["events"][0]["name"] = "Main\u2028draw"
    created = tournament_import(document=document, user=SYSTEM)
    assert (created.name, created.venue) == ("Torneo d'Autunno", "Milano")
    assert created.events.filter(given_name="Main draw").exists()
    assert Player.objects.filter(name="Anna Rossi", club="CircoloonaliM").exists()


def test_a_file_written_before_country_codes_is_read_as_codes(document):
    """Issue 25.10: a file exported when countries were free text names them as typed; each
    is read as its code, and the copy exports codes."""
    players = document["players"]
    players[0]["country"], players[1]["country"] = "Schweiz", "Italia"
    created = tournament_import(document=document, user=SYSTEM)
    assert Player.objects.get(name=players[0]["name"]).country == "CH"
    assert Player.objects.get(name=players[1]["name"]).country == "IT"
    exported = {p["name"]: p["country"] for p in tournament_export(tournament=created)["players"]}
    assert (exported[players[0]["name"]], exported[players[1]["name"]]) == ("CH", "IT")


def test_a_file_s_country_that_is_none_is_refused_naming_where(document):
    document["players"][1]["country"] = "Atlantis"
    before = counts()
    with pytest.raises(ValidationError) as refused:
        tournament_import(document=document, user=SYSTEM)
    assert (
        "players[2].country should be a country's two-letter code (IT, CH) or its name"
        in (refused.value.messages[0])
    )
    assert counts() == before


# --- the file's history is its claim, its directors the importer's choice (issue 23.4) -------


@pytest.fixture
def forged(document, django_user_model, directors_group):
    """The demo file edited to say this site's administrator made every change, at times of
    the editor's choosing, changed a player, and directs the tournament with a rival."""
    admin = django_user_model.objects.create_superuser("admin", password="pw-admin-1")
    rival = django_user_model.objects.create_user("rival", password="pw-rival-1")
    rival.groups.add(directors_group)
    for number, entry in enumerate(document["audit"]):
        entry["user"], entry["user_name"] = "admin", "admin"
        entry["at"] = f"1999-12-31T23:{number % 60:02d}:00+00:00"
    document["audit"].append(
        {
            "at": "2000-01-01T00:00:00+00:00",
            "code": "player.changed",
            "params": {"name": document["players"][0]["name"]},
            "before": {"club": ""},
            "after": {"club": "Somewhere"},
            "user": "admin",
            "user_name": "admin",
            "subject": {"kind": "player", "player": "p1"},
            "match": None,
            "dispute": None,
            "tournament": True,
        }
    )
    document["tournament"]["directors"] = ["admin", "rival", "nobody-here"]
    return document, admin, rival


def test_a_forged_history_is_kept_as_the_file_s_claims_never_as_an_account_s(
    forged, director, client
):
    document, admin, _rival = forged

    created = tournament_import(document=document, user=director)

    assert not AuditEntry.objects.filter(user=admin).exists()
    claims = AuditEntry.objects.filter(imported=True)
    assert claims.count() == len(document["audit"])
    assert set(claims.values_list("user", "user_name", "imported_username")) == {
        (None, "admin", "admin")
    }
    own = AuditEntry.objects.get(code="tournament.imported")
    assert (own.user, own.imported, own.tournament_id) == (director, False, created.pk)
    # nothing of the copy names an account but the importer's own entries
    copied = BoardAction.objects.filter(game__match__place__event__tournament=created)
    assert copied.exists() and not copied.filter(user__isnull=False).exists()
    disputes = Dispute.objects.filter(match__place__event__tournament=created)
    assert disputes.exists()
    assert not disputes.filter(Q(opened_by__isnull=False) | Q(decided_by__isnull=False)).exists()

    # every page that shows the trail says whose word it is
    client.force_login(director)
    match = (
        Match.objects.filter(place__event__tournament=created, games__isnull=False)
        .distinct()
        .first()
    )
    player = Player.objects.get(name=document["players"][0]["name"])
    pages = {
        reverse("tournament_changes", args=[created.pk]): "According to the file: admin ",
        match.get_absolute_url(): "According to the file: admin recorded game 1",
        player.get_absolute_url(): "According to the file: admin changed the player",
    }
    for url, says in pages.items():
        page = client.get(url).content.decode()
        assert says in page, url
        assert 'class="imported"' in page
        italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "Secondo il file: admin " in italian, url
    changes = client.get(reverse("tournament_changes", args=[created.pk])).content.decode()
    assert "director imported the tournament" in changes
    assert "According to the file: director" not in changes


def test_the_admin_tells_a_file_s_claims_from_the_site_s_own_entries(forged, director, client):
    document, admin, _rival = forged
    tournament_import(document=document, user=director)
    client.force_login(admin)
    url = reverse("admin:club_auditentry_changelist")
    page = client.get(url).content.decode()
    assert 'class="sortable column-imported' in page  # a column, and a filter
    assert "?imported__exact=1" in page
    claims = client.get(url, {"imported__exact": "1"})
    assert claims.context["cl"].result_count == len(document["audit"])
    own = client.get(url, {"imported__exact": "0"})
    mine = own.context["cl"].result_list
    # the importer's, and the site's: the ratings' job the import asked for, ended
    assert {(e.code, e.user) for e in mine} == {
        ("tournament.imported", director),
        ("player.created", director),
        ("ratings.rederived", None),
    }


def test_a_copy_exported_again_passes_the_file_s_claims_on_unchanged(forged, director):
    """Who the file says acted is kept, an account of this site or not."""
    document, _admin, _rival = forged
    for entry in document["audit"][::2]:
        entry["user"], entry["user_name"] = "anna.rossi", "Anna Rossi"  # no account here
    created = tournament_import(document=copy.deepcopy(document), user=director)
    again = tournament_export(tournament=created)
    assert again["audit"].pop()["code"] == "tournament.imported"
    again["audit"].sort(key=lambda entry: entry["at"])  # the forged times reorder them
    document["audit"].sort(key=lambda entry: entry["at"])
    assert again["audit"] == document["audit"]


def test_the_database_refuses_an_imported_entry_linked_to_an_account(director):
    from django.contrib.contenttypes.models import ContentType
    from django.db import IntegrityError

    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEntry.objects.create(
            user=director,
            imported=True,
            code="tournament.created",
            subject_type=ContentType.objects.get_for_model(Tournament),
            subject_id=1,
        )


def test_the_directors_a_file_names_direct_only_if_the_importer_ticks_them(forged, director):
    document, _admin, rival = forged

    plan = tournament_import_plan(document=document)
    assert [u.username for u in plan.directors] == ["admin", "rival"]
    assert plan.directors_missing == ("nobody-here",)
    # a director of the Directors group may name its members, not the administrator
    assert import_directors_offered(plan=plan, user=director) == [rival]

    untouched = tournament_import(document=copy.deepcopy(document), user=director)
    assert list(untouched.directors.all()) == [director]

    document = another_tournament(document)  # not the one just imported
    ticked = tournament_import(document=document, user=director, directors=["rival"])
    assert sorted(ticked.directors.values_list("username", flat=True)) == ["director", "rival"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("admin", "You may not make admin a director of the tournament: only members of"),
        ("nobody-here", "“nobody-here” is not one of the directors the file names with an"),
        ("director2", "“director2” is not one of the directors the file names with an"),
    ],
)
def test_ticking_an_account_the_importer_may_not_name_is_refused(
    forged, director, django_user_model, directors_group, name, says
):
    document, _admin, _rival = forged
    other = django_user_model.objects.create_user("director2", password="pw-director-2")
    other.groups.add(directors_group)  # may be named, but the file does not name them
    before = counts()
    with pytest.raises(ValidationError) as refused:
        tournament_import(document=document, user=director, directors=["rival", name])
    assert says in refused.value.messages[0]
    assert counts() == before


def test_staff_may_tick_any_account_the_file_names(forged, django_user_model):
    document, admin, rival = forged
    staff = django_user_model.objects.create_user("staff", password="pw-staff-1", is_staff=True)
    plan = tournament_import_plan(document=document)
    assert import_directors_offered(plan=plan, user=staff) == [admin, rival]
    created = tournament_import(document=document, user=staff, directors=["admin"])
    assert sorted(created.directors.values_list("username", flat=True)) == ["admin", "staff"]


# --- refusals --------------------------------------------------------------------------------


def _match_with(document, predicate):
    return next(m for m in document["matches"] if predicate(m))


def _crawford_double(document):
    match = _match_with(document, lambda m: len(m["games"]) == 3)
    match["games"][1]["cube"] = 2  # game 2, at 4-0 in a 5-point match, is the Crawford game


def _game_after_the_match(document):
    match = _match_with(document, lambda m: len(m["games"]) == 3)
    match["games"].append(dict(match["games"][-1], number=4))


def _illegal_board_play(document):
    board = _match_with(document, lambda m: m["board_games"])["board_games"][0]
    board["actions"][1]["play"] = "8/4 6/4"  # 3-1 was rolled


def _impossible_pending_move(document):
    board = _match_with(document, lambda m: m["board_games"])["board_games"][1]
    board["pending"] = "24:4"


def _stranger(document):
    document["matches"][0]["player_a"] = "p99"


def _bracket_moved(document):
    match = _match_with(document, lambda m: m["bracket_key"] == "M2-2")
    match["player_a"], match["player_b"] = match["player_b"], match["player_a"]


def _unreadable_dispute(document):
    _match_with(document, lambda m: m["disputes"])["disputes"][0]["mat"] = "not a match file"


def _final_score_too_high(document):
    match = _match_with(document, lambda m: m["final_score"])
    match["final_score"] = [match["length"] + 2, 0]


def _retirement_score_changed(document):
    match = _match_with(document, lambda m: m["retired"] is not None)
    match["final_score"] = [match["length"], match["length"] - 1]


def _retirement_without_final_score(document):
    match = _match_with(document, lambda m: m["retired"] is not None)
    match["final_score"] = None


def _missing_games(document):
    del _match_with(document, lambda m: m["games"])["games"]


def _no_identity(document):
    del document["tournament"]["uuid"]  # a version 2 file carries it


def _identity_not_a_uuid(document):
    document["tournament"]["uuid"] = "Torneo d'Autunno"


@pytest.mark.parametrize(
    ("tamper", "says"),
    [
        (_crawford_double, "game 2: Game 2 is the Crawford game: no doubling (WBF 24)."),
        (_game_after_the_match, "game 4: "),
        (_illegal_board_play, "game 1 on the board: "),
        (_impossible_pending_move, "checker moves not yet confirmed cannot be made"),
        (_stranger, "matches[1] refers to “p99”, which the file does not define"),
        (_bracket_moved, "the matches do not follow from the draw and the results (at M2-2)"),
        (_unreadable_dispute, "dispute 1: "),
        (_final_score_too_high, "cannot be the final score of a 5-point match"),
        (_retirement_score_changed, "after a retirement the final score is the games' score"),
        (_retirement_without_final_score, "after a retirement the final score is the games"),
        (_missing_games, ".games is missing"),
        (_no_identity, "tournament.uuid is missing"),
        (_identity_not_a_uuid, "tournament.uuid should be a UUID (32 hexadecimal digits)"),
    ],
)
def test_a_file_that_breaks_the_rules_is_refused_naming_the_match(document, tamper, says):
    tamper(document)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        tournament_import(document=document, user=SYSTEM)
    assert says in refused.value.messages[0], refused.value.messages
    assert counts() == before


def test_a_refusal_names_the_event_round_and_players(document):
    _crawford_double(document)
    with pytest.raises(ValidationError) as refused:
        tournament_import_plan(document=document)
    match = _match_with(document, lambda m: len(m["games"]) == 3)
    names = {p["key"]: p["name"] for p in document["players"]}
    a, b = names[match["player_a"]], names[match["player_b"]]
    assert refused.value.messages == [
        f"Main, round 2, {a} – {b}: game 2: Game 2 is the Crawford game: no doubling (WBF 24)."
    ]


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.integers()
    | st.text(max_size=4)
    | st.sampled_from(["p1", "e1", "m1", "d1", "finished", "single", "roll", "M1-1", "2026-1-1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=4,
)


def _places(value, path=()):
    """Every place in the document a value sits at (objects' keys and lists' items)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key)
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*path, index)
            yield from _places(item, (*path, index))


class _Undo(Exception):
    pass


def test_a_damaged_file_is_refused_in_plain_words_or_imported_never_an_error(document):
    """Any one value changed, or removed, anywhere: a refusal (ValidationError) or an import,
    never another exception (a 500 on the page)."""
    sections = {
        name: [p for p in _places(document) if p[0] == name]
        for name in ("tournament", "players", "events", "matches", "audit")
    }

    @settings(max_examples=40, deadline=None, database=None)
    @given(st.data())
    def damaged(data):
        section = data.draw(st.sampled_from(sorted(sections)))
        path = data.draw(st.sampled_from(sections[section]))
        broken = copy.deepcopy(document)
        parent = broken
        for step in path[:-1]:
            parent = parent[step]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON)
        try:
            with transaction.atomic():
                tournament_import(document=broken, user=SYSTEM)
                raise _Undo
        except (ValidationError, _Undo):
            pass

    damaged()


# --- the pages -------------------------------------------------------------------------------


def _upload(client, content: bytes, **extra):
    upload = SimpleUploadedFile("tournament.json", content, content_type="application/json")
    return client.post(reverse("tournament_import"), {"file": upload, **extra})


def test_a_director_downloads_checks_and_imports_a_tournament(demo, client):
    tournament, director = demo
    client.force_login(director)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Download the whole tournament (JSON)" in page
    download = client.get(reverse("tournament_export", args=[tournament.pk]))
    assert download.status_code == 200
    assert download["Content-Type"] == "application/json; charset=utf-8"
    assert 'filename="torneo-dautunno-' in download["Content-Disposition"]
    content = download.content
    assert json.loads(content)["tournament"]["uuid"] == str(tournament.uuid)
    content = json.dumps(another_tournament(json.loads(content))).encode()  # not the one here

    assert "Import a tournament" in client.get(reverse("tournaments")).content.decode()
    assert client.get(reverse("tournament_import")).status_code == 200
    before = counts()
    preview = _upload(client, content)
    assert preview.status_code == 200
    shown = preview.content.decode()
    assert counts() == before  # a preview creates nothing
    for expected in (
        "What the import will create",
        "Torneo d&#x27;Autunno",
        "Main",
        "Swiss",
        "0 new players",
        "12 players already on this site",
        "Giulia Romano",
        "games recorded, 2 on the board",
        'name="key"',
    ):
        assert expected in shown, expected
    done = _confirm(client, preview)
    created = Tournament.objects.filter(name=tournament.name).exclude(pk=tournament.pk).get()
    assert done.status_code == 302 and done["Location"] == created.get_absolute_url()
    landed = client.get(done["Location"]).content.decode()
    assert "is imported" in landed and "imported the tournament" in landed


def _refused(client, response, says):
    assert response.status_code == 400
    page = response.content.decode()
    assert says in page, page
    assert 'role="alert"' in page


def test_the_import_page_refuses_in_plain_words_and_creates_nothing(document, director_client):
    client = director_client
    before = counts()

    _refused(client, _upload(client, b"\x89PNG\r\n not json"), "it is not JSON")
    newer = dict(document, version=3)
    _refused(
        client,
        _upload(client, json.dumps(newer).encode()),
        "exported by a newer version of Crawford (file format 3; this site reads up to 2)",
    )
    _crawford_double(document)
    _refused(
        client,
        _upload(client, json.dumps(document).encode()),
        "Game 2 is the Crawford game: no doubling (WBF 24).",
    )
    _refused(client, client.post(reverse("tournament_import"), {}), "Choose a tournament file.")
    _refused(
        client,
        client.post(reverse("tournament_import"), {"key": "forged", "confirm": "1"}),
        "The preview has expired or was already confirmed: upload the file again.",
    )
    assert counts() == before


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('"venue": "Milano",', "venue"),  # in the tournament
        ('"length": 1, "length": 1,', "length"),  # in a match
    ],
)
def test_a_key_given_twice_is_refused_naming_it(document, director_client, text, key):
    """Issue 23.9: which of two values a file means is a guess; refused, the key named."""
    content = json.dumps(document, indent=1)
    where = '"venue": ' if key == "venue" else '"length": '
    content = content.replace(where, f"{text} {where}", 1)
    with pytest.raises(ValidationError) as refused:
        document_read(content.encode())
    says = f"the key “{key}” is given twice in one of its objects"
    assert says in refused.value.messages[0]
    before = counts()
    _refused(director_client, _upload(director_client, content.encode()), says)
    assert counts() == before


def test_the_confirmation_asks_the_policy_again(document, director_client, director):
    """Checked by a director who is no longer one when confirming: refused, nothing made."""
    preview = _upload(director_client, json.dumps(document).encode())
    assert preview.status_code == 200
    assert "12 new players, added to this site" in preview.content.decode()
    director.groups.clear()
    before = counts()
    response = _confirm(director_client, preview)
    assert response.status_code == 403
    assert counts() == before


def _confirm(client, preview, **extra):
    """The preview's confirmation button pressed, with ``extra`` fields (the directors)."""
    fields = {"key": preview.context["key"], "confirm": "1", **extra}
    return client.post(reverse("tournament_import"), fields)


def test_the_preview_shows_the_file_s_directors_and_ticks_none(forged, director_client):
    document, _admin, _rival = forged
    preview = _upload(director_client, json.dumps(document).encode())
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "admin, rival, nobody-here" in page  # as the file names them
    assert 'name="directors" value="rival">' in page  # offered, not ticked
    assert 'value="admin"' not in page
    assert "Not in the Directors group, so not yours to name: admin" in page
    assert "No account on this site for: nobody-here" in page

    done = _confirm(director_client, preview)
    created = Tournament.objects.get()
    assert done.status_code == 302
    assert list(created.directors.values_list("username", flat=True)) == ["director"]


def test_the_directors_ticked_on_the_page_direct_it(forged, director_client):
    document, _admin, _rival = forged
    preview = _upload(director_client, json.dumps(document).encode())
    assert _confirm(director_client, preview, directors=["rival"]).status_code == 302
    created = Tournament.objects.get()
    assert sorted(created.directors.values_list("username", flat=True)) == ["director", "rival"]


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "You may not make admin a director of the tournament"),
        ("it", "Non puoi nominare admin direttore del torneo"),
    ],
)
def test_ticking_someone_not_offered_on_the_page_is_refused_in_words(
    forged, director_client, language, says
):
    document, _admin, _rival = forged
    preview = _upload(director_client, json.dumps(document).encode())
    before = counts()
    director_client.cookies["django_language"] = language
    response = _confirm(director_client, preview, directors=["rival", "admin"])
    _refused(director_client, response, says)
    page = response.content.decode()
    assert 'name="directors" value="rival" checked>' in page  # the preview again, as ticked
    assert counts() == before


# --- a tournament already here (issue 25.3) ---------------------------------------------------


def _ratings():
    return sorted(Player.objects.values_list("pk", "rating", "experience"))


def test_a_tournament_already_here_is_said_so_and_not_imported_again(demo, client):
    """Its own download imported back: the preview says it is here, with a link, and offers no
    import; confirming anyway is refused in words (English and Italian), and nothing is made:
    no second tournament, no player's rating moved a second time."""
    tournament, director = demo
    client.force_login(director)
    content = client.get(reverse("tournament_export", args=[tournament.pk])).content
    before, ratings = counts(), _ratings()
    assert RatingChange.objects.exists()  # its results moved ratings once
    link = f'<a href="{tournament.get_absolute_url()}">Torneo d&#x27;Autunno</a>'

    preview = _upload(client, content)
    assert preview.status_code == 200
    page = preview.content.decode()
    assert f"This tournament is already on this site: {link}." in page
    assert "would count its results, and move its players' ratings, a second time" in page
    assert "What the file holds" in page and "What the import will create" not in page
    assert 'name="confirm"' not in page  # nothing to confirm
    client.cookies["django_language"] = "it"
    italian = _upload(client, content).content.decode()
    assert f"Questo torneo è già su questo sito: {link}." in italian
    assert 'name="confirm"' not in italian

    for language, says, open_it in [
        ("en", "This tournament is already on this site: “Torneo d&#x27;Autunno” of", "Open it"),
        ("it", "Questo torneo è già su questo sito: “Torneo d&#x27;Autunno” del", "Aprilo"),
    ]:
        client.cookies["django_language"] = language
        with translation.override(language):
            day = date_format(tournament.date)  # "Nov. 26, 2026", "26 novembre 2026"
        refused = _confirm(client, preview)  # the key posted all the same
        _refused(client, refused, f"{says} {day}. ")
        assert f"{open_it}: {link}." in refused.content.decode()
    assert counts() == before and Tournament.objects.filter(name=tournament.name).count() == 1
    assert _ratings() == ratings


def test_a_copy_exported_from_another_site_is_still_the_tournament_it_came_from(document, director):
    """Site A's file (the document) imported here, on site B, keeps its identity, and B's own
    export carries it: whichever of the two files comes back to a site that holds the
    tournament (B here, A as well) is refused, nothing made and no rating moved."""
    created = tournament_import(document=copy.deepcopy(document), user=SYSTEM)
    assert str(created.uuid) == document["tournament"]["uuid"]
    from_b = tournament_export(tournament=created)
    assert from_b["tournament"]["uuid"] == document["tournament"]["uuid"]
    before, ratings = counts(), _ratings()
    assert RatingChange.objects.exists()

    for file in (from_b, document):
        with pytest.raises(ValidationError) as refused:
            tournament_import(document=copy.deepcopy(file), user=director)
        assert refused.value.code == "tournament_here"
        assert "This tournament is already on this site" in refused.value.messages[0]
    assert counts() == before and _ratings() == ratings


def test_an_import_landing_meanwhile_is_refused_by_the_database_in_words(
    document, director, monkeypatch
):
    """Two confirmations of one file at once: both previews found it not here; the identity
    is unique in the database, so the second is refused in the same words, nothing made."""
    from tournaments.transfer import plan

    previewed = tournament_import_plan(document=document)
    assert previewed.here is None
    tournament_import(document=copy.deepcopy(document), user=director)  # the other lands first
    monkeypatch.setattr(plan, "tournament_import_plan", lambda *, document: previewed)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        tournament_import(document=copy.deepcopy(document), user=director)
    assert refused.value.code == "tournament_here"
    assert counts() == before


def test_a_tournament_deleted_may_be_imported_again(tournament, director):
    """The identity names a tournament held, not one ever seen: once gone, its file imports."""
    document = tournament_export(tournament=tournament)
    with pytest.raises(ValidationError, match="already on this site"):
        tournament_import(document=copy.deepcopy(document), user=director)
    Tournament.objects.filter(pk=tournament.pk).delete()  # no results: it may go

    created = tournament_import(document=document, user=director)

    assert str(created.uuid) == document["tournament"]["uuid"]
    assert created.name == "Torneo di Natale"


def test_a_file_without_an_identity_still_imports_and_its_twin_is_named(document, director_client):
    """A version 1 file (written before files carried the identity) imports with a new one;
    imported again, the preview names the tournament of the same name and date, as it may be
    this one, and leaves the director to judge."""
    client = director_client
    old = copy.deepcopy(document)
    old["version"] = 1
    del old["tournament"]["uuid"]
    content = json.dumps(old).encode()

    preview = _upload(client, content)
    assert preview.status_code == 200
    assert 'id="alike"' not in preview.content.decode()
    assert _confirm(client, preview).status_code == 302
    created = Tournament.objects.get()
    assert str(created.uuid) != document["tournament"]["uuid"]  # an identity of its own

    again = _upload(client, content)
    page = again.content.decode()
    link = f'<a href="{created.get_absolute_url()}">Torneo d&#x27;Autunno</a>'
    assert f"This site already has a tournament of the same name and date: {link}." in page
    assert "importing it would make a second copy" in page
    assert 'name="confirm"' in page  # the director judges
    client.cookies["django_language"] = "it"
    italian = _upload(client, content).content.decode()
    assert f"Questo sito ha già un torneo con lo stesso nome e la stessa data: {link}." in italian


# --- the previewed file kept on the server, confirmed by its key (issue 23.9) ---------------


def _league(players: int, size: int) -> bytes:
    """A generated tournament file of about ``size`` bytes: a season's round robin of
    ``players``, every match finished by its final score, and a long history (each entry
    with a note of random text, so it compresses about as little as real logs do)."""
    import random

    rng = random.Random(players)
    people = [f"p{n}" for n in range(1, players + 1)]
    pairs = [(a, b) for i, a in enumerate(people) for b in people[i + 1 :]]
    document = {
        "format": "crawford-tournament",
        "version": 1,
        "tournament": {
            "name": "Lega d'Inverno",
            "date": "2026-12-13",
            "venue": "Circolo Backgammon Milano",
            "physical_dice": False,
            "late_rounds": "loss",
            "directors": ["director"],
        },
        "players": [
            {"key": key, "name": f"Giocatore {key}", "club": "", "country": "IT"}
            | {"email": "", "phone": ""}
            for key in people
        ],
        "events": [
            {
                "key": "e1",
                "name": "Lega",
                "format": "round_robin",
                "seeding": "random",
                "swiss_rounds": None,
                "cut": None,
                "pools": 1,
                "parent": None,
                "draw_seed": 1,
                "drawn_at": "2026-12-13T09:00:00+00:00",
                "rounds": [5],
                "entries": [
                    {"player": key, "status": "checked_in", "seed": n, "pool": 1}
                    for n, key in enumerate(people, 1)
                ],
                "byes": [],
            }
        ],
        "matches": [
            {
                "key": f"m{n}",
                "event": "e1",
                "round": 1 + n % (players - 1),
                "bracket_key": "",
                "reason_code": "",
                "reason_params": {},
                "player_a": a,
                "player_b": b,
                "length": 5,
                "date": "2026-12-13",
                "status": "finished",
                "final_score": [5, rng.randrange(5)] if n % 2 else [rng.randrange(5), 5],
                "walkover_winner": None,
                "finished_at": "2026-12-13T12:00:00+00:00",
                "physical_dice": False,
                "games": [],
                "board_games": [],
                "disputes": [],
            }
            for n, (a, b) in enumerate(pairs, 1)
        ],
        "audit": [],
    }
    text = json.dumps(document, indent=1)
    entries, number, length = [], 0, len(text)
    while length < size - 10_000:
        number += 1
        entry = {
            "at": f"2026-12-13T{number // 3600 % 24:02d}:{number // 60 % 60:02d}:00+00:00",
            "code": "tournament.changed",
            "params": {"name": "Lega d'Inverno"},
            "before": {"venue": ""},
            "after": {"venue": rng.randbytes(2_000).hex()},
            "user": "director",
            "user_name": "director",
            "subject": {"kind": "tournament"},
            "match": None,
            "dispute": None,
            "tournament": True,
        }
        entries.append(json.dumps(entry, indent=1))
        length += len(entries[-1]) + 1
    return (text[: text.rindex("[]")] + "[" + ",".join(entries) + "]\n}\n").encode()


def test_a_file_near_the_size_limit_previews_and_is_imported(director_client):
    """The confirmation posts the preview's key, not the file: one as large as a tournament
    file may be is imported as it was previewed (it was refused at the confirmation as too
    large a form)."""
    from tournaments.transfer import MAX_BYTES

    content = _league(40, MAX_BYTES - 100_000)
    assert MAX_BYTES - 120_000 < len(content) <= MAX_BYTES
    preview = _upload(director_client, content)
    assert preview.status_code == 200
    assert "<dd>780</dd>" in preview.content.decode()  # matches
    assert len(preview.content) < 100_000  # the file is not in the page

    done = _confirm(director_client, preview)

    assert done.status_code == 302
    created = Tournament.objects.get()
    assert Match.objects.filter(place__event__tournament=created).count() == 780
    assert AuditEntry.objects.filter(imported=True).count() == len(json.loads(content)["audit"])


def test_a_preview_is_confirmed_once_and_only_by_its_importer(
    document, director_client, django_user_model, directors_group
):
    preview = _upload(director_client, json.dumps(document).encode())
    from django.test import Client

    other = django_user_model.objects.create_user("other", password="pw-other-1")
    other.groups.add(directors_group)
    client = Client()
    client.force_login(other)
    before = counts()
    expired = "The preview has expired or was already confirmed: upload the file again."
    _refused(client, _confirm(client, preview), expired)  # not theirs: nothing there
    assert counts() == before

    assert _confirm(director_client, preview).status_code == 302
    assert Tournament.objects.count() == 1
    _refused(director_client, _confirm(director_client, preview), expired)  # sent twice
    assert Tournament.objects.count() == 1


def test_a_preview_kept_too_long_has_expired(document, director_client):
    import datetime

    from django.utils import timezone

    from club.models import KeptUpload

    preview = _upload(director_client, json.dumps(document).encode())
    KeptUpload.objects.update(kept_at=timezone.now() - datetime.timedelta(days=1, minutes=1))
    director_client.cookies["django_language"] = "it"
    _refused(
        director_client,
        _confirm(director_client, preview),
        "L’anteprima è scaduta o è già stata confermata: carica di nuovo il file.",
    )
    assert not Tournament.objects.exists()


def test_a_refused_confirmation_keeps_the_preview_for_another_try(forged, director_client):
    document, _admin, _rival = forged
    preview = _upload(director_client, json.dumps(document).encode())
    refused = _confirm(director_client, preview, directors=["admin"])
    assert refused.status_code == 400 and "What the import will create" in refused.content.decode()
    assert _confirm(director_client, preview, directors=["rival"]).status_code == 302
    assert Tournament.objects.count() == 1


def test_an_empty_file_is_refused_in_words(director_client):
    _refused(director_client, _upload(director_client, b""), "The submitted file is empty.")


# --- who may download it ---------------------------------------------------------------------


@pytest.fixture
def small(tournament, event_with, director, finish):
    """A conftest tournament run by ``director`` (not staff): a knockout drawn, one result."""
    from tournaments.services import event_draw

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    match = Match.objects.filter(place__event=event).order_by("id").first()
    finish(match, match.player_a)
    Player.objects.filter(name="P01").update(email="p01@example.org", phone="+39 02 1234")
    return tournament


def test_only_the_tournaments_directors_and_staff_download_it(
    small, client, director, member, django_user_model, directors_group
):
    url = reverse("tournament_export", args=[small.pk])
    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]

    other = django_user_model.objects.create_user("other", password="pw-other-1")
    other.groups.add(directors_group)
    tournament_create(name="Another club's cup", date=small.date, user=other)
    for user in (member, other):
        client.force_login(user)
        assert client.get(url).status_code == 403
        page = client.get(small.get_absolute_url()).content.decode()
        assert "Download the whole tournament" not in page

    staff = django_user_model.objects.create_user("staff", password="pw-staff-1", is_staff=True)
    for user in (director, staff):
        client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200
        assert "p01@example.org" in response.content.decode()  # why it is not public


def test_the_import_page_is_for_those_who_may_create_tournaments(client, member, director):
    url = reverse("tournament_import")
    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(member)
    assert client.get(url).status_code == 403
    assert "Import a tournament" not in client.get(reverse("tournaments")).content.decode()
    client.force_login(director)
    assert client.get(url).status_code == 200


def test_a_copy_imported_into_an_empty_site_creates_its_players(small, director):
    """Another machine: the same file where none of its players exist yet."""
    document = another_tournament(tournament_export(tournament=small))
    for player in document["players"]:
        player["name"] = "Elsewhere " + player["name"]
    created = tournament_import(document=document, user=director)
    players = Player.objects.filter(name__startswith="Elsewhere ")
    assert players.count() == 4
    assert players.get(name="Elsewhere P01").email == "p01@example.org"

    def unnamed(sheets):
        return [(s[1], s[2], s[3], [r[:1] + r[2:] for r in s[4]]) for s in sheets]

    assert unnamed(_sheets(created)) == unnamed(_sheets(small))


# --- the commands ----------------------------------------------------------------------------


def test_the_commands_export_to_a_file_and_import_it(small, tmp_path):
    path = tmp_path / "cup.json"
    call_command("tournament_export", small.pk, output=str(path), stderr=io.StringIO())
    out = io.StringIO()
    call_command("tournament_export", small.pk, stdout=out)
    assert out.getvalue() == path.read_text(encoding="utf-8")

    here = "This tournament is already on this site: “Torneo di Natale” of Dec. 13, 2026."
    with pytest.raises(CommandError, match=here):  # the file of the tournament here
        call_command("tournament_import", str(path), stdout=io.StringIO())
    other = another_tournament(json.loads(path.read_text(encoding="utf-8")))
    path.write_text(json.dumps(other), encoding="utf-8")

    out = io.StringIO()
    call_command("tournament_import", str(path), stdout=out)
    created = Tournament.objects.exclude(pk=small.pk).get()
    assert f"as tournament {created.pk}" in out.getvalue()
    assert "0 players added, 4 matched" in out.getvalue()
    assert "not made directors: director (give --director USERNAME" in out.getvalue()
    assert not created.directors.exists()  # the file alone makes no one a director
    assert AuditEntry.objects.get(code="tournament.imported").user_name == ""  # the site itself

    with pytest.raises(CommandError, match=here):  # its copy is here now
        call_command("tournament_import", str(path), stdout=io.StringIO())
    other = another_tournament(other)
    path.write_text(json.dumps(other), encoding="utf-8")
    out = io.StringIO()
    call_command("tournament_import", str(path), "--director", "director", stdout=out)
    chosen = Tournament.objects.exclude(pk__in=[small.pk, created.pk]).get()
    assert list(chosen.directors.values_list("username", flat=True)) == ["director"]
    assert "Directors: director." in out.getvalue()

    broken = json.loads(path.read_text(encoding="utf-8"))
    broken["version"] = 7
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(CommandError, match="newer version of Crawford"):
        call_command("tournament_import", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="There is no tournament 999"):
        call_command("tournament_export", 999, stdout=io.StringIO())
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("tournament_import", str(tmp_path / "missing.json"))


# --- every format, in play and finished ------------------------------------------------------


def _play(event, finish, rng, limit):
    """Finish up to ``limit`` matches as they come, pairing Swiss rounds and making the cut."""
    from tests.tournaments.helpers import open_matches
    from tournaments.services import event_cut

    played = 0
    events = [event]
    while played < limit:
        waiting = [m for e in events for m in open_matches(e)]
        if waiting:
            match = rng.choice(waiting)
            finish(match, rng.choice((match.player_a, match.player_b)), rng.randrange(3))
            played += 1
            continue
        swiss = Event.objects.get(pk=event.pk)
        if swiss.format != Event.Format.SWISS:
            break
        try:
            event_pair_next_round(event=swiss, user=SYSTEM)
        except ValidationError:
            if not swiss.cut or swiss.children.exists():
                break
            events.append(event_cut(event=swiss, user=SYSTEM))
    return played


@pytest.mark.parametrize(
    ("format", "players", "options"),
    [
        (Event.Format.SINGLE, 5, {}),
        (Event.Format.CONSOLATION, 7, {}),
        (Event.Format.PROGRESSIVE, 9, {}),
        (Event.Format.DOUBLE, 6, {}),
        (Event.Format.ROUND_ROBIN, 7, {"pools": 2}),
        (Event.Format.SWISS, 7, {"swiss_rounds": 3, "cut": 4}),
    ],
)
@pytest.mark.parametrize("limit", [4, 200])
def test_every_format_in_play_or_finished_makes_the_round_trip(
    event_with, finish, director, format, players, options, limit
):
    import random

    from tournaments.services import event_draw

    event = event_with(format, players, lengths=(3, 5, 7), **options)
    event_draw(event=event, seed=players, user=director)
    assert _play(event, finish, random.Random(limit + players), limit) > 0
    tournament = event.tournament
    if limit == 200:  # played to the end: the cut made and played, every knockout won
        assert tournament.events.count() == (2 if options.get("cut") else 1)
        assert all(event_knockout(event=e).champion for e in tournament.events.all() if e.knockout)
    original = another_tournament(tournament_export(tournament=tournament))

    copy_ = tournament_import(document=copy.deepcopy(original), user=director)

    again = tournament_export(tournament=copy_)
    assert again["audit"].pop()["code"] == "tournament.imported"
    assert again == original
    pairs = zip(tournament.events.order_by("id"), copy_.events.order_by("id"), strict=True)
    for first, second in pairs:
        assert _brackets(second) == _brackets(first)
        assert _standings(second) == _standings(first)
        assert _rounds(second) == _rounds(first)
