"""By keyboard alone, listening to what is announced (issue 30): a director records a game on the
match page; two players, each on their own phone, play on the board, and each hears the other's
play arrive, said in the numbers their own board prints, with the focus left where it was.

"Hearing" is reading the region a screen reader reads: #board-news on the board (outside the
part each update replaces), the confirmation message on the match page.
"""

import os

import pytest

from club.models import Player
from matches.models import Match
from matches.selectors import match_score_sheet
from tests.conftest import CHROMIUM
from tests.helpers import browser_sign_in
from tests.matches.board.test_browser import act, label, opened

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

FOCUSED = """(() => { const e = document.activeElement, label = e.labels && e.labels[0];
  return (e.getAttribute("aria-label") || (label && label.textContent) || e.textContent || "")
    .replace(/\\s+/g, " ").trim(); })()"""
NEWS = "document.getElementById('board-news').textContent"


def before(lang, text, **params):
    """What ``text`` says before the first parameter left out of ``params``: the words known
    ahead of a point or the dice, in either language ("Sposta una pedina di Anna Rossi (")."""
    missing = next(n for n in ("point", "dice", "a") if f"%({n})s" in text and n not in params)
    everything = {"point": "", "dice": "", "a": "", "b": "", **params, missing: "\\0"}
    return label(lang, text, **everything).split("\\0")[0]


def focused(page):
    """The accessible name of what has the focus: its aria-label, its label, else its text."""
    return page.evaluate(FOCUSED)


def tab_to(page, name, back=False):
    """Press Tab (Shift+Tab) until the control named ``name`` has the focus."""
    seen = []
    for _ in range(80):
        if focused(page) == name:
            return
        seen.append(focused(page)[:40])
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reaches {name!r}; it went through {seen}")


def enter(page):
    """Press Enter on the board, then wait for the new board and what it announces."""
    old = page.locator("#board-area").element_handle()
    page.keyboard.press("Enter")
    page.wait_for_function("board => !board.isConnected", arg=old)
    page.wait_for_timeout(120)  # the region is emptied, then filled (board.js: announce)


def heard(page, text, timeout=12_000):
    """Wait until the announcements region says ``text`` (another device's action arrives
    with the board's next look, every 4 seconds), and return all it says."""
    page.wait_for_function(f"t => {NEWS}.includes(t)", arg=text, timeout=timeout)
    return page.evaluate(NEWS)


def phone(browser, site, lang, username):
    context = browser.new_context(
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        viewport={"width": 390, "height": 844},
    )
    page = context.new_page()
    browser_sign_in(page, site.url, username, f"{username}-password-1")
    return page


@pytest.fixture(params=["en", "it"])
def lang(request):
    return request.param


@pytest.fixture
def players(django_user_model, match5):
    for side, username in ((0, "anna"), (1, "bruno")):
        user = django_user_model.objects.create_user(username, password=f"{username}-password-1")
        Player.objects.filter(pk=(match5.player_a_id, match5.player_b_id)[side]).update(user=user)
    return match5


SOURCE = "Move a checker of %(name)s from %(point)s"
TO = "Move to %(point)s"
PLAYED = "%(name)s played %(dice)s: %(play)s."
ROLLED = "%(name)s rolled %(dice)s."


