"""A player's country as an ISO 3166-1 alpha-2 code, read from what a club may have typed.

The register once held the country as free text ("Italia", "Schweiz", "italy"); it now holds
the code ("IT", "CH") in a django-countries ``CountryField``, and every page shows the
country's name in the visitor's language. Text comes in from a players' CSV file, a tournament
file exported before the change, and the data migration of the register itself: each reads
it with :func:`country_code`, which takes

- a code: alpha-2 ("IT", "it") or alpha-3 ("ITA");
- a name in English, Italian, German or French, as django-countries writes it ("Italy",
  "Italia", "Italien", "Italie"), case, accents and spacing aside ("svizzera", "OSTERREICH");
- a few names people write that are not the list's ("Holland", "England", "USA", "Gran
  Bretagna"): :data:`ALIASES`.

Anything else is None: the caller says so (a CSV row refused, a file's problem, the
migration's audit entry keeping the text); nothing typed is dropped without a word.
"""

from __future__ import annotations

from functools import cache

from django.utils import translation
from django_countries import countries

from rules.text import folded

# the languages a club's spreadsheet or register may name countries in: the site's two, and
# the neighbours' (a Swiss club writes "Schweiz" or "Suisse")
LANGUAGES_READ = ("en", "it", "de", "fr")

# names in common use that are not django-countries' own, as :func:`_key` writes them
ALIASES = {
    "holland": "NL",
    "olanda": "NL",
    "england": "GB",
    "inghilterra": "GB",
    "scotland": "GB",
    "scozia": "GB",
    "wales": "GB",
    "galles": "GB",
    "great britain": "GB",
    "gran bretagna": "GB",
    "grossbritannien": "GB",
    "uk": "GB",
    "usa": "US",
    "united states": "US",
    "stati uniti": "US",
    "america": "US",
    "russia": "RU",
    "czech republic": "CZ",
    "repubblica ceca": "CZ",
    "tschechien": "CZ",
    "south korea": "KR",
    "corea del sud": "KR",
    "vatican": "VA",
    "vaticano": "VA",
    "citta del vaticano": "VA",
}


def _key(name: str) -> str:
    """A name as it is looked up: case, accents, spacing and punctuation aside."""
    for mark in ".'’-,()":
        name = name.replace(mark, " ")
    return folded(name)


@cache
def _names() -> dict[str, str]:
    """Every country's name in each language read, folded, to its code (the first language
    that names it wins; the codes agree wherever names coincide)."""
    found: dict[str, str] = {}
    for language in LANGUAGES_READ:
        with translation.override(language):
            for country in countries:
                found.setdefault(_key(str(country.name)), country.code)
    for name, code in ALIASES.items():
        found.setdefault(name, code)
    return found


def country_code(text: str) -> str | None:
    """The ISO 3166-1 alpha-2 code ``text`` names; "" for empty text; None for text that
    names no country the site knows (see the module's note for what it reads)."""
    text = " ".join(str(text).split())
    if not text:
        return ""
    upper = text.upper()
    if len(upper) == 2 and upper in countries:
        return upper
    if len(upper) == 3 and countries.alpha2(upper):
        return countries.alpha2(upper)
    return _names().get(_key(text))


def country_name(code: str) -> str:
    """The country's name in the active language, for a code; the code itself if it is not
    one (a value kept as it was, e.g. in an old audit entry)."""
    return str(countries.name(code)) if code and code in countries else code
