"""A knockout as it stands: its bracket's shape, each place's state and final placings.

The state comes from the pure bracket (:mod:`tournaments.pairing.bracket`), the entries'
seeds and the winners of the matches played (read from their score sheets).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from club.models import Player
from matches.models import Match
from matches.selectors import ScoreSheet, match_score_sheet

from ..models import Entry, Event, Tournament
from ..pairing.bracket import (
    PENDING,
    Bracket,
    BracketState,
    Side,
    double_elimination,
    first_defeat_ends,
    first_match_exits,
    resolve,
    single_elimination,
    with_consolation,
)
from .events import event_entries, event_matches

SHAPES: dict[str, Callable[..., Bracket]] = {
    Event.Format.SINGLE: single_elimination,
    Event.Format.LAST_CHANCE: single_elimination,
    Event.Format.CONSOLATION: with_consolation,
    Event.Format.PROGRESSIVE: lambda n, **options: with_consolation(n, progressive=True, **options),
    Event.Format.DOUBLE: lambda n, **options: double_elimination(n),
}


def event_bracket(*, event: Event, entrants: int) -> Bracket:
    return SHAPES[event.format](entrants, third_place=event.third_place)


def event_one_defeat(*, event: Event, entries: list[Entry]) -> tuple[int, int, int] | None:
    """(fewest, most who go home after their first match, of how many) when a first defeat
    would end the event for most of the field: the drawn players, or before the draw those
    checked in (else those entered)."""
    if not event.knockout:
        return None
    drawn = [e for e in entries if e.seed is not None]
    playing = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    count = len(drawn or playing or [e for e in entries if e.status != Entry.Status.WITHDRAWN])
    if count < 3:
        return None
    bracket = event_bracket(event=event, entrants=count)
    if 2 * first_defeat_ends(bracket) <= count:
        return None
    return (*first_match_exits(bracket), count)


@dataclass(frozen=True)
class Knockout:
    """A knockout as it stands: the bracket, each place's state, and the real matches."""

    bracket: Bracket
    state: BracketState
    players: dict[int, Player]  # seed -> player
    matches: dict[str, Match]  # bracket key -> match
    sheets: dict[int, ScoreSheet]  # match id -> its score sheet

    def player(self, side: Side) -> Player | None:
        return self.players.get(side) if isinstance(side, int) else None

    @property
    def champion(self) -> Player | None:
        return self.player(self.state.champion)


def event_knockout(
    *, event: Event, entries: list[Entry] | None = None, matches: list[Match] | None = None
) -> Knockout | None:
    """None before the draw. Results are read from the matches' sheets (rules derive them)."""
    if not event.drawn or not event.knockout:
        return None
    entries = entries if entries is not None else list(event_entries(event=event))
    matches = matches if matches is not None else list(event_matches(event=event))
    players = {e.seed: e.player for e in entries if e.seed is not None}
    seed_of = {p.pk: seed for seed, p in players.items()}
    bracket = event_bracket(event=event, entrants=len(players))
    by_key = {m.place.bracket_key: m for m in matches if m.place.bracket_key}
    sheets = {m.pk: match_score_sheet(match=m) for m in matches}
    results = {}
    for key, match in by_key.items():
        sheet = sheets[match.pk]
        if sheet.winner is not None:
            results[key] = seed_of[match.player(sheet.winner).pk]
    return Knockout(bracket, resolve(bracket, results), players, by_key, sheets)


@dataclass(frozen=True)
class Placing:
    """One finishing place: "1", or a range shared by those out at the same stage."""

    first: int
    last: int
    players: tuple[Player, ...]

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def _placings(stages: list[list[Player]]) -> list[Placing]:
    """Stages best first; a stage's players share the places after those above them."""
    found, above = [], 0
    for stage in stages:
        if stage:
            found.append(Placing(above + 1, above + len(stage), tuple(stage)))
            above += len(stage)
    return found


def _round_losers(knockout: Knockout, draw: str) -> list[list[Player]]:
    """The losers of each round of a draw's decided matches, the last round first."""
    stages = []
    for round_matches in reversed(knockout.bracket.rounds(draw)):
        stage = []
        for match in round_matches:
            slot = knockout.state.slots[match.key]
            loser = knockout.player(slot.loser)
            if loser is not None:
                stage.append(loser)
        stages.append(sorted(stage, key=lambda p: (p.sort_name, p.name)))
    return stages


def event_placings(*, event: Event, knockout: Knockout) -> list[tuple[str, list[Placing]]]:
    """A finished knockout's final placings for every entrant, by the round reached: the
    main draw (1, 2, 3–4 or a play-off's 3 and 4, 5–8, …), then a consolation's own.
    Empty until the champion is known."""
    champion = knockout.champion
    if champion is None:
        return []
    sections = []
    if event.format == Event.Format.DOUBLE:
        finals = [s for k, s in knockout.state.slots.items() if s.match.draw == "final"]
        runner_up = knockout.player(finals[-1].loser) if finals else None
        stages = [[champion], [runner_up] if runner_up else [], *_round_losers(knockout, "losers")]
        return [(str(DRAW_TITLES["main"]), _placings(stages))]
    main = _round_losers(knockout, "main")
    stages = [[champion], *main]
    playoff = knockout.state.slots.get("P1-1")
    third = knockout.player(playoff.winner) if playoff is not None else None
    if playoff is not None and third is not None:
        fourth = knockout.player(playoff.loser)
        stages[2:3] = [[third], [fourth] if fourth else []]
    sections.append((str(DRAW_TITLES["main"]), _placings(stages)))
    consolation = knockout.bracket.rounds("consolation")
    if consolation:
        last = knockout.state.slots[consolation[-1][0].key]
        winner = knockout.player(last.winner)
        if winner is not None:
            stages = [[winner], *_round_losers(knockout, "consolation")]
            sections.append((str(DRAW_TITLES["consolation"]), _placings(stages)))
    return sections


def knockout_players_alive(knockout: Knockout) -> set[int]:
    """Player ids who may still play in the knockout (or have won it)."""
    alive = {knockout.state.champion} if knockout.state.champion is not PENDING else set()
    for slot in knockout.state.slots.values():
        if slot.winner is PENDING:
            alive.update(s for s in (slot.first, slot.second) if isinstance(s, int))
    return {knockout.players[s].pk for s in alive if isinstance(s, int)}


DRAW_TITLES = {
    "main": gettext_lazy("Main draw"),
    "consolation": gettext_lazy("Consolation"),
    "losers": gettext_lazy("Losers' draw"),
    "third": gettext_lazy("Play-off for third place"),
}


def tournament_players_out(*, tournament: Tournament, player: Player) -> bool | None:
    """For a last chance: True when the player has played a knockout here and is out of all
    of them; None when they have not played one; False while they are still in one."""
    seen = False
    for event in tournament.events.filter(entries__player=player).exclude(
        format=Event.Format.LAST_CHANCE
    ):
        knockout = event_knockout(event=event)
        if knockout is None:
            continue
        seen = True
        if player.pk in knockout_players_alive(knockout):
            return False
    return True if seen else None
