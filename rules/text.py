"""Text that stays on one line: a name, a club, a place, a field of a match file.

A name is written into lines of other formats: a .mat file's score line, an email's
subject, a log line. A line break inside it (CR, LF, and the others ``str.splitlines``
knows: VT, FF, the separators U+001C-U+001E, NEL U+0085, U+2028, U+2029) breaks the line
it is written into; an invisible control character (NUL, ESC...) or format character (the
bidirectional overrides U+202A-U+202E and isolates U+2066-U+2069, which turn the text that
follows right to left; the marks U+200E, U+200F and U+061C; zero-width spaces; a stray
byte-order mark) hides what it holds or changes how what follows reads, and makes two
names that look the same different. The joiners U+200C and U+200D are kept: Persian,
the Indic scripts and emoji need them.

Standard library only: the .mat writer (:mod:`rules.matfile`) uses it, and so do the
site's forms (which refuse such text, :func:`one_line_problem`) and services (which store
it made one line, :func:`one_line`, whoever called them: a form, a file imported, the admin).

>>> one_line("Anna\\r\\nRossi ")
'Anna Rossi'
>>> one_line("Anna \\u202eissoR")
'Anna issoR'
>>> one_line_problem("Anna\\nRossi"), one_line_problem("Anna\\u202eRossi")
('\\n', '\\u202e')
>>> one_line_problem("Anna\\nRossi", joins_lines=True) is None
True

A name also sorts as people read it, accents and case aside (:func:`folded`): "Éric"
among the e's, not after "Zoë" as code points would put it.

>>> sorted(["Zoë", "éric", "Anna", "Éric"], key=folded)
['Anna', 'éric', 'Éric', 'Zoë']
"""

from __future__ import annotations

import re
import unicodedata

# what a line of text may hold although Unicode files it among the format characters
_JOINERS = frozenset("\u200c\u200d")
# the categories of hidden characters: controls, format characters, lone surrogates
_HIDDEN = frozenset({"Cc", "Cf", "Cs"})
# the white space that is not a space: what ends a line (str.splitlines), and the tab
_BREAKS = "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"
_BREAK_RUN = re.compile(f"[{_BREAKS}]+")


def _hidden(character: str) -> bool:
    """An invisible control or format character that is not a space (nor a joiner)."""
    return (
        unicodedata.category(character) in _HIDDEN
        and not character.isspace()
        and character not in _JOINERS
    )


def one_line(text: str) -> str:
    """``text`` on one line: the hidden characters left out, each line break or tab (with
    the spaces around it) one space, no space at either end; spaces between words stay as
    they were (a name already stored reads the same)."""
    if text.isprintable():  # the usual name: nothing hidden, no break
        return text.strip()
    shown = "".join(c for c in text if not _hidden(c))
    lines = (line.strip() for line in _BREAK_RUN.split(shown))
    return " ".join(line for line in lines if line)


def one_line_problem(text: str, *, joins_lines: bool = False) -> str | None:
    """The first character that keeps ``text`` from being one line, None when none does.

    ``joins_lines``: a text area whose lines the site joins into one (an announcement):
    only the hidden characters are a problem, its line breaks are not.
    """
    if text.isprintable():
        return None
    for character in text:
        if _hidden(character) or (not joins_lines and character in _BREAKS):
            return character
    return None


def _folded_once(text: str) -> str:
    """Case folded, then decomposed with the accents (the combining marks) dropped,
    spaces one. Case first: folding a case can give a mark its letter back (the Greek
    iota subscript U+0345, a mark, folds to the letter iota)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def folded(text: str) -> str:
    """``text`` as a sort key: accents dropped, case folded, spaces one ("Éric  Lefèvre"
    -> "eric lefevre"), so names sort as an Italian or English reader looks them up.

    The compatibility decomposition also reads ligatures and full-width letters as their
    letters ("ﬁ" -> "fi"). One pass may not be the end: a decomposition can give capitals
    ("℡" -> "TEL", a bold "𝐀" -> "A"), so the key is folded again until nothing changes
    (two passes at most for each character of Unicode 14; the second pass of an
    ordinary name changes nothing). Hence folding twice is folding once (the key of a
    key is the key), and case does not count: the first pass folds the case of ``text``
    and of ``text.casefold()`` to the same text (case folding twice is folding once).

    >>> folded("\\u0345"), folded("\\u2121 Anna")
    ('ι', 'tel anna')
    """
    key = _folded_once(text)
    while (again := _folded_once(key)) != key:
        key = again
    return key
