"""The board's SVG as a browser reads it, whatever the visitor's language (issue 12).

Italian writes ``339,0`` where SVG needs ``339.0``: SVG reads a comma as a separator, so a
localised number is no number at all, and a circle with no radius is not drawn. These tests
parse the SVG the board page and the game log send in Italian and check every number in it.
"""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.matches.board.test_pages import post

pytestmark = pytest.mark.django_db

NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
NUMERIC = {"x", "y", "width", "height", "cx", "cy", "r", "font-size", "stroke-width"}
LISTS = {"viewbox": 4}  # attribute: how many numbers it holds


class Elements(HTMLParser):
    """Every element of a page as (tag, attributes, inside an <svg>, inside #board-area)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str], bool]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        inside = "svg" in self.open
        self.found.append((tag, {k: v or "" for k, v in attrs}, inside or tag == "svg"))
        if tag not in {"input", "br", "meta", "link", "img"}:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        inside = "svg" in self.open
        self.found.append((tag, {k: v or "" for k, v in attrs}, inside or tag == "svg"))

    def handle_endtag(self, tag):
        if tag in self.open:
            while self.open.pop() != tag:
                pass


def svg_elements(page: str) -> list[tuple[str, dict[str, str]]]:
    parser = Elements()
    parser.feed(page)
    return [(tag, attrs) for tag, attrs, inside in parser.found if inside]


def bad_numbers(page: str) -> list[str]:
    """Every numeric SVG attribute that is not a valid SVG number, as tag.attribute="value"."""
    bad = []
    for tag, attrs in svg_elements(page):
        for name, value in attrs.items():
            if name in NUMERIC and not re.fullmatch(NUMBER, value):
                bad.append(f'{tag}.{name}="{value}"')
            elif name in LISTS:
                numbers = value.split()
                if len(numbers) != LISTS[name] or not all(re.fullmatch(NUMBER, n) for n in numbers):
                    bad.append(f'{tag}.{name}="{value}"')
            elif name == "points":
                numbers = re.split(r"[\s,]+", value.strip())
                if len(numbers) != 6 or not all(re.fullmatch(NUMBER, n) for n in numbers):
                    bad.append(f'{tag}.{name}="{value}"')
    return bad


@pytest.fixture
def italian(director_client, match5):
    """A director reading the board in Italian, Anna to play 3-1 in game 1."""
    director_client.post(reverse("board_start", args=[match5.pk]))
    post(director_client, match5, "opening", die1=3, die2=1)
    director_client.cookies["django_language"] = "it"
    return director_client


def test_every_number_in_the_italian_board_is_an_svg_number(italian, match5):
    page = italian.get(reverse("board", args=[match5.pk])).content.decode()
    assert "Tavoliere dal lato di Anna Rossi" in page  # the page is Italian
    elements = svg_elements(page)
    checkers = [attrs for tag, attrs in elements if tag == "circle"]
    assert len(checkers) == 30  # every checker is drawn, none on the bar or borne off
    assert all(float(c["r"]) > 0 for c in checkers)
    assert bad_numbers(page) == []


def test_every_number_in_the_italian_board_with_a_checker_chosen(italian, match5):
    page = italian.get(reverse("board", args=[match5.pk]) + "?from=8").content.decode()
    assert bad_numbers(page) == []
    areas = [a for tag, a in svg_elements(page) if "target" in a.get("class", "").split()]
    assert {a["data-point"] for a in areas} == {"5", "7", "8"}  # two places to go, and back


def test_svg_numbers_are_written_the_same_in_every_language():
    from django.utils import translation

    from matches.board.drawing import svg_number

    with translation.override("it"):
        assert [svg_number(v) for v in (339.0, 11.5, 0.125, -0.001)] == ["339", "11.5", "0.12", "0"]


def test_the_italian_game_log_draws_the_board_shown(italian, match5):
    post(italian, match5, "play", play="8/5 6/5")
    for at in ("1", "2"):
        page = italian.get(reverse("game_log", args=[match5.pk, 1]), {"at": at}).content.decode()
        assert '<html lang="it">' in page
        assert page.count("<svg") == 1  # one board, whatever the length of the game
        assert bad_numbers(page) == []
        assert len([1 for tag, _ in svg_elements(page) if tag == "circle"]) == 30


def test_the_board_needs_no_inline_style_or_script(italian, match5):
    """A Content-Security-Policy with style-src 'self' ignores inline style attributes, and
    script-src 'self' ignores inline handlers: the board must need neither."""
    for query in ("", "?from=8"):
        page = italian.get(reverse("board", args=[match5.pk]) + query).content.decode()
        board = page[page.index('<div id="board-area"') :]
        assert "style=" not in board and "<style" not in board
        assert not re.search(r"<script(?![^>]*\bsrc=)", board)
        assert not re.search(r"\son[a-z]+=", board)


def test_the_game_log_needs_no_inline_style_or_script(italian, match5):
    post(italian, match5, "play", play="8/5 6/5")
    page = italian.get(reverse("game_log", args=[match5.pk, 1])).content.decode()
    log = page[page.index("<h1>") :]
    assert "style=" not in log and not re.search(r"\son[a-z]+=", log)


def test_machine_read_numbers_keep_no_thousands_separator(italian, match5, settings):
    """The version is read by the script and posted back: never written as 1.234."""
    from matches.models import BoardGame

    settings.USE_THOUSAND_SEPARATOR = True
    BoardGame.objects.filter(match=match5).update(version=1234)
    page = italian.get(reverse("board", args=[match5.pk]) + "?from=8").content.decode()
    assert 'data-version="1234"' in page
    versions = re.findall(r'name="version" value="([^"]*)"', page)
    assert versions and set(versions) == {"1234"}
    url = reverse("board_act", args=[match5.pk, 1])
    response = italian.post(
        url, {"action": "move", "version": versions[0], "source": 8, "destination": 5}
    )
    assert response.status_code == 302  # the form's version is taken back as it was written


def test_a_refusal_s_page_links_back_to_the_board(italian, match5):
    """Without JavaScript a refusal is answered at the action's URL, which takes only POSTs:
    the checkers' links name the board's URL, not just ?from=N."""
    response = post(italian, match5, "play", play="13/10")  # the 1 left unplayed
    assert response.status_code == 400
    links = re.findall(r'<a href="([^"]*)" class="target source', response.content.decode())
    board = reverse("board", args=[match5.pk])
    assert len(links) == 4 and all(link.startswith(f"{board}?from=") for link in links)
    assert italian.get(links[0].split("#")[0]).status_code == 200
