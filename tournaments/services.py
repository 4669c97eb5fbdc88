"""Writing players, tournaments, events and entries, and making the draw.

Every service runs in one transaction. The draw's randomness comes from a
``random.Random`` seeded with a recorded number, so anyone can repeat it (the
public page says how); the shapes of brackets, Swiss rounds and round robins
come from :mod:`tournaments.pairing`, which knows nothing of the database.
"""

from __future__ import annotations

import datetime
import random
import re
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.audit import audit_for_subject
from club.models import AuditEntry, Player
from club.policy import (
    can_ask_to_enter,
    can_check_in,
    can_create,
    can_direct,
    is_own_entry,
    own_player,
    require,
)
from club.services import player_sign_up
from matches.models import Match
from matches.services import (
    length_checked,
    match_delete,
    match_length_change,
    match_players_change,
    match_result_clear,
    match_walkover,
)
from rules.text import one_line

from .advancement import (
    event_advance,
    later_match_begun,
    place_create,
    player_withdrawn_matches,
)
from .audit import tournament_audit_record
from .cut import cut_preview
from .models import Bye, Entry, EntryRequest, Event, Place, Round, Tournament
from .pairing.roundrobin import circle_rounds, snake_pools
from .pairing.seeding import random_seeding
from .pairing.swiss import SwissPlayer, swiss_round
from .selectors import (
    event_entries,
    event_finished,
    event_knockout,
    event_matches,
    event_player_matches,
    event_standings,
    tournament_players_out,
)
from .venue import tables_assign


def tournament_create(
    *, name: str, date: datetime.date, venue: str = "", directors: Iterable = (), user: Any
) -> Tournament:
    """The director who creates a tournament is one of its directors. Its name and venue are
    stored on one line (:func:`rules.text.one_line`), as a player's details are."""
    require(can_create(user))
    name, venue = one_line(name), one_line(venue)
    if not name:
        raise ValidationError(_("A tournament needs a name."))
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name, date=date, venue=venue)
        tournament.directors.set(list(directors))
        if getattr(user, "is_authenticated", False):
            tournament.directors.add(user)
        tournament_audit_record(
            tournament,
            user,
            "tournament.created",
            params={"name": tournament.name},
            after={
                "date": date.isoformat(),
                "venue": venue,
                "directors": sorted(u.get_username() for u in tournament.directors.all()),
            },
        )
    return tournament


def tournament_dice_allow(*, tournament: Tournament, allowed: bool, user: Any) -> Tournament:
    """Let the players of every match of the tournament enter dice rolled at the table."""
    require(can_direct(user, tournament))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.physical_dice != allowed:
            locked.physical_dice = allowed
            locked.save(update_fields=["physical_dice"])
            tournament_audit_record(locked, user, "dice.allowed", params={"allowed": allowed})
    return locked


def tournament_open_entry_set(*, tournament: Tournament, allowed: bool, user: Any) -> Tournament:
    """Let players signed in ask to enter the tournament's events (a director approves)."""
    require(can_direct(user, tournament))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.open_entry != allowed:
            locked.open_entry = allowed
            locked.save(update_fields=["open_entry"])
            tournament_audit_record(locked, user, "open_entry.set", params={"allowed": allowed})
    return locked


def tournament_late_rounds_set(*, tournament: Tournament, count_as: str, user: Any) -> Tournament:
    """How a Swiss counts the rounds a late arrival missed: losses, or byes (a win each)."""
    require(can_direct(user, tournament))
    if count_as not in Tournament.LateRounds.values:
        raise ValidationError(_("Choose losses or byes for the rounds missed."))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.late_rounds != count_as:
            before = locked.late_rounds
            locked.late_rounds = count_as
            locked.save(update_fields=["late_rounds"])
            tournament_audit_record(
                locked,
                user,
                "late_rounds.set",
                params={"count_as": count_as},
                before={"late_rounds": before},
                after={"late_rounds": count_as},
            )
    return locked


