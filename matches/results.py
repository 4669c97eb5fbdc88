"""A game's result in the three shapes it takes: as a form gives it (winner, cube, how it
ended), as the rules check it (:class:`rules.match.GameResult`, scored with the Crawford
game and the cap), and as the audit keeps it (facts with names, not ids). Pure functions:
the services write, these only translate.
"""

from __future__ import annotations

from typing import TypedDict

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from club.words import sentence
from rules.errors import RulesError
from rules.match import Entry, GameResult, Outcome, checked_match
from rules.match import Match as RulesMatch

from .history import entries_with_games
from .models import Game, Match


class ResultFacts(TypedDict):
    """A game's result as the services take it (see :func:`result_facts`)."""

    winner: int
    cube: int
    result: str
    resigned: int | None


def result_facts(result: GameResult) -> ResultFacts:
    """A game's result as :func:`game_record` and :func:`game_correct` take it."""
    resigned = result.points // result.cube if result.outcome is Outcome.RESIGNATION else None
    return {
        "winner": result.winner,
        "cube": result.cube,
        "result": result.outcome.value,
        "resigned": resigned,
    }


def game_result_of(winner: int | None, cube: int, result: str, resigned: int | None) -> GameResult:
    """A game's result as a form gives it (winner, cube, how it ended), or the refusal."""
    try:
        outcome = Outcome(result)
    except ValueError as error:
        raise ValidationError(_("Choose how the game ended.")) from error
    if winner is None or winner not in (0, 1):
        raise ValidationError(_("Choose the winner."))
    if outcome is Outcome.RESIGNATION and resigned not in (1, 2, 3):
        raise ValidationError(_("Say what was resigned: a single game, a gammon or a backgammon."))
    level = resigned if outcome is Outcome.RESIGNATION else None
    try:
        return Game(winner=winner, cube=cube, result=result, resigned=level).as_result()
    except ValueError as error:  # e.g. a cube of 0: no game is worth nothing
        raise ValidationError(str(error)) from error


def games_checked(match: Match, results: list[GameResult]) -> RulesMatch:
    """The match scored from these games (1, 2, …) and the penalty points awarded between
    them (:mod:`matches.history`) by the rules, or the rules' refusal in words
    ("Game 4 is the Crawford game: no doubling (WBF 24).")."""
    return history_checked(match, entries_with_games(match, results))


def history_checked(match: Match, entries: list[Entry]) -> RulesMatch:
    """The match scored from this history (games, penalties, a forfeit) by the rules, or the
    rules' refusal in words."""
    try:
        return checked_match(match.length, entries, holland=match.holland)
    except RulesError as error:
        raise ValidationError(sentence(error)) from error


def game_facts(game: Game, derived: RulesMatch) -> dict[str, object]:
    """A game as the audit keeps it: the points are those that counted (after the match cap)."""
    scored = derived.games[game.number - 1]
    return {
        "number": game.number,
        "winner": game.match.player(game.winner).name,
        "outcome": game.result,
        "resigned": game.resigned,
        "cube": game.cube,
        "points": scored.points,
    }


def result_facts_of(match: Match) -> dict[str, object]:
    """A match's result that is not its games: a final score, a walkover, a retirement, a
    forfeit (on time or by lateness), or none yet."""
    if match.forfeit and match.retired is not None and match.final_score_a is not None:
        return {
            "forfeit": match.forfeit,
            "retired": match.player(match.retired).name,
            "score_a": match.final_score_a,
            "score_b": match.final_score_b,
        }
    if match.retired is not None and match.final_score_a is not None:
        return {
            "retired": match.player(match.retired).name,
            "score_a": match.final_score_a,
            "score_b": match.final_score_b,
        }
    if match.status == Match.Status.WALKOVER and match.walkover_winner is not None:
        return {"walkover": match.player(match.walkover_winner).name}
    if match.final_score_a is not None:
        return {"score_a": match.final_score_a, "score_b": match.final_score_b}
    return {}
