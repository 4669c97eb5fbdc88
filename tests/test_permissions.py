"""Who may change what: a walk over every URL of the site, as every kind of visitor.

The policy (club.policy) answers; every view asks it and every service asks it again.
Anonymous visitors are sent to sign in; a signed-in member, a director of *another*
tournament and a member of the Directors group who does not direct this tournament
are refused (403) every change to this tournament's events, entries and matches, by
GET and by POST, and nothing in the database changes.
"""

import pytest
from django.contrib.auth.models import Group, User
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from club.models import AuditEntry, Invitation, Player
from club.policy import SYSTEM
from club.services import invitation_accept, invitation_issue, invitation_revoke, player_update
from jobs.models import Job, JobFile
from matches.models import (
    BoardAction,
    BoardGame,
    Dispute,
    Game,
    Match,
    Notifications,
    Penalty,
    ResultReport,
)
from matches.penalties import match_penalty_award
from matches.services import game_record
from tournaments.models import (
    Announcement,
    Arrival,
    Bye,
    Entry,
    EntryRequest,
    Event,
    Place,
    Round,
    Table,
    Tournament,
)
from tournaments.services import event_draw

pytestmark = pytest.mark.django_db

ATTEMPTS = {
    "name": "Intruder",
    "player_a": "1",
    "player_b": "2",
    "length": "5",
    "number": "1",
    "winner": "0",
    "cube": "1",
    "result": "single",
    "score_a": "5",
    "score_b": "0",
    "side": "0",
    "date": "2026-12-13",
    "format": "single",
    "lengths": "5, 7",
    "seeding": "random",
    "players": "1",
    "seed": "7",
    "version": "0",
    "action": "opening",
    "die1": "6",
    "die2": "1",
    "allowed": "on",
    "decide": "1",
    "player": "1",
    "count_as": "bye",
    "username": "intruder",
    "password1": "tavola-reale-42",
    "password2": "tavola-reale-42",
    "confirm": "1",  # past the confirmation pages: the change itself is attempted
}
# creating a player, a match outside any tournament or a tournament is not a change to
# anyone's tournament: the Directors group may, so a director of another tournament may too.
# Changing a player of this tournament, or inviting them, is its directors' (issue 23.1): the
# walk's player plays in it, so those pages are walked and refused like its matches.
CREATING = {
    "players/new/",
    "players/import/",
    "matches/new/",
    "matches/import/",
    "tournaments/new/",
    "tournaments/import/",
    "ratings/again/",  # every rating worked out again: the Directors group's, no tournament's
}
# pages that only read, but only for the tournament's directors (and staff): marked as the
# changes are (sign_in_required), so the walk refuses them to everyone else
DIRECTORS_READ = {
    "tournaments/<int:pk>/export/",
    "tournaments/<int:pk>/dashboard/",
    "tournaments/<int:pk>/invitations/",
    "tournaments/<int:pk>/check-in/poster/",
}
# a player's own pages, signed in: someone who is not a player reads that their account is
# not linked to one (200) and changes nothing; a player's own changes are walked below
PLAYERS_OWN = {"me/", "me/profile/", "me/emails/", "tournaments/<int:pk>/here/"}
# a signed-in person's own list (their background work): each sees theirs, nobody else's
SIGNED_IN_OWN = {"jobs/", "matches/export/<slug:table>/"}
# of those, the pages whose button starts work of one's own (a list's whole CSV, issue 29): a
# job of theirs is a change they may make, so the walk only reads them signed in
STARTS_OWN_WORK = {"matches/export/<slug:table>/"}
# open to everyone: a link that no longer works is Gone (the walk's invitation is withdrawn)
GONE = {"invitations/<str:token>/"}
# pages everyone reads, signed in or not, like the players' list (issue 25.13: the club's
# rating list and the page explaining the FIBS formula); the walk checks each answers 200
PUBLIC_READ = {"players/", "ratings/", "ratings/formula/"}