def tournament_reports_set(
    *, tournament: Tournament, results_by: str, report_detail: str, confirm_minutes: int, user: Any
) -> Tournament:
    """Who enters the results: the directors only, or the players (reported by one, confirmed
    by the opponent); how the players report; how long a report waits for the opponent
    before it goes to the director's dashboard."""
    require(can_direct(user, tournament))
    if results_by not in Tournament.ResultsBy.values:
        raise ValidationError(_("Choose who enters the results."))
    if report_detail not in Tournament.ReportDetail.values:
        raise ValidationError(_("Choose how the players report."))
    if not 1 <= confirm_minutes <= 1440:
        raise ValidationError(
            _("A report waits from 1 minute to a day (1440 minutes) for the opponent.")
        )
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        fields = ("results_by", "report_detail", "confirm_minutes")
        before = {name: getattr(locked, name) for name in fields}
        after = {
            "results_by": results_by,
            "report_detail": report_detail,
            "confirm_minutes": confirm_minutes,
        }
        if before != after:
            for name, value in after.items():
                setattr(locked, name, value)
            locked.save(update_fields=list(fields))
            tournament_audit_record(
                locked, user, "reports.set", params=after, before=before, after=after
            )
    return locked


LENGTH = re.compile(r"[0-9]+", re.ASCII)


def parse_lengths(text: str) -> list[int]:
    """ "5, 5, 7, 7, 9, 11" -> [5, 5, 7, 7, 9, 11], each an odd number of points (WBF 3),
    within the bounds a match's form allows."""
    lengths = []
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        if not part:
            continue
        if not LENGTH.fullmatch(part):
            raise ValidationError(
                _("Match lengths are numbers separated by commas, like 5, 5, 7, 9; not %(part)s.")
                % {"part": f"“{part}”"}
            )
        lengths.append(length_checked(int(part)))
    if not lengths:
        raise ValidationError(_("Give at least one match length."))
    return lengths


NO_BRACKET = (Event.Format.SWISS, Event.Format.ROUND_ROBIN, Event.Format.DOUBLE)


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
    holland: bool = False,
    third_place: bool = False,
    user: Any,
) -> Event:
    require(can_direct(user, tournament))
    _event_setup_checked(format=format, swiss_rounds=swiss_rounds, cut=cut, pools=pools)
    for length in lengths:
        length_checked(length)
    with transaction.atomic():
        event = Event.objects.create(
            tournament=tournament,
            given_name=one_line(name),  # none given: the site names it (Event.name)
            format=format,
            seeding=seeding,
            swiss_rounds=swiss_rounds if format == Event.Format.SWISS else None,
            cut=cut,
            pools=pools if format == Event.Format.ROUND_ROBIN else None,
            parent=parent,
            holland=holland,
            third_place=third_place and format not in NO_BRACKET,
        )
        Round.objects.bulk_create(
            Round(event=event, number=n, length=length) for n, length in enumerate(lengths, 1)
        )
        tournament_audit_record(
            tournament,
            user,
            "event.created",
            subject=event,
            params={"event": event.name},
            after={
                "format": format,
                "lengths": list(lengths),
                "seeding": seeding,
                "swiss_rounds": event.swiss_rounds,
                "cut": cut,
                "pools": event.pools,
                "holland": holland,
                "third_place": event.third_place,
            },
        )
    return event


def _event_setup_checked(
    *, format: str, swiss_rounds: int | None, cut: int | None, pools: int | None
) -> None:
    """The settings an event's format needs, refused in plain words when they do not fit."""
    if format == Event.Format.SWISS and not swiss_rounds:
        raise ValidationError(_("Say how many rounds the Swiss has."))
    if format == Event.Format.ROUND_ROBIN and not pools:
        raise ValidationError(_("Say how many round robin pools there are."))
    if cut is not None and format != Event.Format.SWISS:
        raise ValidationError(_("Only a Swiss is cut to a knockout."))
    if cut is not None and cut < 2:
        raise ValidationError(_("A knockout needs at least two players."))


