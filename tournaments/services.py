"""Writing players, tournaments, events and entries, and making the draw.

Every service runs in one transaction. The draw's randomness comes from a
``random.Random`` seeded with a recorded number, so anyone can repeat it (the
public page says how); the shapes of brackets, Swiss rounds and round robins
come from :mod:`tournaments.pairing`, which knows nothing of the database.
"""

from __future__ import annotations

import datetime
import random
import secrets
from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches.models import Match
from matches.services import length_checked, match_create, match_walkover

from .advancement import event_advance, player_withdrawn_matches
from .models import Bye, Entry, Event, Player, Round, Tournament
from .pairing.roundrobin import circle_rounds, snake_pools
from .pairing.seeding import random_seeding
from .pairing.swiss import SwissPlayer, swiss_round
from .selectors import (
    event_entries,
    event_matches,
    event_standings,
    tournament_players_out,
)


def player_create(
    *, name: str, club: str = "", country: str = "", email: str = "", phone: str = ""
) -> Player:
    with transaction.atomic():
        return Player.objects.create(
            name=name.strip(), club=club, country=country, email=email, phone=phone
        )


def tournament_create(
    *, name: str, date: datetime.date, venue: str = "", directors: Iterable = (), user=None
) -> Tournament:
    """The director who creates a tournament is one of its directors."""
    if not name.strip():
        raise ValidationError(_("A tournament needs a name."))
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name.strip(), date=date, venue=venue)
        tournament.directors.set(list(directors))
        if user is not None and user.is_authenticated:
            tournament.directors.add(user)
    return tournament


def parse_lengths(text: str) -> list[int]:
    """ "5, 5, 7, 7, 9, 11" -> [5, 5, 7, 7, 9, 11], each an odd number of points (WBF 3)."""
    lengths = []
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        if not part:
            continue
        if not part.isdigit():
            raise ValidationError(
                _("Match lengths are numbers separated by commas, like 5, 5, 7, 9; not %(part)r.")
                % {"part": part}
            )
        lengths.append(length_checked(int(part)))
    if not lengths:
        raise ValidationError(_("Give at least one match length."))
    return lengths


def event_create(
    *,
    tournament: Tournament,
    name: str,
    format: str,
    lengths: Sequence[int],
    seeding: str = Event.Seeding.RANDOM,
    swiss_rounds: int | None = None,
    cut: int | None = None,
    pools: int | None = None,
    parent: Event | None = None,
    user=None,
) -> Event:
    if format == Event.Format.SWISS and not swiss_rounds:
        raise ValidationError(_("Say how many rounds the Swiss has."))
    if format == Event.Format.ROUND_ROBIN and not pools:
        raise ValidationError(_("Say how many round robin pools there are."))
    if cut is not None and format != Event.Format.SWISS:
        raise ValidationError(_("Only a Swiss is cut to a knockout."))
    if cut is not None and cut < 2:
        raise ValidationError(_("A knockout needs at least two players."))
    for length in lengths:
        length_checked(length)
    with transaction.atomic():
        event = Event.objects.create(
            tournament=tournament,
            name=name.strip() or Event.Format(format).label,
            format=format,
            seeding=seeding,
            swiss_rounds=swiss_rounds if format == Event.Format.SWISS else None,
            cut=cut,
            pools=pools if format == Event.Format.ROUND_ROBIN else None,
            parent=parent,
        )
        Round.objects.bulk_create(
            Round(event=event, number=n, length=length) for n, length in enumerate(lengths, 1)
        )
    return event


# --- entries -----------------------------------------------------------------------------


def entry_register(*, event: Event, player: Player, user=None) -> Entry:
    """Entries are taken until the draw (late entries included); a last chance takes only
    players who have played a knockout of the tournament and are out of it."""
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.drawn:
            raise ValidationError(
                _("The draw for %(event)s is made: entries are closed.") % {"event": locked.name}
            )
        if locked.entries.filter(player=player).exists():
            raise ValidationError(
                _("%(player)s is already entered in %(event)s.")
                % {"player": player.name, "event": locked.name}
            )
        if locked.format == Event.Format.LAST_CHANCE:
            out = tournament_players_out(tournament=locked.tournament, player=player)
            if out is False:
                raise ValidationError(
                    _(
                        "%(player)s is still playing in this tournament: a last chance is for "
                        "players already knocked out."
                    )
                    % {"player": player.name}
                )
            if out is None:
                raise ValidationError(
                    _(
                        "%(player)s has not played a knockout in this tournament: a last chance "
                        "is for players knocked out of one."
                    )
                    % {"player": player.name}
                )
        return Entry.objects.create(event=locked, player=player)


