"""The Content-Security-Policy in a real browser (headless Debian chromium, Playwright): the pages
load with nothing refused, and what the scripts do still happens."""

import os

import pytest

from tests.conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

# Chromium reports each refusal as a securitypolicyviolation event (and on the console).
RECORD_VIOLATIONS = """
window.violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


@pytest.fixture
def watched(browser):
    """A page that keeps every policy refusal: page.refused() lists them."""
    page = browser.new_page(locale="en-GB")
    console = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.add_init_script(RECORD_VIOLATIONS)
    page.refused = lambda: console + page.evaluate("window.violations")
    return page


def test_pages_load_under_the_policy_and_the_language_menu_still_switches(
    watched, site, match5, director
):
    from matches.board.service import board_game_act, board_game_start
    from matches.models import BoardGame

    board_game = board_game_start(match=match5, user=director)
    board_game_act(board_game=board_game, version=0, action="opening", dice=(3, 1), user=director)
    page = watched

    page.goto(f"{site.url}/")
    assert page.refused() == []
    page.goto(f"{site.url}{match5.get_absolute_url()}")
    assert page.refused() == []
    page.goto(f"{site.url}/accounts/login/")
    assert page.refused() == []
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill("pw-director-1")
    page.get_by_role("button", name="Sign in").click()
    assert page.get_by_role("button", name="Sign out").is_visible()

    # the board's click targets, inside its SVG
    page.goto(f"{site.url}/matches/{match5.pk}/board/")
    assert page.locator("a.target.source").count() == 4 and page.refused() == []
    box = page.locator("a.target.source").first.bounding_box()
    assert box["width"] > 10 and box["height"] > 10  # placed, not collapsed
    # the game log: a focused ID is selected whole, ready to copy (static/board.js)
    number = BoardGame.objects.get(match=match5).number
    page.goto(f"{site.url}/matches/{match5.pk}/games/{number}/log/")
    page.locator("input.position-id").first.focus()
    selected = "(el => el.selectionStart === 0 && el.selectionEnd === el.value.length)"
    assert page.locator("input.position-id").first.evaluate(selected)
    assert page.refused() == []

    # the language menu changes on its button, not on a choice: a keyboard user looks through
    # the languages with the arrows, and nothing happens until they press it (issue 30)
    page.goto(f"{site.url}/")
    menu = page.get_by_label("Language")
    menu.focus()
    page.keyboard.press("ArrowDown")
    assert menu.input_value() == "it"
    page.wait_for_timeout(300)  # a page that submitted on change would be gone by now
    assert page.locator("html").get_attribute("lang").startswith("en")
    with page.expect_navigation():
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")  # the button after the menu
    assert page.locator("html").get_attribute("lang") == "it"
    assert page.get_by_role("link", name="Giocatori").is_visible()
    assert page.refused() == []
