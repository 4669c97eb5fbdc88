"""A board game's log as a page shows it: every action with the board right after it."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from rules.game import Act, Action

from ..models import BoardGame
from .drawing import Drawing, board_drawing
from .service import board_state


@dataclass(frozen=True)
class LogLine:
    """One action of a game's log, with the board right after it."""

    number: int
    player: str
    act: str
    action: Action
    drawing: Drawing
    on_roll: str  # whose pip count comes first
    other: str

    @property
    def prefix(self) -> str:
        """Keeps each board's SVG title id unique on the page."""
        return f"a{self.number}-"

    @property
    def pips(self) -> tuple[int, int] | None:
        return self.action.position.pips if self.action.position else None


def board_game_log(*, board_game: BoardGame) -> list[LogLine]:
    """Every action of a board game with the board after it, its Position ID and Match ID."""
    match = board_game.match
    names = (str(match.player_a), str(match.player_b))
    state = board_state(board_game=board_game)
    lines = []
    for number, action in enumerate(state.game.log, start=1):
        drawing = board_drawing(state=action.state, position=action.position, names=names)
        on_roll = action.state.player_on_roll
        lines.append(
            LogLine(
                number,
                names[action.player],
                str(ACT_LABELS[action.act]),
                action,
                drawing,
                names[on_roll],
                names[1 - on_roll],
            )
        )
    return lines


ACT_LABELS = {
    Act.OPENING_ROLL: gettext_lazy("opening roll"),
    Act.ROLL: gettext_lazy("rolls"),
    Act.PLAY: gettext_lazy("plays"),
    Act.NO_PLAY: gettext_lazy("cannot move (WBF 17)"),
    Act.DOUBLE: gettext_lazy("doubles"),
    Act.TAKE: gettext_lazy("takes"),
    Act.DROP: gettext_lazy("drops"),
    Act.BEAVER: gettext_lazy("beavers"),
    Act.RESIGN: gettext_lazy("offers to resign"),
    Act.ACCEPT: gettext_lazy("accepts the resignation"),
    Act.REJECT: gettext_lazy("plays on"),
}
