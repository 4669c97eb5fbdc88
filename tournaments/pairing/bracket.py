"""Knockout brackets as data: who meets whom, where winners and losers go.

A bracket is a set of matches, each fed by two sources: a seed, the winner of
an earlier match, the loser of one, or a bye. Single elimination, a consolation
fed by the main draw's losers (first round only, or progressively round by
round), and double elimination are built here from the number of entrants
alone; the database layer turns the matches into real ones as their players
become known. :func:`play_out` plays a bracket through with given results, so
the shapes can be checked without a database.

>>> bracket = single_elimination(5)
>>> [m.key for m in bracket.rounds("main")[0]]
['M1-1', 'M1-2', 'M1-3', 'M1-4']
>>> bracket.match("M1-1").sources
(Seed(number=1), Bye())
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .seeding import bracket_size, seed_order


@dataclass(frozen=True)
class Seed:
    number: int


@dataclass(frozen=True)
class Bye:
    pass


@dataclass(frozen=True)
class WinnerOf:
    key: str


@dataclass(frozen=True)
class LoserOf:
    key: str


Source = Seed | Bye | WinnerOf | LoserOf

FINAL_KEY = "F1-1"  # double elimination's final
RESET_KEY = "F2-1"  # the final played again, when the losers' draw's player wins it


class Stage(StrEnum):
    """What a match's round is: a numbered round, or double elimination's final (once, or
    played again). The value is the code the API gives."""

    ROUND = "round"
    FINAL = "final"
    FINAL_AGAIN = "final_again"


def stage_of(key: str) -> Stage:
    """The stage of the match at bracket place ``key`` ("" outside a knockout).

    >>> [stage_of(key).value for key in ("L6-1", FINAL_KEY, RESET_KEY, "")]
    ['round', 'final', 'final_again', 'round']
    """
    return {FINAL_KEY: Stage.FINAL, RESET_KEY: Stage.FINAL_AGAIN}.get(key, Stage.ROUND)


@dataclass(frozen=True)
class BracketMatch:
    key: str  # "M2-3": main draw, round 2, match 3; C consolation, L losers' bracket, F final
    draw: str  # main, consolation, losers, final
    round: int
    index: int
    sources: tuple[Source, Source]


@dataclass(frozen=True)
class Bracket:
    entrants: int
    size: int
    matches: tuple[BracketMatch, ...]
    reset_final: bool = False  # double elimination: a second final if the final's loser had no loss
    _by_key: dict[str, BracketMatch] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {m.key: m for m in self.matches})

    def match(self, key: str) -> BracketMatch:
        return self._by_key[key]

    def final(self) -> BracketMatch:
        """The match that decides the event: double elimination's final, else the main one's."""
        finals = [m for m in self.matches if m.draw == "final"]
        return finals[-1] if finals else [m for m in self.matches if m.draw == "main"][-1]

    def rounds(self, draw: str) -> list[list[BracketMatch]]:
        found: dict[int, list[BracketMatch]] = {}
        for match in self.matches:
            if match.draw == draw:
                found.setdefault(match.round, []).append(match)
        return [found[r] for r in sorted(found)]


def _main_draw(entrants: int, prefix: str = "M", draw: str = "main") -> list[BracketMatch]:
    size = bracket_size(entrants)
    order = seed_order(size)
    slots: list[Source] = [Seed(s) if s <= entrants else Bye() for s in order]
    matches = []
    current: list[Source] = slots
    round_number = 1
    while len(current) > 1:
        next_round: list[Source] = []
        for index in range(len(current) // 2):
            key = f"{prefix}{round_number}-{index + 1}"
            matches.append(
                BracketMatch(
                    key, draw, round_number, index + 1, (current[2 * index], current[2 * index + 1])
                )
            )
            next_round.append(WinnerOf(key))
        current = next_round
        round_number += 1
    return matches


def single_elimination(entrants: int, *, third_place: bool = False) -> Bracket:
    """The main draw: byes to the top seeds (see :mod:`.seeding`), winners go on; with
    ``third_place``, the semi-finals' losers play for third place."""
    main = _main_draw(entrants)
    return Bracket(entrants, bracket_size(entrants), tuple(main + _third_place(main, third_place)))


