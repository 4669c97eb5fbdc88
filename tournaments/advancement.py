"""What follows a result: the next matches of a knockout, walkovers, and ratings.

The matches app announces every result it records or corrects (:mod:`matches.hooks`);
:class:`TournamentResults`, registered at start-up, answers: a finished match moves
its winner (and its loser, where the event sends losers) on in the same transaction,
and a result is not changed under a match that has already begun (US rules 4.10).

What advancement writes is a consequence of a change the policy allowed (a result,
a draw, a withdrawal), so it writes as the site itself (:data:`club.policy.SYSTEM`);
the change that caused it is in the audit under its author's name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Max, Min, OuterRef, Q, Subquery
from django.utils.translation import gettext as _

from club.actors import Actor
from club.models import Player
from club.policy import SYSTEM
from jobs.models import Job
from jobs.services import job_start
from matches.hooks import results_collected
from matches.models import Match
from matches.selectors import match_list, match_score_sheet
from matches.services import match_create, match_delete, match_players_change, match_walkover

from .audit import tournament_audit_record
from .models import Entry, Event, Place, RatingChange
from .queries.events import event_entries, event_player_matches
from .queries.knockouts import event_knockout
from .ratings import fibs_update, rating_kept
from .venue import tables_assign


class TournamentResults:
    """The tournaments app's answer to a match result (see :mod:`matches.hooks`)."""

    def correction_check(self, *, match: Match) -> None:
        match_correction_check(match=match)

    def result_changed(self, *, match: Match, user: Actor, corrected: bool) -> None:
        place = Place.objects.filter(match=match).select_related("event").first()
        if place is not None and not match.decided:
            _withdrawn_check(place.event, match)
        if place is not None and place.event.knockout:
            event_advance(event=place.event, cause=match)
        if place is not None:
            tables_assign(tournament=place.event.tournament)  # a table freed, or needed again
        ratings_after(match=match, corrected=corrected)


tournament_results = TournamentResults()


def _withdrawn_check(event: Event, match: Match) -> None:
    """A match taken back to be played again (its walkover undone) needs both its players:
    one who has withdrawn is reinstated first, which undoes the walkovers for them."""
    gone = event.entries.filter(
        status=Entry.Status.WITHDRAWN, player_id__in=(match.player_a_id, match.player_b_id)
    ).select_related("player")
    for entry in gone:
        raise ValidationError(
            _(
                "%(player)s has withdrawn from %(event)s: reinstate them on the event's page "
                "for this match to be played."
            )
            % {"player": entry.player.name, "event": event.name}
        )


def later_match_begun(*, match: Match) -> Match | None:
    """A match of the tournament after this one that either of its players has begun
    (its first roll or its first recorded game); None when there is none. The earliest
    such match, the one this result led to: Match's own ordering puts the latest first."""
    place = Place.objects.filter(match=match).select_related("event").first()
    if place is None:
        return None
    players = (match.player_a_id, match.player_b_id)
    return (
        Match.objects.filter(place__event__tournament_id=place.event.tournament_id, id__gt=match.id)
        .filter(Q(player_a_id__in=players) | Q(player_b_id__in=players))
        .filter(Q(status=Match.Status.IN_PLAY) | Q(status=Match.Status.FINISHED))
        .select_related("player_a", "player_b")
        .order_by("id")
        .first()
    )


def match_correction_check(*, match: Match) -> None:
    """US rules 4.10: a result stands once either player has started a later match."""
    later = later_match_begun(match=match)
    if later is not None:
        players = (match.player_a_id, match.player_b_id)
        raise ValidationError(
            _(
                "This result can no longer be corrected: %(players)s has started a later match "
                "(%(later)s), US rules 4.10."
            )
            % {
                "players": " / ".join(
                    p.name for p in (later.player_a, later.player_b) if p.pk in players
                ),
                "later": str(later),
            }
        )


def place_create(
    *,
    event: Event,
    round: int,
    bracket_key: str,
    player_a: Player,
    player_b: Player,
    length: int,
    reason_code: str = "",
    reason_params: dict[str, Any] | None = None,
    user: Actor,
) -> Match:
    """A match in a place of an event. The caller has asked the policy whether ``user``
    directs the tournament (or writes as the site, for a consequence of a result)."""
    match = match_create(
        player_a=player_a,
        player_b=player_b,
        length=length,
        date=event.tournament.date,
        user=user,
        placed=True,
        holland=event.holland,
    )
    place = Place.objects.create(
        match=match,
        event=event,
        round=round,
        bracket_key=bracket_key,
        reason_code=reason_code,
        reason_params=reason_params or {},
    )
    tournament_audit_record(
        event.tournament,
        user,
        "place.created",
        subject=place,
        params={
            "event": event.name,
            "key": bracket_key,
            "round": round,
            "a": player_a.name,
            "b": player_b.name,
        },
        match_id=match.pk,
    )
    return match


