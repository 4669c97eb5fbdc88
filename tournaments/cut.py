"""The cut of a Swiss to a knockout, as the director sees it before making it.

Who goes through (the Swiss's standings in order, withdrawn players passed over), the
knockout's seeds (the order they go through in) and its match lengths. Players level at the
cut line on every tie-break (wins, Buchholz, median Buchholz) are named, with the rule that
decides between them: the Swiss's draw order, the last tie-break of its standings, unless the
director chooses who goes through. :func:`tournaments.services.swiss.event_cut` makes what the
preview shows; its ``version`` names the standings it was read from, so a cut asked from a
preview that a corrected result or a withdrawal has made stale is refused, not made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.models import Player

from .models import Event
from .pairing.bracket import single_elimination
from .pairing.standings import Standing
from .queries.events import event_entries, event_matches
from .queries.standings import event_standings


@dataclass(frozen=True)
class CutLine:
    """A player going through, or level at the cut line."""

    player: Player
    standing: Standing
    draw_number: int  # the player's seed in the Swiss's draw: the last tie-break


@dataclass(frozen=True)
class CutPreview:
    event: Event
    count: int  # how many go through
    sure: tuple[CutLine, ...]  # through whatever is decided at the line
    tied: tuple[CutLine, ...]  # level at the line on every tie-break; empty: no tie
    places: int  # how many of the tied go through
    passed_over: tuple[Player, ...]  # withdrawn, standing where they would have gone through
    lengths: tuple[int, ...]  # the knockout's rounds, the last one the final
    version: str  # the standings the preview was read from

    def through(self, chosen: Iterable[int] | None = None) -> list[CutLine]:
        """Who goes through, in seed order: the players above the line, then those of the
        tied the director chose (player ids), or by the rule the first in the draw order."""
        if chosen is None:
            picked = self.tied[: self.places]
        else:
            ids = set(chosen)
            picked = tuple(line for line in self.tied if line.player.pk in ids)
        return [*self.sure, *picked]

    @property
    def tied_names(self) -> str:
        return ", ".join(line.player.name for line in self.tied)

    def table(self) -> list[tuple[int | None, CutLine, bool]]:
        """The preview's rows: (seed by the rule or None when out, line, level at the line)."""
        seeds = {line.player.pk: n for n, line in enumerate(self.through(), 1)}
        tied = {line.player.pk for line in self.tied}
        return [
            (seeds.get(line.player.pk), line, line.player.pk in tied)
            for line in (*self.sure, *self.tied)
        ]


def cut_checked(*, event: Event) -> None:
    """The cut's refusals, in plain words: not a Swiss with a cut, made already, or the
    Swiss not finished."""
    if event.format != Event.Format.SWISS or not event.cut:
        raise ValidationError(_("This event is not cut to a knockout."))
    if event.children.exists():
        raise ValidationError(_("The cut is already made."))
    matches = list(event_matches(event=event))
    played = max((m.place.round for m in matches), default=0)
    played = max([played, *event.byes.values_list("round", flat=True)])
    if played < (event.swiss_rounds or 0) or any(not m.decided for m in matches):
        raise ValidationError(
            ngettext(
                "The cut comes after the Swiss's only round is finished.",
                "The cut comes after all %(rounds)s Swiss rounds are finished.",
                event.swiss_rounds or 0,
            )
            % {"rounds": event.swiss_rounds}
        )


def cut_lengths(*, event: Event, count: int) -> tuple[int, ...]:
    """The knockout's lengths as first proposed: the Swiss's lengths after its rounds (or its
    last), one for each round of a single elimination of ``count``, the final the last given."""
    given = [r.length for r in event.rounds.all()]
    later = given[event.swiss_rounds or 0 :] or given[-1:]
    rounds = len(single_elimination(count).rounds("main"))
    return (*(later[min(n, len(later)) - 1] for n in range(1, rounds)), later[-1])


def cut_preview(*, event: Event) -> CutPreview:
    """What the cut would make now (refused in plain words as :func:`cut_checked` says)."""
    cut_checked(event=event)
    numbers = {e.player_id: e.seed for e in event_entries(event=event)}
    rows = event_standings(event=event)
    left = [r for r in rows if not r.withdrawn]
    count = min(event.cut or 0, len(left))
    if count < 2:
        raise ValidationError(
            _("Fewer than two players of %(event)s are left to go through: no knockout to draw.")
            % {"event": event.name}
        )
    lines = [CutLine(r.player, r.standing, numbers[r.player.pk] or 0) for r in left]
    sure, tied = lines[:count], []
    if len(lines) > count and lines[count].standing.rank == lines[count - 1].standing.rank:
        rank = lines[count - 1].standing.rank
        tied = [line for line in lines if line.standing.rank == rank]
        sure = [line for line in lines[:count] if line.standing.rank < rank]
    last_through = lines[count - 1].standing.rank
    passed_over = tuple(r.player for r in rows if r.withdrawn and r.standing.rank <= last_through)
    facts = [(r.player.pk, r.standing.rank, r.withdrawn) for r in rows]
    version = hashlib.blake2b(repr((event.cut, facts)).encode(), digest_size=8).hexdigest()
    return CutPreview(
        event=event,
        count=count,
        sure=tuple(sure),
        tied=tuple(tied),
        places=count - len(sure),
        passed_over=passed_over,
        lengths=cut_lengths(event=event, count=count),
        version=version,
    )
