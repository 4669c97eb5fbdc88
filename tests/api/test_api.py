"""The JSON API read as a client would: every answer checked against the models themselves.

Scores, the Crawford game, standings and placings are worked out here from the stored games
and results, not through the selectors the API uses, so a mistake in either shows.
"""

import datetime
import random
from decimal import Decimal

import pytest
from django.utils import timezone

from club.models import Player
from matches.models import Match
from tests.tournaments.helpers import play_everything
from tournaments.models import Bye, Event, Place, RatingChange
from tournaments.services import event_draw, event_pair_next_round

pytestmark = pytest.mark.django_db

API = "/api/v1/"


def get(client, path, **headers):
    response = client.get(API + path, headers=headers)
    assert response["Content-Type"].startswith("application/json"), (path, response.status_code)
    return response


def body(client, path, **headers):
    response = get(client, path, **headers)
    assert response.status_code == 200, (path, response.content)
    return response.json()


def crawford_sheet(length, games):
    """The score sheet worked out by hand from (winner, points) pairs (WBF 24): the Crawford
    game is the first after a player comes within one point, the games after it post-Crawford."""
    score, sheet, crawford_played = [0, 0], [], False
    for winner, points in games:
        crawford = not crawford_played and length - 1 in score
        post = crawford_played and not crawford
        crawford_played = crawford_played or crawford
        score[winner] = min(length, score[winner] + points)
        sheet.append((crawford, post, tuple(score)))
    return sheet


# --- a match game by game ----------------------------------------------------------------------


@pytest.fixture
def played(match5, record):
    """A 5-point match: a gammon doubled (4–0), the Crawford game (4–1), a gammon post-Crawford
    (4–3), then a single game: 5–3 to the first player."""
    record(match5, 0, cube=2, result="gammon")
    record(match5, 1)
    record(match5, 1, result="gammon")
    record(match5, 0)
    return Match.objects.get(pk=match5.pk)


def test_a_match_s_score_sheet_game_by_game(client, played):
    found = body(client, f"matches/{played.pk}")
    games = list(played.games.order_by("number"))
    by_hand = crawford_sheet(5, [(g.winner, g.cube * g.outcome.multiplier) for g in games])
    assert [g["crawford"] for g in found["games"]] == [False, True, False, False]
    assert found["crawford_game"] == 2
    for game, sheet_game, (crawford, post, after) in zip(
        games, found["games"], by_hand, strict=True
    ):
        assert sheet_game["number"] == game.number
        assert sheet_game["winner"] == "ab"[game.winner]
        assert sheet_game["cube"] == game.cube and sheet_game["result"] == game.result
        assert sheet_game["crawford"] is crawford and sheet_game["post_crawford"] is post
        assert (sheet_game["score_after"]["a"], sheet_game["score_after"]["b"]) == after
    assert [g["points"] for g in found["games"]] == [4, 1, 2, 1]
    assert [g["post_crawford"] for g in found["games"]] == [False, False, True, True]
    assert found["score"] == {"a": 5, "b": 3} and found["winner"] == "a"
    assert found["status"] == "finished" and found["length"] == 5
    assert found["player_a"] == {"id": played.player_a_id, "name": "Anna Rossi"}
    assert found["tournament"] is None and found["bracket_key"] == ""
    finished = datetime.datetime.fromisoformat(found["finished_at"])
    # ISO 8601 with its offset, to the millisecond
    assert abs(finished - played.finished_at) < datetime.timedelta(milliseconds=1)
    assert found["date"] == played.date.isoformat()


def test_a_final_score_and_a_walkover_have_no_games(client, match5, anna, bruno, director):
    from matches.services import match_create, match_record_final_score, match_walkover

    match_record_final_score(match=match5, score_a=2, score_b=5, user=director)
    found = body(client, f"matches/{match5.pk}")
    assert found["games"] == [] and found["score"] == {"a": 2, "b": 5} and found["winner"] == "b"
    other = match_create(player_a=anna, player_b=bruno, length=3, user=director)
    match_walkover(match=other, winner=0, user=director)
    found = body(client, f"matches/{other.pk}")
    assert found["status"] == "walkover" and found["winner"] == "a" and found["games"] == []


