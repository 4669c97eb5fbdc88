"""Results reported by the players from their phones, and confirmed by the opponent.

A report is a claim (:class:`matches.models.ResultReport`), not yet the match's result: the
next games, game by game (each checked by the rules as a director's entry is, the Crawford
rule and the match length included), or only the final score. The opponent confirms it, and
it is recorded through the very services a director's entry uses (so the bracket moves on and
ratings follow through the usual hooks), the audit naming who reported it and who confirmed
it; or disputes it, and a dispute opens for the director with both claims as its two score
sheets. The reporter may withdraw a report still waiting; a director may enter or correct the
result at any time, and a report still waiting then becomes void (see
:func:`matches.services.result_write`).

A match being played on the site's board needs no report: its games are recorded there.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from club.actors import Actor
from club.policy import (
    can_answer_report,
    can_change_match,
    can_report_result,
    player_side,
    require,
)
from rules.match import score_possible

from .disputes import dispute_open
from .models import Match, ResultReport
from .notify import player_notify
from .places import match_place
from .results import game_result_of, games_checked
from .services import final_score_checked, game_record, match_audit_record, match_record_final_score


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("player_a", "player_b")
        .get(pk=match.pk)
    )


def _on_the_board(match: Match) -> bool:
    """A game of the match is open on the site's board and not yet on the sheet."""
    recorded = match.games.values("number")
    return match.board_games.exclude(number__in=recorded).exists()


def report_claimed_score(report: ResultReport) -> tuple[int, int]:
    """The match's score if the report is right: its final score, or the score after its
    games (the games recorded before it, then its own)."""
    if report.kind == ResultReport.Kind.FINAL:
        # a report of the final score has both (the table's constraint)
        assert report.score_a is not None and report.score_b is not None
        return (report.score_a, report.score_b)
    match = report.match
    assert report.first_game is not None  # a report of games names its first (a constraint)
    recorded = [g.as_result() for g in match.games.order_by("number")[: report.first_game - 1]]
    return games_checked(match, recorded + report.game_results()).score


