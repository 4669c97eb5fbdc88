"""Penalty points and forfeits on the site (tournament rules): awarded, taken back, recorded,
and scored by the engine everywhere a match's score is read (matches.history).

These run on SQLite with `make test` and again on PostgreSQL in `.ci/run`.
"""

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.audit import audit_sentence
from club.models import AuditEntry
from matches.history import match_derived, match_entries
from matches.models import Match, Penalty
from matches.penalties import match_forfeit, match_penalty_award, match_penalty_remove
from matches.selectors import PenaltyRow, SheetRow, game_situation, match_score_sheet
from matches.services import SheetChanged, game_correct, match_result_clear
from rules.match import Forfeit, ForfeitReason, GameResult, PenaltyReason
from rules.match import Penalty as RulesPenalty
from tests.helpers import page_words

pytestmark = pytest.mark.django_db


def fresh(match):
    return Match.objects.get(pk=match.pk)


def sheet(match):
    return match_score_sheet(match=fresh(match))


@pytest.fixture
def award(director):
    """award(match, side, points, reason="director", note="a rules breach")"""

    def give(match, side, points, reason="director", note="A rules breach", **kwargs):
        return match_penalty_award(
            match=fresh(match),
            side=side,
            points=points,
            reason=reason,
            note=note,
            user=director,
            **kwargs,
        )

    return give


def last_sentence(match):
    entry = AuditEntry.objects.filter(match_id=match.pk).order_by("-id").first()
    return audit_sentence(entry)


# --- the history: games and penalties in order --------------------------------------------


def test_the_history_holds_games_and_penalties_in_the_order_they_happened(
    match5, record, award, director
):
    """tournament rules: a penalty before game n comes just before it; a forfeit last."""
    award(match5, 1, 1, reason="lateness", note="", minutes_late=5)  # before game 1
    record(match5, 0)
    award(match5, 0, 2)  # before game 2
    assert match_entries(fresh(match5)) == [
        RulesPenalty(player=1, points=1, reason=PenaltyReason.LATENESS),
        GameResult(winner=0, points=1),
        RulesPenalty(player=0, points=2, reason=PenaltyReason.DIRECTOR),
    ]
    match_forfeit(match=fresh(match5), side=1, reason="time", user=director)
    entries = match_entries(fresh(match5))
    assert entries[-1] == Forfeit(player=1, reason=ForfeitReason.TIME)
    assert match_derived(fresh(match5)).score == (5, 2)


def test_a_penalty_scores_for_the_opponent_before_the_next_game(match5, record, award):
    record(match5, 0)  # 1-0
    penalty = award(match5, 0, 2, note="Moved before the roll")  # Bruno scores 2
    assert penalty.before_game == 2 and penalty.scorer.name == "Bruno Bianchi"
    result = sheet(match5)
    assert result.score == (1, 2)
    record(match5, 0)
    result = sheet(match5)
    assert [r.score_before for r in result.rows] == [(0, 0), (1, 2)]
    assert [type(line) for line in result.lines] == [SheetRow, PenaltyRow, SheetRow]
    row = result.lines[1]
    assert (row.score_before, row.score_after, row.points) == ((1, 0), (1, 2), 2)
    assert row.penalised.name == "Anna Rossi" and row.scorer.name == "Bruno Bianchi"


def test_a_penalty_that_brings_a_player_one_short_makes_the_next_game_the_crawford_game(
    match5, record, award
):
    """WBF 24 with tournament rules: the game after a player first reaches length-1, by a
    game or by penalty points, is the Crawford game; the game form offers cube 1 only."""
    record(match5, 0, cube=2)  # 2-0
    award(match5, 0, 4, reason="lateness", note="", minutes_late=20)  # Bruno 4: 2-4
    situation = game_situation(match=fresh(match5))
    assert situation.crawford and situation.cubes == (1,) and "drop" not in situation.results
    with pytest.raises(ValidationError) as refused:
        record(match5, 0, cube=2)
    assert refused.value.messages == ["Game 2 is the Crawford game: no doubling (WBF 24)."]
    record(match5, 0)  # the Crawford game: 3-4
    assert sheet(match5).rows[-1].crawford
    assert game_situation(match=fresh(match5)).post_crawford


