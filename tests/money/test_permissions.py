"""Who may do what at a table: every /tables/ URL, by GET and by POST, as every kind of
visitor (issue 27; the site-wide walk in tests/test_permissions.py leaves /tables/ to this
one, which makes a table to walk).

The policy (club.policy: can_start_table, can_record_at, can_correct_table,
can_set_stake) answers: a visitor is sent to sign in; anyone signed in reads a table; the
players seated at it, whoever started it and a director record its games; only a director
(the Directors group, or staff) corrects its log. A director of some tournament who is not
in the Directors group is no director of a table. The walk posts what a phone would not
(a stale version, words for numbers), so nothing in the database changes.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import URLPattern, get_resolver, reverse

from tests.money.pages import opening, pid, tap

pytestmark = pytest.mark.django_db

JUNK = {
    "event": "{}",
    "version": "999999",
    "name": "",
    "code": "",
    "player": "abc",
    "members": "abc",
    "points": "abc",
    "winner": "nobody",
    "stake": "abc",
    "player_a": "abc",
    "player_b": "abc",
}
ROLES = [
    "anonymous",
    "seated",
    "not seated",
    "creator",
    "director",
    "another tournament's director",
]
READS = {"", "<int:pk>/", "<int:pk>/settlement/", "join/"}
STARTS = {"new/chouette/", "new/money/"}
RECORDS = {
    "<int:pk>/act/",
    "<int:pk>/opening/",
    "<int:pk>/box-doubles/",
    "<int:pk>/deal/",
    "<int:pk>/end/",
    "<int:pk>/undo/",
    "<int:pk>/seat/",
    "<int:pk>/close/",
}
CORRECTS = {"<int:pk>/correct/<int:seq>/"}
STAKES = {"<int:pk>/stake/"}


def table_routes():
    """Every route under /tables/ (those of the tables' board too, when it is there)."""
    for entry in get_resolver().url_patterns:
        if str(entry.pattern) == "tables/":
            for inner in entry.url_patterns:
                assert isinstance(inner, URLPattern)
                yield str(inner.pattern)


@pytest.fixture
def walk_table(people, start_table, django_user_model, director):
    """Anna, Bruno and Carla at a table started by Elena (not seated), a game begun; Dario
    is a player not seated; a director of another tournament, outside the Directors group."""
    from money.models import TableKind
    from money.services import table_start
    from rules.chouette import ChouetteSettings
    from rules.chouette import events as ev
    from tournaments.services import tournament_create

    table = table_start(
        user=people["Elena"].user,
        kind=TableKind.CHOUETTE,
        name="Walk",
        settings=ChouetteSettings(),
        players=[people["Anna"], people["Bruno"], people["Carla"]],
    )
    from django.test import Client

    seated = Client()
    seated.force_login(people["Anna"].user)
    dice = {people["Anna"]: 6, people["Bruno"]: 4, people["Carla"]: 2}
    assert opening(seated, table, dice).status_code == 302
    assert tap(seated, table, ev.StartGame()).status_code == 302
    outsider = django_user_model.objects.create_user("tdirector", password="pw-td-1")
    tournament_create(name="Coppa", date=datetime.date(2026, 12, 20), user=director)
    from tournaments.models import Tournament

    Tournament.objects.get(name="Coppa").directors.add(outsider)
    return {
        "table": table,
        "seated": people["Anna"].user,
        "not seated": people["Dario"].user,
        "creator": people["Elena"].user,
        "director": director,
        "another tournament's director": outsider,
    }


def snapshot(table):
    from club.models import AuditEntry
    from money.models import Seat, Table, TableEvent

    return (
        Table.objects.count(),
        list(Table.objects.values_list("version", "closed")),
        list(Seat.objects.order_by("pk").values_list("player", "stake_cents")),
        TableEvent.objects.count(),
        AuditEntry.objects.count(),
    )


def expected(route: str, role: str, method: str) -> set[int]:
    if role == "anonymous":
        return {302}
    reading = route in READS and (method == "get" or route == "join/")
    if route in READS:
        return {200} if method == "get" else ({400} if route == "join/" else {405})
    if route in STARTS:
        if role == "another tournament's director":
            return {403}
        return {200} if method == "get" else {400}
    if method == "get" and route not in CORRECTS:
        return {405}
    if route in RECORDS:
        # refused in words: a stale version (409) or what no form would send (400)
        return {400, 409} if role in ("seated", "creator", "director") else {403}
    if route in CORRECTS:
        if role != "director":
            return {403}
        return {200} if method == "get" else {400}
    if route in STAKES:  # a game has begun: only a director changes a stake now
        return {400} if role == "director" else {403}
    assert reading is False
    raise AssertionError(f"a /tables/ route this walk does not know: {route}")


@pytest.mark.parametrize("role", ROLES)
def test_every_tables_url_as_every_role(client, walk_table, role):
    table = walk_table["table"]
    if role != "anonymous":
        client.force_login(walk_table[role])
    before = snapshot(table)
    walked = 0
    for route in table_routes():
        if route.startswith("<int:pk>/board"):
            continue  # the tables' board walks its own (tests/money/test_board*.py)
        path = "/tables/" + route.replace("<int:pk>", str(table.pk)).replace("<int:seq>", "1")
        for method in ("get", "post"):
            response = getattr(client, method)(path, JUNK)
            walked += 1
            wanted = expected(route, role, method)
            assert response.status_code in wanted, (role, method, path, response.status_code)
            if response.status_code == 302:
                assert reverse("login") in response["Location"], path
            if response.status_code in (400, 409):
                page = response.content.decode()
                assert 'role="alert"' in page or 'class="errorlist' in page, (role, path)
    assert walked >= 30
    assert snapshot(table) == before


def test_the_services_ask_the_policy_again(walk_table):
    """A view that forgot to ask could still not write: the service refuses."""
    from django.core.exceptions import PermissionDenied

    from money.services import table_act, table_close, table_correct
    from rules.chouette import events as ev

    table = walk_table["table"]
    for role in ("not seated", "another tournament's director"):
        user = walk_table[role]
        with pytest.raises(PermissionDenied):
            table_act(user=user, table=table, event=ev.UndoGame())
        with pytest.raises(PermissionDenied):
            table_close(user=user, table=table)
    with pytest.raises(PermissionDenied):
        table_correct(user=walk_table["seated"], table=table, seq=1, event=ev.StartGame())


def test_a_seated_player_answers_their_own_cube_and_a_stranger_sees_no_button(
    client, walk_table, people
):
    table = walk_table["table"]
    client.force_login(walk_table["not seated"])
    page = client.get(reverse("money:table", args=[table.pk])).content.decode()
    assert 'name="event"' not in page and 'id="taps"' not in page
    client.force_login(walk_table["seated"])
    page = client.get(reverse("money:table", args=[table.pk])).content.decode()
    assert 'name="event"' in page
    assert pid(people["Anna"])  # the box: its taps are first on its phone