def test_a_match_s_penalties_and_forfeit_are_in_its_detail(client, match5, record, director):
    """Tournament rules: penalty points (who was penalised, the points, why) in the order
    given, the score around them derived; a forfeit says why."""
    from matches.penalties import match_forfeit, match_penalty_award

    match_penalty_award(
        match=match5, side=1, points=1, reason="lateness", minutes_late=7, user=director
    )
    record(match5, 0)
    match_penalty_award(
        match=Match.objects.get(pk=match5.pk),
        side=0,
        points=2,
        reason="director",
        note="Slow play",
        user=director,
    )
    found = body(client, f"matches/{match5.pk}")
    assert found["forfeit"] is None
    assert found["penalties"] == [
        {
            "before_game": 1,
            "side": "b",
            "points": 1,
            "reason": "lateness",
            "score_before": {"a": 0, "b": 0},
            "score_after": {"a": 1, "b": 0},
        },
        {
            "before_game": 2,
            "side": "a",
            "points": 2,
            "reason": "director",
            "score_before": {"a": 2, "b": 0},
            "score_after": {"a": 2, "b": 2},
        },
    ]
    match_forfeit(match=Match.objects.get(pk=match5.pk), side=1, reason="time", user=director)
    found = body(client, f"matches/{match5.pk}")
    assert found["forfeit"] == "time" and found["retired"] == "b" and found["winner"] == "a"
    assert found["score"] == {"a": 5, "b": 2} and found["status"] == "finished"
    assert [g["score_before"] for g in found["games"]] == [{"a": 1, "b": 0}]


# --- tournaments, events, rounds, standings ----------------------------------------------------


@pytest.fixture
def swiss(event_with, finish, director):
    event = event_with(Event.Format.SWISS, 5, swiss_rounds=2)
    event_draw(event=event, seed=5, user=director)
    play_everything(event, finish, random.Random(5))
    event_pair_next_round(event=event, user=director)
    play_everything(event, finish, random.Random(6))
    return event


def winner_of(match):
    """From the stored final score: the side that reached the length."""
    return match.player_a if match.final_score_a == match.length else match.player_b


def test_swiss_standings_count_each_player_s_wins_and_byes(client, swiss):
    found = body(client, f"events/{swiss.pk}/standings")
    assert found["format"] == "swiss" and found["placings"] == []
    matches = list(Match.objects.filter(place__event=swiss))
    byes = list(Bye.objects.filter(event=swiss))
    wins = {p.pk: 0 for p in Player.objects.filter(entries__event=swiss)}
    for match in matches:
        wins[winner_of(match).pk] += 1
    for bye in byes:
        wins[bye.player_id] += 1
    assert {row["player"]["id"]: row["wins"] for row in found["table"]} == wins
    assert [row["rank"] for row in found["table"]] == sorted(row["rank"] for row in found["table"])
    assert [row["wins"] for row in found["table"]] == sorted(wins.values(), reverse=True)
    for row in found["table"]:
        played = [m for m in matches if row["player"]["id"] in (m.player_a_id, m.player_b_id)]
        assert row["played"] == len(played)
        assert row["difference"] == row["points_for"] - row["points_against"]


def test_a_finished_knockout_s_placings(client, event_with, finish, director):
    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=3, user=director)
    play_everything(event, finish, random.Random(3))
    found = body(client, f"events/{event.pk}/standings")
    assert found["table"] == []
    final = Match.objects.get(place__event=event, place__round=2)
    first, second = found["placings"][0], found["placings"][1]
    assert first == {
        "draw": "main",
        "first": 1,
        "last": 1,
        "players": [{"id": winner_of(final).pk, "name": winner_of(final).name}],
    }
    loser = final.player_b if winner_of(final) == final.player_a else final.player_a
    assert second["first"] == 2 and second["players"][0]["id"] == loser.pk
    assert found["placings"][2]["first"] == 3 and found["placings"][2]["last"] == 4
    event_page = body(client, f"events/{event.pk}")
    assert event_page["progress"]["stage"] == "finished"
    assert event_page["progress"]["champion"]["id"] == winner_of(final).pk


