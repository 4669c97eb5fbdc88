"""Nobody but a director can change anything: a walk over every URL of the site."""

import pytest
from django.contrib.auth.models import Group, User
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from matches.models import AuditEntry, BoardAction, BoardGame, Dispute, Game, Match
from tournaments.models import Bye, Entry, Event, Player, Round, Tournament

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
    "date": "2026-12-13",
    "format": "single",
    "lengths": "5, 7",
    "seeding": "random",
    "players": "1",
    "seed": "7",
}


def site_patterns(resolver=None, prefix=""):
    """Every URL pattern of the site's own apps (the admin is checked on its own below)."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if route.startswith(("admin/", "i18n/")):
                continue
            yield from site_patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry


def fill(route, match, player, event=None):
    values = {"<int:pk>": str(match.pk), "<int:number>": "1"}
    if route.startswith("players/"):
        values["<int:pk>"] = str(player.pk)
    if event is not None:
        if route.startswith("tournaments/"):
            values["<int:pk>"] = str(event.tournament_id)
        elif route.startswith("events/"):
            values["<int:pk>"] = str(event.pk)
        elif route.startswith("entries/"):
            values["<int:pk>"] = str(event.entries.first().pk)
    path = "/" + route
    for placeholder, value in values.items():
        path = path.replace(placeholder, value)
    return path


MODELS = (
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
    BoardGame,
    BoardAction,
    Dispute,
)


def counts():
    return [m.objects.count() for m in MODELS] + [
        list(Entry.objects.values_list("status", "seed")),
        list(Event.objects.values_list("drawn_at", flat=True)),
    ]


@pytest.fixture
def drawn(event_with, director):
    """A drawn knockout (its round 1 exists) beside an event still taking entries."""
    from tournaments.services import event_draw

    event = event_with(Event.Format.SINGLE, 4)
    event_with(Event.Format.SWISS, 3, swiss_rounds=2)
    event_draw(event=event, seed=1, user=director)
    return event


@pytest.fixture
def played(match5, record):
    record(match5, 0)
    return match5


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_no_url_lets_a_non_director_change_anything(client, member, played, anna, drawn, who):
    if who == "member":
        client.force_login(member)
    before = counts()
    walked = 0
    for route, pattern in site_patterns():
        if route.startswith("accounts/"):
            continue  # signing in and out is for everyone
        path = fill(route, played, anna, drawn)
        director_only = getattr(pattern.callback, "director_only", False)
        players_only = getattr(pattern.callback, "players_only", False)  # the board's actions
        for method in (client.get, client.post):
            response = method(path, ATTEMPTS)
            walked += 1
            if players_only and who == "anonymous":
                assert response.status_code == 302 and reverse("login") in response["Location"]
            elif players_only:
                # signed in but neither a director nor one of the players: refused, or no such
                # board game (the walk's match has none), or the wrong method
                assert response.status_code in (403, 404, 405), path
            elif director_only and who == "anonymous":
                assert response.status_code == 302 and reverse("login") in response["Location"]
            elif director_only:
                assert response.status_code == 403, path
            else:
                assert response.status_code in (200, 405), (path, response.status_code)
    assert walked >= 40
    assert counts() == before
    game = Game.objects.get(match=played)
    assert (game.winner, game.cube) == (0, 1)


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_the_admin_is_closed_to_non_directors(client, member, played, who):
    if who == "member":
        client.force_login(member)
    before = counts()
    for path in [
        "/admin/",
        "/admin/tournaments/player/add/",
        f"/admin/matches/match/{played.pk}/change/",
    ]:
        response = client.post(path, ATTEMPTS)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert counts() == before


def test_directors_reach_the_forms_and_the_admin(
    client, django_user_model, directors_group, played
):
    staff = django_user_model.objects.create_user("chief", password="x", is_staff=True)
    staff.groups.add(directors_group)
    client.force_login(staff)
    assert client.get(reverse("match_new")).status_code == 200
    assert client.get(reverse("game_edit", args=[played.pk, 1])).status_code == 200
    assert client.get("/admin/").status_code == 200


def test_csrf_is_enforced(anna, bruno, director):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(director)
    response = strict.post(reverse("player_new"), {"name": "Forged"})
    assert response.status_code == 403 and not Player.objects.filter(name="Forged").exists()