class _Keep:
    """An argument not given: the setting stays as it is (None is a value: no cut, no pools)."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Any = _Keep()


def _tournament_facts(tournament: Tournament) -> dict[str, Any]:
    return {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "venue": tournament.venue,
        "directors": sorted(u.get_username() for u in tournament.directors.all()),
    }


def tournament_update(
    *,
    tournament: Tournament,
    user: Any,
    name: str = KEEP,
    date: datetime.date = KEEP,
    venue: str = KEEP,
    directors: Iterable = KEEP,
    physical_dice: bool = KEEP,
) -> Tournament:
    """Put a tournament's details right; what is not given stays. Only its directors (and
    staff) change it, its directors included; it always keeps at least one."""
    require(can_direct(user, tournament))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = _tournament_facts(locked)
        if name is not KEEP:
            if not one_line(name):
                raise ValidationError(_("A tournament needs a name."))
            locked.name = one_line(name)
        if date is not KEEP:
            locked.date = date
        if venue is not KEEP:
            locked.venue = one_line(venue)
        locked.save(update_fields=["name", "date", "venue"])
        if directors is not KEEP:
            chosen = list(directors)
            if not chosen:
                raise ValidationError(
                    _("A tournament keeps at least one director: choose who runs it.")
                )
            locked.directors.set(chosen)
        after = _tournament_facts(locked)
        if after != before:
            tournament_audit_record(
                locked,
                user,
                "tournament.changed",
                params={"name": locked.name},
                before={k: v for k, v in before.items() if after[k] != v},
                after={k: v for k, v in after.items() if before[k] != v},
            )
        if physical_dice is not KEEP:  # one way to change the dice, with its own sentence
            locked = tournament_dice_allow(tournament=locked, allowed=physical_dice, user=user)
    return locked


SETUP = ("format", "lengths", "seeding", "swiss_rounds", "cut", "pools", "third_place")


def _event_facts(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "holland": event.holland,
        "format": event.format,
        "lengths": [r.length for r in event.rounds.all()],
        "seeding": event.seeding,
        "swiss_rounds": event.swiss_rounds,
        "cut": event.cut,
        "pools": event.pools,
        "third_place": event.third_place,
    }


def event_update(
    *,
    event: Event,
    user: Any,
    name: str = KEEP,
    holland: bool = KEEP,
    format: str = KEEP,
    lengths: Sequence[int] = KEEP,
    seeding: str = KEEP,
    swiss_rounds: int | None = KEEP,
    cut: int | None = KEEP,
    pools: int | None = KEEP,
    third_place: bool = KEEP,
) -> Event:
    """Put an event's settings right; what is not given stays.

    The name and the Holland rule change at any time (the rule then holds for the event's
    matches not yet begun, as for those still to be paired). The match lengths change for the
    rounds not yet begun (:func:`_lengths_after_draw`). The format, the draw, the Swiss rounds,
    the cut and the pools shape the draw: they change only before it is made.
    """
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = (
            Event.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=event.pk)
        )
        before = _event_facts(locked)
        given = {
            "format": format,
            "lengths": list(lengths) if lengths is not KEEP else KEEP,
            "seeding": seeding,
            "swiss_rounds": swiss_rounds,
            "cut": cut,
            "pools": pools,
            "third_place": third_place,
        }
        setup = {k: before[k] if given[k] is KEEP else given[k] for k in SETUP}
        if setup["format"] != Event.Format.SWISS:
            setup["swiss_rounds"] = None
        if setup["format"] != Event.Format.ROUND_ROBIN:
            setup["pools"] = None
        if setup["format"] in NO_BRACKET:
            setup["third_place"] = False
        lengths_only = [k for k in SETUP if setup[k] != before[k]] == ["lengths"]
        if locked.drawn and lengths_only:
            _lengths_after_draw(locked, setup["lengths"], user)
        elif any(setup[k] != before[k] for k in SETUP):
            if locked.drawn:
                raise ValidationError(
                    _(
                        "The draw of %(event)s is made: its format, draw, Swiss rounds, cut, "
                        "pools and play-off for third place stay as they are."
                    )
                    % {"event": locked.name}
                )
            if setup["seeding"] == Event.Seeding.STANDINGS:
                raise ValidationError(
                    _("Only a knockout cut from a Swiss is drawn by its standings.")
                )
            _event_setup_checked(
                format=setup["format"],
                swiss_rounds=setup["swiss_rounds"],
                cut=setup["cut"],
                pools=setup["pools"],
            )
            if not setup["lengths"]:
                raise ValidationError(_("Give at least one match length."))
            for length in setup["lengths"]:
                length_checked(length)
            for field in ("format", "seeding", "swiss_rounds", "cut", "pools", "third_place"):
                setattr(locked, field, setup[field])
            if setup["lengths"] != before["lengths"]:
                locked.rounds.all().delete()
                Round.objects.bulk_create(
                    Round(event=locked, number=n, length=length)
                    for n, length in enumerate(setup["lengths"], 1)
                )
        if name is not KEEP:
            locked.given_name = one_line(name)  # none: the site names it (Event.name)
        if holland is not KEEP and holland != locked.holland:
            locked.holland = holland
            Match.objects.filter(place__event=locked, status=Match.Status.SCHEDULED).update(
                holland=holland
            )
        locked.save()
        after = _event_facts(locked)
        if after != before:
            tournament_audit_record(
                locked.tournament,
                user,
                "event.changed",
                subject=locked,
                params={"event": locked.name},
                before={k: v for k, v in before.items() if after[k] != v},
                after={k: v for k, v in after.items() if before[k] != v},
            )
    return locked


def _lengths_after_draw(event: Event, lengths: Sequence[int], user: Any) -> None:
    """The event's lengths after its draw: the matches not yet begun take theirs at once
    (a final the last length given), later rounds as they are made; a match begun or
    decided keeps its length, and a change to it is refused in words."""
    if not lengths:
        raise ValidationError(_("Give at least one match length."))
    for length in lengths:
        length_checked(length)
    knockout = event_knockout(event=event) if event.knockout else None
    slots = knockout.state.slots if knockout is not None else {}
    changed = []
    for match in event_matches(event=event):
        place = match.place
        slot = slots.get(place.bracket_key)
        number = 999 if slot is not None and slot.match.draw == "final" else place.round
        length = lengths[min(number, len(lengths)) - 1]
        if length == match.length:
            continue
        if match.status != Match.Status.SCHEDULED or match.games.exists():
            raise ValidationError(
                _(
                    "Round %(round)s of %(event)s has begun: its matches stay %(length)s points "
                    "long. Change the lengths of the rounds after it."
                )
                % {"round": place.round, "event": event.name, "length": match.length}
            )
        changed.append((match, length))
    for match, length in changed:
        match_length_change(match=match, length=length, user=user, placed=True)
    event.rounds.all().delete()
    Round.objects.bulk_create(
        Round(event=event, number=n, length=length) for n, length in enumerate(lengths, 1)
    )


# --- entries -----------------------------------------------------------------------------


def entry_register(*, event: Event, player: Player, user: Any) -> Entry:
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


def _arriving_entry(event: Event, player: Player) -> tuple[Entry, str | None]:
    """The entry a player who arrives after the draw plays under, not saved yet, with the
    status it had: their own if they were entered and not drawn (the commonest late
    arrival: entered, not checked in), else a new one. One already in the draw, playing or
    withdrawn, is refused in plain words."""
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(event=event, player=player)
        .first()
    )
    params = {"player": player.name, "event": event.name}
    if entry is None:
        return Entry(event=event, player=player, status=Entry.Status.CHECKED_IN), None
    if entry.status == Entry.Status.WITHDRAWN:
        if entry.seed is not None:
            raise ValidationError(
                _(
                    "%(player)s is in the draw of %(event)s and has withdrawn: to bring them "
                    "back, use Reinstate in the list of entries."
                )
                % params
            )
        raise ValidationError(
            _(
                "%(player)s has withdrawn from %(event)s: use Reinstate in the list of entries "
                "first, then add them here."
            )
            % params
        )
    if entry.seed is not None:
        raise ValidationError(
            _("%(player)s is already playing in %(event)s (seed %(seed)s): nothing to add.")
            % {**params, "seed": entry.seed}
        )
    before = entry.status
    entry.status = Entry.Status.CHECKED_IN
    return entry, before


def entry_late_add(*, event: Event, player: Player, user: Any) -> Entry:
    """A player who arrives after the draw, checked in at once: one entered who had not
    checked in, or one not entered at all.

    A knockout: they take the next bye place of round 1 (the bye becomes a match), while
    no match that changes with it has begun, their bye opponent's next included; the draw
    and its published seed stay. A Swiss: they are paired from the next round, and the
    rounds missed count as the tournament says (losses, or byes). A round robin's schedule
    is made at the draw: it is drawn again instead, while no match has begun.
    """
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = (
            Event.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=event.pk)
        )
        if not locked.drawn:
            entered = locked.entries.filter(player=player).first()
            if entered is None:
                entered = entry_register(event=locked, player=player, user=user)
            return entry_check_in(entry=entered, user=user)
        _refuse_finished(locked, _("%(event)s is finished: a player can no longer join it."))
        if locked.children.exists() or locked.parent_id is not None:
            raise ValidationError(
                _("%(event)s is part of a cut: a player can no longer join it.")
                % {"event": locked.name}
            )
        entry, before = _arriving_entry(locked, player)
        entries = [e for e in event_entries(event=locked) if e.pk != entry.pk]
        seed = 1 + max((e.seed for e in entries if e.seed is not None), default=0)
        entry.seed = seed
        params: dict[str, Any] = {"player": player.name, "event": locked.name}
        if before is not None:
            params["entered"] = True  # entered before the draw, checked in only now
        if locked.format == Event.Format.SWISS:
            entry.joined_round = _swiss_next_round(locked)
            params["round"] = entry.joined_round
        elif locked.knockout:
            params["key"] = _late_bye_place(locked, entries, entry)
        else:
            raise ValidationError(
                _(
                    "A round robin's schedule is made at the draw: take the draw back (while no "
                    "match has begun), check %(player)s in and draw again."
                )
                % {"player": player.name}
            )
        entry.save()
        tournament_audit_record(
            locked.tournament,
            user,
            "entry.late",
            subject=entry,
            params=params,
            before={"status": before} if before is not None else None,
            after={"status": entry.status, "seed": seed, "joined_round": entry.joined_round},
        )
        if locked.knockout:
            event_advance(event=locked, user=user)
            tables_assign(tournament=locked.tournament)
    return entry


def _swiss_next_round(event: Event) -> int:
    """The first round a late arrival can play: the next one to be paired."""
    if event.swiss_rounds is not None and _swiss_rounds_paired(event) >= event.swiss_rounds:
        raise ValidationError(
            _("Every round of %(event)s is paired: no round is left to join.")
            % {"event": event.name}
        )
    return _swiss_rounds_paired(event) + 1


def _swiss_rounds_paired(event: Event) -> int:
    played = [p.round for p in event.places.all()] + [b.round for b in event.byes.all()]
    return max(played, default=0)


def _late_bye_place(event: Event, entries: list[Entry], arrival: Entry) -> str:
    """The bye place of round 1 a late arrival fills, checked: the matches that change with
    it (the bye opponent's next, a consolation's) must not have begun."""
    before = event_knockout(event=event, entries=entries)
    after = event_knockout(event=event, entries=[*entries, arrival])
    assert before is not None and after is not None
    if after.bracket.size != before.bracket.size:
        raise ValidationError(
            _("%(event)s has no bye place left: a player can no longer join it.")
            % {"event": event.name}
        )
    for key, match in before.matches.items():
        slot = after.state.slots.get(key)
        same = slot is not None and (match.player_a_id, match.player_b_id) == (
            getattr(after.player(slot.first), "pk", None),
            getattr(after.player(slot.second), "pk", None),
        )
        if not same and match.status != Match.Status.SCHEDULED:
            raise ValidationError(
                _(
                    "%(player)s cannot take the bye place: the match %(match)s, which it "
                    "would change, has begun or is decided."
                )
                % {"player": arrival.player.name, "match": str(match)}
            )
    seed = arrival.seed
    return next(
        key
        for key, slot in after.state.slots.items()
        if slot.match.draw == "main" and slot.match.round == 1 and seed in (slot.first, slot.second)
    )


def _entry_audit(
    entry: Entry, user: Any, code: str, before: str | None = None, **extra: Any
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


def entry_check_in(*, entry: Entry, user: Any) -> Entry:
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


def event_check_in_all(*, event: Event, user: Any) -> int:
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


def _refuse_finished(event: Event, said: str) -> None:
    """A finished event's draw is closed: what it says, naming the event, is the refusal."""
    if event_finished(event=event):
        raise ValidationError(said % {"event": event.name})


