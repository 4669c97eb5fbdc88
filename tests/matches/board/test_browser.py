"""A whole game played by clicks on the board, and a match file imported, in headless chromium.

The dice come from the test settings' seed (tests/conftest.py), so the game is the same each run.
"""

import itertools
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
    assert game.cube == 2 and result.endswith(
        f"wins {game.points} point{'s' if game.points != 1 else ''}"
    )
    assert page.locator("#score").inner_text() == sheet.leader_text
    assert sheet.score[game.winner] == game.points >= 2
    page.get_by_role("link", name="Anna Rossi – Bruno Bianchi").click()
    assert page.locator("#score").inner_text() == sheet.leader_text  # the match page agrees
    page.get_by_role("link", name="game 1").click()
    page.wait_for_url("**/games/1/log/")  # loaded: rows counted while it streams in are too few
    assert page.locator("#log li").count() > 20
    assert page.locator("#shown .match-id").input_value()


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


# --- the board as a player sees it, in English and in Italian (issue 12) -------------------
# Italian writes 339,0 where SVG needs 339.0: the board lost its checkers, its point numbers
# and its click targets. These tests look at what is drawn, not at the words.

BOARD_JS = """svg => {
  const box = el => { const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height, text: el.textContent.trim()}; };
  return {
    board: box(svg),
    checkers: [...svg.querySelectorAll("circle")].map(box),
    numbers: [...svg.querySelectorAll("text.number")].map(box),
    texts: [...svg.querySelectorAll("text")].map(box),
    cube: box(svg.querySelector("rect.cube")),
    targets: [...document.querySelectorAll("#board-area .target")].map(box),
  };
}"""


def seen(page, svg="#board-area svg.board"):
    """What the board shows: boxes (in CSS pixels) of its checkers, numbers, cube and targets."""
    return page.locator(svg).evaluate(BOARD_JS)


def inside(box, frame):
    return (
        box["w"] > 0
        and box["h"] > 0
        and frame["x"] - 0.5 <= box["x"]
        and box["x"] + box["w"] <= frame["x"] + frame["w"] + 0.5
        and frame["y"] - 0.5 <= box["y"]
        and box["y"] + box["h"] <= frame["y"] + frame["h"] + 0.5
    )


def centre(box):
    return (box["x"] + box["w"] / 2, box["y"] + box["h"] / 2)


def assert_drawn(board, checkers=30, top_count=False):
    """Every checker is a circle inside the board, the points read 1..24 in their places,
    and the centred cube reads 64. ``top_count``: the points are numbered in the count of the
    player whose home board is at the top (1 top right), as for the player on roll (issue 24).
    """
    assert len(board["checkers"]) == checkers
    assert all(inside(c, board["board"]) for c in board["checkers"])
    numbers = {n["text"]: centre(n) for n in board["numbers"]}
    assert sorted(numbers, key=int) == [str(n) for n in range(1, 25)]
    low = [numbers[str(n)] for n in range(1, 13)]  # 1 on the right .. 12 on the left
    high = [numbers[str(n)] for n in range(13, 25)]  # 13 on the left .. 24 on the right
    assert all(a[0] > b[0] for a, b in itertools.pairwise(low))
    assert all(a[0] < b[0] for a, b in itertools.pairwise(high))
    top, bottom = (low, high) if top_count else (high, low)
    assert all(t[1] < b[1] for t in top for b in bottom)
    cube = board["cube"]
    on_cube = [
        t["text"]
        for t in board["texts"]
        if cube["x"] <= centre(t)[0] <= cube["x"] + cube["w"]
        and cube["y"] <= centre(t)[1] <= cube["y"] + cube["h"]
    ]
    assert on_cube == ["64"]


@pytest.fixture(params=["en", "it"])
def lang(request):
    return request.param


# The policy config/ is to send (style-src 'self' drops inline style attributes), added here to
# every page so the board is tested as it will be served.
CSP = "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:"


def with_csp(route):
    if route.request.resource_type != "document":
        route.continue_()
        return
    response = route.fetch(max_redirects=0)
    route.fulfill(response=response, headers={**response.headers, "content-security-policy": CSP})


