"""Issue 28 in a tournament file: penalty points (lateness, a director's, one that wins a
match), a time forfeit, the arrivals, the lateness and clock settings and each round's call
and clocks are exported and imported again to the same score sheets and winners (tournament
rules; WBF 24 for the Crawford game they move). Files written before them still import.
"""

from __future__ import annotations

import copy
import datetime
import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from club.models import AuditEntry
from matches.board.service import board_game_act, board_game_start
from matches.board.timing import board_flag_check
from matches.models import BoardGame, Match, MatchClock, Penalty
from matches.penalties import match_forfeit, match_penalty_award, match_penalty_remove
from matches.selectors import PenaltyRow, match_score_sheet
from tests.tournaments.helpers import another_tournament, by_key, round_called, time_rules_set
from tournaments.models import Arrival, Round, Tournament
from tournaments.services import (
    arrival_confirm,
    arrival_record,
)
from tournaments.transfer import tournament_export, tournament_import, tournament_import_plan

pytestmark = pytest.mark.django_db

CALL = datetime.datetime(2026, 12, 13, 13, 0, tzinfo=datetime.UTC)


def fresh(match):
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def timed(timed_knockout, director, tournament, record):
    """A knockout of 4 to 7 points, its rounds called and on clocks, played to the end by
    penalty points and a forfeit: a late arrival penalised and a director's penalty in one
    match, a match won by penalty points, and the final forfeited on time."""
    event = timed_knockout(
        4,
        called=CALL,
        clocks="required",
        late_minutes_per_point=4,
        late_grace_minutes=2,
        late_forfeit_at_half=False,
        clock_seconds_per_point=90,
        clock_delay_seconds=10,
        clock_on_flag="game",
    )
    round_called(event, 2, CALL + datetime.timedelta(hours=2), director, "allowed")

    late = by_key(event, "M1-1")  # B 12 minutes late: 2 points to A, then a director's
    arrival_record(match=late, side=0, user=director, at=CALL + datetime.timedelta(minutes=1))
    arrival = arrival_record(
        match=late, side=1, user=director, at=CALL + datetime.timedelta(minutes=12)
    )
    arrival_confirm(arrival=arrival, user=director)
    record(late, 0)  # 3-0
    match_penalty_award(
        match=fresh(late), side=0, points=1, reason="director", note="Slow play", user=director
    )  # 3-1
    record(late, 0, cube=2, result="gammon")  # 7-1

    won = by_key(event, "M1-2")  # won by penalty points
    record(won, 1)  # 0-1
    match_penalty_award(
        match=fresh(won), side=0, points=6, reason="director", note="Abuse", user=director
    )

    final = by_key(event, "M2-1")  # forfeited on time after a game (and a penalty taken back)
    record(final, 1)
    mistaken = match_penalty_award(
        match=fresh(final), side=1, points=1, reason="director", note="Wrong table", user=director
    )
    match_penalty_remove(penalty=mistaken, user=director)
    match_forfeit(match=fresh(final), side=0, reason="time", user=director)
    tournament.refresh_from_db()  # its time settings, as the service wrote them
    return event


def sheets(tournament):
    """Each match's score sheet as it reads: its lines (games and penalty rows), the score,
    the winner and the Crawford game."""
    found = []
    for match in Match.objects.filter(place__event__tournament=tournament).order_by("id"):
        sheet = match_score_sheet(match=match)
        lines = [
            (
                "penalty",
                line.penalised.name,
                line.points,
                line.penalty.reason,
                line.reason_text,
                line.score_before,
                line.score_after,
            )
            if isinstance(line, PenaltyRow)
            else (
                "game",
                line.game.number,
                line.winner.name,
                line.score_before,
                line.score_after,
                line.crawford,
                line.points,
            )
            for line in sheet.lines
        ]
        found.append(
            (
                str(match),
                match.status,
                match.forfeit,
                match.retired,
                sheet.score,
                sheet.winner,
                sheet.crawford_game,
                lines,
            )
        )
    return found


def _time_settings(tournament):
    return [
        getattr(tournament, name)
        for name in (
            "late_minutes_per_point",
            "late_grace_minutes",
            "late_forfeit_at_half",
            "clock_seconds_per_point",
            "clock_delay_seconds",
            "clock_on_flag",
        )
    ]


def _rounds(tournament):
    return list(
        Round.objects.filter(event__tournament=tournament)
        .order_by("event_id", "number")
        .values_list("number", "length", "starts_at", "clocks")
    )


def _arrivals(tournament):
    return list(
        Arrival.objects.filter(match__place__event__tournament=tournament)
        .order_by("match_id", "side")
        .values_list(
            "side", "called_at", "arrived_at", "minutes_late", "points", "state", "decided_at"
        )
    )


def _penalties(tournament):
    return list(
        Penalty.objects.filter(match__place__event__tournament=tournament)
        .order_by("match_id", "before_game", "id")
        .values_list(
            "before_game", "side", "points", "reason", "note", "minutes_late", "created_at"
        )
    )


