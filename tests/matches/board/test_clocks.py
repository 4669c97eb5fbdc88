"""The board's clocks (tournament rules): the server keeps them, every request checks the flag.

Times are given to the services in milliseconds (the views read the server's); a test sets a
clock's remaining time small rather than wait for it to run out.
"""

import threading

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections

from club.models import AuditEntry, Player
from matches.board.clock import ClockStopped, board_clock, board_clock_pause, clock_text, now_ms
from matches.board.service import board_game_act, board_game_start, board_state
from matches.board.timing import board_clock_start, board_flag_check
from matches.clocks import (
    ClockUse,
    MatchClockRules,
    match_clock_rules,
    register_clock_rules,
    unregister_clock_rules,
)
from matches.models import BoardGame, Game, Match, MatchClock
from matches.selectors import match_score_sheet
from rules.clock import ClockSettings, FlagRule

pytestmark = pytest.mark.django_db

SETTINGS = ClockSettings(seconds_per_point=60, delay_seconds=10)  # 5 minutes for 5 points


@pytest.fixture
def clock_rule():
    """Make every match (outside a tournament) play under the rule given: clock_rule(use, ...)."""
    providers = []

    def make(use=ClockUse.REQUIRED, settings=SETTINGS):
        rules = MatchClockRules(use=use, settings=settings)

        def provider(match):
            return rules

        register_clock_rules(provider)
        providers.append(provider)
        return rules

    yield make
    for provider in providers:
        unregister_clock_rules(provider)


def act(board_game, action, user, at, **details):
    fresh = BoardGame.objects.get(pk=board_game.pk)
    return board_game_act(
        board_game=fresh, version=fresh.version, action=action, user=user, at=at, **details
    )


def opened(board_game, user, at):
    """The opening roll made (again on equal dice, WBF 12): someone is to play."""
    state = act(board_game, "opening", user, at)
    while state.game.phase.value == "opening":
        state = act(board_game, "opening", user, at)
    return state


def played(board_game, user, at, state):
    """The roll on the board played and confirmed: the first legal play."""
    return act(board_game, "play", user, at, play=state.turn.plays[0].notation)


def row(match):
    return MatchClock.objects.get(match=match)


@pytest.fixture
def board(match5, director):
    return board_game_start(match=match5, user=director)


def test_a_match_outside_any_tournament_has_no_clocks(board, match5, director):
    assert match_clock_rules(match5).use is ClockUse.NONE
    opened(board, director, at=1_000)
    assert not MatchClock.objects.exists()
    assert board_clock(match=match5, at=2_000) is None


def test_required_clocks_start_at_the_first_roll_for_the_player_on_roll(
    board, match5, director, clock_rule
):
    clock_rule(ClockUse.REQUIRED)
    assert board_clock(match=match5, at=0).faces[0].remaining_ms == 300_000  # not started yet
    assert not MatchClock.objects.exists()
    state = opened(board, director, at=1_000)
    clock = row(match5)
    assert clock.running == state.game.acting and clock.turn_started == 1_000
    assert (clock.remaining_a, clock.remaining_b) == (300_000, 300_000)
    assert (clock.seconds_per_point, clock.delay_seconds, clock.on_flag) == (60, 10, "match")


def test_a_play_presses_the_clock_the_delay_is_free_and_fresh_for_the_other(
    board, match5, director, clock_rule
):
    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=0)
    mover = state.game.acting
    played(board, director, 25_000, state)  # 25 s: 10 s of delay, 15 s charged
    clock = row(match5)
    assert clock.running == 1 - mover and clock.turn_started == 25_000
    assert clock.as_clock().remaining_ms[mover] == 300_000 - 15_000
    # the other's delay runs first: nothing charged in 10 s, a second after it
    faces = board_clock(match=match5, at=35_000).faces
    assert faces[1 - mover].remaining_ms == 300_000 and faces[1 - mover].delay_ms == 0
    assert board_clock(match=match5, at=36_000).faces[1 - mover].remaining_ms == 299_000


def test_a_double_hands_the_clock_to_the_taker_and_the_take_back(
    board, match5, director, clock_rule
):
    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=0)
    state = played(board, director, 1_000, state)
    doubler = state.game.acting
    act(board, "double", director, 2_000)
    assert row(match5).running == 1 - doubler
    act(board, "take", director, 3_000)
    assert row(match5).running == doubler and row(match5).turn_started == 3_000
    act(board, "roll", director, 4_000)
    assert row(match5).running == doubler  # rolling is part of the turn: no press


