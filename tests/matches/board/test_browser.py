"""A whole game played by clicks on the board, and a match file imported, in headless chromium.

The dice come from the test settings' seed (tests/conftest.py), so the game is the same each run.
"""

import os

import pytest

from club.policy import SYSTEM
from matches.models import Match
from matches.selectors import match_score_sheet
from tests.conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]


@pytest.fixture
def tablet(browser, site, django_user_model, directors_group):
    """A director signed in on a tablet-sized screen."""
    user = django_user_model.objects.create_user("td", password="td-password-1")
    user.groups.add(directors_group)
    page = browser.new_page(locale="en-GB", viewport={"width": 820, "height": 1180}, has_touch=True)
    page.goto(f"{site.url}/accounts/login/")
    page.get_by_label("Username").fill("td")
    page.get_by_label("Password").fill("td-password-1")
    page.get_by_role("button", name="Sign in").click()
    return page


def click(page, target):
    """Click, then wait until the script has swapped in the new board."""
    old = page.locator("#board-area").element_handle()
    target.click()
    page.wait_for_function("board => !board.isConnected", arg=old)


def test_a_whole_game_by_clicks_with_a_double_and_a_take(tablet, site, match5):
    page = tablet
    page.goto(f"{site.url}/matches/{match5.pk}/")
    page.get_by_role("link", name="Play on the board").click()
    click(page, page.get_by_role("button", name="Start game 1 on the board"))
    # the board fits the tablet's width and its buttons are finger-sized
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    opening = page.get_by_role("button", name="Opening roll")
    while opening.count():  # equal dice are rolled again (WBF 12)
        click(page, opening)
    assert page.get_by_role("img", name="Board from the side of").count() == 1
    doubled = False
    for _ in range(2000):
        if page.locator("#game-result").count():
            break
        double = page.get_by_role("button", name="Double to 2")
        if not doubled and double.count():
            click(page, double)
            assert "is to take or drop" in page.locator("#status").inner_text()
            click(page, page.get_by_role("button", name="Take"))
            doubled = True
        roll = page.get_by_role("button", name="Roll", exact=True)
        if roll.count():
            click(page, roll)
            continue
        confirm = page.get_by_role("button", name="Confirm the play")
        if confirm.count():
            click(page, confirm)
            continue
        click(page, page.locator("a.target.source").first)  # a checker...
        click(page, page.locator("button.target.destination").first)  # ...and where it goes
    assert doubled
    result = page.locator("#game-result").inner_text()
    sheet = match_score_sheet(match=Match.objects.get(pk=match5.pk))
    game = sheet.rows[0].game
    assert game.cube == 2 and result.endswith(f"wins {game.points} point(s)")
    assert page.locator("#score").inner_text() == sheet.leader_text
    assert sheet.score[game.winner] == game.points >= 2
    page.get_by_role("link", name="Anna Rossi – Bruno Bianchi").click()
    assert page.locator("#score").inner_text() == sheet.leader_text  # the match page agrees
    page.get_by_role("link", name="game 1").click()
    page.wait_for_url("**/games/1/log/")  # loaded: rows counted while it streams in are too few
    assert page.locator("#log tbody tr").count() > 20
    assert page.locator("#log .match-id").first.input_value()


def test_an_imported_file_s_illegal_line_is_flagged_at_that_line(tablet, site, anna, bruno):
    from matches.services import match_create
    from tests.matches.board.test_pages import ILLEGAL

    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    page = tablet
    page.goto(f"{site.url}/matches/{match.pk}/")
    page.get_by_role("link", name="Import a match file").click()
    page.get_by_label("Match file (.mat)").set_input_files(
        files=[{"name": "club.mat", "mimeType": "text/plain", "buffer": ILLEGAL.encode()}]
    )
    page.get_by_role("button", name="Check the file").click()
    flagged = page.locator('#problems tr[data-line="6"]')
    assert flagged.count() == 1
    assert "24/18 13/10" in flagged.inner_text() and "(WBF 14)" in flagged.inner_text()
    page.get_by_role("button", name="Import 1 game").click()
    assert page.locator("#score").inner_text() == "0–1"
