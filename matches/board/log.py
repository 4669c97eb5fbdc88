"""A board game's log as a page shows it: the list of actions, and one board at a time.

A 25-point match's game has a few hundred actions; drawing the board after each made a
page 25,000 pixels tall that took seconds. The page lists every action and draws the
board after the one chosen (``?at=N``, the last by default), with previous and next.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from rules.game import Act, Action

from ..models import BoardGame
from .drawing import Drawing, Orientation, board_drawing
from .service import board_state


@dataclass(frozen=True)
class LogLine:
    """One action of a game's log."""

    number: int
    player: str
    act: str
    action: Action


@dataclass(frozen=True)
class GameLog:
    """A game's actions and the one shown, with the board right after it."""

    lines: tuple[LogLine, ...]
    shown: LogLine | None  # None when nothing has been played yet
    drawing: Drawing | None
    on_roll: str = ""  # whose pip count comes first on the shown board
    other: str = ""

    @property
    def previous(self) -> int | None:
        """The number of the action before the one shown, if any."""
        if self.shown is None or self.shown.number == 1:
            return None
        return self.shown.number - 1

    @property
    def next(self) -> int | None:
        if self.shown is None or self.shown.number == len(self.lines):
            return None
        return self.shown.number + 1

    @property
    def pips(self) -> tuple[int, int] | None:
        position = self.shown.action.position if self.shown else None
        return position.pips if position else None


def board_game_log(
    *, board_game: BoardGame, at: int | None = None, orientation: Orientation | None = None
) -> GameLog:
    """The game's actions, and the board after action ``at`` (the last when None or past it),
    drawn the way up ``orientation`` says (as the device draws the live board)."""
    match = board_game.match
    names = (str(match.player_a), str(match.player_b))
    log = board_state(board_game=board_game).game.log
    lines = tuple(
        LogLine(number, names[action.player], str(ACT_LABELS[action.act]), action)
        for number, action in enumerate(log, start=1)
    )
    if not lines:
        return GameLog(lines=(), shown=None, drawing=None)
    shown = lines[min(max(at or len(lines), 1), len(lines)) - 1]
    action = shown.action
    assert action.state is not None and action.position is not None  # every action logs both
    on_roll = action.state.player_on_roll
    return GameLog(
        lines=lines,
        shown=shown,
        drawing=board_drawing(
            state=action.state,
            position=action.position,
            names=names,
            orientation=orientation or Orientation(),
        ),
        on_roll=names[on_roll],
        other=names[1 - on_roll],
    )


ACT_LABELS = {
    Act.OPENING_ROLL: gettext_lazy("opening roll"),
    Act.ROLL: gettext_lazy("rolls"),
    Act.PLAY: gettext_lazy("plays"),
    Act.NO_PLAY: gettext_lazy("cannot move (WBF 17)"),
    Act.DOUBLE: gettext_lazy("doubles"),
    Act.TAKE: gettext_lazy("takes"),
    Act.DROP: gettext_lazy("drops"),
    Act.BEAVER: gettext_lazy("beavers"),
    Act.RACCOON: gettext_lazy("raccoons"),
    Act.RESIGN: gettext_lazy("offers to resign"),
    Act.ACCEPT: gettext_lazy("accepts the resignation"),
    Act.REJECT: gettext_lazy("plays on"),
}