def test_the_clock_stops_when_a_game_ends_and_starts_at_the_next_opening_roll(
    board, match5, director, clock_rule
):
    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=0)
    state = played(board, director, 1_000, state)
    act(board, "double", director, 2_000)
    act(board, "drop", director, 3_000)  # game 1 over
    clock = row(match5)
    assert clock.running is None and clock.paused_for is None
    assert board_flag_check(match=match5, at=10**9) is False  # not running: no flag falls
    second = board_game_start(match=Match.objects.get(pk=match5.pk), user=director)
    state = opened(second, director, at=50_000)
    assert row(match5).running == state.game.acting and row(match5).turn_started == 50_000


def test_a_fallen_flag_loses_the_match_on_the_next_request_once(
    board, match5, director, clock_rule
):
    """The flag falls when the time reaches 0 (tournament rules); whoever asks next, the
    site records the forfeit on time; asking again records nothing more."""
    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=0)
    loser = state.game.acting
    MatchClock.objects.filter(match=match5).update(remaining_a=5_000, remaining_b=5_000)
    assert board_flag_check(match=match5, at=14_999) is False  # 10 s delay + 5 s - 1 ms
    assert board_flag_check(match=match5, at=15_000) is True
    assert board_flag_check(match=match5, at=16_000) is False
    match = Match.objects.get(pk=match5.pk)
    assert match.forfeit == "time" and match.retired == loser
    assert match.status == Match.Status.FINISHED
    assert match_score_sheet(match=match).winner_player == match.player(1 - loser)
    clock = row(match5)
    assert clock.flagged == loser and clock.running is None
    assert clock.as_clock().remaining_ms[loser] == 0
    assert AuditEntry.objects.filter(match_id=match5.pk, code="clock.flag").count() == 1
    with pytest.raises(ValidationError):  # nothing is played on after it
        act(board, "play", director, 17_000, play=state.turn.plays[0].notation)


def test_an_action_after_the_flag_is_refused_and_the_flag_recorded(
    board, match5, director, clock_rule, client
):
    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=now_ms())
    MatchClock.objects.filter(match=match5).update(
        remaining_a=1, remaining_b=1, turn_started=now_ms() - 60_000
    )
    with pytest.raises(ClockStopped):
        played(board, director, now_ms(), state)
    client.force_login(director)
    fresh = BoardGame.objects.get(pk=board.pk)
    response = client.post(
        f"/matches/{match5.pk}/board/{board.number}/",
        {"version": fresh.version, "action": "roll"},
        headers={"X-Board": "1"},
    )
    assert response.status_code in (400, 409)  # the flag is recorded first: the game is over
    assert Match.objects.get(pk=match5.pk).forfeit == "time"
    assert 'id="clock-flagged"' in response.content.decode()


def test_a_poll_records_the_flag_though_no_one_acts(board, match5, director, clock_rule, client):
    """Closing the browser does not stop time: a spectator's poll records the flag."""
    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=now_ms())
    loser = state.game.acting
    MatchClock.objects.filter(match=match5).update(
        remaining_a=1, remaining_b=1, turn_started=now_ms() - 60_000
    )
    fresh = BoardGame.objects.get(pk=board.pk)
    sheet = match_score_sheet(match=match5)
    response = client.get(
        f"/matches/{match5.pk}/board/",
        {
            "since": fresh.version,
            "n": fresh.number,
            "s": sheet.leader_text,
            "c": row(match5).version,
        },
        headers={"X-Board": "1"},
    )
    assert response.status_code == 200  # not 204: the flag decided the match
    page = response.content.decode()
    assert 'id="clock-flagged"' in page and "wins the match on time" in page
    assert Match.objects.get(pk=match5.pk).retired == loser


def test_under_the_game_rule_the_game_is_lost_at_its_cube_and_the_match_goes_on(
    board, match5, director, clock_rule
):
    clock_rule(ClockUse.REQUIRED, ClockSettings(60, 10, FlagRule.GAME))
    state = opened(board, director, at=0)
    loser = state.game.acting
    MatchClock.objects.filter(match=match5).update(remaining_a=1_000, remaining_b=1_000)
    assert board_flag_check(match=match5, at=11_000) is True
    game = Game.objects.get(match=match5, number=1)
    assert game.winner == 1 - loser and game.cube == 1
    match = Match.objects.get(pk=match5.pk)
    assert match.status == Match.Status.IN_PLAY and not match.forfeit
    assert board_state(board_game=BoardGame.objects.get(pk=board.pk)).recorded
    # the loser's time for the points they still need; the winner's stays
    clock = row(match5)
    assert clock.as_clock().remaining_ms[loser] == 60_000 * 5
    assert clock.as_clock().remaining_ms[1 - loser] == 1_000
    second = board_game_start(match=match, user=director)
    state = opened(second, director, at=20_000)
    assert row(match5).running == state.game.acting and row(match5).flagged is None