def site_patterns(resolver=None, prefix=""):
    """Every URL pattern of the site's own apps (the admin is checked on its own below)."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(("admin/", "i18n/", "accounts/")):
            continue  # the admin is walked below; signing in and out is for everyone
        if route.startswith("api/") and "(?P<rest>" in route:
            continue  # the API's JSON 404 for any address it does not have
        if route.startswith("tables/"):
            # a table's pages need a table of their own, with players seated: the walk of
            # tests/money/test_permissions.py makes one and goes to every /tables/ URL as
            # every role (anonymous, seated, not seated, its creator, directors)
            continue
        if isinstance(entry, URLResolver):
            yield from site_patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry


def reads(path: str, response) -> bool:
    """A page that only reads answers (405 to a post); the API refuses the walk's made-up
    query parameters by name, reading nothing (issue 25.10)."""
    if path.startswith("/api/") and response.status_code == 422:
        return response.json()["code"] == "unknown_parameter"
    return response.status_code in (200, 405)


def fill(route, ours):
    """The route with its placeholders pointing at this tournament's things (the API's the
    same as the pages': /api/v1/matches/<int:pk> is this tournament's match)."""
    api = "api/v1/" if route.startswith("api/v1/") else ""
    route = route.removeprefix(api)
    if route.startswith("players/"):
        pk = ours["player"].pk
    elif route.startswith("tournaments/"):
        pk = ours["tournament"].pk
    elif route.startswith("events/"):
        pk = ours["event"].pk
    elif route.startswith("entries/"):
        pk = ours["event"].entries.first().pk
    elif route.startswith("entry-requests/"):
        pk = ours["request"].pk
    elif route.startswith("jobs/"):
        pk = ours["job"].pk
    else:
        pk = ours["match"].pk
    number = 1
    if "disputes/<int:number>" in route:
        number = ours["dispute"].pk
    elif "announcements/<int:number>" in route:
        number = ours["announcement"].pk
    elif "board/<int:number>" in route:
        number = ours["board"].number
    elif "penalties/<int:number>" in route:
        number = ours["penalty"].pk
    route = route.replace("<str:token>", ours["token"]).replace("<slug:table>", "matches")
    path = route.replace("<int:pk>", str(pk)).replace("<int:number>", str(number))
    return "/" + api + path


MODELS = (
    Invitation,
    EntryRequest,
    Player,
    Match,
    Game,
    AuditEntry,
    User,
    Group,
    Tournament,
    Event,
    Round,
    Entry,
    Bye,
    Place,
    Table,
    BoardGame,
    BoardAction,
    Dispute,
    ResultReport,
    Notifications,
    Announcement,
    Penalty,
    Arrival,
    Job,
    JobFile,
)


def snapshot():
    """Everything a change could touch."""
    return [m.objects.count() for m in MODELS] + [
        list(Entry.objects.order_by("pk").values_list("status", "seed")),
        list(Event.objects.order_by("pk").values_list("drawn_at", flat=True)),
        list(
            Match.objects.order_by("pk").values_list(
                "status", "version", "physical_dice", "forfeit", "retired"
            )
        ),
        list(
            Tournament.objects.order_by("pk").values_list(
                "physical_dice", "tables", "late_rounds", "results_by", "confirm_minutes"
            )
        ),
        list(Table.objects.order_by("pk").values_list("number", "match")),
        list(BoardGame.objects.order_by("pk").values_list("version", "pending")),
        list(Announcement.objects.order_by("pk").values_list("withdrawn_at", "text")),
        list(Player.objects.order_by("pk").values_list("name", "club", "email", "phone", "user")),
        list(Invitation.objects.order_by("pk").values_list("used_at", "revoked_at")),
        list(EntryRequest.objects.order_by("pk").values_list("status")),
        list(Tournament.objects.order_by("pk").values_list("open_entry")),
        # time (issue 28): the time rules, the rounds' starts and clocks, the arrivals
        list(
            Tournament.objects.order_by("pk").values_list(
                "late_minutes_per_point", "clock_seconds_per_point", "clock_on_flag"
            )
        ),
        list(Round.objects.order_by("pk").values_list("starts_at", "clocks")),
        list(Arrival.objects.order_by("pk").values_list("state")),
    ]


@pytest.fixture
def ours(event_with, director):
    """This tournament (run by ``director``): a drawn knockout with a game recorded, a board
    game opened, a dispute; a Swiss still taking entries."""
    from matches.board.service import board_game_start
    from matches.disputes import dispute_open

    event = event_with(Event.Format.SINGLE, 4)
    event_with(Event.Format.SWISS, 3, swiss_rounds=2)
    event_draw(event=event, seed=1, user=director)
    match = Match.objects.filter(place__event=event).order_by("pk").first()
    game_record(match=match, number=1, winner=0, cube=1, result="single", user=director)
    penalty = match_penalty_award(
        match=match, side=1, points=1, reason="director", note="Moved early", user=director
    )
    board = board_game_start(match=Match.objects.get(pk=match.pk), user=director)
    text = (
        f" 5 point match\n\n Game 1\n {match.player_a.name} : 0{' ' * 10}"
        f"{match.player_b.name} : 0\n  1)                             41: 13/9 24/23\n"
        "  2) 31: 8/5 6/5                  Doubles => 2\n  3)  Drops\n"
    )
    dispute = dispute_open(match=match, user=director, text=text, left=0)
    from tournaments.announcements import announcement_post

    notice = announcement_post(tournament=event.tournament, text="Dinner at 8", user=director)
    swiss = Event.objects.get(tournament=event.tournament, format=Event.Format.SWISS)
    outsider = Player.objects.create(name="Asking Player")
    asked = EntryRequest.objects.create(event=swiss, player=outsider)
    withdrawn = invitation_issue(player=outsider, user=director)
    invitation_revoke(invitation=withdrawn, user=director)
    return {
        "announcement": notice,
        "tournament": event.tournament,
        "event": event,
        "match": match,
        "player": match.player_a,
        "dispute": dispute,
        "board": board,
        "penalty": penalty,
        "other match": Match.objects.filter(place__event=event).order_by("pk").last(),
        "request": asked,
        "token": withdrawn.token,
        # the director's background work, failed (so "Try again" would start it) with a file
        "job": _directors_job(director),
    }


def _directors_job(director):
    job = Job.objects.create(kind="walk.export", created_by=director, state=Job.State.FAILED)
    JobFile.objects.create(job=job, role=JobFile.Role.OUTPUT, name="all.csv", data=b"")
    return job


VISITORS = ["anonymous", "member", "other director", "directors group"]


@pytest.mark.parametrize("who", VISITORS)
def test_no_url_lets_anyone_but_this_tournament_s_directors_change_it(
    client, member, other_director, django_user_model, directors_group, ours, who
):
    if who == "member":
        client.force_login(member)
    elif who == "other director":
        client.force_login(other_director)
    elif who == "directors group":
        grouped = django_user_model.objects.create_user("grouped", password="pw-grouped-1")
        grouped.groups.add(directors_group)
        client.force_login(grouped)
    before = snapshot()
    walked = changing = 0
    guarded = set()
    read = set()
    for route, pattern in site_patterns():
        changes = getattr(pattern.callback, "changes", False)
        if changes:
            guarded.add(route)
        if changes and route in CREATING and who in ("other director", "directors group"):
            continue  # they may create their own (see CREATING)
        path = fill(route, ours)
        for method in (client.get, client.post):
            if route in STARTS_OWN_WORK and method == client.post and who != "anonymous":
                continue
            response = method(path, ATTEMPTS)
            walked += 1
            if route in PUBLIC_READ and method == client.get:
                assert response.status_code == 200, (path, response.status_code)
                read.add(route)
            if route in GONE:
                assert response.status_code == 410, (path, response.status_code)
            elif not changes:
                assert reads(path, response), (path, response.status_code)
            elif who == "anonymous":
                changing += 1
                assert response.status_code == 302, path
                assert reverse("login") in response["Location"], path
            elif route in SIGNED_IN_OWN:
                assert response.status_code in (200, 405), (path, response.status_code)
            elif route in PLAYERS_OWN:
                assert response.status_code in (200, 405), (path, response.status_code)
                assert "not linked to a player" in response.content.decode(), path
            else:
                changing += 1
                assert response.status_code in (403, 405), (path, response.status_code)
    assert walked >= 60 and changing >= 30
    assert DIRECTORS_READ.issubset(guarded)
    assert read == PUBLIC_READ
    assert snapshot() == before


def test_every_role_reads_the_same_public_data_from_the_api(
    client, member, other_director, director, django_user_model, ours
):
    """The API is public and read-only: as every visitor, the same answers, nothing changed."""
    staff = django_user_model.objects.create_user("staff", password="pw-1", is_staff=True)
    api_paths = [fill(route, ours) for route, _ in site_patterns() if route.startswith("api/")]
    assert len(api_paths) >= 12
    before = snapshot()
    answers = {}
    for who in (None, member, other_director, director, staff):
        if who is None:
            client.logout()
        else:
            client.force_login(who)
        for path in api_paths:
            response = client.get(path)
            assert response.status_code == 200, (path, who)
            answers.setdefault(path, set()).add(response.content)
    assert all(len(seen) == 1 for seen in answers.values()), [
        p for p, s in answers.items() if len(s) > 1
    ]
    assert snapshot() == before


@pytest.mark.parametrize("who", ["player", "player of another", "another director, linked"])
def test_a_player_changes_nothing_of_the_tournament_nor_of_anyone_else(
    client, django_user_model, director, other_director, ours, who
):
    """A player entered in this tournament (in its Swiss: the walk's matches are not theirs,
    and their own side on the board is tested with the board), a player of no tournament,
    and a director of another tournament who took a player's invitation (saying it is that
    player, issue 23.1): refused every change of this tournament's director; their own
    pages answer them, and their own check-in and details are tested with the player's
    pages (tests/tournaments)."""
    swiss = Event.objects.get(tournament=ours["tournament"], format=Event.Format.SWISS)
    if who == "another director, linked":
        account = other_director
        player = swiss.entries.first().player
        invitation = invitation_issue(player=player, user=director)
        invitation_accept(token=invitation.token, user=account, confirmed=True)
    else:
        account = django_user_model.objects.create_user("pl", password="pw-player-1")
        if who == "player":
            player = swiss.entries.first().player
        else:
            player = Player.objects.create(name="Someone Else")
        player_update(player=player, account=account, user=SYSTEM)
    client.force_login(account)
    before = snapshot()
    walked = refused = 0
    for route, pattern in site_patterns():
        changes = getattr(pattern.callback, "changes", False)
        if route in CREATING and who == "another director, linked":
            continue  # a member of the Directors group creates their own (see CREATING)
        path = fill(route, ours)
        for method in (client.get, client.post):
            if route in ("me/profile/", "me/emails/") and method == client.post:
                continue  # their own details and emails: theirs to change (tested with them)
            if route in STARTS_OWN_WORK and method == client.post:
                continue
            response = method(path, ATTEMPTS)
            walked += 1
            status = response.status_code
            if route in GONE:
                assert status == 410, path
            elif not changes:
                assert reads(path, response), (path, status)
            elif route in PLAYERS_OWN or route in SIGNED_IN_OWN:
                # the check-in page without an entry of theirs posted: not found, or refused
                assert status in (200, 302, 403, 404, 405), (path, status)
            else:
                refused += 1
                assert status in (403, 405), (path, status)
    assert walked >= 60 and refused >= 30
    assert snapshot() == before
    assert client.get("/me/").status_code == 200


@pytest.mark.parametrize("who", ["director", "staff"])
def test_this_tournament_s_directors_and_staff_read_its_directors_pages(
    client, director, django_user_model, ours, who
):
    if who == "staff":
        director = django_user_model.objects.create_user("staff", password="pw-1", is_staff=True)
    client.force_login(director)
    before = snapshot()
    for route in DIRECTORS_READ:
        assert client.get(fill(route, ours)).status_code == 200, route
    assert snapshot() == before


def test_this_tournament_s_director_may_change_it_and_another_s_may_not(
    client, director, other_director, ours
):
    match = ours["other match"]
    attempt = {"number": 1, "winner": 1, "cube": 1, "result": "single"}
    client.force_login(other_director)
    refused = client.post(reverse("game_new", args=[match.pk]), attempt)
    assert refused.status_code == 403
    assert "changed by its own directors" in refused.content.decode()  # said, not a bare 403
    italian = client.post(reverse("game_new", args=[match.pk]), attempt, HTTP_ACCEPT_LANGUAGE="it")
    assert "Non puoi modificarlo" in italian.content.decode()
    assert client.get(match.get_absolute_url()).content.decode().count("Record game") == 0
    client.force_login(director)
    assert client.post(reverse("game_new", args=[match.pk]), attempt).status_code == 302
    assert Game.objects.filter(match=match).count() == 1
    assert "Record game 2" in client.get(match.get_absolute_url()).content.decode()


def test_this_tournament_s_director_may_put_things_right_and_is_asked_first(
    client, director, other_director, ours
):
    """The undo URLs (and the confirmations of withdraw, walkover, redraw, taking a result
    back) answer this tournament's director; the walk above refuses everyone else."""
    event, match = ours["event"], ours["other match"]
    swiss = Event.objects.get(tournament=ours["tournament"], format=Event.Format.SWISS)
    entry = swiss.entries.first()
    client.force_login(director)
    asks = {
        reverse("entry_withdraw", args=[entry.pk]): ({}, "Withdraw"),
        reverse("walkover", args=[match.pk]): ({"winner": 0, "version": 0}, "A walkover to"),
        reverse("result_clear", args=[match.pk]): ({"version": 0}, "Take back the result"),
        reverse("retire", args=[match.pk]): ({"side": 1, "version": 0}, " retired?"),
        reverse("redraw", args=[event.pk]): ({"seed": "3"}, "Redraw"),
        reverse("draw_undo", args=[event.pk]): ({}, "Take back the draw"),
    }
    for url, (data, title) in asks.items():
        response = client.post(url, data)
        assert response.status_code == 200 and title in response.content.decode(), url
        assert 'name="confirm" value="1"' in response.content.decode(), url
    assert client.get(reverse("entry_withdraw", args=[entry.pk])).status_code == 200
    undo = reverse("entry_check_in_undo", args=[entry.pk])
    assert client.post(undo).status_code == 302
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    withdraw = reverse("entry_withdraw", args=[entry.pk])
    assert client.post(withdraw, {"confirm": "1"}).status_code == 302
    assert client.post(reverse("entry_reinstate", args=[entry.pk])).status_code == 302
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    client.force_login(other_director)
    for url in (undo, withdraw, reverse("entry_reinstate", args=[entry.pk])):
        assert client.post(url, {"confirm": "1"}).status_code == 403, url


