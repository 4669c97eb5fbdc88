"""Small helpers the site's tests share."""

from __future__ import annotations

import html
import re


def page_words(response) -> str:
    """The page's words as a reader sees them: tags left out, entities read, spaces one."""
    words = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(words))


def browser_sign_in(page, url: str, username: str, password: str) -> None:
    """Sign in through the site's form in a real browser, as a person does, and wait to be let
    in (the form's own button: the header's language button comes first)."""
    page.goto(f"{url}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(lambda address: "/accounts/login/" not in address)