def test_an_event_its_rounds_and_its_tournament(client, swiss):
    found = body(client, f"events/{swiss.pk}")
    assert found["tournament"] == swiss.tournament_id and found["format"] == "swiss"
    assert found["swiss_rounds"] == 2 and found["draw_seed"] == 5
    assert {e["player"]["id"] for e in found["entries"]} == set(
        swiss.entries.values_list("player_id", flat=True)
    )
    assert found["lengths"][0] == {"number": 1, "length": 5}
    rounds = body(client, f"events/{swiss.pk}/rounds")
    assert [r["number"] for r in rounds] == [1, 2]
    for paired in rounds:
        places = Place.objects.filter(event=swiss, round=paired["number"])
        assert {m["id"] for m in paired["matches"]} == {p.match_id for p in places}
        bye = Bye.objects.get(event=swiss, round=paired["number"])  # five players: one a round
        assert [b["player"]["id"] for b in paired["byes"]] == [bye.player_id]
        assert all(m["round"] == paired["number"] for m in paired["matches"])
    assert body(client, f"events/{swiss.pk}/rounds/2") == rounds[1]
    tournament = body(client, f"tournaments/{swiss.tournament_id}")
    assert tournament["name"] == "Torneo di Natale" and tournament["date"] == "2026-12-13"
    assert tournament["events"] == [{"id": swiss.pk, "name": swiss.name, "format": "swiss"}]
    listed = body(client, "tournaments?date_from=2026-12-01")
    assert [t["id"] for t in listed["items"]] == [swiss.tournament_id]
    assert body(client, "tournaments?date_from=2027-01-01")["count"] == 0


def test_a_double_elimination_s_final_is_named_after_the_losers_draw(
    client, double_final_again, finish
):
    """Issue 25.2: the final is round 7 (after the losers' draw's 6), the final played again
    round 8, and each says what it is in ``round_stage``: codes, the same in any language."""
    event = double_final_again
    again = Match.objects.get(place__event=event, place__bracket_key="F2-1")
    for language in ("en", "it"):
        found = body(client, f"events/{event.pk}", **{"Accept-Language": language})
        assert found["progress"] == {
            "stage": "playing",
            "round": 8,
            "round_stage": "final_again",
            "champion": None,
        }
    finish(again, again.player_a)
    for language in ("en", "it"):
        rounds = body(client, f"events/{event.pk}/rounds", **{"Accept-Language": language})
        assert [(r["number"], r["stage"], r["length"]) for r in rounds] == [
            *((n, "round", length) for n, length in enumerate([5, 5, 7, 7, 9, 11], 1)),
            (7, "final", 11),
            (8, "final_again", 11),
        ]
        assert [m["bracket_key"] for m in rounds[0]["matches"]] == ["M1-2"]  # no final in it
        for paired in rounds:
            assert all(m["round_stage"] == paired["stage"] for m in paired["matches"])
        final = body(client, f"events/{event.pk}/rounds/7", **{"Accept-Language": language})
        assert [(m["bracket_key"], m["round"]) for m in final["matches"]] == [("F1-1", 7)]
        match = body(client, f"matches/{again.pk}", **{"Accept-Language": language})
        assert (match["round"], match["round_stage"], match["bracket_key"]) == (
            8,
            "final_again",
            "F2-1",
        )
    done = body(client, f"events/{event.pk}")["progress"]
    assert done["stage"] == "finished" and done["round_stage"] is None


def test_a_round_robin_round_names_who_rests(client, event_with, director):
    event = event_with(Event.Format.ROUND_ROBIN, 5, pools=1, lengths=(7,))
    event_draw(event=event, seed=2, user=director)
    paired = body(client, f"events/{event.pk}/rounds/1")
    playing = {p for m in paired["matches"] for p in (m["player_a"]["id"], m["player_b"]["id"])}
    entered = set(event.entries.values_list("player_id", flat=True))
    assert {p["id"] for p in paired["resting"]} == entered - playing and paired["length"] == 7


# --- lists: filters, pages, queries ----------------------------------------------------------