@pytest.fixture
def sign_in(browser, site, lang):
    """sign_in(username, password): a page in the test's language, signed in, served with a
    Content-Security-Policy, phone-wide when ``width`` says so. Inline styles the policy
    refused are listed in ``page.refused_styles``; its refusals of inline scripts are not
    (the header's language menu, outside the board, still has an onchange handler)."""

    def open_page(username, password, width=820, javascript=True):
        context = browser.new_context(
            locale=lang,
            extra_http_headers={"Accept-Language": lang},
            viewport={"width": width, "height": 1000},
            java_script_enabled=javascript,
        )
        context.route("**/*", with_csp)
        page = context.new_page()
        page.refused_styles = []

        def refused(message):
            if "style-src" in message.text:
                page.refused_styles.append(message.text)

        page.on("console", refused)
        page.goto(f"{site.url}/accounts/login/")
        page.locator("input[name=username]").fill(username)
        page.locator("input[name=password]").fill(password)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        return page

    return open_page


@pytest.fixture
def td(django_user_model, directors_group):
    user = django_user_model.objects.create_user("td", password="td-password-1")
    user.groups.add(directors_group)
    return user


def act(match, user, action, **kwargs):
    """Act on the board as the service would for a request."""
    from matches.board.service import board_game_act, board_game_current

    board_game = board_game_current(match=match)
    board_game_act(
        board_game=board_game, version=board_game.version, action=action, user=user, **kwargs
    )


def opened(match, user, dice=(3, 1)):
    """Game 1 started on the board and its opening roll made with the dice given."""
    from matches.board.service import board_game_start

    board_game_start(match=match, user=user)
    act(match, user, "opening", dice=dice)


def pips(page):
    return page.locator("#board-area text.pips").first.text_content()


def label(lang, text, **params):
    """A target's accessible name as the page gives it in ``lang``."""
    from django.utils import translation

    with translation.override(lang):
        return translation.gettext(text) % params


def press(page, key):
    """Press a key, then wait until the script has swapped in the new board."""
    old = page.locator("#board-area").element_handle()
    page.keyboard.press(key)
    page.wait_for_function("board => !board.isConnected", arg=old)


def focused(page):
    """The accessible name of the element with the focus on the board ('' elsewhere)."""
    return page.evaluate(
        "(document.activeElement.closest('#board-area') && "
        "document.activeElement.getAttribute('aria-label')) || ''"
    )


SOURCE = "Move a checker of %(name)s from %(point)s"


def test_a_play_by_clicks_draws_and_moves_the_checkers(sign_in, site, lang, td, match5):
    opened(match5, td)  # Anna to play 3-1
    page = sign_in("td", "td-password-1")
    page.goto(f"{site.url}/matches/{match5.pk}/board/")
    assert page.locator("html").get_attribute("lang") == lang
    board = seen(page)
    assert_drawn(board)
    assert len(board["targets"]) == 4  # the checkers on 24, 13, 8 and 6 may move
    assert all(inside(t, board["board"]) for t in board["targets"])
    assert pips(page) == "Anna Rossi: 167"
    # by keyboard: the link has its name, takes the focus, and Enter follows it
    eight = page.get_by_role(
        "link", name=label(lang, SOURCE, name="Anna Rossi", point=8), exact=True
    )
    eight.focus()
    press(page, "Enter")
    assert "from=8" not in page.url  # the script swapped the board in; the page stayed
    board = seen(page)
    assert len(board["targets"]) == 3  # to 5, to 7, or back
    assert all(inside(t, board["board"]) for t in board["targets"])
    # the focus stayed on the board, on a place to go; Tab reaches the others
    to_five = label(lang, "Move to %(point)s", point=5)
    names = []
    while focused(page) != to_five and len(names) < 3:
        names.append(focused(page))
        page.keyboard.press("Tab")
    assert names == [] or names == [label(lang, "Move to %(point)s", point=7)]
    press(page, "Enter")
    assert pips(page) == "Anna Rossi: 164"
    assert_drawn(seen(page))
    click(page, page.locator('#board-area a.target[data-point="6"]'))
    click(page, page.locator('#board-area button.target[data-point="5"]'))
    assert pips(page) == "Anna Rossi: 163"
    assert page.locator("#pending").text_content().endswith("8/5 6/5")
    click(page, page.locator('#board-area button[value="confirm"]'))
    # Bruno on roll now; the board stays from Anna's side (issue 14), numbered in his count
    assert_drawn(seen(page), top_count=True)  # (issue 24)
    assert page.locator("#board-area .target").count() == 0  # he has not rolled
    assert pips(page) == "Anna Rossi: 163"
    assert page.locator("#board-area text.pips").last.text_content() == "Bruno Bianchi: 167"
    assert page.refused_styles == []


