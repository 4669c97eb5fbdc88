"""Writing matches: every change in one transaction, allowed by the policy, checked by the
rules, guarded by the match's version, and audited.

A director's error message is the rules' own sentence with the rule at the end,
e.g. "Game 4 is the Crawford game: no doubling (WBF 24)."

A result is one of three things: the games, only the final score, or a walkover.
Every write of a result goes through :func:`result_write`: the row locked, the
version the director saw compared, a correction refused once a later match has
begun (the tournaments app says so through :mod:`matches.hooks`), the version
bumped, the change audited and announced.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.actors import Actor
from club.audit import audit_record, audit_sentence
from club.models import AuditEntry, Player
from club.policy import can_change_match, can_create, match_scope, require
from club.words import sentence
from rules.errors import RulesError
from rules.match import Outcome, check_match_length, score_possible

from .hooks import result_announce, result_correction_check
from .models import Dispute, Game, Match, ResultReport
from .results import game_facts, game_result_of, games_checked, result_facts_of


class SheetChanged(ValidationError):
    """The match's result changed after the director opened the form: nothing was saved."""


MAX_LENGTH = 99  # the longest match the site's forms take (a 25-point final is long)


def length_checked(length: int) -> int:
    """An odd number of points (WBF 3) the site can keep, or the refusal in plain words."""
    try:
        checked = check_match_length(length)
    except RulesError as error:
        raise ValidationError(sentence(error)) from error
    if checked > MAX_LENGTH:
        raise ValidationError(
            _("A match is at most %(most)s points long, not %(length)s.")
            % {"most": MAX_LENGTH, "length": length}
        )
    return checked


def match_create(
    *,
    player_a: Player,
    player_b: Player,
    length: int,
    date: datetime.date | None = None,
    user: Actor,
    placed: bool = False,
    holland: bool = False,
) -> Match:
    """A match between two players.

    ``holland``: the match is played under the Holland rule (Galore 5.4), as the event it
    belongs to says; the board and the score sheet follow it.

    ``placed``: the tournaments app is creating the match for a place in one of its
    events, in its own transaction, has asked the policy whether ``user`` directs that
    tournament, and records the creation in the audit with the place (and the
    tournament); otherwise the user must be one who may create matches.
    """
    if not placed:
        require(can_create(user))
    if player_a == player_b:
        raise ValidationError(_("A match is played by two different players."))
    length_checked(length)
    with transaction.atomic():
        match = Match.objects.create(
            player_a=player_a,
            player_b=player_b,
            length=length,
            holland=holland,
            **({"date": date} if date else {}),
        )
        if not placed:
            match_audit_record(
                match,
                user,
                "match.created",
                params={"a": player_a.name, "b": player_b.name, "length": length},
            )
    return match


def match_audit_record(
    match: Match,
    user: Actor,
    code: str,
    *,
    params: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    subject: Any = None,
    dispute: Dispute | None = None,
) -> AuditEntry:
    """An audit entry about a match (or something of it: a game, a board, a dispute); it names
    the match's players, for the pages that list it among other matches' changes."""
    return audit_record(
        user=user,
        code=code,
        subject=subject if subject is not None else match,
        params={"match": f"{match.player_a.name} – {match.player_b.name}", **(params or {})},
        before=before,
        after=after,
        match_id=match.pk,
        tournament_id=match_scope(match).tournament_id,
        dispute_id=dispute.pk if dispute is not None else None,
    )


# --- results ------------------------------------------------------------------------------