def test_a_match_outside_any_tournament_belongs_to_the_directors_group(
    client, member, other_director, match5
):
    attempt = {"number": 1, "winner": 1, "cube": 1, "result": "single"}
    client.force_login(member)
    assert client.post(reverse("game_new", args=[match5.pk]), attempt).status_code == 403
    client.force_login(other_director)
    assert client.post(reverse("game_new", args=[match5.pk]), attempt).status_code == 302
    assert Game.objects.filter(match=match5).count() == 1


def test_the_services_ask_the_policy_again(ours, other_director, member):
    """A view that forgot to ask could still not write: the service refuses."""
    from django.core.exceptions import PermissionDenied

    from matches.services import match_result_clear, match_retire, match_walkover
    from tournaments.services import (
        entry_check_in,
        entry_check_in_undo,
        entry_late_add,
        entry_reinstate,
        entry_request_decide,
        entry_substitute,
        entry_withdraw,
        event_check_in_all,
        event_draw_undo,
        event_pair_next_round,
        event_redraw,
        tournament_late_rounds_set,
        tournament_open_entry_set,
    )

    match, event = ours["match"], ours["event"]
    for user in (member, other_director):
        with pytest.raises(PermissionDenied):
            game_record(match=match, number=2, winner=0, cube=1, result="single", user=user)
        with pytest.raises(PermissionDenied):
            match_walkover(match=match, winner=0, user=user)
        with pytest.raises(PermissionDenied):
            match_retire(match=match, side=0, user=user)
        with pytest.raises(PermissionDenied):
            entry_withdraw(entry=event.entries.first(), user=user)
        with pytest.raises(PermissionDenied):
            event_pair_next_round(event=event, user=user)
        with pytest.raises(PermissionDenied):
            event_check_in_all(event=event, user=user)
        with pytest.raises(PermissionDenied):
            entry_substitute(entry=event.entries.first(), player=Player.objects.last(), user=user)
        with pytest.raises(PermissionDenied):
            entry_late_add(event=event, player=Player.objects.last(), user=user)
        with pytest.raises(PermissionDenied):
            tournament_late_rounds_set(tournament=event.tournament, count_as="bye", user=user)
        with pytest.raises(PermissionDenied):
            tournament_open_entry_set(tournament=event.tournament, allowed=True, user=user)
        with pytest.raises(PermissionDenied):
            entry_request_decide(request=ours["request"], approve=True, user=user)
        with pytest.raises(PermissionDenied):
            entry_check_in(entry=event.entries.first(), user=user)
        entry = event.entries.first()
        for undo, target in (
            (match_result_clear, {"match": match}),
            (entry_check_in_undo, {"entry": entry}),
            (entry_reinstate, {"entry": entry}),
            (event_redraw, {"event": event}),
            (event_draw_undo, {"event": event}),
        ):
            with pytest.raises(PermissionDenied):
                undo(user=user, **target)
    assert Game.objects.filter(match=match).count() == 1