def test_a_typed_play_is_shown_on_the_board_then_confirmed(sign_in, site, lang, td, match5):
    opened(match5, td)  # Anna to play 3-1
    page = sign_in("td", "td-password-1")
    page.goto(f"{site.url}/matches/{match5.pk}/board/")
    page.locator("#typed-play").fill("8/5 6/5")
    click(page, page.locator("#typed-play ~ button"))
    assert pips(page) == "Anna Rossi: 163"  # the checkers moved, the play not yet made
    assert page.locator("#pending").text_content().endswith("8/5 6/5")
    click(page, page.locator('#board-area button[value="undo"]'))
    assert pips(page) == "Anna Rossi: 164"  # 6/5 taken back
    page.locator("#typed-play").fill("13/10")  # the rules refuse it, in the page's language
    click(page, page.locator("#typed-play ~ button"))
    assert "WBF 17" in page.locator("#board-error").text_content()
    assert pips(page) == "Anna Rossi: 164"  # nothing changed
    page.locator("#typed-play").fill("8/5 6/5")
    click(page, page.locator("#typed-play ~ button"))
    click(page, page.locator('#board-area button[value="confirm"]'))
    assert pips(page) == "Anna Rossi: 163"  # Bruno on roll, the board the same way up
    assert page.locator("#board-area text.pips").last.text_content() == "Bruno Bianchi: 167"


def test_the_targets_work_without_javascript(sign_in, site, lang, td, match5):
    """The SVG link is a plain link, the button in its foreignObject submits #board-move."""
    opened(match5, td)
    page = sign_in("td", "td-password-1", javascript=False)
    page.goto(f"{site.url}/matches/{match5.pk}/board/")
    page.locator('#board-area a.target[data-point="8"]').click()
    page.wait_for_url("**/board/?from=8#board-area")
    page.locator('#board-area button.target[data-point="5"]').click()
    page.wait_for_url("**/board/")  # the move is posted, and the answer redirects to the board
    assert pips(page) == "Anna Rossi: 164"
    assert page.locator("#pending").text_content().endswith("8/5")
    assert_drawn(seen(page))
    assert page.refused_styles == []


