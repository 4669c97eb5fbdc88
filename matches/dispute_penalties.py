"""A dispute's penalty points and forfeits (tournament rules): the log's beside the site's.

A match file's log may give penalty points before a game and, after the last game, a
forfeit; the site records them as :class:`matches.models.Penalty` rows and the match's
forfeit. :mod:`matches.disputes` compares a log with the recorded match game by game; this
module holds that comparison for penalty points and forfeits (whether they agree, and each
side in words), so the dispute's page says where they part ways as it does for games.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from rules.match import Forfeit, ForfeitReason, PenaltyReason
from rules.match import Match as RulesMatch
from rules.match import Penalty as RulesPenalty

from .models import Match
from .selectors import PenaltyRow, ScoreSheet


def names_of(match: Match) -> tuple[str, str]:
    """The match's players' names, side A first: who the words name."""
    return (str(match.player_a), str(match.player_b))


def time_entry_text(names: tuple[str, str], entry: RulesPenalty | Forfeit, note: str = "") -> str:
    """Penalty points (who scores them, how many, why) or a forfeit, in words, as a
    dispute's table shows them; ``note``: the director's reason, recorded on the site."""
    if isinstance(entry, Forfeit):
        if entry.reason is ForfeitReason.TIME:
            return _("%(name)s forfeits on time") % {"name": names[entry.player]}
        return _("%(name)s forfeits for lateness") % {"name": names[entry.player]}
    values = {"scorer": names[entry.scorer], "points": entry.points, "name": names[entry.player]}
    if entry.reason is PenaltyReason.LATENESS:
        return _("%(scorer)s +%(points)s (%(name)s late)") % values
    if note:
        return _("%(scorer)s +%(points)s (%(note)s)") % {**values, "note": note}
    return _("%(scorer)s +%(points)s (the director's decision)") % values


def _told(entries: Sequence[RulesPenalty | Forfeit]) -> list[tuple[object, ...]]:
    """Penalties and a forfeit as a log tells them: who, how many points, or the forfeit."""
    return [
        ("forfeit", e.player) if isinstance(e, Forfeit) else ("penalty", e.player, e.points)
        for e in entries
    ]


# --- the site's penalty points, where the comparison places them ------------------------------


def recorded_penalties(sheet: ScoreSheet) -> list[PenaltyRow]:
    """The penalty points the site records for the match, in the sheet's order."""
    return [line for line in sheet.lines if isinstance(line, PenaltyRow)]


def recorded_before(rows: Sequence[PenaltyRow], number: int) -> tuple[PenaltyRow, ...]:
    """The recorded penalty points given before game ``number``."""
    return tuple(row for row in rows if row.penalty.before_game == number)


def recorded_after(rows: Sequence[PenaltyRow], count: int) -> tuple[PenaltyRow, ...]:
    """The recorded penalty points given after the last of ``count`` games compared."""
    return tuple(row for row in rows if row.penalty.before_game > count)


def log_penalties_added(scored: RulesMatch, penalties: Sequence[RulesPenalty]) -> RulesMatch:
    """The log's match with the penalty points it writes before a game added, as the rules
    score them (none once the match is over)."""
    for penalty in penalties:
        if not scored.over:
            scored = scored.add(penalty)
    return scored


# --- before a game ---------------------------------------------------------------------------


def penalties_agree(logged: Sequence[RulesPenalty], recorded: Sequence[PenaltyRow]) -> bool:
    """The same penalty points before the game: who was penalised, how many points."""
    told = [(p.player, p.points) for p in logged]
    kept = [(row.penalty.side, row.penalty.points) for row in recorded]
    return told == kept


def logged_said(names: tuple[str, str], entries: Sequence[RulesPenalty | Forfeit]) -> str:
    """The log's penalty points (and forfeit), in words."""
    return ", ".join(time_entry_text(names, entry) for entry in entries)


def recorded_said(
    names: tuple[str, str], rows: Sequence[PenaltyRow], forfeit: Forfeit | None = None
) -> str:
    """The site's penalty points (each with the director's note) and forfeit, in words."""
    said = [time_entry_text(names, row.penalty.as_entry(), row.penalty.note) for row in rows]
    if forfeit is not None:
        said.append(time_entry_text(names, forfeit))
    return ", ".join(said)


# --- after the last game ---------------------------------------------------------------------


def after_agrees(
    logged: Sequence[RulesPenalty | Forfeit],
    recorded: Sequence[PenaltyRow],
    forfeit: Forfeit | None,
) -> bool:
    """The same penalty points and forfeit after the last game (tournament rules)."""
    kept: list[RulesPenalty | Forfeit] = [row.penalty.as_entry() for row in recorded]
    if forfeit is not None:
        kept.append(forfeit)
    return _told(logged) == _told(kept)
