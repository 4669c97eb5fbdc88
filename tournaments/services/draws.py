"""Making the draw, making it again, taking it back, and a round robin's schedule.

The draw's randomness comes from a ``random.Random`` seeded with a recorded number, so
anyone can repeat it (the public page says how); the shapes of brackets, Swiss rounds and
round robins come from :mod:`tournaments.pairing`, which knows nothing of the database.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.actors import Actor
from club.policy import can_direct, require
from matches.models import Match
from matches.services import match_delete

from ..advancement import event_advance, place_create
from ..audit import tournament_audit_record
from ..models import Entry, Event, Place
from ..pairing.roundrobin import circle_rounds, snake_pools
from ..pairing.seeding import random_seeding
from ..queries.events import event_entries, event_matches
from ..venue import tables_assign
from .swiss import swiss_round_pair


def draw_order(entries: Sequence[Entry], *, seeding: str, seed: int | None) -> list[Entry]:
    """Who is seed 1, 2, ...: by rating, by a recorded random seed, or as given (standings).

    The random draw shuffles the players in alphabetical order, so anyone with the
    list and the seed can repeat it: ``python3 -m tournaments.pairing.seeding SEED NAMES``.
    """
    if seeding == Event.Seeding.RATING:
        return sorted(entries, key=lambda e: (-e.player.rating, e.player.name.casefold(), e.pk))
    if seeding == Event.Seeding.STANDINGS:
        return list(entries)
    alphabetical = sorted(entries, key=lambda e: (e.player.name.casefold(), e.player_id))
    return random_seeding(alphabetical, random.Random(seed))


def event_draw(*, event: Event, seed: int | None = None, user: Actor) -> Event:
    """Seed the checked-in players and make the first matches (byes advance at once)."""
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.drawn:
            raise ValidationError(
                _("The draw for %(event)s is already made.") % {"event": locked.name}
            )
        entries = list(
            locked.entries.select_related("player").filter(status=Entry.Status.CHECKED_IN)
        )
        if not entries:
            raise ValidationError(
                _("No player has checked in yet: a draw needs two or more."), code="no_one"
            )
        if len(entries) < 2:
            raise ValidationError(
                ngettext(
                    "Only %(count)s player has checked in: a draw needs two or more.",
                    "Only %(count)s players have checked in: a draw needs two or more.",
                    len(entries),
                )
                % {"count": len(entries)},
                code="too_few",
            )
        pools = locked.pools
        if locked.format == Event.Format.ROUND_ROBIN:
            assert pools is not None, "a round robin has its pools (_event_setup_checked)"
            if len(entries) < 2 * pools:
                raise ValidationError(
                    _("%(count)s players cannot fill %(pools)s pools of two or more.")
                    % {"count": len(entries), "pools": pools}
                )
        if locked.seeding == Event.Seeding.RANDOM:
            locked.draw_seed = seed if seed is not None else secrets.randbits(48)
        ordered = draw_order(entries, seeding=locked.seeding, seed=locked.draw_seed)
        for number, entry in enumerate(ordered, 1):
            entry.seed = number
        if pools is not None and locked.format == Event.Format.ROUND_ROBIN:
            for pool, members in enumerate(snake_pools(ordered, pools), 1):
                for entry in members:
                    entry.pool = pool
        Entry.objects.bulk_update(ordered, ["seed", "pool"])
        locked.drawn_at = timezone.now()
        locked.save(update_fields=["draw_seed", "drawn_at"])
        tournament_audit_record(
            locked.tournament,
            user,
            "event.drawn",
            subject=locked,
            params={"event": locked.name, "seed": locked.draw_seed, "seeding": locked.seeding},
            after={"seeds": [[e.seed, e.player.name] for e in ordered]},
        )
        if locked.format == Event.Format.SWISS:
            swiss_round_pair(locked, 1, user)
        elif locked.format == Event.Format.ROUND_ROBIN:
            _schedule_round_robin(locked, ordered, user)
        else:
            event_advance(event=locked, user=user)
        tables_assign(tournament=locked.tournament)
    event.draw_seed, event.drawn_at = locked.draw_seed, locked.drawn_at  # the caller's copy too
    return locked


def event_redraw(
    *, event: Event, seed: int | None = None, drawn_at: str | None = None, user: Actor
) -> Event:
    """Make the draw again, before any match of the event has begun: its matches (and a
    Swiss's byes) are removed and the checked-in players drawn with a new seed, or the one
    given. The old draw, seed and seeds, stays in the audit.

    ``drawn_at``: when the draw the director saw was made (ISO format); a draw made again
    meanwhile (a second click, another director) is not redrawn once more unseen.
    """
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = _draw_take_back(event, drawn_at=drawn_at, user=user, code="event.redrawn")
        redrawn = event_draw(event=locked, seed=seed, user=user)
    event.draw_seed, event.drawn_at = redrawn.draw_seed, redrawn.drawn_at
    return redrawn


def event_draw_undo(*, event: Event, drawn_at: str | None = None, user: Actor) -> Event:
    """Take the draw back and open check-in again, before any match has begun: for players
    who arrive late, or check-ins to put right. The old draw stays in the audit."""
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = _draw_take_back(event, drawn_at=drawn_at, user=user, code="event.draw_undone")
        tables_assign(tournament=locked.tournament)
    event.draw_seed, event.drawn_at = None, None
    return locked


def _draw_take_back(event: Event, *, drawn_at: str | None, user: Actor, code: str) -> Event:
    """Remove a draw no match of which has begun; the draw as it was goes in the audit."""
    locked = (
        Event.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=event.pk)
    )
    if not locked.drawn:
        raise ValidationError(_("The draw of %(event)s is not made yet.") % {"event": locked.name})
    assert locked.drawn_at is not None, "a drawn event has the time of its draw"
    if drawn_at is not None and drawn_at != locked.drawn_at.isoformat():
        raise ValidationError(
            _(
                "The draw of %(event)s was made again meanwhile: nothing was changed. Here "
                "is the draw as it is now."
            )
            % {"event": locked.name}
        )
    if locked.children.exists():
        raise ValidationError(
            _("%(event)s is already cut to a knockout: its draw stands.") % {"event": locked.name}
        )
    if locked.parent_id is not None:
        raise ValidationError(
            _(
                "%(event)s is seeded by the standings of the event it is cut from: it has "
                "no draw to make again."
            )
            % {"event": locked.name}
        )
    matches = list(event_matches(event=locked))
    # a result reported by the players, or disputed, is a match played too
    claimed = set(
        Match.objects.filter(pk__in=[m.pk for m in matches])
        .filter(Q(reports__isnull=False) | Q(disputes__isnull=False))
        .values_list("pk", flat=True)
    )
    begun = [
        m
        for m in matches
        if m.status in (Match.Status.IN_PLAY, Match.Status.FINISHED) or m.pk in claimed
    ]
    if begun:
        raise ValidationError(
            _("The draw of %(event)s can no longer be made again: the match %(match)s has begun.")
            % {"event": locked.name, "match": str(begun[0])}
        )
    drawn = sorted(
        ((e.seed, e) for e in event_entries(event=locked) if e.seed is not None),
        key=lambda pair: pair[0],
    )
    tournament_audit_record(
        locked.tournament,
        user,
        code,
        subject=locked,
        params={"event": locked.name, "seed": locked.draw_seed, "matches": len(matches)},
        before={
            "seed": locked.draw_seed,
            "seeding": locked.seeding,
            "seeds": [[seed, e.player.name] for seed, e in drawn],
        },
    )
    for match in matches:
        Place.objects.filter(match=match).delete()
        match_delete(match=match, user=user, placed=True)
    locked.byes.all().delete()
    locked.entries.update(seed=None, pool=None, joined_round=None)
    locked.draw_seed, locked.drawn_at = None, None
    locked.save(update_fields=["draw_seed", "drawn_at"])
    return locked


def _schedule_round_robin(event: Event, ordered: list[Entry], user: Actor) -> None:
    for pool in sorted({e.pool for e in ordered if e.pool is not None}):  # each has its pool
        members = [e.player for e in ordered if e.pool == pool]
        letter = chr(ord("A") + pool - 1)
        for number, pairs in enumerate(circle_rounds(members), 1):
            for index, (a, b) in enumerate((a, b) for a, b in pairs if b is not None):
                place_create(
                    event=event,
                    round=number,
                    bracket_key=f"{letter}{number}-{index + 1}",
                    player_a=a,
                    player_b=b,
                    length=event.length_for(number),
                    user=user,
                )
