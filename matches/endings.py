"""How a game ended, in one wording wherever it shows, and the cube as people say it.

The hand-entry form, the score sheet, a player's report and the audit trail say how a
game ended the same way, whether it was entered by hand, played on the board or imported
from a match file: "gammon", "double dropped", "resigned: a gammon". A resignation is
said by what was given up, never by its points ("resignation (2)" reads like a cube).

The cube of a dropped double: the engine and the database keep the value the game was
played for, the cube *before* the refused double, which is what the winner scores
(WBF 23). People, and match files ("Doubles => 2 / Drops"), say the value offered: the
form asks for that and the sheet shows it (:func:`cube_shown`, :func:`cube_kept`), so
"doubled to 2, dropped" is entered as 2 and counts 1 point.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rules.match import Outcome

# the choices of the hand-entry form: one says it all (a resignation with what was given up)
ENDINGS: list[tuple[str, Promise]] = [
    ("single", _("single game")),
    ("gammon", _("gammon")),
    ("backgammon", _("backgammon")),
    ("drop", _("double dropped")),
    ("resigned-1", _("resigned: a single game")),
    ("resigned-2", _("resigned: a gammon")),
    ("resigned-3", _("resigned: a backgammon")),
]
_WORDS = dict(ENDINGS)


def ending_code(result: str, resigned: int | None) -> str:
    """The form's code for a game's ending: the result, or "resigned-2" for a resignation."""
    if result == Outcome.RESIGNATION.value and resigned in (1, 2, 3):
        return f"resigned-{resigned}"
    return result


def ending_text(result: str, resigned: int | None = None) -> str:
    """How the game ended, in the visitor's language: "gammon", "resigned: a gammon"."""
    code = ending_code(result, resigned)
    return str(_WORDS.get(code, code))


def cube_shown(result: str, cube: int) -> int:
    """The cube as people say it: for a dropped double, the value offered (twice the cube
    the game was played for, which is what it scored: WBF 23)."""
    return cube * 2 if result == Outcome.DROP.value else cube


def cube_kept(result: str, shown: int) -> int:
    """The cube the game was played for, from the cube as people say it (:func:`cube_shown`)."""
    return shown // 2 if result == Outcome.DROP.value else shown
