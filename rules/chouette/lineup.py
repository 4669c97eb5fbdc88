"""The order at a chouette's table: the box, the box's partner, the team, those on a break.

The opening roll sets the order (Galore 3.1): the highest die is the box, the second the
captain, the others queue in the order of their dice; equal dice roll again. Players join
at the bottom and leave or take a break at any time; one back from a break joins at the
bottom too (club practice: a place is not kept).

>>> lineup = Lineup.opening({"ann": 6, "bob": 2, "cy": 4})
>>> lineup.box, lineup.captain, lineup.team
('ann', 'cy', ('cy', 'bob'))
>>> lineup.joined("dee").rested("cy").team
('bob', 'dee')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..errors import IllegalActionError
from ..messages import Message

__all__ = ["Lineup"]

ORDER = "Galore 3.1"


@dataclass(frozen=True, slots=True)
class Lineup:
    """Who is where: ``team[0]`` is the captain; ``resting`` players are on a break."""

    box: str
    partner: str | None = None
    team: tuple[str, ...] = ()
    resting: tuple[str, ...] = ()

    @property
    def captain(self) -> str | None:
        """The member who rolls and moves for the team, None when the box is alone."""
        return self.team[0] if self.team else None

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone at the table and not on a break: box, partner, team, in that order."""
        partner = (self.partner,) if self.partner is not None else ()
        return (self.box, *partner, *self.team)

    @property
    def everyone(self) -> tuple[str, ...]:
        """The players and those on a break."""
        return (*self.players, *self.resting)

    @classmethod
    def opening(cls, rolls: Mapping[str, int]) -> Lineup:
        """The order of the opening roll: highest die box, then captain, then the team."""
        return cls.rolled(tuple(rolls.items()))

    @classmethod
    def rolled(cls, rolls: Sequence[tuple[str, int]]) -> Lineup:
        """The order of an opening roll with its roll-offs: players tied roll again (Galore
        3.1), and a player named again is a re-roll that orders those tied.

        >>> Lineup.rolled((("ann", 4), ("bob", 4), ("cy", 2), ("ann", 1), ("bob", 6))).team
        ('ann', 'cy')
        """
        dice: dict[str, tuple[int, ...]] = {}
        for player, die in rolls:
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                raise IllegalActionError(
                    Message("chouette-opening-die", {"player": player, "die": str(die)}),
                    rule=ORDER,
                )
            earlier = dice.get(player, ())
            if earlier and not any(
                other != player and theirs[: len(earlier)] == earlier
                for other, theirs in dice.items()
            ):
                raise IllegalActionError(
                    Message("chouette-opening-reroll", {"player": player}), rule=ORDER
                )
            dice[player] = (*earlier, die)
        if len(dice) < 2:
            raise IllegalActionError(
                Message("chouette-opening-players", {"count": len(dice)}), rule=ORDER
            )
        players = list(dice)
        for index, player in enumerate(players):
            for other in players[index + 1 :]:
                common = min(len(dice[player]), len(dice[other]))
                if dice[player][:common] == dice[other][:common]:
                    raise IllegalActionError(
                        Message("chouette-opening-tie", {"player": player, "other": other}),
                        rule=ORDER,
                    )
        order = sorted(players, key=lambda p: dice[p], reverse=True)
        return cls(box=order[0], team=tuple(order[1:]))

    def joined(self, player: str) -> Lineup:
        """A newcomer joins at the bottom (Galore 3.1)."""
        self._require_absent(player)
        return replace(self, team=(*self.team, player))

    def left(self, player: str) -> Lineup:
        """A player leaves the table; a box who leaves is replaced by the captain."""
        if player in self.resting:
            return replace(self, resting=_without(self.resting, player))
        return self._out(player)

    def rested(self, player: str) -> Lineup:
        """A player takes a break: off the lineup until back, and then at the bottom."""
        if player in self.resting:
            raise IllegalActionError(Message("chouette-resting", {"player": player}), rule=ORDER)
        out = self._out(player)
        return replace(out, resting=(*out.resting, player))

    def back(self, player: str) -> Lineup:
        """A player back from a break joins at the bottom (club practice)."""
        if player not in self.resting:
            raise IllegalActionError(
                Message("chouette-not-resting", {"player": player}), rule=ORDER
            )
        return replace(self, team=(*self.team, player), resting=_without(self.resting, player))

    def with_partner(self, player: str | None) -> Lineup:
        """The box's partner for the next game (Galore 3.6), taken out of the team."""
        team = self.team if self.partner is None else (*self.team, self.partner)
        if player is None:
            return replace(self, partner=None, team=team)
        return replace(self, partner=player, team=_without(team, player))

    def _out(self, player: str) -> Lineup:
        if player == self.box:
            if not self.team:
                raise IllegalActionError(
                    Message("chouette-last-player", {"player": player}), rule=ORDER
                )
            return replace(self, box=self.team[0], team=self.team[1:])
        if player == self.partner:
            return replace(self, partner=None)
        if player in self.team:
            return replace(self, team=_without(self.team, player))
        raise IllegalActionError(Message("chouette-not-at-table", {"player": player}), rule=ORDER)

    def _require_absent(self, player: str) -> None:
        if player in self.everyone:
            raise IllegalActionError(Message("chouette-at-table", {"player": player}), rule=ORDER)


def _without(players: tuple[str, ...], player: str) -> tuple[str, ...]:
    return tuple(p for p in players if p != player)
