"""Refused forms and parameters on the match pages: never a server error, always the page
again with what is wrong (issue 23.3, 23.6)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """The page's words as a reader sees them."""
    words = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(words))


@pytest.mark.parametrize(
    ("page", "parameter"),
    [("matches", "player"), ("players", "name"), ("players", "club"), ("players", "country")],
)
@pytest.mark.parametrize("export", [False, True])
def test_a_filter_longer_than_any_name_is_refused_in_words(client, match5, page, parameter, export):
    """Issue 23.6: a filter of 100,000 characters made SQLite fail ("LIKE or GLOB pattern too
    complex"); it is longer than the field it looks in, and the filter says so."""
    query = {parameter: "x" * 100_000, **({"_export": "csv"} if export else {})}
    response = client.get(reverse(page), query)
    assert response.status_code == 200
    if not export:
        assert "Ensure this value has at most" in text(response)
