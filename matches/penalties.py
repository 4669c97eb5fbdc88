"""Penalty points and forfeits (tournament rules): awarded, taken back, recorded.

A penalty is awarded to a player's opponent before the next game (for lateness, or by
a director's decision with the reason in words); a forfeit ends the match with the
opponent at the length (a flag fallen on a clock, or lateness reaching half the match).
Both go into the match's history (:mod:`matches.history`) and the rules derive the rest:
the score, the Crawford game, the winner. Every write goes through
:func:`matches.services.result_write` (the policy asked, the row locked, the version
compared, one audit entry) and tells the apps above when the result changed.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from club.actors import Actor
from rules.match import Forfeit, ForfeitReason, PenaltyReason
from rules.match import Penalty as RulesPenalty

from .history import entries_with_games, match_derived, match_entries, match_penalties
from .hooks import result_announce, result_correction_check
from .models import Match, Penalty
from .results import history_checked, result_facts_of
from .services import match_audit_record, match_status_set, result_write

MAX_PENALTY = 99  # no more points than the longest match the site keeps


def _game_on_board(match: Match) -> bool:
    """Whether a game of the match is being played on the board (rolled, not recorded)."""
    return (
        match.board_games.filter(actions__isnull=False)
        .exclude(number__in=match.games.values("number"))
        .exists()
    )


def _penalty_facts(match: Match, penalty: Penalty, score: tuple[int, int]) -> dict[str, object]:
    """A penalty as the audit keeps it: names, not ids; the score after it."""
    return {
        "name": match.player(penalty.side).name,
        "scorer": match.player(1 - penalty.side).name,
        "points": penalty.points,
        "reason": penalty.reason,
        "note": penalty.note,
        "minutes_late": penalty.minutes_late,
        "before_game": penalty.before_game,
        "score_a": score[0],
        "score_b": score[1],
    }


def match_penalty_award(
    *,
    match: Match,
    side: int,
    points: int,
    reason: str,
    note: str = "",
    minutes_late: int | None = None,
    user: Actor,
    version: int | None = None,
) -> Penalty:
    """Penalty points against player ``side``: the opponent scores ``points`` before the
    next game (tournament rules). Refused in words when the match is decided or a game of
    it is being played on the board. Points that bring the opponent to the length win the
    match: it is finished, its score derived, and the apps above are told.
    """
    if side not in (0, 1):
        raise ValidationError(_("Choose the player who is penalised."))
    if not isinstance(points, int) or not 1 <= points <= MAX_PENALTY:
        raise ValidationError(
            _("Penalty points are a whole number from 1 to %(most)s.") % {"most": MAX_PENALTY}
        )
    try:
        kind = PenaltyReason(reason)
    except ValueError as error:
        raise ValidationError(_("Choose the reason for the penalty.")) from error
    note = note.strip()
    if kind is PenaltyReason.DIRECTOR and not note:
        raise ValidationError(_("Say in words why the penalty is given."))
    with result_write(match, user=user, version=version) as locked:
        if locked.decided:
            raise ValidationError(
                _("This match's result is recorded: no penalty points can be given now.")
            )
        if _game_on_board(locked):
            raise ValidationError(
                _(
                    "A game of this match is being played on the site's board: penalty points "
                    "are given between games, once it has ended."
                )
            )
        games = list(locked.games.order_by("number"))
        penalty = Penalty(
            match=locked,
            before_game=len(games) + 1,
            side=side,
            points=points,
            reason=kind.value,
            note=note[:300],
            minutes_late=minutes_late if kind is PenaltyReason.LATENESS else None,
            created_by=user if isinstance(user, User) else None,  # a person, not the site
        )
        entries = [
            *entries_with_games(locked, [g.as_result() for g in games]),
            RulesPenalty(player=side, points=points, reason=kind),
        ]
        derived = history_checked(locked, entries)
        penalty.save()
        if derived.over:
            match_status_set(locked, True)
        match_audit_record(
            locked,
            user,
            "penalty.awarded",
            params=_penalty_facts(locked, penalty, derived.score),
            after=_penalty_facts(locked, penalty, derived.score),
            subject=penalty,
        )
        if derived.over:
            result_announce(match=locked, user=user)
    return penalty


def match_penalty_remove(*, penalty: Penalty, user: Actor, version: int | None = None) -> Match:
    """Take back penalty points given by mistake: a correction like any other (US rules
    4.10: refused once a later match of either player has begun), and refused when the
    games after it could no longer have been played so (the rules say which).
    """
    with result_write(penalty.match, user=user, version=version) as locked:
        current = locked.penalties.filter(pk=penalty.pk).first()
        if current is None:
            raise ValidationError(_("This penalty has already been taken back."))
        if locked.retired is not None:
            raise ValidationError(
                _(
                    "%(name)s retired or forfeited this match: take that back first, then "
                    "the penalty."
                )
                % {"name": locked.player(locked.retired).name}
            )
        was_over = locked.status == Match.Status.FINISHED and locked.final_score_a is None
        result_correction_check(match=locked)
        kept = [p for p in match_penalties(locked) if p.pk != current.pk]
        games = list(locked.games.order_by("number"))
        derived = history_checked(
            locked, entries_with_games(locked, [g.as_result() for g in games], penalties=kept)
        )
        facts = _penalty_facts(locked, current, _score_after(locked, current))
        current.delete()
        if locked.final_score_a is None and locked.status != Match.Status.WALKOVER:
            if derived.over:
                match_status_set(locked, True)
            elif was_over:  # the penalty had won it: the match goes on (or is to begin)
                begun = bool(games) or locked.board_games.filter(actions__isnull=False).exists()
                locked.status = Match.Status.IN_PLAY if begun else Match.Status.SCHEDULED
                locked.finished_at = None
                locked.save()
        match_audit_record(locked, user, "penalty.removed", params=facts, before=facts)
        if was_over or derived.over:
            result_announce(match=locked, user=user, corrected=True)
    return locked


def _score_after(match: Match, penalty: Penalty) -> tuple[int, int]:
    """The score just after this penalty, as the rules derive it."""
    index = next(i for i, p in enumerate(match_penalties(match)) if p.pk == penalty.pk)
    return match_derived(match).penalties[index].score_after


def match_forfeit(
    *,
    match: Match,
    side: int,
    reason: str,
    user: Actor,
    version: int | None = None,
    board: bool = False,
) -> Match:
    """Player ``side`` forfeits the match (tournament rules): on time, their flag fallen
    (``"time"``), or by lateness (``"lateness"``). Like a retirement: the games played stay,
    the opponent is put at the length, the loser keeps their score; taken back by
    :func:`matches.services.match_result_clear`.

    ``board``: the site's board records it, its flag fallen in the middle of a game (the
    board's service has checked who acts, and the game's log stays as it was).
    """
    if side not in (0, 1):
        raise ValidationError(_("Choose the player who forfeits."))
    try:
        kind = ForfeitReason(reason)
    except ValueError as error:
        raise ValidationError(_("Choose why the match is forfeited.")) from error
    with result_write(match, user=user, version=version, board=board) as locked:
        if locked.decided:
            raise ValidationError(
                _("This match's result is recorded: take it back first to record a forfeit.")
            )
        if not board and _game_on_board(locked):
            raise ValidationError(
                _(
                    "A game of this match is being played on the site's board: its clocks "
                    "end it there when a flag falls."
                )
            )
        if not board:
            locked.board_games.filter(actions__isnull=True).exclude(
                number__in=locked.games.values("number")
            ).delete()  # opened, never rolled
        entries = [*match_entries(locked), Forfeit(player=side, reason=kind)]
        derived = history_checked(locked, entries)
        locked.final_score_a, locked.final_score_b = derived.score
        locked.retired = side
        locked.forfeit = kind.value
        match_status_set(locked, True)
        match_audit_record(
            locked,
            user,
            "result.forfeit",
            params={
                "name": locked.player(side).name,
                "winner": locked.player(1 - side).name,
                "reason": kind.value,
                "score_a": derived.score[0],
                "score_b": derived.score[1],
            },
            after=result_facts_of(locked),
        )
        result_announce(match=locked, user=user)
    return locked
