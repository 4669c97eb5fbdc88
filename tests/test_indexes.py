"""The indexes the pages ask for, shown used: each page's own query, as the page sent it, is
EXPLAINed on the database the suite runs on, and the plan names the index.

- the live pages' ETag (tournaments.live): a tournament's newest change and how many
  (audit_tournament_newest), the newest change of any player and how many
  (audit_subject_type_newest);
- the matches' date order, newest first (match_date_order): the matches list, the API's
  list and the home page;
- a player's rating history and last change (rating_change_player_order): the player's
  page, the rating list, the API; and the last change of all (rating_change_order), which
  a newly rated match follows;
- the rated matches that finished after a result (match_finished_order), which every result
  asks to know whether it falls before rated ones (on PostgreSQL; SQLite walks the rating
  changes in their order, a club's few thousand);
- /tables/: the open tables, newest first (table_open_order, only the open ones in it),
  and a person's own (on PostgreSQL read in the tables' date order, table_created_order;
  SQLite finds them by who started them and where the person sits, and sorts only those).

The data has the shape of a season, small: many matches, a trail where the players' entries
are old and rare and the tournament polled finished long ago, so a plan that walks the table
instead would be the planner's choice on a real one. SQLite's plan is read as a laptop runs
it (no ANALYZE); PostgreSQL's after ANALYZE, as autovacuum leaves a server.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.models import AuditEntry, Player
from matches.models import Match
from money.models import CODE_ALPHABET, Seat, Table, TableKind
from tournaments.models import RatingChange, Tournament

ON_POSTGRESQL = connection.vendor == "postgresql"
sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="SQLite's plan: the suite runs on PostgreSQL"
)
postgresql_only = pytest.mark.skipif(
    not ON_POSTGRESQL,
    reason="PostgreSQL's plan: set DATABASE_URL to a PostgreSQL database "
    "(.ci/run's PostgreSQL pass does)",
)
committed = pytest.mark.django_db(transaction=True)  # to be vacuumed, as on a server

PLAYERS, MATCHES, ENTRIES = 60, 3000, 6000
SEASON_TABLES = ("club_player", "matches_match", "tournaments_ratingchange", "club_auditentry")


def plan(sql: str) -> str:
    """The plan of a query the page sent (its parameters already in it), as text."""
    with connection.cursor() as cursor:
        if ON_POSTGRESQL:
            cursor.execute("EXPLAIN " + sql)
            return "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("EXPLAIN QUERY PLAN " + sql)
        return "\n".join(str(row[-1]) for row in cursor.fetchall())


@pytest.fixture
def season(db):
    """A season in small: players, matches over many days with their rating changes, and an
    audit trail in which a tournament finished long ago and the players' own entries are
    old and rare; a tournament in play beside it."""
    players = Player.objects.bulk_create(
        Player(name=f"Player {n:03}", sort_name=f"player {n:03}") for n in range(PLAYERS)
    )
    first = datetime.date(2025, 1, 1)
    matches = Match.objects.bulk_create(
        Match(
            player_a=players[n % PLAYERS],
            player_b=players[(n * 7 + 1) % PLAYERS],
            length=7,
            date=first + datetime.timedelta(days=n // 10),
        )
        for n in range(MATCHES)
        if n % PLAYERS != (n * 7 + 1) % PLAYERS
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            player_id=player_id,
            match=match,
            order=order,
            rating_before=Decimal("1500"),
            rating_after=Decimal("1500") + change,
            experience_after=order,
        )
        for order, match in enumerate(matches, start=1)
        for player_id, change in ((match.player_a_id, 1), (match.player_b_id, -1))
    )
    old = Tournament.objects.create(name="Finished long ago", date=first)
    now = Tournament.objects.create(name="In play", date=timezone.localdate())
    player_kind = ContentType.objects.get_for_model(Player)
    match_kind = ContentType.objects.get_for_model(Match)
    at = timezone.now() - datetime.timedelta(days=300)

    def entry(n: int) -> AuditEntry:
        about_a_player = n < PLAYERS  # the players made at the start, never changed since
        return AuditEntry(
            at=at + datetime.timedelta(minutes=n),
            code="player.created" if about_a_player else "game.recorded",
            subject_type=player_kind if about_a_player else match_kind,
            subject_id=players[n].pk if about_a_player else matches[n % len(matches)].pk,
            tournament_id=None if about_a_player else old.pk if n < 200 else now.pk + 1 + n % 200,
        )

    AuditEntry.objects.bulk_create((entry(n) for n in range(ENTRIES)), batch_size=1000)
    if ON_POSTGRESQL:  # what autovacuum keeps up to date on a server: statistics, and the
        # visibility map an index-only scan reads (VACUUM: outside a transaction)
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {', '.join(SEASON_TABLES)}")
    return {"player": players[0], "old": old, "now": now}


def queries(client, path: str, *words: str, **headers: str) -> list[str]:
    """The queries a page sent that hold all the words (as their SQL spells them)."""
    with CaptureQueriesContext(connection) as seen:
        response = client.get(path, **headers)
    assert response.status_code in (200, 304), path
    found = [q["sql"] for q in seen.captured_queries if all(w in q["sql"] for w in words)]
    assert found, f"{path} sent no query with {words}"
    return found


def live_stamp_query(client, tournament: Tournament) -> str:
    """The live pages' one query, as a phone polling with its ETag sends it."""
    url = reverse("now_playing", args=[tournament.pk])
    tag = client.get(url)["ETag"]
    (stamp,) = queries(client, url, '"subject_type_id"', '"tournament_id"', HTTP_IF_NONE_MATCH=tag)
    return stamp


