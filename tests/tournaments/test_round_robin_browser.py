"""A round robin's cross-table in a real browser: on a phone it scrolls inside itself (the
page never grows sideways), and on paper it prints whole, every result in it."""

import os
import random
import re

import pytest

from tests.conftest import CHROMIUM

from .test_browser import pdf_pages

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]


def test_a_two_pool_cross_table_fits_a_phone_and_prints_whole(
    browser, site, event_with, field, finish, director
):
    from tournaments.models import Event
    from tournaments.queries.events import event_matches
    from tournaments.services import event_draw

    names = [f"Giocatrice Numero {n} Dal Lungo Cognome" for n in range(1, 8)]
    players = field(7)
    for player, name in zip(players, names, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    event = event_with(Event.Format.ROUND_ROBIN, players, pools=2, lengths=(7,))
    event_draw(event=event, seed=25, user=director)
    rng = random.Random(25)
    for match in event_matches(event=event):
        finish(match, rng.choice((match.player_a, match.player_b)), rng.randrange(7))

    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(f"{site.url}/events/{event.pk}/")
    tables = phone.locator(".crosstable")
    assert tables.count() == 2
    assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    scrolls = phone.locator(".crosstable-scroll").evaluate_all(
        "boxes => boxes.map(b => b.scrollWidth > b.clientWidth)"
    )
    assert any(scrolls)  # the four-player pool is wider than the phone: it scrolls in its box

    paper = browser.new_page()
    paper.goto(f"{site.url}/events/{event.pk}/")
    paper.emulate_media(media="print")
    printed = " ".join(text for text, _ in pdf_pages(paper.pdf(format="A4")))
    printed = re.sub(r"\s+", " ", printed)
    cells = tables.locator("td.won, td.lost").all_inner_texts()
    assert len(cells) == 2 * (3 + 6)
    assert all(cell in printed for cell in cells)
    assert all(name in printed for name in names)  # no name cut short on paper
