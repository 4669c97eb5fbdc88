"""Legal plays for a position and a roll (WBF 15-22, Galore 2.3-2.5 and 5.2-5.3).

The rules, as the search applies them:

- checkers on the bar enter first, on the opponent's home board (WBF 20-21);
- no landing on a point the opponent holds with two or more (WBF 18); landing on
  a single opposing checker hits it (WBF 19);
- a double is played four times (WBF 16);
- as many dice as possible must be played, and when only one of two can be, the
  higher one if it can (WBF 17);
- bearing off only with every checker home, and a higher die only from the
  highest point (WBF 22);
- two plays that end in the same position are one play.

The search walks the dice in the order gnubg does (the dice as given, then
swapped; sources from the bar down to the ace point; for doubles never a higher
source after a lower one), so the first path found to each resulting position is
the one gnubg keeps, and the notation agrees with gnubg's.

Speed: a side is a packed integer (see :mod:`rules.position`), a step adds a
precomputed delta and ORs a hit bit, and results are deduplicated by that
integer. Positions with no checker on the bar and no bear-off within reach take
a fast path with no per-step legality checks beyond occupancy.

A game's list of plays (:class:`LegalPlays`) counts the plays of the commonest
rolls rather than searching them, and works out the one play read from its
place in the list: a random player or a bot reads one play a turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple, TypeGuard, overload

from .errors import InvalidDiceError
from .messages import Message
from .play import Play
from .position import NIBBLES, Position

_LOW = sum(1 << (4 * i) for i in range(NIBBLES))  # bit 0 of every nibble
_SIDE = (1 << (4 * NIBBLES)) - 1
_HIT_SHIFT = 4 * NIBBLES  # hit flags live above the packed side, one bit per point
_NIB = [1 << (4 * i) for i in range(NIBBLES)]
_OPP_BIT = [0] + [1 << (4 * (25 - t)) for t in range(1, 25)] + [0]  # my point t -> their nibble
_HIT = [1 << (_HIT_SHIFT + t) for t in range(NIBBLES)]
_OUTSIDE = sum(15 << (4 * i) for i in range(7, 26))  # points 7-24 and the bar
_OUTSIDE_POINTS = sum(1 << p for p in range(7, 25))  # points 7-24, a bit each
_ABOVE = [sum(15 << (4 * i) for i in range(s + 1, 26)) for s in range(NIBBLES)]
_BAR_NIB = 15 << (4 * 25)
_TWO_UP = _OUTSIDE & ~_LOW  # a count of 2 or more on an outside point
# _DELTA[d][s]: move one checker from s by d (to the tray when it passes the ace point)
_DELTA = [[0] * NIBBLES] + [
    [_NIB[max(s - d, 0)] - _NIB[s] for s in range(NIBBLES)] for d in range(1, 7)
]


# Plays found by a search: resulting key -> the first path reaching it (order flag, sources...)
Found = dict[int, tuple[int, ...] | None]  # None: a path told by its result (Play.steps)


_make = tuple.__new__

# _ROLLS[a][b]: the roll (a, b), one tuple for every game and log entry that holds it
_ROLLS = [[(a, b) for b in range(7)] for a in range(7)]


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Two dice as integers 1-6, or :class:`InvalidDiceError`."""
    if type(dice) is tuple and len(dice) == 2:  # the usual roll, checked at a glance
        first, second = dice
        if type(first) is int and type(second) is int and 0 < first < 7 and 0 < second < 7:
            return _ROLLS[first][second]
    if len(dice) != 2:
        raise InvalidDiceError(Message("roll-two-dice", {"count": len(dice)}), rule="WBF 11")
    first, second = dice
    for die in (first, second):
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise InvalidDiceError(Message("die-range", {"die": repr(die)}), rule="WBF 11")
    return first, second


def legal_plays(position: Position, dice: Sequence[int]) -> tuple[Play, ...]:
    """Every legal play, one per distinct resulting position, each with its result.

    >>> plays = legal_plays(Position.start(), (6, 5))
    >>> len(plays), sorted(p.notation for p in plays)[:3]
    (7, ['13/2', '13/7 8/3', '13/8 13/7'])
    """
    roll = check_dice(dice)
    make = tuple.__new__
    return tuple(
        [
            make(Play, (position, path, key, roll))
            for key, path in search(position[0], position[1], roll[0], roll[1]).items()
        ]
    )


def greedy_plays(position: Position, dice: Sequence[int]) -> tuple[Play, ...]:
    """The plays that bear off as many checkers as the roll allows, the way some servers
    play a bear-off by themselves ("greedy" bear-off); empty unless every checker of the
    player on roll is home (WBF 22) and the roll bears at least one off.

    More than one play may bear off that many: they come with the fewest pips left first
    (the dice used to the full), then in the order of their results, so the first is the
    same play every time.

    >>> home = Position.from_counts([13, 0, 0, 1, 0, 1] + [0] * 20, [0] * 24 + [15, 0])
    >>> [p.notation for p in greedy_plays(home, (6, 1))]
    ['5/off 3/2', '5/off']
    """
    if position[0] & _OUTSIDE:
        return ()
    before = position[0] & 15
    plays = legal_plays(position, dice)
    most = max((play.result[1] & 15 for play in plays), default=before)
    if most == before:
        return ()
    greedy = [play for play in plays if play.result[1] & 15 == most]
    return tuple(sorted(greedy, key=lambda play: (play.result.pips[1], play.result)))