def _third_place(main: list[BracketMatch], wanted: bool) -> list[BracketMatch]:
    """The play-off for third place (key ``P1-1``), played beside the final."""
    rounds = _by_round(main)
    last = max(rounds)
    if not wanted or last < 2:
        return []
    semis = rounds[last - 1]
    return [BracketMatch("P1-1", "third", last, 1, (LoserOf(semis[0].key), LoserOf(semis[1].key)))]


def _real(match: BracketMatch) -> bool:
    """Two seeds meet: a first-round match that is not a bye."""
    return all(isinstance(source, Seed) for source in match.sources)


def _padded(losers: list[Source]) -> list[Source]:
    """The first-round losers in a draw of the next power of two, a bye beside some of
    them and never two byes together: nobody plays "bye v bye".

    >>> [type(s).__name__ for s in _padded([LoserOf("a"), LoserOf("b"), LoserOf("c")])]
    ['LoserOf', 'Bye', 'LoserOf', 'LoserOf']
    """
    size = bracket_size(len(losers))
    byes = size - len(losers)
    padded: list[Source] = []
    for index, loser in enumerate(losers):
        padded.append(loser)
        if index < byes:
            padded.append(Bye())
    return padded


def _pair_up(
    sources: list[Source], prefix: str, draw: str, round_number: int
) -> tuple[list[BracketMatch], list[Source]]:
    matches: list[BracketMatch] = []
    winners: list[Source] = []
    for index in range(len(sources) // 2):
        key = f"{prefix}{round_number}-{index + 1}"
        matches.append(
            BracketMatch(
                key, draw, round_number, index + 1, (sources[2 * index], sources[2 * index + 1])
            )
        )
        winners.append(WinnerOf(key))
    return matches, winners


def _by_round(matches: list[BracketMatch]) -> dict[int, list[BracketMatch]]:
    rounds: dict[int, list[BracketMatch]] = {}
    for match in matches:
        rounds.setdefault(match.round, []).append(match)
    return rounds


class _SideDraw:
    """A draw fed by the main draw's losers (consolation, or double elimination's losers)."""

    def __init__(self, prefix: str, draw: str, first_losers: list[Source]) -> None:
        self.prefix, self.draw = prefix, draw
        self.matches: list[BracketMatch] = []
        self.round = 1
        self.current = first_losers if len(first_losers) <= 1 else self.pair(first_losers)

    def pair(self, sources: list[Source]) -> list[Source]:
        made, winners = _pair_up(sources, self.prefix, self.draw, self.round)
        self.matches += made
        self.round += 1
        return winners

    def feed(self, losers: list[Source], *, cross: bool) -> None:
        """Bring in a main round's losers, one against each player still in this draw."""
        while len(self.current) > len(losers):
            self.current = self.pair(self.current)
        if cross:
            losers = list(reversed(losers))  # so players who met in the main draw part early
        self.current = self.pair(
            [s for pair in zip(self.current, losers, strict=True) for s in pair]
        )

    def finish(self) -> None:
        while len(self.current) > 1:
            self.current = self.pair(self.current)


def with_consolation(
    entrants: int, *, progressive: bool = False, third_place: bool = False
) -> Bracket:
    """The main draw plus a consolation for its losers.

    First-round losers play a bracket of their own; with ``progressive`` the
    losers of each later main round (up to the semi-finals) join the
    consolation in a later round, so nobody's event ends with one defeat early.
    """
    main = _main_draw(entrants)
    rounds = _by_round(main)
    last = max(rounds)
    if progressive:  # later rounds' losers join it, so it keeps the main draw's shape
        side = _SideDraw("C", "consolation", [LoserOf(m.key) for m in rounds[1]])
        for main_round in range(2, last):
            side.feed([LoserOf(m.key) for m in rounds[main_round]], cross=main_round % 2 == 0)
    else:  # sized to the players who can enter it: the losers of real first-round matches
        losers: list[Source] = [LoserOf(m.key) for m in rounds[1] if _real(m)]
        side = _SideDraw("C", "consolation", _padded(losers) if len(losers) > 1 else [])
    side.finish()
    third = _third_place(main, third_place)
    return Bracket(entrants, bracket_size(entrants), tuple(main + third + side.matches))


def double_elimination(entrants: int) -> Bracket:
    """Winners' draw, a losers' draw fed by every main round, and the final (reset if needed).

    The final's round is the one after the last of either draw (the losers' draw has more
    rounds), and the final played again the one after that: they are played last.

    >>> bracket = double_elimination(9)
    >>> [len(bracket.rounds(draw)) for draw in ("main", "losers")], bracket.final().round
    ([4, 6], 7)
    """
    main = _main_draw(entrants)
    rounds = _by_round(main)
    last = max(rounds)
    side = _SideDraw("L", "losers", [LoserOf(m.key) for m in rounds[1]])
    for main_round in range(2, last + 1):
        side.feed([LoserOf(m.key) for m in rounds[main_round]], cross=main_round % 2 == 0)
    side.finish()
    champion = WinnerOf(rounds[last][0].key)
    after = max(m.round for m in [*main, *side.matches]) + 1  # the final comes last of all
    final = BracketMatch(FINAL_KEY, "final", after, 1, (champion, side.current[0]))
    return Bracket(
        entrants, bracket_size(entrants), tuple([*main, *side.matches, final]), reset_final=True
    )


def first_defeat_ends(bracket: Bracket) -> int:
    """How many entrants go home if they lose their first match: nothing takes its loser.

    A player with a bye plays first in round 2. Directors are warned when this is most of
    the field (a plain knockout: everyone).

    >>> first_defeat_ends(single_elimination(12)), first_defeat_ends(with_consolation(12))
    (12, 4)
    >>> first_defeat_ends(double_elimination(12))
    0
    """
    taken = {s.key for m in bracket.matches for s in m.sources if isinstance(s, LoserOf)}
    feeds = {s.key: m.key for m in bracket.matches for s in m.sources if isinstance(s, WinnerOf)}
    count = 0
    for match in bracket.rounds("main")[0]:
        for source in match.sources:
            if isinstance(source, Seed):
                first = match.key if _real(match) else feeds.get(match.key, match.key)
                count += first not in taken
    return count


def first_match_exits(bracket: Bracket) -> tuple[int, int]:
    """(fewest, most) entrants who go home after their first match, whatever the results.

    A match of two players in their first match sends one of them home (unless a later
    draw takes its loser); a player in their first match against one who has won already
    (a bye's holder in round 2) goes home only if they lose. A plain knockout of four sends
    two home, not four: :func:`first_defeat_ends` counts those a first defeat would end.

    >>> first_match_exits(single_elimination(4)), first_match_exits(single_elimination(12))
    ((2, 2), (4, 8))
    >>> first_match_exits(with_consolation(10)), first_match_exits(double_elimination(8))
    ((2, 4), (0, 0))
    """
    taken = {s.key for m in bracket.matches for s in m.sources if isinstance(s, LoserOf)}
    feeds = {s.key: m.key for m in bracket.matches for s in m.sources if isinstance(s, WinnerOf)}
    newcomers: dict[str, int] = {}
    for match in bracket.rounds("main")[0]:
        first = match.key if _real(match) else feeds.get(match.key, match.key)
        newcomers[first] = newcomers.get(first, 0) + sum(isinstance(s, Seed) for s in match.sources)
    fewest = sum(1 for key, n in newcomers.items() if n == 2 and key not in taken)
    most = sum(1 for key in newcomers if key not in taken)
    return fewest, most


@dataclass
class Outcome:
    """A bracket played through: each match's two players and winner, and who won it all."""

    players: dict[str, tuple[int | None, int | None]]
    winners: dict[str, int | None]
    champion: int | None
    losses: dict[int, int]


def play_out(bracket: Bracket, choose: Callable[[int, int, BracketMatch], int]) -> Outcome:
    """Resolve every match in order; a bye (or a missing side) advances the other at once."""
    players: dict[str, tuple[int | None, int | None]] = {}
    winners: dict[str, int | None] = {}
    losers: dict[str, int | None] = {}
    losses: dict[int, int] = {n: 0 for n in range(1, bracket.entrants + 1)}

    def resolve(source: Source) -> int | None:
        if isinstance(source, Seed):
            return source.number
        if isinstance(source, WinnerOf):
            return winners[source.key]
        if isinstance(source, LoserOf):
            return losers[source.key]
        return None

    for match in bracket.matches:
        a, b = (resolve(s) for s in match.sources)
        players[match.key] = (a, b)
        if a is None or b is None:
            winners[match.key], losers[match.key] = (a if b is None else b), None
            continue
        winner = choose(a, b, match)
        loser = b if winner == a else a
        winners[match.key], losers[match.key] = winner, loser
        losses[loser] += 1
    last = bracket.final()
    champion = winners[last.key]
    if bracket.reset_final and champion is not None and losses[champion] == 1:
        a, b = players[last.key]
        if a is not None and b is not None:  # the winners' champion lost once: play again
            again = choose(a, b, last)
            loser = b if again == a else a
            losses[loser] += 1
            champion = again
    return Outcome(players, winners, champion, losses)


def random_results(rng: random.Random) -> Callable[[int, int, BracketMatch], int]:
    return lambda a, b, match: rng.choice((a, b))


def seeds_in_order(sources: Sequence[Source]) -> list[int]:
    return [s.number for s in sources if isinstance(s, Seed)]


# --- a bracket in progress ------------------------------------------------------------


class _Pending:
    """A side not known yet: its match has not been played."""

    def __repr__(self) -> str:
        return "PENDING"


PENDING = _Pending()
# A side is a seed number, None (nobody: a bye, or the loser of a match that had a bye), or
# PENDING.
Side = int | None | _Pending


@dataclass(frozen=True)
class Slot:
    """One match of a bracket as things stand: its two sides and, once known, who won."""

    match: BracketMatch
    first: Side
    second: Side
    winner: Side = PENDING

    @property
    def ready(self) -> bool:
        """Both players known and the match still to be played."""
        return (
            isinstance(self.first, int) and isinstance(self.second, int) and self.winner is PENDING
        )

    @property
    def walkthrough(self) -> bool:
        """No match to play: a bye (or nobody) on one side advances the other at once."""
        return self.first is None or self.second is None

    @property
    def loser(self) -> Side:
        if self.winner is PENDING:
            return PENDING
        if self.walkthrough:
            return None
        return self.second if self.winner == self.first else self.first


@dataclass(frozen=True)
class BracketState:
    slots: dict[str, Slot]
    champion: Side

    def ready(self) -> list[Slot]:
        return [slot for slot in self.slots.values() if slot.ready]


def resolve(bracket: Bracket, results: dict[str, int]) -> BracketState:
    """Where everyone stands, from the winners (seed numbers) of the matches played so far.

    A bye, or a side nobody fills, sends the other side on at once without a match;
    in double elimination a final won by the losers' draw's player is played again
    (key ``F2-1``), since only then has the winners' champion lost once.

    >>> state = resolve(single_elimination(3), {"M1-2": 3})
    >>> state.slots["M2-1"].first, state.slots["M2-1"].second
    (1, 3)
    >>> state.slots["M2-1"].ready, state.champion
    (True, PENDING)
    """
    slots: dict[str, Slot] = {}

    def side(source: Source) -> Side:
        if isinstance(source, Seed):
            return source.number
        if isinstance(source, Bye):
            return None
        slot = slots[source.key]
        return slot.winner if isinstance(source, WinnerOf) else slot.loser

    for match in bracket.matches:
        first, second = (side(s) for s in match.sources)
        if first is PENDING or second is PENDING:
            winner: Side = PENDING
        elif first is None or second is None:
            winner = second if first is None else first
        else:
            winner = results.get(match.key, PENDING)
            if winner not in (first, second, PENDING):
                raise ValueError(f"{match.key}: {winner} did not play in it")
        slots[match.key] = Slot(match, first, second, winner)
    last = bracket.final()
    champion = slots[last.key].winner
    if bracket.reset_final and champion is not PENDING and champion == slots[last.key].second:
        again = BracketMatch(RESET_KEY, "final", last.round + 1, 1, last.sources)
        final = slots[last.key]
        winner = results.get(RESET_KEY, PENDING)
        slots[RESET_KEY] = Slot(again, final.first, final.second, winner)
        champion = winner
    return BracketState(slots, champion)