def test_a_penalty_given_before_the_crawford_game_leaves_it_the_crawford_game(
    match5, record, award
):
    record(match5, 0, cube=4)  # 4-0: game 2 is the Crawford game
    award(match5, 0, 1)  # 4-1, still before game 2
    assert game_situation(match=fresh(match5)).crawford
    assert sheet(match5).crawford_game == 2


def test_penalty_points_that_reach_the_length_win_the_match(match5, record, award, director):
    record(match5, 1)  # 0-1
    award(match5, 1, 5, reason="lateness", note="", minutes_late=45)
    found = fresh(match5)
    assert found.status == Match.Status.FINISHED and found.finished_at is not None
    assert found.final_score_a is None  # derived, not stored
    result = sheet(match5)
    assert result.score == (5, 1) and result.winner == 0 and result.next_game is None
    assert result.lines[-1].points == 5
    assert game_situation(match=found).over


def test_no_penalty_once_the_match_is_decided(match5, record, award):
    record(match5, 0, cube=4, result="gammon")
    with pytest.raises(ValidationError) as refused:
        award(match5, 1, 1)
    assert refused.value.messages == [
        "This match's result is recorded: no penalty points can be given now."
    ]
    assert not Penalty.objects.exists()


def test_no_penalty_while_a_game_is_being_played_on_the_board(match5, director, award):
    from matches.board.service import board_game_act, board_game_start

    board_game = board_game_start(match=fresh(match5), user=director)
    board_game_act(
        board_game=board_game, user=director, version=board_game.version, action="opening"
    )
    with pytest.raises(ValidationError) as refused:
        award(match5, 0, 1)
    assert "being played on the site's board" in refused.value.messages[0]


@pytest.mark.parametrize(
    "side, points, reason, note, said",
    [
        (2, 1, "director", "x", "Choose the player who is penalised."),
        (0, 0, "director", "x", "Penalty points are a whole number from 1 to 99."),
        (0, 1, "late", "x", "Choose the reason for the penalty."),
        (0, 1, "director", "  ", "Say in words why the penalty is given."),
    ],
)
def test_a_penalty_is_refused_in_words(match5, award, side, points, reason, note, said):
    with pytest.raises(ValidationError) as refused:
        award(match5, side, points, reason=reason, note=note)
    assert refused.value.messages == [said]


def test_a_penalty_on_an_older_page_is_refused(match5, award, record):
    version = fresh(match5).version
    record(match5, 0)
    with pytest.raises(SheetChanged):
        award(match5, 1, 1, version=version)


def test_the_database_refuses_a_penalty_of_no_points(match5):
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(match=match5, before_game=1, side=0, points=0, reason="director")


def test_a_penalty_is_audited_in_words(match5, award):
    award(match5, 0, 2, note="Moved before the roll")
    assert last_sentence(match5) == (
        "director gave 2 penalty points to Bruno Bianchi against Anna Rossi before game 1 "
        "(“Moved before the roll”): 0–2."
    )


# --- taking a penalty back: a correction ------------------------------------------------


def test_a_penalty_taken_back_gives_the_score_back(match5, record, award, director):
    penalty = award(match5, 1, 2)
    record(match5, 0)
    match_penalty_remove(penalty=penalty, user=director)
    assert not Penalty.objects.exists()
    assert sheet(match5).score == (1, 0)
    assert "took back" in last_sentence(match5)


def test_taking_back_a_winning_penalty_puts_the_match_back_in_play(match5, record, award, director):
    record(match5, 0)
    penalty = award(match5, 1, 4, reason="lateness", note="", minutes_late=40)
    assert fresh(match5).status == Match.Status.FINISHED
    match_penalty_remove(penalty=penalty, user=director)
    found = fresh(match5)
    assert found.status == Match.Status.IN_PLAY and found.finished_at is None
    assert sheet(match5).winner is None


def test_taking_back_a_penalty_rescores_the_games_after_it(match5, record, award, director):
    record(match5, 0, cube=2)  # 2-0
    penalty = award(match5, 0, 4)  # 2-4: game 2 is the Crawford game
    record(match5, 0)  # Crawford: 3-4
    record(match5, 1, cube=2)  # post-Crawford, doubled: 3-5 (won)
    match_penalty_remove(penalty=penalty, user=director)  # 2-0, 3-0, 3-2
    assert sheet(match5).score == (3, 2)
    assert fresh(match5).status == Match.Status.IN_PLAY


