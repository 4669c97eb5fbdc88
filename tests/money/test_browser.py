"""A chouette at the club, in a real browser (issue 27).

(a) Five players, one cube, clicked through on the director's laptop: the chouette
started with its form, the opening roll, a game the team wins (the captain becomes the
box, Galore 3.1), a game where the box doubles, one member drops and the others take
(Galore 3.3), and the settlement, whose amounts sum to zero.
(b) Four players, a cube each (Galore 3.5): the box doubles two members, who answer on
their own phones (two browser contexts at 390 px, one in Italian) while the box's page
shows every cube at once. What a person reads is checked through the site's catalogue.
"""

from __future__ import annotations

import os
import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM
from tests.money.pages import PASSWORD, pid
from tests.site.test_evening import said

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

PHONE = {"width": 390, "height": 844}
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena")


def sign_in(context, site, username, path):
    page = context.new_page()
    page.goto(f"{site.url}/accounts/login/?next={path}")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{site.url}{path}")
    return page


def fits_a_phone(page):
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]


def make_players(django_user_model, count):
    from club.policy import SYSTEM
    from club.services import player_create, player_update

    made = []
    for name in NAMES[:count]:
        player = player_create(name=name, user=SYSTEM)
        account = django_user_model.objects.create_user(name.lower(), password=PASSWORD)
        player_update(player=player, account=account, user=SYSTEM)
        player.refresh_from_db()
        made.append(player)
    return made


def order_of(page):
    """The order as the page shows it: (role class, name) from the top."""
    rows = page.locator("ol.lineup li")
    return [
        (
            re.search(r"role-(\w+)", rows.nth(i).get_attribute("class")).group(1),
            rows.nth(i).locator(".who").inner_text(),
        )
        for i in range(rows.count())
    ]


def tap(page, label):
    page.locator("button.tap", has_text=re.compile("^" + re.escape(label) + "$")).click()


def test_a_five_player_chouette_clicked_through_to_a_settlement_that_sums_to_zero(
    browser, site, django_user_model, directors_group
):
    director = django_user_model.objects.create_user("director", password=PASSWORD)
    director.groups.add(directors_group)
    players = make_players(django_user_model, 5)
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = sign_in(laptop, site, "director", "/tables/")
    page.locator("#new-chouette").click()
    page.locator("#id_name").fill("Friday night")
    for player in players:
        page.locator(f"#id_players input[value='{player.pk}']").check()
    page.locator("#id_stake").fill("0.50")
    page.locator("#start-form button[type=submit]").click()
    expect(page.locator("#table-code")).to_be_visible()
    # the opening roll: Anna 6, Bruno 5, Carla 4, Dario 3, Elena 2 (Galore 3.1)
    for player, die in zip(players, (6, 5, 4, 3, 2), strict=True):
        page.locator(f"input[name='die_{player.pk}'][value='{die}']").check()
    page.locator("#opening button[type=submit]").click()
    expect(page.locator("ol.lineup li")).to_have_count(5)
    assert order_of(page) == [
        ("box", "Anna"),
        ("captain", "Bruno"),
        ("team", "Carla"),
        ("team", "Dario"),
        ("team", "Elena"),
    ]
    # game 1: the team wins a single game; the captain takes the box, Anna to the bottom
    tap(page, "Start the game")
    page.locator("#end input[name=winner][value=team]").check()
    page.locator("#end-button").click()
    expect(page.locator("ol.lineup li").first).to_contain_text("Bruno")
    assert order_of(page) == [
        ("box", "Bruno"),
        ("captain", "Carla"),
        ("team", "Dario"),
        ("team", "Elena"),
        ("team", "Anna"),
    ]
    # game 2: the box doubles; Elena drops, the others take; the box wins a gammon
    tap(page, "Start the game")
    tap(page, "Bruno (box) doubles")
    for name, answer in (
        ("Carla", "takes"),
        ("Dario", "takes"),
        ("Anna", "takes"),
        ("Elena", "drops"),
    ):
        tap(page, f"{name} {answer}")
    expect(page.locator("#awaiting")).to_have_count(0)
    expect(page.locator("#cubes tbody tr")).to_have_count(3)  # Elena is out of the game
    page.locator("#end input[name=winner][value=box]").check()
    page.locator("#end input[name=level][value=gammon]").check()
    page.locator("#end-button").click()
    expect(page.locator("ol.lineup li").first).to_contain_text("Bruno")  # the box won: kept
    points = {
        row.locator("td").first.inner_text(): int(row.locator("td.points").inner_text())
        for row in page.locator("#totals tbody tr").all()
    }
    assert sum(points.values()) == 0
    # the settlement: who pays whom, the amounts summing to zero
    page.locator("#settlement-link").click()
    expect(page.locator("#money-sum")).to_have_text("0.00")
    expect(page.locator("#points-sum")).to_have_text("0")
    paid = [Decimal(cell.inner_text()) for cell in page.locator("#transfers td.money").all()]
    totals = [
        Decimal(c.inner_text()) for c in page.locator("#settlement-totals tbody td.money").all()
    ]
    assert sum(totals) == 0 and paid and all(amount > 0 for amount in paid)
    assert sum(paid) == sum(t for t in totals if t > 0)
    page.emulate_media(media="print")
    assert not page.locator("header.site").is_visible()