def entry_withdraw(*, entry: Entry, user: Any) -> Entry:
    """Before the draw the entry simply leaves it; after, each opponent still waiting for a
    match with the player gets a walkover, and later matches are walkovers as they come."""
    require(can_direct(user, entry.event.tournament))
    with transaction.atomic():
        locked = _locked_entry(entry)
        if locked.status == Entry.Status.WITHDRAWN:
            return locked
        _refuse_finished(locked.event, _("%(event)s is finished: nobody can withdraw from it."))
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


def entry_check_in_undo(*, entry: Entry, user: Any) -> Entry:
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


def _withdrawal_walkovers(entry: Entry, withdrawal: AuditEntry | None) -> list[Match]:
    """The walkovers the entry's withdrawal gave its opponents (at once, or as their matches
    came), latest first: the player's walkover losses recorded after the withdrawal."""
    if withdrawal is None or not entry.event.drawn:
        return []
    lost = [
        m
        for m in event_player_matches(event=entry.event, player=entry.player)
        if m.status == Match.Status.WALKOVER and m.player(m.walkover_winner).pk != entry.player_id
    ]
    since = set(
        AuditEntry.objects.filter(
            match_id__in=[m.pk for m in lost], code="result.walkover", id__gt=withdrawal.pk
        ).values_list("match_id", flat=True)
    )
    found = [m for m in lost if m.pk in since]
    return sorted(found, key=lambda m: (m.place.round, m.pk), reverse=True)


