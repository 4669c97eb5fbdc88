"""The bracket as drawn on the page and printed: boxes, columns and landscape sections."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from matches.models import Match

from ..models import Event
from ..pairing.bracket import PENDING, LoserOf, Slot, Source, WinnerOf
from ..rounds import round_name
from .knockouts import DRAW_TITLES, Knockout

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class BracketLine:
    """One side of a match box: a name (or "bye", or a place still to be decided)."""

    name: str
    seed: int | None
    score: int | None
    won: bool
    bye: bool
    pending: str  # e.g. "winner of M1-3" while unknown


class Join(StrEnum):
    """How a box is joined to the round before it on the page (the value names its CSS class)."""

    NONE = ""  # no line: its players come from elsewhere (a seed, the main draw's losers)
    PAIR = "pair"  # the winners of the two boxes beside it: a bracket line joins all three
    LEVEL = "level"  # the winner of the one box level with it, and a newcomer: a straight line


@dataclass(frozen=True)
class BracketBox:
    key: str
    lines: tuple[BracketLine, BracketLine]
    match: Match | None
    length: int
    fed_by: tuple[str, ...] = ()  # keys of the earlier matches whose winners play here
    join: Join = Join.NONE

    @property
    def walkover(self) -> bool:
        return self.match is not None and self.match.status == Match.Status.WALKOVER


@dataclass(frozen=True)
class BracketColumn:
    title: str
    boxes: tuple[BracketBox, ...]


@dataclass(frozen=True)
class BracketSection:
    """What prints on one page: a draw, or a 32-player part of a big main draw."""

    title: StrOrPromise  # a draw's title is translated when the page is rendered
    columns: tuple[BracketColumn, ...]


PAGE_ENTRANTS = 32  # one landscape page holds a 32-player draw


def _source_text(source: Source) -> str:
    if isinstance(source, WinnerOf):
        return _("winner of %(key)s") % {"key": source.key}
    if isinstance(source, LoserOf):
        return _("loser of %(key)s") % {"key": source.key}
    return ""


def _box(event: Event, knockout: Knockout, slot: Slot) -> BracketBox:
    match = knockout.matches.get(slot.match.key)
    sheet = knockout.sheets.get(match.pk) if match else None
    lines = []
    for index, side in enumerate((slot.first, slot.second)):
        player = knockout.player(side)
        score = None
        played = sheet is not None and (sheet.lines or sheet.match.final_score_a is not None)
        if played and player is not None and sheet is not None:
            score = sheet.score[0 if sheet.match.player_a_id == player.pk else 1]
        lines.append(
            BracketLine(
                name=player.name if player else "",
                seed=side if isinstance(side, int) else None,
                score=score,
                won=side is not None and side is not PENDING and slot.winner == side,
                bye=side is None,
                pending=_source_text(slot.match.sources[index]) if side is PENDING else "",
            )
        )
    length = event.length_for(999 if slot.match.draw == "final" else slot.match.round)
    fed_by = tuple(s.key for s in slot.match.sources if isinstance(s, WinnerOf))
    return BracketBox(slot.match.key, (lines[0], lines[1]), match, length, fed_by)


def event_bracket_sections(*, event: Event, knockout: Knockout) -> list[BracketSection]:
    """The bracket in printable sections: each draw on its own page; a main draw of more
    than 32 entrants split into 32-player parts, then a page for the rounds after them."""
    sections = []
    slots = knockout.state.slots
    for draw in ("main", "third", "consolation", "losers"):
        rounds = knockout.bracket.rounds(draw)
        if not rounds:
            continue
        title = DRAW_TITLES[draw]
        columns = [
            [_box(event, knockout, slots[m.key]) for m in round_matches] for round_matches in rounds
        ]
        if draw == "main" and len(columns[0]) * 2 > PAGE_ENTRANTS:
            per_page = PAGE_ENTRANTS // 2
            parts = len(columns[0]) // per_page
            for part in range(parts):
                part_columns = []
                for r, column in enumerate(columns):
                    width = per_page >> r
                    if width < 1:
                        break
                    part_columns.append(column[part * width : (part + 1) * width])
                sections.append(
                    _section(f"{title} ({part + 1}/{parts + 1})", part_columns, start=1)
                )
            later = [c for r, c in enumerate(columns) if (per_page >> r) < 1]
            start = len(columns) - len(later) + 1
            sections.append(_section(f"{title} ({parts + 1}/{parts + 1})", later, start=start))
        else:
            sections.append(_section(title, columns, start=rounds[0][0].round))
    finals = [s for s in slots.values() if s.match.draw == "final"]  # and played again
    if finals:
        final_columns = []
        for slot in finals:  # a column each, named as every page names it
            name = round_name(slot.match.round, [slot.match.key])
            final_columns.append(BracketColumn(name.title, (_box(event, knockout, slot),)))
        sections.append(BracketSection(_("Final"), tuple(final_columns)))
    return sections


def _join(box: BracketBox, index: int, count: int, before: list[BracketBox]) -> Join:
    """A line only where the page tells the truth: the two boxes beside this one in the column
    before (twice as many boxes as this one's) feed it, or, in a round that takes in newcomers
    (as many boxes as the one before), the box level with it does."""
    feeders = set(box.fed_by)
    if len(before) == 2 * count and feeders == {b.key for b in before[2 * index : 2 * index + 2]}:
        return Join.PAIR
    if len(before) == count and feeders == {before[index].key}:
        return Join.LEVEL
    return Join.NONE


def _section(title: StrOrPromise, columns: list[list[BracketBox]], *, start: int) -> BracketSection:
    joined = [columns[0]] if columns else []
    for before, column in pairwise(columns):
        count = len(column)
        joined.append([replace(b, join=_join(b, i, count, before)) for i, b in enumerate(column)])
    return BracketSection(
        title,
        tuple(
            BracketColumn(_("Round %(number)s") % {"number": start + i}, tuple(column))
            for i, column in enumerate(joined)
        ),
    )