@contextmanager
def result_write(
    match: Match,
    *,
    user: Actor,
    version: int | None,
    board: bool = False,
    report: ResultReport | None = None,
) -> Iterator[Match]:
    """The one way a result is written: see the module's docstring. Yields the locked row;
    the caller changes it, then this bumps the version (the caller audits and announces).

    ``version``: the match's version the page was drawn from, compared. Every page sends
    one (its form requires it: :class:`matches.forms.VersionField`); None is for a caller
    with no page, which writes what it sees: the site itself (a withdrawal's walkovers), a
    command, a dispute's decision or a report's confirmation holding their own rows.

    A player's report still waiting becomes void: the result was written another way.
    """
    if not board and report is None:
        require(can_change_match(user, match))
    with transaction.atomic():
        # NO KEY UPDATE: the row changes, never its key, so the rating history's rows that
        # refer to this match (FOR KEY SHARE) are written meanwhile by another result's
        # re-derivation instead of the two waiting on each other (PostgreSQL)
        locked = (
            Match.objects.select_for_update(of=("self",), no_key=True)
            .select_related("player_a", "player_b")
            .get(pk=match.pk)
        )
        if version is not None and version != locked.version:
            raise SheetChanged(_changed_message(locked))
        yield locked
        Match.objects.filter(pk=locked.pk).update(version=locked.version + 1)
        locked.version += 1
        _reports_void(locked, user)
    match.version = locked.version  # the caller's copy, for a form drawn after the change


def _reports_void(match: Match, user: Actor) -> None:
    """The match's waiting report, if any, is void: its result was written another way."""
    waiting = ResultReport.objects.select_for_update().filter(
        match=match, status=ResultReport.Status.PENDING
    )
    for report in waiting:
        report.status = ResultReport.Status.VOID
        report.answered_at = timezone.now()
        report.answered_by = user if isinstance(user, User) else None  # a person, not the site
        report.save(update_fields=["status", "answered_at", "answered_by"])
        match_audit_record(
            match,
            user,
            "report.void",
            params={"name": match.player(report.side).name},
            subject=report,
        )


def _changed_message(match: Match) -> str:
    latest = AuditEntry.objects.filter(match_id=match.pk).order_by("-at", "-id").first()
    change = audit_sentence(latest) if latest is not None else ""
    return _(
        "The score sheet changed after you opened it: %(change)s Nothing you sent was saved; "
        "here is the sheet as it is now."
    ) % {"change": change}


def game_record(
    *,
    match: Match,
    number: int,
    winner: int,
    cube: int,
    result: str,
    resigned: int | None = None,
    user: Actor,
    board: bool = False,
    dispute: Dispute | None = None,
    report: ResultReport | None = None,
) -> Game:
    """Record game ``number`` (the next one): refused if another was recorded meanwhile.

    ``cube``: what the game was played for; for a dropped double, the cube before the
    double, which is what the winner scores (WBF 23). The form asks for the value offered
    and halves it (:mod:`matches.endings`); the rules check the points against it.

    ``board``: the game ended on the site's board, whose service has checked that
    ``user`` acts for the side that ended it; it records the game, and a game still
    being played there cannot be recorded by hand.

    ``report``: a player's report that ``user`` confirmed (:mod:`matches.reports` has asked
    the policy); the audit says who reported it.
    """
    new = game_result_of(winner, cube, result, resigned)
    try:
        with result_write(match, user=user, version=None, board=board, report=report) as locked:
            games = list(locked.games.order_by("number"))
            if locked.status == Match.Status.WALKOVER:
                raise ValidationError(_("This match was a walkover: it has no games."))
            if locked.retired is not None:
                raise ValidationError(_retired_message(locked))
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
            derived = games_checked(locked, [g.as_result() for g in games] + [new])
            game = Game.objects.create(
                match=locked,
                number=number,
                winner=winner,
                cube=cube,
                result=result,
                resigned=resigned if result == Outcome.RESIGNATION.value else None,
            )
            match_status_set(locked, derived.over)
            facts = game_facts(game, derived)
            match_audit_record(
                locked,
                user,
                "game.recorded",
                params={"number": number, **_reported_by(locked, report)},
                after=facts,
                subject=game,
                dispute=dispute,
            )
            result_announce(match=locked, user=user)
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
    user: Actor,
    version: int | None = None,
    dispute: Dispute | None = None,
) -> Game:
    """Change a recorded game; the games after it are re-derived, and refused if now impossible.

    ``version``: the match's version the director's form was drawn from (None: the caller
    holds the row already, as a dispute's decision does).
    """
    new = game_result_of(winner, cube, result, resigned)
    with result_write(game.match, user=user, version=version) as locked:
        if locked.retired is not None:
            raise ValidationError(_retired_message(locked))
        result_correction_check(match=locked)
        games = list(locked.games.order_by("number"))
        target = next(g for g in games if g.pk == game.pk)
        before = game_facts(target, games_checked(locked, [g.as_result() for g in games]))
        results = [new if g.pk == target.pk else g.as_result() for g in games]
        derived = games_checked(locked, results)
        target.winner, target.cube, target.result = winner, cube, result
        target.resigned = resigned if result == Outcome.RESIGNATION.value else None
        target.save()
        match_status_set(locked, derived.over)
        match_audit_record(
            locked,
            user,
            "game.corrected",
            params={"number": target.number},
            before=before,
            after=game_facts(target, derived),
            subject=target,
            dispute=dispute,
        )
        result_announce(match=locked, user=user, corrected=True)
    return target