def entry_reinstate(*, entry: Entry, user: Any) -> Entry:
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


def entry_substitute(*, entry: Entry, player: Player, user: Any) -> Entry:
    """A withdrawn player's place in the draw taken by a player who arrives, checked in at
    once (entered and not checked in, or not entered: see :func:`_arriving_entry`): the
    walkovers the withdrawal gave are taken back and their matches are the newcomer's to
    play. Only while the withdrawn player has played nothing (their results
    are their own) and no later match fed by those walkovers has begun (US rules 4.10)."""
    require(can_direct(user, entry.event.tournament))
    with transaction.atomic():
        locked = _locked_entry(entry)
        event, gone = locked.event, locked.player
        _refuse_finished(event, _("%(event)s is finished: a player can no longer join it."))
        if locked.status != Entry.Status.WITHDRAWN or locked.seed is None:
            raise ValidationError(
                _("Only a withdrawn player who was drawn can be replaced; %(player)s cannot.")
                % {"player": gone.name}
            )
        newcomer, before = _arriving_entry(event, player)
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
                "opponent": match.player(match.walkover_winner).name,
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


def event_draw(*, event: Event, seed: int | None = None, user: Any) -> Event:
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
        tournament_audit_record(
            locked.tournament,
            user,
            "event.drawn",
            subject=locked,
            params={"event": locked.name, "seed": locked.draw_seed, "seeding": locked.seeding},
            after={"seeds": [[e.seed, e.player.name] for e in ordered]},
        )
        if locked.format == Event.Format.SWISS:
            _pair_swiss_round(locked, 1, user)
        elif locked.format == Event.Format.ROUND_ROBIN:
            _schedule_round_robin(locked, ordered, user)
        else:
            event_advance(event=locked, user=user)
        tables_assign(tournament=locked.tournament)
    event.draw_seed, event.drawn_at = locked.draw_seed, locked.drawn_at  # the caller's copy too
    return locked


