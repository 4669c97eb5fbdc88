"""Live pages in a real browser (headless Debian chromium): a phone's bracket page shows a
result recorded elsewhere without being reloaded, and the wall display shows a notice the
director posts, going through its screens by itself."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]


@pytest.fixture
def quick(settings):
    """Pages that ask every second and a wall that changes screen every two."""
    settings.LIVE_REFRESH_SECONDS = 1
    settings.WALL_SCREEN_SECONDS = 2


def test_the_bracket_updates_itself_after_a_result_is_recorded(
    browser, site, quick, event_with, director, finish
):
    from matches.models import Match
    from tournaments.models import Event
    from tournaments.services import event_draw

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=2, user=director)
    match = Match.objects.filter(place__event=event).order_by("pk").first()
    key = match.place.bracket_key
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    answers = []
    page.on("response", lambda r: answers.append(r.status) if "/bracket/" in r.url else None)
    page.goto(f"{site.url}/events/{event.pk}/bracket/")
    box = page.locator(f"#box-{key}")
    expect(box.locator(".line.won")).to_have_count(0)
    # nothing changed: the page's polls are answered 304 and nothing is swapped
    page.wait_for_function(
        "() => performance.getEntriesByType('resource')"
        ".filter(e => e.name.includes('/bracket/')).length >= 2"
    )
    assert 304 in answers and answers.count(200) == 1, answers
    finish(match, match.player_b)
    expect(box.locator(".line.won")).to_have_count(1, timeout=10_000)
    expect(box.locator(".line.won .name")).to_have_text(match.player_b.name)
    assert answers.count(200) == 2  # the page itself, then the content once after the result
    context.close()


def test_the_wall_shows_a_posted_announcement_and_cycles_its_screens(
    browser, site, quick, event_with, director
):
    from tournaments.announcements import announcement_post
    from tournaments.models import Event
    from tournaments.services import event_draw

    knockout = event_with(Event.Format.SINGLE, 4)
    event_draw(event=knockout, seed=2, user=director)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if "Content-Security" in m.text else None)
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(f"{site.url}/tournaments/{knockout.tournament_id}/wall/")
    screens = page.locator("[data-screen]")
    expect(screens).to_have_count(2)  # the bracket, now playing
    expect(page.locator("[data-screen]:visible")).to_have_count(1)
    first = page.locator("[data-screen]:visible").get_attribute("data-screen")
    page.wait_for_function(
        "(first) => document.querySelector('[data-wall]').dataset.showing !== first", arg=first
    )
    expect(page.locator(".announcements")).to_have_count(0)
    announcement_post(
        tournament=knockout.tournament, text="Prize-giving at 19:30 in the bar", user=director
    )
    notice = page.locator(".wall-head .announcements .notice-text")
    expect(notice).to_have_text("Prize-giving at 19:30 in the bar", timeout=10_000)
    size = notice.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 40, size  # read from across the room
    assert not errors, errors  # nothing refused by the Content-Security-Policy
    assert all(url.endswith("/favicon.ico") for url in missing), missing
    context.close()


def test_the_wall_pauses_by_keyboard_and_catches_up_when_it_goes_on(
    browser, site, quick, event_with, director
):
    """WCAG 2.2.2: what moves and updates by itself can be paused. Paused, the wall keeps its
    screen and asks nothing; a notice posted meanwhile shows once it goes on."""
    from tournaments.announcements import announcement_post
    from tournaments.models import Event
    from tournaments.services import event_draw

    knockout = event_with(Event.Format.SINGLE, 4)
    event_draw(event=knockout, seed=2, user=director)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{site.url}/tournaments/{knockout.tournament_id}/wall/")
    pause = page.get_by_role("button", name="Pause updates")
    pause.focus()
    page.keyboard.press("Enter")
    expect(pause).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("status")).to_have_text("Updates paused: press again to go on.")
    showing = page.locator("[data-wall]").get_attribute("data-showing")
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/wall/" in r.url else None)
    announcement_post(tournament=knockout.tournament, text="Dinner at 8", user=director)
    page.wait_for_timeout(4500)  # two screens' time and four refreshes' at the quick settings
    assert page.locator("[data-wall]").get_attribute("data-showing") == showing
    assert asked == [] and page.locator(".announcements").count() == 0
    page.keyboard.press("Enter")  # the focus stayed on the button
    expect(pause).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".wall-head .announcements .notice-text")).to_have_text("Dinner at 8")
    page.close()
