"""A director records a 5-point match in a real browser (headless Debian chromium, Playwright)."""

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]
# Playwright's sync API runs an event loop in this thread; the test's own database calls are
# ordinary synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def site(django_db_setup, live_server):
    """The live server, started after the test database so it stops (and lets go) first."""
    return live_server


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield chromium
        chromium.close()


def record_game(page, winner, cube, result):
    page.get_by_role("radio", name=winner, exact=True).check()
    page.get_by_label("Cube").select_option(str(cube))
    page.get_by_label("Result").select_option(result)
    page.get_by_role("button", name="Record the game").click()


def test_a_director_records_a_match_through_the_crawford_game(
    browser, site, django_user_model, directors_group, match5
):
    user = django_user_model.objects.create_user("td", password="td-password-1")
    user.groups.add(directors_group)
    page = browser.new_page(locale="en-GB")
    page.goto(f"{site.url}/accounts/login/?next=/matches/{match5.pk}/")
    page.get_by_label("Username").fill("td")
    page.get_by_label("Password").fill("td-password-1")
    page.get_by_role("button", name="Sign in").click()
    assert page.get_by_role("heading", name="Record game 1").is_visible()

    record_game(page, "Anna Rossi", 2, "single")  # 2-0
    record_game(page, "Bruno Bianchi", 2, "drop")  # 2-2
    record_game(page, "Anna Rossi", 2, "single")  # 4-2
    assert page.locator("#score").inner_text() == "4–2"
    assert "Game 4 is the Crawford game" in page.locator("#next-game").inner_text()

    record_game(page, "Bruno Bianchi", 2, "single")  # a double in the Crawford game
    assert (
        "Game 4 is the Crawford game: no doubling (WBF 24)."
        in page.locator(".errorlist").inner_text()
    )
    # nothing typed is lost
    assert page.get_by_role("radio", name="Bruno Bianchi", exact=True).is_checked()
    assert page.locator("#score").inner_text() == "4–2"

    page.get_by_label("Cube").select_option("1")
    page.get_by_role("button", name="Record the game").click()  # 4-3
    assert page.locator("#score").inner_text() == "4–3"
    record_game(page, "Anna Rossi", 2, "single")  # post-Crawford, the cube is live: 5-3
    assert page.locator("#score").inner_text() == "5–3"
    assert page.locator("tr.post-crawford").count() == 1

    public = browser.new_page(locale="en-GB")  # a visitor without an account
    public.goto(f"{site.url}/matches/{match5.pk}/")
    assert public.locator("#score").inner_text() == "5–3"
    assert public.locator("#winner").inner_text() == "Anna Rossi wins the match"
    assert public.locator("tr.crawford").count() == 1
    assert public.locator("#record").count() == 0  # no forms for the public
