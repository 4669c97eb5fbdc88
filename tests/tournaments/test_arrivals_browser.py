"""A match called, a player arriving late, the penalty confirmed on the dashboard, and the
score sheet showing it (tournament rules: a point for every 5 minutes late), clicked through
in headless Debian chromium; the dashboard looked at on a 390-pixel phone in Italian too."""

import datetime
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


def sign_in(page, site):
    page.goto(f"{site.url}/accounts/login/")
    page.locator("#id_username").fill("director")
    page.locator("#id_password").fill("pw-director-1")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def test_a_late_arrival_is_penalised_and_the_score_sheet_shows_it(
    browser, site, director, event_with
):
    from django.utils import timezone

    from matches.models import Match, Penalty
    from tournaments.models import Arrival, Event
    from tournaments.services import event_draw, event_round, round_times_set

    from .helpers import open_matches

    event = event_with(Event.Format.SINGLE, 4, lengths=(7,))
    event_draw(event=event, seed=1, user=director)
    called = timezone.now() - datetime.timedelta(minutes=12)
    round_times_set(
        round=event_round(event=event, number=1), starts_at=called, clocks="none", user=director
    )
    match = open_matches(event)[0]
    early, late = match.player_a.name, match.player_b.name
    dashboard = f"{site.url}/tournaments/{event.tournament.pk}/dashboard/"

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT")
    page = phone.new_page()
    sign_in(page, site)
    page.goto(dashboard)
    assert "Chiamate, non iniziate" in page.locator("#called").inner_text()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    phone.close()

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    sign_in(page, site)
    page.goto(dashboard)
    waiting = page.locator("#called li.arriving", has_text=late)
    assert "12 minutes late · 2 penalty points accrued" in waiting.inner_text()
    waiting.get_by_role("button", name=f"Arrived: {late}").click()
    page.wait_for_url("**/dashboard/#called")
    assert f"{late} arrived: confirm the lateness penalty" in page.locator("#messages").inner_text()
    step = page.locator("#called li.arrival-pending", has_text=late)
    assert f"arrived 12 minutes late: 2 penalty points to {early}" in step.inner_text()
    step.get_by_role("button", name="Confirm").click()
    page.wait_for_url("**/dashboard/#called")
    assert f"The lateness penalty of {late} is confirmed." in page.locator("#messages").inner_text()
    done = page.locator("#called li.arriving", has_text=late).inner_text()
    assert f"2 penalty points to {early}, confirmed" in done

    arrival = Arrival.objects.get(match=match)
    assert (arrival.side, arrival.minutes_late, arrival.state) == (1, 12, "confirmed")
    penalty = Penalty.objects.get(match=match)
    assert (penalty.side, penalty.points, penalty.before_game) == (1, 2, 1)

    page.goto(f"{site.url}{Match.objects.get(pk=match.pk).get_absolute_url()}")
    sheet = " ".join(page.locator("main").inner_text().split())
    assert "Score 2–0" in sheet, sheet  # the points scored before the first game
    row = " ".join(page.locator("tr.penalty").inner_text().split())  # before game 1
    assert f"Penalty 0–0 2 points to {early} — {late} 12 minutes late 2 2–0" in row, row
    context.close()
