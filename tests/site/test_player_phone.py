"""A player on a 390 px phone: opens the invitation link, makes an account, lands on their
page and checks in with one button (headless Debian chromium, English and Italian).

The controls are found by their forms and ids (the same in both languages); what changed is
checked in the database and by what the page no longer offers, so the Italian run needs no
catalogue.
"""

from __future__ import annotations

import datetime
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

PASSWORD = "tavola-reale-42"


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_player_opens_the_invitation_makes_an_account_and_checks_in(
    browser, site, director, lang
):
    from club.models import Player
    from club.services import invitation_issue, player_create
    from tournaments.models import Entry, Event
    from tournaments.services import entry_register, event_create, tournament_create

    tournament = tournament_create(
        name="Torneo di Natale", date=datetime.date(2026, 12, 13), user=director
    )
    event = event_create(
        tournament=tournament, name="Main", format=Event.Format.SINGLE, lengths=[5], user=director
    )
    anna = player_create(name="Anna Rossi", club="Circolo Backgammon Milano", user=director)
    entry = entry_register(event=event, player=anna, user=director)
    invitation = invitation_issue(player=anna, user=director)

    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="en-GB" if lang == "en" else "it-IT",
        device_scale_factor=1,
    )
    page = context.new_page()
    page.goto(f"{site.url}{invitation.get_absolute_url()}")
    assert "Anna Rossi" in page.locator("main").inner_text()
    page.locator("#id_username").fill("anna")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("#invitation-form button[type=submit]").click()

    page.wait_for_url(f"{site.url}/me/")
    expect(page.locator("h1")).to_have_text("Anna Rossi")
    expect(page.locator("#my-page")).to_be_visible()  # the header links to the player's page
    assert Player.objects.get(pk=anna.pk).user.username == "anna"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390

    button = page.locator("#check-in form button[type=submit]")
    expect(button).to_have_count(1)
    button.click()
    page.wait_for_url(f"{site.url}/me/")
    expect(page.locator("#check-in")).to_have_count(0)  # nothing left to check in
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.CHECKED_IN
    if lang == "en":  # the Italian words come with the catalogue; the state is checked above
        expect(page.locator("#entries .status")).to_have_text("checked in")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    context.close()
