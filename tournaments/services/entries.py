"""Writing entries: registering, checking in, withdrawing, reinstating, and a withdrawn
player's place in the draw taken by another.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.actors import Actor
from club.audit import audit_for_subject
from club.models import AuditEntry, Player
from club.policy import can_check_in, can_direct, is_own_entry, require
from matches.models import Match
from matches.services import match_players_change, match_result_clear, match_walkover

from ..advancement import event_advance, later_match_begun, player_withdrawn_matches
from ..audit import tournament_audit_record
from ..models import Entry, Event
from ..queries.events import event_matches, event_player_matches
from ..queries.knockouts import tournament_players_out
from ..venue import tables_assign
from ._common import arriving_entry, refuse_finished


def entry_register(*, event: Event, player: Player, user: Actor) -> Entry:
    """Entries are taken until the draw (late entries included); a last chance takes only
    players who have played a knockout of the tournament and are out of it."""
    require(can_direct(user, event.tournament))
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
        entry = Entry.objects.create(event=locked, player=player)
        _entry_audit(entry, user, "entry.registered")
        return entry


def _entry_audit(
    entry: Entry, user: Actor, code: str, before: str | None = None, **extra: Any
) -> None:
    tournament_audit_record(
        entry.event.tournament,
        user,
        code,
        subject=entry,
        params={"player": entry.player.name, "event": entry.event.name, **extra},
        before={"status": before} if before else None,
        after={"status": entry.status},
    )


def _locked_entry(entry: Entry) -> Entry:
    """The entry read again under a row lock, with what its services check."""
    return (
        Entry.objects.select_for_update(of=("self",))
        .select_related("event__tournament", "player")
        .get(pk=entry.pk)
    )


def entry_check_in(*, entry: Entry, user: Actor) -> Entry:
    """The tournament's directors check anyone in; a player signed in checks themselves in,
    while check-in is open (:func:`club.policy.can_check_in`). A player who is too late
    reads why rather than a bare refusal."""
    require(is_own_entry(user, entry) or can_check_in(user, entry))
    with transaction.atomic():
        locked = _locked_entry(entry)
        if locked.status == Entry.Status.WITHDRAWN:
            raise ValidationError(_("%(player)s has withdrawn.") % {"player": locked.player.name})
        if locked.event.drawn:
            raise ValidationError(_("The draw is made: check-in is over."))
        require(can_check_in(user, locked))
        if locked.status == Entry.Status.CHECKED_IN:
            return locked
        before = locked.status
        locked.status = Entry.Status.CHECKED_IN
        locked.save(update_fields=["status"])
        own = is_own_entry(user, locked) and not can_direct(user, locked.event.tournament)
        extra = {"own": True} if own else {}
        _entry_audit(locked, user, "entry.checked_in", before, **extra)
    return locked


def event_check_in_all(*, event: Event, user: Actor) -> int:
    """Check in every player entered and not withdrawn; each check-in is audited. Returns
    how many were checked in now."""
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.drawn:
            raise ValidationError(_("The draw is made: check-in is over."))
        waiting = locked.entries.filter(status=Entry.Status.REGISTERED).order_by("pk")
        count = 0
        for entry in waiting:
            entry_check_in(entry=entry, user=user)
            count += 1
    return count


def entry_withdraw(*, entry: Entry, user: Actor) -> Entry:
    """Before the draw the entry simply leaves it; after, each opponent still waiting for a
    match with the player gets a walkover, and later matches are walkovers as they come."""
    require(can_direct(user, entry.event.tournament))
    with transaction.atomic():
        locked = _locked_entry(entry)
        if locked.status == Entry.Status.WITHDRAWN:
            return locked
        refuse_finished(locked.event, _("%(event)s is finished: nobody can withdraw from it."))
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
        before = locked.status
        locked.status = Entry.Status.WITHDRAWN
        locked.save(update_fields=["status"])
        _entry_audit(locked, user, "entry.withdrawn", before)
        for match in waiting:
            winner = 1 if match.player_a_id == locked.player_id else 0
            match_walkover(match=match, winner=winner, user=user)
    return locked


def entry_check_in_undo(*, entry: Entry, user: Actor) -> Entry:
    """A player checked in by mistake is registered again; only before the draw."""
    require(can_direct(user, entry.event.tournament))
    with transaction.atomic():
        locked = _locked_entry(entry)
        if locked.event.drawn:
            raise ValidationError(
                _(
                    "The draw of %(event)s is made: a check-in can only be undone before it "
                    "(a redraw is possible while no match has begun)."
                )
                % {"event": locked.event.name}
            )
        if locked.status != Entry.Status.CHECKED_IN:
            return locked
        locked.status = Entry.Status.REGISTERED
        locked.save(update_fields=["status"])
        _entry_audit(locked, user, "entry.check_in_undone", Entry.Status.CHECKED_IN)
    return locked


def _withdrawal(entry: Entry) -> AuditEntry | None:
    """The audit entry of the entry's latest withdrawal: what it was before, and when."""
    return audit_for_subject(subject=entry).filter(code="entry.withdrawn").order_by("-id").first()


