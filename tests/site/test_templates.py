"""The templates as a newcomer reads them (issue 26): no line so long it has to be scrolled.

Long lines hid whole ``{% if %}`` chains (the board's SVG was one of 685 characters); a line
is split where HTML ignores the whitespace, or the logic moves to Python
(``matches/board/drawing.py`` writes each SVG element).
"""

from tests.conftest import ROOT

LONGEST = 160  # characters: the house's limit for a template line


def template_files():
    for folder in [ROOT / "templates", *ROOT.glob("*/templates")]:
        yield from sorted(folder.rglob("*.html"))


def test_the_templates_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in template_files()}
    assert {"templates/base.html", "templates/includes/board_svg.html"} <= names


def test_no_template_line_is_longer_than_the_limit():
    too_long = [
        f"{path.relative_to(ROOT)}:{number}: {len(line)} characters"
        for path in template_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if len(line) > LONGEST
    ]
    assert not too_long, f"template lines over {LONGEST} characters:\n" + "\n".join(too_long)


def test_no_comment_tag_is_left_open_at_the_end_of_a_line():
    """Django's ``{# #}`` ends on its own line: one spread over two lines is printed on the
    page, words and all (the board's first note about its announcements was)."""
    open_comments = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in template_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert not open_comments, "use {% comment %} for more than one line:\n" + "\n".join(
        open_comments
    )
