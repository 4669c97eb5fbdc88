"""Dates in the visitor's own English: an en-GB browser reads 23/11/2026, an en-US one 11/23/2026.

The site's languages are English and Italian; LocaleMiddleware turns en-GB into "en", whose
formats are American. When the page is in English, this activates the English the browser asks
for first (en-gb, en-au, ...) where Django has formats for it: the text stays the same (no
variant has a catalogue of the site's own), the dates follow the browser. The language menu
still reads request.LANGUAGE_CODE, "en".
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.formats import iter_format_modules
from django.utils.translation.trans_real import parse_accept_lang_header


def english_variant(accept_language: str) -> str | None:
    """The first English the header asks for with formats of its own, e.g. "en-gb"; or None."""
    for code, _quality in parse_accept_lang_header(accept_language):
        code = code.lower()
        if code == "en" or (code.startswith("en-") and not any(iter_format_modules(code))):
            return None  # the first English asked for is plain or has no formats: American
        if code.startswith("en-"):
            return code
    return None


class EnglishFormatsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if translation.get_language() == "en":
            variant = english_variant(request.META.get("HTTP_ACCEPT_LANGUAGE", ""))
            if variant is not None:
                translation.activate(variant)
        return self.get_response(request)