class LegalPlays(Sequence[Play]):
    """The legal plays of one roll, made into plays when read.

    What a game hands out as its legal plays. A turn's list is mostly counted, tested
    for a play and read once (a player, a bot or a log takes one play of it), and a
    :class:`Play` costs more to make than the search spends finding it: so the
    search's results are kept, and a play is made the first time it is read (the
    same object every time after). Membership is one lookup of the play's result.

    The commonest rolls are not even searched until the whole list is wanted: two
    different dice with no checker on the bar and no bear-off in reach (see
    :class:`_Pairs`) or with one checker on the bar (see :class:`_Entering`), and
    a double that plays four (or, after entering, three) and cannot bear off (see
    :class:`_DoubleCount`). Their plays are counted and the
    one read is worked out from its place in the list. Indexing and iterating give
    the same order, which for those rolls is not :func:`legal_plays`' order; the
    plays are the same.
    """

    __slots__ = ("_count", "_counted", "_found", "_keys", "_made", "_position", "_roll")

    def __init__(self, position: Position, roll: tuple[int, int]) -> None:
        self._position = position
        self._roll = roll
        mine, theirs = position
        first, second = roll
        counted: _Pairs | _Entering | _DoubleCount | None
        if first == second:
            counted = _DoubleCount.of(mine, theirs, first)
        elif mine & _BAR_NIB:
            counted = _count_entering(mine, theirs, first, second)
        else:
            counted = _count_pairs(mine, theirs, first, second)
        self._counted = counted
        if counted is None:
            # each result -> its path, in the order listed
            self._found: Found | None = search(mine, theirs, first, second)
            self._count = len(self._found)
        else:
            self._found = None  # listed when the whole list is wanted
            self._count = counted.total
        self._keys: list[int] | None = None  # the results in order, listed when indexed
        self._made: dict[int, Play] = {}

    @property
    def found(self) -> Found:
        """Each result's key -> its path (None: told by the result), in the list's order."""
        found = self._found
        if found is None:
            assert self._counted is not None
            found = self._found = dict.fromkeys(self._counted.keys())
        return found

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Play: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Play, ...]: ...

    def __getitem__(self, index: int | slice) -> Play | tuple[Play, ...]:
        counted = self._counted
        if counted is not None and self._found is None and type(index) is int:
            # one play of a counted list: found from its place (the commonest read)
            if not 0 <= index < self._count:
                if not -self._count <= index < 0:
                    raise IndexError("legal play index out of range")
                index += self._count
            key = counted.key(index)
            play = self._made.get(key)
            if play is None:
                play = self._made[key] = _make(Play, (self._position, None, key, self._roll))
            return play
        if isinstance(index, slice):
            return tuple(self)[index]
        keys = self._keys
        if keys is None:
            keys = self._keys = list(self.found)
        key = keys[index]
        play = self._made.get(key)
        if play is None:
            play = self._made[key] = _make(Play, (self._position, self.found[key], key, self._roll))
        return play

    def __iter__(self) -> Iterator[Play]:
        made, position, roll = self._made, self._position, self._roll
        for key, path in self.found.items():
            play = made.get(key)
            if play is None:
                play = made[key] = _make(Play, (position, path, key, roll))
            yield play

    def made(self, play: object) -> TypeGuard[Play]:
        """Whether ``play`` was read from this list: so it is legal, at a dictionary lookup."""
        return type(play) is Play and self._made.get(play[2]) is play

    def __contains__(self, play: object) -> bool:
        # plays are equal when they start from the same position and end the same way
        if isinstance(play, Play):
            key = play[2]
            return self._made.get(key) is play or (key in self.found and play[0] == self._position)
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LegalPlays, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple, so unhashable like a list

    def __repr__(self) -> str:
        return f"LegalPlays({tuple(self)!r})"


_POINT_LOWS = sum(1 << (4 * i) for i in range(1, 25))
# _POINTS_LOW[m], _POINTS_HIGH[m]: the points 1-12 and 13-24 marked by the 12 bits of m,
# lowest first
_POINTS_LOW = tuple(tuple(i + 1 for i in range(12) if m >> i & 1) for m in range(4096))
_POINTS_HIGH = tuple(tuple(i + 13 for i in range(12) if m >> i & 1) for m in range(4096))
# _PAIR_PATHS[flag][s1][s2]: the path tuple of a two-step play, made once
_PAIR_PATHS = [
    [[(flag, s1, s2) for s2 in range(NIBBLES)] for s1 in range(NIBBLES)] for flag in (0, 1)
]