def test_time_results_export_and_import_to_the_same_sheets_and_winners(timed, director):
    """Tournament rules: a lateness penalty, a director's penalty, a penalty that wins the
    match and a time forfeit read back as they were, the Crawford game (WBF 24) included."""
    tournament = timed.tournament
    document = tournament_export(tournament=tournament)
    matches = document["matches"]
    assert [len(m["penalties"]) for m in matches[:2]] == [2, 1]
    assert [m["forfeit"] for m in matches] == ["", "", "time"]
    assert {p["reason"] for m in matches for p in m["penalties"]} == {"lateness", "director"}
    assert matches[0]["penalties"][0]["minutes_late"] == 12
    assert len(matches[0]["arrivals"]) == 2
    assert document["tournament"]["clock_on_flag"] == "game"
    assert [t["clocks"] for t in document["events"][0]["round_times"]] == ["required", "allowed"]

    sent = another_tournament(document)
    copy_ = tournament_import(document=json.loads(json.dumps(sent)), user=director)

    assert sheets(copy_) == sheets(tournament)
    winners = [s[5] for s in sheets(copy_)]
    assert winners == [0, 1, 1]  # by the games, by penalty points, by the forfeit
    assert _time_settings(copy_) == _time_settings(tournament)
    assert _rounds(copy_) == _rounds(tournament)
    assert _arrivals(copy_) == _arrivals(tournament) and len(_arrivals(copy_)) == 2
    assert _penalties(copy_) == _penalties(tournament) and len(_penalties(copy_)) == 3
    # who gave the penalties and recorded the arrivals is the file's say: no account here
    assert not Penalty.objects.filter(
        match__place__event__tournament=copy_, created_by__isnull=False
    )
    # the trail names the penalties and arrivals of the copy
    trail = AuditEntry.objects.filter(tournament_id=copy_.pk, code="arrival.recorded")
    assert {entry.subject for entry in trail} == set(
        Arrival.objects.filter(match__place__event__tournament=copy_)
    )
    held = Match.objects.filter(place__event__tournament=copy_).values("pk")
    awarded = AuditEntry.objects.filter(match_id__in=held, imported=True)
    subjects = sorted(e.subject_id for e in awarded.filter(code="penalty.awarded"))
    held_penalties = Penalty.objects.filter(match__place__event__tournament=copy_)
    assert subjects == [0, *sorted(p.pk for p in held_penalties)]  # the one taken back: gone
    gone = awarded.get(code="penalty.awarded", subject_id=0)
    assert gone.subject_type.model == "penalty"
    # and it exports again to the same file (but who acted, which no account of here names)
    again = tournament_export(tournament=copy_)
    assert again["audit"].pop()["code"] == "tournament.imported"
    for match in sent["matches"]:
        for penalty in match["penalties"]:
            penalty["created_by"] = None
        for arrival in match["arrivals"]:
            arrival["recorded_by"] = arrival["decided_by"] = None
    assert again == sent


def test_a_file_written_before_issue_28_imports_with_the_defaults(
    timed_knockout, tournament, director, record
):
    """A file without penalties, forfeits, arrivals, time settings or round times imports
    with what the site had before them (the defaults the migration gave every tournament)."""
    event = timed_knockout(4)
    record(by_key(event, "M1-1"), 0)
    document = another_tournament(tournament_export(tournament=tournament))
    for name in (
        "late_minutes_per_point",
        "late_grace_minutes",
        "late_forfeit_at_half",
        "clock_seconds_per_point",
        "clock_delay_seconds",
        "clock_on_flag",
    ):
        del document["tournament"][name]
    for event_part in document["events"]:
        del event_part["round_times"]
    for match in document["matches"]:
        del match["penalties"], match["forfeit"], match["arrivals"]
    copy_ = tournament_import(document=document, user=director)
    assert _time_settings(copy_) == [5, 0, True, 120, 12, "match"]
    assert {(starts, clocks) for *_, starts, clocks in _rounds(copy_)} == {(None, "none")}
    assert sheets(copy_) == sheets(tournament)


def _won_by_penalty(document):
    return document["matches"][1]


def _tamper_penalty_dropped(document):
    _won_by_penalty(document)["penalties"] = []


def _tamper_penalty_after_the_games(document):
    _won_by_penalty(document)["penalties"][0]["before_game"] = 3


def _tamper_forfeit_without_side(document):
    final = document["matches"][2]
    final["retired"] = None


def _tamper_forfeit_score(document):
    document["matches"][2]["final_score"] = [1, 7]


def _tamper_arrival_twice(document):
    match = document["matches"][0]
    match["arrivals"].append(copy.deepcopy(match["arrivals"][0]))


def _tamper_penalty_past_the_win(document):
    won = _won_by_penalty(document)
    won["penalties"].append({**won["penalties"][0], "before_game": 2})