def match_record_final_score(
    *,
    match: Match,
    score_a: int,
    score_b: int,
    user: Actor,
    version: int | None = None,
    dispute: Dispute | None = None,
    report: ResultReport | None = None,
) -> Match:
    """Only the final score is known: it must be one the rules can produce (WBF 3).

    A final score put on a match that already has one, or that was a walkover, is a
    correction: refused once a later match has begun (US rules 4.10). ``report``: as for
    :func:`game_record`.
    """
    with result_write(match, user=user, version=version, report=report) as locked:
        if locked.games.exists():
            raise ValidationError(
                _("This match has its games recorded: its score comes from them.")
            )
        if locked.board_games.filter(actions__isnull=False).exists():
            raise ValidationError(
                _("A game of this match is being played on the site's board: finish it there.")
            )
        locked.board_games.all().delete()  # opened, never rolled: not a beginning
        score = final_score_checked(locked, score_a, score_b)
        corrected = locked.decided
        if corrected:
            result_correction_check(match=locked)
        before = result_facts_of(locked)
        locked.final_score_a, locked.final_score_b = score
        locked.walkover_winner = None
        match_status_set(locked, True)
        match_audit_record(
            locked,
            user,
            "result.final_score",
            params={"score_a": score_a, "score_b": score_b, **_reported_by(locked, report)},
            before=before if corrected else None,
            after=result_facts_of(locked),
            dispute=dispute,
        )
        result_announce(match=locked, user=user, corrected=corrected)
    return locked


def match_walkover(*, match: Match, winner: int, user: Actor, version: int | None = None) -> Match:
    """The opponent did not play: the match goes to ``winner`` without games.

    Recording it again with the other winner, or over a final score, is a correction
    (US rules 4.10); a match with games or a game on the board cannot become one.
    """
    if winner is None or winner not in (0, 1):
        raise ValidationError(_("Choose the winner."))
    with result_write(match, user=user, version=version) as locked:
        if locked.games.exists() or locked.board_games.filter(actions__isnull=False).exists():
            raise ValidationError(
                _("This match has been played (its games are recorded): it cannot be a walkover.")
            )
        locked.board_games.all().delete()  # opened, never rolled: not a beginning
        if locked.status == Match.Status.WALKOVER and locked.walkover_winner == winner:
            raise ValidationError(
                _("This walkover to %(name)s is already recorded.")
                % {"name": locked.player(winner).name}
            )
        corrected = locked.decided
        if corrected:
            result_correction_check(match=locked)
        before = result_facts_of(locked)
        locked.final_score_a = locked.final_score_b = None
        locked.status = Match.Status.WALKOVER
        locked.walkover_winner = winner
        locked.finished_at = None
        locked.save()
        match_audit_record(
            locked,
            user,
            "result.walkover",
            params={"winner": locked.player(winner).name},
            before=before if corrected else None,
            after=result_facts_of(locked),
        )
        result_announce(match=locked, user=user, corrected=corrected)
    return locked