def test_allowed_clocks_are_started_by_a_player_and_run_for_the_player_on_turn(
    board, match5, director, clock_rule, member, anna
):
    clock_rule(ClockUse.ALLOWED)
    state = opened(board, director, at=0)
    assert not MatchClock.objects.exists()  # allowed: not started by the first roll
    with pytest.raises(PermissionDenied):
        board_clock_start(match=match5, user=member, at=1_000)  # not a player of the match
    Player.objects.filter(pk=anna.pk).update(user=member)
    match = Match.objects.get(pk=match5.pk)
    board_clock_start(match=match, user=member, at=1_000)
    clock = row(match5)
    assert clock.running == state.game.acting and clock.turn_started == 1_000
    with pytest.raises(ValidationError, match="already started"):
        board_clock_start(match=match, user=member, at=2_000)


def test_clocks_not_used_cannot_be_started(match5, director, clock_rule):
    clock_rule(ClockUse.NONE)
    with pytest.raises(ValidationError, match="not played on clocks"):
        board_clock_start(match=match5, user=director, at=0)


def test_a_director_pauses_the_clocks_nothing_is_played_meanwhile(
    board, match5, director, member, anna, clock_rule
):
    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=0)
    mover = state.game.acting
    Player.objects.filter(pk=anna.pk).update(user=member)
    with pytest.raises(PermissionDenied):
        board_clock_pause(match=Match.objects.get(pk=match5.pk), user=member, at=1_000, pause=True)
    board_clock_pause(match=match5, user=director, at=15_000, pause=True)  # 5 s charged
    with pytest.raises(ClockStopped, match="paused"):
        played(board, director, 16_000, state)
    assert board_flag_check(match=match5, at=10**9) is False  # paused: no time runs
    board_clock_pause(match=match5, user=director, at=100_000, pause=False)
    # the rest of the delay was kept for the player: none of the pause is charged
    assert board_clock(match=match5, at=100_000).faces[mover].remaining_ms == 295_000
    played(board, director, 101_000, state)
    assert row(match5).running == 1 - mover


def test_the_poll_answers_no_change_until_the_clocks_change(
    board, match5, director, clock_rule, client
):
    clock_rule(ClockUse.REQUIRED)
    opened(board, director, at=now_ms())
    fresh = BoardGame.objects.get(pk=board.pk)

    def poll():
        return client.get(
            f"/matches/{match5.pk}/board/",
            {
                "since": fresh.version,
                "n": fresh.number,
                "s": match_score_sheet(match=match5).leader_text,
                "c": str(version),
            },
            headers={"X-Board": "1"},
        ).status_code

    version = row(match5).version
    assert poll() == 204
    board_clock_pause(match=match5, user=director, at=now_ms(), pause=True)
    assert poll() == 200  # the pause is drawn
    version = row(match5).version
    assert poll() == 204


def test_the_board_shows_both_clocks_with_the_servers_times(
    board, match5, director, clock_rule, client
):
    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=now_ms())
    page = client.get(f"/matches/{match5.pk}/board/").content.decode()
    assert page.count('role="timer"') == 2 and "data-running" in page
    assert f'id="clock-{state.game.acting}"' in page
    assert "1:00 a point each, 10 s delay a turn" in page and "loses the match" in page
    italian = client.get(
        f"/matches/{match5.pk}/board/", headers={"Accept-Language": "it"}
    ).content.decode()
    assert "per punto a testa" in italian and "Orologi" in italian


def test_the_clock_reads_in_minutes_and_seconds_rounded_up():
    assert [clock_text(ms) for ms in (0, 1, 999, 1_000, 61_000, 3_600_000 + 1)] == [
        "0:00",
        "0:01",
        "0:01",
        "0:01",
        "1:01",
        "1:00:01",
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's row locks (run by .ci/run's PostgreSQL pass); "
    "SQLite serialises every write",
)
@pytest.mark.parametrize("rule", [FlagRule.MATCH, FlagRule.GAME])
def test_two_requests_after_the_flag_record_one_result(match5, director, clock_rule, rule):
    """Ten devices poll at once after the flag fell: one records it, nine find it done."""
    clock_rule(ClockUse.REQUIRED, ClockSettings(60, 10, rule))
    board_game = board_game_start(match=match5, user=director)
    opened(board_game, director, at=0)
    MatchClock.objects.filter(match=match5).update(remaining_a=1_000, remaining_b=1_000)
    barrier = threading.Barrier(10)
    told: list[bool] = []

    def poll() -> None:
        try:
            barrier.wait()
            told.append(board_flag_check(match=Match.objects.get(pk=match5.pk), at=60_000))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=poll) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(told) == [False] * 9 + [True]
    assert AuditEntry.objects.filter(match_id=match5.pk, code="clock.flag").count() == 1
    assert Game.objects.filter(match=match5).count() == (1 if rule is FlagRule.GAME else 0)