def event_advance(*, event: Event, cause: Match | None = None, user: Actor = SYSTEM) -> None:
    """Bring the knockout's matches in line with its results.

    Matches whose two players are now known are created; a bye or an empty side
    sends the other player on without a match; a match not yet begun whose players
    changed (a corrected result) is updated or removed; a withdrawn player's new
    match is a walkover at once: its result is announced when the advance is done (see
    :func:`matches.hooks.results_collected`), so the advance it causes in turn follows
    this one instead of running inside it.
    """
    with results_collected():
        _advance(event=event, cause=cause, user=user)


def _advance(*, event: Event, cause: Match | None, user: Actor) -> None:
    # one result at a time per event: a director finishing M1-2 while another finishes M1-1
    # waits here, then reads both results and makes M2-1 (without the lock neither would)
    event = (
        Event.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=event.pk)
    )
    entries = list(event_entries(event=event))
    knockout = event_knockout(event=event, entries=entries)
    if knockout is None:
        return
    withdrawn = {e.player_id for e in entries if e.status == Entry.Status.WITHDRAWN}
    created = []
    for key, slot in knockout.state.slots.items():
        existing = knockout.matches.get(key)
        a, b = knockout.player(slot.first), knockout.player(slot.second)
        if existing is not None:
            same = (existing.player_a_id, existing.player_b_id) == (
                getattr(a, "pk", None),
                getattr(b, "pk", None),
            )
            if not same:
                _replace(existing, cause, a, b)
            continue
        if a is not None and b is not None:
            final = slot.match.draw == "final"  # the final's length is the last one given
            created.append(
                place_create(
                    event=event,
                    round=slot.match.round,
                    bracket_key=key,
                    player_a=a,
                    player_b=b,
                    length=event.length_for(999 if final else slot.match.round),
                    user=user,
                )
            )
    for key, existing in knockout.matches.items():
        if key not in knockout.state.slots:  # a reset final no longer needed
            _replace(existing, cause, None, None)
    for match in created:
        gone = [p for p in (match.player_a_id, match.player_b_id) if p in withdrawn]
        if gone:
            winner = 0 if match.player_b_id in gone and match.player_a_id not in gone else 1
            match_walkover(match=match, winner=winner, user=SYSTEM)


def _replace(existing: Match, cause: Match | None, a: Player | None, b: Player | None) -> None:
    """A corrected result changes who plays a later match, which nobody may have begun."""
    place = existing.place
    tournament_audit_record(
        place.event.tournament,
        SYSTEM,
        "place.changed",
        subject=place,
        params={
            "key": place.bracket_key,
            "before": str(existing),
            "after": f"{a.name} – {b.name}" if a and b else "",
        },
        match_id=cause.pk if cause is not None else existing.pk,
    )
    if a is not None and b is not None:
        match_players_change(match=existing, player_a=a, player_b=b, user=SYSTEM, placed=True)
    else:
        place.delete()
        match_delete(match=existing, user=SYSTEM, placed=True)


def player_withdrawn_matches(*, event: Event, player: Player) -> list[Match]:
    """The player's matches in the event not yet decided (a withdrawal makes them walkovers)."""
    if not event.drawn:
        return []
    return [m for m in event_player_matches(event=event, player=player) if not m.decided]


# --- ratings -----------------------------------------------------------------------------


def _rated(match: Match) -> tuple[Player, Player] | None:
    """(winner, loser) of a match that counts for ratings: finished, not a walkover."""
    if match.status != Match.Status.FINISHED:
        return None
    sheet = match_score_sheet(match=match)
    if sheet.winner is None:
        return None
    return match.player(sheet.winner), match.player(1 - sheet.winner)


def _apply(order: int, match: Match, winner: Player, loser: Player) -> list[RatingChange]:
    change = fibs_update(
        winner=(float(winner.rating), winner.experience),
        loser=(float(loser.rating), loser.experience),
        length=match.length,
    )
    records = []
    for player, rating, experience in (
        (winner, change.winner_rating, change.winner_experience),
        (loser, change.loser_rating, change.loser_experience),
    ):
        after = rating_kept(rating)
        records.append(
            RatingChange(
                player=player,
                match=match,
                order=order,
                rating_before=player.rating,
                rating_after=after,
                experience_after=experience,
            )
        )
        player.rating, player.experience = after, experience
    return records


