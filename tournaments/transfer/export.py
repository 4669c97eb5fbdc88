"""The export: a tournament read from the database into the document's models.

:func:`tournament_export` is a selector: the same tournament gives the same document. Players,
events, matches and disputes are named by local keys (``p1``, ``e1``, ``m1``, ``d1``), never
by an id of this database, so the document imports anywhere; objects' parameters are written
with their keys in order (PostgreSQL's jsonb keeps its own), times in UTC.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, get_args, get_origin

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Model, Q
from django.utils.translation import gettext as _
from pydantic import ValidationError as ShapeError

from club.models import AuditEntry, Player
from matches.history import match_penalties
from matches.models import BoardGame, Dispute, Game, Match, Penalty
from rules.game import Act

from ..models import Arrival, Bye, Entry, Event, Place, Round, Tournament
from .document import (
    FORMAT,
    SUBJECTS,
    ActionPart,
    ArrivalPart,
    AuditPart,
    BoardGamePart,
    ByePart,
    DisputePart,
    Document,
    EntryPart,
    EventPart,
    GamePart,
    MatchPart,
    PenaltyPart,
    PlayerPart,
    RoundTimesPart,
    SubjectPart,
    TournamentPart,
)
from .reading import place_in_file

Keys = Mapping[int, str]  # an object's id here -> its key in the document


# a part's model -> the document's list that holds it ("PlayerPart" -> "players"), for a refusal
_LISTS = {
    get_args(field.annotation)[0].__name__: name
    for name, field in Document.model_fields.items()
    if get_origin(field.annotation) is list
}


def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready document; the same tournament gives the same one.

    The document is checked as it is made, by the same models the import reads with, so a
    file is never written that no site would import: a value the file cannot carry (a
    player's name emptied in the database behind the site's back) is refused in words."""
    try:
        document = tournament_document(tournament=tournament)
    except ShapeError as error:  # a part is checked as it is made: name its list, then the place
        where = place_in_file(error.errors()[0]["loc"])
        where = f"{_LISTS[error.title]}: {where}" if error.title in _LISTS else where
        raise ValidationError(
            _(
                "This tournament holds a value a tournament file cannot carry (%(where)s): "
                "correct it on the site, then download the file again."
            )
            % {"where": where}
        ) from None
    return document.model_dump(mode="json")


def tournament_export_text(*, tournament: Tournament) -> str:
    """The document as the file holds it: UTF-8 JSON, one value a line, a final newline."""
    return json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1) + "\n"


def tournament_document(*, tournament: Tournament) -> Document:
    """The whole tournament as the document's models."""
    events = list(tournament.events.order_by("id").prefetch_related("rounds"))
    matches = list(
        Match.objects.filter(place__event__tournament=tournament)
        .select_related("place", "player_a", "player_b")
        .prefetch_related(
            "games",
            "board_games__actions__user",
            "disputes",
            "penalties__created_by",
            "arrivals__recorded_by",
            "arrivals__decided_by",
        )
        .order_by("id")
    )
    entries = list(
        Entry.objects.filter(event__tournament=tournament).select_related("player").order_by("id")
    )
    byes = list(
        Bye.objects.filter(event__tournament=tournament)
        .select_related("player")
        .order_by("round", "id")
    )
    people = {e.player_id: e.player for e in entries}
    people.update({b.player_id: b.player for b in byes})
    for match in matches:
        people.update({match.player_a_id: match.player_a, match.player_b_id: match.player_b})
    ordered = sorted(
        people.values(), key=lambda p: (p.name, p.club, str(p.country), p.email, p.phone, p.pk)
    )
    player_key = {p.pk: f"p{n}" for n, p in enumerate(ordered, 1)}
    event_key = {e.pk: f"e{n}" for n, e in enumerate(events, 1)}
    match_key = {m.pk: f"m{n}" for n, m in enumerate(matches, 1)}
    dispute_key: dict[int, str] = {}
    for match in matches:
        for dispute in sorted(match.disputes.all(), key=lambda d: d.pk):
            dispute_key[dispute.pk] = f"d{len(dispute_key) + 1}"

    refs = _subject_refs(tournament, entries, matches, player_key, event_key, match_key)
    for pk, key in dispute_key.items():
        refs[(Dispute, pk)] = SubjectPart(kind="dispute", dispute=key)

    return Document(
        format=FORMAT,
        version=2,
        tournament=TournamentPart(
            uuid=tournament.uuid,
            name=tournament.name,
            date=tournament.date,
            venue=tournament.venue,
            physical_dice=tournament.physical_dice,
            late_rounds=Tournament.LateRounds(tournament.late_rounds),
            late_minutes_per_point=tournament.late_minutes_per_point,
            late_grace_minutes=tournament.late_grace_minutes,
            late_forfeit_at_half=tournament.late_forfeit_at_half,
            clock_seconds_per_point=tournament.clock_seconds_per_point,
            clock_delay_seconds=tournament.clock_delay_seconds,
            clock_on_flag=Tournament.OnFlag(tournament.clock_on_flag),
            directors=sorted(u.get_username() for u in tournament.directors.all()),
        ),
        players=[
            PlayerPart(
                key=player_key[p.pk],
                name=p.name,
                club=p.club,
                country=str(p.country),  # ISO 3166-1 alpha-2, "" when not known
                email=p.email,
                phone=p.phone,
            )
            for p in ordered
        ],
        events=[_event_out(event, entries, byes, player_key, event_key) for event in events],
        matches=[
            _match_out(match, player_key, event_key, match_key, dispute_key) for match in matches
        ],
        audit=_audit_out(tournament, refs, match_key, dispute_key),
    )