def match_retire(*, match: Match, side: int, user: Actor, version: int | None = None) -> Match:
    """Player ``side`` retired: the opponent wins the match (a retirement loses the match).

    The games played stay on the sheet; the final score is written as the opponent at the
    match length and the retiring player at the score they had, so the sheet, the bracket
    and the ratings read it as any finished match. Taken back like a final score (US rules
    4.10: refused once a later match has begun), the match goes on from its games.
    """
    if side not in (0, 1):
        raise ValidationError(_("Choose the player who retired."))
    with result_write(match, user=user, version=version) as locked:
        if locked.decided:
            raise ValidationError(
                _("This match's result is recorded: take it back first to record a retirement.")
            )
        in_play = locked.board_games.filter(actions__isnull=False).exclude(
            number__in=locked.games.values("number")
        )
        if in_play.exists():
            raise ValidationError(
                _(
                    "A game of this match is being played on the site's board: end it there "
                    "(the player may resign it), then record the retirement."
                )
            )
        locked.board_games.filter(actions__isnull=True).exclude(
            number__in=locked.games.values("number")
        ).delete()  # opened, never rolled
        games = list(locked.games.order_by("number"))
        derived = games_checked(locked, [g.as_result() for g in games])
        score = list(derived.score)
        score[1 - side] = locked.length
        locked.final_score_a, locked.final_score_b = score
        locked.retired = side
        match_status_set(locked, True)
        match_audit_record(
            locked,
            user,
            "result.retired",
            params={
                "name": locked.player(side).name,
                "winner": locked.player(1 - side).name,
                "score_a": score[0],
                "score_b": score[1],
            },
            after=result_facts_of(locked),
        )
        result_announce(match=locked, user=user)
    return locked


def final_score_checked(match: Match, score_a: int, score_b: int) -> tuple[int, int]:
    """A final score the rules can produce for this match (WBF 3), or the refusal in words."""
    score = (score_a, score_b)
    if not score_possible(match.length, score) or max(score) != match.length:
        raise ValidationError(
            _(
                "%(a)s–%(b)s cannot be the final score of a %(length)s-point match: exactly "
                "one player reaches %(length)s, and points beyond it do not count (WBF 3)."
            )
            % {"a": score_a, "b": score_b, "length": match.length}
        )
    return score


def _reported_by(match: Match, report: ResultReport | None) -> dict[str, str]:
    """The audit's words for a result a player reported: who reported it."""
    return {} if report is None else {"reported_by": match.player(report.side).name}


def _retired_message(match: Match) -> str:
    return _("%(name)s retired from this match: take it back to record or correct its games.") % {
        "name": match.player(match.retired or 0).name
    }


def match_result_clear(*, match: Match, user: Actor, version: int | None = None) -> Match:
    """Take back a final score, a walkover, a retirement or a forfeit: the match is to be
    played (or recorded) again, from its games and penalty points if it has any.

    A correction like any other (US rules 4.10: refused once a later match has begun); the
    tournaments app takes the winner back out of the match they had moved on to.
    """
    with result_write(match, user=user, version=version) as locked:
        played = locked.games.exists()
        if played and locked.retired is None:
            raise ValidationError(
                _("This match has its games recorded: correct them one by one instead.")
            )
        if not locked.decided:
            raise ValidationError(_("This match has no result to take back."))
        if locked.status == Match.Status.FINISHED and locked.final_score_a is None:
            raise ValidationError(
                _("Penalty points won this match: take back the penalty on its line instead.")
            )
        result_correction_check(match=locked)
        before = result_facts_of(locked)
        locked.final_score_a = locked.final_score_b = None
        locked.walkover_winner = None
        locked.retired = None
        locked.forfeit = Match.Forfeit.NONE
        locked.status = (
            Match.Status.IN_PLAY if played or _rolled(locked) else Match.Status.SCHEDULED
        )
        locked.finished_at = None
        locked.save()
        match_audit_record(locked, user, "result.cleared", before=before)
        result_announce(match=locked, user=user, corrected=True)
    return locked