def test_taking_back_a_penalty_is_refused_when_a_later_game_becomes_the_crawford_game(
    match5, record, award, director
):
    """WBF 24: without the penalty, game 5 (doubled) would be the Crawford game."""
    record(match5, 1)  # 0-1
    penalty = award(match5, 0, 3)  # 0-4: game 2 is the Crawford game
    record(match5, 0)  # 1-4
    record(match5, 0, cube=2)  # 3-4
    record(match5, 0)  # 4-4
    record(match5, 0, cube=2)  # 5-4 (post-Crawford: the cube is live)
    with pytest.raises(ValidationError) as refused:
        match_penalty_remove(penalty=penalty, user=director)
    # without it: 0-1, 1-1, 3-1, 4-1, and game 5 would be the Crawford game
    assert refused.value.messages == ["Game 5 is the Crawford game: no doubling (WBF 24)."]
    assert Penalty.objects.filter(pk=penalty.pk).exists()


def test_a_penalty_taken_back_twice_is_refused(match5, award, director):
    penalty = award(match5, 1, 2)
    match_penalty_remove(penalty=penalty, user=director)
    with pytest.raises(ValidationError) as refused:
        match_penalty_remove(penalty=penalty, user=director)
    assert refused.value.messages == ["This penalty has already been taken back."]


def test_a_game_correction_that_a_later_penalty_cannot_follow_is_refused(
    match5, record, award, director
):
    record(match5, 0)
    award(match5, 0, 1)  # before game 2
    record(match5, 1)
    game = fresh(match5).games.get(number=1)
    with pytest.raises(ValidationError) as refused:  # game 1 now wins the match
        game_correct(game=game, winner=0, cube=4, result="gammon", user=director, version=None)
    assert "could not have been given" in refused.value.messages[0]


# --- forfeits ------------------------------------------------------------------------------


def test_a_time_forfeit_puts_the_opponent_at_the_length(match5, record, director):
    record(match5, 0, cube=2)  # 2-0
    match_forfeit(match=fresh(match5), side=0, reason="time", user=director)
    found = fresh(match5)
    assert (found.final_score_a, found.final_score_b) == (2, 5)
    assert found.retired == 0 and found.forfeit == "time"
    assert found.status == Match.Status.FINISHED
    result = sheet(match5)
    assert result.winner == 1 and result.score == (2, 5) and len(result.rows) == 1
    assert last_sentence(match5) == (
        "director recorded that Anna Rossi forfeited on time: Bruno Bianchi wins the "
        "match, final score 2–5."
    )


def test_a_forfeit_is_taken_back_as_a_retirement_is(match5, record, director):
    record(match5, 0)
    match_forfeit(match=fresh(match5), side=1, reason="lateness", user=director)
    match_result_clear(match=fresh(match5), user=director)
    found = fresh(match5)
    assert found.forfeit == "" and found.retired is None and found.status == "in_play"
    assert "took back the forfeit by lateness of Bruno Bianchi" in last_sentence(match5)


def test_a_forfeit_with_penalties_keeps_the_loser_s_score(match5, award, director):
    award(match5, 1, 2, reason="lateness", note="", minutes_late=10)
    match_forfeit(match=fresh(match5), side=1, reason="lateness", user=director)
    found = fresh(match5)
    assert (found.final_score_a, found.final_score_b) == (5, 0)
    assert [type(line) for line in sheet(match5).lines] == [PenaltyRow]


def test_no_forfeit_of_a_decided_match(match5, record, director):
    record(match5, 0, cube=4, result="gammon")
    with pytest.raises(ValidationError) as refused:
        match_forfeit(match=fresh(match5), side=1, reason="time", user=director)
    assert "take it back first" in refused.value.messages[0]


def test_a_forfeit_has_a_known_reason(match5, director):
    with pytest.raises(ValidationError) as refused:
        match_forfeit(match=fresh(match5), side=1, reason="boredom", user=director)
    assert refused.value.messages == ["Choose why the match is forfeited."]


def test_the_database_refuses_a_forfeit_without_a_side(match5):
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=match5.pk).update(forfeit="time")