def search(mine: int, theirs: int, first: int, second: int) -> Found:
    """Each legal play's resulting key -> the first path reaching it: order flag, source, ...

    A key is the mover's packed side with one flag bit per point where a blot was
    hit. A path is ``(order flag, source, source, ...)``: flag 0 means the dice
    were used as given, 1 swapped (always 0 for doubles).
    """
    # Opponent points (in the mover's numbering) held by 2+ or by exactly one checker.
    ge2 = (theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    blot = theirs & _LOW & ~ge2  # a count of exactly 1: bit 0 alone
    if first == second:
        return _doubles(mine, ge2, blot, first)
    if mine & _BAR_NIB:
        return _pair_from_bar(mine, ge2, blot, first, second)
    outside = mine & _OUTSIDE
    if outside & _TWO_UP or outside & (outside - 1):
        # two or more checkers outside (one point holds two, or two points one): no
        # checker can bear off within the turn
        return _fast_pair(mine, ge2, blot, first, second)
    return _pair_near_home(mine, ge2, blot, first, second)


def _outside_count(mine: int) -> int:
    """The mover's checkers outside the home board (points 7-24 and the bar).

    Each bit of a count nibble weighs 1, 2, 4 or 8: four counts of set bits (in C).
    """
    outside = mine & _OUTSIDE
    return (
        (outside & _LOW).bit_count()
        + 2 * (outside >> 1 & _LOW).bit_count()
        + 4 * (outside >> 2 & _LOW).bit_count()
        + 8 * (outside >> 3 & _LOW).bit_count()
    )


def _no_bear_off(key: int, d: int, need: int) -> bool:
    """Whether ``need`` moves of ``d`` leave no move to bear off with (WBF 22).

    A checker bears off only once every checker is home, and each outside needs a
    move or more to come home: as many as it is dice away from it, at least.
    """
    outside = _outside_count(key)
    if outside >= need:
        return True
    if not outside:
        return False
    moves = 0
    for point in _points(_occupied_bits(key) & _OUTSIDE_POINTS):
        moves += (key >> (4 * point) & 15) * -(-(point - 6) // d)
    return moves >= need


def _occupied_bits(mine: int) -> int:
    """The points 1-24 where the mover has checkers, as bits (bit p for point p).

    The nibbles' low bits, written in hexadecimal, are a string of 0s and 1s, read
    back in base 2 (in C): nibble p becomes bit p.
    """
    return int(format((mine | mine >> 1 | mine >> 2 | mine >> 3) & _POINT_LOWS, "x"), 2)


# _REVERSED_13[m]: the 13 bits of m in the reverse order
_REVERSED_13 = tuple(int(f"{m:013b}"[::-1], 2) for m in range(8192))


def _their_points(lows: int) -> int:
    """Opponent nibbles marked by their low bits (their numbering) as bits of the mover's points.

    Their point q is the mover's 25 - q: the bits are read off in C as in
    :func:`_occupied_bits`, then reversed 13 at a time by table.
    """
    bits = int(format(lows, "x"), 2)
    return _REVERSED_13[bits & 8191] << 13 | _REVERSED_13[bits >> 13]


def _points(bits: int) -> tuple[int, ...]:
    """The points 1-24 marked in ``bits`` (bit p for point p), lowest first."""
    return _POINTS_LOW[bits >> 1 & 4095] + _POINTS_HIGH[bits >> 13]


def _single_steps(
    mine: int, ge2: int, blot: int, die: int, occupied: Iterable[int]
) -> list[tuple[int, int, int]]:
    """(source, delta, hit flag) of every one-checker move of ``die`` on the board, no bear-off."""
    delta = _DELTA[die]
    return [
        (s, delta[s], _HIT[s - die] if blot & _OPP_BIT[s - die] else 0)
        for s in occupied
        if s > die and not ge2 & _OPP_BIT[s - die]
    ]


def _fast_pair(mine: int, ge2: int, blot: int, a: int, b: int) -> Found:
    """Two different dice, nothing on the bar, and no bear-off possible within the turn.

    Here every step's legality depends only on the starting board, so a play of
    two different checkers is legal in either order and gives the same result:
    the dice-swapped pass only has to add the one checker that moves twice.
    Candidates are visited in the reverse of gnubg's order and later writes win,
    so each result keeps the path gnubg finds first (and so gnubg's notation).
    """
    found: Found = {}
    occupied = _points(_occupied_bits(mine))  # lowest first: the reverse of gnubg's order
    steps_a = _single_steps(mine, ge2, blot, a, occupied)
    steps_b = _single_steps(mine, ge2, blot, b, occupied)
    # gnubg's second pass, b then a: only a checker that moves twice adds a play
    delta_a = _DELTA[a]
    paths = _PAIR_PATHS[1]
    for s1, d1, h1 in steps_b:
        t1 = s1 - b
        if t1 > a and not mine >> (4 * t1) & 15:
            # it goes on from a point where none stood before
            t2 = t1 - a
            bit = _OPP_BIT[t2]
            if not ge2 & bit:
                k1 = (mine + d1) | h1
                found[(k1 + delta_a[t1]) | (_HIT[t2] if blot & bit else 0)] = paths[s1][t1]
    # the first pass, a then b: that checker again, then a with each move of b
    delta_b = _DELTA[b]
    paths = _PAIR_PATHS[0]
    for s1, d1, h1 in steps_a:
        k1 = (mine + d1) | h1
        row = paths[s1]
        t1 = s1 - a
        if t1 > b and not mine >> (4 * t1) & 15:
            t2 = t1 - b
            bit = _OPP_BIT[t2]
            if not ge2 & bit:
                found[(k1 + delta_b[t1]) | (_HIT[t2] if blot & bit else 0)] = row[t1]
        if (mine >> (4 * s1) & 15) == 1:
            for s2, d2, h2 in steps_b:
                if s2 != s1:  # the checker a moved is no longer there to move b
                    found[(k1 + d2) | h2] = row[s2]
        else:
            for s2, d2, h2 in steps_b:
                found[(k1 + d2) | h2] = row[s2]
    if found:
        return found
    # No two-die play: each single step is a whole play, of the higher die if it moves (WBF 17).
    if steps_a and (a > b or not steps_b):
        return _firsts(mine, steps_a, 0)
    return _firsts(mine, steps_b, 1)


class _Pairs(NamedTuple):
    """The plays of two different dice, nothing on the bar, no bear-off in reach: counted.

    The rolls :func:`_fast_pair` searches, known here from bit masks of the board
    alone (a bit a point), so a random player or a bot that reads one play of the
    list never pays for the rest. Every step's legality depends on the starting
    board only, and the plays are of two kinds, each result once:

    - two checkers, one from s1 by die a and one from s2 by b: every pair of a
      source of a and a source of b, except one lone checker moving twice from its
      point, and the pairs where one lands where the other starts (s2 = s1 - a, or
      s1 = s2 - b), which end as one checker moving both dice;
    - one checker moving both dice from s: one result, or two when a blot stands
      on one of the two points it can pass (hitting it or not ends differently).

    Two plays of the first kind never end alike (their sources or landings
    differ), nor like one of the second (which moves one checker, not two). The
    list is the pairs, s1 then s2 from the lowest point, then the single checkers,
    each by a first then b. Made by :func:`_count_pairs`.
    """

    mine: int  # the mover's side before the play
    a: int  # the dice as given
    b: int
    blots: int  # the opponent's blots, a bit each at the mover's points
    lone: int  # the mover's points holding one checker
    firsts: int  # the sources of a
    seconds: int  # the sources of b
    pairs: int  # how many plays of two checkers, listed first
    total: int  # how many plays
    singles: int  # the sources of one checker moving both dice
    via_a: int  # those that may go by a first
    split: int  # those whose two ways end differently

    def key(self, index: int) -> int:
        """The result of the play at ``index`` (0 <= index < total) in the list's order."""
        mine, a, b, blots, lone, firsts, seconds, pairs, _, singles, via_a, split = self
        if index < pairs:
            for s1 in _points(firsts):
                # the sources of b that make no pair with s1 (see the class)
                row = seconds & ~((lone & 1 << s1) | 1 << (s1 - a) | 1 << (s1 + b))
                size = row.bit_count()
                if index < size:
                    s2 = _points(row)[index]
                    k1 = (mine + _DELTA[a][s1]) | (_HIT[s1 - a] if blots >> (s1 - a) & 1 else 0)
                    return (k1 + _DELTA[b][s2]) | (_HIT[s2 - b] if blots >> (s2 - b) & 1 else 0)
                index -= size
            raise IndexError("legal play index out of range")
        index -= pairs
        for s in _points(singles):
            first_a = via_a >> s & 1
            if index == 0:
                return _one_checker(mine, blots, s, a, b, s - a if first_a else s - b)
            if first_a and split >> s & 1:
                if index == 1:
                    return _one_checker(mine, blots, s, a, b, s - b)
                index -= 2
            else:
                index -= 1
        raise IndexError("legal play index out of range")

    def keys(self) -> list[int]:
        """Every result, in the list's order."""
        mine, a, b, blots, lone, firsts, seconds, _, _, singles, via_a, split = self
        keys = []
        delta = _DELTA[b]
        for s1 in _points(firsts):
            k1 = (mine + _DELTA[a][s1]) | (_HIT[s1 - a] if blots >> (s1 - a) & 1 else 0)
            row = seconds & ~((lone & 1 << s1) | 1 << (s1 - a) | 1 << (s1 + b))
            for s2 in _points(row):
                keys.append((k1 + delta[s2]) | (_HIT[s2 - b] if blots >> (s2 - b) & 1 else 0))
        for s in _points(singles):
            first_a = via_a >> s & 1
            if first_a:
                keys.append(_one_checker(mine, blots, s, a, b, s - a))
            if not first_a or split >> s & 1:
                keys.append(_one_checker(mine, blots, s, a, b, s - b))
        return keys


def _count_pairs(mine: int, theirs: int, a: int, b: int) -> _Pairs | None:
    """The plays of a roll of two different dice, counted (see :class:`_Pairs`).

    None for a roll of another kind, or with no play of both dice (the search then
    finds which one die is played, WBF 17).
    """
    if mine & _BAR_NIB:
        return None
    outside = mine & _OUTSIDE
    if not (outside & _TWO_UP or outside & (outside - 1)):
        return None  # a bear-off may come within reach: the search
    ge2 = (theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    blot = theirs & _LOW & ~ge2
    blocked = _their_points(ge2)
    blots = _their_points(blot) if blot else 0
    occupied = _occupied_bits(mine)
    lone = int(format(mine & ~(mine >> 1 | mine >> 2 | mine >> 3) & _POINT_LOWS, "x"), 2)
    firsts = occupied & ~(blocked << a) & (-2 << a)  # sources of a: above a, landing open
    seconds = occupied & ~(blocked << b) & (-2 << b)
    pairs = (
        firsts.bit_count() * seconds.bit_count()
        - (firsts & seconds & lone).bit_count()  # a lone checker cannot leave its point twice
        - (firsts & seconds << a).bit_count()  # s2 = s1 - a: one checker moving on
        - (firsts & seconds >> b).bit_count()  # s1 = s2 - b: the same
    )
    ends = occupied & ~(blocked << (a + b)) & (-2 << (a + b))
    via_a, via_b = ends & firsts, ends & seconds
    split = via_a & via_b & (blots << a | blots << b)  # hitting on the way or not
    singles = via_a | via_b
    total = pairs + singles.bit_count() + split.bit_count()
    if not total:
        return None
    fields = (mine, a, b, blots, lone, firsts, seconds, pairs, total, singles, via_a, split)
    return _make(_Pairs, fields)


class _Entering(NamedTuple):
    """The plays of two different dice with one checker on the bar: counted.

    It enters with one die (WBF 20-21), and any checker, itself too, moves the
    other: bit masks of the board tell every such play. With a die entered first,
    each source of the other gives its own result; the two orders end alike only
    when the entered checker goes on with the other die and hits nothing on
    either point where it could enter (then that play is listed once, with a
    first). The list is the plays entering with a, sources from the lowest point,
    then those entering with b. Made by :func:`_count_entering`.
    """

    mine: int  # the mover's side before the play
    a: int  # the dice as given
    b: int
    blots: int  # the opponent's blots, a bit each at the mover's points
    after_a: int  # the sources of b once a has entered (0: it cannot enter)
    after_b: int  # the sources of a once b has entered, less the play listed with a first
    total: int  # how many plays

    def key(self, index: int) -> int:
        """The result of the play at ``index`` (0 <= index < total) in the list's order."""
        mine, a, b, blots, after_a, after_b, _ = self
        first = after_a.bit_count()
        if index >= first:
            index -= first
            a, b, after_a = b, a, after_b
        s = _points(after_a)[index]
        entered = (mine + _DELTA[a][25]) | (_HIT[25 - a] if blots >> (25 - a) & 1 else 0)
        return (entered + _DELTA[b][s]) | (_HIT[s - b] if blots >> (s - b) & 1 else 0)

    def keys(self) -> list[int]:
        """Every result, in the list's order."""
        return [self.key(index) for index in range(self.total)]


def _count_entering(mine: int, theirs: int, a: int, b: int) -> _Entering | None:
    """The plays of a roll of two different dice with one checker on the bar, counted.

    None for another roll, or when no play moves both dice (a dance, or a checker
    that enters and cannot go on: the search finds which die is played, WBF 17).
    """
    if mine >> 100 & 15 != 1:
        return None
    ge2 = (theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    blot = theirs & _LOW & ~ge2
    blocked = _their_points(ge2)
    blots = _their_points(blot) if blot else 0
    occupied = _occupied_bits(mine)
    in_a, in_b = 25 - a, 25 - b  # where each die enters
    after_a = after_b = 0
    if not blocked >> in_a & 1:
        after_a = (occupied | 1 << in_a) & ~(blocked << b) & (-2 << b)
    if not blocked >> in_b & 1:
        after_b = (occupied | 1 << in_b) & ~(blocked << a) & (-2 << a)
    if after_a >> in_a & 1 and after_b >> in_b & 1 and not (blots >> in_a | blots >> in_b) & 1:
        after_b &= ~(1 << in_b)  # on to 25 - a - b either way, hitting nothing on the way
    total = after_a.bit_count() + after_b.bit_count()
    if not total:
        return None
    return _make(_Entering, (mine, a, b, blots, after_a, after_b, total))


def _one_checker(mine: int, blots: int, s: int, a: int, b: int, via: int) -> int:
    """The result of one checker moving both dice from ``s`` by way of ``via``."""
    end = s - a - b
    key = mine + _NIB[end] - _NIB[s]
    return key | (_HIT[via] if blots >> via & 1 else 0) | (_HIT[end] if blots >> end & 1 else 0)


def _firsts(mine: int, steps: list[tuple[int, int, int]], flag: int) -> Found:
    """Plays of one die (``steps`` lowest source first): gnubg keeps the highest's path."""
    found: Found = {}
    for s, d, h in reversed(steps):
        found.setdefault((mine + d) | h, (flag, s))
    return found


def _pair_near_home(mine: int, ge2: int, blot: int, a: int, b: int) -> Found:
    """Two different dice, nothing on the bar, at most one checker outside: bear-off in reach.

    The search of :func:`_general` without its recursion: each order of the dice,
    sources from the highest, every step checked (WBF 18, 22). The points held
    after the first step are those before, less its source if it was the last
    there, and plus where it landed.
    """
    found: Found = {}
    singles = []
    occupied = _occupied_bits(mine)
    for flag, x, y in ((0, a, b), (1, b, a)):
        paths = _PAIR_PATHS[flag]
        for s1 in reversed(_points(occupied)):  # highest first, as gnubg
            k1 = _step(mine, ge2, blot, s1, x)
            if k1 < 0:
                continue
            row = paths[s1]
            moved = False
            held = occupied if mine >> (4 * s1) & 15 > 1 else occupied & ~(1 << s1)
            if s1 > x:
                held |= 1 << (s1 - x)
            for s2 in reversed(_points(held)):
                k2 = _step(k1, ge2, blot, s2, y)
                if k2 >= 0:
                    moved = True
                    if k2 not in found:
                        found[k2] = row[s2]
            if not moved:
                singles.append((x, k1, flag, s1))
    return found or _best_single(singles)


def _step(key: int, ge2: int, blot: int, s: int, die: int) -> int:
    """The key after one checker moves from s by die, or -1 when the rules forbid it."""
    t = s - die
    if t >= 1:
        bit = _OPP_BIT[t]
        if ge2 & bit:
            return -1  # a point held by two or more (WBF 18)
        return (key + _DELTA[die][s]) | (_HIT[t] if blot & bit else 0)
    if key & _OUTSIDE or (t < 0 and key & _ABOVE[s]):
        return -1  # bearing off: all home, a higher die only from the highest point (WBF 22)
    return key + _DELTA[die][s]


def _pair_from_bar(mine: int, ge2: int, blot: int, a: int, b: int) -> Found:
    """Two different dice with checkers on the bar: enter first (WBF 20-21)."""
    entered = {}
    for flag, x in ((0, a), (1, b)):
        t = 25 - x
        bit = _OPP_BIT[t]
        if not ge2 & bit:
            entered[x] = (flag, (mine + _DELTA[x][25]) | (_HIT[t] if blot & bit else 0))
    if not entered:
        return {}  # a dance: the turn is lost
    if mine >> 100 & 15 >= 2:
        if len(entered) == 2:
            key = (entered[a][1] + _DELTA[b][25]) | entered[b][1] >> _HIT_SHIFT << _HIT_SHIFT
            return {key: (0, 25, 25)}
        ((_, (flag, key)),) = entered.items()
        return {key: (flag, 25)}
    # The one checker entered, any checker moves the other die: from where it entered too.
    # Within one order of the dice each source gives its own result, so only a result
    # found in both orders needs the first path (the dice as given) kept.
    found: Found = {}
    singles = []
    occupied = _points(_occupied_bits(mine))
    for x, (flag, k1) in entered.items():
        y = b if x == a else a
        steps = _single_steps(k1, ge2, blot, y, occupied)
        t = 25 - x
        if not mine >> (4 * t) & 15 and t > y and not ge2 & _OPP_BIT[t - y]:
            steps.append((t, _DELTA[y][t], _HIT[t - y] if blot & _OPP_BIT[t - y] else 0))
        if not steps:
            singles.append((x, k1, flag, 25))
        row = _PAIR_PATHS[flag][25]
        if found:
            for s2, d2, h2 in steps:
                found.setdefault((k1 + d2) | h2, row[s2])
        else:
            for s2, d2, h2 in steps:
                found[(k1 + d2) | h2] = row[s2]
    return found or _best_single(singles)


def _best_single(singles: list[tuple[int, int, int, int]]) -> Found:
    """Only one die can be played: the higher one when it can be (WBF 17)."""
    if not singles:
        return {}
    high = max(single[0] for single in singles)
    found: Found = {}
    for die, key, flag, source in singles:
        if die == high and key not in found:
            found[key] = (flag, source)
    return found


# Counting polynomials are packed in one integer, a coefficient every _DIGIT bits: the
# product of two is then one multiplication in C (no count of plays comes near 2**32)
_DIGIT = 32
_COEFFICIENT = (1 << _DIGIT) - 1
# A chain of a double's sources (see _DoubleCount), made once for the checkers it holds:
# its counting polynomial (its ways of playing k moves, k = 0..moves, packed as above),
# the same as a tuple by k, for each point the ways of the points below it (see
# _chain), its counts top first, and for a chain of few ways the ways themselves, by k
_Chain = tuple[
    int,
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[tuple[tuple[int, ...], ...], ...] | None,
]
# _CHAINS[...]: keyed by its counts packed as they stand on the board, the die, the
# chain's length and the moves
_CHAINS: dict[int, _Chain] = {}
_CHAINS_KEPT = 65536
_FEW_WAYS = 48  # listed rather than found one at a time (see _chain_way)
# _SPREAD[d][n]: a nibble every d nibbles, n of them: a chain's counts, from its lowest point
_SPREAD = [[0] * NIBBLES] + [
    [sum(15 << (4 * d * i) for i in range(n)) for n in range(NIBBLES)] for d in range(1, 7)
]


def _chain(counts: tuple[int, ...], moves: int) -> _Chain:
    """A chain's counting polynomial up to ``moves`` moves of a die, and what finds its ways.

    A chain is a run of sources one die apart, top first: a point can move its own
    checkers and those the point above sent it, and sends its moves on to the next.
    From the bottom up, ``after[a]`` counts the ways of the points below when ``a``
    checkers arrive: a point's ways are its own k moves (at most its checkers and
    those arrived) times the ways below with k arriving, a sum over k. Each point's
    ``after`` is kept, to find one way from its place in the list; a chain of few
    ways lists them all once, in the same order.
    """
    low = (1 << (_DIGIT * (moves + 1))) - 1  # the coefficients of x**0 .. x**moves
    after = (1,) * (moves + 1)
    below = []
    for count in reversed(counts):
        below.append(after)
        sums, total = [], 0
        for k in range(moves + 1):
            total += after[k] << (_DIGIT * k)
            sums.append(total & low)
        after = tuple([sums[min(count + arrived, moves)] for arrived in range(moves + 1)])
    below.reverse()
    packed = after[0]
    by_moves = tuple([packed >> (_DIGIT * k) & _COEFFICIENT for k in range(moves + 1)])
    ways = None
    if sum(by_moves) <= _FEW_WAYS:
        # moves from each point, from the top: fewest first, as _chain_way reads them
        partial: list[tuple[tuple[int, ...], int, int]] = [((), 0, 0)]  # way, used, arriving
        for count in counts:
            partial = [
                ((*way, here), used + here, here)
                for way, used, arrived in partial
                for here in range(min(count + arrived, moves - used) + 1)
            ]
        ways = tuple(tuple(way for way, used, _ in partial if used == k) for k in range(moves + 1))
    return packed, by_moves, tuple(below), counts, ways


def _chain_way(
    counts: tuple[int, ...], below: tuple[tuple[int, ...], ...], moves: int, index: int
) -> list[int]:
    """The moves from each point of the chain's way at ``index`` of those with ``moves``.

    Ways in the order of the moves from the top point, then the next, fewest first:
    each choice leaves as many ways as the points below can make of the rest.
    """
    way = []
    arrived, left = 0, moves
    for count, after in zip(counts, below, strict=True):
        for here in range(min(count + arrived, left) + 1):
            ways = after[here] >> (_DIGIT * (left - here)) & _COEFFICIENT
            if index < ways:
                break
            index -= ways
        way.append(here)
        left -= here
        arrived = here
    return way


class _DoubleCount:
    """A double's plays, counted: the moves left after entering, none bearing off.

    The plays :func:`_double_keys` lists, without listing them. The sources split
    into chains, runs of points one die apart where each sends its checkers on to
    the next; a chain's moves never touch another chain's checkers. So the count
    of plays is the coefficient of x**need in the product of the chains' counting
    polynomials, and a chain's ways are kept by the checkers its points hold, which
    boards share. Plays are listed chain by chain (moves in the first chain from
    none up, then the rest), each chain's ways in the order made.
    """

    __slots__ = ("base", "blots", "chains", "d", "need", "rests", "total")

    base: int  # the mover's side after entering, if a checker entered
    d: int  # the die
    need: int  # the moves to play on the board
    blots: int  # the opponent's blots, a bit each at the mover's points
    chains: list[tuple[range, _Chain]]  # each chain's points, top first, and what it holds
    rests: list[int]  # the packed ways of the chains from each on
    total: int  # how many plays

    @classmethod
    def of(cls, mine: int, theirs: int, d: int) -> _DoubleCount | None:
        """The count, or None for a double of another kind (the search lists those)."""
        ge2 = (theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
        blot = theirs & _LOW & ~ge2
        bar = mine >> 100 & 15
        key, need = mine, 4
        if bar:
            t = 25 - d
            if bar > 3 or ge2 & _OPP_BIT[t]:
                return None  # four or more to enter, or a dance: the search
            hit = _HIT[t] if blot & _OPP_BIT[t] else 0
            key, need = (mine + bar * _DELTA[d][25]) | hit, 4 - bar  # all enter first (WBF 20)
        if not _no_bear_off(key, d, need):
            return None  # a bear-off may come within reach: the search
        occupied = _occupied_bits(key)
        reachable = (occupied | occupied >> d | occupied >> 2 * d | occupied >> 3 * d) & ~1
        sources = reachable & ~(_their_points(ge2) << d) & (-2 << d)
        chains = []
        spread = _SPREAD[d]
        for top in reversed(_points(sources & ~(sources >> d))):  # no source a die above
            while not key >> (4 * top) & 15 and sources >> (top - d) & 1:
                top -= d  # an empty point with nothing coming from above moves nothing
            if not key >> (4 * top) & 15:
                continue  # nothing in the chain to move
            bottom = top
            while sources >> (bottom - d) & 1:
                bottom -= d
            length = (top - bottom) // d + 1
            # the chain's counts, one nibble each d nibbles apart, and what tells it apart
            held = key >> (4 * bottom) & spread[length]
            known = held << 16 | d << 8 | length << 3 | need
            chain = _CHAINS.get(known)
            if chain is None:
                counts = tuple([held >> (4 * d * i) & 15 for i in reversed(range(length))])
                if len(_CHAINS) >= _CHAINS_KEPT:
                    _CHAINS.clear()
                chain = _CHAINS[known] = _chain(counts, need)
            chains.append((range(top, bottom - 1, -d), chain))
        # rests[i]: the ways of the chains from i on, packed; the last is "no chain: 1 way"
        rests = [1]
        for _, chain in reversed(chains):
            rests.append(rests[-1] * chain[0])
        rests.reverse()
        total = rests[0] >> (_DIGIT * need) & _COEFFICIENT
        if not total:
            return None  # fewer moves can be played: the search finds how many (WBF 16)
        self = cls()
        self.base, self.d, self.need, self.total = key, d, need, total
        self.blots = _their_points(blot) if blot else 0
        self.chains, self.rests = chains, rests
        return self

    def key(self, index: int) -> int:
        """The result of the play at ``index`` (0 <= index < total) in the list's order."""
        key, d, blots, left = self.base, self.d, self.blots, self.need
        delta = _DELTA[d]
        rests = self.rests
        for at, (points, (_, by_moves, below, counts, ways)) in enumerate(self.chains, 1):
            rest = rests[at]
            for moves in range(left + 1):
                block = by_moves[moves] * (rest >> (_DIGIT * (left - moves)) & _COEFFICIENT)
                if index < block:
                    if moves:
                        way, index = divmod(index, block // by_moves[moves])
                        if ways is not None:
                            chosen: Sequence[int] = ways[moves][way]
                        else:
                            chosen = _chain_way(counts, below, moves, way)
                        for point, count in zip(points, chosen, strict=True):
                            if count:
                                hit = _HIT[point - d] if blots >> (point - d) & 1 else 0
                                key = (key + count * delta[point]) | hit
                        left -= moves
                    break
                index -= block
            if not left:
                break
        return key

    def keys(self) -> list[int]:
        """Every result, in the list's order."""
        return [self.key(index) for index in range(self.total)]


def _doubles(mine: int, ge2: int, blot: int, d: int) -> Found:
    """A double: four moves of one die, sources never rising, so no order is searched twice.

    A play of a double is a multiset of sources, and two multisets never give the
    same position (the highest point where they differ ends with different counts):
    no deduplication, and the result alone tells the path (see
    :func:`rules.play.double_path`), so the common case records results only (None).
    """
    prefix: tuple[int, ...] = (0,)
    key = mine
    bar = mine >> 100 & 15
    if bar:
        t = 25 - d
        bit = _OPP_BIT[t]
        if ge2 & bit:
            return {}  # a dance
        entering = min(bar, 4)
        key = (mine + entering * _DELTA[d][25]) | (_HIT[t] if blot & bit else 0)
        prefix += (25,) * entering
        if entering == 4 or bar > entering:
            return {key: prefix}
    need = 5 - len(prefix)  # moves left after entering
    # Only points a checker can stand on during the turn: occupied now, or 1-3 dice below one.
    occupied = _occupied_bits(key)
    reachable = (occupied | occupied >> d | occupied >> 2 * d | occupied >> 3 * d) & ~1
    if need >= 3 and _no_bear_off(key, d, need):
        keys = _double_keys(key, ge2, blot, d, need, reachable & occupied, reachable)
        if keys:
            return dict.fromkeys(keys)
        # fewer moves than the dice: the walk below finds the most that can be played
    delta = _DELTA[d]
    movable = []  # (source, delta, hit flag, bears off), highest source first
    while reachable:
        s = reachable.bit_length() - 1
        reachable ^= 1 << s
        t = s - d
        if t >= 1:
            bit = _OPP_BIT[t]
            if not ge2 & bit:
                movable.append((s, delta[s], _HIT[t] if blot & bit else 0, False))
        else:
            movable.append((s, delta[s], 0, True))
    n = len(movable)
    low = d  # sources at or below the die bear off: legal only when all are home (WBF 22)
    # A play of a double is a multiset of sources, and two multisets never give the same
    # position (the highest point where they differ ends with different counts), so the
    # plays need no deduplication. by_dice[k]: plays using k dice that cannot go on.
    by_dice: list[list[tuple[int, tuple[int, ...]]]] = [[], [], [], [], []]
    full = by_dice[4]
    base = len(prefix) - 1
    for i0 in range(n):
        s0, dl0, h0, b0 = movable[i0]
        if not key >> (4 * s0) & 15 or (b0 and (key & _OUTSIDE or (s0 < low and key & _ABOVE[s0]))):
            continue
        k1 = (key + dl0) | h0
        if need == 1:
            full.append((k1, prefix + (s0,)))
            continue
        more1 = False
        for i1 in range(i0, n):
            s1, dl1, h1, b1 = movable[i1]
            if not k1 >> (4 * s1) & 15 or (
                b1 and (k1 & _OUTSIDE or (s1 < low and k1 & _ABOVE[s1]))
            ):
                continue
            more1 = True
            k2 = (k1 + dl1) | h1
            if need == 2:
                full.append((k2, prefix + (s0, s1)))
                continue
            more2 = False
            for i2 in range(i1, n):
                s2, dl2, h2, b2 = movable[i2]
                if not k2 >> (4 * s2) & 15 or (
                    b2 and (k2 & _OUTSIDE or (s2 < low and k2 & _ABOVE[s2]))
                ):
                    continue
                more2 = True
                k3 = (k2 + dl2) | h2
                if need == 3:
                    full.append((k3, prefix + (s0, s1, s2)))
                    continue
                more3 = False
                for i3 in range(i2, n):
                    s3, dl3, h3, b3 = movable[i3]
                    if not k3 >> (4 * s3) & 15 or (
                        b3 and (k3 & _OUTSIDE or (s3 < low and k3 & _ABOVE[s3]))
                    ):
                        continue
                    more3 = True
                    full.append(((k3 + dl3) | h3, (0, s0, s1, s2, s3)))
                if not more3:
                    by_dice[3].append((k3, prefix + (s0, s1, s2)))
            if not more2:
                by_dice[base + 2].append((k2, prefix + (s0, s1)))
        if not more1:
            by_dice[base + 1].append((k1, prefix + (s0,)))
    for plays in reversed(by_dice):
        if plays:
            return dict(plays)
    return {key: prefix} if base else {}


# _UPTO[i], _BELOW[i]: the set bits for indices i and down, i - 1 and down
_UPTO = [(2 << i) - 1 for i in range(NIBBLES)]
_BELOW = [(1 << i) - 1 for i in range(NIBBLES)]
# _SET_BITS[m]: the indices of the bits set in m (12 bits), lowest first; _SET_BITS_HIGH for
# the next 12 bits
_SET_BITS = tuple(tuple(i for i in range(12) if m >> i & 1) for m in range(4096))
_SET_BITS_HIGH = tuple(tuple(i + 12 for i in range(12) if m >> i & 1) for m in range(4096))
_INDEX_BITS = tuple(1 << i for i in range(NIBBLES))  # index i -> its bit
_SHIFTS = tuple(4 * p for p in range(NIBBLES))  # point -> the shift to its nibble
_NO_HITS = (0,) * NIBBLES
# _BELOW_BY[d][p]: the point a die of d leads to from p (0 and below: off the board)
_BELOW_BY = [tuple(p - d for p in range(NIBBLES)) for d in range(7)]


def _set_bits(mask: int) -> tuple[int, ...]:
    return _SET_BITS[mask & 4095] + _SET_BITS_HIGH[mask >> 12]


def _double_keys(
    key: int, ge2: int, blot: int, d: int, need: int, held_points: int, reachable: int
) -> list[int]:
    """The results of the common double, ``need`` (3 or 4) moves and none can bear off.

    Then a step is legal whenever its source holds a checker, and the sources of a
    play never rise. The sources are the ``reachable`` points (a bit each) whose
    move is not blocked, numbered from the lowest; ``held_points`` those holding a
    checker now. Each move is from an index at or below the last one. A set of
    candidate indices is a bit mask: those still holding a checker, then after a
    move the source only while one is left there, and the point the checker landed
    on. One comprehension walks it all: each play costs no Python statement, and
    none makes a path (see :func:`_doubles`). The tables it reads are made with
    ``map``, not a Python loop. Empty when fewer moves than ``need`` can be played.
    """
    reachable &= ~(_their_points(ge2) << d) & (-2 << d)  # open landings, no bear-off
    sources = _points(reachable)
    index = dict(zip(sources, _INDEX_BITS, strict=False))  # point -> its index's bit
    held = sum(map(index.__getitem__, _points(held_points & reachable)))
    deltas = list(map(_DELTA[d].__getitem__, sources))
    shifts = list(map(_SHIFTS.__getitem__, sources))
    # the index a move lands on, as a bit (0 when it lands where no move of this die starts)
    lands = list(map(index.get, map(_BELOW_BY[d].__getitem__, sources), _NO_HITS))
    hit = reachable & _their_points(blot) << d if blot else 0
    hits: Sequence[int] = [_HIT[s - d] if hit >> s & 1 else 0 for s in sources] if hit else _NO_HITS
    bits = _SET_BITS.__getitem__ if len(sources) <= 12 else _set_bits
    upto, below = _UPTO, _BELOW
    if need == 3:
        return [
            (k2 + deltas[i2]) | hits[i2]
            for i0 in bits(held)
            for k1 in ((key + deltas[i0]) | hits[i0],)
            for m1 in ((held & (upto[i0] if k1 >> shifts[i0] & 15 else below[i0])) | lands[i0],)
            for i1 in bits(m1)
            for k2 in ((k1 + deltas[i1]) | hits[i1],)
            for i2 in bits((m1 & (upto[i1] if k2 >> shifts[i1] & 15 else below[i1])) | lands[i1])
        ]
    return [
        (k3 + deltas[i3]) | hits[i3]
        for i0 in bits(held)
        for k1 in ((key + deltas[i0]) | hits[i0],)
        for m1 in ((held & (upto[i0] if k1 >> shifts[i0] & 15 else below[i0])) | lands[i0],)
        for i1 in bits(m1)
        for k2 in ((k1 + deltas[i1]) | hits[i1],)
        for m2 in ((m1 & (upto[i1] if k2 >> shifts[i1] & 15 else below[i1])) | lands[i1],)
        for i2 in bits(m2)
        for k3 in ((k2 + deltas[i2]) | hits[i2],)
        for i3 in bits((m2 & (upto[i2] if k3 >> shifts[i2] & 15 else below[i2])) | lands[i2])
    ]


def can_play(position: Position, dice: Sequence[int]) -> bool:
    """Whether the roll has any legal play: some checker can move by one of the dice.

    A turn that can use one die has a legal play, so a game can pass a roll with
    none (WBF 17) without listing the plays of every roll that has some.
    """
    first, second = check_dice(dice)
    mine, theirs = position
    ge2 = (theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    if mine & _BAR_NIB:
        return not ge2 & _OPP_BIT[25 - first] or not ge2 & _OPP_BIT[25 - second]
    # the highest checker first: it is the one most often free to move
    occupied = (mine | mine >> 1 | mine >> 2 | mine >> 3) & _POINT_LOWS
    while occupied:
        top = occupied.bit_length() - 1
        s = top >> 2
        if _step(mine, ge2, 0, s, first) >= 0 or _step(mine, ge2, 0, s, second) >= 0:
            return True
        occupied ^= 1 << top
    return False


# _SOURCE_OF[d]: the change a one-die step makes to a packed side -> the point it starts from
_SOURCE_OF: list[dict[int, int]] = [{}] + [
    {_DELTA[d][s]: s for s in range(1, NIBBLES)} for d in range(1, 7)
]


def plays_reaching(position: Position, dice: Sequence[int], side: int) -> tuple[Play, ...]:
    """The legal plays that use every die and leave the mover's packed side as ``side``.

    Checking a written play needs only these, not the whole list (see :func:`_reaching`);
    empty when there are none, and then only :func:`legal_plays` can tell more.
    """
    return reaching_plays(position, check_dice(dice), side)


def reaching_plays(position: Position, roll: tuple[int, int], side: int) -> tuple[Play, ...]:
    """:func:`plays_reaching` for a roll already checked."""
    return tuple(
        [
            _make(Play, (position, path, key, roll))
            for key, path in _reaching(position[0], position[1], roll[0], roll[1], side).items()
        ]
    )


def pair_path(position: Position, key: int, dice: tuple[int, int]) -> tuple[int, ...]:
    """The path the search would keep for a play of two different dice, from its result.

    For the plays :class:`LegalPlays` counts rather than searches (see :class:`_Pairs`):
    their notation is worked out when asked for, gnubg's as the search gives it.
    """
    found = _reaching(position[0], position[1], dice[0], dice[1], key & _SIDE)
    path = found.get(key)
    assert path is not None, "a counted play is always a play of both dice"
    return path


def _reaching(mine: int, theirs: int, first: int, second: int, target: int) -> Found:
    """The plays using every die that leave the mover's side as ``target``, with their paths.

    What :func:`search` gives for those results, found without listing the rest:
    a play that uses all the dice is always of the most dice (WBF 16-17), and the
    steps that reach ``target`` are few. Empty when no such play exists (the
    written play may use fewer dice, or be illegal): then only the whole search can say.
    """
    ge1 = (theirs | theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    ge2 = (theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    blot = ge1 & ~ge2
    if first == second:
        return _double_reaching(mine, ge2, blot, first, target)
    # A first step from s1 by x, then one from s2 by y, changes s1's count by -1, -2, or 0
    # when the second checker lands there (s2 = s1 + y); either way s1 or s1 + y is a
    # point that ends with fewer checkers than it had.
    fewer = []
    changed = (mine ^ target) & _SIDE & ~15
    while changed:
        point = (changed.bit_length() - 1) >> 2
        changed &= ~(15 << (4 * point))
        if target >> (4 * point) & 15 < mine >> (4 * point) & 15:
            fewer.append(point)
    found: Found = {}
    bar = mine & _BAR_NIB
    rest = target - mine  # what the two steps must add up to
    for flag, x, y in ((0, first, second), (1, second, first)):
        sources_of_y, delta_x = _SOURCE_OF[y], _DELTA[x]
        row = _PAIR_PATHS[flag]
        firsts = (25,) if bar else fewer + [p - y for p in fewer if p > y]
        for s1 in firsts:
            # the second step is whatever is left, if one step of y makes it: sums first,
            # the rules (WBF 18-22) only for a pair that adds up
            s2 = sources_of_y.get(rest - delta_x[s1])
            if s2 is None or not mine >> (4 * s1) & 15:
                continue
            k1 = _step(mine, ge2, blot, s1, x)
            if k1 < 0 or not k1 >> (4 * s2) & 15 or (s2 != 25 and k1 & _BAR_NIB):
                continue
            k2 = _step(k1, ge2, blot, s2, y)
            if k2 < 0:
                continue
            # the search keeps the first path to a play: dice as given, then the higher source
            kept = found.get(k2)
            if kept is None or (kept[0] == flag and kept[1] < s1):
                found[k2] = row[s1][s2]
    return found


def _double_reaching(mine: int, ge2: int, blot: int, d: int, target: int) -> Found:
    """A double's play of four moves ending at ``target``, if there is one.

    The search plays a double's sources from the highest down, so the play that
    ends at ``target`` is the only one: from the bar down, each point gives up
    the checkers it holds beyond what ``target`` leaves there.
    """
    key = mine
    path: tuple[int, ...] = (0,)
    for s in range(25, 0, -1):
        extra = (key >> (4 * s) & 15) - (target >> (4 * s) & 15)
        if extra < 0:
            return {}  # a point short of checkers that nothing above can bring
        for _ in range(extra):
            if len(path) == 5 or (s != 25 and key & _BAR_NIB):
                return {}  # more than four moves, or a move with a checker left on the bar
            key = _step(key, ge2, blot, s, d)
            if key < 0:
                return {}
            path += (s,)
    if len(path) != 5 or key & _SIDE != target:
        return {}
    return {key: path}


def partial_results(position: Position, dice: Sequence[int]) -> dict[int, int]:
    """Every mover's side reachable step by step with the roll, maximal or not, and dice used.

    The rules allow only the maximal ones; the others tell why a written play is
    illegal ("both dice can be played, so both must be").
    """
    first, second = check_dice(dice)
    theirs = position[1]
    ge1 = (theirs | theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    ge2 = (theirs >> 1 | theirs >> 2 | theirs >> 3) & _LOW
    found = _general(position[0], ge2, ge1 & ~ge2, first, second, every=True)
    return {key & _SIDE: len(path) - 1 for key, path in found.items()}


def _general(
    mine: int, ge2: int, blot: int, a: int, b: int, *, every: bool = False
) -> dict[int, tuple[int, ...]]:
    """Any position, every rule checked at each step: the reference the fast paths must match.

    With ``every``, plays that stop early are kept too (for explaining refusals).
    """
    found: dict[int, tuple[int, ...]] = {}
    best = [0, 0]  # dice used, pips used: more of either makes earlier plays illegal
    dice = (a, a, a, a) if a == b else (a, b)

    def step(key: int, s: int, die: int) -> int:
        """The key after moving from s by die, or -1 when that step is illegal."""
        t = s - die
        if t >= 1:
            bit = _OPP_BIT[t]
            if ge2 & bit:
                return -1
            if blot & bit:
                key |= _HIT[t]
            return key + _NIB[t] - _NIB[s]
        # bearing off: every checker home (WBF 22)
        if key & _OUTSIDE:
            return -1
        if t < 0 and key & _ABOVE[s]:
            return -1  # a higher die only from the highest point
        return key + _NIB[0] - _NIB[s]

    def save(key: int, path: tuple[int, ...], used: int, pips: int) -> None:
        if not every:
            if used < best[0] or pips < best[1]:
                return
            if used > best[0] or pips > best[1]:
                found.clear()
                best[0], best[1] = used, pips
        if key not in found:
            found[key] = path

    def walk(key: int, order: tuple[int, ...], depth: int, top: int, path: tuple[int, ...]) -> bool:
        """Play order[depth:] from key; True when no further die could be played here."""
        if depth == len(order):
            return True
        die = order[depth]
        pips = sum(order[: depth + 1])
        if key & _BAR_NIB:
            nk = step(key, 25, die)
            if nk < 0:
                return True
            if walk(nk, order, depth + 1, 25, path + (25,)) or every:
                save(nk, path + (25,), depth + 1, pips)
            return False
        used = False
        for s in range(min(top, 24), 0, -1):
            if not key >> (4 * s) & 15:
                continue
            nk = step(key, s, die)
            if nk < 0:
                continue
            used = True
            next_top = s if a == b else 25
            if walk(nk, order, depth + 1, next_top, path + (s,)) or every:
                save(nk, path + (s,), depth + 1, pips)
        return not used

    walk(mine, dice, 0, 25, (0,))
    if a != b:
        walk(mine, (b, a), 0, 25, (1,))
    return found
