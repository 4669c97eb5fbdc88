"""The writer: a document, read and checked, recreated as a new tournament of this site.

:func:`tournament_import` is a service (one transaction, an audit entry). It reads and
checks the document again (:func:`.plan.tournament_import_plan`), refuses a tournament this
site already holds, and writes everything the file holds in the file's order: players
matched or added, events with their rounds, entries and byes, matches with their places,
games, board games and disputes, and the trail as the file's claims (each entry marked
imported, naming who the file says acted, never an account of this site). The importer,
and the directors they tick among those the file names, direct the copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from uuid import uuid4

from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from club.actors import Actor
from club.models import AuditEntry, Player
from club.policy import can_create, directors_nameable, require
from club.services import player_create
from matches.models import BoardAction, BoardGame, Dispute, Game, Match, Penalty

from ..advancement import ratings_rederive_later
from ..audit import tournament_audit_record
from ..models import Arrival, Bye, Entry, Event, Place, Round, Tournament
from . import plan as planning
from .checks import content_type_named
from .document import FORMAT, SUBJECTS, AuditPart
from .plan import ImportPlan, tournament_here_refusal


def import_directors_offered(*, plan: ImportPlan, user: Actor) -> list[User]:
    """The accounts the file names as directors that ``user`` may make directors of the copy
    (:func:`club.policy.directors_nameable`): what the preview offers to tick."""
    named = [account.pk for account in plan.directors]
    return list(directors_nameable(user).filter(pk__in=named).order_by("username"))


def _directors_chosen(plan: ImportPlan, user: Actor, usernames: Iterable[str]) -> list[User]:
    """The accounts ticked, each one the file names and ``user`` may name, or the refusal."""
    offered = {
        account.get_username(): account
        for account in import_directors_offered(plan=plan, user=user)
    }
    named = {account.get_username() for account in plan.directors}
    chosen = []
    for name in dict.fromkeys(usernames):
        if name in offered:
            chosen.append(offered[name])
        elif name in named:
            raise ValidationError(
                _(
                    "You may not make %(name)s a director of the tournament: only members of "
                    "the Directors group can be named."
                )
                % {"name": name}
            )
        else:
            raise ValidationError(
                _(
                    "“%(name)s” is not one of the directors the file names with an account on "
                    "this site: choose among those offered."
                )
                % {"name": name}
            )
    return chosen


def tournament_import(*, document: Any, user: Actor, directors: Iterable[str] = ()) -> Tournament:
    """Recreate a tournament from its document, as a new tournament of this site.

    It keeps the document's identity, and one this site already holds is refused
    (:func:`tournament_here_refusal`): never a second copy, its ratings moved twice.
    Players are matched to this site's (same name, club and country) or created.
    The importing person directs it, with ``directors``: user names the file gives
    as its directors, chosen by the importer among the accounts they may name;
    no one else becomes a director because the file says so. Events, entries,
    matches, games, board games, disputes and the trail keep their times; the
    trail is kept as the file's claims, and one audit entry by the importer records
    the import; ratings are re-derived, since rated results arrived.
    """
    require(can_create(user))
    plan = planning.tournament_import_plan(document=document)
    if plan.here is not None:
        raise tournament_here_refusal(plan.here)
    chosen = _directors_chosen(plan, user, directors)
    try:
        with transaction.atomic():
            tournament = _write(plan, user, chosen)
            tournament_audit_record(
                tournament,
                user,
                "tournament.imported",
                params={"name": tournament.name},
                after={
                    "format": FORMAT,
                    "version": plan.version,
                    "uuid": str(tournament.uuid),
                    "events": len(plan.events),
                    "matches": len(plan.matches),
                    "players_new": [p.name for p in plan.players_new],
                    "players_matched": [p.name for p in plan.players_matched],
                    "directors": sorted(u.get_username() for u in tournament.directors.all()),
                    "directors_missing": list(plan.directors_missing),
                },
            )
            ratings_rederive_later(1)  # the whole history, as a job once the import commits
    except (IntegrityError, DataError) as error:  # the checks should leave the database nothing
        here = Tournament.objects.filter(uuid=plan.uuid).first() if plan.uuid else None
        if here is not None:  # imported meanwhile, by another request
            raise tournament_here_refusal(here) from error
        raise ValidationError(
            _("The file does not hold together: the database refused it, and nothing was imported.")
        ) from error
    return tournament


def _write(plan: ImportPlan, user: Actor, directors: list[User]) -> Tournament:
    people: dict[str, Player] = {}
    for player in plan.players:
        people[player.key] = player.existing or player_create(
            name=player.name,
            club=player.club,
            country=player.country,
            email=player.email,
            phone=player.phone,
            user=user,
        )
    head = plan.document.tournament
    tournament = Tournament.objects.create(
        uuid=plan.uuid or uuid4(),  # the file's identity, or a new one for a version 1 file
        name=plan.name,
        date=plan.date,
        venue=plan.venue,
        physical_dice=plan.physical_dice,
        late_rounds=plan.late_rounds,
        late_minutes_per_point=head.late_minutes_per_point,
        late_grace_minutes=head.late_grace_minutes,
        late_forfeit_at_half=head.late_forfeit_at_half,
        clock_seconds_per_point=head.clock_seconds_per_point,
        clock_delay_seconds=head.clock_delay_seconds,
        clock_on_flag=head.clock_on_flag,
    )
    tournament.directors.set(directors)
    if isinstance(user, User) and user.is_authenticated:
        tournament.directors.add(user)

    events: dict[str, Event] = {}
    for event in plan.events:
        events[event.key] = Event.objects.create(
            tournament=tournament,
            given_name=event.name,
            format=event.format,
            seeding=event.seeding,
            swiss_rounds=event.swiss_rounds,
            cut=event.cut,
            pools=event.pools,
            holland=event.holland,
            third_place=event.third_place,
            parent=events[event.parent] if event.parent else None,
            draw_seed=event.draw_seed,
            drawn_at=event.drawn_at,
        )
    times = {(e.key, t.number): t for e in plan.events for t in e.round_times}
    Round.objects.bulk_create(
        Round(
            event=events[e.key],
            number=n,
            length=length,
            starts_at=times[(e.key, n)].starts_at if (e.key, n) in times else None,
            clocks=times[(e.key, n)].clocks if (e.key, n) in times else Round.Clocks.NONE,
        )
        for e in plan.events
        for n, length in enumerate(e.rounds, 1)
    )
    entries = [
        Entry(
            event=events[e.key],
            player=people[entry.player],
            status=entry.status,
            seed=entry.seed,
            pool=entry.pool,
            joined_round=entry.joined_round,
        )
        for e in plan.events
        for entry in e.entries
    ]
    Entry.objects.bulk_create(entries)
    Bye.objects.bulk_create(
        Bye(
            event=events[e.key],
            round=bye.round,
            player=people[bye.player],
            reason_code=bye.reason_code,
            reason_params=bye.reason_params,
        )
        for e in plan.events
        for bye in e.byes
    )

    matches: dict[str, Match] = {}
    places, games, actions = [], [], []
    penalties: dict[tuple[str, int], Penalty] = {}  # (match, its place among the match's)
    arrivals: dict[tuple[str, str], Arrival] = {}  # (match, the player who arrived)
    boards: dict[tuple[str, int], BoardGame] = {}
    disputes: dict[str, Dispute] = {}
    for m in plan.matches:
        match = Match.objects.create(  # one by one: the ids keep the file's order
            player_a=people[m.player_a],
            player_b=people[m.player_b],
            length=m.length,
            date=m.date,
            status=m.status,
            final_score_a=m.final_score[0] if m.final_score else None,
            final_score_b=m.final_score[1] if m.final_score else None,
            walkover_winner=m.walkover_winner,
            retired=m.retired,
            forfeit=m.forfeit,
            finished_at=m.finished_at,
            physical_dice=m.physical_dice,
            holland=m.holland,
        )
        matches[m.key] = match
        places.append(
            Place(
                match=match,
                event=events[m.event],
                round=m.round,
                bracket_key=m.bracket_key,
                reason_code=m.reason_code,
                reason_params=m.reason_params,
            )
        )
        games += [
            Game(
                match=match,
                number=g.number,
                winner=g.winner,
                cube=g.cube,
                result=g.result,
                resigned=g.resigned,
            )
            for g in m.games
        ]
        for number, p in enumerate(m.penalties, 1):
            penalties[(m.key, number)] = Penalty(  # who gave them: no account of this site
                match=match,
                before_game=p.before_game,
                side=p.side,
                points=p.points,
                reason=p.reason,
                note=p.note,
                minutes_late=p.minutes_late,
                created_at=p.created_at,
            )
        for arrival in m.arrivals:
            arrivals[(m.key, (m.player_a, m.player_b)[arrival.side])] = Arrival(
                match=match,
                side=arrival.side,
                called_at=arrival.called_at,
                arrived_at=arrival.arrived_at,
                minutes_late=arrival.minutes_late,
                points=arrival.points,
                state=arrival.state,
                decided_at=arrival.decided_at,
            )
        for b in m.board_games:
            board = BoardGame.objects.create(
                match=match,
                number=b.number,
                pending=b.pending,
                started_at=b.started_at,
                imported=b.imported,
            )
            boards[(m.key, b.number)] = board
            for seq, a in enumerate(b.actions, 1):
                row = BoardAction.from_action(game=board, seq=seq, action=a.as_action())
                row.at = a.at  # who acted is the file's say: no account of this site
                actions.append(row)
        for d in m.disputes:
            disputes[d.key] = Dispute.objects.create(
                match=match,
                opened_at=d.opened_at,
                source=d.source,
                filename=d.filename,
                mat=d.mat,
                swapped=d.swapped,
                sheet_a_a=d.sheet_a[0] if d.sheet_a else None,
                sheet_a_b=d.sheet_a[1] if d.sheet_a else None,
                sheet_b_a=d.sheet_b[0] if d.sheet_b else None,
                sheet_b_b=d.sheet_b[1] if d.sheet_b else None,
                decision=d.decision,
                corrected=d.corrected,
                decided_at=d.decided_at,
            )
    Place.objects.bulk_create(places)
    Game.objects.bulk_create(games, batch_size=500)
    BoardAction.objects.bulk_create(actions, batch_size=500)
    Penalty.objects.bulk_create(penalties.values(), batch_size=500)  # in the file's order
    Arrival.objects.bulk_create(arrivals.values(), batch_size=500)

    found: dict[str, Mapping[Any, Model]] = {
        "tournament": {None: tournament},
        "event": events,
        "player": people,
        "match": matches,
        "dispute": disputes,
        "entry": {(e.event.pk, e.player.pk): e for e in entries},
        "place": {p.match.pk: p for p in places},
        "game": {(g.match.pk, g.number): g for g in games},
        "board_game": {(b.match.pk, b.number): b for b in boards.values()},
        "penalty": {(matches[key].pk, number): p for (key, number), p in penalties.items()},
        "arrival": {
            (matches[key].pk, people[player].pk): a for (key, player), a in arrivals.items()
        },
    }
    kinds = {kind: ContentType.objects.get_for_model(model) for kind, model in SUBJECTS.items()}
    AuditEntry.objects.bulk_create(
        (_audit_row(a, found, kinds, tournament) for a in plan.audit),
        batch_size=500,
    )
    return tournament


def _audit_row(
    entry: AuditPart,
    found: dict[str, Mapping[Any, Model]],
    kinds: dict[str, ContentType],
    tournament: Tournament,
) -> AuditEntry:
    """The file's entry, kept as its claim: marked imported, naming who the file says acted
    (never an account of this site)."""
    subject = entry.subject
    kind = subject.kind
    if subject.gone:  # it was no longer there: the kind is kept, with no object
        content_type = kinds.get(kind) or content_type_named(kind)
        subject_id = 0
    else:
        content_type = kinds[kind]
        matches = found["match"]
        key: Any = None
        if kind == "tournament":
            key = None
        elif kind in ("event", "player", "match", "dispute"):
            key = getattr(subject, kind)
        elif kind == "entry":
            key = (found["event"][subject.event].pk, found["player"][subject.player].pk)
        elif kind == "place":
            key = matches[subject.match].pk
        elif kind == "arrival":
            key = (matches[subject.match].pk, found["player"][subject.player].pk)
        else:
            key = (matches[subject.match].pk, subject.number)
        subject_id = found[kind][key].pk
    params = dict(entry.params)
    dispute = found["dispute"].get(entry.dispute) if entry.dispute else None
    if dispute is not None and params.get("dispute") == entry.dispute:
        params["dispute"] = dispute.pk
    return AuditEntry(
        at=entry.at,
        user=None,
        user_name=entry.user_name,
        imported=True,
        imported_username=entry.user or "",
        code=entry.code,
        params=params,
        before=entry.before,
        after=entry.after,
        subject_type=content_type,
        subject_id=subject_id,
        match_id=found["match"][entry.match].pk if entry.match else None,
        tournament_id=tournament.pk if entry.tournament else None,
        dispute_id=dispute.pk if dispute is not None else None,
    )