def _walkover_winner(match: Match) -> Player:
    side = match.walkover_winner
    assert side is not None, "a walkover names its winner"
    return match.player(side)


def _withdrawal_walkovers(entry: Entry, withdrawal: AuditEntry | None) -> list[Match]:
    """The walkovers the entry's withdrawal gave its opponents (at once, or as their matches
    came), latest first: the player's walkover losses recorded after the withdrawal."""
    if withdrawal is None or not entry.event.drawn:
        return []
    lost = [
        m
        for m in event_player_matches(event=entry.event, player=entry.player)
        if m.status == Match.Status.WALKOVER and _walkover_winner(m).pk != entry.player_id
    ]
    since = set(
        AuditEntry.objects.filter(
            match_id__in=[m.pk for m in lost], code="result.walkover", id__gt=withdrawal.pk
        ).values_list("match_id", flat=True)
    )
    found = [m for m in lost if m.pk in since]
    return sorted(found, key=lambda m: (m.place.round, m.pk), reverse=True)


def entry_reinstate(*, entry: Entry, user: Actor) -> Entry:
    """Undo a withdrawal: the player is back as they were, and each walkover it gave is taken
    back (the opponent leaves the match they had moved on to, a walkover match is to be
    played again). Refused once a later match fed by one of those walkovers has begun (US
    rules 4.10), and in a Swiss once a round has been paired without the player."""
    require(can_direct(user, entry.event.tournament))
    with transaction.atomic():
        locked = _locked_entry(entry)
        name = locked.player.name
        if locked.status != Entry.Status.WITHDRAWN:
            raise ValidationError(_("%(player)s has not withdrawn.") % {"player": name})
        withdrawal = _withdrawal(locked)
        walkovers = _withdrawal_walkovers(locked, withdrawal)
        blocked = _walkover_followed(walkovers)
        if blocked is not None:
            raise ValidationError(
                _(
                    "%(player)s cannot be reinstated: the walkover in %(match)s sent "
                    "%(opponent)s on, and the later match %(later)s has begun (US rules "
                    "4.10)."
                )
                % {"player": name, **blocked}
            )
        missed = _swiss_rounds_missed(locked)
        if missed:
            raise ValidationError(
                _(
                    "%(player)s cannot be reinstated: round %(round)s of %(event)s was paired "
                    "without them."
                )
                % {"player": name, "round": missed[0], "event": locked.event.name}
            )
        if locked.seed is not None:
            locked.status = Entry.Status.CHECKED_IN  # drawn, so checked in at the draw
        else:  # as it was before the withdrawal: registered, or checked in
            was = ((withdrawal.before or {}).get("status") if withdrawal else None) or ""
            ours = {Entry.Status.REGISTERED, Entry.Status.CHECKED_IN}
            locked.status = was if was in ours else Entry.Status.REGISTERED
        locked.save(update_fields=["status"])
        _entry_audit(locked, user, "entry.reinstated", Entry.Status.WITHDRAWN)
        for match in walkovers:
            match_result_clear(match=Match.objects.get(pk=match.pk), user=user)
    return locked


