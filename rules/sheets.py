"""Whose score sheet stands when the players' sheets disagree.

Each player keeps the score in writing, and in a dispute the one who kept no
score is wrong (WBF 3): so when only one sheet was kept, it stands. When both
were kept and differ, tournament practice takes the sheet of the player who is
trailing, who has no interest in having written their own score too low. When
the sheets do not even agree on who is trailing, no sheet can stand by that
rule, and the director decides from the log.

>>> sheet_ruling(None, (3, 1)).side, sheet_ruling(None, (3, 1)).rule
(1, 'only-one')
>>> ruling = sheet_ruling((4, 2), (3, 2))   # both have player 1 trailing
>>> ruling.side, ruling.score, ruling.rule
(1, (3, 2), 'trailing')
>>> sheet_ruling((4, 2), (2, 3)).rule       # each sheet has the other player behind
'undecided'
"""

from __future__ import annotations

from dataclasses import dataclass

Score = tuple[int, int]


@dataclass(frozen=True, slots=True)
class SheetRuling:
    """The sheet that stands (0 or 1, None when none does), its score, and the rule used.

    ``rule``: none (no sheet kept), only-one (WBF 3), agree (the sheets match),
    trailing (the trailing player's sheet), undecided (they disagree on who trails).
    """

    side: int | None
    score: Score | None
    rule: str


def sheet_ruling(sheet_0: Score | None, sheet_1: Score | None) -> SheetRuling:
    """Apply the score-sheet rule to each player's sheet (each as (player 0's, player 1's))."""
    if sheet_0 is None and sheet_1 is None:
        return SheetRuling(None, None, "none")
    if sheet_0 is None or sheet_1 is None:
        side = 0 if sheet_1 is None else 1
        return SheetRuling(side, sheet_0 if side == 0 else sheet_1, "only-one")
    if tuple(sheet_0) == tuple(sheet_1):
        return SheetRuling(None, (sheet_0[0], sheet_0[1]), "agree")
    trailing = {side for side in (_trailer(sheet_0), _trailer(sheet_1)) if side is not None}
    if len(trailing) == 1:
        side = trailing.pop()
        return SheetRuling(side, sheet_0 if side == 0 else sheet_1, "trailing")
    return SheetRuling(None, None, "undecided")


def _trailer(score: Score) -> int | None:
    if score[0] == score[1]:
        return None
    return 0 if score[0] < score[1] else 1
