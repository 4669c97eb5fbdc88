"""The board says what just happened, in words and in the numbers it prints (issue 30, points 1-3).

A player who cannot see the board hears the opponent's play from the status line, read out by the
region #board-news outside the board (static/board.js fills it after each update); these tests
read the words the server gives, in both languages, and where they sit on the page.
"""

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from matches.board.said import last_action
from rules.game import Act, Action
from rules.matchid import Resignation
from rules.messages import Message
from tests.matches.board.test_orientation import board, signed_in_player
from tests.matches.board.test_pages import post

pytestmark = pytest.mark.django_db

NAMES = ("Anna Rossi", "Bruno Bianchi")


def said(action: Action, counter: int = 0, lang: str = "en") -> str:
    with translation.override(lang):
        return last_action([action], NAMES, counter)


@pytest.mark.parametrize(
    "action, counter, words",
    [
        (Action(Act.OPENING_ROLL, 0, dice=(6, 4)), 0, "Opening roll: Anna Rossi rolled 6, "),
        (
            Action(Act.OPENING_ROLL, 0, dice=(3, 3), note=Message("note-opening-again")),
            0,
            "Opening roll 3-3: equal dice: roll again (WBF 12).",
        ),
        (Action(Act.ROLL, 1, dice=(5, 2)), 0, "Bruno Bianchi rolled 5-2."),
        (Action(Act.PLAY, 1, dice=(6, 5), play="24/13"), 1, "Bruno Bianchi played 6-5: 24/13."),
        (Action(Act.PLAY, 1, dice=(6, 5), play="24/13"), 0, "Bruno Bianchi played 6-5: 1/12."),
        (
            Action(Act.PLAY, 0, dice=(4, 4), play="bar/21*(2) 6/off"),
            1,
            "Anna Rossi played 4-4: bar/4*(2) 19/off.",
        ),
        (
            Action(Act.NO_PLAY, 1, dice=(6, 6), note=Message("note-no-play")),
            0,
            "Bruno Bianchi rolled 6-6 and cannot move: the turn is lost (WBF 17).",
        ),
        (
            Action(Act.DOUBLE, 0, note=Message("note-offers", {"cube": 4})),
            0,
            "Anna Rossi doubled: the cube is offered at 4.",
        ),
        (
            Action(Act.TAKE, 1, note=Message("note-cube", {"cube": 4})),
            0,
            "Bruno Bianchi took: the cube is at 4.",
        ),
        (Action(Act.DROP, 1), 0, "Bruno Bianchi dropped the cube."),
        (
            Action(Act.RESIGN, 0, resignation=Resignation.GAMMON),
            0,
            "Anna Rossi offers to resign a gammon.",
        ),
        (Action(Act.ACCEPT, 1), 0, "Bruno Bianchi accepted the resignation."),
        (Action(Act.REJECT, 1), 0, "Bruno Bianchi refused the resignation: the game goes on."),
    ],
)
def test_each_action_is_said_in_a_sentence(action, counter, words):
    assert said(action, counter).startswith(words)


def test_the_sentences_are_italian_with_the_rule_cited():
    no_play = Action(Act.NO_PLAY, 1, dice=(6, 6), note=Message("note-no-play"))
    assert said(no_play, lang="it") == (
        "Bruno Bianchi ha tirato 6-6 e non può muovere: perde il turno (WBF 17)."
    )
    play = Action(Act.PLAY, 1, dice=(6, 5), play="24/13")
    assert said(play, lang="it") == "Bruno Bianchi ha giocato 6-5: 1/12."
    resign = Action(Act.RESIGN, 0, resignation=Resignation.BACKGAMMON)
    assert said(resign, lang="it") == "Anna Rossi offre l’abbandono di un backgammon."


def test_nothing_is_said_before_the_first_action():
    assert last_action([], NAMES, 0) == ""


