"""The cut of a Swiss made from a 390-pixel phone in Italian (issue 25.5 and 25.12): the
preview names the tie at the line, the director chooses who goes through and lengthens the
final; the knockout is named in Italian for them and in English for an English reader
(headless Debian chromium)."""

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


def test_a_director_cuts_a_swiss_from_a_phone_in_italian(
    browser, site, director, event_with, finish
):
    from matches.models import Match
    from tournaments.models import Event
    from tournaments.queries.events import event_matches
    from tournaments.services import event_draw

    swiss = event_with(Event.Format.SWISS, 6, swiss_rounds=1, cut=4, lengths=(5, 7, 11))
    event_draw(event=swiss, seed=1, user=director)
    for match in event_matches(event=swiss):
        finish(match, match.player_a)
    seeds = {e.player_id: e.seed for e in swiss.entries.all()}
    losers = sorted(
        (m.player_b for m in Match.objects.filter(place__event=swiss)), key=lambda p: seeds[p.pk]
    )
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="it-IT", device_scale_factor=1
    )
    page = context.new_page()
    page.goto(f"{site.url}/accounts/login/")
    page.locator("#id_username").fill("director")
    page.locator("#id_password").fill("pw-director-1")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)

    page.goto(f"{site.url}{swiss.get_absolute_url()}")
    page.get_by_role("link", name="Taglia ai primi 4").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Tagliare swiss 6 ai primi 4?")
    expect(page.locator("#cut-tie")).to_contain_text("3 giocatori sono pari sulla linea")
    expect(page.locator("#cut-rule")).to_contain_text("prima il numero più basso")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # fits the phone
    page.get_by_label(losers[0].name, exact=False).uncheck()
    page.get_by_label(losers[2].name, exact=False).check()
    page.get_by_label("Finale").fill("13")
    page.get_by_role("button", name="Fai il taglio: 4 giocatori").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("swiss 6 – fase finale a 4")
    knockout = swiss.children.get()
    assert knockout.entries.get(seed=4).player == losers[2]
    assert [r.length for r in knockout.rounds.all()] == [7, 13]
    english = browser.new_context(locale="en-GB").new_page()
    english.goto(f"{site.url}{knockout.get_absolute_url()}")
    expect(english.get_by_role("heading", level=1)).to_have_text("swiss 6 – last 4")
