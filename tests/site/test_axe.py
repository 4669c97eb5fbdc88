"""axe-core (WCAG 2.1 A and AA) over every page of the permission walk, in a real browser
(issue 30): as a visitor, a player and this tournament's director, in English and in Italian,
each at a laptop's 1280 pixels and at a phone's 390.

axe-core comes bundled with axe-playwright-python and is put into each page by Playwright
(the page's own Content-Security-Policy is left as it is). Rules about colour contrast are
checked too; the board's own problems (issue 30.1-5) are checked by its tests."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import CHROMIUM
from tests.helpers import browser_sign_in
from tests.site.test_unique_ids import pages
from tests.test_permissions import ours  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

WCAG = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    # experimental in axe, and what the audit found: a button's name begins with its words
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}
# every language at every width, one after the other in each role's test: a test's own set-up
# (the walk's data, the server, the sign-in) costs about what one more walk does
SEEN = tuple((language, width) for language in ("en-GB", "it-IT") for width in (1280, 390))


@pytest.mark.parametrize("who", ["anonymous", "player", "director"])
def test_no_page_breaks_a_wcag_2_1_aa_rule_axe_can_check(
    browser,
    site,
    ours,  # noqa: F811 (the permission walk's fixture)
    director,
    django_user_model,
    who,
):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    if who == "player":
        player = ours["player"]
        player.user = django_user_model.objects.create_user("walker", password="pw-walker-1")
        player.save(update_fields=["user"])
    found = []
    paths = list(pages(ours))
    for language, width in SEEN:
        context = browser.new_context(
            viewport={"width": width, "height": 900}, locale=language, device_scale_factor=1
        )
        page = context.new_page()
        if who == "director":
            browser_sign_in(page, site.url, "director", "pw-director-1")
        elif who == "player":
            browser_sign_in(page, site.url, "walker", "pw-walker-1")
        for path in paths:
            try:
                answer = page.goto(f"{site.url}{path}")
            except PlaywrightError as error:
                # a file (a .mat, a CSV), or an address only posted to (405, no page)
                if any(s in str(error) for s in ("Download is starting", "CODE_FAILURE")):
                    page.close()  # its error page would cut the next navigation short
                    page = context.new_page()
                    continue
                raise
            if answer is None or answer.status != 200:
                continue
            if "html" not in (answer.headers.get("content-type") or ""):
                continue
            results = axe.run(page, options=WCAG)
            for violation in results.response["violations"]:
                targets = [" ".join(n["target"]) for n in violation["nodes"]][:3]
                found.append(f"{path} ({language}, {width}): {violation['id']} at {targets}")
        context.close()
    assert not found, "\n".join(found)