def ratings_after(*, match: Match, corrected: bool = False) -> None:
    """A newly finished match after every rated one moves both ratings here, in the request
    (two players' rows); a change to a rated match (its result corrected, or no longer one
    that counts), or a result that falls before rated ones, asks for the ratings to be worked
    out again from that match on, as a job (:func:`ratings_rederive_later`): the request
    costs what it changes, never the history after it.

    Why the history stays right while a job waits or runs:

    - every change to the history (this function, the job) holds the history's lock
      (:func:`_history_lock`) until its transaction ends, so they happen one at a time, and
      the job reads the matches only after taking it: it re-derives from the history and
      the results as the last change committed them, whatever was appended meanwhile;
    - the history before the earliest order a waiting job starts from is right (each
      correction asks from at most its own order, two waiting jobs merge to the earlier);
      what comes after it, appends made meanwhile included, the job writes again;
    - a match that stops counting loses its own rating changes here (so it may be deleted,
      or given other players, before the job runs), and its two players are named to the
      job, which starts them again from their last change before it;
    - a result recorded on a match that had none (``corrected`` false) and that still
      counts for nothing (a game of a match in play) needs no lock: nobody could have rated
      it, since its row is locked by this change and a job reads only what is committed.
      So recording a game never waits for a job that is running.
    """
    rated = _rated(match)
    if rated is None and not corrected:
        return
    _history_lock()
    own = RatingChange.objects.filter(match=match)
    before = own.aggregate(first=Min("order"))["first"]
    if before is None and rated is None:
        return
    falls = _falls_at(match, below=before) if rated is not None else None
    starts = [order for order in (before, falls) if order is not None]
    if starts:
        players: list[int] = []
        if rated is None:  # it no longer counts: its changes go now, its players with the job
            players = sorted({match.player_a_id, match.player_b_id})
            own.delete()
        ratings_rederive_later(min(starts), players=players)
        return
    assert rated is not None  # a newly rated match after every rated one: it only adds
    winner, loser = (
        Player.objects.select_for_update().get(pk=p.pk) for p in sorted(rated, key=_pk)
    )
    if winner.pk != rated[0].pk:
        winner, loser = loser, winner
    last = RatingChange.objects.aggregate(last=Max("order"))["last"] or 0
    records = _apply(last + 1, match, winner, loser)
    RatingChange.objects.bulk_create(records)
    Player.objects.bulk_update([winner, loser], ["rating", "experience"])


# the ratings' job (tournaments.ratings_jobs): its kind, and its key, so that two requests for
# it while one waits run it once, from the earlier order
RATINGS_JOB = "ratings.rederive"
RATINGS_JOB_KEY = "ratings"


def ratings_rederive_later(
    order: int, *, players: list[int] | None = None, user: Actor = SYSTEM
) -> Job:
    """Ask for the ratings to be worked out again from the ``order``-th rated match on (1:
    the whole history), as a job started when this transaction commits; a request already
    waiting is joined (the earlier order, both sets of ``players``: those who must start
    again from their last change before ``order`` though no change of theirs is left after
    it)."""
    params: dict[str, Any] = {"order": max(order, 1)}
    if players:
        params["players"] = players
    return job_start(kind=RATINGS_JOB, user=user, params=params, key=RATINGS_JOB_KEY)


# any fixed number: the key of PostgreSQL's lock on the rating history ("ratings" in ASCII)
RATINGS_LOCK = 0x72617469


def _history_lock() -> None:
    """One change to the rating history at a time, until the transaction ends: each works
    from the history as the one before left it (the orders it numbers from, the ratings it
    starts from). On PostgreSQL a transaction's advisory lock (taken again, it is already
    held); SQLite lets one transaction write at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK])


def _pk(player: Player) -> int:
    return player.pk


def _after(finished_at: Any, pk: int, prefix: str = "") -> Q:
    """The matches that come after (finished_at, pk) in the rating history's order."""
    return Q(**{f"{prefix}finished_at__gt": finished_at}) | Q(
        **{f"{prefix}finished_at": finished_at, f"{prefix}id__gt": pk}
    )