def event_redraw(
    *, event: Event, seed: int | None = None, drawn_at: str | None = None, user: Any
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


def event_draw_undo(*, event: Event, drawn_at: str | None = None, user: Any) -> Event:
    """Take the draw back and open check-in again, before any match has begun: for players
    who arrive late, or check-ins to put right. The old draw stays in the audit."""
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = _draw_take_back(event, drawn_at=drawn_at, user=user, code="event.draw_undone")
        tables_assign(tournament=locked.tournament)
    event.draw_seed, event.drawn_at = None, None
    return locked


def _draw_take_back(event: Event, *, drawn_at: str | None, user: Any, code: str) -> Event:
    """Remove a draw no match of which has begun; the draw as it was goes in the audit."""
    locked = (
        Event.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=event.pk)
    )
    if not locked.drawn:
        raise ValidationError(_("The draw of %(event)s is not made yet.") % {"event": locked.name})
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
        (e for e in event_entries(event=locked) if e.seed is not None), key=lambda e: e.seed
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
            "seeds": [[e.seed, e.player.name] for e in drawn],
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


def _schedule_round_robin(event: Event, ordered: list[Entry], user) -> None:
    for pool in sorted({e.pool for e in ordered}):
        members = [e.player for e in ordered if e.pool == pool]
        letter = chr(ord("A") + pool - 1)
        for number, pairs in enumerate(circle_rounds(members), 1):
            for index, (a, b) in enumerate(p for p in pairs if p[1] is not None):
                place_create(
                    event=event,
                    round=number,
                    bracket_key=f"{letter}{number}-{index + 1}",
                    player_a=a,
                    player_b=b,
                    length=event.length_for(number),
                    user=user,
                )


# --- Swiss -------------------------------------------------------------------------------