def _sorted_json(value: Any) -> Any:
    """A JSON value with its objects' keys in order (PostgreSQL's jsonb keeps its own)."""
    if isinstance(value, dict):
        return {key: _sorted_json(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted_json(item) for item in value]
    return value


def _username(user: AbstractBaseUser | None) -> str | None:
    return None if user is None else user.get_username()


def _pair(a: int | None, b: int | None) -> tuple[int, int] | None:
    return None if a is None or b is None else (a, b)


def _event_out(
    event: Event, entries: Iterable[Entry], byes: Iterable[Bye], player_key: Keys, event_key: Keys
) -> EventPart:
    return EventPart(
        key=event_key[event.pk],
        name=event.given_name,  # empty: the site names it, in each reader's language
        format=Event.Format(event.format),
        seeding=Event.Seeding(event.seeding),
        swiss_rounds=event.swiss_rounds,
        cut=event.cut,
        pools=event.pools,
        holland=event.holland,
        third_place=event.third_place,
        parent=event_key.get(event.parent_id) if event.parent_id else None,
        draw_seed=event.draw_seed,
        drawn_at=event.drawn_at,
        rounds=[r.length for r in sorted(event.rounds.all(), key=lambda r: r.number)],
        round_times=[
            RoundTimesPart(number=r.number, starts_at=r.starts_at, clocks=Round.Clocks(r.clocks))
            for r in sorted(event.rounds.all(), key=lambda r: r.number)
            if r.starts_at is not None or r.clocks != Round.Clocks.NONE
        ],
        entries=[
            EntryPart(
                player=player_key[e.player_id],
                status=Entry.Status(e.status),
                seed=e.seed,
                pool=e.pool,
                joined_round=e.joined_round,
            )
            for e in entries
            if e.event_id == event.pk
        ],
        byes=[
            ByePart(
                round=b.round,
                player=player_key[b.player_id],
                reason_code=b.reason_code,
                reason_params=_sorted_json(b.reason_params),
            )
            for b in byes
            if b.event_id == event.pk
        ],
    )


def _match_out(
    match: Match, player_key: Keys, event_key: Keys, match_key: Keys, dispute_key: Keys
) -> MatchPart:
    place = match.place
    return MatchPart(
        key=match_key[match.pk],
        event=event_key[place.event_id],
        round=place.round,
        bracket_key=place.bracket_key,
        reason_code=place.reason_code,
        reason_params=_sorted_json(place.reason_params),
        player_a=player_key[match.player_a_id],
        player_b=player_key[match.player_b_id],
        length=match.length,
        date=match.date,
        status=Match.Status(match.status),
        final_score=_pair(match.final_score_a, match.final_score_b),
        walkover_winner=match.walkover_winner,
        retired=match.retired,
        forfeit=Match.Forfeit(match.forfeit),
        finished_at=match.finished_at,
        physical_dice=match.physical_dice,
        holland=match.holland,
        games=[
            GamePart(
                number=g.number,
                winner=g.winner,
                cube=g.cube,
                result=Game.Result(g.result),
                resigned=g.resigned,
            )
            for g in sorted(match.games.all(), key=lambda g: g.number)
        ],
        penalties=[_penalty_out(p) for p in match_penalties(match)],
        board_games=[
            BoardGamePart(
                number=b.number,
                started_at=b.started_at,
                imported=b.imported,
                pending=b.pending,
                actions=[
                    ActionPart(
                        act=Act(a.act),
                        player=a.player,
                        dice=_pair(a.die1, a.die2),
                        play=a.play,
                        resignation=a.resignation,
                        illegal=a.illegal,
                        at=a.at,
                        user=_username(a.user),
                    )
                    for a in sorted(b.actions.all(), key=lambda a: a.seq)
                ],
            )
            for b in sorted(match.board_games.all(), key=lambda b: b.number)
        ],
        disputes=[
            DisputePart(
                key=dispute_key[d.pk],
                opened_at=d.opened_at,
                opened_by=_username(d.opened_by),
                source=Dispute.Source(d.source),
                filename=d.filename,
                mat=d.mat,
                swapped=d.swapped,
                sheet_a=d.sheet(0),
                sheet_b=d.sheet(1),
                decision=Dispute.Decision(d.decision) if d.decision else "",
                corrected=d.corrected,
                decided_at=d.decided_at,
                decided_by=_username(d.decided_by),
            )
            for d in sorted(match.disputes.all(), key=lambda d: d.pk)
        ],
        arrivals=[_arrival_out(a) for a in sorted(match.arrivals.all(), key=lambda a: a.side)],
    )


def _penalty_out(penalty: Penalty) -> PenaltyPart:
    return PenaltyPart(
        before_game=penalty.before_game,
        side=penalty.side,
        points=penalty.points,
        reason=Penalty.Reason(penalty.reason),
        note=penalty.note,
        minutes_late=penalty.minutes_late,
        created_at=penalty.created_at,
        created_by=_username(penalty.created_by),
    )


def _arrival_out(arrival: Arrival) -> ArrivalPart:
    return ArrivalPart(
        side=arrival.side,
        called_at=arrival.called_at,
        arrived_at=arrival.arrived_at,
        minutes_late=arrival.minutes_late,
        points=arrival.points,
        state=Arrival.State(arrival.state),
        recorded_by=_username(arrival.recorded_by),
        decided_at=arrival.decided_at,
        decided_by=_username(arrival.decided_by),
    )


Refs = dict[tuple[type[Model], int], SubjectPart]  # (model, id) -> how the document names it


def _subject_refs(
    tournament: Tournament,
    entries: Iterable[Entry],
    matches: Iterable[Match],
    player_key: Keys,
    event_key: Keys,
    match_key: Keys,
) -> Refs:
    """(model, id) -> how the document names that object."""
    refs: Refs = {(Tournament, tournament.pk): SubjectPart(kind="tournament")}
    for pk, key in event_key.items():
        refs[(Event, pk)] = SubjectPart(kind="event", event=key)
    for entry in entries:
        refs[(Entry, entry.pk)] = SubjectPart(
            kind="entry", event=event_key[entry.event_id], player=player_key[entry.player_id]
        )
    for pk, key in player_key.items():
        refs[(Player, pk)] = SubjectPart(kind="player", player=key)
    for match in matches:
        key = match_key[match.pk]
        refs[(Match, match.pk)] = SubjectPart(kind="match", match=key)
        refs[(Place, match.place.pk)] = SubjectPart(kind="place", match=key)
        for game in match.games.all():
            refs[(Game, game.pk)] = SubjectPart(kind="game", match=key, number=game.number)
        for board in match.board_games.all():
            refs[(BoardGame, board.pk)] = SubjectPart(
                kind="board_game", match=key, number=board.number
            )
        for number, penalty in enumerate(match_penalties(match), 1):
            refs[(Penalty, penalty.pk)] = SubjectPart(kind="penalty", match=key, number=number)
        for arrival in match.arrivals.all():
            player = player_key[match.player_a_id if arrival.side == 0 else match.player_b_id]
            refs[(Arrival, arrival.pk)] = SubjectPart(kind="arrival", match=key, player=player)
    return refs


def _audit_out(
    tournament: Tournament, refs: Refs, match_key: Keys, dispute_key: Keys
) -> list[AuditPart]:
    """The trail: entries of the tournament, and those of its matches made before they had
    their place (a match is created, then placed)."""
    entries = (
        AuditEntry.objects.filter(Q(tournament_id=tournament.pk) | Q(match_id__in=list(match_key)))
        .select_related("user", "subject_type")
        .order_by("at", "id")
    )
    kinds = {model: kind for kind, model in SUBJECTS.items()}
    out = []
    for entry in entries:
        model = entry.subject_type.model_class()
        subject = refs.get((model, entry.subject_id)) if model is not None else None
        if subject is None:  # no longer there (a match never begun, removed), or not ours
            kind = kinds.get(model) if model is not None else None
            gone = kind or f"{entry.subject_type.app_label}.{entry.subject_type.model}"
            subject = SubjectPart(kind=gone, gone=True)
        params = dict(entry.params)
        if (
            entry.dispute_id is not None
            and entry.dispute_id in dispute_key
            and (params.get("dispute") == entry.dispute_id)
        ):
            params["dispute"] = dispute_key[entry.dispute_id]  # the dispute, not its id
        out.append(
            AuditPart(
                at=entry.at,
                code=entry.code,
                params=_sorted_json(params),
                before=_sorted_json(entry.before),
                after=_sorted_json(entry.after),
                # an imported entry names who its file said acted (None: the site itself)
                user=(entry.imported_username or None) if entry.imported else _username(entry.user),
                user_name=entry.user_name,
                subject=subject,
                match=match_key.get(entry.match_id) if entry.match_id else None,
                dispute=dispute_key.get(entry.dispute_id) if entry.dispute_id else None,
                tournament=entry.tournament_id == tournament.pk,
            )
        )
    return out
