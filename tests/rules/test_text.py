"""One-line text (issue 23.5): what names, clubs and a .mat file's fields are made of."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from rules.text import one_line, one_line_problem

# every character that ends a line somewhere (str.splitlines, Unicode) or hides itself
BREAKS = list("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")
BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x61C)]
HIDDEN = ["\x00", "\x1b", "\x7f", "\u200b", "\ufeff", "\u00ad", "\ud800", *BIDI]
ANY_TEXT = st.text(st.characters() | st.sampled_from(BREAKS + HIDDEN), max_size=60)


def test_a_name_typed_across_lines_is_one_line():
    assert one_line("Anna\r\nRossi") == "Anna Rossi"
    assert one_line(" Anna \n\n Rossi\t(Milano) ") == "Anna Rossi (Milano)"
    assert one_line("Anna\u2028Rossi\u0085") == "Anna Rossi"


def test_the_bidirectional_controls_and_hidden_characters_are_left_out():
    assert one_line("Anna \u202egnuB\u202c Rossi") == "Anna gnuB Rossi"
    assert one_line("An\u200bna\x00 Ro\ufeffssi\x1b") == "Anna Rossi"


def test_spaces_between_words_and_joiners_stay_as_written():
    assert one_line("Anna  Rossi") == "Anna  Rossi"  # a name stored so reads the same
    assert one_line("Anna\u00a0Rossi") == "Anna\u00a0Rossi"
    assert one_line("\u0645\u06cc\u200c\u062e\u0648\u0627\u0645") == (
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645"  # a Persian word needs its non-joiner
    )


def test_each_line_break_and_hidden_character_is_a_problem():
    for character in BREAKS + HIDDEN:
        assert one_line_problem(f"Anna{character}Rossi") == character
    assert one_line_problem("Anna Rossi") is None
    assert one_line_problem("Anna\u00a0Rossi \u200d") is None


def test_a_text_area_joined_into_one_line_may_hold_breaks_but_nothing_hidden():
    assert one_line_problem("Round 2\r\nstarts at 3", joins_lines=True) is None
    for character in BIDI:
        assert one_line_problem(f"Round 2 {character}", joins_lines=True) == character


@given(ANY_TEXT)
def test_any_text_made_one_line_is_one_line_with_nothing_hidden(text):
    made = one_line(text)
    assert one_line_problem(made) is None
    assert len(made.splitlines()) <= 1 and made == made.strip()
    assert one_line(made) == made
    assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in made)


@given(ANY_TEXT)
def test_text_with_no_problem_is_left_as_it_is_but_for_its_ends(text):
    if one_line_problem(text) is None:
        assert one_line(text) == text.strip()