def test_matches_of_a_tournament_of_a_player_finished_since(client, swiss, match5, anna):
    in_swiss = set(Match.objects.filter(place__event=swiss).values_list("pk", flat=True))
    found = body(client, f"matches?tournament={swiss.tournament_id}")
    assert {m["id"] for m in found["items"]} == in_swiss and found["count"] == len(in_swiss)
    assert {m["id"] for m in body(client, f"matches?player={anna.pk}")["items"]} == {match5.pk}
    assert body(client, "matches?status=scheduled")["count"] == 1
    newest = Match.objects.filter(place__event=swiss).order_by("-finished_at").first()
    since = newest.finished_at.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z")
    assert [m["id"] for m in body(client, f"matches?finished_since={since}")["items"]] == [
        newest.pk
    ]
    future = (timezone.localdate() + datetime.timedelta(days=1)).isoformat()
    assert body(client, f"matches?finished_since={future}")["count"] == 0
    assert get(client, "matches?status=over").status_code == 422


def test_pages_link_to_each_other(client, swiss):
    count = Match.objects.count()
    first = body(client, "matches?page_size=2")
    assert first["count"] == count and first["pages"] == (count + 1) // 2
    assert first["previous"] is None and len(first["items"]) == 2
    second = client.get(first["next"]).json()
    assert second["page"] == 2 and second["previous"].endswith("page_size=2&page=1")
    assert not {m["id"] for m in first["items"]} & {m["id"] for m in second["items"]}
    missing = get(client, "matches?page=99")
    assert missing.status_code == 404 and "No page 99" in missing.json()["detail"]


@pytest.mark.parametrize("count", [5, 50])
def test_a_page_of_matches_takes_the_same_few_queries(
    client, field, director, count, django_assert_max_num_queries
):
    from matches.services import game_record, match_create

    people = field(count + 1)
    for index in range(count):
        match = match_create(
            player_a=people[index], player_b=people[index + 1], length=3, user=director
        )
        for number in (1, 2):
            game_record(
                match=match, number=number, winner=0, cube=1, result="single", user=director
            )
    # the ETag's key, the count, the matches with their players, places and tables, the games,
    # the penalty points
    with django_assert_max_num_queries(5):
        found = body(client, "matches?page_size=50")
    assert len(found["items"]) == count
    assert all(m["score"] == {"a": 2, "b": 0} for m in found["items"])


@pytest.mark.parametrize("count", [5, 50])
def test_players_and_ratings_take_the_same_few_queries(
    client, field, director, finish, count, django_assert_max_num_queries
):
    from matches.services import match_create

    people = field(count + 1)
    for opponent in people[1:]:
        match = match_create(player_a=people[0], player_b=opponent, length=1, user=director)
        finish(match, people[0])
    with django_assert_max_num_queries(3):
        assert body(client, "players?page_size=100")["count"] == count + 1
    # key, player, count, changes, their places, their matches' games and penalty points
    with django_assert_max_num_queries(7):
        found = body(client, f"players/{people[0].pk}/ratings?page_size=100")
    assert found["count"] == count and all(r["won"] for r in found["items"])


@pytest.mark.parametrize("players", [4, 16])
def test_an_event_s_rounds_and_standings_take_the_same_few_queries(
    client, event_with, director, players, django_assert_max_num_queries
):
    event = event_with(Event.Format.SINGLE, players)
    event_draw(event=event, seed=1, user=director)
    # the ETag key, the event, its rounds' lengths, entries, matches, their games and penalty
    # points, byes
    with django_assert_max_num_queries(8):
        found = body(client, f"events/{event.pk}/rounds")
    assert len(found[0]["matches"]) == players // 2
    with django_assert_max_num_queries(8):
        body(client, f"events/{event.pk}/standings")
    with django_assert_max_num_queries(8):
        assert len(body(client, f"events/{event.pk}")["entries"]) == players


# --- players and ratings ---------------------------------------------------------------------


