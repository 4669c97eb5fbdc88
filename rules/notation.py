"""Reading plays as people and programs write them, and resolving them to one legal play.

Match files write the same play many ways: ``bar/22`` or ``25/22``, ``6/off`` or
``6/0``, ``24/15`` for ``24/18/15``, ``13/7*`` or a hit left unmarked,
``8/5(2)`` or ``8/5 8/5``, ``24/18/13`` chained. The reader turns any of these
into checker moves, then picks the one legal play they describe. A play the
rules forbid is refused with the reason and the rule, so the message can be
shown to a director as it is.

>>> from rules import Position
>>> resolve_play(Position.start(), (6, 5), "24/13").notation
'24/13'
>>> resolve_play(Position.start(), (6, 5), "13/7")
Traceback (most recent call last):
...
rules.errors.IllegalPlayError: WBF 17: both dice can be played, so both must be
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError
from .messages import Message
from .movegen import can_play, check_dice, legal_plays, partial_results, reaching_plays
from .play import Play, point_name
from .position import BAR, OFF, Position

_POINT = r"(?:bar|off|b|o|\d{1,2})"
_TOKEN = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$", re.IGNORECASE)
_NO_PLAY = {"", "-", "cannot move", "can't move", "no move", "no legal move", "dance", "dances"}


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """One checker's move as written: the points it touched, which were starred, how many times."""

    points: tuple[int, ...]
    starred: frozenset[int]
    count: int


def parse_moves(text: str) -> tuple[WrittenMove, ...]:
    """Read play notation into written moves, without looking at any board.

    >>> [tuple(m.points) for m in parse_moves("25/22 6/0")]
    [(25, 22), (6, 0)]
    >>> parse_moves("8/5(2)")[0].count
    2
    >>> parse_moves("13-7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules.errors.InvalidPlayError: '13-7' is not a move: write it as from/to, e.g. 13/7 or ...
    """
    cleaned = text.strip().rstrip(".")
    if cleaned.lower() in _NO_PLAY:
        return ()
    moves = []
    hops = 0
    for token in cleaned.replace(",", " ").split():
        known = _TOKENS.get(token)
        if known is None:
            known = _parse_token(token)
            if len(_TOKENS) < _TOKENS_KEPT:
                _TOKENS[token] = known
        moves.append(known[0])
        hops += known[1]
    if hops > 8:
        raise InvalidPlayError(Message("too-many-moves", {"text": repr(text)}))
    return tuple(moves)


# Tokens read so far, each with its number of hops: a match file writes the same few
# hundred moves ("24/18", "8/5*") over and over, and a token reads the same anywhere.
_TOKENS: dict[str, tuple[WrittenMove, int]] = {}
_TOKENS_KEPT = 20_000


def _parse_token(token: str) -> tuple[WrittenMove, int]:
    """One written move ("13/7*", "8/5(2)", "24/18/13") and its hops, counted as repeated."""
    match = _TOKEN.match(token)
    if not match:
        raise InvalidPlayError(Message("not-a-move", {"token": repr(token)}))
    points, starred = [], set()
    for part in match.group(1).split("/"):
        star = part.endswith("*")
        point = _read_point(part.rstrip("*"), token)
        points.append(point)
        if star:
            starred.add(point)
    for higher, lower in pairwise(points):
        if lower >= higher:
            raise InvalidPlayError(
                Message(
                    "move-upwards",
                    {
                        "token": repr(token),
                        "source": point_name(higher),
                        "destination": point_name(lower),
                    },
                ),
                rule="WBF 8",
            )
    count = int(match.group(2) or 1)
    if not 1 <= count <= 4:
        raise InvalidPlayError(Message("move-repeats", {"token": repr(token)}))
    return WrittenMove(tuple(points), frozenset(starred), count), count * (len(points) - 1)


def _read_point(text: str, token: str) -> int:
    lowered = text.lower()
    if lowered in ("bar", "b"):
        return BAR
    if lowered in ("off", "o"):
        return OFF
    value = int(text)
    if value > 25:
        raise InvalidPlayError(Message("no-such-point", {"token": repr(token), "point": value}))
    return value


def resolve_play(
    position: Position, dice: Sequence[int], text: str, *, plays: Sequence[Play] | None = None
) -> Play | None:
    """The one legal play that ``text`` describes, or ``None`` when no play is possible.

    Raises :class:`InvalidPlayError` for text that is not play notation,
    :class:`IllegalPlayError` (with the rule) for a play the rules forbid, and
    :class:`AmbiguousPlayError` when the text fits two legal plays that differ
    only in an unmarked hit on the way. ``plays``: the legal plays, when the
    caller has them already.
    """
    roll = check_dice(dice)
    moves = parse_moves(text)
    if not moves:
        if bool(plays) if plays is not None else can_play(position, roll):
            raise IllegalPlayError(
                Message("roll-must-be-played", {"roll": _roll(roll)}), rule="WBF 17"
            )
        return None
    net = written_result(position, moves)
    # A play that uses every die needs no list of the others; anything else (a play of
    # fewer dice, or an illegal one) is judged against the whole list.
    candidates = list(reaching_plays(position, roll, net)) if plays is None else []
    if not candidates:
        if plays is None:
            plays = legal_plays(position, roll)
        candidates = [p for p in plays if p.result[1] == net]
    if not candidates:
        reason, rule = _why_illegal(position, roll, moves, net, bool(plays))
        raise IllegalPlayError(reason, rule=rule)
    if len(candidates) == 1:
        return candidates[0]
    return _disambiguate(candidates, moves, text)