def test_a_forfeit_on_time_taken_back_lets_the_game_go_on_with_time_to_play(
    board, match5, director, clock_rule
):
    """A director takes the forfeit back (a correction, like a retirement): the game goes on
    where it stopped, and the player whose flag fell has the time per point they still need."""
    from matches.services import match_result_clear

    clock_rule(ClockUse.REQUIRED)
    state = opened(board, director, at=0)
    loser = state.game.acting
    MatchClock.objects.filter(match=match5).update(remaining_a=1_000, remaining_b=1_000)
    assert board_flag_check(match=match5, at=20_000) is True
    match_result_clear(match=Match.objects.get(pk=match5.pk), user=director)
    played(board, director, 30_000, state)
    clock = row(match5)
    assert clock.running == 1 - loser and clock.flagged is None
    assert clock.as_clock().remaining_ms == tuple(
        300_000 if side == loser else 1_000 for side in (0, 1)
    )


def test_the_clocks_buttons_through_the_pages(board, match5, director, member, clock_rule, client):
    """A player starts allowed clocks from the board; a director pauses and restarts them; a
    player may not pause, a stranger may do nothing, an unknown button is refused in words."""
    clock_rule(ClockUse.ALLOWED)
    opened(board, director, at=now_ms())
    url = f"/matches/{match5.pk}/board/clocks/"
    client.force_login(member)
    assert client.post(url, {"clock": "start"}).status_code == 403  # not a player of it
    Player.objects.filter(pk=match5.player_a_id).update(user=member)
    page = client.get(f"/matches/{match5.pk}/board/").content.decode()
    assert "Start the clocks" in page and "Either player may start them." in page
    response = client.post(url, {"clock": "start"}, headers={"X-Board": "1"})
    assert response.status_code == 200 and "data-running" in response.content.decode()
    assert client.post(url, {"clock": "pause"}).status_code == 403  # a director's
    assert client.post(url, {"clock": "start"}).status_code == 400  # already started
    client.force_login(director)
    response = client.post(url, {"clock": "pause"}, headers={"X-Board": "1"})
    assert 'id="clock-paused"' in response.content.decode()
    assert "Restart the clocks" in response.content.decode()
    response = client.post(url, {"clock": "wind"}, headers={"X-Board": "1"})
    assert response.status_code == 400 and "Unknown action." in response.content.decode()
    assert client.post(url, {"clock": "resume"}).status_code == 302  # back to the board
    assert row(match5).running is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's row locks (run by .ci/run's PostgreSQL pass); "
    "SQLite serialises every write",
)
def test_plays_sent_as_the_flag_falls_are_refused_and_the_flag_recorded_once(
    match5, director, clock_rule
):
    """Five devices send the play and five poll, all after the flag fell: the clock's lock
    comes first for all of them, so no play is applied, one poll records the forfeit, and
    no request waits on another for ever (the locks are taken in one order)."""
    clock_rule(ClockUse.REQUIRED)
    board_game = board_game_start(match=match5, user=director)
    state = opened(board_game, director, at=0)
    play = state.turn.plays[0].notation
    MatchClock.objects.filter(match=match5).update(remaining_a=1_000, remaining_b=1_000)
    version = BoardGame.objects.get(pk=board_game.pk).version
    barrier = threading.Barrier(10)
    told: list[str] = []

    def send() -> None:
        try:
            barrier.wait()
            board_game_act(
                board_game=BoardGame.objects.get(pk=board_game.pk),
                version=version,
                action="play",
                play=play,
                user=director,
                at=60_000,
            )
            told.append("played")
        except ValidationError:
            told.append("refused")
        finally:
            connections.close_all()

    def poll() -> None:
        try:
            barrier.wait()
            match = Match.objects.get(pk=match5.pk)
            told.append("recorded" if board_flag_check(match=match, at=60_000) else "seen")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send if n % 2 else poll) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(told) == ["recorded"] + ["refused"] * 5 + ["seen"] * 4
    assert Match.objects.get(pk=match5.pk).forfeit == "time"
    assert BoardGame.objects.get(pk=board_game.pk).version == version  # nothing applied
