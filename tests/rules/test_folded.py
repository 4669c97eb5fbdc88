"""Names sorted as people read them: rules.text.folded, the key behind Player.sort_name."""

from __future__ import annotations

import unicodedata

from hypothesis import example, given
from hypothesis import strategies as st

from rules.text import folded

ACCENTS = "\u0300\u0301\u0302\u0303\u0308\u030a\u0327"  # grave, acute, circumflex, tilde, ...
LETTER = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
NAMES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(NAMES)
@example("\u0345")
@example("\U0001d400")  # MATHEMATICAL BOLD CAPITAL A: decomposes to a capital, folded again
def test_folding_twice_is_folding_once(text):
    assert folded(folded(text)) == folded(text)


@given(NAMES)
@example("\u0345")  # the iota subscript, a mark, whose case folds to the letter iota
@example("\u1f80")  # alpha with psili and the iota subscript: its case folds to "ἀι"
def test_case_does_not_count(text):
    assert folded(text.casefold()) == folded(text)


@given(st.text(LETTER, max_size=20))
def test_capitals_and_small_letters_fold_alike(text):
    assert folded(text.upper()) == folded(text.lower()) == text.lower()


@given(st.lists(st.tuples(LETTER, st.text(st.sampled_from(ACCENTS), max_size=2)), max_size=20))
def test_an_accented_name_sorts_with_its_plain_letters(letters):
    plain = "".join(base for base, _ in letters)
    accented = unicodedata.normalize("NFC", "".join(base + marks for base, marks in letters))
    assert folded(accented) == plain.lower()


@given(st.lists(st.text(LETTER, min_size=1, max_size=8), max_size=12))
def test_plain_names_sort_as_before_case_aside(names):
    assert sorted(names, key=lambda n: (folded(n), n)) == sorted(
        names, key=lambda n: (n.lower(), n)
    )


def test_the_names_of_the_evening_sort_as_people_read_them():
    names = ["Zoë Müller", "Éric Lefèvre", "Tommaso Rè", "ettore Neri", "Ángel Ruiz", "Anna Rossi"]
    assert sorted(names, key=folded) == [
        "Ángel Ruiz",
        "Anna Rossi",
        "Éric Lefèvre",
        "ettore Neri",
        "Tommaso Rè",
        "Zoë Müller",
    ]
    assert sorted(names)[-1] != "Zoë Müller"  # code points put the accented capitals last
    assert folded("Niccolò  D'Agostino") == "niccolo d'agostino"
    assert folded("Straße") == "strasse" and folded("ﬁlippo") == "filippo"
