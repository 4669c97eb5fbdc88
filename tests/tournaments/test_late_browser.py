"""A late arrival entered who did not check in, added from a 390-pixel phone in Italian and in
English: the picker fits the phone and the player joins (headless Debian chromium)."""

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

LONG = "Giancarlo Bartolomeo Santangelo-Pellegrino"


def test_an_entered_player_late_is_added_from_a_phone(browser, site, director, event_with):
    from club.services import player_create
    from tournaments.models import Entry, Event
    from tournaments.services import entry_register, event_draw

    event = event_with(Event.Format.SINGLE, 6)
    late = player_create(name=LONG, club="Circolo Backgammon Città di Castello", user=director)
    entry = entry_register(event=event, player=late, user=director)
    event_draw(event=event, seed=6, user=director)
    said = {}
    for language, group in (("it-IT", "Iscritti, non nel tabellone"), ("en-GB", None)):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, locale=language, device_scale_factor=1
        )
        page = context.new_page()
        page.goto(f"{site.url}/accounts/login/")
        page.locator("#id_username").fill("director")
        page.locator("#id_password").fill("pw-director-1")
        page.locator("form button[type=submit]").last.click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        page.goto(f"{site.url}{event.get_absolute_url()}")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
        picker = page.locator("#id_player")
        assert picker.bounding_box()["x"] + picker.bounding_box()["width"] <= 390
        if group is None:  # in English: added now; the Italian page only looked
            picker.select_option(str(late.pk))
            page.locator("#late button[type=submit]").click()
            said[language] = page.locator("#messages .message").inner_text()
        else:
            options = page.locator(f'#id_player optgroup[label="{group}"] option')
            assert options.count() == 1 and LONG in options.first.inner_text()
        context.close()
    assert f"{LONG} is entered and checked in." in said["en-GB"]
    assert Entry.objects.get(pk=entry.pk).seed == 7