def entry_check_in(*, entry: Entry, user=None) -> Entry:
    with transaction.atomic():
        locked = (
            Entry.objects.select_for_update().select_related("event", "player").get(pk=entry.pk)
        )
        if locked.status == Entry.Status.WITHDRAWN:
            raise ValidationError(_("%(player)s has withdrawn.") % {"player": locked.player.name})
        if locked.event.drawn:
            raise ValidationError(_("The draw is made: check-in is over."))
        locked.status = Entry.Status.CHECKED_IN
        locked.save(update_fields=["status"])
    return locked


def entry_withdraw(*, entry: Entry, user=None) -> Entry:
    """Before the draw the entry simply leaves it; after, each opponent still waiting for a
    match with the player gets a walkover, and later matches are walkovers as they come."""
    with transaction.atomic():
        locked = (
            Entry.objects.select_for_update().select_related("event", "player").get(pk=entry.pk)
        )
        if locked.status == Entry.Status.WITHDRAWN:
            return locked
        waiting = player_withdrawn_matches(event=locked.event, player=locked.player)
        in_play = [m for m in waiting if m.status == Match.Status.IN_PLAY]
        if in_play:
            match = in_play[0]
            raise ValidationError(
                _(
                    "%(player)s is in the middle of the match %(match)s: record how it ended "
                    "first (a resignation, or the final score)."
                )
                % {"player": locked.player.name, "match": str(match)}
            )
        locked.status = Entry.Status.WITHDRAWN
        locked.save(update_fields=["status"])
        for match in waiting:
            winner = 1 if match.player_a_id == locked.player_id else 0
            match_walkover(match=match, winner=winner, user=user)
    return locked


# --- the draw ----------------------------------------------------------------------------


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


def event_draw(*, event: Event, seed: int | None = None, user=None) -> Event:
    """Seed the checked-in players and make the first matches (byes advance at once)."""
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.drawn:
            raise ValidationError(
                _("The draw for %(event)s is already made.") % {"event": locked.name}
            )
        entries = list(
            locked.entries.select_related("player").filter(status=Entry.Status.CHECKED_IN)
        )
        if len(entries) < 2:
            raise ValidationError(
                ngettext(
                    "Only %(count)s player has checked in: a draw needs two or more.",
                    "Only %(count)s players have checked in: a draw needs two or more.",
                    len(entries),
                )
                % {"count": len(entries)}
            )
        if locked.format == Event.Format.ROUND_ROBIN and len(entries) < 2 * locked.pools:
            raise ValidationError(
                _("%(count)s players cannot fill %(pools)s pools of two or more.")
                % {"count": len(entries), "pools": locked.pools}
            )
        if locked.seeding == Event.Seeding.RANDOM:
            locked.draw_seed = seed if seed is not None else secrets.randbits(48)
        ordered = draw_order(entries, seeding=locked.seeding, seed=locked.draw_seed)
        for number, entry in enumerate(ordered, 1):
            entry.seed = number
        if locked.format == Event.Format.ROUND_ROBIN:
            for pool, members in enumerate(snake_pools(ordered, locked.pools), 1):
                for entry in members:
                    entry.pool = pool
        Entry.objects.bulk_update(ordered, ["seed", "pool"])
        locked.drawn_at = timezone.now()
        locked.save(update_fields=["draw_seed", "drawn_at"])
        if locked.format == Event.Format.SWISS:
            _pair_swiss_round(locked, 1, user)
        elif locked.format == Event.Format.ROUND_ROBIN:
            _schedule_round_robin(locked, ordered, user)
        else:
            event_advance(event=locked, user=user)
    event.draw_seed, event.drawn_at = locked.draw_seed, locked.drawn_at  # the caller's copy too
    return locked


def _schedule_round_robin(event: Event, ordered: list[Entry], user) -> None:
    for pool in sorted({e.pool for e in ordered}):
        members = [e.player for e in ordered if e.pool == pool]
        letter = chr(ord("A") + pool - 1)
        for number, pairs in enumerate(circle_rounds(members), 1):
            for index, (a, b) in enumerate(p for p in pairs if p[1] is not None):
                match_create(
                    player_a=a,
                    player_b=b,
                    length=event.length_for(number),
                    event=event,
                    round=number,
                    bracket_key=f"{letter}{number}-{index + 1}",
                    user=user,
                )


# --- Swiss -------------------------------------------------------------------------------


