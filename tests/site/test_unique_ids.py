"""Every page's ids are its own once, and every control has a name (issue 30.7).

Two forms on one page with the same field made two elements with one id: a label then ticks
the other form's box, and a screen reader names the wrong control. The walk is the
permission walk's (tests/test_permissions.py): every page of the site, as a visitor, a
player and this tournament's director."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from matches.board.service import board_game_act
from tests.test_permissions import fill, ours, site_patterns  # noqa: F401 (ours: a fixture)

pytestmark = pytest.mark.django_db

UNNAMED_TYPES = {"hidden", "submit", "button", "reset", "image"}


class Controls(HTMLParser):
    """The ids of a page, its labels' targets, and its form controls with how each is named."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.labelled: set[str] = set()
        self.controls: list[dict[str, str | None]] = []
        self.in_label = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids[found["id"] or ""] += 1
        if tag == "label":
            self.in_label += 1
            if found.get("for"):
                self.labelled.add(found["for"] or "")
        if tag in ("input", "select", "textarea"):
            if tag == "input" and (found.get("type") or "text") in UNNAMED_TYPES:
                return
            self.controls.append({**found, "tag": tag, "wrapped": "1" if self.in_label else ""})

    def handle_endtag(self, tag: str) -> None:
        if tag == "label" and self.in_label:
            self.in_label -= 1

    def unnamed(self) -> list[str]:
        said = []
        for control in self.controls:
            named = (
                control["wrapped"]
                or control.get("aria-label")
                or control.get("aria-labelledby")
                or control.get("title")
                or (control.get("id") and control["id"] in self.labelled)
            )
            if not named:
                name, id_ = control.get("name"), control.get("id")
                said.append(f"<{control['tag']} name={name!r} id={id_!r}>")
        return said


def pages(ours):  # noqa: F811 (the fixture's value)
    for route, _ in site_patterns():
        if route.startswith("api/"):
            continue
        yield fill(route, ours)
    yield ours["other match"].get_absolute_url()  # no game yet: the walkover's form
    match, board = ours["match"], ours["board"]  # a game log with an action: its board image
    yield reverse("game_log", args=[match.pk, board.number])


@pytest.mark.parametrize("who", ["anonymous", "player", "director"])
def test_no_page_has_an_id_twice_or_a_control_without_a_name(
    client,
    ours,  # noqa: F811 (the permission walk's fixture)
    director,
    who,
):
    if who == "director":
        client.force_login(director)
    elif who == "player":
        player = ours["player"]
        from django.contrib.auth.models import User

        player.user = User.objects.create_user("walker", password="pw-walker-1")
        player.save(update_fields=["user"])
        client.force_login(player.user)
    board = ours["board"]
    board_game_act(
        board_game=board, version=board.version, action="opening", dice=(3, 1), user=director
    )
    problems = []
    for path in pages(ours):
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parsed = Controls()
        parsed.feed(response.content.decode())
        twice = sorted(i for i, n in parsed.ids.items() if n > 1)
        if twice:
            problems.append(f"{path}: ids twice {twice}")
        if parsed.unnamed():
            problems.append(f"{path}: without a name {parsed.unnamed()}")
    assert not problems, "\n".join(problems)
