"""The gnubg Match ID: cube, score, dice and whose turn, in 12 base64 characters.

Together with a Position ID it lets a director paste any moment of a game into
GNU Backgammon. Players are numbered as gnubg numbers them: 0 and 1, player 1
being the one gnubg draws at the bottom.

>>> state = MatchState.from_id("QYkqASAAIAAA")
>>> state.match_length, state.score, state.cube, state.cube_owner, state.dice
(9, (2, 4), 2, 0, (5, 2))
>>> state.id
'QYkqASAAIAAA'
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum

from .errors import InvalidMatchIdError
from .messages import Message


class GameState(IntEnum):
    """gnubg's game states, as the Match ID stores them."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(IntEnum):
    """What a resignation gives up: the value of a single game, a gammon or a backgammon."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


# (field, bits), in the order gnubg packs them, least significant bit first.
_FIELDS = (
    ("cube_log", 4),
    ("owner", 2),
    ("player_on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
)


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything a gnubg Match ID holds.

    ``cube_owner`` is None while the cube is centred. ``player_on_roll`` is the
    player whose move it is; ``turn`` the player who must act now (the other
    one while a double or a resignation waits for an answer). ``match_length``
    0 means money play.
    """

    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    turn: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] | None = None

    @property
    def id(self) -> str:
        """The 12-character gnubg Match ID."""
        cube_log = self.cube.bit_length() - 1
        if self.cube < 1 or 1 << cube_log != self.cube or cube_log > 15:
            raise InvalidMatchIdError(Message("match-id-cube", {"cube": self.cube}))
        die1, die2 = self.dice or (0, 0)
        values = {
            "cube_log": cube_log,
            "owner": 3 if self.cube_owner is None else self.cube_owner,
            "player_on_roll": self.player_on_roll,
            "crawford": int(self.crawford),
            "game_state": int(self.game_state),
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": int(self.resignation),
            "die1": die1,
            "die2": die2,
            "match_length": self.match_length,
            "score0": self.score[0],
            "score1": self.score[1],
        }
        bits, shift = 0, 0
        for name, width in _FIELDS:
            value = values[name]
            if not 0 <= value < 1 << width:
                raise InvalidMatchIdError(
                    Message("match-id-field", {"field": name, "value": value})
                )
            bits |= value << shift
            shift += width
        return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def from_id(cls, match_id: str) -> MatchState:
        """Read a gnubg Match ID (12 base64 characters)."""
        text = match_id.strip()
        if len(text) != 12:
            raise InvalidMatchIdError(
                Message("match-id-length", {"text": repr(text), "length": len(text)})
            )
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidMatchIdError(Message("match-id-alphabet", {"text": repr(text)})) from None
        bits = int.from_bytes(raw, "little")
        values = {}
        for name, width in _FIELDS:
            values[name] = bits & ((1 << width) - 1)
            bits >>= width
        owner = values["owner"]
        if owner == 2:
            raise InvalidMatchIdError(Message("match-id-owner", {"text": repr(text)}))
        dice = (values["die1"], values["die2"])
        if dice == (0, 0):
            dice_value = None
        elif not all(1 <= d <= 6 for d in dice):
            raise InvalidMatchIdError(
                Message("match-id-dice", {"text": repr(text), "dice": str(dice)})
            )
        else:
            dice_value = dice
        try:
            game_state = GameState(values["game_state"])
        except ValueError:
            raise InvalidMatchIdError(Message("match-id-state", {"text": repr(text)})) from None
        return cls(
            match_length=values["match_length"],
            score=(values["score0"], values["score1"]),
            cube=1 << values["cube_log"],
            cube_owner=None if owner == 3 else owner,
            player_on_roll=values["player_on_roll"],
            turn=values["turn"],
            crawford=bool(values["crawford"]),
            game_state=game_state,
            double_offered=bool(values["double_offered"]),
            resignation=Resignation(values["resignation"]),
            dice=dice_value,
        )
