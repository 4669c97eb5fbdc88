"""A chouette game in progress and a finished one, as plain values.

The game keeps each member's cube (:mod:`rules.chouette.cubes`), who is still in, the
answers to the box's double being answered, and the game's ledger so far: a drop or a
deal settles at once (Galore 3.3, club practice), the board's result at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..money import Level
from ..settlement import Transfer
from .cubes import BOX, MEMBER, ExtraCube, MemberCube

__all__ = ["BoxRound", "GameRecord", "GameState"]

_NO_OUTCOMES: Mapping[str, bool] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class BoxRound:
    """The box's double while its answers come in (Galore 3.3, 3.4).

    ``base`` holds each member's cube before the double (what a drop pays); ``answers``
    each member's first answer; ``initial``: no cube had been turned before it.
    """

    members: tuple[str, ...]
    base: tuple[tuple[str, int], ...]
    answers: tuple[tuple[str, str], ...] = ()
    initial: bool = False


@dataclass(frozen=True, slots=True)
class GameState:
    """A game being played: ``playing`` are the members still in, in lineup order.

    ``acting_captain`` rolls for the team: the captain, or after the captain dropped or
    dealt, the best-placed member still in (Galore 3.3). ``outcomes`` says, for each member
    out of the game, whether the box won against them; ``ledger`` what was settled so far.
    """

    number: int
    box: str
    partner: str | None
    captain: str
    acting_captain: str
    members: tuple[str, ...]
    playing: tuple[str, ...]
    cubes: Mapping[str, MemberCube]
    table_size: int
    extras: tuple[ExtraCube, ...] = ()
    automatic: int = 0
    round: BoxRound | None = None
    extra_window: tuple[str, ...] = ()
    extra_taker: str | None = None
    extra_value: int = 0
    outcomes: Mapping[str, bool] = field(default_factory=lambda: _NO_OUTCOMES)
    ledger: tuple[Transfer, ...] = ()

    @property
    def awaiting(self) -> tuple[str, ...]:
        """Who must answer now: "box" and member ids (an extra cube's taker too)."""
        waiting: list[str] = []
        if any(self.cubes[m].answerer == BOX for m in self.playing):
            waiting.append(BOX)
        waiting += [m for m in self.playing if self.cubes[m].answerer == MEMBER]
        for extra in self.extras:
            answerer = extra.answerer
            if answerer is not None and answerer not in waiting:
                waiting.append(answerer)
        return tuple(waiting)

    @property
    def over(self) -> bool:
        """Whether every member is out: the game is finished."""
        return not self.playing


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game: who played which role, what it settled, and who won for the rotation.

    ``box_wins``: the box's result against the acting captain at the end (Galore 3.1, 3.5);
    ``box_kept``: whether the box kept the box under the chouette's box keeping.
    """

    number: int
    box: str
    partner: str | None
    captain: str
    acting_captain: str
    ledger: tuple[Transfer, ...]
    box_wins: bool
    box_kept: bool
    level: Level | None = None
    resigned: bool = False
