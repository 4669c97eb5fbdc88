"""Every page fits a 390-pixel phone: no sideways scrolling (headless Debian chromium).

A bracket wider than the phone scrolls inside its own box, not the page."""

import os

import pytest

from tests.conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

NAMES = [
    "Giancarlo Bartolomeo Santangelo",
    "Mariangela Pellegrino-Castelli",
    "Massimiliano Dell'Acqua",
    "Anna-Katharina Schwarzenberger",
]


@pytest.fixture
def drawn(event_with, director, record, finish):
    """A 16-player knockout with a consolation, drawn, round 1 partly played."""
    from club.services import player_create
    from matches.disputes import dispute_open
    from matches.models import Match
    from tournaments.models import Event
    from tournaments.services import event_draw

    people = [
        player_create(name=f"{NAMES[i % 4]} {i + 1:02}", club="Circolo Backgammon", user=director)
        for i in range(16)
    ]
    event = event_with(Event.Format.CONSOLATION, people, lengths=(5, 7, 9))
    # not entered: the late arrival's choice names them with their club and id
    player_create(
        name="Giancarlo Bartolomeo Santangelo-Pellegrino",
        club="Circolo Backgammon Città di Castello",
        user=director,
    )
    event_draw(event=event, seed=7, user=director)
    first, second = Match.objects.filter(place__event=event).order_by("id")[:2]
    record(first, 0, cube=2)
    record(first, 1, cube=2, result="gammon")
    finish(second, second.player_a, loser_points=3)
    a, b = first.player_a.name, first.player_b.name
    text = (
        f" 5 point match\n\n Game 1\n {a} : 0{' ' * max(2, 32 - len(a))}{b} : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Drops                      Wins 1 point\n"
    )
    dispute = dispute_open(match=first, user=director, text=text, filename="anna.mat", left=0)
    return event, first, dispute


CUT_OFF = """Array.from(document.querySelectorAll("input, select, textarea, button"))
    .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 0.5)
    .map(e => e.name || e.id || e.tagName)"""


def test_the_event_page_the_score_sheet_and_a_dispute_fit_a_phone(browser, site, director, drawn):
    event, match, dispute = drawn
    too_wide = []
    for language in ("en-GB", "it-IT"):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, locale=language, device_scale_factor=1
        )
        page = context.new_page()
        page.goto(f"{site.url}/accounts/login/")
        page.locator("#id_username").fill("director")
        page.locator("#id_password").fill("pw-director-1")
        page.locator("form button[type=submit]").last.click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        for path in (
            event.get_absolute_url(),
            f"/events/{event.pk}/bracket/",
            match.get_absolute_url(),
            f"/matches/{match.pk}/sheet/",
            dispute.get_absolute_url(),
            f"/tournaments/{event.tournament_id}/events/new/",
        ):
            page.goto(f"{site.url}{path}")
            width = page.evaluate("document.scrollingElement.scrollWidth")
            if width > 390:
                too_wide.append(f"{path} in {language}: {width} pixels")
            # a control cut off at the edge (a long select) does not always widen the page
            cut = page.evaluate(CUT_OFF)
            if cut:
                too_wide.append(f"{path} in {language}: {', '.join(cut)} cut off")
        context.close()
    assert not too_wide