def newest_match_queries(client) -> dict[str, str]:
    """Each page's query of the newest matches: the one with LIMIT (a page of them)."""
    order = 'ORDER BY "matches_match"."date" DESC, "matches_match"."id" DESC'
    pages = {"matches": reverse("matches"), "home": reverse("home"), "api": "/api/v1/matches"}
    return {
        name: next(q for q in queries(client, path, order) if "LIMIT" in q)
        for name, path in pages.items()
    }


def rating_queries(client, player: Player) -> dict[str, str]:
    table = '"tournaments_ratingchange"'
    by_player = f'{table}."player_id" = {player.pk}'
    return {
        "player's page": next(
            q
            for q in queries(client, reverse("player", args=[player.pk]), table, by_player)
            if "LIMIT" in q
        ),
        "API history": next(
            q
            for q in queries(client, f"/api/v1/players/{player.pk}/ratings", table, by_player)
            if "LIMIT" in q
        ),
        "rating list": queries(client, reverse("ratings"), table, 'DESC LIMIT 1) AS "last_')[0],
    }


def last_of_all_query() -> str:
    with CaptureQueriesContext(connection) as seen:
        RatingChange.objects.order_by("-order").values_list("order", flat=True).first()
    return seen.captured_queries[-1]["sql"]


def falls_at_query(season) -> str:
    """What a new result asks (tournaments.advancement._falls_at): the rated matches that
    finished after it, on a season whose matches finished one after another."""
    from tournaments.advancement import _falls_at

    start = timezone.now() - datetime.timedelta(days=300)
    finished = list(Match.objects.order_by("id"))
    for n, match in enumerate(finished):
        match.status, match.finished_at = Match.Status.FINISHED, start + datetime.timedelta(hours=n)
    Match.objects.bulk_update(finished, ["status", "finished_at"], batch_size=1000)
    if ON_POSTGRESQL:
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE matches_match")
    with CaptureQueriesContext(connection) as seen:
        _falls_at(finished[-1])
    return seen.captured_queries[-1]["sql"]


EVENINGS, OPEN, MINE = 3000, 8, 40
TABLES_TABLES = ("auth_user", "club_player", "money_table", "money_seat")


def code(n: int) -> str:
    """A join code of its own for the ``n``th table (six of the code's letters)."""
    letters = []
    for _ in range(6):
        n, digit = divmod(n, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[digit])
    return "".join(letters)


