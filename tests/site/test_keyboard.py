"""By keyboard, in a real browser (issue 30.8, 30.9): a skip link first, a focus ring that
shows on the page and on the green buttons, and a refused form that puts the focus on the
field refused, with its error read out with it."""

import os

import pytest

from tests.conftest import CHROMIUM
from tests.helpers import browser_sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

FOCUSED = "document.activeElement"


def ring(page):
    """The focused element's outline: its style and width in pixels."""
    return page.evaluate(
        f"(() => {{ const s = getComputedStyle({FOCUSED});"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()"
    )


def test_the_first_tab_offers_to_skip_to_the_content(browser, site):
    page = browser.new_page(locale="en-GB")
    page.goto(f"{site.url}/players/")
    page.keyboard.press("Tab")
    assert page.evaluate(f"{FOCUSED}.textContent") == "Skip to the content"
    box = page.evaluate(f"{FOCUSED}.getBoundingClientRect().left")
    assert box >= 0, "the skip link is seen when focused"
    page.keyboard.press("Enter")
    assert page.evaluate(f"{FOCUSED}.id") == "main"
    page.keyboard.press("Tab")  # the next stop is inside the content, not the header again
    assert page.evaluate(f"{FOCUSED}.closest('main') !== null")


def test_a_green_button_and_a_link_show_where_the_focus_is(browser, site, director):
    page = browser.new_page(locale="en-GB")
    page.goto(f"{site.url}/accounts/login/")
    page.get_by_label("Password").focus()
    page.keyboard.press("Tab")  # to the green "Sign in" button
    assert page.evaluate(f"{FOCUSED}.textContent.trim()") == "Sign in"
    style, width = ring(page)
    assert style == "solid" and width >= 2


def test_a_refused_form_puts_the_focus_on_the_field_and_reads_its_error(browser, site, director):
    page = browser.new_page(locale="en-GB")
    browser_sign_in(page, site.url, "director", "pw-director-1")
    page.goto(f"{site.url}/players/new/")
    page.evaluate("document.querySelectorAll('form').forEach(f => f.noValidate = true)")
    page.get_by_label("Email").fill("not an address")
    page.get_by_label("Email").press("Enter")
    page.wait_for_load_state()
    assert page.evaluate(f"{FOCUSED}.getAttribute('aria-invalid')") == "true"
    named = page.evaluate(f"{FOCUSED}.name")
    assert named == "name"  # the first field refused: the name is required
    described = page.evaluate(
        f"{FOCUSED}.getAttribute('aria-describedby').split(' ')"
        ".map(id => document.getElementById(id).textContent).join(' ')"
    )
    assert "This field is required" in described
