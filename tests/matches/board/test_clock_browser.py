"""A clocked game on the board flags, in headless chromium (issue 28).

The page counts the server's time down between polls; when it reaches 0 it asks the server,
which decides the flag: the match is lost on time. A spectator's page alone is enough, with
the players' pages closed. The test sets the time left small rather than wait for it.
"""

import os

import pytest

from club.policy import SYSTEM
from matches.board.clock import now_ms
from matches.board.service import board_game_act, board_game_start
from matches.clocks import ClockUse, MatchClockRules, register_clock_rules, unregister_clock_rules
from matches.models import BoardGame, Match, MatchClock
from rules.clock import ClockSettings
from tests.conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]


@pytest.fixture
def clocks_required():
    rules = MatchClockRules(ClockUse.REQUIRED, ClockSettings(seconds_per_point=60, delay_seconds=2))

    def provider(match):
        return rules

    register_clock_rules(provider)
    yield rules
    unregister_clock_rules(provider)


@pytest.fixture
def laptop(browser, site, django_user_model, directors_group):
    user = django_user_model.objects.create_user("td", password="td-password-1")
    user.groups.add(directors_group)
    page = browser.new_page(locale="en-GB", viewport={"width": 1280, "height": 900})
    page.goto(f"{site.url}/accounts/login/")
    page.get_by_label("Username").fill("td")
    page.get_by_label("Password").fill("td-password-1")
    page.get_by_role("button", name="Sign in").click()
    return page


def click(page, target):
    old = page.locator("#board-area").element_handle()
    target.click()
    page.wait_for_function("board => !board.isConnected", arg=old)


def test_a_clocked_game_flags_and_the_match_is_lost_on_time(laptop, site, match5, clocks_required):
    page = laptop
    page.goto(f"{site.url}/matches/{match5.pk}/board/")
    assert "They start at the first roll." in page.locator("#board-clocks").inner_text()
    click(page, page.get_by_role("button", name="Start game 1 on the board"))
    opening = page.get_by_role("button", name="Opening roll")
    while opening.count():  # equal dice are rolled again (WBF 12)
        click(page, opening)
    running = page.locator(".clock.running")
    assert running.count() == 1 and page.locator('[role="timer"]').count() == 2
    assert running.locator(".clock-time").inner_text() == "5:00"  # in its delay: not charged
    # the player on roll has 3 seconds left after the delay: the next poll draws it...
    clock = MatchClock.objects.get(match=match5)
    side = clock.running
    MatchClock.objects.filter(pk=clock.pk).update(
        remaining_a=3_000 if side == 0 else clock.remaining_a,
        remaining_b=3_000 if side == 1 else clock.remaining_b,
        turn_started=now_ms(),
        version=clock.version + 1,
    )
    page.wait_for_function(
        "() => document.querySelector('.clock.running .clock-time').textContent <= '0:03'"
    )
    # ...the page counts it down, asks at 0, and the server records the flag: no one clicked
    page.wait_for_selector("#clock-flagged", timeout=15_000)
    flagged = page.locator("#clock-flagged").inner_text()
    winner = match5.player(1 - side).name
    assert flagged.endswith(f"time ran out: {winner} wins the match on time (tournament rules).")
    assert page.locator(f"#clock-{side}.flagged .clock-time").inner_text() == "0:00"
    assert page.locator("#winner").count() == 1  # the score says who won
    match = Match.objects.get(pk=match5.pk)
    assert match.forfeit == "time" and match.retired == side
    assert not page.get_by_role("button", name="Roll", exact=True).count()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_spectators_page_alone_records_the_flag(browser, site, match5, director, clocks_required):
    """The players closed their browsers: whoever opens the board next sees the flag."""
    board_game = board_game_start(match=match5, user=director)
    while not MatchClock.objects.filter(match=match5).exists():  # equal dice: again (WBF 12)
        fresh = BoardGame.objects.get(pk=board_game.pk)
        board_game_act(board_game=fresh, version=fresh.version, action="opening", user=SYSTEM)
    MatchClock.objects.filter(match=match5).update(
        remaining_a=1, remaining_b=1, turn_started=now_ms() - 10_000
    )
    page = browser.new_page(locale="it-IT", viewport={"width": 390, "height": 844})
    page.goto(f"{site.url}/matches/{match5.pk}/board/")
    assert "vince la partita per tempo" in page.locator("#clock-flagged").inner_text()
    assert Match.objects.get(pk=match5.pk).forfeit == "time"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