def test_ratings_are_json_numbers_in_italian_too(client, anna, bruno, director, finish):
    from matches.services import match_create

    Player.objects.filter(pk=anna.pk).update(rating=Decimal("1523.50"))
    match = match_create(player_a=anna, player_b=bruno, length=3, user=director)
    finish(match, anna)
    english = get(client, f"players/{bruno.pk}/ratings")
    italian = get(client, f"players/{bruno.pk}/ratings", accept_language="it")
    assert english.content == italian.content  # nothing translated, nothing localised
    change = RatingChange.objects.get(player=bruno)
    item = italian.json()["items"][0]
    assert item["rating_before"] == float(change.rating_before) == 1500.0
    assert item["rating_after"] == float(change.rating_after) and item["won"] is False
    assert item["opponent"]["id"] == anna.pk and item["match"] == match.pk
    anna.refresh_from_db()
    found = get(client, "players?q=anna", accept_language="it").json()["items"][0]
    assert found["rating"] == float(anna.rating) and isinstance(found["rating"], float)
    detail = body(client, f"players/{anna.pk}", accept_language="it")
    assert detail["matches_won"] == 1 and detail["matches_lost"] == 0
    assert get(client, f"matches/{match.pk}", accept_language="it").json()["status"] == "finished"


def test_a_rating_like_1523_5_is_the_json_number_1523_5(client, anna):
    Player.objects.filter(pk=anna.pk).update(rating=Decimal("1523.50"))
    text = get(client, f"players/{anna.pk}", accept_language="it").content.decode()
    assert '"rating": 1523.5,' in text


# --- what every answer shares: JSON refusals, ETags, 405, privacy, rate limits ---------------


def every_path(ours):
    return [
        "",
        "openapi.json",
        "tournaments",
        f"tournaments/{ours['tournament']}",
        f"events/{ours['event']}",
        f"events/{ours['event']}/rounds",
        f"events/{ours['event']}/rounds/1",
        f"events/{ours['event']}/standings",
        "matches",
        f"matches/{ours['match']}",
        "players",
        f"players/{ours['player']}",
        f"players/{ours['player']}/ratings",
    ]


@pytest.fixture
def ours(swiss, played, anna):
    anna.email, anna.phone = "anna.rossi@example.org", "+39 333 1234567"
    anna.save()
    return {
        "tournament": swiss.tournament_id,
        "event": swiss.pk,
        "match": played.pk,
        "player": anna.pk,
    }


def test_every_answer_has_an_etag_and_a_304_when_unchanged(client, ours):
    for path in every_path(ours):
        first = client.get(API + path)
        assert first.status_code == 200 and first["ETag"].startswith('"'), path
        again = client.get(API + path, headers={"if-none-match": first["ETag"]})
        assert again.status_code == 304 and again.content == b"", path
        assert again["ETag"] == first["ETag"]


def test_a_change_changes_the_etag(client, match5, record):
    first = get(client, f"matches/{match5.pk}")
    listed = get(client, "matches")
    assert first["ETag"] != listed["ETag"]  # each address its own tag
    record(match5, 0)
    after = client.get(API + f"matches/{match5.pk}", headers={"if-none-match": first["ETag"]})
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert after.json()["score"] == {"a": 1, "b": 0}


def test_a_match_begun_on_the_board_changes_the_etag(client, match5, director):
    """The first roll begins a match without an audit entry: its board action counts."""
    from matches.board.service import board_game_act, board_game_start

    board = board_game_start(match=match5, user=director)
    first = get(client, f"matches/{match5.pk}")
    assert first.json()["status"] == "scheduled"
    board_game_act(board_game=board, version=board.version, action="opening", user=director)
    after = client.get(API + f"matches/{match5.pk}", headers={"if-none-match": first["ETag"]})
    assert after.status_code == 200 and after.json()["status"] == "in_play"


def test_a_late_commit_with_an_older_audit_id_changes_the_etag():
    """PostgreSQL hands out ids before commit: an older id arriving late still moves the key."""
    from api.etags import data_key
    from club.models import AuditEntry
    from club.policy import SYSTEM
    from club.services import player_create

    for name in ("One", "Two", "Three"):
        player_create(name=name, user=SYSTEM)
    newest = AuditEntry.objects.order_by("-id").first()
    middle = AuditEntry.objects.order_by("-id")[1]
    before = data_key()
    row = AuditEntry.objects.filter(pk=middle.pk).values()[0]
    AuditEntry.objects.filter(pk=middle.pk)._raw_delete(AuditEntry.objects.db)  # "not yet"
    hidden = data_key()
    AuditEntry.objects.create(**row)  # committed now, its id older than the newest
    assert data_key() != hidden and data_key() == before
    assert AuditEntry.objects.order_by("-id").first() == newest


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_api_only_reads(client, ours, method):
    for path in every_path(ours):
        response = getattr(client, method)(API + path)
        assert response.status_code == 405, (method, path)
        assert response.json()["code"] == "method_not_allowed" and response["Allow"] == "GET"


