"""Building test positions by hand, and a naive legal-play enumerator to hold the engine to.

The enumerator is written from the rules text (WBF 15-22) with plain lists and
no shortcuts, independently of rules.movegen, so agreement means something.
"""

from __future__ import annotations

from rules import Position


def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from {point: count} for the player on roll and the opponent (own numbering).

    Checkers not placed are borne off; 25 is the bar.
    """
    on_roll = [0] * 26
    opponent = [0] * 26
    for counts, placed in ((on_roll, mine), (opponent, theirs)):
        for point, count in placed.items():
            counts[point] = count
        counts[0] = 15 - sum(placed.values())
    return Position.from_counts(on_roll, opponent)


def naive_results(
    position: Position, dice: tuple[int, int]
) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every legal resulting (mover, opponent) pair of count tuples, by brute force."""
    first, second = dice
    orders = [[first] * 4] if first == second else [[first, second], [second, first]]
    finals: list[tuple[int, int, tuple, tuple]] = []  # (dice used, pips used, mine, theirs)

    def step(mine: list[int], theirs: list[int], source: int, die: int):
        if mine[source] == 0:
            return None
        if mine[25] and source != 25:
            return None  # enter first (WBF 20)
        target = source - die
        if target >= 1:
            if theirs[25 - target] >= 2:
                return None  # WBF 18
        else:
            if any(mine[7:26]):
                return None  # WBF 22: all home first
            if target < 0 and any(mine[source + 1 : 7]):
                return None  # WBF 22: higher die only from the highest point
            target = 0
        mine, theirs = mine[:], theirs[:]
        mine[source] -= 1
        mine[target] += 1
        if target and theirs[25 - target] == 1:
            theirs[25 - target] = 0
            theirs[25] += 1
        return mine, theirs

    def walk(mine, theirs, order, used, pips):
        moved = False
        if used < len(order):
            for source in range(25, 0, -1):
                after = step(mine, theirs, source, order[used])
                if after:
                    moved = True
                    walk(*after, order, used + 1, pips + order[used])
        if not moved and used:
            finals.append((used, pips, tuple(mine), tuple(theirs)))

    for order in orders:
        walk(list(position.on_roll), list(position.opponent), order, 0, 0)
    if not finals:
        return set()
    most = max(f[0] for f in finals)
    finals = [f for f in finals if f[0] == most]
    top = max(f[1] for f in finals)  # one die only: the higher (WBF 17)
    return {(f[2], f[3]) for f in finals if f[1] == top}


def result_counts(play) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mover, opponent) counts after a play, as naive_results gives them."""
    return (play.result.opponent, play.result.on_roll)


def random_match(
    seed: int,
    length: int,
    *,
    cube_rate: float = 0.08,
    resign_rate: float = 0.004,
    rolled_resign_rate: float = 0.0,
    options=None,
):
    """A whole match played by the engine with seeded dice and random (legal) choices.

    Doubles, takes, drops and resignations happen at random where the rules allow
    them (``rolled_resign_rate``: a resignation after rolling, before playing), so
    written and replayed matches meet every kind of game end. ``options``: a
    :class:`rules.match.MatchRules` for the match's other rules (Crawford, variation).
    Returns the :class:`rules.match.Match` and its :class:`rules.game.Game` objects.
    """
    import random

    from rules.dice import SeededDice
    from rules.game import Act, Game, Phase
    from rules.match import Match
    from rules.matchid import Resignation

    chooser = random.Random(seed)
    dice = SeededDice(seed)
    match = Match(length, options=options)
    games = []
    while not match.over:
        game = Game(match.next_game, dice=dice)
        game.roll_opening()
        while not game.over:
            if game.phase is Phase.OPENING:
                game.roll_opening()
            elif game.phase is Phase.ROLL:
                if chooser.random() < resign_rate:
                    game.resign(Resignation(chooser.choice((1, 1, 2))))
                elif Act.DOUBLE in game.available() and chooser.random() < cube_rate:
                    game.double()
                else:
                    game.roll()
            elif game.phase is Phase.MOVE:
                # a resignation after rolling, where a server would not have played for them
                if (
                    rolled_resign_rate
                    and len(game.legal_plays) > 1
                    and chooser.random() < rolled_resign_rate
                ):
                    game.resign(Resignation(chooser.choice((1, 1, 2))))
                else:
                    game.play(chooser.choice(game.legal_plays))
            elif game.phase is Phase.DOUBLED:
                (game.take if chooser.random() < 0.6 else game.drop)()
            elif game.phase is Phase.RESIGNED:
                game.accept_resignation()
        games.append(game)
        match = match.add(game.result)
    return match, games


class StrictTranslator:
    """A translator that knows the catalog's templates and nothing else.

    Each template "translates" to itself in guillemets, so a test sees that the
    translation was used; a text that is not a template raises KeyError, and so
    (through ``%``) does a template whose parameter the message left out.
    """

    def __init__(self) -> None:
        from rules.messages import CATALOG

        self.singular: dict[str, str] = {}
        self.plural: dict[tuple[str, str], tuple[str, str]] = {}
        for template in CATALOG.values():
            if isinstance(template, tuple):
                self.plural[template] = (f"«{template[0]}»", f"«{template[1]}»")
            else:
                self.singular[template] = f"«{template}»"
        self.used: set[str] = set()

    def gettext(self, message: str) -> str:
        translated = self.singular[message]
        self.used.add(message)
        return translated

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.plural[(singular, plural)]
        self.used.add(singular)
        return forms[0] if n == 1 else forms[1]


def mutated(data: bytes, seed: int, byte_edits: int, line_edits: int) -> bytes:
    """A file with a few random bytes changed, dropped or added, and lines dropped or moved."""
    import random

    chooser = random.Random(seed)
    edited = bytearray(data)
    for _ in range(byte_edits):
        at = chooser.randrange(len(edited))
        choice = chooser.random()
        if choice < 0.4:
            edited[at] = chooser.randrange(256)
        elif choice < 0.7:
            del edited[at]
        else:
            edited.insert(at, chooser.choice(b"0123456789/*: ?\n\r\tabWinsDoubleTakes"))
    lines = bytes(edited).split(b"\n")
    for _ in range(line_edits):
        at = chooser.randrange(len(lines))
        action = chooser.choice(("drop", "repeat", "swap"))
        if action == "drop":
            del lines[at]
        elif action == "repeat":
            lines.insert(at, lines[at])
        else:
            other = chooser.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
    return b"\n".join(lines)