def entry_substitute(*, entry: Entry, player: Player, user: Actor) -> Entry:
    """A withdrawn player's place in the draw taken by a player who arrives, checked in at
    once (entered and not checked in, or not entered: see :func:`arriving_entry`): the
    walkovers the withdrawal gave are taken back and their matches are the newcomer's to
    play. Only while the withdrawn player has played nothing (their results
    are their own) and no later match fed by those walkovers has begun (US rules 4.10)."""
    require(can_direct(user, entry.event.tournament))
    with transaction.atomic():
        locked = _locked_entry(entry)
        event, gone = locked.event, locked.player
        refuse_finished(event, _("%(event)s is finished: a player can no longer join it."))
        if locked.status != Entry.Status.WITHDRAWN or locked.seed is None:
            raise ValidationError(
                _("Only a withdrawn player who was drawn can be replaced; %(player)s cannot.")
                % {"player": gone.name}
            )
        newcomer, before = arriving_entry(event, player)
        played = [
            m
            for m in event_player_matches(event=event, player=gone)
            if m.status in (Match.Status.IN_PLAY, Match.Status.FINISHED)
        ]
        if played or event.byes.filter(player=gone).exists():
            raise ValidationError(
                _(
                    "%(player)s has already played in %(event)s: those results are theirs, so "
                    "nobody can take their place. A bye place may be free instead."
                )
                % {"player": gone.name, "event": event.name}
            )
        walkovers = _withdrawal_walkovers(locked, _withdrawal(locked))
        blocked = _walkover_followed(walkovers)
        if blocked is not None:
            raise ValidationError(
                _(
                    "%(player)s cannot take the place: the walkover in %(match)s sent "
                    "%(opponent)s on, and the later match %(later)s has begun (US rules "
                    "4.10)."
                )
                % {"player": player.name, **blocked}
            )
        missed = _swiss_rounds_missed(locked)
        if missed:
            raise ValidationError(
                _("%(player)s cannot take the place: round %(round)s was paired without it.")
                % {"player": player.name, "round": missed[0]}
            )
        place = {"seed": locked.seed, "pool": locked.pool, "joined_round": locked.joined_round}
        locked.seed = locked.pool = locked.joined_round = None
        locked.save(update_fields=["seed", "pool", "joined_round"])
        for field, value in place.items():
            setattr(newcomer, field, value)
        newcomer.save()
        tournament_audit_record(
            event.tournament,
            user,
            "entry.substituted",
            subject=newcomer,
            params={"player": player.name, "gone": gone.name, "event": event.name},
            before={"status": before} if before is not None else None,
            after={"status": newcomer.status, "seed": place["seed"]},
        )
        undone = {m.pk for m in walkovers}  # changing the players takes a walkover back
        for match in event_player_matches(event=event, player=gone):
            if not match.decided or match.pk in undone:
                a = player if match.player_a_id == gone.pk else match.player_a
                b = player if match.player_b_id == gone.pk else match.player_b
                match_players_change(match=match, player_a=a, player_b=b, user=user, placed=True)
        if event.knockout:
            event_advance(event=event, user=user)
        tables_assign(tournament=event.tournament)
    return newcomer


def _walkover_followed(walkovers: list[Match]) -> dict[str, str] | None:
    """The first walkover a withdrawal gave whose winner has begun a later match (US rules
    4.10), named for a refusal: the match, the opponent it sent on, the later match."""
    for match in walkovers:
        later = later_match_begun(match=match)
        if later is not None:
            return {
                "match": str(match),
                "opponent": _walkover_winner(match).name,
                "later": str(later),
            }
    return None


def _swiss_rounds_missed(entry: Entry) -> list[int]:
    """The Swiss rounds paired since the player was drawn in which they neither play nor rest."""
    event = entry.event
    if event.format != Event.Format.SWISS or entry.seed is None:
        return []
    matches = list(event_matches(event=event))
    byes = list(event.byes.all())
    paired = {m.place.round for m in matches} | {b.round for b in byes}
    played = {m.place.round for m in matches if entry.player_id in (m.player_a_id, m.player_b_id)}
    played |= {b.round for b in byes if b.player_id == entry.player_id}
    before = set(range(1, entry.joined_round or 1))  # a late arrival joined after these
    return sorted(paired - played - before)
