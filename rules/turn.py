"""A turn played checker by checker, as on a real board, and taken back until it is confirmed.

A player at a board moves one checker at a time. The board must offer only the
moves that can still end in a legal play, since the rules judge the whole play
(both dice when both can be played, WBF 17; the higher die when only one can),
not each checker on its own. :class:`Turn` holds the moves made so far; each
next move is offered only if the rest of the roll can still be played to one of
:func:`rules.movegen.legal_plays`' plays, and a move that cannot be made is
refused with the rule it breaks.

>>> from rules import Position
>>> turn = Turn.begin(Position.start(), (3, 1))
>>> sorted({step.source for step in turn.options})
[6, 8, 13, 24]
>>> turn = turn.move(8, 5)
>>> [str(step) for step in turn.options if step.source == 6]
['6/5']
>>> turn.move(6, 5).play.notation
'8/5 6/5'
>>> turn.undo().steps
()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .errors import IllegalPlayError
from .messages import Message
from .movegen import check_dice
from .notation import _Board
from .play import Play, Step, point_name
from .position import BAR, OFF, Position, pack

# _completes' memory: (mover's counts, opponent's counts, dice left) -> whether a play is reachable
_Memo = dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], bool]


@dataclass(frozen=True)
class Turn:
    """A roll being played: the position before it, the dice, and the moves made so far.

    ``moves`` are (source, die) pairs, so a checker borne off with a larger die
    than its point says which die it used.
    """

    position: Position
    dice: tuple[int, int]
    moves: tuple[tuple[int, int], ...] = ()
    _plays: tuple[Play, ...] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def begin(
        cls, position: Position, dice: Sequence[int], plays: Sequence[Play] | None = None
    ) -> Turn:
        """The turn before any checker moves; ``plays``: the legal plays, when known already."""
        roll = check_dice(dice)
        return cls(position, roll, (), tuple(plays) if plays is not None else None)

    # --- what the board shows --------------------------------------------------

    @cached_property
    def plays(self) -> tuple[Play, ...]:
        return self._plays if self._plays is not None else self.position.legal_plays(self.dice)

    @cached_property
    def _walk(self) -> tuple[list[int], list[int], tuple[Step, ...], tuple[int, ...]]:
        mine, theirs = list(self.position.on_roll), list(self.position.opponent)
        dice = list(self._all_dice)
        steps = []
        for source, die in self.moves:
            steps.append(_apply(mine, theirs, source, die))
            dice.remove(die)
        return mine, theirs, tuple(steps), tuple(dice)

    @property
    def _all_dice(self) -> tuple[int, ...]:
        first, second = self.dice
        return (first,) * 4 if first == second else (first, second)

    @property
    def steps(self) -> tuple[Step, ...]:
        """The checker moves made so far, in order."""
        return self._walk[2]

    @property
    def dice_left(self) -> tuple[int, ...]:
        """The dice not used yet (all four of a double at the start)."""
        return self._walk[3]

    @property
    def board(self) -> Position:
        """The board as it stands mid-turn, the mover still on roll."""
        mine, theirs = self._walk[0], self._walk[1]
        return Position.from_counts(mine, theirs)

    @property
    def options(self) -> tuple[Step, ...]:
        """Every next checker move that can still end in a legal play, one per destination."""
        return tuple(step for step, _ in self._choices)

    @cached_property
    def _choices(self) -> tuple[tuple[Step, int], ...]:
        """The next moves with the die each uses (the smaller, when either would do)."""
        mine, theirs, _, left = self._walk
        if self.play is not None:
            return ()
        targets = {play.result for play in self.plays}
        seen: set[tuple[int, int]] = set()
        memo: _Memo = {}
        found = []
        for source in range(BAR, OFF, -1):
            if not mine[source]:
                continue
            for die in sorted(set(left)):
                tried = _try(mine, theirs, source, die)
                if tried is None or (tried[0].source, tried[0].destination) in seen:
                    continue
                rest = list(left)
                rest.remove(die)
                if _completes(tried[1], tried[2], tuple(rest), targets, memo):
                    seen.add((tried[0].source, tried[0].destination))
                    found.append((tried[0], die))
        return tuple(found)

    @cached_property
    def play(self) -> Play | None:
        """The legal play these moves make, once they make one; None until then."""
        mine, theirs = self._walk[0], self._walk[1]
        result = Position._from_packed(pack(theirs), pack(mine))
        return next((play for play in self.plays if play.result == result), None)

    @property
    def no_play(self) -> bool:
        """The roll cannot be played at all: the turn is lost (WBF 17)."""
        return not self.plays

    # --- changing it --------------------------------------------------------------

    def move(self, source: int, destination: int) -> Turn:
        """One more checker moved, or :class:`IllegalPlayError` saying which rule forbids it."""
        text = f"{point_name(source)}/{point_name(destination)}"
        for step, die in self._choices:
            if step.source == source and step.destination == destination:
                return Turn(self.position, self.dice, (*self.moves, (source, die)), self._plays)
        if self.play is not None:
            complete = Message("play-complete", {"hop": text, "play": self.play.notation})
            raise IllegalPlayError(complete)
        mine, theirs, _, left = self._walk
        board = _Board(mine[:], theirs[:])
        problem = board.hop(source, destination, list(left), self.dice)
        if problem:
            reason, rule = problem
            raise IllegalPlayError(reason, rule=rule)
        if self.plays:
            raise IllegalPlayError(Message("rest-unplayable", {"hop": text}), rule="WBF 17")
        roll = f"{self.dice[0]}-{self.dice[1]}"
        raise IllegalPlayError(Message("no-legal-play", {"roll": roll}), rule="WBF 17")

    def playing(self, play: Play) -> Turn:
        """The turn with the whole of ``play`` (one of :attr:`plays`) made, from no move.

        A play typed whole is checked as a whole, not move by move: a first move can
        reach the position of another, shorter-looking legal play (a 2-1 with checkers on
        the 2 and the 1 points: 2/off leaves what 2/1 1/off leaves), and :meth:`move` would
        then take no second move. Each step's die is the one that moves it there
        (searched, for a checker borne off with a higher die than its point).
        """
        if play not in self.plays:
            raise IllegalPlayError(Message("play-not-legal", {"play": play.notation}))
        mine, theirs = list(self.position.on_roll), list(self.position.opponent)
        moves = _dice_for(mine, theirs, play.steps, self._all_dice)
        if moves is None:  # a legal play's steps can always be played: not reached
            raise IllegalPlayError(Message("play-not-legal", {"play": play.notation}))
        return Turn(self.position, self.dice, moves, self._plays)

    def undo(self) -> Turn:
        """The last checker move taken back (a play is only final once confirmed, WBF 14)."""
        return Turn(self.position, self.dice, self.moves[:-1], self._plays)


def _try(
    mine: list[int], theirs: list[int], source: int, die: int
) -> tuple[Step, list[int], list[int]] | None:
    """One checker moved by one die if the rules allow that single step, with the boards after."""
    if mine[BAR] and source != BAR:
        return None
    board = _Board(mine[:], theirs[:])
    destination = max(source - die, OFF)
    if board._single(source, destination, die):
        return None
    hit = destination != OFF and theirs[25 - destination] == 1
    return (Step(source, destination, hit), board.mine, board.theirs)


def _apply(mine: list[int], theirs: list[int], source: int, die: int) -> Step:
    tried = _try(mine, theirs, source, die) if mine[source] else None
    if tried is None:
        raise IllegalPlayError(
            Message("cannot-move-die", {"point": point_name(source), "die": die})
        )
    mine[:], theirs[:] = tried[1], tried[2]
    return tried[0]


def _completes(
    mine: list[int],
    theirs: list[int],
    left: tuple[int, ...],
    targets: set[Position],
    memo: _Memo,
) -> bool:
    """Whether some way of playing the dice ``left`` ends in one of the legal plays."""
    key = (tuple(mine), tuple(theirs), left)
    if key in memo:
        return memo[key]
    memo[key] = False
    if Position._from_packed(pack(theirs), pack(mine)) in targets:
        memo[key] = True
        return True
    for die in set(left):
        rest = list(left)
        rest.remove(die)
        for source in range(BAR, OFF, -1):
            if mine[source]:
                tried = _try(mine, theirs, source, die)
                if tried and _completes(tried[1], tried[2], tuple(rest), targets, memo):
                    memo[key] = True
                    return True
    return False


def _dice_for(
    mine: list[int], theirs: list[int], steps: Sequence[Step], left: tuple[int, ...]
) -> tuple[tuple[int, int], ...] | None:
    """The (source, die) moves that make ``steps`` in order with the dice ``left``; None if
    none do. A step's die is its distance, or for a checker borne off any die the rules let
    bear it off; the few dice of a roll are simply tried in turn."""
    if not steps:
        return ()
    step, rest = steps[0], steps[1:]
    for die in sorted(set(left)):
        tried = _try(mine, theirs, step.source, die) if mine[step.source] else None
        if tried is None or tried[0].destination != step.destination:
            continue
        remaining = list(left)
        remaining.remove(die)
        after = _dice_for(tried[1], tried[2], rest, tuple(remaining))
        if after is not None:
            return ((step.source, die), *after)
    return None