def report_make(
    *,
    match: Match,
    user: Actor,
    number: int | None = None,
    winner: int | None = None,
    cube: int = 1,
    result: str = "",
    resigned: int | None = None,
    score_a: int | None = None,
    score_b: int | None = None,
) -> ResultReport:
    """A player reports game ``number`` (winner, cube, how it ended), or only the final score
    (``score_a``, ``score_b``). A game reported while the player's own report of earlier games
    still waits is added to it; the opponent confirms them together."""
    side = player_side(user, match)
    if side is not None and match.decided:  # a player told so in words, not a bare refusal
        raise ValidationError(_("The result of this match is recorded already."))
    require(can_report_result(user, match))
    # can_report_result: a player of the match, signed in
    assert side is not None and isinstance(user, User)
    final = score_a is not None or score_b is not None
    detail = match_place(match).report_detail
    if final and detail == "games":
        raise ValidationError(_("In this tournament the players report game by game."))
    if not final and detail == "final":
        raise ValidationError(_("In this tournament the players report only the final score."))
    if final and (score_a is None or score_b is None):
        raise ValidationError(_("Enter both players' points."))
    new = None if final else game_result_of(winner, cube, result, resigned)
    try:
        with transaction.atomic():
            locked = _locked(match)
            if locked.decided:
                raise ValidationError(_("The result of this match is recorded already."))
            if _on_the_board(locked):
                raise ValidationError(
                    _(
                        "This match is being played on the site's board: its games are "
                        "recorded there, so it needs no report."
                    )
                )
            waiting = (
                ResultReport.objects.select_for_update().filter(
                    match=locked, status=ResultReport.Status.PENDING
                )
            ).first()
            if waiting is not None and waiting.side != side:
                raise ValidationError(
                    _(
                        "%(name)s's report of this match is waiting for your answer: confirm "
                        "or dispute it first."
                    )
                    % {"name": locked.player(waiting.side).name}
                )
            if waiting is not None and (final or waiting.kind == ResultReport.Kind.FINAL):
                raise ValidationError(
                    _(
                        "Your report is waiting for %(name)s's confirmation: withdraw it "
                        "first to report another way."
                    )
                    % {"name": locked.player(1 - side).name}
                )
            recorded = list(locked.games.order_by("number"))
            if final:
                if recorded:
                    raise ValidationError(
                        _("This match has its games recorded: its score comes from them.")
                    )
                assert score_a is not None and score_b is not None  # both, checked above
                final_score_checked(locked, score_a, score_b)
                report = ResultReport.objects.create(
                    match=locked,
                    side=side,
                    reported_by=user,
                    kind=ResultReport.Kind.FINAL,
                    score_a=score_a,
                    score_b=score_b,
                    match_version=locked.version,
                )
                facts: dict[str, object] = {"score_a": score_a, "score_b": score_b}
            else:
                claimed = waiting.game_results() if waiting is not None else []
                expected = len(recorded) + len(claimed) + 1
                if number != expected:
                    raise ValidationError(
                        _(
                            "Game %(number)s is already recorded or reported: the page below "
                            "shows it. Report game %(next)s instead."
                        )
                        % {"number": number, "next": expected}
                    )
                assert new is not None and winner is not None  # a game: checked above
                games_checked(locked, [g.as_result() for g in recorded] + claimed + [new])
                game: dict[str, str | int | None] = {
                    "winner": winner,
                    "cube": cube,
                    "result": result,
                    "resigned": resigned,
                }
                if waiting is None:
                    report = ResultReport.objects.create(
                        match=locked,
                        side=side,
                        reported_by=user,
                        kind=ResultReport.Kind.GAMES,
                        first_game=number,
                        games=[game],
                        match_version=locked.version,
                    )
                else:
                    report = waiting
                    report.games = [*report.games, game]
                    report.changed_at = timezone.now()
                    report.version += 1
                    report.save(update_fields=["games", "changed_at", "version"])
                facts = {"number": number, **game, "winner": locked.player(winner).name}
            match_audit_record(
                locked,
                user,
                "report.made",
                params={"name": locked.player(side).name},
                after=facts,
                subject=report,
            )
            if waiting is None:
                opponent = locked.player(1 - side)
                player_notify(
                    player=opponent,
                    subject=gettext_noop("%(name)s reported the result of your match"),
                    template="emails/report_waiting.txt",
                    context={
                        "name": locked.player(side).name,
                        "match": f"{locked.player_a.name} – {locked.player_b.name}",
                        "minutes": match_place(locked).confirm_minutes,
                    },
                    path=report.get_absolute_url(),
                )
    except IntegrityError as error:  # one report waits at a time: another arrived first
        raise ValidationError(
            _("Another report of this match arrived just now: reload the page.")
        ) from error
    return report


def _waiting(report: ResultReport, version: int | None) -> ResultReport:
    """The report, locked, still waiting and as the player saw it (``version``; None: the
    reporter's own, withdrawn as it is); or the refusal in words."""
    locked = (
        ResultReport.objects.select_for_update(of=("self",))
        .select_related("match__player_a", "match__player_b")
        .get(pk=report.pk)
    )
    name = locked.reporter.name
    refusals: dict[str, str] = {
        ResultReport.Status.CONFIRMED: _("This report is confirmed already."),
        ResultReport.Status.DISPUTED: _("This report is disputed: the director decides."),
        ResultReport.Status.WITHDRAWN: _("%(name)s withdrew this report.") % {"name": name},
        ResultReport.Status.VOID: _(
            "This report is void: a director entered the result of the match."
        ),
    }
    if locked.status in refusals:
        raise ValidationError(refusals[locked.status])
    if version is not None and version != locked.version:
        raise ValidationError(
            _(
                "%(name)s added a game to this report after you opened it: nothing was "
                "saved; here it is as it is now."
            )
            % {"name": name}
        )
    return locked


