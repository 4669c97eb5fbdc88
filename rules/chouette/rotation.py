"""After each game, the new order (Galore 3.1), under the chouette's box keeping.

When the box keeps the box, the captain goes to the bottom and the next member captains;
when it loses it, it goes to the bottom and the (acting) captain becomes the box. A partner
returns to the bottom of the team first (club practice). With ``winners_move_up`` the
members who beat the box go ahead of the others (club practice).
"""

from __future__ import annotations

from ..money import Level
from ..settlement import Transfer
from .lineup import Lineup
from .settings import BoxKeeping, ChouetteSettings
from .state import GameRecord, GameState

__all__ = ["box_net", "finish"]


def box_net(game: GameState, ledger: tuple[Transfer, ...]) -> int:
    """What the box (with its partner) won in this game, net."""
    side = {game.box, game.partner} - {None}
    net = 0
    for transfer in ledger:
        if transfer.payee in side and transfer.payer not in side:
            net += transfer.amount
        elif transfer.payer in side and transfer.payee not in side:
            net -= transfer.amount
    return net


def finish(
    game: GameState,
    lineup: Lineup,
    settings: ChouetteSettings,
    *,
    level: Level | None = None,
    resigned: bool = False,
) -> tuple[GameRecord, Lineup]:
    """The finished game's record and the lineup for the next one."""
    box_wins = game.outcomes.get(game.acting_captain, True)
    if settings.box_keeping is BoxKeeping.CAPTAIN:
        kept = box_wins
    else:
        kept = box_net(game, game.ledger) >= 0
    team = list(lineup.team)
    if lineup.partner is not None:
        team.append(lineup.partner)
    box = lineup.box
    bottom: str | None = None
    if kept or not team:
        kept = True
        if game.captain in team:
            team.remove(game.captain)
            bottom = game.captain
    else:
        new_box = game.acting_captain if game.acting_captain in team else team[0]
        team.remove(new_box)
        bottom, box = box, new_box
    if settings.winners_move_up:
        winners = [p for p in team if game.outcomes.get(p) is False]
        team = winners + [p for p in team if p not in winners]
    if bottom is not None:
        team.append(bottom)
    record = GameRecord(
        number=game.number,
        box=game.box,
        partner=game.partner,
        captain=game.captain,
        acting_captain=game.acting_captain,
        ledger=game.ledger,
        box_wins=box_wins,
        box_kept=kept,
        level=level,
        resigned=resigned,
    )
    return record, Lineup(box=box, partner=None, team=tuple(team), resting=lineup.resting)