def test_not_found_is_json_in_plain_words(client, ours):
    for path, said in [
        ("matches/999999", "No match with id 999999."),
        ("players/999999", "No player with id 999999."),
        ("players/999999/ratings", "No player with id 999999."),
        ("tournaments/999999", "No tournament with id 999999."),
        ("events/999999/standings", "No event with id 999999."),
        (f"events/{ours['event']}/rounds/9", f"Event {ours['event']} has no round 9 paired."),
        ("nothing/here", "Nothing at /api/v1/nothing/here"),
        ("matches/abc", "Nothing at /api/v1/matches/abc"),
    ]:
        response = get(client, path)
        assert response.status_code == 404 and response.json()["code"] == "not_found", path
        assert said in response.json()["detail"], path


def test_no_email_or_phone_ever(client, ours, member):
    for who in ("anonymous", "member"):
        if who == "member":
            client.force_login(member)
        for path in every_path(ours):
            text = client.get(API + path).content.decode()
            assert "anna.rossi@example.org" not in text and "333 1234567" not in text, path
            assert '"email"' not in text and '"phone"' not in text, path


def test_anonymous_clients_are_throttled_in_plain_words(client, settings, member, anna):
    settings.API_RATE_ANONYMOUS = "3/min"
    settings.API_RATE_SIGNED_IN = "5/min"
    for _ in range(3):
        assert client.get(API + "players").status_code == 200
    refused = client.get(API + "players")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json()["code"] == "throttled"
    detail = refused.json()["detail"]
    assert (
        "3 requests a minute" in detail
        and f"Try again in {refused['Retry-After']} second" in detail
    )
    # a 304 counts too: it still asks the database
    assert client.get(API + "players", headers={"if-none-match": "x"}).status_code == 429
    another = client.get(API + "players", REMOTE_ADDR="10.0.0.2")  # another address
    assert another.status_code == 200
    forged = client.get(API + "players", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert forged.status_code == 429  # a forged header is not another address
    client.force_login(member)  # signed in: a rate of their own, higher
    for _ in range(5):
        assert client.get(API + "players").status_code == 200
    assert client.get(API + "players").status_code == 429


def test_the_rates_come_from_the_environment():
    from tests.site.test_settings import python, settings_of

    found = settings_of(
        "API_RATE_ANONYMOUS",
        "API_RATE_SIGNED_IN",
        "NINJA_NUM_PROXIES",
        API_RATE_ANONYMOUS="120/MIN",
        API_PROXIES="1",
    )
    assert found == {
        "API_RATE_ANONYMOUS": "120/min",
        "API_RATE_SIGNED_IN": "600/min",
        "NINJA_NUM_PROXIES": 1,
    }
    refused = python("-c", "import django; django.setup()", API_RATE_ANONYMOUS="lots")
    assert refused.returncode != 0 and "API_RATE_ANONYMOUS must read like 60/min" in refused.stderr


def test_behind_a_proxy_each_client_is_counted_by_its_own_address(client, settings):
    settings.API_RATE_ANONYMOUS = "2/min"
    settings.NINJA_NUM_PROXIES = 1  # API_PROXIES=1: the proxy appends the client's address
    first = {"HTTP_X_FORWARDED_FOR": "203.0.113.7", "REMOTE_ADDR": "127.0.0.1"}
    second = {"HTTP_X_FORWARDED_FOR": "198.51.100.9", "REMOTE_ADDR": "127.0.0.1"}
    for _ in range(2):
        assert client.get(API + "players", **first).status_code == 200
    assert client.get(API + "players", **first).status_code == 429
    assert client.get(API + "players", **second).status_code == 200