def match_players_change(
    *, match: Match, player_a: Player, player_b: Player, user: Actor, placed: bool = False
) -> Match:
    """Who plays a match not yet begun (a corrected result sends someone else into it).

    ``placed``: as for :func:`match_create`. A walkover recorded for it is undone: the
    match waits for its new players.
    """
    if not placed:
        require(can_change_match(user, match))
    with transaction.atomic():
        locked = (
            Match.objects.select_for_update(of=("self",))
            .select_related("player_a", "player_b")
            .get(pk=match.pk)
        )
        _unbegun(locked)
        before = {"a": locked.player_a.name, "b": locked.player_b.name, **result_facts_of(locked)}
        locked.player_a, locked.player_b = player_a, player_b
        locked.status, locked.walkover_winner = Match.Status.SCHEDULED, None
        locked.version += 1
        locked.save()
        match_audit_record(
            locked,
            user,
            "match.players",
            params={"a": player_a.name, "b": player_b.name},
            before=before,
            after={"a": player_a.name, "b": player_b.name},
        )
    return locked


def match_length_change(*, match: Match, length: int, user: Actor, placed: bool = False) -> Match:
    """How long a match not yet begun is played (its event's lengths changed).

    ``placed``: as for :func:`match_create`."""
    if not placed:
        require(can_change_match(user, match))
    length_checked(length)
    with transaction.atomic():
        locked = (
            Match.objects.select_for_update(of=("self",))
            .select_related("player_a", "player_b")
            .get(pk=match.pk)
        )
        if locked.length == length:
            return locked
        _unbegun(locked)
        before = locked.length
        locked.length = length
        locked.version += 1
        locked.save(update_fields=["length", "version"])
        match_audit_record(
            locked,
            user,
            "match.length",
            params={"length": length},
            before={"length": before},
            after={"length": length},
        )
    return locked


def match_delete(*, match: Match, user: Actor, placed: bool = False) -> None:
    """Remove a match nobody has begun (a reset final no longer needed); its audit stays."""
    if not placed:
        require(can_change_match(user, match))
    with transaction.atomic():
        locked = (
            Match.objects.select_for_update(of=("self",))
            .select_related("player_a", "player_b")
            .get(pk=match.pk)
        )
        _unbegun(locked)
        match_audit_record(
            locked,
            user,
            "match.deleted",
            params={"a": locked.player_a.name, "b": locked.player_b.name},
        )
        locked.delete()


def _rolled(match: Match) -> bool:
    """Whether a game of the match was begun on the board (its first roll)."""
    return match.board_games.filter(actions__isnull=False).exists()


def _unbegun(match: Match) -> None:
    """Refuse a match that has begun (its first roll, or a recorded game) or whose players
    have penalty points (they belong to these players); a board opened without a roll is
    not a beginning, and is cleared away."""
    begun = match.status in (Match.Status.IN_PLAY, Match.Status.FINISHED)
    if begun or _rolled(match) or match.games.exists() or match.penalties.exists():
        raise ValidationError(
            _("This result can no longer be corrected: %(later)s has begun (US rules 4.10).")
            % {"later": str(match)}
        )
    match.board_games.all().delete()


def match_dice_allow(*, match: Match, allowed: bool, user: Actor) -> Match:
    """Let the players enter dice rolled at the table on the board (or take it back)."""
    require(can_change_match(user, match))
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.physical_dice == allowed:
            return locked
        locked.physical_dice = allowed
        locked.save(update_fields=["physical_dice"])
        match_audit_record(locked, user, "dice.allowed", params={"allowed": allowed})
    return locked


# --- helpers ---------------------------------------------------------------------------


def match_status_set(match: Match, over: bool) -> None:
    """Finished or in play; the moment it first finished orders the rating history."""
    match.status = Match.Status.FINISHED if over else Match.Status.IN_PLAY
    if over and match.finished_at is None:
        match.finished_at = timezone.now()
    elif not over:
        match.finished_at = None
    match.save()


def match_begin(*, match: Match) -> None:
    """A match has begun at its first roll or its first recorded game (US rules 4.10 counts
    from here): the board's opening roll calls this, in its transaction."""
    Match.objects.filter(pk=match.pk, status=Match.Status.SCHEDULED).update(
        status=Match.Status.IN_PLAY
    )