def event_pair_next_round(*, event: Event, user: Any) -> int:
    """Pair the next Swiss round once the last one is finished; returns its number."""
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.format != Event.Format.SWISS or not locked.drawn:
            raise ValidationError(_("Only a drawn Swiss is paired round by round."))
        matches = list(event_matches(event=locked))
        played = max((m.place.round for m in matches), default=0)
        unfinished = [m for m in matches if not m.decided]
        if unfinished:
            raise ValidationError(
                ngettext(
                    "Round %(round)s is not finished: %(count)s match still to play.",
                    "Round %(round)s is not finished: %(count)s matches still to play.",
                    len(unfinished),
                )
                % {"round": played, "count": len(unfinished)}
            )
        if played >= locked.swiss_rounds:
            raise ValidationError(
                ngettext(
                    "The Swiss's only round is paired.",
                    "All %(rounds)s Swiss rounds are paired.",
                    locked.swiss_rounds,
                )
                % {"rounds": locked.swiss_rounds}
            )
        _pair_swiss_round(locked, played + 1, user)
        tables_assign(tournament=locked.tournament)
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
    pairings = swiss_round(field)
    for index, pairing in enumerate(pairings, 1):
        first, reason = names[pairing.first], pairing.reason
        if pairing.second is None:
            Bye.objects.create(
                event=event,
                round=number,
                player=first,
                reason_code=reason.code,
                reason_params=dict(reason.params),
            )
            continue
        place_create(
            event=event,
            round=number,
            bracket_key=f"S{number}-{index}",
            player_a=first,
            player_b=names[pairing.second],
            length=event.length_for(number),
            reason_code=reason.code,
            reason_params=dict(reason.params),
            user=user,
        )
    tournament_audit_record(
        event.tournament,
        user,
        "event.paired",
        subject=event,
        params={"event": event.name, "round": number},
        after={
            "pairings": [
                [names[p.first].name, names[p.second].name if p.second else None, p.reason.code]
                for p in pairings
            ]
        },
    )


def event_cut(
    *,
    event: Event,
    user: Any,
    lengths: Sequence[int] | None = None,
    chosen: Iterable[int] | None = None,
    version: str | None = None,
) -> Event:
    """After the last Swiss round: the players the preview shows (:mod:`tournaments.cut`)
    start a knockout, seeded in the order they go through.

    ``lengths``: the knockout's rounds (the last one the final's); by default the Swiss's
    lengths after its rounds. ``chosen``: who goes through of the players level at the cut
    line (player ids); by default the rule the preview states, the Swiss's draw order.
    ``version``: the preview's, refused when the standings have changed since.
    """
    require(can_direct(user, event.tournament))
    with transaction.atomic():
        locked = (
            Event.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=event.pk)
        )
        preview = cut_preview(event=locked)
        if version is not None and version != preview.version:
            raise ValidationError(
                _(
                    "The standings of %(event)s have changed since this cut was shown (a result "
                    "corrected, a withdrawal): look at the cut again before you make it."
                )
                % {"event": locked.name},
                code="stale",
            )
        lengths = list(preview.lengths if lengths is None else lengths)
        if not lengths:
            raise ValidationError(_("Give at least one match length."))
        for length in lengths:
            length_checked(length)
        if chosen is not None:
            chosen = set(chosen)
            level = {line.player.pk for line in preview.tied}
            if not chosen <= level or len(chosen) != preview.places:
                raise ValidationError(
                    ngettext(
                        "Choose %(places)s of the %(count)s players level at the cut line.",
                        "Choose %(places)s of the %(count)s players level at the cut line.",
                        preview.places,
                    )
                    % {"places": preview.places, "count": len(preview.tied)},
                    code="choice",
                )
        through = preview.through(chosen)
        knockout = event_create(
            tournament=locked.tournament,
            name="",  # the site names it, in each reader's language (Event.name)
            format=Event.Format.SINGLE,
            lengths=lengths,
            seeding=Event.Seeding.STANDINGS,
            parent=locked,
            holland=locked.holland,
            user=user,
        )
        entries = Entry.objects.bulk_create(
            Entry(event=knockout, player=line.player, status=Entry.Status.CHECKED_IN, seed=n)
            for n, line in enumerate(through, 1)
        )
        knockout.drawn_at = timezone.now()
        knockout.save(update_fields=["drawn_at"])
        after: dict[str, Any] = {
            "seeds": [[e.seed, e.player.name] for e in entries],
            "lengths": lengths,
        }
        if preview.tied:
            after["level_at_the_line"] = [line.player.name for line in preview.tied]
            by_rule = {line.player.pk for line in preview.through()}
            chose = chosen is not None and not chosen <= by_rule
            after["decided_by"] = "director" if chose else "draw_order"
        tournament_audit_record(
            locked.tournament,
            user,
            "event.cut",
            subject=locked,
            # the knockout's name as stored: empty, made in each reader's language (Event.name)
            params={"event": locked.name, "knockout": knockout.given_name, "count": len(entries)},
            after=after,
        )
        event_advance(event=knockout, user=user)
        tables_assign(tournament=locked.tournament)
    return knockout


