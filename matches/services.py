"""Writing matches: every change in one transaction, checked by rules, and audited.

A director's error message is the rules' own sentence with the rule at the end,
e.g. "Game 4 is the Crawford game: no doubling (WBF 24)."
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.errors import RulesError
from rules.match import GameResult, Outcome, check_match_length, checked_match, score_possible

from .models import AuditEntry, Game, Match


def length_checked(length: int) -> int:
    """An odd number of points (WBF 3), or the refusal in the director's language."""
    try:
        return check_match_length(length)
    except RulesError as error:
        raise ValidationError(plain(error)) from error


def match_create(
    *,
    player_a,
    player_b,
    length: int,
    date: datetime.date | None = None,
    event=None,
    round: int | None = None,
    bracket_key: str = "",
    pairing_reason: str = "",
    user=None,
) -> Match:
    """A match, on its own or in a place of a tournament's event (round, bracket key)."""
    if player_a == player_b:
        raise ValidationError(_("A match is played by two different players."))
    length_checked(length)
    if date is None and event is not None:
        date = event.tournament.date
    with transaction.atomic():
        match = Match.objects.create(
            player_a=player_a,
            player_b=player_b,
            length=length,
            event=event,
            round=round,
            bracket_key=bracket_key,
            pairing_reason=pairing_reason[:200],
            **({"date": date} if date else {}),
        )
        _audit(match, user, "match created", None, _match_facts(match))
    return match


def game_record(
    *,
    match: Match,
    number: int,
    winner: int,
    cube: int,
    result: str,
    resigned: int | None = None,
    user=None,
    board: bool = False,
    dispute=None,
) -> Game:
    """Record game ``number`` (the next one): refused if another was recorded meanwhile.

    ``board``: the game ended on the site's board, which records it; a game still
    being played there cannot be recorded by hand.
    """
    new = _game_result(winner, cube, result, resigned)
    try:
        with transaction.atomic():
            locked = Match.objects.select_for_update().get(pk=match.pk)
            games = list(locked.games.order_by("number"))
            if locked.status == Match.Status.WALKOVER:
                raise ValidationError(_("This match was a walkover: it has no games."))
            if locked.final_score_a is not None:
                raise ValidationError(
                    _("Only the final score of this match was recorded; correct that instead.")
                )
            if number != len(games) + 1:
                raise ValidationError(
                    _(
                        "Game %(number)s is already recorded (perhaps by another director just "
                        "now): the sheet below shows it. Record game %(next)s instead."
                    )
                    % {"number": number, "next": len(games) + 1}
                )
            if not board and locked.board_games.filter(number=number).exists():
                raise ValidationError(
                    _(
                        "Game %(number)s is being played on the site's board: it is recorded "
                        "there when it ends."
                    )
                    % {"number": number}
                )
            derived = _checked(locked, [g.as_result() for g in games] + [new])
            game = Game.objects.create(
                match=locked,
                number=number,
                winner=winner,
                cube=cube,
                result=result,
                resigned=resigned if result == Outcome.RESIGNATION.value else None,
            )
            _set_status(locked, derived.over)
            _audit(locked, user, "game recorded", None, _game_facts(game), dispute=dispute)
            _settled(locked, user)
    except IntegrityError as error:  # the unique (match, number) caught a simultaneous save
        raise ValidationError(
            _("Game %(number)s was just recorded by someone else: reload the sheet.")
            % {"number": number}
        ) from error
    return game


def game_correct(
    *,
    game: Game,
    winner: int,
    cube: int,
    result: str,
    resigned: int | None = None,
    user=None,
    dispute=None,
) -> Game:
    """Change a recorded game; the games after it are re-derived, and refused if now impossible."""
    new = _game_result(winner, cube, result, resigned)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=game.match_id)
        _correctable(locked)
        games = list(locked.games.order_by("number"))
        target = next(g for g in games if g.pk == game.pk)
        before = _game_facts(target)
        results = [new if g.pk == target.pk else g.as_result() for g in games]
        derived = _checked(locked, results)
        target.winner, target.cube, target.result = winner, cube, result
        target.resigned = resigned if result == Outcome.RESIGNATION.value else None
        target.save()
        _set_status(locked, derived.over)
        _audit(locked, user, "game corrected", before, _game_facts(target), dispute=dispute)
        _settled(locked, user, corrected=True)
    return target