def event_pair_next_round(*, event: Event, user=None) -> int:
    """Pair the next Swiss round once the last one is finished; returns its number."""
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.format != Event.Format.SWISS or not locked.drawn:
            raise ValidationError(_("Only a drawn Swiss is paired round by round."))
        matches = list(event_matches(event=locked))
        played = max((m.round for m in matches), default=0)
        unfinished = [m for m in matches if not m.decided]
        if unfinished:
            raise ValidationError(
                _("Round %(round)s is not finished: %(count)s matches still to play.")
                % {"round": played, "count": len(unfinished)}
            )
        if played >= locked.swiss_rounds:
            raise ValidationError(
                _("All %(rounds)s Swiss rounds are paired.") % {"rounds": locked.swiss_rounds}
            )
        _pair_swiss_round(locked, played + 1, user)
    return played + 1


def _pair_swiss_round(event: Event, number: int, user) -> None:
    entries = list(event_entries(event=event))
    matches = list(event_matches(event=event))
    active = {
        e.player_id for e in entries if e.seed is not None and e.status != Entry.Status.WITHDRAWN
    }
    standings = event_standings(event=event, entries=entries, matches=matches)
    had_bye = set(event.byes.values_list("player_id", flat=True))
    opponents: dict[int, set[int]] = {}
    for m in matches:
        opponents.setdefault(m.player_a_id, set()).add(m.player_b_id)
        opponents.setdefault(m.player_b_id, set()).add(m.player_a_id)
    field = [
        SwissPlayer(
            row.player.pk,
            row.standing.wins,
            rank,
            had_bye=row.player.pk in had_bye,
            opponents=frozenset(opponents.get(row.player.pk, ())),
        )
        for rank, row in enumerate(standings, 1)
        if row.player.pk in active
    ]
    if len(field) < 2:
        raise ValidationError(_("Fewer than two players are left to pair."))
    names = {row.player.pk: row.player for row in standings}
    for index, pairing in enumerate(swiss_round(field), 1):
        first = names[pairing.first]
        reason = pairing.reason.replace(str(pairing.first), first.name)
        if pairing.second is None:
            Bye.objects.create(event=event, round=number, player=first, reason=reason)
            continue
        second = names[pairing.second]
        reason = reason.replace(str(pairing.second), second.name)
        match_create(
            player_a=first,
            player_b=second,
            length=event.length_for(number),
            event=event,
            round=number,
            bracket_key=f"S{number}-{index}",
            pairing_reason=reason,
            user=user,
        )


def event_cut(*, event: Event, user=None) -> Event:
    """After the last Swiss round: the top players by the standings start a knockout,
    seeded in standings order, with the lengths of the rounds after the Swiss."""
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.format != Event.Format.SWISS or not locked.cut:
            raise ValidationError(_("This event is not cut to a knockout."))
        if locked.children.exists():
            raise ValidationError(_("The cut is already made."))
        matches = list(event_matches(event=locked))
        played = max((m.round for m in matches), default=0)
        if played < locked.swiss_rounds or any(not m.decided for m in matches):
            raise ValidationError(
                _("The cut comes after all %(rounds)s Swiss rounds are finished.")
                % {"rounds": locked.swiss_rounds}
            )
        lengths = [r.length for r in locked.rounds.all()]
        later = lengths[locked.swiss_rounds :] or lengths[-1:]
        knockout = event_create(
            tournament=locked.tournament,
            name=_("%(event)s – last %(count)s") % {"event": locked.name, "count": locked.cut},
            format=Event.Format.SINGLE,
            lengths=later,
            seeding=Event.Seeding.STANDINGS,
            parent=locked,
            user=user,
        )
        withdrawn = set(
            locked.entries.filter(status=Entry.Status.WITHDRAWN).values_list("player_id", flat=True)
        )
        top = [r.player for r in event_standings(event=locked) if r.player.pk not in withdrawn]
        Entry.objects.bulk_create(
            Entry(event=knockout, player=p, status=Entry.Status.CHECKED_IN)
            for p in top[: locked.cut]
        )
        ordered = {p.pk: n for n, p in enumerate(top, 1)}
        entries = sorted(
            knockout.entries.select_related("player"), key=lambda e: ordered[e.player_id]
        )
        for number, entry in enumerate(entries, 1):
            entry.seed = number
        Entry.objects.bulk_update(entries, ["seed"])
        knockout.drawn_at = timezone.now()
        knockout.save(update_fields=["drawn_at"])
        event_advance(event=knockout, user=user)
    return knockout
