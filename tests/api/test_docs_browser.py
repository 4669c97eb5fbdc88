"""The API's docs page in a real browser: django-ninja's own copy of Swagger UI, served by the
site (no CDN, so no network needed), under the site's Content-Security-Policy."""

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


def test_the_docs_list_every_address_and_try_one_under_the_csp(browser, site, match5, record):
    record(match5, 0)
    page = browser.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    outside = []
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(site.url) else None,
    )
    response = page.goto(site.url + "/api/v1/docs")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    page.locator(".opblock").first.wait_for()
    assert page.locator(".opblock-summary-path").count() == 11
    assert "/api/v1/matches/{pk}" in page.locator(".swagger-ui").inner_text()
    # try an address from the page: Swagger UI calls the API itself
    block = page.locator(".opblock", has=page.locator('[data-path="/api/v1/matches/{pk}"]'))
    block.locator(".opblock-summary").click()
    block.get_by_role("button", name="Try it out").click()
    block.locator('input[placeholder="pk"]').fill(str(match5.pk))
    block.get_by_role("button", name="Execute").click()
    result = block.locator(".live-responses-table tbody .response-col_status").first
    result.wait_for()
    assert result.inner_text().strip().startswith("200")
    assert '"crawford"' in block.locator(".live-responses-table").inner_text()
    assert problems == [] and outside == []