def report_confirm(*, report: ResultReport, user: Actor, version: int) -> Match:
    """The opponent (or a director of the match) confirms: the claim becomes the result,
    through the services a director's entry uses.

    ``version``: the report's version the page showed; required, so a game the reporter
    added meanwhile is never confirmed unseen (issue 23.7)."""
    match = report.match
    require(can_answer_report(user, match, report.side) or can_change_match(user, match))
    with transaction.atomic():
        locked = _waiting(report, version)
        fresh = _locked(match)
        first = locked.first_game or 0  # a report of games names its first; of a score, none
        if fresh.version != locked.match_version or (
            locked.kind == ResultReport.Kind.GAMES and fresh.games.count() != first - 1
        ):
            raise ValidationError(
                _(
                    "The match's result changed after this report was made: it can no longer "
                    "be confirmed. Report the result again."
                )
            )
        locked.status = ResultReport.Status.CONFIRMED
        locked.answered_at = timezone.now()
        locked.answered_by = user if isinstance(user, User) else None  # a person, not the site
        locked.save(update_fields=["status", "answered_at", "answered_by"])
        if locked.kind == ResultReport.Kind.FINAL:
            # a report of the final score has both (the table's constraint)
            assert locked.score_a is not None and locked.score_b is not None
            match_record_final_score(
                match=fresh,
                score_a=locked.score_a,
                score_b=locked.score_b,
                user=user,
                report=locked,
            )
        else:
            for offset, game in enumerate(locked.games):
                game_record(
                    match=Match.objects.get(pk=fresh.pk),
                    number=first + offset,
                    user=user,
                    report=locked,
                    **game,
                )
    return Match.objects.get(pk=match.pk)


def report_dispute(
    *,
    report: ResultReport,
    user: Actor,
    version: int,
    score_a: int | None = None,
    score_b: int | None = None,
) -> ResultReport:
    """The opponent disagrees: a dispute opens for the director, the report's score and the
    opponent's own (if they give it) as the two players' score sheets. ``version``: as for
    :func:`report_confirm`."""
    match = report.match
    require(can_answer_report(user, match, report.side))
    assert isinstance(user, User)  # can_answer_report: a player of the match, signed in
    if (score_a is None) != (score_b is None):
        raise ValidationError(_("Enter both numbers of your score, or neither."))
    own = None if score_a is None or score_b is None else (score_a, score_b)
    if own is not None and not score_possible(match.length, own):
        raise ValidationError(
            _(
                "%(a)s–%(b)s is not a score of a %(length)s-point match: neither player passes "
                "%(length)s points, and only one reaches it."
            )
            % {"a": score_a, "b": score_b, "length": match.length}
        )
    with transaction.atomic():
        locked = _waiting(report, version)
        claimed = report_claimed_score(locked)
        sheets: list[tuple[int, int] | None] = [None, None]
        sheets[locked.side] = claimed
        sheets[1 - locked.side] = own
        dispute = dispute_open(match=locked.match, user=user, report=locked, sheets=sheets)
        locked.status = ResultReport.Status.DISPUTED
        locked.dispute = dispute
        locked.answered_at = timezone.now()
        locked.answered_by = user
        locked.save(update_fields=["status", "dispute", "answered_at", "answered_by"])
        match_audit_record(
            locked.match,
            user,
            "report.disputed",
            params={"name": locked.reporter.name, "by": locked.opponent.name},
            after={"claimed": list(claimed), "own": list(own) if own else None},
            subject=locked,
            dispute=dispute,
        )
    return locked


def report_withdraw(*, report: ResultReport, user: Actor) -> ResultReport:
    """The reporter takes back a report still waiting for the opponent."""
    require(player_side(user, report.match) == report.side)
    assert isinstance(user, User)  # player_side: a player of the match, signed in
    with transaction.atomic():
        locked = _waiting(report, None)
        locked.status = ResultReport.Status.WITHDRAWN
        locked.answered_at = timezone.now()
        locked.answered_by = user
        locked.save(update_fields=["status", "answered_at", "answered_by"])
        match_audit_record(
            locked.match,
            user,
            "report.withdrawn",
            params={"name": locked.reporter.name},
            subject=locked,
        )
    return locked
