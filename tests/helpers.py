"""Small helpers the site's tests share."""

from __future__ import annotations

import html
import re


def page_words(response) -> str:
    """The page's words as a reader sees them: tags left out, entities read, spaces one."""
    words = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(words))