@pytest.mark.parametrize(
    "tamper, says",
    [
        (_tamper_penalty_dropped, "its status does not follow from its games"),
        (_tamper_penalty_after_the_games, "its penalty points are not in order"),
        (_tamper_forfeit_without_side, "a forfeit needs the player who forfeited"),
        (_tamper_forfeit_score, "after a retirement the final score is"),
        (_tamper_arrival_twice, "its arrivals do not hold together"),
        (_tamper_penalty_past_the_win, "penalty points before game 2: "),
    ],
)
def test_a_file_whose_time_results_do_not_hold_is_refused_naming_the_match(timed, tamper, says):
    document = another_tournament(tournament_export(tournament=timed.tournament))
    tamper(document)
    with pytest.raises(ValidationError) as refused:
        tournament_import_plan(document=document)
    message = refused.value.messages[0]
    assert says in message, message
    assert " – " in message  # the match, by its event, round and players


def test_a_time_refusal_reads_in_italian(timed):
    document = another_tournament(tournament_export(tournament=timed.tournament))
    document["matches"][1]["penalties"][0]["before_game"] = 3
    with translation.override("it"), pytest.raises(ValidationError) as refused:
        tournament_import_plan(document=document)
    assert "i suoi punti di penalità non sono in ordine" in refused.value.messages[0]


def test_a_tournament_s_time_settings_round_trip_unplayed(tournament, director):
    """Settings alone, nothing played: the copy has them."""
    time_rules_set(
        tournament,
        director,
        late_minutes_per_point=0,
        late_grace_minutes=3,
        late_forfeit_at_half=False,
        clock_seconds_per_point=60,
        clock_delay_seconds=0,
        clock_on_flag="game",
    )
    tournament.refresh_from_db()
    document = another_tournament(tournament_export(tournament=tournament))
    copy_ = tournament_import(document=document, user=director)
    assert _time_settings(copy_) == [0, 3, False, 60, 0, "game"]
    assert isinstance(copy_, Tournament)


@pytest.mark.parametrize("rule", ["match", "game"])
def test_a_flag_fallen_on_the_board_exports_and_imports_as_its_result(
    timed_knockout, tournament, director, rule
):
    """Tournament rules: a flag that loses the match is a forfeit on time, one that loses
    the game a game scored at its cube; the board's log stays as it was, and the copy reads
    the same. The clock itself is not in the file."""
    event = timed_knockout(
        4,
        length=5,
        clocks="required",
        clock_seconds_per_point=60,
        clock_delay_seconds=10,
        clock_on_flag=rule,
    )
    match = by_key(event, "M1-1")
    board = board_game_start(match=match, user=director)
    state = None
    while state is None or state.game.phase.value == "opening":  # again on equal dice
        fresh_board = BoardGame.objects.get(pk=board.pk)
        state = board_game_act(
            board_game=fresh_board,
            version=fresh_board.version,
            action="opening",
            user=director,
            at=0,
        )
    loser = state.game.acting
    MatchClock.objects.filter(match=match).update(remaining_a=5_000, remaining_b=5_000)
    assert board_flag_check(match=fresh(match), at=15_000)
    tournament.refresh_from_db()
    original = fresh(match)
    if rule == "match":
        assert original.forfeit == "time" and original.retired == loser
    else:
        assert original.games.get(number=1).winner == 1 - loser and not original.forfeit

    document = tournament_export(tournament=tournament)
    assert "clock" not in json.dumps(document["matches"][0])  # the running clock stays here
    copy_ = tournament_import(document=another_tournament(document), user=director)
    assert sheets(copy_) == sheets(tournament)
    boards = [
        list(b.actions.order_by("seq").values_list("act", "player", "die1", "die2", "play"))
        for t in (tournament, copy_)
        for b in BoardGame.objects.filter(match__place__event__tournament=t).order_by("number")
    ]
    assert len(boards) == 2 and boards[0] == boards[1]
    assert not MatchClock.objects.filter(match__place__event__tournament=copy_).exists()


@pytest.mark.parametrize(
    "language, says",
    [("en", ("Penalties", "Matches forfeited")), ("it", ("Penalità", "Partite perse a tavolino"))],
)
def test_the_preview_counts_the_penalties_and_forfeits(timed, director_client, language, says):
    document = another_tournament(tournament_export(tournament=timed.tournament))
    upload = SimpleUploadedFile(
        "tournament.json", json.dumps(document).encode(), content_type="application/json"
    )
    with translation.override(language):
        response = director_client.post(
            reverse("tournament_import"), {"file": upload}, HTTP_ACCEPT_LANGUAGE=language
        )
    assert response.status_code == 200
    shown = re.sub(r"\s+", " ", response.content.decode())
    assert f'<dt>{says[0]}</dt><dd id="penalties">3</dd>' in shown
    assert f'<dt>{says[1]}</dt><dd id="forfeits">1</dd>' in shown
