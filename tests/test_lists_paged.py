"""Every list a visitor can ask for that grows with the club's history comes a page at a
time: the players, the rating list, the matches, the tournaments, a tournament's changes,
and the API's lists. With more than a page of each, the first page shows one page's worth
and the next page the rest.

Lists bounded by one tournament, event or match (a bracket, a round's pairings, the
standings, the dashboard, a match's games and changes) are not paged: an event has at most
a few hundred players. The player's page pages its matches and the matches' CSV export is
bounded on their own (tests/tournaments/test_player_page_pages.py,
tests/matches/test_export_stream.py), as are /tables/'s two lists, a person's own tables
and the open ones (tests/money/test_tables_paged.py; the tables' pages are walked by
tests/money/test_permissions.py, not by the site's walk below).
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from club.models import AuditEntry, Player
from matches.models import Match
from tournaments.models import RatingChange, Tournament

MORE = 30  # more than a page (25)
FIRST = datetime.date(2025, 1, 1)


@pytest.fixture
def many(db):
    players = Player.objects.bulk_create(
        Player(name=f"Player {n:02}", sort_name=f"player {n:02}", rating=Decimal(1600 - n))
        for n in range(MORE)
    )
    matches = Match.objects.bulk_create(
        Match(
            player_a=players[0],
            player_b=players[n + 1],
            length=5,
            date=FIRST + datetime.timedelta(days=n),
        )
        for n in range(MORE - 1)
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            player=player,
            match=match,
            order=order,
            rating_before=Decimal(1500),
            rating_after=Decimal(1501),
            experience_after=order,
        )
        for order, match in enumerate(matches, start=1)
        for player in (match.player_a, match.player_b)
    )
    tournaments = Tournament.objects.bulk_create(
        Tournament(name=f"Tournament {n:02}", date=FIRST + datetime.timedelta(days=n))
        for n in range(MORE)
    )
    kind = ContentType.objects.get_for_model(Tournament)
    AuditEntry.objects.bulk_create(
        AuditEntry(
            code="tournament.edited",
            subject_type=kind,
            subject_id=tournaments[0].pk,
            tournament_id=tournaments[0].pk,
        )
        for _ in range(210)  # more than its page of 200
    )
    return {"player": players[0], "tournament": tournaments[0]}


def count(pattern: str, page: bytes) -> int:
    return len(re.findall(pattern, page.decode()))


@pytest.mark.parametrize(
    ("name", "path", "item", "per_page"),
    [
        ("players", "/players/", r"Player \d\d</a>", 25),
        ("rating list", "/ratings/", r"Player \d\d</a>", 25),
        ("matches", "/matches/", r'href="/matches/\d+/"', 25),
        ("tournaments", "/tournaments/", r"Tournament \d\d</a>", 25),
    ],
)
def test_a_list_page_shows_a_page_and_links_the_next(client, many, name, path, item, per_page):
    first = client.get(path)
    assert first.status_code == 200
    assert count(item, first.content) == per_page, name
    assert "page=2" in first.content.decode(), name
    second = client.get(path, {"page": 2})
    assert 0 < count(item, second.content) <= MORE - per_page + 1, name


def test_a_tournament_s_changes_come_two_hundred_a_page(client, many):
    path = reverse("tournament_changes", args=[many["tournament"].pk])
    first, second = client.get(path), client.get(path, {"page": 2})
    assert first.status_code == second.status_code == 200
    rows = r"<li><time"
    assert count(rows, first.content) == 200 and count(rows, second.content) == 10


@pytest.mark.parametrize(
    "path",
    ["/api/v1/players", "/api/v1/matches", "/api/v1/tournaments", "/api/v1/players/{pk}/ratings"],
)
def test_the_api_s_lists_come_a_page_at_a_time(client, many, path):
    answer = client.get(path.format(pk=many["player"].pk), {"page_size": 10}).json()
    assert len(answer["items"]) == 10 and answer["pages"] == 3 and answer["next"]


# Every address of the site, sorted by how long what it shows can grow: a new page fails
# the walk below until it is put in one of these.
PAGED = {  # a page at a time (tested above)
    "players/", "ratings/", "matches/", "tournaments/", "tournaments/<int:pk>/changes/",
    "api/v1/players", "api/v1/matches", "api/v1/tournaments", "api/v1/players/<int:pk>/ratings",
    "jobs/",  # a person's background work, 25 a page (tests/jobs)
}  # fmt: skip
# what one tournament, event, round, match or entry holds (an event has at most a few
# hundred players, a match a few dozen games), or one person's own current things (My page
# shows the last 20 results and entries)
BOUNDED = {
    "players/<int:pk>/edit/", "players/<int:pk>/invitation/", "me/", "me/emails/",
    "me/profile/", "invitations/<str:token>/", "tournaments/<int:pk>/invitations/",
    "tournaments/<int:pk>/here/", "tournaments/<int:pk>/check-in/poster/",
    "tournaments/<int:pk>/open-entry/", "events/<int:pk>/ask/",
    "entry-requests/<int:pk>/approve/", "entry-requests/<int:pk>/decline/",
    "tournaments/<int:pk>/", "tournaments/<int:pk>/edit/", "tournaments/<int:pk>/export/",
    "tournaments/<int:pk>/events/new/", "tournaments/<int:pk>/dashboard/",
    "tournaments/<int:pk>/playing/", "tournaments/<int:pk>/wall/",
    "tournaments/<int:pk>/announcements/",
    "tournaments/<int:pk>/announcements/<int:number>/withdraw/", "tournaments/<int:pk>/dice/",
    "tournaments/<int:pk>/tables/", "tournaments/<int:pk>/late/",
    "tournaments/<int:pk>/results/", "tournaments/<int:pk>/tables/cards/",
    "tournaments/<int:pk>/time/", "events/<int:pk>/rounds/<int:number>/times/",
    "arrivals/<int:pk>/", "arrivals/<int:pk>/confirm/", "arrivals/<int:pk>/waive/",
    "events/<int:pk>/rounds/<int:number>/table/", "events/<int:pk>/", "events/<int:pk>/edit/",
    "events/<int:pk>/entries/", "events/<int:pk>/draw/", "events/<int:pk>/redraw/",
    "events/<int:pk>/draw/undo/", "events/<int:pk>/check-in/", "events/<int:pk>/late/",
    "events/<int:pk>/pair/", "events/<int:pk>/cut/", "events/<int:pk>/bracket/",
    "events/<int:pk>/rounds/<int:number>/", "events/<int:pk>/rounds/<int:number>/sheets/",
    "entries/<int:pk>/check-in/", "entries/<int:pk>/check-in/undo/",
    "entries/<int:pk>/withdraw/", "entries/<int:pk>/reinstate/", "matches/<int:pk>/",
    "matches/<int:pk>/sheet/", "matches/<int:pk>/games/", "matches/<int:pk>/games/<int:number>/",
    "matches/<int:pk>/final-score/", "matches/<int:pk>/walkover/", "matches/<int:pk>/retire/",
    "matches/<int:pk>/result/take-back/", "matches/<int:pk>/penalties/",
    "matches/<int:pk>/penalties/<int:number>/take-back/", "matches/<int:pk>/forfeit/",
    "matches/<int:pk>/dice/", "matches/<int:pk>/board/", "matches/<int:pk>/board/start/",
    "matches/<int:pk>/board/<int:number>/", "matches/<int:pk>/board/clocks/",
    "matches/<int:pk>/games/<int:number>/log/", "matches/<int:pk>/match.mat",
    "matches/<int:pk>/import/", "matches/<int:pk>/disputes/new/",
    "matches/<int:pk>/disputes/<int:number>/", "matches/<int:pk>/report/",
    "matches/<int:pk>/report/confirm/", "matches/<int:pk>/report/dispute/",
    "matches/<int:pk>/report/withdraw/", "api/v1/tournaments/<int:pk>",
    "api/v1/events/<int:pk>", "api/v1/events/<int:pk>/rounds",
    "api/v1/events/<int:pk>/rounds/<int:number>", "api/v1/events/<int:pk>/standings",
    "api/v1/matches/<int:pk>",
    # one player, with won and lost counted by one aggregate (tests/api/test_player_record.py)
    "api/v1/players/<int:pk>",
    # one job: its progress, its words, its one file (a season's CSV is made by the job, in
    # slices, and served from the database: tests/matches/test_export_jobs.py)
    "jobs/<int:pk>/", "jobs/<int:pk>/again/", "jobs/<int:pk>/file/",
}  # fmt: skip
# no list: a form for one new thing, a file, a document
NOT_A_LIST = {
    "", "players/new/", "players/import/", "ratings/formula/", "tournaments/new/",
    "tournaments/import/", "matches/new/", "api/v1/", "api/v1/openapi.json", "api/v1/docs",
    "api/v1/transfer.schema.json", "ratings/again/",
    # a form starting background work: an archive of match files, a list's whole CSV
    "matches/import/", "matches/export/<slug:table>/",
}  # fmt: skip
# still growing with the history, each with the step that pages it
NOT_YET = {
    # its matches and ratings are paged; its chouettes and money sessions (signed in) are
    # every table the player sat at, each replayed (money.queries.player_tables)
    "players/<int:pk>/": "its chouettes and money sessions: every table, each replayed",
}


def test_every_address_is_known_to_be_paged_bounded_or_no_list():
    from tests.test_permissions import site_patterns

    routes = {route for route, _ in site_patterns()}
    known = PAGED | BOUNDED | NOT_A_LIST | set(NOT_YET)
    assert routes - known == set(), "a new address: is what it shows paged?"
    assert known - routes == set(), "an address gone: take it out of the lists here"


def test_tables_lists_come_a_page_at_a_time(client, django_user_model, db):
    """/tables/ (outside the site's walk: tests/money/test_permissions.py walks it): a
    person's own tables and the open ones, 25 a page, the rest on the next."""
    from money.models import CODE_ALPHABET, Table, TableKind
    from money.views import PER_PAGE

    user = django_user_model.objects.create_user("regular")
    Table.objects.bulk_create(  # started by them, so theirs, and all still open
        Table(
            kind=TableKind.CHOUETTE,
            name=f"Evening {n:02}",
            code=f"TAB{CODE_ALPHABET[n // 32]}{CODE_ALPHABET[n % 32]}",
            created_by=user,
        )
        for n in range(MORE)
    )
    client.force_login(user)
    path = reverse("money:tables")
    for section, field in (("my-tables", "mine-page"), ("open-tables", "open-page")):
        pattern = rf'<section id="{section}">.*?</section>'
        first = re.search(pattern, client.get(path).content.decode(), re.S).group(0)
        assert count(r'href="/tables/\d+/"', first.encode()) == PER_PAGE, section
        assert f"{field}=2" in first, section
        second = client.get(path, {field: 2}).content.decode()
        rest = re.search(pattern, second, re.S).group(0)
        assert count(r'href="/tables/\d+/"', rest.encode()) == MORE - PER_PAGE, section
