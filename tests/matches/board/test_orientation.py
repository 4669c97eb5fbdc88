"""The board one way up per device, each colour's player named, the score in the header's order
(issue 14), through the views as a browser without JavaScript meets them."""

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from matches.board.drawing import COLOURS, MIDDLE, TOP
from matches.models import BoardGame
from tests.matches.board.test_pages import post

pytestmark = pytest.mark.django_db


class Svg(HTMLParser):
    """The board's texts (with their class and turn) and checkers, as the page sends them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[dict[str, str]] = []
        self.circles: list[dict[str, str]] = []
        self.targets: list[dict[str, str]] = []
        self._text: dict[str, str] | None = None
        self._box: dict[str, str] = {}  # the foreignObject a destination's button sits in
        self.cube_rect: dict[str, str] = {}
        self.cube_face = ""  # the text drawn right after the cube's square

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        if tag == "text":
            self._text = {**attrs, "text": ""}
        elif tag == "rect" and "cube" in attrs.get("class", "").split():
            self.cube_rect = attrs
        elif tag == "circle":
            self.circles.append(attrs)
        elif tag == "a" and "target" in attrs.get("class", "").split():
            self.targets.append(attrs)
        elif tag == "foreignobject":
            self._box = {"x": attrs["x"], "y": attrs["y"]}
        elif tag == "button" and "target" in attrs.get("class", "").split():
            self.targets.append({**attrs, **self._box})
        elif tag == "rect" and self.targets and "y" not in self.targets[-1]:
            self.targets[-1].update(x=attrs["x"], y=attrs["y"])

    def handle_data(self, data):
        if self._text is not None:
            self._text["text"] += data

    def handle_endtag(self, tag):
        if tag == "text" and self._text is not None:
            if self.cube_rect and not self.cube_face:
                self.cube_face = self._text["text"]
            self.texts.append(self._text)
            self._text = None

    def numbers(self, bottom: bool) -> list[tuple[float, str, bool]]:
        """The point numbers of the bottom (or top) row, left to right: (x, text, turned)."""
        row = [
            (float(t["x"]), t["text"], "transform" in t)
            for t in self.texts
            if t.get("class") == "number" and (float(t["y"]) > MIDDLE) == bottom
        ]
        return sorted(row)

    def printed_under(self, target: dict[str, str]) -> str:
        """The point number printed at the edge beside a target's column."""
        x, top = float(target["x"]) + 13, float(target["y"]) < MIDDLE
        return next(
            t["text"]
            for t in self.texts
            if t.get("class") == "number" and float(t["x"]) == x and (float(t["y"]) < MIDDLE) == top
        )

    def cube(self) -> tuple[str, str]:
        """The cube's face, and the word beside it ("" when none)."""
        words = [t["text"] for t in self.texts if t.get("class") == "offered"]
        return self.cube_face, "".join(words)


def svg(page: str) -> Svg:
    parser = Svg()
    parser.feed(page)
    return parser


