"""What a round is called: "Round 3", or double elimination's "Final" and "Final, played again".

A match's round is a number (its place in the order of play) and a stage read from its
bracket place (:func:`tournaments.pairing.bracket.stage_of`). Every page, print and the API
name a round through :class:`RoundName`, so the final is called the final everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .pairing.bracket import Stage, stage_of


@dataclass(frozen=True)
class RoundName:
    number: int
    stage: Stage = Stage.ROUND

    @property
    def final(self) -> bool:
        """Double elimination's final, or the final played again."""
        return self.stage != Stage.ROUND

    @property
    def title(self) -> str:
        """As a heading: "Round 3", "Final", "Final, played again"."""
        if self.stage == Stage.FINAL:
            return _("Final")
        if self.stage == Stage.FINAL_AGAIN:
            return _("Final, played again")
        return _("Round %(number)s") % {"number": self.number}

    def __str__(self) -> str:
        """In running text: "round 3", "final", "final, played again"."""
        if self.stage == Stage.FINAL:
            return _("final")
        if self.stage == Stage.FINAL_AGAIN:
            return _("final, played again")
        return _("round %(number)s") % {"number": self.number}


def round_name(number: int, keys: Iterable[str] = ()) -> RoundName:
    """The name of round ``number`` whose matches are at the bracket places ``keys``: the
    final's round holds the final alone, so a stage all its matches share names it."""
    stages = {stage_of(key) for key in keys}
    return RoundName(number, stages.pop() if len(stages) == 1 else Stage.ROUND)
