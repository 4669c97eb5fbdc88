"""Models and derived facts turned into the plain values of :mod:`api.schemas`.

Everything derived comes from the site's own selectors (the score sheet from
matches.selectors.match_score_sheet, standings and placings from tournaments.queries),
so the API and the pages can never disagree.
"""

from __future__ import annotations

from typing import Any

from club.models import Player
from matches.models import Match
from matches.selectors import PenaltyRow, ScoreSheet, SheetRow, match_score_sheet
from tournaments.models import Entry, Event, RatingChange, Tournament

SIDES = ("a", "b")


def side(value: int | None) -> str | None:
    return None if value is None else SIDES[value]


def score(pair: tuple[int, int]) -> dict[str, int]:
    return {"a": pair[0], "b": pair[1]}


def player_ref(player: Player | None) -> dict[str, Any] | None:
    return None if player is None else {"id": player.pk, "name": player.name}


def player_out(player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club,
        "country": str(player.country),  # the ISO code ("" when not known)
        "rating": float(player.rating),
        "experience": player.experience,
    }


def game_out(row: SheetRow) -> dict[str, Any]:
    game = row.game
    return {
        "number": game.number,
        "winner": SIDES[game.winner],
        "cube": game.cube,
        "result": game.result,
        "resigned": game.resigned,
        "points": row.points,
        "crawford": row.crawford,
        "post_crawford": row.post_crawford,
        "score_before": score(row.score_before),
        "score_after": score(row.score_after),
    }


def penalty_out(row: PenaltyRow) -> dict[str, Any]:
    penalty = row.penalty
    return {
        "before_game": penalty.before_game,
        "side": SIDES[penalty.side],
        "points": row.points,
        "reason": penalty.reason,
        "score_before": score(row.score_before),
        "score_after": score(row.score_after),
    }


def match_out(match: Match, sheet: ScoreSheet | None = None) -> dict[str, Any]:
    """A match as lists show it: needs player_a, player_b, place__event, table and games
    loaded with it (see :func:`api.api.match_queryset`)."""
    sheet = sheet or match_score_sheet(match=match)
    place = getattr(match, "place", None)  # a match outside any tournament has none
    table = getattr(match, "table", None)
    return {
        "id": match.pk,
        "player_a": player_ref(match.player_a),
        "player_b": player_ref(match.player_b),
        "length": match.length,
        "date": match.date,
        "status": match.status,
        "score": score(sheet.score),
        "winner": side(sheet.winner),
        "retired": side(match.retired),
        "crawford_game": sheet.crawford_game,
        "finished_at": match.finished_at,
        "tournament": place.event.tournament_id if place else None,
        "event": place.event_id if place else None,
        "round": place.round if place else None,
        "round_stage": place.round_name.stage.value if place else None,
        "bracket_key": place.bracket_key if place else "",
        "table": table.number if table else None,
    }


def match_detail(match: Match) -> dict[str, Any]:
    sheet = match_score_sheet(match=match)
    return {
        **match_out(match, sheet),
        "holland": match.holland,
        "games": [game_out(row) for row in sheet.rows],
        "penalties": [penalty_out(line) for line in sheet.lines if isinstance(line, PenaltyRow)],
        "forfeit": match.forfeit or None,
    }


def tournament_out(tournament: Tournament, status: str) -> dict[str, Any]:
    """``status``: from tournaments.queries.progress.tournament_statuses, read for a page at
    once."""
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "date": tournament.date,
        "venue": tournament.venue,
        # counted by tournaments.selectors.tournament_list(), which every caller reads through
        "event_count": tournament.event_count,  # type: ignore[attr-defined]
        "status": status,
    }


def event_ref(event: Event) -> dict[str, Any]:
    return {"id": event.pk, "name": event.name, "format": event.format}


def entry_out(entry: Entry) -> dict[str, Any]:
    return {
        "player": player_ref(entry.player),
        "status": entry.status,
        "seed": entry.seed,
        "pool": entry.pool_name,
        "joined_round": entry.joined_round,
    }


def rating_change_out(change: RatingChange) -> dict[str, Any]:
    match = change.match
    mine = 0 if match.player_a_id == change.player_id else 1
    place = getattr(match, "place", None)
    return {
        "order": change.order,
        "match": match.pk,
        "date": match.date,
        "finished_at": match.finished_at,
        "opponent": player_ref(match.player(1 - mine)),
        "won": match_score_sheet(match=match).winner == mine,
        "rating_before": float(change.rating_before),
        "rating_after": float(change.rating_after),
        "change": float(change.change),
        "experience_after": change.experience_after,
        "tournament": place.event.tournament_id if place else None,
    }