def match_record_final_score(
    *, match: Match, score_a: int, score_b: int, user=None, dispute=None
) -> Match:
    """Only the final score is known: it must be one the rules can produce (WBF 3)."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.games.exists():
            raise ValidationError(
                _("This match has its games recorded: its score comes from them.")
            )
        score = (score_a, score_b)
        if not score_possible(locked.length, score) or max(score) != locked.length:
            raise ValidationError(
                _(
                    "%(a)s–%(b)s cannot be the final score of a %(length)s-point match: exactly "
                    "one player reaches %(length)s, and points beyond it do not count (WBF 3)."
                )
                % {"a": score_a, "b": score_b, "length": locked.length}
            )
        corrected = locked.final_score_a is not None
        if corrected:
            _correctable(locked)
        before = _match_facts(locked)
        locked.final_score_a, locked.final_score_b = score
        locked.save(update_fields=["final_score_a", "final_score_b"])
        _set_status(locked, True)
        _audit(locked, user, "final score recorded", before, _match_facts(locked), dispute=dispute)
        _settled(locked, user, corrected=corrected)
    return locked


def match_walkover(*, match: Match, winner: int, user=None) -> Match:
    """The opponent did not play: the match goes to ``winner`` without games."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.games.exists() or locked.final_score_a is not None:
            raise ValidationError(_("A match with a recorded result cannot become a walkover."))
        before = _match_facts(locked)
        locked.status = Match.Status.WALKOVER
        locked.walkover_winner = winner
        locked.save()
        _audit(locked, user, "walkover", before, _match_facts(locked))
        _settled(locked, user)
    return locked


# --- helpers ---------------------------------------------------------------------------


def _set_status(match: Match, over: bool) -> None:
    """Finished or in play; the moment it first finished orders the rating history."""
    match.status = Match.Status.FINISHED if over else Match.Status.IN_PLAY
    if over and match.finished_at is None:
        match.finished_at = timezone.now()
    elif not over:
        match.finished_at = None
    match.save(update_fields=["status", "finished_at"])


# A tournament builds on matches (next matches, ratings); matches call it after each result
# through these two functions, imported when called because tournaments imports this module.
def _correctable(match: Match) -> None:
    from tournaments.advancement import match_correction_check

    match_correction_check(match=match)


def _settled(match: Match, user, *, corrected: bool = False) -> None:
    from tournaments.advancement import match_result_changed

    match_result_changed(match=match, user=user, corrected=corrected)


def result_facts(result: GameResult) -> dict[str, object]:
    """A game's result as :func:`game_record` and :func:`game_correct` take it."""
    resigned = result.points // result.cube if result.outcome is Outcome.RESIGNATION else None
    return {
        "winner": result.winner,
        "cube": result.cube,
        "result": result.outcome.value,
        "resigned": resigned,
    }


def _game_result(winner: int, cube: int, result: str, resigned: int | None) -> GameResult:
    try:
        outcome = Outcome(result)
    except ValueError as error:
        raise ValidationError(_("Choose how the game ended.")) from error
    if winner not in (0, 1):
        raise ValidationError(_("Choose the winner."))
    if outcome is Outcome.RESIGNATION and resigned not in (1, 2, 3):
        raise ValidationError(_("Say what was resigned: a single game, a gammon or a backgammon."))
    level = resigned if outcome is Outcome.RESIGNATION else None
    try:
        return Game(winner=winner, cube=cube, result=result, resigned=level).as_result()
    except ValueError as error:  # e.g. a cube of 0: no game is worth nothing
        raise ValidationError(str(error)) from error


# The rules' refusals a director meets, in the site's languages (rules/ speaks English only).
RULES_MESSAGES = {
    "crawford-double": gettext_lazy("Game %(number)s is the Crawford game: no doubling (WBF 24)."),
    "match-over": gettext_lazy("The match is over: won %(a)s-%(b)s (WBF 3)."),
    "odd-length": gettext_lazy(
        "A match is played to an odd number of points, not %(length)s (WBF 3)."
    ),
}


def plain(error: RulesError) -> str:
    """A rules error as the director reads it, in their language when it is one we know."""
    template = RULES_MESSAGES.get(error.key or "")
    return str(template) % error.params if template is not None else error.plain


def _checked(match: Match, results: list[GameResult]):
    try:
        return checked_match(match.length, results)
    except RulesError as error:
        raise ValidationError(plain(error)) from error


def _game_facts(game: Game) -> dict[str, object]:
    return {
        "game": game.number,
        "winner": str(game.match.player(game.winner)),
        "cube": game.cube,
        "result": game.result,
        "points": game.points,
    }


def _match_facts(match: Match) -> dict[str, object]:
    return {
        "status": match.status,
        "final score": None
        if match.final_score_a is None
        else f"{match.final_score_a}-{match.final_score_b}",
        "walkover winner": None
        if match.walkover_winner is None
        else str(match.player(match.walkover_winner)),
    }


def _audit(match: Match, user, action: str, before, after, *, dispute=None) -> None:
    AuditEntry.objects.create(
        match=match,
        dispute=dispute,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        before=before,
        after=after,
    )