def test_a_penalty_of_a_forfeited_match_is_taken_back_after_the_forfeit(match5, award, director):
    penalty = award(match5, 1, 2, reason="lateness", note="", minutes_late=10)
    match_forfeit(match=fresh(match5), side=1, reason="lateness", user=director)
    with pytest.raises(ValidationError) as refused:
        match_penalty_remove(penalty=Penalty.objects.get(pk=penalty.pk), user=director)
    assert "take that back first" in refused.value.messages[0]


# --- through the pages ---------------------------------------------------------------------


def penalty_post(client, match, **data):
    fields = {"side": 0, "points": 1, "reason": "director", "note": "Moved early"}
    fields.update(data)
    posted = {f"penalty-{k}": v for k, v in fields.items()}
    posted.setdefault("penalty-version", fresh(match).version)
    return client.post(reverse("penalty_new", args=[match.pk]), posted, follow=True)


def test_the_match_page_awards_penalty_points_and_shows_the_row(director_client, match5, record):
    record(match5, 0)
    done = penalty_post(
        director_client, match5, side=1, points=2, reason="lateness", note="", minutes_late=10
    )
    words = page_words(done)
    assert done.status_code == 200 and "The penalty points are recorded." in words
    assert "2 points to Anna Rossi — Bruno Bianchi 10 minutes late" in words
    assert 'class="penalty"' in done.content.decode()
    assert sheet(match5).score == (3, 0)


def test_after_a_penalty_to_one_short_the_game_form_offers_cube_1_only(
    director_client, match5, record
):
    """WBF 24: the penalty made game 2 the Crawford game; the form says so."""
    record(match5, 0)  # 1-0
    penalty_post(director_client, match5, side=0, points=4)  # 1-4
    page = director_client.get(reverse("match", args=[match5.pk])).content.decode()
    cubes = re.search(r'<select name="cube"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="(\d+)"', cubes) == ["1"]
    assert "Game 2 is the Crawford game" in page


@pytest.mark.parametrize(
    "data, said",
    [
        ({"side": ""}, "Penalised: This field is required."),
        ({"reason": "director", "note": ""}, "Say in words why the penalty is given."),
        ({"points": 0}, "Ensure this value is greater than or equal to 1."),
    ],
)
def test_a_refused_penalty_form_says_why(director_client, match5, data, said):
    refused = penalty_post(director_client, match5, **data)
    assert refused.status_code == 400 and said in page_words(refused)
    assert not Penalty.objects.exists()


def test_a_penalty_on_a_decided_match_is_refused_on_the_page(director_client, match5, record):
    record(match5, 0, cube=4, result="gammon")
    refused = penalty_post(director_client, match5, side=1)
    assert refused.status_code == 400
    assert "no penalty points can be given now" in page_words(refused)


def test_a_penalty_from_an_older_page_is_refused_with_the_change(director_client, match5):
    refused = penalty_post(director_client, match5, version=7)
    assert refused.status_code == 409 and "The score sheet changed" in page_words(refused)


def test_a_member_may_not_award_nor_take_back(client, member, match5, award):
    penalty = award(match5, 0, 1)
    client.force_login(member)
    assert penalty_post(client, match5).status_code == 403
    url = reverse("penalty_remove", args=[match5.pk, penalty.pk])
    assert client.post(url, {"version": 1, "confirm": "1"}).status_code == 403
    assert Penalty.objects.count() == 1


def test_taking_back_asks_first_then_takes_back(director_client, match5, award):
    penalty = award(match5, 0, 2, note="Moved early")
    url = reverse("penalty_remove", args=[match5.pk, penalty.pk])
    version = fresh(match5).version
    asked = director_client.post(url, {"version": version})
    assert asked.status_code == 200 and "Take back the penalty points?" in page_words(asked)
    assert "2 penalty points to Bruno Bianchi against Anna Rossi" in page_words(asked)
    assert Penalty.objects.exists()
    done = director_client.post(url, {"version": version, "confirm": "1"}, follow=True)
    assert "The penalty points are taken back." in page_words(done)
    assert not Penalty.objects.exists()


def test_taking_back_refused_is_said_on_the_match_page(director_client, match5, award, director):
    penalty = award(match5, 1, 2, reason="lateness", note="", minutes_late=10)
    match_forfeit(match=fresh(match5), side=1, reason="lateness", user=director)
    url = reverse("penalty_remove", args=[match5.pk, penalty.pk])
    refused = director_client.post(url, {"version": fresh(match5).version, "confirm": "1"})
    assert refused.status_code == 400 and "take that back first" in page_words(refused)
    stale = director_client.post(url, {"version": 0, "confirm": "1"})
    assert stale.status_code == 409
    missing = director_client.post(reverse("penalty_remove", args=[match5.pk, 999]), {})
    assert missing.status_code == 404
    no_version = director_client.post(url, {"confirm": "1"})
    assert no_version.status_code == 400 and Penalty.objects.exists()