def test_the_board_fits_a_phone_and_its_targets_are_where_the_checkers_are(
    sign_in, site, lang, td, match5
):
    opened(match5, td)
    page = sign_in("td", "td-password-1", width=390)
    page.goto(f"{site.url}/matches/{match5.pk}/board/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    board = seen(page)
    assert_drawn(board)
    for target in page.locator("#board-area a.target").all():
        point = target.get_attribute("data-point")
        box = target.bounding_box()
        # the checker drawn nearest the target's centre is inside it
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        nearest = centre(
            min(board["checkers"], key=lambda c: (centre(c)[0] - x) ** 2 + (centre(c)[1] - y) ** 2)
        )
        assert box["x"] <= nearest[0] <= box["x"] + box["width"], point
        assert box["y"] <= nearest[1] <= box["y"] + box["height"], point
        assert box["width"] >= 24 and box["height"] > 100  # WCAG 2.5.8's 24 px (issue 30)
    click(page, page.locator("#board-area a.target").first)
    for target in page.locator("#board-area .target").all():  # where it may go, and back
        assert target.bounding_box()["width"] >= 24, target.get_attribute("aria-label")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.refused_styles == []


def test_the_typed_dice_form_is_for_a_director_unless_allowed(
    sign_in, site, lang, td, match5, django_user_model
):
    from club.models import Player

    opened(match5, td)
    act(match5, td, "play", play="8/5 6/5")  # Bruno to roll
    bruno = django_user_model.objects.create_user("bruno", password="bruno-password-1")
    Player.objects.filter(pk=match5.player_b_id).update(user=bruno)
    url = f"{site.url}/matches/{match5.pk}/board/"
    director = sign_in("td", "td-password-1")
    director.goto(url)
    assert director.locator("#die1").is_visible() and director.locator("#die2").is_visible()
    player = sign_in("bruno", "bruno-password-1")
    player.goto(url)
    assert player.locator('#board-area button[value="roll"]').is_visible()  # his turn
    assert player.locator("#die1").count() == 0
    rule = player.locator("#dice-rule").text_content()
    Match.objects.filter(pk=match5.pk).update(physical_dice=True)
    player.reload()
    assert player.locator("#die1").is_visible()
    assert player.locator("#dice-rule").text_content() != rule
    old = player.locator("#board-area").element_handle()
    player.locator("#die1").select_option("6")
    player.locator("#die2").select_option("2")
    player.locator("#board-area form:has(#die1) button").click()
    player.wait_for_function("board => !board.isConnected", arg=old)
    assert_drawn(seen(player))  # Bruno's 6-2 on his board, his checkers to move
    assert player.locator("#board-area a.target").count() > 0


def test_the_game_log_steps_through_one_board_with_the_arrow_keys(sign_in, site, lang, td, match5):
    opened(match5, td)
    act(match5, td, "play", play="8/5 6/5")
    act(match5, td, "double")
    page = sign_in("td", "td-password-1")
    page.goto(f"{site.url}/matches/{match5.pk}/games/1/log/")
    assert page.locator("svg.board").count() == 1 and page.locator("#log li").count() == 3
    ids = []
    for number in (3, 2, 1):  # the last action first, then back with the left arrow key
        board = seen(page, "#shown svg.board")
        assert len(board["checkers"]) == 30
        assert all(inside(c, board["board"]) for c in board["checkers"])
        assert sorted((n["text"] for n in board["numbers"]), key=int) == [
            str(n) for n in range(1, 25)
        ]
        assert page.locator("#log li").nth(number - 1).locator("[aria-current]").count() == 1
        ids.append(page.locator("#shown .position-id").input_value())
        if number > 1:
            with page.expect_navigation():
                page.keyboard.press("ArrowLeft")
    assert ids[0] == ids[1] != ids[2]  # a double moves no checker; the play did
    with page.expect_navigation():
        page.keyboard.press("ArrowRight")
    assert page.locator("#log li").nth(1).locator("[aria-current]").count() == 1
    page.locator("#log li").nth(2).get_by_role("link").click()  # an action of the list
    page.wait_for_url("**?at=3#shown")
    position = page.locator("#shown .position-id")
    assert position.input_value() == ids[0]
    position.focus()  # the ID is selected for copying, without an inline handler
    selected = "el => el.value.substring(el.selectionStart, el.selectionEnd)"
    assert position.evaluate(selected) == position.input_value()
    page.keyboard.press("ArrowLeft")  # in the ID's box the arrow moves the caret, not the page
    assert page.url.endswith("?at=3#shown")
    assert page.refused_styles == []


# --- one orientation per device (issue 14) ------------------------------------------------


def test_the_table_view_is_kept_on_this_device(sign_in, site, lang, td, match5):
    """Chosen once on a phone-wide screen, the table view is the board's on every board page
    of that device (localStorage), and the page never scrolls sideways."""
    opened(match5, td)
    url = f"{site.url}/matches/{match5.pk}/board/"
    table = label(
        lang,
        "Board for the table: %(bottom)s at the bottom, %(top)s at the top",
        bottom="Anna Rossi",
        top="Bruno Bianchi",
    )
    page = sign_in("td", "td-password-1", width=390)
    page.goto(url)
    title = page.locator("#board-area svg.board title")
    assert title.text_content() == label(lang, "Board from the side of %(name)s", name="Anna Rossi")
    click(page, page.locator('#board-area a[data-view="table"]'))
    assert title.text_content() == table
    assert page.locator('#board-area a[data-view="table"]').get_attribute("aria-current")
    assert page.evaluate("localStorage.getItem('crawford.board.view')") == "table"
    wide = "document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(wide)
    page.goto(f"{site.url}/matches/{match5.pk}/")  # away, and back to the board's plain URL
    page.goto(url)
    page.wait_for_function("() => document.getElementById('board-area').dataset.view === 'table'")
    assert title.text_content() == table and page.url == url
    assert page.evaluate(wide)
    # the device's other board pages too: the game log draws its board the same way up
    page.goto(f"{site.url}/matches/{match5.pk}/games/1/log/")
    page.wait_for_url("**view=table**")
    assert page.locator("#shown svg.board title").text_content() == table
    assert page.evaluate(wide)
    assert page.refused_styles == []


# --- the names under the board, and a double waiting for its answer (issue 24) -------------


def overlap(a, b):
    """How far two boxes overlap, in CSS pixels on each axis (0 when apart on either)."""
    across = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    down = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0, across) if down > 0 else 0