def test_two_players_play_by_keyboard_and_hear_each_other_s_plays(
    browser, site, lang, director, players
):
    match = players
    opened(match, director, dice=(3, 1))  # Anna to play 3-1
    url = f"{site.url}/matches/{match.pk}/board/"
    anna, bruno = phone(browser, site, lang, "anna"), phone(browser, site, lang, "bruno")
    anna.goto(url)
    bruno.goto(url)
    news = anna.locator("#board-news").element_handle()
    assert anna.evaluate("n => !document.getElementById('board-area').contains(n)", news)
    # Bruno waits on his game log link, reading; a refresh must not move him from it
    log_link = label(lang, "Game log")
    tab_to(bruno, log_link)

    # Anna plays 8/5 6/5 by keyboard: a checker, where it goes, the next, then confirms
    tab_to(anna, label(lang, SOURCE, name="Anna Rossi", point=8))
    enter(anna)
    assert focused(anna).startswith(before(lang, TO))  # where it may go
    tab_to(anna, label(lang, TO, point=5))
    enter(anna)
    moved = label(lang, "Moved so far") + ": 8/5"
    assert moved in heard(anna, moved)
    assert focused(anna).startswith(before(lang, SOURCE, name="Anna Rossi"))  # the next one
    tab_to(anna, label(lang, SOURCE, name="Anna Rossi", point=6))
    enter(anna)
    tab_to(anna, label(lang, TO, point=5))
    enter(anna)
    assert focused(anna) == label(lang, "Confirm the play")  # the next thing to do
    enter(anna)
    played = label(lang, PLAYED, name="Anna Rossi", dice="3-1", play="8/5 6/5")
    turn = label(lang, "%(name)s is to double or roll.", name="Bruno Bianchi")
    assert f"{played} {turn}" in heard(anna, turn)
    assert anna.evaluate("document.activeElement.id") == "status"  # not the top of the page
    assert anna.evaluate("n => n.isConnected", news)  # the same region, never replaced

    # on Bruno's phone her play arrives in his own numbers: her 8/5 6/5 is his 17/20 19/20
    theirs = label(lang, PLAYED, name="Anna Rossi", dice="3-1", play="17/20 19/20")
    assert theirs in heard(bruno, theirs)
    assert focused(bruno) == log_link  # the refresh left him where he was

    # Bruno rolls; he types a play the rules refuse, and it stays in its box to correct
    tab_to(bruno, label(lang, "Roll"), back=True)
    enter(bruno)
    rolled = heard(bruno, before(lang, ROLLED, name="Bruno Bianchi"))
    assert before(lang, "%(name)s is to play %(a)s-%(b)s.", name="Bruno Bianchi") in rolled
    assert focused(bruno).startswith(before(lang, SOURCE, name="Bruno Bianchi"))
    tab_to(bruno, label(lang, "Or type the play"))  # the box, named by its label
    bruno.keyboard.type("24/23")
    enter(bruno)
    refusal = heard(bruno, "WBF")
    assert bruno.evaluate("document.activeElement.id") == "typed-play"
    assert bruno.evaluate("document.activeElement.value") == "24/23"  # kept for correction
    assert bruno.locator("#board-error").text_content().strip() in refusal

    # Anna, her focus still on the status line, hears his roll arrive
    heard(anna, before(lang, ROLLED, name="Bruno Bianchi"))
    assert anna.evaluate("document.activeElement.id") == "status"


def test_a_director_records_a_game_by_keyboard_and_hears_it_recorded(
    browser, site, lang, director, match5
):
    page = browser.new_page(locale=lang, extra_http_headers={"Accept-Language": lang})
    browser_sign_in(page, site.url, "director", "pw-director-1")
    page.goto(f"{site.url}/matches/{match5.pk}/")
    tab_to(page, "Anna Rossi")  # the winner's first choice
    page.keyboard.press("Space")
    page.keyboard.press("Tab")  # the cube
    page.keyboard.press("ArrowDown")  # 1 -> 2
    page.keyboard.press("Tab")  # the result: a single game, as it is
    tab_to(page, label(lang, "Record the game"))
    with page.expect_navigation():
        page.keyboard.press("Enter")
    said = label(lang, "Game %(number)s is recorded.", number=1)
    assert focused(page) == said  # the confirmation is read first
    assert page.evaluate("document.activeElement.getAttribute('role')") == "status"
    sheet = match_score_sheet(match=Match.objects.get(pk=match5.pk))
    assert sheet.score == (2, 0) and sheet.rows[0].game.cube == 2
    page.keyboard.press("Tab")  # and Tab goes on into the page, not back to the header
    assert page.evaluate("document.activeElement.closest('main') !== null")


def test_a_game_ended_on_another_device_is_heard_with_the_new_score(
    browser, site, director, players
):
    match = players
    opened(match, director, dice=(3, 1))
    act(match, director, "play", play="8/5 6/5")  # Bruno to double or roll
    anna = phone(browser, site, "en", "anna")
    anna.goto(f"{site.url}/matches/{match.pk}/board/")
    act(match, director, "double")
    act(match, director, "drop")  # Anna drops on the director's tablet: game 1 to Bruno
    said = heard(anna, "0–1")
    assert said.startswith("Score 0–1 · match to 5. Anna Rossi dropped the cube.")
    assert said.endswith("Bruno Bianchi wins 1 point")