@pytest.fixture
def evenings(db, django_user_model):
    """A club's years of evenings, small: many tables, nearly all closed, a few open
    tonight, each started by one of a few organisers with three players seated; one
    player (signed in as "regular") at a few dozen of them."""
    organisers = [django_user_model.objects.create_user(f"organiser{n}") for n in range(4)]
    regular = django_user_model.objects.create_user("regular")
    players = Player.objects.bulk_create(
        Player(name=f"Player {n:02}", sort_name=f"player {n:02}") for n in range(30)
    )
    players[0].user = regular
    players[0].save(update_fields=["user"])
    at = timezone.now() - datetime.timedelta(days=EVENINGS)
    tables = Table.objects.bulk_create(
        Table(
            kind=TableKind.CHOUETTE,
            name=f"Evening {n}",
            code=code(n),
            created_by=organisers[n % len(organisers)],
            closed=None if n >= EVENINGS - OPEN else at,
        )
        for n in range(EVENINGS)
    )
    for n, table in enumerate(tables):  # auto_now_add: one evening a day, in order
        table.created = at + datetime.timedelta(days=n)
    Table.objects.bulk_update(tables, ["created"], batch_size=1000)
    regulars = set(range(0, EVENINGS, EVENINGS // MINE))
    Seat.objects.bulk_create(
        (
            Seat(table=table, player=players[0 if n in regulars and k == 0 else 1 + (n + k) % 29])
            for n, table in enumerate(tables)
            for k in range(3)
        ),
        batch_size=1000,
    )
    if ON_POSTGRESQL:
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {', '.join(TABLES_TABLES)}")
    return regular


def tables_queries(client, user) -> dict[str, str]:
    """/tables/'s query of each list's page (the one with LIMIT), signed in as ``user``."""
    client.force_login(user)
    sent = queries(client, reverse("money:tables"), '"money_table"', "LIMIT")
    return {
        "mine": next(q for q in sent if f'"created_by_id" = {user.pk}' in q),
        "open": next(q for q in sent if '"closed" IS NULL' in q),
    }


def assert_uses(index: str, sql: str) -> None:
    said = plan(sql)
    assert index in said, f"{index} not used:\n{said}\nfor\n{sql}"


# --- SQLite (the laptop) --------------------------------------------------------------------


@sqlite_only
def test_sqlite_the_live_etag_finds_the_newest_changes_by_index(client, season):
    said = plan(live_stamp_query(client, season["old"]))
    assert "audit_tournament_newest" in said and "audit_subject_type_newest" in said, said
    assert "SCAN club_auditentry\n" not in said + "\n" and "TEMP B-TREE" not in said, said


@sqlite_only
@pytest.mark.parametrize("page", ["matches", "home", "api"])
def test_sqlite_the_newest_matches_are_read_by_index(client, season, page):
    said = plan(newest_match_queries(client)[page])
    assert "match_date_order" in said and "TEMP B-TREE" not in said, said


@sqlite_only
@pytest.mark.parametrize("page", ["player's page", "API history", "rating list"])
def test_sqlite_a_player_s_ratings_are_read_by_index(client, season, page):
    said = plan(rating_queries(client, season["player"])[page])
    assert "rating_change_player_order" in said, said
    assert "TEMP B-TREE FOR ORDER BY" not in said or page == "rating list", said


@sqlite_only
def test_sqlite_the_last_rating_change_of_all_is_read_by_index(season):
    assert_uses("rating_change_order", last_of_all_query())


@sqlite_only
def test_sqlite_the_open_tables_are_read_by_their_index(client, evenings):
    said = plan(tables_queries(client, evenings)["open"])
    assert "table_open_order" in said and "TEMP B-TREE" not in said, said


@sqlite_only
def test_sqlite_a_person_s_tables_are_found_by_index_not_a_walk_of_every_table(client, evenings):
    said = plan(tables_queries(client, evenings)["mine"])
    # who started it and where the person sits: only their tables read, then sorted
    assert "money_table_created_by_id" in said and "money_seat_player_id" in said, said
    assert "SCAN money_table\n" not in said + "\n", said


# --- PostgreSQL (a server) ------------------------------------------------------------------


@postgresql_only
@committed
def test_postgresql_the_live_etag_finds_the_newest_changes_by_index(client, season):
    said = plan(live_stamp_query(client, season["old"]))
    assert "audit_tournament_newest" in said and "audit_subject_type_newest" in said, said
    # never the trail walked backwards from its newest entry, filtering
    assert "club_auditentry_pkey" not in said and "Seq Scan on club_auditentry" not in said, said


@postgresql_only
@committed
@pytest.mark.parametrize("page", ["matches", "home", "api"])
def test_postgresql_the_newest_matches_are_read_by_index(client, season, page):
    said = plan(newest_match_queries(client)[page])
    assert "match_date_order" in said and "Seq Scan on matches_match" not in said, said


@postgresql_only
@committed
@pytest.mark.parametrize("page", ["player's page", "API history", "rating list"])
def test_postgresql_a_player_s_ratings_are_read_by_index(client, season, page):
    assert_uses("rating_change_player_order", rating_queries(client, season["player"])[page])


@postgresql_only
@committed
def test_postgresql_the_last_rating_change_of_all_is_read_by_index(season):
    assert_uses("rating_change_order", last_of_all_query())


@postgresql_only
@committed
def test_postgresql_a_new_result_finds_the_matches_after_it_by_index(season):
    said = plan(falls_at_query(season))
    assert "match_finished_order" in said and "Seq Scan on matches_match" not in said, said


@postgresql_only
@committed
def test_postgresql_the_open_tables_are_read_by_their_index(client, evenings):
    said = plan(tables_queries(client, evenings)["open"])
    assert "table_open_order" in said and "Seq Scan on money_table" not in said, said
    assert "Sort" not in said, said


@postgresql_only
@committed
def test_postgresql_a_person_s_tables_are_read_in_the_tables_date_order(client, evenings):
    said = plan(tables_queries(client, evenings)["mine"])
    assert "table_created_order" in said and "Seq Scan on money_table" not in said, said
    assert "Sort" not in said, said
