"""A match's history as the rules engine reads it: its games, the penalty points awarded
between them and a forfeit at the end, in the order they happened.

The score before each game, the Crawford game and the winner are derived from all of it
(tournament rules; WBF 3, 24), never stored: every page and service that scores a match
builds its :class:`rules.match.Match` here, so a penalty moves the next game's score and
its Crawford game everywhere at once.

Games and penalties are read through :func:`match_games` and :func:`match_penalties`: a list
that prefetches both (:data:`HISTORY`, as :func:`matches.selectors.match_list` does) scores
each match without a query of its own. They are prefetched into plain lists
(``Prefetch(to_attr=...)``): Django's own prefetch builds a filtered queryset for every match
and relation, which cost a tournament's dashboard half its time (400 matches, 60 ms).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Prefetch

from rules.match import Entry, Forfeit, ForfeitReason, GameResult
from rules.match import Match as RulesMatch

from .models import Game, Match, Penalty


def history_of(match: str = "") -> tuple[Prefetch[Any, Any, Any], Prefetch[Any, Any, Any]]:
    """What scoring a match reads, prefetched for a list of matches, or of rows with a
    ``match`` (``history_of("match")``, a rating history's)."""
    prefix = f"{match}__" if match else ""
    return (
        Prefetch(
            f"{prefix}games", queryset=Game.objects.order_by("number"), to_attr="history_games"
        ),
        Prefetch(f"{prefix}penalties", queryset=Penalty.objects.all(), to_attr="history_penalties"),
    )


# what scoring a match reads, prefetched for a list of matches (``prefetch_related(*HISTORY)``)
HISTORY = history_of()


def match_games(match: Match) -> list[Game]:
    """The match's games by number: as prefetched with :data:`HISTORY`, else read."""
    kept = getattr(match, "history_games", None)
    return sorted(match.games.all() if kept is None else kept, key=lambda g: g.number)


def match_penalties(match: Match) -> list[Penalty]:
    """The match's penalties in the order they were awarded (by the game they precede): as
    prefetched with :data:`HISTORY`, else read."""
    kept = getattr(match, "history_penalties", None)
    given = match.penalties.all() if kept is None else kept
    return sorted(given, key=lambda p: (p.before_game, p.pk or 0))


def entries_with_games(
    match: Match, results: Sequence[GameResult], *, penalties: Sequence[Penalty] | None = None
) -> list[Entry]:
    """Games 1, 2, … (``results``) with the match's penalties between them: a penalty
    before game n comes just before it. Only the penalties given before the game after
    these are included (a history up to a game, for the context of that game).

    ``penalties``: the penalties to use instead of the match's (one taken back, say).
    """
    given = match_penalties(match) if penalties is None else list(penalties)
    entries: list[Entry] = []
    waiting = iter(sorted(given, key=lambda p: (p.before_game, p.pk or 0)))
    upcoming = next(waiting, None)
    for number, result in enumerate(results, start=1):
        while upcoming is not None and upcoming.before_game <= number:
            entries.append(upcoming.as_entry())
            upcoming = next(waiting, None)
        entries.append(result)
    while upcoming is not None and upcoming.before_game <= len(results) + 1:
        entries.append(upcoming.as_entry())
        upcoming = next(waiting, None)
    return entries


def match_forfeit_entry(match: Match) -> Forfeit | None:
    """The match's forfeit as the engine reads it (the side who forfeited), if any."""
    if not match.forfeit or match.retired is None:  # both or neither (match_forfeit_has_a_side)
        return None
    return Forfeit(player=match.retired, reason=ForfeitReason(match.forfeit))


def match_entries(
    match: Match,
    *,
    games: Sequence[Game] | None = None,
    penalties: Sequence[Penalty] | None = None,
) -> list[Entry]:
    """The whole history: games and penalties merged in order, then a forfeit if any.

    ``games``, ``penalties``: the match's, when the caller has read them already."""
    played = match_games(match) if games is None else sorted(games, key=lambda g: g.number)
    results = [game.as_result() for game in played]
    entries = entries_with_games(match, results, penalties=penalties)
    forfeit = match_forfeit_entry(match)
    if forfeit is not None:
        entries.append(forfeit)
    return entries


def match_derived(
    match: Match,
    *,
    games: Sequence[Game] | None = None,
    penalties: Sequence[Penalty] | None = None,
) -> RulesMatch:
    """The match as the rules score it from its whole history (not checked again: what is
    stored was checked when it was written). ``games``, ``penalties``: as for
    :func:`match_entries`."""
    entries = match_entries(match, games=games, penalties=penalties)
    return RulesMatch(match.length, tuple(entries), holland=match.holland)
