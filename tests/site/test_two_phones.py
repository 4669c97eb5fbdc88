"""Two players on their phones and the room's wall, in a real browser (issue 15).

Two phones (390x844 browser contexts) check in while the director's list brings the
check-ins in by itself; one phone reports a 5-point match game by game, the other confirms,
and the wall in the playing room moves the winner on in its bracket without a reload. Then
a disagreement: one reports a final score, the other disputes it with their own, and the
director finds both versions on the dispute page. In English and in Italian: what a person
reads is checked through the site's own catalogue (``said``), the controls by their ids.
"""

from __future__ import annotations

import datetime
import os
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM
from tests.site.test_evening import said, said_n

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

PASSWORD = "tavola-reale-42"
PHONE = {"width": 390, "height": 844}


def sign_in(context, site, username, path="/me/"):
    page = context.new_page()
    page.goto(f"{site.url}/accounts/login/?next={path}")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{site.url}{path}")
    return page


def fits_a_phone(page):
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_two_phones_check_in_report_confirm_and_dispute_while_the_wall_follows(
    browser, site, settings, django_user_model, directors_group, lang
):
    from django.db.models import Q

    from club.models import Player
    from club.policy import SYSTEM
    from club.services import player_create, player_update
    from matches.models import Dispute, Match
    from tournaments.models import Entry, Event
    from tournaments.services import (
        entry_check_in,
        entry_register,
        event_create,
        event_draw,
        tournament_create,
        tournament_reports_set,
    )

    settings.LIVE_REFRESH_SECONDS = 1  # every live page asks again each second
    settings.WALL_SCREEN_SECONDS = 3600  # the wall stays on its first screen: the bracket
    director = django_user_model.objects.create_user("director", password=PASSWORD)
    director.groups.add(directors_group)
    tournament = tournament_create(
        name="Torneo di Natale", date=datetime.date(2026, 12, 13), user=director
    )
    tournament_reports_set(
        tournament=tournament,
        results_by="players",
        report_detail="either",
        confirm_minutes=15,
        user=director,
    )
    main = event_create(
        tournament=tournament,
        name="Main",
        format=Event.Format.SINGLE,
        lengths=[5, 5],
        seeding=Event.Seeding.RATING,  # 1 v 4, 2 v 3: Anna meets Bruno in round 1
        user=director,
    )
    side = event_create(
        tournament=tournament, name="Side", format=Event.Format.SINGLE, lengths=[3], user=director
    )
    people = {}
    ratings = {"Anna Rossi": 1700, "Carla Verdi": 1600, "Dario Neri": 1550, "Bruno Bianchi": 1400}
    for name, rating in ratings.items():
        people[name] = player_create(name=name, user=director)
        # as their past matches left them (a rating is earned, never typed)
        Player.objects.filter(pk=people[name].pk).update(rating=rating)
    anna, bruno = people["Anna Rossi"], people["Bruno Bianchi"]
    for player, username in ((anna, "anna"), (bruno, "bruno")):
        account = django_user_model.objects.create_user(username, password=PASSWORD)
        player_update(player=player, account=account, user=SYSTEM)
    for player in people.values():
        entry = entry_register(event=main, player=player, user=director)
        if player not in (anna, bruno):
            entry_check_in(entry=entry, user=director)
    for player in (anna, bruno):
        entry_check_in(
            entry=entry_register(event=side, player=player, user=director), user=director
        )

    locale = "en-GB" if lang == "en" else "it-IT"
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    desk = sign_in(laptop, site, "director", f"/events/{main.pk}/")
    expect(desk.locator("#checked-in")).to_have_text(
        said_n(
            lang,
            "%(count)s of %(total)s checked in",
            "%(count)s of %(total)s checked in",
            2,
            total=4,
        )
    )
    phones = {}
    for username in ("anna", "bruno"):
        phone = browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=1)
        phones[username] = sign_in(phone, site, username)

    # both check in from their phones; the director's list brings them in by itself
    for page in phones.values():
        page.locator("#check-in form button[type=submit]").click()
        expect(page.locator("#check-in")).to_have_count(0)
        fits_a_phone(page)
    expect(desk.locator("#checked-in")).to_have_text(
        said_n(
            lang,
            "%(count)s of %(total)s checked in",
            "%(count)s of %(total)s checked in",
            4,
            total=4,
        ),
        timeout=10_000,
    )
    assert set(main.entries.values_list("status", flat=True)) == {Entry.Status.CHECKED_IN}
    event_draw(event=main, user=director)
    event_draw(event=side, user=director)

    wall = browser.new_context(viewport={"width": 1920, "height": 1080}, locale=locale).new_page()
    wall.goto(f"{site.url}/tournaments/{tournament.pk}/wall/")
    bracket = wall.locator("section.wall-bracket").first  # Main's, the screen shown first
    final_box = bracket.locator(".bracket-round").last
    expect(bracket).to_contain_text("Anna Rossi")
    before = bracket.text_content().count("Anna Rossi")

    # Anna reports the match game by game: the Crawford rule as a director's entry has it
    match = Match.objects.get(Q(player_a=anna) | Q(player_b=anna), place__event=main)
    anna_side = 0 if match.player_a_id == anna.pk else 1
    games = [  # (winner, cube, result): 2-0, 2-2, 4-2, the Crawford game 4-3, then 5-3 (two won)
        (anna_side, 1, "gammon"),
        (1 - anna_side, 2, "single"),
        (anna_side, 2, "single"),
        (1 - anna_side, 1, "single"),
        (anna_side, 2, "single"),
    ]
    phone = phones["anna"]
    phone.goto(f"{site.url}/me/")
    phone.locator("#next-match a.button").click()  # "Report the result"
    phone.wait_for_url(f"{site.url}/matches/{match.pk}/report/")
    for number, (winner, cube, result) in enumerate(games, 1):
        form = phone.locator("#report-game form")
        form.locator(f"input[name=winner][value='{winner}']").check()
        form.locator("select[name=cube]").select_option(str(cube))
        form.locator("select[name=result]").select_option(result)
        form.locator("button[type=submit]").click()
        expect(phone.locator("#claimed-games li")).to_have_count(number)
    expect(phone.locator("#claimed-score")).to_contain_text("5–3" if anna_side == 0 else "3–5")
    assert "Crawford" in phone.locator("#claimed-games li").nth(3).inner_text()
    fits_a_phone(phone)

    # Bruno sees it on his page, and confirms it
    phone = phones["bruno"]
    phone.goto(f"{site.url}/me/")
    expect(phone.locator("#reports .to-confirm li")).to_have_count(1)
    phone.locator("#reports .to-confirm a").click()
    phone.locator("#confirm").click()
    expect(phone.locator(".message.success")).to_have_text(
        said(lang, "Confirmed: the result is recorded.")
    )
    fits_a_phone(phone)
    match.refresh_from_db()
    assert match.decided and match.games.count() == 5

    # the wall moves Anna on to the final by itself: her name now in two boxes
    expect(final_box).to_contain_text("Anna Rossi", timeout=10_000)
    assert bracket.text_content().count("Anna Rossi") == before + 1

    # a disagreement: Bruno reports that he won the side match 3-1; Anna disputes, 3-1 hers
    duel = Match.objects.get(place__event=side)
    bruno_side = 0 if duel.player_a_id == bruno.pk else 1
    claimed = (1, 3) if bruno_side == 1 else (3, 1)
    phone.goto(f"{site.url}/matches/{duel.pk}/report/")
    phone.locator("#report-final input[name=score_a]").fill(str(claimed[0]))
    phone.locator("#report-final input[name=score_b]").fill(str(claimed[1]))
    phone.locator("#report-final button[type=submit]").click()
    expect(phone.locator("#claimed-score")).to_contain_text(f"{claimed[0]}–{claimed[1]}")
    phone = phones["anna"]
    phone.goto(f"{site.url}/me/")
    phone.locator("#reports .to-confirm a").click()
    phone.locator("#dispute-form input[name=score_a]").fill(str(claimed[1]))
    phone.locator("#dispute-form input[name=score_b]").fill(str(claimed[0]))
    phone.locator("#dispute").click()
    expect(phone.locator(".message")).not_to_have_count(0)
    fits_a_phone(phone)
    dispute = Dispute.objects.get(match=duel)
    assert dispute.decided_at is None

    # the director's dashboard leads to the dispute, with both versions side by side
    desk.goto(f"{site.url}/tournaments/{tournament.pk}/dashboard/")
    desk.locator(f"a[href='{dispute.get_absolute_url()}']").first.click()
    desk.wait_for_url(re.compile(re.escape(dispute.get_absolute_url())))
    expect(desk.locator("#claim")).to_contain_text(f"{claimed[0]}–{claimed[1]}")
    sheets = {
        name: desk.locator(f"#id_{name}").input_value() for name in ("a_a", "a_b", "b_a", "b_b")
    }
    bruno_sheet, anna_sheet = ("b", "a") if bruno_side == 1 else ("a", "b")
    assert (sheets[f"{bruno_sheet}_a"], sheets[f"{bruno_sheet}_b"]) == tuple(map(str, claimed))
    assert (sheets[f"{anna_sheet}_a"], sheets[f"{anna_sheet}_b"]) == tuple(
        map(str, reversed(claimed))
    )
    expect(desk.locator("#decide")).to_contain_text("Bruno Bianchi")
    for context in (laptop, wall.context, *(p.context for p in phones.values())):
        context.close()