def _falls_at(match: Match, *, below: int | None = None) -> int | None:
    """The order a rated ``match`` takes in the history: that of the first rated match
    after it (None: after them all). ``below``: only an order below it matters (the match's
    own, from which the history is worked out again anyway).

    The matches after it are found by their finish (match_finished_order), so a new result,
    after every rated one, costs an index probe; a correction looks only below its own
    order (a correction of the season's first weekend: 3 ms instead of 60)."""
    later = RatingChange.objects.filter(_after(match.finished_at, match.pk, "match__")).exclude(
        match=match
    )
    if below is not None:
        later = later.filter(order__lt=below)
    first: int | None = later.aggregate(first=Min("order"))["first"]
    return first


def ratings_rederive_from(
    order: int,
    *,
    players: Iterable[int] = (),
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """The ratings worked out again from the ``order``-th rated match on, as
    :func:`ratings_rederive` would: every player the history from there touches (its
    rated matches now, those it held before, and ``players``) starts again from their last
    rating change before it (1500 and no experience without one), the rating changes from
    there are deleted and the finished matches after the one before ``order`` applied again
    in the order they finished. Only those players' rows are locked. Says how many rated
    matches it applied; ``progress`` as for :func:`ratings_rederive`."""
    _history_lock()
    if order <= 1:
        finished = match_list().filter(status=Match.Status.FINISHED)
    else:
        previous = (
            RatingChange.objects.filter(order=order - 1)
            .values_list("match__finished_at", "match_id")
            .first()
        )
        if previous is None or previous[0] is None:
            # a gap, or a change not yet followed: only the whole is sure
            return ratings_rederive(progress=progress)
        finished = match_list().filter(status=Match.Status.FINISHED).filter(_after(*previous))
    rated = []
    finished = finished.order_by("finished_at", "id")
    total = finished.count() if progress is not None else 0
    for done, match in enumerate(finished, start=1):
        if progress is not None and done % 500 == 0:
            progress(done, total)
        pair = _rated(match)
        if pair is not None:
            rated.append((match, pair[0].pk, pair[1].pk))
    touched = {pk for _, winner, loser in rated for pk in (winner, loser)}
    touched.update(players)
    touched.update(
        RatingChange.objects.filter(order__gte=order).values_list("player_id", flat=True)
    )
    last = RatingChange.objects.filter(player=OuterRef("pk"), order__lt=order).order_by("-order")
    starting = {
        p.pk: p
        for p in Player.objects.select_for_update()
        .filter(pk__in=touched)
        .annotate(
            last_rating=Subquery(last.values("rating_after")[:1]),
            last_experience=Subquery(last.values("experience_after")[:1]),
        )
        .order_by("pk")
    }
    for player in starting.values():
        if player.last_rating is None:
            player.rating, player.experience = Decimal("1500.00"), 0
        else:
            player.rating, player.experience = player.last_rating, player.last_experience
    records: list[RatingChange] = []
    for step, (match, winner, loser) in enumerate(rated, start=order):
        records += _apply(step, match, starting[winner], starting[loser])
    RatingChange.objects.filter(order__gte=order).delete()
    RatingChange.objects.bulk_create(records, batch_size=500)
    Player.objects.bulk_update(list(starting.values()), ["rating", "experience"], batch_size=500)
    if progress is not None:
        progress(total, total)
    return len(rated)


def ratings_rederive(progress: Callable[[int, int], None] | None = None) -> int:
    """Every rating from the start, finished matches in the order they finished.

    ``progress(done, total)``, when given, hears how far it is every 500 matches and at
    the end (the ``ratings_rederive`` command prints it)."""
    _history_lock()
    players = {p.pk: p for p in Player.objects.select_for_update()}
    for player in players.values():
        player.rating, player.experience = Decimal("1500.00"), 0
    records: list[RatingChange] = []
    order = 0
    finished = match_list().filter(status=Match.Status.FINISHED).order_by("finished_at", "id")
    total = finished.count() if progress is not None else 0
    for done, match in enumerate(finished, start=1):
        if progress is not None and done % 500 == 0:
            progress(done, total)
        rated = _rated(match)
        if rated is None:
            continue
        order += 1
        winner, loser = players[rated[0].pk], players[rated[1].pk]
        records += _apply(order, match, winner, loser)
    RatingChange.objects.all().delete()
    RatingChange.objects.bulk_create(records, batch_size=500)
    Player.objects.bulk_update(list(players.values()), ["rating", "experience"], batch_size=500)
    if progress is not None:
        progress(total, total)
    return order