class Regions(HTMLParser):
    """Where the page's live regions and said parts are: inside #board-area or not."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0  # inside #board-area while > 0
        self.live_inside: list[str] = []
        self.news: list[dict[str, str]] = []
        self.status_focusable = False

    def handle_starttag(self, tag, attrs, closed=False):
        attrs = {k: v or "" for k, v in attrs}
        if attrs.get("id") == "board-area":
            self.depth = 1
        elif self.depth and not closed and tag not in VOID:
            self.depth += 1
        if attrs.get("id") == "board-news":
            self.news.append({**attrs, "inside": str(bool(self.depth))})
        elif self.depth and ("aria-live" in attrs or attrs.get("role") == "status"):
            self.live_inside.append(tag)
        if attrs.get("id") == "status":
            self.status_focusable = attrs.get("tabindex") == "-1"

    def handle_startendtag(self, tag, attrs):  # <rect/>: opens nothing
        self.handle_starttag(tag, attrs, closed=True)

    def handle_endtag(self, tag):
        if self.depth and tag not in VOID:
            self.depth -= 1


VOID = {"input", "br", "img", "meta", "link", "hr"}


def regions(page: str) -> Regions:
    parser = Regions()
    parser.feed(page)
    return parser


@pytest.fixture
def bruno_played(director_client, match5, django_user_model):
    """Anna's opening 3-1 (8/5 6/5), Bruno's 6-5 (24/13, in his count), Anna to roll."""
    director_client.post(reverse("board_start", args=[match5.pk]))
    post(director_client, match5, "opening", die1=3, die2=1)
    post(director_client, match5, "play", play="8/5 6/5")
    post(director_client, match5, "roll", die1=6, die2=5)
    post(director_client, match5, "play", play="24/18 18/13")
    return match5


def status(page: str) -> str:
    found = re.search(r'<p id="status"[^>]*>(.*?)</p>', page, re.S)
    assert found, "the board has a status line"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def test_the_opponent_s_play_is_said_in_the_numbers_the_watcher_s_board_prints(
    django_user_model, bruno_played
):
    anna = signed_in_player(django_user_model, bruno_played, 0)
    bruno = signed_in_player(django_user_model, bruno_played, 1)
    page = board(anna, bruno_played)
    # Bruno's 24/13 is Anna's 1/12: from the 1 her board prints to its 12, as it reads them
    assert "Bruno Bianchi played 6-5: 1/12." in status(page)
    assert "Point 1: 1 checker of Bruno Bianchi" in page
    assert "Point 12: 6 checkers of Bruno Bianchi" in page
    assert "Anna Rossi is to double or roll." in status(page)
    page = board(bruno, bruno_played)  # his own count on his own board
    assert "Bruno Bianchi played 6-5: 24/13." in status(page)
    assert "Point 24: 1 checker of Bruno Bianchi" in page
    spectator = board(Client(), bruno_played)  # numbered for Anna, on roll
    assert "The points are numbered for Anna Rossi, on roll." in spectator
    assert "Bruno Bianchi played 6-5: 1/12." in status(spectator)


def test_the_moves_so_far_are_in_the_watcher_s_count_too(
    director_client, django_user_model, bruno_played
):
    anna = signed_in_player(django_user_model, bruno_played, 0)
    bruno = signed_in_player(django_user_model, bruno_played, 1)
    post(director_client, bruno_played, "roll", die1=4, die2=2)
    post(director_client, bruno_played, "play", play="8/4 6/4")  # Anna's 4-2
    post(director_client, bruno_played, "roll", die1=3, die2=1)  # Bruno's 3-1
    post(bruno, bruno_played, "move", source=13, destination=10)
    assert "Moved so far: 13/10" in status(board(bruno, bruno_played))
    assert "Moved so far: 12/15" in status(board(anna, bruno_played))  # her 12 is his 13


def test_the_last_action_is_said_in_italian(director_client, bruno_played):
    director_client.cookies["django_language"] = "it"
    page = board(director_client, bruno_played)
    assert "Bruno Bianchi ha giocato 6-5: 1/12." in status(page)


def test_the_announcements_region_stays_outside_the_board_the_script_replaces(
    director_client, bruno_played
):
    html = board(director_client, bruno_played)
    page = regions(html.replace('<p id="status"', '<p id="status" aria-live="polite"'))
    assert page.live_inside == ["p"]  # the parser does find a live region inside the board
    page = regions(html)
    assert [(n["role"], n["inside"]) for n in page.news] == [("status", "False")]
    assert page.live_inside == []  # nothing inside announces itself: #board-news says it
    assert page.status_focusable  # where the focus goes when nothing is left to press
    fragment = director_client.get(
        reverse("board", args=[bruno_played.pk]), headers={"X-Board": "1"}
    ).content.decode()
    assert 'id="board-news"' not in fragment and 'class="last-action said"' in fragment


def test_a_refused_typed_play_comes_back_in_its_box_to_be_corrected(director_client, bruno_played):
    post(director_client, bruno_played, "roll", die1=3, die2=1)
    for headers in ({}, {"X-Board": "1"}):  # without the script, and the script's fragment
        board_game = bruno_played.board_games.get()
        response = director_client.post(
            reverse("board_act", args=[bruno_played.pk, 1]),
            {"action": "type", "version": board_game.version, "play": "13/10"},
            headers=headers,
        )
        assert response.status_code == 400
        page = response.content.decode()
        assert "Both dice can be played, so both must be (WBF 17)." in page
        box = re.search(r'<input id="typed-play"[^>]*>', page).group(0)
        assert 'value="13/10"' in box and 'aria-invalid="true"' in box
        assert 'aria-describedby="board-error"' in box and 'id="board-error"' in page
    page = board(director_client, bruno_played)  # asked again: an empty box
    box = re.search(r'<input id="typed-play"[^>]*>', page).group(0)
    assert "value=" not in box and "aria-invalid" not in box
