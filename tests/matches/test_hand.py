"""The director's evening without friction: hand entry in plain words, only the cube values
the rules allow, a retirement in the middle of a match, and the Holland rule (Galore 5.4)."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from club.audit import audit_sentence
from club.models import AuditEntry
from matches.board.service import board_game_start
from matches.models import BoardGame, Game, Match
from matches.selectors import match_score_sheet
from matches.services import game_correct, match_create, match_result_clear, match_retire
from tests.helpers import page_words

from .board.test_service import act, to_play

pytestmark = pytest.mark.django_db


def fresh(match):
    return Match.objects.get(pk=match.pk)


# --- hand entry -------------------------------------------------------------------------


def test_the_result_choices_say_plainly_how_the_game_ended(director_client, match5):
    page = director_client.get(match5.get_absolute_url()).content.decode()
    for words in (
        "single game",
        "gammon",
        "backgammon",
        "double dropped",
        "resigned: a single game",
        "resigned: a gammon",
        "resigned: a backgammon",
    ):
        assert f">{words}</option>" in page
    assert 'name="resigned"' not in page  # one choice says it all


def test_a_resigned_gammon_is_recorded_from_one_choice(director_client, match5):
    response = director_client.post(
        reverse("game_new", args=[match5.pk]),
        {"number": 1, "winner": 1, "cube": 2, "result": "resigned-2"},
    )
    assert response.status_code == 302
    game = Game.objects.get(match=match5, number=1)
    assert (game.result, game.resigned, game.as_result().points) == ("resignation", 2, 4)
    page = director_client.get(reverse("game_edit", args=[match5.pk, 1])).content.decode()
    assert '<option value="resigned-2" selected>' in page  # the correction starts from it


def test_the_crawford_game_offers_no_cube_but_1_and_no_drop(director_client, match5, record):
    record(match5, 0, cube=4)  # 4-0: game 2 is the Crawford game (WBF 24)
    page = director_client.get(match5.get_absolute_url()).content.decode()
    form = page[page.index('action="/matches/') : page.index("Record the game")]
    assert '<option value="1" selected>1</option>' in form
    assert '<option value="2"' not in form
    assert '"drop"' not in form
    assert "The Crawford game: no doubling (WBF 24)." in form
    record(match5, 1)  # 4-1: post-Crawford, the cube is live again
    page = director_client.get(match5.get_absolute_url()).content.decode()
    assert '<option value="64">64</option>' in page and '"drop"' in page


def test_the_crawford_game_s_correction_offers_only_cube_1(director_client, match5, record):
    record(match5, 0, cube=4)
    record(match5, 1)
    page = director_client.get(reverse("game_edit", args=[match5.pk, 2])).content.decode()
    assert '<option value="2"' not in page and '"drop"' not in page
    page = director_client.get(reverse("game_edit", args=[match5.pk, 1])).content.decode()
    assert '<option value="2"' in page and '"drop"' in page


def test_a_drop_sent_anyway_in_the_crawford_game_is_refused_in_words(
    director_client, match5, record
):
    record(match5, 0, cube=4)
    response = director_client.post(
        reverse("game_new", args=[match5.pk]),
        {"number": 2, "winner": 1, "cube": 1, "result": "drop"},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Game 2 is the Crawford game: no doubling (WBF 24)." in page
    assert '<option value="drop" selected>' in page  # shown as the director sent it


def test_a_dropped_double_is_entered_as_the_value_offered_and_scores_the_cube_before(
    director_client, match5, record
):
    """Issue 24.4: "doubled to 2, dropped" entered as cube 2 counted 2 points and ended a
    match at 5-4. A dropped double scores the cube before the double (WBF 23)."""
    record(match5, 0, cube=2)  # 2-0
    record(match5, 1, cube=4)  # 2-4: game 3 is the Crawford game
    record(match5, 0)  # 3-4
    page = director_client.get(match5.get_absolute_url())
    said = page_words(page)
    assert "for a double dropped, the value offered (“Doubles => 2”)" in said  # which cube
    assert "the winner scores half, the cube before the double (WBF 23)." in said
    response = director_client.post(
        reverse("game_new", args=[match5.pk]),
        {"number": 4, "winner": 0, "cube": 2, "result": "drop"},
        follow=True,
    )
    assert response.status_code == 200
    assert Game.objects.get(match=match5, number=4).points == 1
    said = page_words(response)
    assert "4–4" in said and "wins the match" not in said and "Record game 5" in said
    # the sheet shows the cube as it was entered, the points as the rules count them
    sheet = said[said.index("Score sheet") : said.index("Printable blank score sheet")]
    assert "post-Crawford 3–4 Anna Rossi 2 double dropped 1 4–4 Correct" in sheet
    # the audit sentence says the points counted
    assert (
        "director recorded game 4: Anna Rossi won (double dropped, cube 2): 1 point counted."
        in said
    )
    # the correction starts from the value offered, and keeps it
    edit = director_client.get(reverse("game_edit", args=[match5.pk, 4])).content.decode()
    assert '<option value="2" selected>2</option>' in edit
    assert '<option value="drop" selected>' in edit


def test_the_cube_of_a_drop_is_explained_in_italian(director_client, match5, record):
    record(match5, 1, cube=2, result="drop")  # played for 2, the double to 4 refused
    page = director_client.get(match5.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it")
    said = page_words(page)
    assert "per un raddoppio rifiutato, il valore offerto (“Doubles => 2”)" in said
    assert "il vincitore segna la metà, il cubo di prima del raddoppio (WBF 23)." in said
    assert "Bruno Bianchi ha vinto (raddoppio rifiutato, cubo a 4): 2 punti segnati" in said


def test_a_drop_of_cube_1_is_refused_in_words(director_client, match5):
    response = director_client.post(
        reverse("game_new", args=[match5.pk]),
        {"number": 1, "winner": 1, "cube": 1, "result": "drop"},
    )
    assert response.status_code == 400
    assert "A dropped double was offered at 2 or more" in page_words(response)
    assert not Game.objects.filter(match=match5).exists()


def test_the_service_counts_a_drop_as_the_cube_before_the_double(match5, record):
    game = record(match5, 1, cube=2, result="drop")  # played for 2, the double to 4 refused
    assert game.points == 2 and match_score_sheet(match=match5).score == (0, 2)


def test_how_a_game_ended_reads_the_same_by_hand_on_the_board_and_imported(
    director_client, match5, anna, bruno, director
):
    """Issue 24.14f: an imported resignation read "resignation (2)" on the sheet where the form
    says "resigned: a single game"; one wording wherever it shows (matches/endings.py)."""
    from matches.matfiles import mat_import, match_mat

    board = board_game_start(match=match5, user=director)
    to_play(board, director, dice=(3, 1))
    act(board, "resign", director, level=2)  # Anna, on roll, gives up a gammon
    act(board, "accept", director)
    imported = match_create(player_a=anna, player_b=bruno, length=5, user=director)
    mat_import(match=imported, text=match_mat(match=match5), user=director)
    for match, language, words in [
        (match5, "en", "resigned: a gammon"),
        (imported, "en", "resigned: a gammon"),
        (imported, "it", "abbandono: un gammon"),
    ]:
        page = director_client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
        said = page_words(page)
        sheet = said[said.index("Score sheet" if language == "en" else "Foglio segnapunti") :]
        assert f"Bruno Bianchi 1 {words} 2 0–2" in sheet
        assert "resignation (" not in said and "abbandono (" not in said


# --- a retirement -----------------------------------------------------------------------


def test_a_retirement_gives_the_opponent_the_match_and_keeps_the_games(match5, record, director):
    record(match5, 0, cube=2)  # 2-0
    record(match5, 1)  # 2-1
    retired = match_retire(match=fresh(match5), side=0, user=director)
    assert (retired.status, retired.retired) == (Match.Status.FINISHED, 0)
    assert (retired.final_score_a, retired.final_score_b) == (2, 5)  # the length to the winner
    sheet = match_score_sheet(match=fresh(match5))
    assert (sheet.score, sheet.winner, len(sheet.rows), sheet.next_game) == ((2, 5), 1, 2, None)
    entry = AuditEntry.objects.filter(code="result.retired").latest("id")
    assert audit_sentence(entry) == (
        "director recorded that Anna Rossi retired: Bruno Bianchi wins the match, final score 2–5."
    )
    with pytest.raises(ValidationError, match="Anna Rossi retired from this match"):
        record(match5, 1)
    with pytest.raises(ValidationError, match="take it back to record or correct"):
        game_correct(
            game=Game.objects.get(match=match5, number=2),
            winner=0,
            cube=1,
            result="single",
            user=director,
        )


def test_a_retirement_before_any_game(match5, director):
    retired = match_retire(match=match5, side=1, user=director)
    assert (retired.final_score_a, retired.final_score_b) == (5, 0)
    assert match_score_sheet(match=fresh(match5)).winner == 0


def test_a_retirement_is_taken_back_and_the_match_goes_on(match5, record, director):
    record(match5, 0, cube=2)
    match_retire(match=fresh(match5), side=1, user=director)
    cleared = match_result_clear(match=fresh(match5), user=director)
    assert (cleared.status, cleared.retired, cleared.final_score_a) == (
        Match.Status.IN_PLAY,
        None,
        None,
    )
    assert audit_sentence(AuditEntry.objects.filter(code="result.cleared").latest("id")) == (
        "director took back the retirement of Bruno Bianchi (final score 5–0): "
        "the match is to be played."
    )
    record(match5, 1)  # the match goes on from its games
    assert match_score_sheet(match=fresh(match5)).score == (2, 1)


def test_a_retirement_is_refused_over_a_result_or_a_game_on_the_board(
    match5, record, director, finish
):
    board = board_game_start(match=match5, user=director)
    to_play(board, director, dice=(3, 1))
    with pytest.raises(ValidationError, match="being played on the site's board"):
        match_retire(match=fresh(match5), side=0, user=director)
    other = match_create(
        player_a=match5.player_a, player_b=match5.player_b, length=3, user=director
    )
    finish(other, other.player_a)
    with pytest.raises(ValidationError, match="take it back first"):
        match_retire(match=fresh(other), side=0, user=director)


def test_a_board_opened_but_never_rolled_does_not_stop_a_retirement(match5, director):
    board_game_start(match=match5, user=director)
    match_retire(match=fresh(match5), side=0, user=director)
    assert not BoardGame.objects.filter(match=match5).exists()


def test_the_retirement_page_asks_first_then_records(director_client, match5, record):
    record(match5, 0)
    url = reverse("retire", args=[match5.pk])
    asked = director_client.post(url, {"side": 1, "version": fresh(match5).version})
    page = asked.content.decode()
    assert asked.status_code == 200 and "Bruno Bianchi retired?" in page
    assert fresh(match5).retired is None  # nothing yet
    done = director_client.post(
        url, {"side": 1, "version": fresh(match5).version, "confirm": "1"}, follow=True
    )
    page = done.content.decode()
    assert "The retirement is recorded." in page and "Bruno Bianchi retired" in page
    assert 'id="take-back"' in page
    assert reverse("game_edit", args=[match5.pk, 1]) not in page  # take the retirement back
    assert fresh(match5).retired == 1


def test_the_retirement_page_refuses_in_words(director_client, member, match5):
    url = reverse("retire", args=[match5.pk])
    refused = director_client.post(url, {"side": "", "version": 0, "confirm": "1"})
    assert refused.status_code == 400 and fresh(match5).retired is None
    stale = director_client.post(url, {"side": 0, "version": 7, "confirm": "1"})
    assert stale.status_code == 409 and "The score sheet changed" in stale.content.decode()
    other = Client()
    other.force_login(member)
    assert other.post(url, {"side": 0, "version": 0, "confirm": "1"}).status_code == 403
    assert fresh(match5).retired is None


# --- the Holland rule -------------------------------------------------------------------


@pytest.fixture
def holland5(anna, bruno, director):
    return match_create(player_a=anna, player_b=bruno, length=5, user=director, holland=True)


def test_the_board_refuses_the_trailer_s_early_double_citing_galore_5_4(holland5, record, director):
    record(holland5, 0, cube=4)  # 4-0
    record(holland5, 1)  # the Crawford game: 4-1, game 3 is post-Crawford
    board = board_game_start(match=fresh(holland5), user=director)
    to_play(board, director, dice=(3, 1))  # Anna (leading) opens
    act(board, "play", director, play="8/5 6/5")
    with pytest.raises(ValidationError) as refused:
        act(board, "double", director)  # Bruno, trailing, on his first turn
    assert refused.value.messages[0] == (
        "Under the Holland rule the trailer may not double before their third turn (Galore 5.4)."
    )


def test_without_the_holland_rule_the_trailer_may_double_at_once(match5, record, director):
    record(match5, 0, cube=4)
    record(match5, 1)
    board = board_game_start(match=fresh(match5), user=director)
    to_play(board, director, dice=(3, 1))
    act(board, "play", director, play="8/5 6/5")
    assert act(board, "double", director).game.phase.value == "doubled"


def test_the_match_page_and_the_printed_sheet_show_the_holland_rule(client, holland5, match5):
    says = "Holland rule: post-Crawford, the trailer may not double before their third turn"
    assert says in client.get(holland5.get_absolute_url()).content.decode()
    assert says in client.get(reverse("score_sheet", args=[holland5.pk])).content.decode()
    assert says not in client.get(match5.get_absolute_url()).content.decode()
