"""The board's last action in words, as the status line shows it and a screen reader says it.

A player who cannot see the board learns of the opponent's play only from this sentence
(issue 30): "Marco Bianchi played 6-4: 24/14". Its points are in the board's one numbering
(:meth:`.drawing.Orientation.numbering`), the count the board prints and its labels read,
so a play made by the other player is turned into it (:func:`rules.notation.renumbered`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.words import say
from rules.game import Act, Action
from rules.notation import renumbered
from rules.turn import Turn


def in_count(notation: str, mover: int, counter: int) -> str:
    """``notation``, written in ``mover``'s count, in ``counter``'s: the board's numbers."""
    return notation if mover == counter else renumbered(notation)


def _roll(dice: tuple[int, int] | None) -> str:
    return f"{dice[0]}-{dice[1]}" if dice else ""


def last_action(log: Sequence[Action], names: tuple[str, str], counter: int) -> str:
    """The game's last action as a sentence; "" before the first.

    ``names`` are the players (0 and 1), ``counter`` the player whose count numbers the
    board. A roll with no legal play is logged as the roll, then the lost turn: the lost
    turn is said with its dice and rule (WBF 17).
    """
    if not log:
        return ""
    action = log[-1]
    name, dice = names[action.player], _roll(action.dice)
    cube = action.note.params.get("cube") if action.note is not None else None
    act = action.act
    if act is Act.OPENING_ROLL:
        if action.note is not None:  # equal dice: rolled again, perhaps doubling the cube
            return _("Opening roll %(dice)s: %(note)s.") % {"dice": dice, "note": say(action.note)}
        assert action.dice is not None  # an opening roll always has its two dice
        return _("Opening roll: %(a)s rolled %(x)s, %(b)s rolled %(y)s.") % {
            "a": names[0],
            "x": action.dice[0],
            "b": names[1],
            "y": action.dice[1],
        }
    if act is Act.ROLL:
        return _("%(name)s rolled %(dice)s.") % {"name": name, "dice": dice}
    if act is Act.PLAY:
        play = in_count(action.play or "", action.player, counter)
        return _("%(name)s played %(dice)s: %(play)s.") % {"name": name, "dice": dice, "play": play}
    if act is Act.NO_PLAY:
        return _("%(name)s rolled %(dice)s and cannot move: the turn is lost (WBF 17).") % {
            "name": name,
            "dice": dice,
        }
    if act is Act.DOUBLE:
        return _("%(name)s doubled: the cube is offered at %(cube)s.") % {
            "name": name,
            "cube": cube,
        }
    if act in (Act.TAKE, Act.BEAVER, Act.RACCOON):
        took = {
            Act.TAKE: _("%(name)s took: the cube is at %(cube)s."),
            Act.BEAVER: _("%(name)s beavered: the cube is at %(cube)s."),
            Act.RACCOON: _("%(name)s raccooned: the cube is at %(cube)s."),
        }[act]
        return took % {"name": name, "cube": cube}
    if act is Act.DROP:
        return _("%(name)s dropped the cube.") % {"name": name}
    if act is Act.RESIGN:
        level = action.resignation.value if action.resignation is not None else 1
        return RESIGNS[min(max(level, 1), 3)] % {"name": name}
    if act is Act.ACCEPT:
        return _("%(name)s accepted the resignation.") % {"name": name}
    return _("%(name)s refused the resignation: the game goes on.") % {"name": name}


RESIGNS = {  # a sentence for each level: the words around the level differ by language
    1: gettext_lazy("%(name)s offers to resign a single game."),
    2: gettext_lazy("%(name)s offers to resign a gammon."),
    3: gettext_lazy("%(name)s offers to resign a backgammon."),
}


def pending_moves(turn: Turn | None, mover: int, counter: int) -> str:
    """The checker moves made so far this turn, not yet confirmed, in the board's count."""
    if turn is None:
        return ""
    return in_count(" ".join(str(step) for step in turn.steps), mover, counter)
