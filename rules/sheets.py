"""Whose score sheet stands when the players' sheets disagree.

Each player keeps the score in writing, and in a dispute the one who kept no
score is wrong (WBF 3): so when only one sheet was kept, it stands. That is all
the seeds say. When both were kept and differ, the club's practice (not a seed's
rule) takes the sheet of the player who is trailing, who has no interest in
having written their own score too low. That needs both sheets to name the same
player as trailing: when they do not (each has the other behind, or one shows a
tie and the other a lead), no sheet stands by the practice, and the director
decides from the log or from what the players say.

>>> sheet_ruling(None, (3, 1)).side, sheet_ruling(None, (3, 1)).rule.value
(1, 'only-one')
>>> ruling = sheet_ruling((4, 2), (3, 2))   # both have player 1 trailing
>>> ruling.side, ruling.score, ruling.rule.value
(1, (3, 2), 'trailing')
>>> sheet_ruling((4, 2), (2, 3)).rule.value       # each sheet has the other player behind
'undecided'
>>> sheet_ruling((2, 2), (1, 2)).rule.value       # a tie on one sheet, a lead on the other
'undecided'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

Score = tuple[int, int]


class SheetRule(StrEnum):
    """Which rule settled the sheets, and where it comes from."""

    NONE = "none"  # no sheet was kept
    ONLY_ONE = "only-one"  # WBF 3: the player who kept no score is wrong
    AGREE = "agree"  # the two sheets say the same
    TRAILING = "trailing"  # club practice: the trailing player's sheet
    UNDECIDED = "undecided"  # the sheets do not agree on who trails: the director decides

    @property
    def source(self) -> str:
        """Where the rule comes from: a seed's rule number, or "club practice"."""
        return {SheetRule.ONLY_ONE: "WBF 3", SheetRule.TRAILING: "club practice"}.get(self, "")


@dataclass(frozen=True, slots=True)
class SheetRuling:
    """The sheet that stands (0 or 1, None when none does), its score, and the rule used."""

    side: int | None
    score: Score | None
    rule: SheetRule


def sheet_ruling(sheet_0: Score | None, sheet_1: Score | None) -> SheetRuling:
    """Apply the score-sheet rule to each player's sheet (each as (player 0's, player 1's))."""
    if sheet_0 is None and sheet_1 is None:
        return SheetRuling(None, None, SheetRule.NONE)
    if sheet_0 is None or sheet_1 is None:
        side = 0 if sheet_1 is None else 1
        return SheetRuling(side, sheet_0 if side == 0 else sheet_1, SheetRule.ONLY_ONE)
    if tuple(sheet_0) == tuple(sheet_1):
        return SheetRuling(None, (sheet_0[0], sheet_0[1]), SheetRule.AGREE)
    trailing = _trailer(sheet_0)
    if trailing is not None and trailing == _trailer(sheet_1):
        return SheetRuling(trailing, sheet_0 if trailing == 0 else sheet_1, SheetRule.TRAILING)
    return SheetRuling(None, None, SheetRule.UNDECIDED)


def _trailer(score: Score) -> int | None:
    if score[0] == score[1]:
        return None
    return 0 if score[0] < score[1] else 1
