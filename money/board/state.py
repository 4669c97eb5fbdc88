"""A money table's game on the board, rebuilt from its records: checkers from the moves, the
cube from the chouette's log.

The board plays one game of the table at a time, as a game of two sides: the box (the
engine's player 0) and the team (player 1), for whom the acting captain moves (Galore 3.1,
3.3). Its checker play is a :class:`rules.game.Game` replayed from the table's moves
(:class:`money.models.TableMove`); the cubes are not the game's: each member's cube, its
doubles and answers, are events of the chouette (:mod:`rules.chouette`), and the board only
reads them. So the board's game keeps its own cube at 1 and scores nothing: the level it ends
at (single, gammon, backgammon) is handed to the chouette's End event, which values it with
each member's cube under the table's options (the Jacoby rule among them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.chouette import Chouette, ChouetteSettings, GameState, MemberCube
from rules.game import Act, Action, Game, Phase
from rules.match import GameContext, MoneyRules, Outcome
from rules.matchid import MatchState, Resignation
from rules.money import Level
from rules.position import Position
from rules.turn import Turn

BOX, TEAM = 0, 1  # the board's sides: the engine's players 0 and 1
BOX_ID = "box"  # how the chouette names the box in ``awaiting`` and a cube's owner

Moves = tuple[tuple[int, int], ...]  # checker moves (source, die) made and not yet confirmed


def board_rules(money: MoneyRules) -> MoneyRules:
    """The board game's own rules: the table's, with nothing that touches its cube.

    The cubes are the chouette's, so the board's game never doubles: no Jacoby rule (it would
    count every gammon single, the game's cube being never turned) and no automatic doubles
    (the chouette raises every member's cube itself, by an AutomaticDouble event).
    """
    return replace(money, jacoby=False, automatic_doubles=0, max_cube=None)


def board_context(settings: ChouetteSettings, number: int) -> GameContext:
    """The engine's context for game ``number`` of a table: money play, no score."""
    return GameContext(rules=board_rules(settings.money), number=number)


def action_data(action: Action) -> dict[str, Any]:
    """A logged action as a TableMove row keeps it: what the matches board keeps of one."""
    return {
        "act": action.act.value,
        "player": action.player,
        "dice": list(action.dice) if action.dice else None,
        "play": action.play or "",
        "resignation": int(action.resignation) if action.resignation else None,
    }


def data_action(data: Mapping[str, Any]) -> Action:
    """The inverse of :func:`action_data`."""
    dice = data.get("dice")
    resignation = data.get("resignation")
    return Action(
        Act(data["act"]),
        int(data["player"]),
        dice=(int(dice[0]), int(dice[1])) if dice else None,
        play=data.get("play") or None,
        resignation=Resignation(resignation) if resignation else None,
    )


def ending_level(game: Game) -> Level | None:
    """The level a finished board game ends at: from the final position when borne off
    (WBF 25), the level given up when a resignation was accepted; None while it goes on."""
    result = game.result
    if result is None:
        return None
    if result.outcome is Outcome.RESIGNATION:
        return Level(int(game.offer or Resignation.SINGLE))
    return Level(result.outcome.multiplier)


@dataclass(frozen=True)
class MoneyBoard:
    """A table's game on the board as the engines see it now."""

    chouette: Chouette
    number: int | None  # the chouette's game on the board; None before the first
    game: Game | None  # its checker play (None before the first game)
    turn: Turn | None  # while a roll is being played, with the moves made so far
    live: GameState | None  # the chouette's game while it goes on, else None

    @property
    def position(self) -> Position | None:
        if self.game is None:
            return None
        return self.turn.board if self.turn is not None else self.game.position

    @property
    def awaiting(self) -> tuple[str, ...]:
        """Who must answer a cube before anyone rolls ("box" or members' ids)."""
        return self.live.awaiting if self.live is not None else ()

    @property
    def playing(self) -> bool:
        """The board's game goes on: the chouette's game is live and nobody has borne off."""
        return self.live is not None and self.game is not None and not self.game.over

    @property
    def captain(self) -> str | None:
        """Who moves for the team now: the acting captain (Galore 3.3)."""
        return self.live.acting_captain if self.live is not None else None

    @property
    def box(self) -> str | None:
        """The box (None before the table's opening roll has set the order)."""
        lineup = self.chouette.lineup
        return lineup.box if lineup is not None else None

    @property
    def roles(self) -> tuple[str | None, str | None, str | None]:
        """The box, its partner and the acting captain of the game shown: the live game's,
        or the last finished one's (the order has rotated since, Galore 3.1)."""
        if self.live is not None:
            return self.live.box, self.live.partner, self.live.acting_captain
        games = self.chouette.games
        if games:
            return games[-1].box, games[-1].partner, games[-1].acting_captain
        return self.box, None, None

    def side_player(self, side: int) -> str | None:
        """The player who acts for a side of the board: the box, or the acting captain."""
        return self.box if side == BOX else self.captain


def board_game(
    chouette: Chouette,
    moves: Iterable[Mapping[str, Any]],
    *,
    number: int | None,
    pending: Moves = (),
) -> MoneyBoard:
    """The board of game ``number`` from its moves' data, with checker moves ``pending``.

    ``number`` is the chouette's live game, or the last game played on the board.
    """
    live = chouette.game
    if live is not None and live.number != number:
        live = None
    if number is None:
        return MoneyBoard(chouette, None, None, None, live)
    game = Game.replay(
        [data_action(data) for data in moves], board_context(chouette.settings, number)
    )
    turn = None
    if live is not None and game.phase is Phase.MOVE and game.dice is not None:
        turn = Turn(game.position, game.dice, tuple(pending), tuple(game.legal_plays))
    return MoneyBoard(chouette, number, game, turn, live)


def drawn_state(board: MoneyBoard, cube: MemberCube | None) -> MatchState:
    """The gnubg state the board is drawn from, with ``cube`` (a member's) in the tray."""
    assert board.game is not None
    state = board.game.match_state
    if cube is None:
        return replace(state, cube=1, cube_owner=None, double_offered=False)
    owner = {BOX_ID: BOX, "member": TEAM}.get(cube.owner or "")
    offered = cube.offered_by is not None
    turn = state.turn
    if offered:  # drawn on the doubler's side, the answerer to act
        turn = TEAM if cube.offered_by == BOX_ID else BOX
    return replace(state, cube=cube.value, cube_owner=owner, double_offered=offered, turn=turn)


def shown_cube(board: MoneyBoard, member: str | None) -> MemberCube | None:
    """The cube drawn on the board for a viewer: a member's own, else the acting captain's."""
    if board.live is None:
        return None
    cubes = board.live.cubes
    if member is not None and member in cubes:
        return cubes[member]
    captain = board.captain
    return cubes.get(captain) if captain is not None else None


def parse_moves(text: str) -> Moves:
    """Checker moves written "source:die source:die" (as the matches board keeps them)."""
    moves: list[tuple[int, int]] = []
    for pair in text.split():
        source, _, die = pair.partition(":")
        moves.append((int(source), int(die)))
    return tuple(moves)


def write_moves(moves: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"{source}:{die}" for source, die in moves)
