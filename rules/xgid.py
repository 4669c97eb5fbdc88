"""eXtreme Gammon's XGID, read and written through the same values as gnubg's IDs.

An XGID draws the board from the bottom player's side whoever is on roll; the
bottom player is gnubg's player 1. Reading one gives the position from the side
of the player on roll and a :class:`MatchState`, so an XGID converts to a gnubg
Position ID and Match ID and back.

>>> position, state = parse_xgid("XGID=-B-BAaCBC-----a-----cdBcc-:1:-1:1:66:1:4:0:5:10")
>>> f"{position.id}:{state.id}"
'd96BAAKz3A4ADA:QQm7AEAACAAA'
>>> format_xgid(position, state)
'XGID=-B-BAaCBC-----a-----cdBcc-:1:-1:1:66:1:4:0:5:10'
"""

from __future__ import annotations

from .errors import InvalidPositionError, InvalidXgidError
from .matchid import GameState, MatchState
from .messages import Message
from .position import BAR, CHECKERS, OFF, Position

BOTTOM = 1  # gnubg's player 1 is XG's bottom player (uppercase checkers)
TOP = 0


def parse_xgid(text: str) -> tuple[Position, MatchState]:
    """Read an XGID into the position (player on roll's side) and the match state."""
    body = text.strip()
    if body.upper().startswith("XGID="):
        body = body[5:]
    fields = body.split(":")
    if len(fields) < 9:
        raise InvalidXgidError(Message("xgid-fields", {"text": repr(text), "count": len(fields)}))
    board = fields[0]
    if len(board) != 26:
        raise InvalidXgidError(Message("xgid-board-length", {"length": len(board)}))
    bottom = [0] * 26
    top = [0] * 26
    for index, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "P":
            count, side = ord(char) - 64, bottom
            point = index  # index 1-24 is the bottom player's point, 25 its bar
        elif "a" <= char <= "p":
            count, side = ord(char) - 96, top
            point = 25 - index  # the top player's own numbering; index 0 is its bar
        else:
            raise InvalidXgidError(Message("xgid-board-char", {"char": repr(char)}))
        if (side is bottom and index == 0) or (side is top and index == 25):
            raise InvalidXgidError(
                Message("xgid-board-place", {"index": index, "char": repr(char)})
            )
        side[point] += count
    for side in (bottom, top):
        side[OFF] = CHECKERS - sum(side)
    try:
        cube_log = int(fields[1])
        owner_field = int(fields[2])
        turn_field = int(fields[3])
        dice_field = fields[4]
        score_bottom, score_top = int(fields[5]), int(fields[6])
        crawford_field = int(fields[7])
        match_length = int(fields[8])
    except ValueError:
        raise InvalidXgidError(Message("xgid-numbers", {"text": repr(text)})) from None
    if turn_field not in (1, -1) or owner_field not in (1, 0, -1) or not 0 <= cube_log <= 15:
        raise InvalidXgidError(Message("xgid-range", {"text": repr(text)}))
    on_roll = BOTTOM if turn_field == 1 else TOP
    try:
        if on_roll == BOTTOM:
            position = Position.from_counts(bottom, top)
        else:
            position = Position.from_counts(top, bottom)
    except InvalidPositionError as error:
        raise InvalidXgidError(
            Message("impossible-board", {"text": repr(text), "reason": error.cited})
        ) from None
    dice: tuple[int, int] | None = None
    double_offered = False
    if dice_field in ("D", "B", "R"):
        double_offered = True
    elif dice_field != "00":
        if len(dice_field) != 2 or not all(c in "123456" for c in dice_field):
            raise InvalidXgidError(Message("xgid-dice", {"dice": repr(dice_field)}))
        dice = (int(dice_field[0]), int(dice_field[1]))
    state = MatchState(
        match_length=match_length,
        score=(score_top, score_bottom),
        cube=1 << cube_log,
        cube_owner={1: BOTTOM, -1: TOP, 0: None}[owner_field],
        player_on_roll=on_roll,
        turn=(1 - on_roll) if double_offered else on_roll,
        crawford=bool(crawford_field) if match_length else False,
        game_state=GameState.PLAYING,
        double_offered=double_offered,
        dice=dice,
    )
    return position, state


def format_xgid(position: Position, state: MatchState, *, max_cube_log: int = 10) -> str:
    """Write the position (player on roll's side) and match state as an XGID."""
    if state.player_on_roll == BOTTOM:
        bottom, top = position.on_roll, position.opponent
    else:
        top, bottom = position.on_roll, position.opponent
    chars = []
    for index in range(26):
        if index == 0:
            mine, theirs = 0, top[BAR]
        elif index == 25:
            mine, theirs = bottom[BAR], 0
        else:
            mine, theirs = bottom[index], top[25 - index]
        if mine:
            chars.append(chr(64 + mine))
        elif theirs:
            chars.append(chr(96 + theirs))
        else:
            chars.append("-")
    owner = {BOTTOM: 1, TOP: -1, None: 0}[state.cube_owner]
    turn = 1 if state.player_on_roll == BOTTOM else -1
    if state.double_offered:
        dice = "D"
    elif state.dice:
        dice = f"{state.dice[0]}{state.dice[1]}"
    else:
        dice = "00"
    crawford = int(state.crawford) if state.match_length else 0
    fields = [
        "".join(chars),
        str(state.cube.bit_length() - 1),
        str(owner),
        str(turn),
        dice,
        str(state.score[BOTTOM]),
        str(state.score[TOP]),
        str(crawford),
        str(state.match_length),
        str(max_cube_log),
    ]
    return "XGID=" + ":".join(fields)
