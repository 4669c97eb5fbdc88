"""A chouette's game on the board, on phones: the captain moves at 390 px, a member answers
the box's double on their own phone in Italian, and the box's page shows every cube
(Galore 3.3). The dice come from the test settings' seed, so the game is the same each run."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from money.board.state import BOX, TEAM
from money.models import Table, TableMove
from rules.game import Phase
from tests.conftest import CHROMIUM
from tests.money.test_board import act, board_now, ids, make_table, phones, play_until, user_of

__all__ = ["phones"]  # the fixture, shared with the service tests

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]


def phone(browser, site, user, lang="en", width=390):
    """A page signed in as ``user`` in a context of its own, a phone's size by default."""
    client = Client()
    client.force_login(user)
    small = width < 600
    context = browser.new_context(
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        viewport={"width": width, "height": 844 if small else 900},
        is_mobile=small,
        has_touch=small,
    )
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": site.url}])
    return context.new_page()


def click(page, target):
    """Click, then wait until the script has swapped in the new board."""
    old = page.locator("#board-area").element_handle()
    target.click()
    page.wait_for_function("board => !board.isConnected", arg=old)


def test_captain_moves_on_a_phone_a_member_answers_in_italian_the_box_sees_both_cubes(
    browser, site, phones
):
    table = make_table(phones, 3, "chouette")
    box, captain, member = ids(phones)[:3]
    act(table, user_of(phones, captain), "start")
    play_until(
        table,
        phones,
        lambda b: b.game.phase is Phase.ROLL and b.game.turn == TEAM and b.game.turns[BOX] > 0,
    )
    url = f"{site.url}/tables/{table.pk}/board/"

    # the captain rolls and moves for the team, on a 390 px phone
    captain_page = phone(browser, site, user_of(phones, captain))
    captain_page.goto(url)
    assert captain_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    plays = TableMove.objects.filter(table=table, data__act="play").count()
    click(captain_page, captain_page.get_by_role("button", name="Roll", exact=True))
    for _ in range(8):
        confirm = captain_page.get_by_role("button", name="Confirm the play")
        if confirm.count():
            click(captain_page, confirm)
            break
        click(captain_page, captain_page.locator("a.target.source").first)
        click(captain_page, captain_page.locator("button.target.destination").first)
    assert TableMove.objects.filter(table=table, data__act="play").count() == plays + 1
    play_until(table, phones, lambda b: b.game.phase is Phase.ROLL and b.game.turn == BOX)

    # the box doubles the team from its own page (a laptop), which lists each member's cube
    box_page = phone(browser, site, user_of(phones, box), width=1280)
    box_page.goto(url)
    click(box_page, box_page.get_by_role("button", name="Double the team to 2"))
    assert box_page.locator("#cubes li.awaiting").count() == 2

    # the member answers on their own phone, in Italian
    member_page = phone(browser, site, user_of(phones, member), lang="it")
    member_page.goto(url)
    assert member_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    click(member_page, member_page.get_by_role("button", name="Accetta"))
    assert member_page.get_by_role("button", name="Accetta").count() == 0
    captain_page.reload()  # the board it drew before the services played on is out of date
    click(captain_page, captain_page.get_by_role("button", name="Take", exact=True))

    # the box's page, refreshed by its poll, shows both cubes at 2, taken by the members
    expect(box_page.locator("#cubes li.awaiting")).to_have_count(0, timeout=15_000)
    rows = box_page.locator("#cubes li")
    assert rows.count() == 2
    assert [rows.nth(i).locator(".cube-face").inner_text() for i in range(2)] == ["2", "2"]
    assert board_now(Table.objects.get(pk=table.pk)).awaiting == ()
