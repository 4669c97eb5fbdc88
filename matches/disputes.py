"""Settling a score dispute: a log replayed, the recorded score beside it, the sheets, a decision.

The log is a match file, uploaded or the site's own log exported as one, so
both go through the same replay (:func:`rules.replay.replay_match`) and the
dispute keeps the very text it compared. The decision corrects the match with
the services any correction uses, and their audit entries link the dispute. The penalty
points and forfeits in the comparison (tournament rules) are :mod:`matches.dispute_penalties`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from club.actors import Actor
from club.policy import can_change_match, require
from rules.match import Forfeit, score_possible
from rules.match import Match as RulesMatch
from rules.match import Penalty as RulesPenalty
from rules.replay import ProblemKind, Replay, ReplayedGame
from rules.sheets import Score, SheetRuling, sheet_ruling

from . import dispute_penalties as penalties
from .history import match_forfeit_entry
from .matfiles import ImportPlan, mat_import_plan, match_mat
from .models import Dispute, Match, ResultReport
from .notify import player_notify
from .results import result_facts
from .selectors import PenaltyRow, SheetRow, match_score_sheet
from .services import game_correct, game_record, match_audit_record, match_record_final_score


@dataclass(frozen=True)
class GameComparison:
    """One game as the log plays it and as the score sheet records it, with the penalty
    points each gives before it (tournament rules)."""

    number: int
    log: ReplayedGame | None
    recorded: SheetRow | None
    log_score_after: tuple[int, int] | None
    log_penalties: tuple[RulesPenalty, ...] = ()
    recorded_penalties: tuple[PenaltyRow, ...] = ()
    log_score_before: tuple[int, int] | None = None  # after the log's penalties before it
    names: tuple[str, str] = ("", "")  # the match's players, for the words

    @property
    def log_penalties_said(self) -> str:
        return penalties.logged_said(self.names, self.log_penalties)

    @property
    def recorded_penalties_said(self) -> str:
        return penalties.recorded_said(self.names, self.recorded_penalties)

    @property
    def game_agrees(self) -> bool:
        """The game itself: the same winner and points (what a log's decision corrects)."""
        if self.log is None or self.recorded is None or self.log.result is None:
            return False
        game = self.recorded.game
        return (self.log.winner, self.log.points) == (game.winner, game.points)

    @property
    def penalties_agree(self) -> bool:
        """The same penalty points before the game: who was penalised, how many points."""
        return penalties.penalties_agree(self.log_penalties, self.recorded_penalties)

    @property
    def agrees(self) -> bool:
        return self.game_agrees and self.penalties_agree


@dataclass(frozen=True)
class DisputeReport:
    dispute: Dispute
    replay: Replay
    games: tuple[GameComparison, ...]
    recorded_score: tuple[int, int]
    ruling: SheetRuling
    plan: ImportPlan  # the replay as kept, with the problems the page lists
    # after the last game: the log's penalty points and forfeit, and the site's
    log_after: tuple[RulesPenalty | Forfeit, ...] = ()
    recorded_after: tuple[PenaltyRow, ...] = ()
    recorded_forfeit: Forfeit | None = None

    @property
    def parting(self) -> int | None:
        """The first game where the log and the recorded score part ways."""
        return next((g.number for g in self.games if not g.agrees), None)

    @property
    def after_agrees(self) -> bool:
        """The same penalty points and forfeit after the last game (tournament rules)."""
        return penalties.after_agrees(self.log_after, self.recorded_after, self.recorded_forfeit)

    @property
    def log_after_said(self) -> str:
        return penalties.logged_said(penalties.names_of(self.dispute.match), self.log_after)

    @property
    def recorded_after_said(self) -> str:
        names = penalties.names_of(self.dispute.match)
        return penalties.recorded_said(names, self.recorded_after, self.recorded_forfeit)

    @property
    def log_score(self) -> tuple[int, int]:
        return self.replay.final_score

    @property
    def ruling_text(self) -> str:
        return sheet_ruling_text(self.dispute.match, self.ruling)


def sheet_ruling_text(match: Match, ruling: SheetRuling, *, log: bool = True) -> str:
    """The score-sheet rule applied to a dispute's two sheets, in words, each with where it
    comes from (WBF 3, or club practice); ``log``: the dispute has a log to decide from (a
    dispute over a player's report has none)."""
    names = {0: str(match.player_a), 1: str(match.player_b)}
    rule = ruling.rule
    if rule == "none":
        return _("No score sheet has been entered.")
    # a sheet stands (only-one, agree, trailing): its score, and whose for all but agree
    score = ruling.score or (0, 0)
    side = ruling.side if ruling.side is not None else 0
    if rule == "only-one":
        return _(
            "Only %(name)s kept a score sheet, so it stands: %(a)s–%(b)s (WBF 3: in a "
            "dispute, the player who kept no score is wrong)."
        ) % {"name": names[side], "a": score[0], "b": score[1]}
    if rule == "agree":
        return _("Both score sheets say %(a)s–%(b)s.") % {"a": score[0], "b": score[1]}
    if rule == "trailing":
        return _(
            "Both players kept a score sheet and they differ: by club practice (not a rule "
            "of the WBF's) the trailing player's sheet stands, %(name)s's: %(a)s–%(b)s."
        ) % {"name": names[side], "a": score[0], "b": score[1]}
    if not log:
        return _(
            "The two versions do not agree on who is trailing (a tie on one and a lead on "
            "the other is a disagreement too): neither stands by the club's practice; "
            "decide from what the players tell you."
        )
    return _(
        "Both players kept a score sheet, and the sheets do not agree on who is trailing "
        "(a tie on one and a lead on the other is a disagreement too): no sheet stands by "
        "the club's practice; decide from the log."
    )


def dispute_open(
    *,
    match: Match,
    user: Actor,
    text: str = "",
    filename: str = "",
    left: int | None = None,
    report: ResultReport | None = None,
    sheets: Sequence[Score | None] = (None, None),
) -> Dispute:
    """A dispute over a match, against an uploaded file or (no text) the site's own log.

    Asking again for the site's own log, unchanged, returns the dispute still open over it
    rather than opening another: a second click is not a second dispute.

    ``report``: a player's report the opponent disputes (:func:`matches.reports.report_dispute`
    has asked the policy and holds the report's lock): no log, the two claims as the players'
    score ``sheets``.
    """
    if report is not None:
        return _dispute_open_over_report(match, user, report, sheets)
    require(can_change_match(user, match))
    source = Dispute.Source.FILE if text else Dispute.Source.SITE
    if not text:
        if not match.board_games.exists():
            raise ValidationError(
                _("No game of this match was played on the board: upload a match file.")
            )
        text = match_mat(match=match)
    # refuses what cannot be read; the replay is kept for the dispute's page
    plan = mat_import_plan(match=match, text=text, left=left, capped=source == Dispute.Source.FILE)
    with transaction.atomic():
        # the match's row lock: two clicks at once find the one dispute the first opened
        Match.objects.select_for_update(of=("self",)).only("pk").get(pk=match.pk)
        if source == Dispute.Source.SITE:
            open_one = (
                Dispute.objects.filter(
                    match=match, source=source, decided_at__isnull=True, mat=text
                )
                .order_by("-opened_at", "-id")
                .first()
            )
            if open_one is not None:
                return open_one
        dispute = Dispute.objects.create(
            swapped=plan.swapped,
            match=match,
            opened_by=user if isinstance(user, User) else None,  # a person, not the site
            source=source,
            filename=filename[:200],
            mat=text,
        )
        match_audit_record(
            match,
            user,
            "dispute.opened",
            params={"dispute": dispute.pk, "filename": dispute.filename},
            subject=dispute,
            dispute=dispute,
        )
    return dispute


def _dispute_open_over_report(
    match: Match,
    user: Actor,
    report: ResultReport,
    sheets: Sequence[Score | None],
) -> Dispute:
    with transaction.atomic():
        Match.objects.select_for_update(of=("self",)).only("pk").get(pk=match.pk)
        first, second = sheets
        dispute = Dispute.objects.create(
            match=match,
            opened_by=user if isinstance(user, User) else None,  # a person, not the site
            source=Dispute.Source.REPORT,
            mat="",
            sheet_a_a=first[0] if first else None,
            sheet_a_b=first[1] if first else None,
            sheet_b_a=second[0] if second else None,
            sheet_b_b=second[1] if second else None,
        )
        match_audit_record(
            match,
            user,
            "dispute.opened",
            params={"dispute": dispute.pk, "filename": ""},
            after={"sheets": [list(first) if first else None, list(second) if second else None]},
            subject=dispute,
            dispute=dispute,
        )
    return dispute


def dispute_claims(*, dispute: Dispute) -> tuple[ResultReport | None, SheetRuling]:
    """A dispute over a player's report: the report, and the score-sheet rule applied to the
    two claims (WBF 3)."""
    report = dispute.reports.select_related("match__player_a", "match__player_b").first()
    return report, sheet_ruling(dispute.sheet(0), dispute.sheet(1))


def dispute_report(*, dispute: Dispute) -> DisputeReport:
    """The log replayed next to the recorded games, and the score-sheet rule applied."""
    match = dispute.match
    # the replay kept when the dispute was opened (the text was within the limit then)
    plan = mat_import_plan(match=match, text=dispute.mat, left=int(dispute.swapped), capped=False)
    replay = plan.replay
    sheet = match_score_sheet(match=match)
    count = max(len(replay.games), len(sheet.rows))
    comparisons = []
    penalty_rows = penalties.recorded_penalties(sheet)
    # the log's games scored by the rules (cap, Crawford), with the penalty points written
    # before each (tournament rules)
    scored = RulesMatch(match.length)
    for index in range(count):
        logged = replay.games[index] if index < len(replay.games) else None
        recorded = sheet.rows[index] if index < len(sheet.rows) else None
        after = before = None
        if logged is not None and logged.result is not None and logged.counted:
            scored = penalties.log_penalties_added(scored, logged.record.penalties)
            before = scored.score
            if not scored.over:
                scored = scored.add(logged.result)
                after = scored.score
        comparisons.append(
            GameComparison(
                index + 1,
                logged,
                recorded,
                after,
                log_penalties=logged.record.penalties if logged is not None else (),
                recorded_penalties=penalties.recorded_before(penalty_rows, index + 1),
                log_score_before=before,
                names=penalties.names_of(match),
            )
        )
    ruling = sheet_ruling(dispute.sheet(0), dispute.sheet(1))
    if sheet.winner is None and match.status != Match.Status.WALKOVER:
        plan = _in_play(plan)
        replay = plan.replay
    return DisputeReport(
        dispute,
        replay,
        tuple(comparisons),
        sheet.score,
        ruling,
        plan,
        log_after=replay.after,
        recorded_after=penalties.recorded_after(penalty_rows, count),
        recorded_forfeit=match_forfeit_entry(match),
    )


def _in_play(plan: ImportPlan) -> ImportPlan:
    """The problems of a log of a match still in play: that the log stops before the match
    ends, or in the middle of its last game, is the match being played, not a problem."""
    replay = plan.replay
    games = replay.games
    last = games[-1].number if games else None
    kept = tuple(
        problem
        for problem in replay.problems
        if problem.kind is not ProblemKind.UNFINISHED
        and not (problem.kind is ProblemKind.NO_RESULT and problem.game == last)
    )
    if len(kept) == len(replay.problems):
        return plan
    dropped = len(replay.problems) - len(kept)
    return replace(
        plan,
        replay=replace(replay, problems=kept),
        problem_count=plan.problem_count - dropped,
    )


def dispute_sheets_set(
    *, dispute: Dispute, sheet_a: Score | None, sheet_b: Score | None, user: Actor
) -> Dispute:
    """Each player's score sheet as they show it (either may have kept none)."""
    require(can_change_match(user, dispute.match))
    with transaction.atomic():
        locked = (
            Dispute.objects.select_for_update(of=("self",))
            .select_related("match__player_a", "match__player_b")
            .get(pk=dispute.pk)
        )
        if locked.decided_at is not None:
            raise ValidationError(_("This dispute is decided."))
        match = locked.match
        for player, sheet in ((match.player_a, sheet_a), (match.player_b, sheet_b)):
            if sheet is not None and not score_possible(match.length, (sheet[0], sheet[1])):
                raise ValidationError(
                    _(
                        "%(name)s's score sheet says %(a)s–%(b)s, which no %(length)s-point "
                        "match can reach: neither player passes %(length)s points, and only "
                        "one reaches it."
                    )
                    % {"name": player, "a": sheet[0], "b": sheet[1], "length": match.length}
                )
        before = {"sheets": [locked.sheet(0), locked.sheet(1)]}
        locked.sheet_a_a, locked.sheet_a_b = sheet_a or (None, None)
        locked.sheet_b_a, locked.sheet_b_b = sheet_b or (None, None)
        locked.save()
        match_audit_record(
            locked.match,
            user,
            "dispute.sheets",
            params={"dispute": locked.pk},
            before=before,
            after={"sheets": [sheet_a, sheet_b]},
            subject=locked,
            dispute=locked,
        )
    return locked


@dataclass(frozen=True)
class SheetPlan:
    """What applying the score sheet that stands would do to the match.

    ``how``: "none" (the recorded score already says it), "final" (the final score is
    recorded, or corrected, to it), "log" (games 1 to ``upto`` are corrected to the log's,
    or added from it, which is where the log reaches the sheet's score). ``refusal``: why
    it cannot be applied, in words; then nothing else is meaningful.
    """

    ruling: SheetRuling
    recorded: tuple[int, int]
    how: str = ""
    upto: int = 0
    changed: int = 0
    refusal: str = ""

    @property
    def score(self) -> tuple[int, int] | None:
        return self.ruling.score

    def describe(self, match: Match) -> str:
        """What applying it does, in a sentence."""
        score = self.score or (0, 0)
        values = {"a": score[0], "b": score[1], "x": self.recorded[0], "y": self.recorded[1]}
        if self.how == "none":
            return (
                _(
                    "The match is recorded at %(a)s–%(b)s, as the sheet says: nothing is "
                    "corrected, and the dispute is decided."
                )
                % values
            )
        if self.how == "final":
            return _("The final score is recorded as %(a)s–%(b)s (it was %(x)s–%(y)s).") % values
        return ngettext(
            "Game %(count)s is corrected to the log's or added from it: the match then stands "
            "at %(a)s–%(b)s, where the log reaches the sheet's score (it was %(x)s–%(y)s).",
            "Games 1 to %(count)s are corrected to the log's or added from it: the match then "
            "stands at %(a)s–%(b)s, where the log reaches the sheet's score (it was "
            "%(x)s–%(y)s).",
            self.upto,
        ) % {**values, "count": self.upto}


def dispute_sheet_plan(*, dispute: Dispute) -> SheetPlan:
    """What applying the score sheet that stands (WBF 3, or club practice) would do, or why
    it cannot be done: a sheet says a score, not which game made it, so the games are
    corrected only where the log reaches that score; a final score is recorded as it is."""
    match = Match.objects.select_related("player_a", "player_b").get(pk=dispute.match_id)
    ruling = sheet_ruling(dispute.sheet(0), dispute.sheet(1))
    sheet = match_score_sheet(match=match)
    plan = SheetPlan(ruling=ruling, recorded=sheet.score)
    score = ruling.score
    values = {"a": score[0], "b": score[1]} if score else {}
    if score is None:
        return replace(plan, refusal=_("No score sheet stands: there is nothing to apply."))
    if tuple(score) == tuple(sheet.score) and match.status != Match.Status.WALKOVER:
        return replace(plan, how="none")
    if match.status == Match.Status.WALKOVER:
        return replace(
            plan,
            refusal=_(
                "This match was a walkover: take it back on the match's page before a score "
                "sheet can be applied."
            ),
        )
    if match.retired is not None:
        return replace(plan, refusal=_retired_text(match))
    if not sheet.rows:  # nothing recorded, or only a final score
        if max(score) != match.length:
            return replace(
                plan,
                refusal=_(
                    "The sheet says %(a)s–%(b)s, a match still in play, and the site records a "
                    "match in play game by game: record its games on the match's page, then "
                    "close the dispute."
                )
                % values,
            )
        return replace(plan, how="final", changed=1)
    upto = 0
    if dispute.source != Dispute.Source.REPORT:
        report = dispute_report(dispute=dispute)
        upto = next(
            (
                g.number
                for g in report.games
                if g.log_score_after is not None
                and tuple(g.log_score_after) == tuple(score)
                and g.number >= len(sheet.rows)
            ),
            0,
        )
        if upto:
            changed = sum(1 for g in report.games[:upto] if g.log is not None and not g.game_agrees)
            return replace(plan, how="log", upto=upto, changed=changed)
    return replace(
        plan,
        refusal=_(
            "The recorded games make %(x)s–%(y)s and the sheet %(a)s–%(b)s, but a sheet does "
            "not say which game is wrong, and the log does not reach %(a)s–%(b)s: correct the "
            "games on the match's page, then close the dispute."
        )
        % {**values, "x": sheet.score[0], "y": sheet.score[1]},
    )


def _retired_text(match: Match) -> str:
    if match.forfeit:
        return _(
            "%(name)s forfeited this match: take the forfeit back on the match's page before "
            "a score sheet can be applied."
        ) % {"name": match.player(match.retired or 0).name}
    return _(
        "%(name)s retired from this match: take the retirement back on the match's page "
        "before a score sheet can be applied."
    ) % {"name": match.player(match.retired or 0).name}


def dispute_sheet_apply(*, dispute: Dispute, user: Actor) -> Dispute:
    """The score sheet that stands is applied: the match is corrected to its score through
    the services any correction uses (refused, as they are, once a later match has begun:
    US rules 4.10), and the dispute is decided, audited with the score and the sheet."""
    require(can_change_match(user, dispute.match))
    # the log's comparison, read before the rows are locked (it replays the log)
    report = None if dispute.source == Dispute.Source.REPORT else dispute_report(dispute=dispute)
    with transaction.atomic():
        locked = Dispute.objects.select_for_update(of=("self",)).get(pk=dispute.pk)
        if locked.decided_at is not None:
            raise ValidationError(_("This dispute is decided."))
        match = Match.objects.select_for_update(of=("self",)).get(pk=locked.match_id)
        match = Match.objects.select_related("player_a", "player_b").get(pk=match.pk)
        plan = dispute_sheet_plan(dispute=locked)
        if plan.refusal:
            raise ValidationError(plan.refusal)
        score = plan.score
        assert score is not None  # a plan without a refusal has a sheet that stands
        if plan.how == "final":
            match_record_final_score(
                match=match, score_a=score[0], score_b=score[1], user=user, dispute=locked
            )
        elif plan.how == "log":
            assert report is not None
            _games_to_the_log(match, report, user, locked, upto=plan.upto)
        locked.decision = Dispute.Decision.SHEET
        locked.corrected = plan.changed
        locked.decided_at = timezone.now()
        locked.decided_by = user if isinstance(user, User) else None  # a person, not the site
        locked.save()
        side = plan.ruling.side
        match_audit_record(
            match,
            user,
            "dispute.sheet_applied",
            params={
                "dispute": locked.pk,
                "changed": plan.changed,
                "a": score[0],
                "b": score[1],
                "name": match.player(side).name if side is not None else "",
                "rule": plan.ruling.rule.value,
            },
            subject=locked,
            dispute=locked,
        )
        _decision_notify(locked, match)
    return locked


def dispute_decide(*, dispute: Dispute, user: Actor) -> Dispute:
    """The log stands: the recorded games are corrected to the log's, one service call each.

    A correction the rules refuse (a later match has begun, US rules 4.10) leaves the
    dispute undecided and the match as it was.
    """
    require(can_change_match(user, dispute.match))
    if dispute.source == Dispute.Source.REPORT:
        return _decide_for_the_report(dispute, user)
    report = dispute_report(dispute=dispute)
    with transaction.atomic():
        locked = Dispute.objects.select_for_update().get(pk=dispute.pk)
        if locked.decided_at is not None:
            raise ValidationError(_("This dispute is decided."))
        match = Match.objects.get(pk=dispute.match_id)
        changed = 0
        if match.final_score_a is not None:
            if report.replay.winner is None:
                raise ValidationError(
                    _("The log does not finish the match, and only a final score is recorded.")
                )
            score = report.replay.final_score
            if score != (match.final_score_a, match.final_score_b):
                match_record_final_score(
                    match=match, score_a=score[0], score_b=score[1], user=user, dispute=locked
                )
                changed = 1
        else:
            changed = _games_to_the_log(match, report, user, locked)
        locked.decision = Dispute.Decision.LOG
        locked.corrected = changed
        locked.decided_at = timezone.now()
        locked.decided_by = user if isinstance(user, User) else None  # a person, not the site
        locked.save()
        match_audit_record(
            match,
            user,
            "dispute.decided",
            params={"dispute": locked.pk, "changed": changed},
            subject=locked,
            dispute=locked,
        )
        _decision_notify(locked, match)
    return locked


def dispute_close(*, dispute: Dispute, user: Actor) -> Dispute:
    """Close the dispute without changing the match: the recorded score stands."""
    require(can_change_match(user, dispute.match))
    with transaction.atomic():
        locked = (
            Dispute.objects.select_for_update(of=("self",))
            .select_related("match")
            .get(pk=dispute.pk)
        )
        if locked.decided_at is not None:
            raise ValidationError(_("This dispute is decided."))
        locked.decision = Dispute.Decision.CLOSED
        locked.corrected = 0
        locked.decided_at = timezone.now()
        locked.decided_by = user if isinstance(user, User) else None  # a person, not the site
        locked.save()
        match_audit_record(
            locked.match,
            user,
            "dispute.closed",
            params={"dispute": locked.pk},
            subject=locked,
            dispute=locked,
        )
        _decision_notify(locked, locked.match)
    return locked


def _games_to_the_log(
    match: Match, report: DisputeReport, user: Actor, dispute: Dispute, *, upto: int | None = None
) -> int:
    """Correct the recorded games to the log's, and add those the log has beyond them;
    ``upto``: only games 1 to that number (where the log reaches a sheet's score)."""
    changed = 0
    for comparison in report.games[:upto]:
        logged = comparison.log
        if logged is None or logged.result is None or not logged.counted:
            continue
        if comparison.game_agrees:
            continue  # penalty points are given and taken back on the match's page
        facts: Mapping[str, Any] = result_facts(logged.result)
        if comparison.recorded is not None:
            game_correct(game=comparison.recorded.game, user=user, dispute=dispute, **facts)
        else:
            fresh = Match.objects.get(pk=match.pk)
            game_record(
                match=fresh,
                number=comparison.number,
                user=user,
                board=True,
                dispute=dispute,
                **facts,
            )
        changed += 1
    return changed


def _decide_for_the_report(dispute: Dispute, user: Actor) -> Dispute:
    """A dispute over a player's report: the reported result stands, recorded through the
    services any entry uses, each audit entry linking the dispute."""
    with transaction.atomic():
        locked = Dispute.objects.select_for_update().get(pk=dispute.pk)
        if locked.decided_at is not None:
            raise ValidationError(_("This dispute is decided."))
        report = ResultReport.objects.get(dispute=locked)
        match = Match.objects.select_related("player_a", "player_b").get(pk=locked.match_id)
        # a report of games names its first, a final one both scores (report_games_or_final_score)
        first_game = report.first_game or 1
        if match.decided or (
            report.kind == ResultReport.Kind.GAMES and match.games.count() != first_game - 1
        ):
            raise ValidationError(
                _(
                    "The match's result changed since the report was made: correct it on the "
                    "match's page, then close the dispute."
                )
            )
        if report.kind == ResultReport.Kind.FINAL:
            match_record_final_score(
                match=match,
                score_a=report.score_a or 0,
                score_b=report.score_b or 0,
                user=user,
                dispute=locked,
            )
            changed = 1
        else:
            for offset, game in enumerate(report.games):
                game_record(
                    match=Match.objects.get(pk=match.pk),
                    number=first_game + offset,
                    user=user,
                    dispute=locked,
                    **game,
                )
            changed = len(report.games)
        locked.decision = Dispute.Decision.REPORT
        locked.corrected = changed
        locked.decided_at = timezone.now()
        locked.decided_by = user if isinstance(user, User) else None  # a person, not the site
        locked.save()
        match_audit_record(
            match,
            user,
            "dispute.decided",
            params={"dispute": locked.pk, "changed": changed, "report": report.reporter.name},
            subject=locked,
            dispute=locked,
        )
        _decision_notify(locked, match)
    return locked


def _decision_notify(dispute: Dispute, match: Match) -> None:
    """Both players are told the dispute over their match is decided (after the commit)."""
    for player in (match.player_a, match.player_b):
        player_notify(
            player=player,
            subject=gettext_noop("The dispute over your match %(match)s is decided"),
            template="emails/dispute_decided.txt",
            context={
                "match": f"{match.player_a.name} – {match.player_b.name}",
                "decision": dispute.decision,
            },
            path=match.get_absolute_url(),  # the dispute page is the directors'
        )
