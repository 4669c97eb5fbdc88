"""Match files in and out of the site: every corpus file imports, exports and replays the same."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club.policy import SYSTEM
from club.services import player_create
from matches.board.service import board_state
from matches.matfiles import mat_import, match_mat
from matches.models import BoardGame, Match
from matches.selectors import match_score_sheet
from matches.services import match_create
from rules.matfile import read_mat
from rules.replay import replay_match
from tests.conftest import DATA, data_files

pytestmark = pytest.mark.django_db

CORPUS = data_files("corpus/mat", "*.mat")


def match_for(record):
    a = player_create(name=record.players[0], user=SYSTEM)
    b = player_create(name=record.players[1], user=SYSTEM)
    return match_create(player_a=a, player_b=b, length=record.length, user=SYSTEM)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_each_real_match_file_imports_and_comes_back_out_the_same(path, director):
    text = path.read_bytes().decode("utf-8-sig")
    record = read_mat(text)
    replay = replay_match(record)
    match = match_for(record)
    mat_import(match=match, text=text, user=director)
    match = Match.objects.get(pk=match.pk)
    sheet = match_score_sheet(match=match)
    counted = [g for g in replay.games if g.counted and g.result is not None]
    assert [(r.game.winner, r.game.points) for r in sheet.rows] == [
        (g.result.winner, g.result.points) for g in counted
    ]
    assert sheet.score == replay.final_score
    # each imported log rebuilds on the board as the replay left it
    for board_game in BoardGame.objects.filter(match=match):
        rebuilt = board_state(board_game=board_game).game
        original = replay.games[board_game.number - 1]
        assert [(a.act, a.position) for a in rebuilt.log] == [
            (a.act, a.position) for a in original.log
        ]
    # exported and read again, the match replays to the same games and score
    again = replay_match(read_mat(match_mat(match=match)))
    assert again.final_score == sheet.score
    assert [(g.winner, g.points) for g in again.games if g.counted] == [
        (g.result.winner, g.result.points) for g in counted
    ]


def test_players_are_matched_by_name_in_either_order(director):
    text = (DATA / "corpus" / "mat" / "gnubgparser_charlot1-charlot2_7p.mat").read_text()
    record = read_mat(text)
    a = player_create(name=record.players[1], user=SYSTEM)  # the file's right-hand player is our A
    b = player_create(name=record.players[0].upper(), user=SYSTEM)  # case does not matter
    match = match_create(player_a=a, player_b=b, length=record.length, user=SYSTEM)
    plan = mat_import(match=match, text=text, user=director)
    assert plan.swapped and plan.by_name
    replay = replay_match(record)
    assert match_score_sheet(match=Match.objects.get(pk=match.pk)).score == tuple(
        reversed(replay.final_score)
    )


def test_unknown_players_must_be_chosen_and_the_length_must_match(anna, bruno, director):
    text = (DATA / "corpus" / "mat" / "gnubgparser_charlot1-charlot2_7p.mat").read_text()
    match = match_create(player_a=anna, player_b=bruno, length=7, user=SYSTEM)
    with pytest.raises(ValidationError, match="not this match's by name"):
        mat_import(match=match, text=text, user=director)
    plan = mat_import(match=match, text=text, left=0, user=director)  # the director chose
    assert not plan.swapped and not plan.by_name
    other = match_create(player_a=anna, player_b=bruno, length=5, user=SYSTEM)
    with pytest.raises(ValidationError, match="7-point match; this match is to 5"):
        mat_import(match=other, text=text, left=0, user=director)


def test_a_file_that_is_not_a_match_file_is_refused_with_its_line(match5, director):
    with pytest.raises(ValidationError, match="line 1"):
        mat_import(match=match5, text="hello\nworld\n", user=director)


def test_a_match_with_games_takes_no_import(anna, bruno, record, director):
    text = (DATA / "corpus" / "mat" / "gnubg-scripts_test-match01.mat").read_text()
    match = match_create(player_a=anna, player_b=bruno, length=read_mat(text).length, user=SYSTEM)
    record(match, 0)
    with pytest.raises(ValidationError, match=r"already has games.*open a dispute"):
        mat_import(match=Match.objects.get(pk=match.pk), text=text, left=0, user=director)
    assert not BoardGame.objects.filter(match=match).exists()


CONTINUED = """ 3 point match

 Game 1
 Anna Rossi : 2                 Bruno Bianchi : 0
  1)                             41: 13/9 24/23
  2) 31: 8/5 6/5                 Wins 1 point
"""


@pytest.mark.parametrize(
    "text, said",
    [
        (CONTINUED, "continues a match at 2-0 begun in another file"),
        ('; [Variation "NackGammon"]\n' + CONTINUED.replace(": 2 ", ": 0 "), "of Nackgammon"),
        ('; [Crawford "Off"]\n' + CONTINUED.replace(": 2 ", ": 0 "), "without the Crawford rule"),
    ],
)
def test_a_file_that_cannot_be_this_match_s_log_is_refused_through_the_page(
    director_client, anna, bruno, text, said
):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    upload = SimpleUploadedFile("m.mat", text.encode())
    response = director_client.post(reverse("match_import", args=[match.pk]), {"file": upload})
    assert said in response.content.decode()
    assert not BoardGame.objects.filter(match=match).exists()


def test_the_export_of_a_match_whose_names_hold_line_breaks_reads_back(
    match5, record, director, client
):
    """Issue 23.5: names stored before the site kept them on one line, and a player's own
    name with a right-to-left override, still give a file the site reads back."""
    from club.models import Player

    Player.objects.filter(pk=match5.player_a_id).update(name="Anna\r\nRossi")
    Player.objects.filter(pk=match5.player_b_id).update(name="Bruno \u202eiggaM")
    record(match5, 0)
    response = client.get(reverse("match_export", args=[match5.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert read_mat(text).players == ("Anna Rossi", "Bruno iggaM")
    replay = replay_match(read_mat(text))  # a 5-point match at 1-0: unfinished, not broken
    assert [(g.winner, g.points) for g in replay.games] == [(0, 1)]
