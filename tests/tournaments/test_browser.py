"""A director's evening in a real browser (headless Debian chromium, Playwright): a 12-player
knockout with a consolation, from check-in to the printed bracket showing the champion."""

import io
import os
import re

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


def pdf_pages(pdf: bytes) -> list[tuple[str, bool]]:
    """Each printed page's text, and whether it is landscape."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    return [
        (page.extract_text(), float(page.mediabox.width) > float(page.mediabox.height))
        for page in reader.pages
    ]


def sign_in(page, site, username, password, next_url="/"):
    page.goto(f"{site.url}/accounts/login/?next={next_url}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def test_a_director_runs_a_12_player_knockout_with_a_consolation(
    browser, site, django_user_model, directors_group, field
):
    from matches.models import Match
    from tournaments.models import Event
    from tournaments.queries.knockouts import event_knockout

    players = field(12)
    user = django_user_model.objects.create_user("td", password="td-password-1")
    user.groups.add(directors_group)
    page = browser.new_page(locale="en-GB")
    sign_in(page, site, "td", "td-password-1", "/tournaments/new/")

    page.get_by_label("Name").fill("Coppa di Natale")
    page.get_by_label("Date").fill("2026-12-13")
    page.get_by_label("Venue").fill("Circolo Backgammon Milano")
    page.get_by_role("button", name="Create the tournament").click()
    assert page.get_by_role("heading", name="Coppa di Natale").is_visible()

    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name").fill("Main")
    page.get_by_label("Format").select_option("consolation")
    page.get_by_label("Match lengths by round").fill("3, 3, 5, 7")
    page.get_by_role("button", name="Create the event").click()
    assert page.get_by_role("heading", name="Main", exact=True).is_visible()

    search = page.locator(".director-tools").get_by_label("Find a player")
    for player in players:  # a list of boxes to tick, found by typing part of the name
        search.fill(player.name.lower())
        page.get_by_role("checkbox", name=player.label, exact=True).check()
    search.fill("")
    page.get_by_role("button", name="Enter them").click()
    assert "Entered: P01" in page.locator(".message:not([hidden])").first.inner_text()
    assert page.locator("#entries").is_visible()  # the check-in list comes first
    page.evaluate("window.notReloaded = true")
    for player in players[:10]:  # players arrive one by one: each row changes in place
        page.get_by_role("button", name=f"Check in {player.name}", exact=True).click()
        expect(page.locator(".message:not([hidden])")).to_contain_text(
            f"{player.name} is checked in."
        )
    assert page.evaluate("window.notReloaded === true")  # no page load for a check-in
    expect(page.locator("#checked-in")).to_have_text("10 of 12 checked in")
    page.get_by_role("button", name="Check in everyone entered (2 still to arrive)").click()
    assert "2 players are checked in." in page.locator(".message:not([hidden])").inner_text()
    assert "12 players checked in" in page.locator(".director-tools").inner_text()

    page.get_by_label("Seed").fill("20261213")
    page.get_by_role("button", name="Make the draw").click()
    assert page.locator("#draw-seed").inner_text() == "20261213"
    assert page.locator(".bracket-section").first.locator("em", has_text="bye").count() == 4

    event = Event.objects.get(given_name="Main")
    recorded = 0
    while True:  # every result, as matches finish, from each match's page
        waiting = (
            Match.objects.filter(place__event=event)
            .exclude(status__in=[Match.Status.FINISHED, Match.Status.WALKOVER])
            .order_by("id")
            .first()
        )
        if waiting is None:
            break
        page.goto(f"{site.url}/matches/{waiting.pk}/")
        winner_first = recorded % 3 != 0
        page.locator("#final_score_a").fill(str(waiting.length if winner_first else 1))
        page.locator("#final_score_b").fill(str(1 if winner_first else waiting.length))
        page.get_by_role("button", name="Record the final score").click()
        assert page.locator(".message:not([hidden])").inner_text() == "The final score is recorded."
        recorded += 1
    # 11 main-draw results (12 players) and 3 in the consolation of the 4 round-1 losers
    assert recorded == 11 + 3
    champion = event_knockout(event=event).champion.name

    page.goto(f"{site.url}/events/{event.pk}/")
    assert page.locator("#now").inner_text() == f"Champion: {champion}"

    page.goto(f"{site.url}/events/{event.pk}/bracket/")
    page.emulate_media(media="print")
    printed = pdf_pages(page.pdf(prefer_css_page_size=True, print_background=True))
    assert [landscape for _, landscape in printed] == [True, True]  # main draw, consolation
    main_page = printed[0][0]
    assert f"Champion: {champion}" in main_page
    assert all(p.name in main_page for p in players)  # the whole main draw on one page
    assert "Consolation" in printed[1][0]


@pytest.mark.parametrize(
    ("entrants", "paper", "pages"), [(32, "A4", 1), (32, "Letter", 1), (64, "A4", 3)]
)
def test_a_big_bracket_prints_in_readable_landscape_pages(
    browser, site, event_with, director, entrants, paper, pages
):
    from tournaments.models import Event
    from tournaments.services import event_draw

    event = event_with(Event.Format.SINGLE, entrants)
    event_draw(event=event, seed=1, user=director)
    page = browser.new_page()
    page.goto(f"{site.url}/events/{event.pk}/bracket/")
    page.emulate_media(media="print")
    printed = pdf_pages(page.pdf(format=paper, prefer_css_page_size=True))
    assert len(printed) == pages and all(landscape for _, landscape in printed)
    text = " ".join(t for t, _ in printed)
    names = [f"P{i:02}" for i in range(1, entrants + 1)]
    assert all(re.search(rf"\b{name}\b", text) for name in names)


def test_round_score_sheets_print_one_per_page_and_the_event_page_fits_a_phone(
    browser, site, event_with, director
):
    from tournaments.models import Event
    from tournaments.services import event_draw

    event = event_with(Event.Format.ROUND_ROBIN, 7, pools=1, lengths=(11,))
    event_draw(event=event, seed=4, user=director)
    page = browser.new_page()
    page.goto(f"{site.url}/events/{event.pk}/rounds/1/sheets/")
    page.emulate_media(media="print")
    printed = pdf_pages(page.pdf(format="A4", prefer_css_page_size=True))
    assert len(printed) == 3  # 7 players: three matches and a rest
    assert all("Match to 11 points" in text for text, _ in printed)

    knockout = event_with(Event.Format.PROGRESSIVE, 24)
    event_draw(event=knockout, seed=4, user=director)
    phone = browser.new_page(viewport={"width": 375, "height": 740}, is_mobile=True)
    for url in (f"/events/{knockout.pk}/", f"/events/{event.pk}/", "/tournaments/"):
        phone.goto(site.url + url)
        overflow = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, url  # the bracket scrolls inside its own box


def test_a_director_puts_a_walkover_a_withdrawal_and_the_draw_right(
    browser, site, django_user_model, directors_group, field
):
    """Each destructive button asks first; the confirmations are clicked, no JavaScript needed
    for any of it."""
    import datetime

    from matches.models import Match
    from tournaments.models import Entry, Event
    from tournaments.services import (
        entry_check_in,
        entry_register,
        event_create,
        event_draw,
        tournament_create,
    )

    user = django_user_model.objects.create_user("td", password="td-password-1")
    user.groups.add(directors_group)
    tournament = tournament_create(name="Coppa", date=datetime.date(2026, 12, 13), user=user)
    event = event_create(
        tournament=tournament, name="Main", format=Event.Format.SINGLE, lengths=[5], user=user
    )
    for player in field(4):
        entry_check_in(entry=entry_register(event=event, player=player, user=user), user=user)
    event_draw(event=event, seed=1, user=user)
    page = browser.new_page(locale="en-GB")
    sign_in(page, site, "td", "td-password-1", f"/events/{event.pk}/")
    message = page.locator(".message:not([hidden])")

    # the draw made again, with a seed of the director's choosing
    page.locator("#redraw").get_by_label("Seed").fill("20261213")
    page.locator("#redraw").get_by_role("button", name="Redraw").click()
    assert page.get_by_role("heading", name="Redraw Main?").is_visible()
    assert "The old seed, 1, stays in the changes." in page.locator("main").inner_text()
    page.get_by_role("button", name="Redraw").click()
    assert message.inner_text() == "The draw is made again."
    assert page.locator("#draw-seed").inner_text() == "20261213"

    # a walkover to the wrong player, put right, then taken back: the match is played after all
    match = Match.objects.filter(place__event=event).order_by("pk").first()
    a, b = match.player_a.name, match.player_b.name
    page.goto(f"{site.url}/matches/{match.pk}/")
    walkover = page.locator("#walkover")
    assert walkover.locator("select").input_value() == ""  # no winner chosen for you
    walkover.locator("select").select_option(label=a)
    walkover.get_by_role("button", name="Record a walkover").click()
    assert page.get_by_role("heading", name=f"A walkover to {a}?").is_visible()
    page.get_by_role("button", name=f"Record a walkover to {a}").click()
    assert message.inner_text() == "The walkover is recorded."
    walkover.locator("select").select_option(label=b)
    walkover.get_by_role("button", name="Correct the result to a walkover").click()
    assert f"It replaces a walkover to {a}." in page.locator("main").inner_text()
    page.get_by_role("button", name=f"Record a walkover to {b}").click()
    assert message.inner_text() == "The walkover is recorded."
    assert Match.objects.get(pk=match.pk).walkover_winner == 1
    page.locator("#take-back").get_by_role("button", name="Take back the result").click()
    page.get_by_role("button", name="Take back the result").click()
    assert message.inner_text() == "The result is taken back: the match is to be played."
    assert Match.objects.get(pk=match.pk).status == Match.Status.SCHEDULED

    # a withdrawal, asked first, and undone
    page.goto(f"{site.url}/events/{event.pk}/")
    page.get_by_role("button", name=f"Withdraw {b}", exact=True).click()
    assert f"{a} gets a walkover in {match}." in page.locator("main").inner_text()
    page.get_by_role("button", name=f"Withdraw {b}", exact=True).click()
    assert message.inner_text() == f"{b} has withdrawn."
    assert Match.objects.get(pk=match.pk).status == Match.Status.WALKOVER
    page.get_by_role("button", name=f"Reinstate {b}", exact=True).click()
    assert message.inner_text() == f"{b} is reinstated."
    assert Match.objects.get(pk=match.pk).status == Match.Status.SCHEDULED
    assert event.entries.get(player__name=b).status == Entry.Status.CHECKED_IN


GEOMETRY = """() => {
  const box = el => { const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height, mid: r.y + r.height / 2}; };
  const line = (el, which) => { const s = getComputedStyle(el, which);
    return {content: s.content, top: s.borderTopStyle + " " + s.borderTopWidth,
            right: s.borderRightStyle, left: parseFloat(s.left)}; };
  return {
    page: [document.scrollingElement.scrollWidth, innerWidth],
    scroller: [...document.querySelectorAll(".bracket-screen, .bracket-print .bracket-section")]
      .map(e => [e.scrollWidth, e.clientWidth]),
    columns: [...document.querySelectorAll(".bracket")]
      .map(b => [...b.querySelectorAll(":scope > .bracket-round")].map(c => box(c).w)),
    links: [...document.querySelectorAll(".bracket a.box")].map(a => box(a)),
    slots: Object.fromEntries([...document.querySelectorAll(".bracket .slot")].map(s =>
      [s.id.slice(4), {box: box(s.querySelector(".box")), classes: s.className,
                       before: line(s, "::before"), after: line(s, "::after")}])),
  };
}"""


def test_the_bracket_joins_its_rounds_in_even_columns_with_links_to_tap(
    browser, site, event_with, director, finish
):
    """A progressive consolation of 16 long names, round 1 played: on a phone the bracket
    scrolls inside its box, each match is a 44-pixel target, a box sits level with the middle
    of the two it is fed by (or with the one, where newcomers join), and the lines print."""
    from club.services import player_create
    from matches.models import Match
    from tournaments.models import Event
    from tournaments.pairing.bracket import WinnerOf
    from tournaments.queries.knockouts import event_knockout
    from tournaments.services import event_draw

    people = [
        player_create(name=f"Mariangela Pellegrino-Castelli {i:02}", user=director)
        for i in range(1, 17)
    ]
    event = event_with(Event.Format.PROGRESSIVE, people)
    event_draw(event=event, seed=5, user=director)
    for match in Match.objects.filter(place__event=event).order_by("id"):
        finish(match, match.player_a, loser_points=2)
    fed_by = {
        m.key: [s.key for s in m.sources if isinstance(s, WinnerOf)]
        for m in event_knockout(event=event).bracket.matches
    }
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(f"{site.url}{event.get_absolute_url()}")
    seen = phone.evaluate(GEOMETRY)
    assert seen["page"][0] <= seen["page"][1]  # the page does not scroll sideways...
    assert all(width > client for width, client in seen["scroller"])  # ...the bracket does
    assert len(seen["links"]) >= 8 + 4 + 4  # main rounds 1-2, consolation round 1
    assert all(link["w"] >= 44 and link["h"] >= 44 for link in seen["links"])
    for widths in seen["columns"]:
        assert max(widths) - min(widths) < 0.5, widths
    joins = check_joins(seen["slots"], fed_by)
    # M2, M3, M4; C3, C5 halve; C2 and C4 take in newcomers; nothing before round 1
    assert joins == {"join-pair": 4 + 2 + 1 + 2 + 1, "join-level": 4 + 2}

    page = browser.new_page(viewport={"width": 1123, "height": 794})
    page.goto(f"{site.url}/events/{event.pk}/bracket/")
    page.emulate_media(media="print")
    printed = page.evaluate(GEOMETRY)
    for widths in printed["columns"]:
        assert max(widths) - min(widths) < 0.5, widths
    assert check_joins(printed["slots"], fed_by) == joins  # the lines print as borders
    pages = pdf_pages(page.pdf(format="A4", prefer_css_page_size=True))
    assert len(pages) == 2 and all(landscape for _, landscape in pages)
    assert "Round 4" in pages[0][0] and "Consolation" in pages[1][0]


def check_joins(slots, fed_by):
    """Each joined box's line is drawn, and the box is level with what feeds it; returns how
    many boxes of each kind of join there are."""
    counts = {}
    for key, slot in slots.items():
        kind = next((c for c in slot["classes"].split() if c.startswith("join-")), None)
        feeders = [slots[k]["box"] for k in fed_by[key] if k in slots]
        if kind is None:
            assert slot["before"]["content"] == "none" and slot["after"]["content"] == "none"
            continue
        counts[kind] = counts.get(kind, 0) + 1
        assert slot["after"]["top"].startswith("solid"), key  # the line into the box
        mid = slot["box"]["mid"]
        if kind == "join-pair":  # out of each feeder, down between them, into this one
            assert slot["before"]["top"].startswith("solid") and slot["before"]["right"] == "solid"
            assert len(feeders) == 2, key
            assert abs(mid - (feeders[0]["mid"] + feeders[1]["mid"]) / 2) < 1.5, key
            gap = slot["box"]["x"] - (feeders[0]["x"] + feeders[0]["w"])
            assert abs(slot["before"]["left"] + gap) < 1, key  # it starts at the feeders' edge
        else:
            assert len(feeders) == 1 and abs(mid - feeders[0]["mid"]) < 1.5, key
    return counts