def written_result(position: Position, moves: Sequence[WrittenMove]) -> int:
    """The mover's packed side after the written moves (hits do not change it).

    Refuses only what cannot be put on a board at all: moving a checker that
    is not there.
    """
    packed = position[0]
    for move in moves:
        source, destination = move.points[0], move.points[-1]
        for _ in range(move.count):
            if not packed >> (4 * source) & 15:
                if source == BAR:
                    raise IllegalPlayError(Message("no-checker-on-bar-to-move"))
                raise IllegalPlayError(Message("no-checker-on-point-to-move", {"point": source}))
            packed += (1 << (4 * destination)) - (1 << (4 * source))
    return packed


def _disambiguate(candidates: list[Play], moves: Sequence[WrittenMove], text: str) -> Play:
    """Several legal plays end with the mover's checkers alike: use the written hits and hops."""
    starred = set().union(*(m.starred for m in moves))
    # every point written after a slash is a point a checker landed on ("10/6 16/10" lands
    # on 10 and 6, so it is not 16/12*/6), even when the writer left out the star
    visited = {p for m in moves for p in m.points[1:] if p != OFF}

    def fits(play: Play) -> bool:
        landed = {step.destination for step in play.steps}
        return visited <= landed

    def hits(play: Play) -> set[int]:
        return {step.destination for step in play.steps if step.hit}

    fitting = [p for p in candidates if fits(p)]
    if len(fitting) == 1:
        return fitting[0]  # the written intermediate points tell them apart
    fitting = fitting or candidates
    exact = [p for p in fitting if hits(p) == starred]
    if len(exact) == 1:
        return exact[0]
    if not starred:
        # An unstarred merged hop ("24/15") names no hit on the way: the writer
        # would have written the intermediate point had the checker hit there.
        quiet = [p for p in fitting if not (hits(p) - {m.points[-1] for m in moves})]
        if len(quiet) == 1:
            return quiet[0]
    options = ", ".join(sorted(p.notation for p in (exact or fitting)))
    raise AmbiguousPlayError(Message("ambiguous-play", {"text": repr(text), "plays": options}))


def _roll(roll: Sequence[int]) -> str:
    return f"{roll[0]}-{roll[1]}"


def _hop(source: int, destination: int, reason: Message) -> Message:
    """What is wrong with one hop, e.g. "13/7: point 7 is held by ..."."""
    hop = f"{point_name(source)}/{point_name(destination)}"
    return Message("hop", {"hop": hop, "reason": reason})


def _no_checker(source: int) -> Message:
    if source == BAR:
        return Message("no-checker-on-bar")
    return Message("no-checker-on-point", {"point": source})


def _why_illegal(
    position: Position,
    roll: tuple[int, int],
    moves: Sequence[WrittenMove],
    net: int,
    any_legal: bool,
) -> tuple[Message, str | None]:
    """The reason (and its rule) why written moves are not a legal play."""
    if not any_legal:
        return (Message("no-legal-play-turn-lost", {"roll": _roll(roll)}), "WBF 17")
    # A sequence of dice that the rules allow step by step, but that uses too few dice?
    partial = partial_results(position, roll)
    if net in partial:
        used = partial[net]
        a, b = roll
        if a == b:
            best = max(len(p.steps) for p in legal_plays(position, roll))
            return (
                Message("double-moves-must-be-played", {"count": best, "roll": _roll(roll)}),
                "WBF 16-17",
            )
        if used == 1 and max(len(p.steps) for p in legal_plays(position, roll)) == 1:
            return (Message("higher-die", {"die": max(roll)}), "WBF 17")
        return (Message("both-dice"), "WBF 17")
    return _first_broken_step(position, roll, moves)


def _first_broken_step(
    position: Position, roll: tuple[int, int], moves: Sequence[WrittenMove]
) -> tuple[Message, str | None]:
    """Walk the written moves hop by hop and name the first rule one of them breaks."""
    board = _Board(list(position.on_roll), list(position.opponent))
    dice = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    for move in moves:
        for _ in range(move.count):
            for source, destination in pairwise(move.points):
                problem = board.hop(source, destination, dice, roll)
                if problem:
                    return problem
    return (Message("not-a-legal-play"), "WBF 15-22")