def test_on_the_board_another_tournament_s_director_plays_neither_side(
    client, other_director, ours
):
    from matches.board.service import board_game_current

    board = board_game_current(match=ours["match"])
    client.force_login(other_director)
    page = client.get(reverse("board", args=[ours["match"].pk])).content.decode()
    assert 'name="action"' not in page  # no button to press
    response = client.post(
        reverse("board_act", args=[ours["match"].pk, board.number]),
        {"action": "opening", "version": board.version},
    )
    assert response.status_code == 403
    assert BoardAction.objects.filter(game=board).count() == 0


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_the_admin_is_closed_to_non_staff(client, member, ours, who):
    if who == "member":
        client.force_login(member)
    before = snapshot()
    for path in [
        "/admin/",
        "/admin/club/player/add/",
        f"/admin/matches/match/{ours['match'].pk}/change/",
    ]:
        response = client.post(path, ATTEMPTS)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert snapshot() == before


def test_csrf_is_enforced(anna, bruno, director):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(director)
    response = strict.post(reverse("player_new"), {"name": "Forged"})
    assert response.status_code == 403 and not Player.objects.filter(name="Forged").exists()


def test_services_acting_as_the_site_are_never_a_visitor():
    """SYSTEM is what a command passes; no request's user can be it."""
    from django.contrib.auth.models import AnonymousUser

    assert SYSTEM is not AnonymousUser() and not SYSTEM.is_authenticated