def board(client, match, query=""):
    response = client.get(reverse("board", args=[match.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def bruno_on_roll(director_client, match5):
    """Anna played her opening 3-1 (8/5 6/5): Bruno is to double or roll."""
    director_client.post(reverse("board_start", args=[match5.pk]))
    post(director_client, match5, "opening", die1=3, die2=1)
    post(director_client, match5, "play", play="8/5 6/5")
    return match5


def test_the_board_stays_one_way_up_whoever_is_on_roll(director_client, bruno_on_roll):
    page = board(director_client, bruno_on_roll)  # Bruno on roll; a director's default: A
    assert "Board from the side of Anna Rossi" in page
    # Anna's home board stays bottom right: her 6 point (4 checkers after 6/5) is drawn there
    drawn = svg(page)
    bottom = drawn.numbers(bottom=True)
    six = [c for c in drawn.circles if float(c["cy"]) > MIDDLE and float(c["cx"]) == bottom[-6][0]]
    assert len(six) == 4 and {c["fill"] for c in six} == {COLOURS[0]}
    # ...but the points are numbered for Bruno, on roll, whose play is to be written (issue 24)
    assert "The points are numbered for Bruno Bianchi, on roll." in page
    assert "Point 1: 2 checkers of Anna Rossi" in page  # Anna's 24 point, Bruno's 1
    assert [text for _, text, _ in bottom] == [str(n) for n in range(13, 25)]  # 24 on the right
    assert [text for _, text, _ in drawn.numbers(bottom=False)] == [
        str(n) for n in range(12, 0, -1)
    ]
    post(director_client, bruno_on_roll, "roll", die1=6, die2=5)
    post(director_client, bruno_on_roll, "play", play="24/18 18/13")  # Anna on roll again
    page = board(director_client, bruno_on_roll)
    assert "The points are numbered for Anna Rossi, on roll." in page
    assert [text for _, text, _ in svg(page).numbers(bottom=True)] == [
        str(n) for n in range(12, 0, -1)
    ]


def test_the_view_parameter_puts_the_other_home_board_at_the_bottom(director_client, bruno_on_roll):
    page = board(director_client, bruno_on_roll, "?view=b")
    assert "Board from the side of Bruno Bianchi" in page
    assert "Point 1: 2 checkers of Anna Rossi" in page  # Anna's 24 point is Bruno's 1
    assert "Point 6: 5 checkers of Bruno Bianchi" in page
    # Bruno's checkers (dark) fill his home board, bottom right: his 6 point is drawn low
    drawn = svg(page)
    six = next(x for x, text, _ in drawn.numbers(bottom=True) if text == "6")
    below = [c for c in drawn.circles if float(c["cy"]) > MIDDLE and float(c["cx"]) == six]
    assert len(below) == 5 and {c["fill"] for c in below} == {COLOURS[1]}
    assert "Board from the side of Anna Rossi" in board(director_client, bruno_on_roll, "?view=a")
    assert "Board from the side of Anna Rossi" in board(director_client, bruno_on_roll, "?view=x")


def test_a_player_s_own_side_is_at_the_bottom_by_default(client, django_user_model, bruno_on_roll):
    from club.models import Player

    user = django_user_model.objects.create_user("bruno", password="bruno-password-1")
    Player.objects.filter(pk=bruno_on_roll.player_b_id).update(user=user)
    client.force_login(user)
    page = board(client, bruno_on_roll)
    assert "Board from the side of Bruno Bianchi" in page
    assert "My side at the bottom" in page
    assert "Board from the side of Anna Rossi" in board(client, bruno_on_roll, "?view=a")
    assert "Board from the side of Anna Rossi" in board(Client(), bruno_on_roll)  # a spectator


def test_the_mover_at_the_top_clicks_where_their_checkers_are(director_client, bruno_on_roll):
    post(director_client, bruno_on_roll, "roll", die1=6, die2=5)  # Bruno, drawn at the top
    drawn = svg(board(director_client, bruno_on_roll))
    targets = {t["data-point"]: t for t in drawn.targets}
    assert set(targets) == {"24", "13", "8"}  # in Bruno's own numbering (his 6-1 is blocked)
    bottom = dict((text, x) for x, text, _ in drawn.numbers(bottom=True))
    top = dict((text, x) for x, text, _ in drawn.numbers(bottom=False))
    # Bruno's 8 point is drawn where Anna's 17 is (top row), his 24 where her 1 is (bottom
    # row); numbered in his count, they read 8 and 24 (issue 24)
    assert float(targets["8"]["y"]) == TOP and float(targets["8"]["x"]) + 13 == top["8"]
    assert float(targets["24"]["y"]) > MIDDLE - 50
    assert float(targets["24"]["x"]) + 13 == bottom["24"]


def test_the_table_view_numbers_each_edge_for_the_player_sitting_there(
    director_client, bruno_on_roll
):
    page = board(director_client, bruno_on_roll, "?view=table")
    assert "Board for the table: Anna Rossi at the bottom, Bruno Bianchi at the top" in page
    drawn = svg(page)
    bottom, top = drawn.numbers(bottom=True), drawn.numbers(bottom=False)
    # Bruno on roll: every number in his count, turned to face him (issue 24): his 1 point
    # on his right, his 24 (Anna's 1) at the bottom right
    assert [(text, turned) for _, text, turned in top] == [(str(n), True) for n in range(12, 0, -1)]
    assert [(text, turned) for _, text, turned in bottom] == [(str(n), True) for n in range(13, 25)]
    post(director_client, bruno_on_roll, "roll", die1=6, die2=5)
    post(director_client, bruno_on_roll, "play", play="24/18 18/13")  # Anna on roll: her count
    drawn = svg(board(director_client, bruno_on_roll, "?view=table"))
    assert [(text, turned) for _, text, turned in drawn.numbers(bottom=True)] == [
        (str(n), False) for n in range(12, 0, -1)
    ]
    names = {t["text"]: "transform" in t for t in drawn.texts if t.get("class") == "pips"}
    assert names == {"Anna Rossi: 163": False, "Bruno Bianchi: 156": True}
    turns = [t["transform"] for t in drawn.texts if "transform" in t]
    assert all(re.fullmatch(r"rotate\(180 \d+(\.\d+)? \d+(\.\d+)?\)", t) for t in turns)


def test_a_chosen_view_is_carried_by_links_and_forms_without_javascript(
    director_client, bruno_on_roll
):
    post(director_client, bruno_on_roll, "roll", die1=6, die2=5)
    page = board(director_client, bruno_on_roll, "?view=table")
    assert re.search(r'href="/matches/\d+/board/\?from=13&amp;view=table#board-area"', page)
    actions = re.findall(r'<form method="post" action="([^"]+)"', page)
    assert actions and all(a.endswith("?view=table") for a in actions)
    board_game = BoardGame.objects.get(match=bruno_on_roll)
    url = reverse("board_act", args=[bruno_on_roll.pk, 1]) + "?view=table"
    data = {"action": "move", "version": board_game.version, "source": 13, "destination": 7}
    response = director_client.post(url, data)
    assert response.status_code == 302 and response["Location"].endswith("/board/?view=table")
    chosen = board(director_client, bruno_on_roll, "?view=b")
    assert 'aria-current="true">Bruno Bianchi at the bottom</a>' in chosen


@pytest.mark.parametrize("lang", ["en", "it"])
def test_each_colour_s_player_is_named_beside_the_board(director_client, bruno_on_roll, lang):
    director_client.cookies["django_language"] = lang
    page = board(director_client, bruno_on_roll, "?view=b")
    legend = page[
        page.index('id="board-players"') : page.index("</ul>", page.index("board-players"))
    ]
    if lang == "en":
        assert legend.index("White: Anna Rossi") < legend.index("Black: Bruno Bianchi")
        assert "163 pips" in legend and "167 pips" in legend
    else:
        assert '<html lang="it">' in page
    # A then B as in the header, whichever is at the bottom; each with their checkers' swatch
    assert legend.index("Anna Rossi") < legend.index("Bruno Bianchi")
    assert re.findall(r'class="swatch (\w+)"', legend) == ["white", "black"]
    assert "163" in legend and "167" in legend  # pip counts, not localised


def score_texts(page):
    box = re.search(r'<strong id="score">([^<]+)</strong>', page).group(1)
    tray = [t["text"] for t in svg(page).texts if t.get("class") == "score"]
    return box, tray


@pytest.mark.parametrize("view", ["", "?view=a", "?view=b", "?view=table"])
def test_the_score_reads_in_the_header_s_order_whatever_the_orientation(
    director_client, match5, record, view
):
    record(match5, 1)  # Bruno (B) won game 1: 0-1
    director_client.post(reverse("board_start", args=[match5.pk]))
    post(director_client, match5, "opening", die1=1, die2=3)  # Bruno on roll
    page = board(director_client, match5, view)
    assert "<h1><a href" in page and "Anna Rossi – Bruno Bianchi</a></h1>" in page
    assert score_texts(page) == ("0–1", ["0–1"])
    assert "Score Anna Rossi 0, Bruno Bianchi 1, match to 5." in page


def test_the_board_s_answer_to_the_action_ending_a_game_has_the_new_score(
    director_client, bruno_on_roll
):
    post(director_client, bruno_on_roll, "double")
    board_game = BoardGame.objects.get(match=bruno_on_roll)
    response = director_client.post(
        reverse("board_act", args=[bruno_on_roll.pk, 1]) + "?view=table",
        {"action": "drop", "version": board_game.version},
        headers={"X-Board": "1"},
    )
    page = response.content.decode()
    assert response.status_code == 200 and page.startswith('<div id="board-area"')
    assert score_texts(page) == ("0–1", ["0–1"])  # not the 0-0 the game began at
    assert 'data-score="0–1"' in page and "Bruno Bianchi wins 1 point" in page
    assert "Board for the table" in page  # the device's view kept


def test_the_poll_notices_a_game_recorded_by_hand(director_client, bruno_on_roll, record):
    post(director_client, bruno_on_roll, "double")
    post(director_client, bruno_on_roll, "drop")  # game 1 to Bruno on the board: 0-1
    version = BoardGame.objects.get(match=bruno_on_roll).version
    url = reverse("board", args=[bruno_on_roll.pk])
    poll = {"since": version, "n": 1, "s": "0–1", "view": "b"}
    assert director_client.get(url, poll, headers={"X-Board": "1"}).status_code == 204
    record(bruno_on_roll, 0)  # game 2 written on the match page by hand: 1-1
    response = director_client.get(url, poll, headers={"X-Board": "1"})
    assert response.status_code == 200
    page = response.content.decode()
    assert score_texts(page)[0] == "1–1" and "Board from the side of Bruno Bianchi" in page


def test_the_game_log_is_drawn_the_way_up_the_device_keeps(director_client, bruno_on_roll):
    url = reverse("game_log", args=[bruno_on_roll.pk, 1])
    page = director_client.get(url, {"at": 1}).content.decode()  # Anna on roll
    assert "Board from the side of Anna Rossi" in page and 'data-view=""' in page
    page = director_client.get(url, {"at": 1, "view": "b"}).content.decode()
    assert "Board from the side of Bruno Bianchi" in page and 'data-view="b"' in page
    assert "?at=2&amp;view=b#shown" in page  # the next action, drawn the same way up


# --- one numbering for the printed points, the click targets and a typed play (issue 24) ---


def signed_in_player(django_user_model, match, side: int) -> Client:
    from club.models import Player

    username = ("anna", "bruno")[side]
    user = django_user_model.objects.create_user(username, password=f"{username}-password-1")
    Player.objects.filter(pk=(match.player_a_id, match.player_b_id)[side]).update(user=user)
    client = Client()
    client.force_login(user)
    return client


def assert_targets_read_as_printed(client, match, view: str, mover: str) -> None:
    """Every checker to choose, and every place it may go, is named by the number printed
    beside it, and sends that number (the count a typed play uses)."""
    query = f"?view={view}" if view else ""
    drawn = svg(board(client, match, query))
    assert drawn.targets, view
    for target in drawn.targets:
        number = target["data-point"]
        assert target["aria-label"] == f"Move a checker of {mover} from {number}"
        assert drawn.printed_under(target) == number, (view, target["aria-label"])
    chosen = drawn.targets[0]["data-point"]
    query = f"?from={chosen}" + (f"&view={view}" if view else "")
    drawn = svg(board(client, match, query))
    destinations = [t for t in drawn.targets if t.get("name") == "destination"]
    assert destinations, (view, chosen)
    for target in destinations:
        number = target["data-point"]
        assert target["aria-label"] == f"Move to {number}"
        assert drawn.printed_under(target) == number, (view, target["aria-label"])


@pytest.mark.parametrize("view", ["", "a", "b", "table"])
def test_a_director_s_targets_carry_the_numbers_printed_beside_them(
    director_client, bruno_on_roll, view
):
    post(director_client, bruno_on_roll, "roll", die1=6, die2=5)  # Bruno to play 6-5
    assert_targets_read_as_printed(director_client, bruno_on_roll, view, "Bruno Bianchi")
    page = board(director_client, bruno_on_roll, f"?view={view}")
    assert page.count("The points are numbered for Bruno Bianchi, on roll.") == 2  # desc, hint
    post(director_client, bruno_on_roll, "play", play="24/18 18/13")
    post(director_client, bruno_on_roll, "roll", die1=4, die2=2)  # Anna to play 4-2
    assert_targets_read_as_printed(director_client, bruno_on_roll, view, "Anna Rossi")


@pytest.mark.parametrize("view", ["", "a", "b", "table"])
def test_a_player_s_targets_and_numbers_are_in_their_own_count(
    director_client, django_user_model, bruno_on_roll, view
):
    anna = signed_in_player(django_user_model, bruno_on_roll, 0)
    bruno = signed_in_player(django_user_model, bruno_on_roll, 1)
    query = f"?view={view}" if view else ""
    post(director_client, bruno_on_roll, "roll", die1=6, die2=5)  # Bruno to play (dice typed)
    assert_targets_read_as_printed(bruno, bruno_on_roll, view, "Bruno Bianchi")
    watching = board(anna, bruno_on_roll, query)  # Anna watches: her own count, nothing to click
    assert "The points are numbered for Anna Rossi." in watching
    assert "Point 24: 2 checkers of Anna Rossi" in watching and not svg(watching).targets
    post(bruno, bruno_on_roll, "play", play="24/18 18/13")
    post(director_client, bruno_on_roll, "roll", die1=4, die2=2)
    assert_targets_read_as_printed(anna, bruno_on_roll, view, "Anna Rossi")
    assert "The points are numbered for Bruno Bianchi." in board(bruno, bruno_on_roll, query)


def test_a_typed_play_lands_on_the_points_printed(director_client, bruno_on_roll):
    """The director, Anna's side at the bottom, types Bruno's 6-5 as the numbers read."""
    post(director_client, bruno_on_roll, "roll", die1=6, die2=5)
    assert post(director_client, bruno_on_roll, "type", play="13/7 13/8").status_code == 302
    page = board(director_client, bruno_on_roll)
    assert "Moved so far: 13/7 13/8" in page
    drawn = svg(page)
    columns = {text: x for x, text, _ in drawn.numbers(bottom=False)}

    def dark(number):
        return sum(
            1
            for c in drawn.circles
            if float(c["cx"]) == columns[number] and float(c["cy"]) < MIDDLE
            if c["fill"] == COLOURS[1]
        )

    assert (dark("7"), dark("8"), dark("12")) == (1, 4, 0)  # 8 had 3 (a dark 13 is bottom)
    assert "Point 7: 1 checker of Bruno Bianchi" in page


# --- a double waiting for its answer (issue 24) ----------------------------------------------


@pytest.mark.parametrize("view", ["", "b", "table"])
def test_an_offered_cube_shows_the_value_offered_until_answered(
    director_client, bruno_on_roll, view
):
    query = f"?view={view}" if view else ""
    assert svg(board(director_client, bruno_on_roll, query)).cube() == ("64", "")
    post(director_client, bruno_on_roll, "double")  # Bruno offers 2 (WBF 23)
    page = board(director_client, bruno_on_roll, query)
    drawn = svg(page)
    assert drawn.cube() == ("2", "offered")
    assert "offered" in drawn.cube_rect["class"].split()
    assert "Bruno Bianchi offers the cube at 2." in page and "Cube at 1." in page
    # on the doubler's side: Bruno's home board is at the top unless he is at the bottom
    assert (float(drawn.cube_rect["y"]) > MIDDLE) == (view == "b")
    post(director_client, bruno_on_roll, "take")  # Anna takes: hers, at 2, no longer offered
    drawn = svg(board(director_client, bruno_on_roll, query))
    assert drawn.cube() == ("2", "")
    assert (float(drawn.cube_rect["y"]) > MIDDLE) == (view != "b")


def test_an_offered_cube_reads_offerto_in_italian(director_client, bruno_on_roll):
    post(director_client, bruno_on_roll, "double")
    director_client.cookies["django_language"] = "it"
    page = board(director_client, bruno_on_roll)
    assert svg(page).cube() == ("2", "offerto")
    assert "Bruno Bianchi offre il cubo a 2." in page