class _Board:
    """A scratch board for explaining a refusal: applies hops, says what breaks."""

    def __init__(self, mine: list[int], theirs: list[int]) -> None:
        self.mine, self.theirs = mine, theirs

    def hop(
        self, source: int, destination: int, dice: list[int], roll: tuple[int, int]
    ) -> tuple[Message, str | None] | None:
        """Apply source/destination using dice (removing those used); a problem, or None."""
        if self.mine[source] == 0:
            return (_hop(source, destination, _no_checker(source)), None)
        if self.mine[BAR] and source != BAR:
            return (_hop(source, destination, Message("bar-first")), "WBF 20")
        die = _die_for(source - destination, destination, dice)
        if die is not None:
            problem = self._single(source, destination, die)
            if problem:
                return (_hop(source, destination, problem[0]), problem[1])
            dice.remove(die)
            return None
        # A merged hop such as 24/13: try each order of the dice that adds up to it.
        first_problem = None
        for order in _orders(source - destination, dice):
            saved = (self.mine[:], self.theirs[:])
            point, problem = source, None
            for die in order:
                target = max(point - die, OFF)
                problem = self._single(point, target, die)
                if problem:
                    break
                point = target
            if problem is None:
                for die in order:
                    dice.remove(die)
                return None
            self.mine, self.theirs = saved
            first_problem = first_problem or problem
        if first_problem:
            return (_hop(source, destination, first_problem[0]), first_problem[1])
        hop = f"{point_name(source)}/{point_name(destination)}"
        facts: dict[str, str | int] = {
            "hop": hop,
            "count": source - destination,
            "roll": _roll(roll),
        }
        if not dice:
            return (Message("hop-too-far-no-dice", facts), "WBF 15")
        facts["left"] = ", ".join(map(str, sorted(set(dice))))
        return (Message("hop-too-far", facts), "WBF 15")

    def _single(self, source: int, destination: int, die: int) -> tuple[Message, str] | None:
        mine, theirs = self.mine, self.theirs
        if destination != OFF:
            if theirs[25 - destination] >= 2:
                return (Message("held-point", {"point": destination}), "WBF 18")
        else:
            outside = sum(mine[7:26])
            if outside:
                return (Message("bear-off-not-home", {"count": outside}), "WBF 22")
            if die > source and any(mine[source + 1 : 7]):
                return (Message("bear-off-higher", {"die": die, "point": source}), "WBF 22")
        self.move(source, destination)
        return None

    def move(self, source: int, destination: int) -> None:
        """Move one checker as written, hitting a lone opposing checker where it lands."""
        self.mine[source] -= 1
        self.mine[destination] += 1
        if destination != OFF and self.theirs[25 - destination] == 1:
            self.theirs[25 - destination] = 0
            self.theirs[BAR] += 1


def apply_written(position: Position, text: str) -> Position:
    """The position after moves as written, legal or not, the opponent now on roll.

    For replays (WBF 14): an illegal play stands once the opponent rolls, so
    the game goes on from the board as it was left. Only what no board can show
    is refused: moving a checker that is not there, or onto a point the
    opponent holds with two or more.
    """
    board = _Board(list(position.on_roll), list(position.opponent))
    for move in parse_moves(text):
        for _ in range(move.count):
            for source, destination in pairwise(move.points):
                if board.mine[source] == 0:
                    empty = _hop(source, destination, _no_checker(source))
                    raise IllegalPlayError(empty)
                if destination != OFF and board.theirs[25 - destination] >= 2:
                    held = _hop(source, destination, Message("held-point", {"point": destination}))
                    raise IllegalPlayError(held, rule="WBF 18")
                board.move(source, destination)
    return Position.from_counts(board.theirs, board.mine)


def _orders(distance: int, dice: list[int]) -> list[tuple[int, ...]]:
    """Orders of two or more of the dice whose pips add up to ``distance``."""
    if len(set(dice)) == 1:
        die = dice[0]
        k = distance // die
        return [(die,) * k] if distance % die == 0 and 2 <= k <= len(dice) else []
    if len(dice) == 2 and sum(dice) == distance:
        return [tuple(dice), tuple(reversed(dice))]
    return []


def _die_for(distance: int, destination: int, dice: list[int]) -> int | None:
    """The die that makes a hop of ``distance`` (a larger die may bear off)."""
    if distance in dice:
        return distance
    if destination == OFF:
        larger = [d for d in dice if d > distance]
        if larger:
            return min(larger)
    return None


_NUMBERED = re.compile(r"(?<![(\d])(\d{1,2})(?![\d)])")  # a point; not a count such as (2)


def renumbered(notation: str) -> str:
    """A play written in the other player's count: each point n becomes 25 - n.

    A board numbered for one player says the other's play in the same numbers it prints
    ("Move to 7" over a printed 7), so a listener never holds two counts at once. The bar
    and the tray keep their names; a count of checkers stays as it is.

    >>> renumbered("24/18 13/9"), renumbered("bar/22* 6/off"), renumbered("8/5(2)")
    ('1/7 12/16', 'bar/3* 19/off', '17/20(2)')
    """
    return _NUMBERED.sub(lambda point: str(25 - int(point.group(1))), notation)