WIDER = "svg => svg.querySelectorAll('text.pips').forEach(t => t.style.letterSpacing = '1px')"


@pytest.mark.parametrize("width", [1280, 390])
def test_the_colour_square_stands_clear_of_the_name(sign_in, site, lang, td, match5, width):
    """The square of each player's colour sits before their name, never over its first letter,
    whichever way up the board is (the table view turns the top name to face its player), and
    whatever the font: the names are drawn wider too, as a wider font than the test's draws them.
    """
    opened(match5, td)
    page = sign_in("td", "td-password-1", width=width)
    for view in ("a", "b", "table"):
        page.goto(f"{site.url}/matches/{match5.pk}/board/?view={view}")
        svg = page.locator("#board-area svg.board")
        for font in ("as served", "wider"):
            if font == "wider":
                svg.evaluate(WIDER)
            board = svg.bounding_box()
            squares = svg.locator("rect.swatch").all()
            names = svg.locator("text.pips").all()
            assert len(squares) == len(names) == 2
            for square, name in zip(squares, names, strict=True):
                box, text = square.bounding_box(), name.bounding_box()
                where = (view, font, name.text_content())
                assert overlap(box, text) == 0, where
                assert box["width"] > 5 and text["width"] > 50
                for shape in (box, text):  # on the board, not cut off at its edge
                    assert board["x"] <= shape["x"]
                    assert shape["x"] + shape["width"] <= board["x"] + board["width"]
                # before the name as its reader reads it: on the left, or the right if turned
                if name.get_attribute("transform") is not None:
                    gap = box["x"] - (text["x"] + text["width"])
                else:
                    gap = text["x"] - (box["x"] + box["width"])
                assert 2 <= gap < 15, (*where, gap)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def cube_face(board):
    """The text drawn on the cube, and any text within a cube's height above or below it."""
    cube = board["cube"]
    on = [
        t["text"]
        for t in board["texts"]
        if cube["x"] <= centre(t)[0] <= cube["x"] + cube["w"]
        and cube["y"] <= centre(t)[1] <= cube["y"] + cube["h"]
    ]
    near = [
        t["text"]
        for t in board["texts"]
        if cube["x"] <= centre(t)[0] <= cube["x"] + cube["w"]
        and abs(centre(t)[1] - centre(cube)[1]) < cube["h"] * 1.5
        and t["text"] not in on
    ]
    return on, near


def test_an_offered_cube_shows_its_new_face_until_taken(sign_in, site, lang, td, match5):
    opened(match5, td)
    act(match5, td, "play", play="8/5 6/5")  # Bruno to double or roll
    page = sign_in("td", "td-password-1", width=390)
    page.goto(f"{site.url}/matches/{match5.pk}/board/")

    def down(board):  # how far down the board the cube is (the page may scroll to a button)
        return board["cube"]["y"] - board["board"]["y"]

    centred = seen(page)
    assert cube_face(centred) == (["64"], [])
    click(page, page.locator('#board-area button[value="double"]'))  # Bruno doubles (WBF 23)
    board = seen(page)
    offered = label(lang, "offered")
    assert cube_face(board) == (["2"], [offered])  # turned to 2, and said to be offered
    assert down(board) + board["cube"]["h"] < down(centred)  # on Bruno's side, at the top
    assert inside(board["cube"], board["board"])
    click(page, page.locator('#board-area button[value="take"]'))  # Anna takes: hers at 2
    board = seen(page)
    assert cube_face(board) == (["2"], [])
    assert down(board) > down(centred) + centred["cube"]["h"]  # on Anna's side, at the bottom
    assert page.refused_styles == []