def test_a_four_player_multiple_cube_game_answered_on_two_phones(
    browser, site, settings, django_user_model, directors_group
):
    """Galore 3.5: the box doubles Carla and Dario on their own cubes; Carla takes on her
    phone (English), Dario drops on his (Italian); the box sees every cube at once."""
    from money.models import TableKind
    from money.services import table_act, table_start
    from rules.chouette import ChouetteSettings, CubeMode
    from rules.chouette import events as ev

    settings.LIVE_REFRESH_SECONDS = 1
    anna, bruno, carla, dario = make_players(django_user_model, 4)
    table = table_start(
        user=anna.user,
        kind=TableKind.CHOUETTE,
        name="Quattro cubi",
        settings=ChouetteSettings(cubes=CubeMode.MULTIPLE),
        players=[anna, bruno, carla, dario],
        stake_cents=100,
    )
    rolls = ((pid(anna), 6), (pid(bruno), 5), (pid(carla), 4), (pid(dario), 3))
    for event in (ev.Opening(rolls=rolls), ev.StartGame()):
        table_act(user=anna.user, table=table, event=event)
    path = f"/tables/{table.pk}/"
    box = sign_in(
        browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB"),
        site,
        "anna",
        path,
    )
    phones = {}
    for name, locale in (("carla", "en-GB"), ("dario", "it-IT")):
        context = browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=1)
        phones[name] = sign_in(context, site, name, path)
        expect(phones[name].locator("#my-cube")).to_be_visible()
        fits_a_phone(phones[name])
    # the box ticks Carla's and Dario's cubes, not Bruno's
    form = box.locator("#box-doubles")
    form.locator(f"input[name=members][value='{pid(bruno)}']").uncheck()
    form.locator("button[type=submit]").click()
    expect(box.locator("#cubes tr.waiting")).to_have_count(2)
    # each phone brings its own cube's offer in by itself, and answers it
    carla_phone, dario_phone = phones["carla"], phones["dario"]
    expect(carla_phone.locator("#my-cube.waiting")).to_be_visible(timeout=10_000)
    expect(dario_phone.locator("#my-cube.waiting")).to_be_visible(timeout=10_000)
    takes = said("en", "%(name)s takes", name="Carla")
    drops = said("it", "%(name)s drops", name="Dario")
    carla_phone.locator("#taps-" + pid(carla) + " button.tap", has_text=takes).click()
    dario_phone.locator("#taps-" + pid(dario) + " button.tap", has_text=drops).click()
    expect(carla_phone.locator("#my-cube .cube-value")).to_have_text("2")
    expect(dario_phone.locator("#my-cube")).to_have_count(0)  # out of the game, paid
    expect(dario_phone.locator("#out-of-game")).to_have_text(
        said("it", "You are out of this game: you have settled with the box.")
    )
    for phone in (carla_phone, dario_phone):
        fits_a_phone(phone)
    # the box's page brings every cube in: Bruno's at 1, Carla's at 2, Dario out
    expect(box.locator("#cubes tbody tr")).to_have_count(2, timeout=10_000)
    values = {
        row.locator("td").first.inner_text(): row.locator("td.cube-value").inner_text()
        for row in box.locator("#cubes tbody tr").all()
    }
    assert values == {"Bruno": "1", "Carla": "2"}
    # the Italian phone speaks the seed's words
    assert said("it", "Captain") in dario_phone.locator("#lineup").text_content()