# --- players asking to enter ------------------------------------------------------------


def _request_audit(request: EntryRequest, user: Any, code: str) -> None:
    tournament_audit_record(
        request.event.tournament,
        user,
        code,
        subject=request,
        params={"player": request.player.name, "event": request.event.name},
        after={"status": request.status},
    )


def _closed(event: Event) -> ValidationError:
    return ValidationError(
        _("%(event)s does not take requests to enter: ask the director.") % {"event": event.name},
        code="closed",
    )


def _request_insert(event: Event, player: Player, user: Any) -> EntryRequest:
    """The refusals in plain words, then the request (the caller holds the event's lock)."""
    if not event.tournament.open_entry or event.drawn:
        raise _closed(event)
    if event.entries.filter(player=player).exists():
        raise ValidationError(
            _("%(player)s is already entered in %(event)s.")
            % {"player": player.name, "event": event.name},
            code="entered",
        )
    if event.entry_requests.filter(player=player, status=EntryRequest.Status.PENDING).exists():
        raise ValidationError(
            _("%(player)s has asked to enter %(event)s already: the director will answer.")
            % {"player": player.name, "event": event.name},
            code="pending",
        )
    request = EntryRequest.objects.create(
        event=event, player=player, asked_by=user if user.is_authenticated else None
    )
    _request_audit(request, user, "entry_request.asked")
    return request


def entry_request_create(*, event: Event, user: Any) -> EntryRequest:
    """The player signed in asks to enter the event: refused in plain words when the
    tournament does not take requests, the draw is made, or they are entered or waiting."""
    player = own_player(user)
    require(player is not None)
    with transaction.atomic():
        locked = Event.objects.select_for_update().select_related("tournament").get(pk=event.pk)
        if not can_ask_to_enter(user, locked):
            raise _closed(locked)
        return _request_insert(locked, player, user)


def entry_request_sign_up(
    *,
    event: Event,
    username: str,
    password: str,
    name: str,
    club: str = "",
    email: str = "",
    phone: str = "",
    user: Any,
) -> EntryRequest:
    """A visitor makes an account, registers as a player and asks to enter the event, all or
    nothing; only while the event takes requests."""
    with transaction.atomic():
        locked = Event.objects.select_for_update().select_related("tournament").get(pk=event.pk)
        if not locked.tournament.open_entry or locked.drawn:
            raise _closed(locked)
        player, account = player_sign_up(
            username=username,
            password=password,
            name=name,
            club=club,
            email=email,
            phone=phone,
            user=user,
        )
        return _request_insert(locked, player, account)


def entry_request_decide(*, request: EntryRequest, approve: bool, user: Any) -> EntryRequest:
    """A director approves (the player is entered, :func:`entry_register` refusing as it
    does) or declines a request still waiting."""
    require(can_direct(user, request.event.tournament))
    with transaction.atomic():
        locked = (
            EntryRequest.objects.select_for_update(of=("self",))
            .select_related("event__tournament", "player")
            .get(pk=request.pk)
        )
        if locked.status != EntryRequest.Status.PENDING:
            raise ValidationError(
                _("The request of %(player)s is answered already.")
                % {"player": locked.player.name},
                code="decided",
            )
        if approve:
            entry_register(event=locked.event, player=locked.player, user=user)
        locked.status = EntryRequest.Status.APPROVED if approve else EntryRequest.Status.DECLINED
        locked.decided_at = timezone.now()
        locked.decided_by = user if getattr(user, "is_authenticated", False) else None
        locked.save(update_fields=["status", "decided_at", "decided_by"])
        code = "entry_request.approved" if approve else "entry_request.declined"
        _request_audit(locked, user, code)
    return locked