def test_the_forfeit_page_asks_first_then_records(director_client, match5, record):
    record(match5, 0)
    url = reverse("forfeit", args=[match5.pk])
    data = {"forfeit-side": 1, "forfeit-reason": "time", "forfeit-version": fresh(match5).version}
    asked = director_client.post(url, data)
    assert asked.status_code == 200 and "Bruno Bianchi forfeits?" in page_words(asked)
    assert "loses the 5-point match on time" in page_words(asked)
    assert fresh(match5).forfeit == ""
    done = director_client.post(url, {**data, "confirm": "1"}, follow=True)
    words = page_words(done)
    assert "The forfeit is recorded." in words and "Bruno Bianchi lost on time" in words
    assert "The match ended on time: Bruno Bianchi’s flag fell" in words or (
        "The match ended on time: Bruno Bianchi's flag fell" in words
    )
    assert 'id="take-back"' in done.content.decode()
    assert fresh(match5).forfeit == "time" and fresh(match5).retired == 1


def test_the_forfeit_page_refuses_in_words(director_client, match5, record):
    record(match5, 0, cube=4, result="gammon")
    url = reverse("forfeit", args=[match5.pk])
    blank = director_client.post(url, {"forfeit-side": "", "forfeit-version": 1})
    assert blank.status_code == 400
    data = {"forfeit-side": 1, "forfeit-reason": "time", "forfeit-version": 1, "confirm": "1"}
    refused = director_client.post(url, data)
    assert refused.status_code == 400 and "take it back first" in page_words(refused)


def test_the_printable_sheet_lists_the_penalty_points_given(client, match5, award):
    award(match5, 1, 2, reason="lateness", note="", minutes_late=10)
    page = client.get(reverse("score_sheet", args=[match5.pk]))
    words = page_words(page)
    assert "Penalty points given (tournament rules)" in words
    assert "2 points to Anna Rossi — Bruno Bianchi 10 minutes late" in words


def test_the_match_page_says_penalties_in_italian(client, match5, award):
    award(match5, 1, 2, reason="lateness", note="", minutes_late=10)
    page = client.get(reverse("match", args=[match5.pk]), HTTP_ACCEPT_LANGUAGE="it")
    words = page_words(page)
    assert "Penalità" in words
    assert "2 punti a Anna Rossi — Bruno Bianchi in ritardo di 10 minuti" in words


def test_a_match_won_by_penalty_points_is_taken_back_on_the_penalty_s_line(
    director_client, match5, award, director
):
    penalty = award(match5, 1, 5, reason="lateness", note="", minutes_late=50)
    page = director_client.get(reverse("match", args=[match5.pk])).content.decode()
    assert 'id="won-by-penalty"' in page and 'id="take-back"' not in page
    assert reverse("penalty_remove", args=[match5.pk, penalty.pk]) in page
    refused = director_client.post(
        reverse("result_clear", args=[match5.pk]),
        {"version": fresh(match5).version, "confirm": "1"},
    )
    assert refused.status_code == 400
    assert "take back the penalty on its line instead" in page_words(refused)


def test_a_lateness_forfeit_before_the_first_game_is_taken_back_from_the_page(
    director_client, match5, award, director
):
    award(match5, 1, 2, reason="lateness", note="", minutes_late=10)
    match_forfeit(match=fresh(match5), side=1, reason="lateness", user=director)
    page = director_client.get(reverse("match", args=[match5.pk]))
    words = page_words(page)
    assert "Bruno Bianchi forfeited by lateness" in words
    assert "The forfeit goes, and the match goes on from its games." in words
    done = director_client.post(
        reverse("result_clear", args=[match5.pk]),
        {"version": fresh(match5).version, "confirm": "1"},
        follow=True,
    )
    assert done.status_code == 200 and fresh(match5).forfeit == ""
    assert fresh(match5).status == Match.Status.SCHEDULED
    assert sheet(match5).score == (2, 0)
