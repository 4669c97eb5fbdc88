"""The board, the game log, export, import and disputes as a director meets them (no JavaScript)."""

import html
import re

import pytest
from django.urls import reverse

from club.models import AuditEntry
from club.policy import SYSTEM
from matches.board.service import board_state
from matches.models import BoardGame, Dispute, Game, Match
from matches.selectors import match_score_sheet

pytestmark = pytest.mark.django_db


def post(client, match, action, **data):
    board_game = BoardGame.objects.filter(match=match).order_by("-number").first()
    url = reverse("board_act", args=[match.pk, board_game.number])
    return client.post(url, {"action": action, "version": board_game.version, **data})


@pytest.fixture
def started(director_client, match5):
    response = director_client.post(reverse("board_start", args=[match5.pk]))
    assert response.status_code == 302
    return match5


def test_the_board_is_an_svg_from_the_side_of_the_player_on_roll(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)  # Anna (A) plays 3-1
    page = director_client.get(reverse("board", args=[started.pk])).content.decode()
    assert "<svg" in page and "Board from the side of Anna Rossi" in page
    assert "Point 6: 5 checkers of Anna Rossi" in page  # read out to a screen reader
    assert "Point 19: 5 checkers of Bruno Bianchi" in page  # Bruno's 6 point, Anna's 19
    assert "Pip count: Anna Rossi 167, Bruno Bianchi 167" in page
    assert "match to 5" in page and "Dice: 3-1" in page
    # each movable checker is a link; nothing is a destination until a checker is chosen
    assert page.count('class="target source') == 4 and "destination" not in page


def test_a_play_by_clicks_without_javascript(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    page = director_client.get(reverse("board", args=[started.pk]) + "?from=8").content.decode()
    destinations = re.findall(r'name="destination" value="(\d+)"', page)
    assert sorted(destinations, key=int) == ["5", "7"]
    assert post(director_client, started, "move", source=8, destination=5).status_code == 302
    page = director_client.get(reverse("board", args=[started.pk])).content.decode()
    assert "Moved so far: 8/5" in page and "Take back a move" in page
    assert "Confirm the play" not in page  # the 1 is still to play
    post(director_client, started, "move", source=6, destination=5)
    assert post(director_client, started, "confirm").status_code == 302
    state = board_state(board_game=BoardGame.objects.get(match=started))
    assert state.game.log[-1].play == "8/5 6/5" and state.game.turn == 1


def test_a_typed_play_waits_for_confirmation_like_a_clicked_one(director_client, started):
    post(director_client, started, "opening", die1=6, die2=4)
    post(director_client, started, "move", source=24, destination=18)  # a click, then typing
    assert post(director_client, started, "type", play="8/2 6/2").status_code == 302
    page = director_client.get(reverse("board", args=[started.pk])).content.decode()
    assert "Moved so far: 8/2 6/2" in page and "Confirm the play" in page  # the click is gone
    state = board_state(board_game=BoardGame.objects.get(match=started))
    assert state.game.turn == 0 and state.game.log[-1].act.value == "opening roll"  # not yet
    post(director_client, started, "undo")
    page = director_client.get(reverse("board", args=[started.pk])).content.decode()
    assert "Moved so far: 8/2" in page and "Confirm the play" not in page
    post(director_client, started, "move", source=6, destination=2)  # taken back, made again
    assert post(director_client, started, "confirm").status_code == 302
    state = board_state(board_game=BoardGame.objects.get(match=started))
    assert state.game.log[-1].play == "8/2 6/2" and state.game.turn == 1


def test_a_typed_play_the_rules_forbid_is_refused_with_the_rule(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    response = post(director_client, started, "type", play="13/10")  # the 1 left unplayed
    assert response.status_code == 400
    assert "Both dice can be played, so both must be (WBF 17)." in response.content.decode()
    response = post(director_client, started, "type", play="  ")
    assert response.status_code == 400 and "Type the play" in response.content.decode()
    state = board_state(board_game=BoardGame.objects.get(match=started))
    assert state.turn.moves == () and state.game.log[-1].act.value == "opening roll"


def test_a_stale_board_is_refused_with_the_board_as_it_is(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    board_game = BoardGame.objects.get(match=started)
    url = reverse("board_act", args=[started.pk, 1])
    stale = board_game.version
    director_client.post(url, {"action": "play", "version": stale, "play": "8/5 6/5"})
    response = director_client.post(
        url, {"action": "play", "version": stale, "play": "24/23 13/10"}, headers={"X-Board": "1"}
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "The board changed before your action arrived" in page
    assert page.startswith('<div id="board-area"')  # the script swaps in the current board
    assert "Bruno Bianchi is to double or roll" in page


def test_a_refusal_keeps_the_board_and_names_the_rule(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    response = post(director_client, started, "play", play="13/10")  # the 1 left unplayed
    assert response.status_code == 400
    assert "Both dice can be played, so both must be (WBF 17)." in response.content.decode()


def test_the_board_shows_the_crawford_game_and_offers_no_double(director_client, match5, record):
    record(match5, 0, cube=2)
    record(match5, 0, cube=2)  # 4-0
    director_client.post(reverse("board_start", args=[match5.pk]))
    post(director_client, match5, "opening", die1=6, die2=1)
    post(director_client, match5, "play", play="13/7 8/7")
    page = director_client.get(reverse("board", args=[match5.pk])).content.decode()
    assert "Crawford game: no doubling (WBF 24)" in page
    assert 'value="roll"' in page and 'value="double"' not in page
    assert "Bruno Bianchi is to roll." in page and "to double or roll" not in page


def test_the_cube_s_owner_s_opponent_is_only_to_roll(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    post(director_client, started, "play", play="8/5 6/5")
    post(director_client, started, "double")  # Bruno doubles...
    post(director_client, started, "take")  # ...Anna owns the cube; Bruno rolls
    page = director_client.get(reverse("board", args=[started.pk])).content.decode()
    assert 'value="double"' not in page and "Bruno Bianchi is to roll." in page


def test_a_visitor_sees_the_board_but_no_buttons(started, director_client):
    from django.test import Client

    post(director_client, started, "opening", die1=3, die2=1)
    page = Client().get(reverse("board", args=[started.pk])).content.decode()
    assert "<svg" in page and 'value="roll"' not in page and "target" not in page


def test_the_game_log_gives_every_action_with_gnubg_ids(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    post(director_client, started, "play", play="8/5 6/5")
    post(director_client, started, "double")
    post(director_client, started, "drop")
    state = board_state(board_game=BoardGame.objects.get(match=started))
    url = reverse("game_log", args=[started.pk, 1])
    assert len(state.game.log) == 4
    for number, action in enumerate(state.game.log, start=1):
        page = director_client.get(url, {"at": number}).content.decode()
        assert f'value="{action.position_id}"' in page and f'value="{action.match_id}"' in page
        assert page.count("<svg") == 1 and page.count('<li id="action-') == 4
        assert (f'href="?at={number - 1}#shown"' in page) == (number > 1)  # previous
        assert (f'href="?at={number + 1}#shown"' in page) == (number < 4)  # next
        if number == 2:
            assert "Bruno Bianchi 167, Anna Rossi 163" in page  # after 8/5 6/5, Bruno on roll
    last = director_client.get(url).content.decode()  # no action asked for: the last one
    assert f'value="{state.game.log[-1].match_id}"' in last and "Action 4 of 4" in last
    for wrong in ("0", "99", "x"):
        page = director_client.get(url, {"at": wrong})
        assert page.status_code == 200 and "Action" in page.content.decode()


def test_the_match_downloads_as_a_mat_file(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    post(director_client, started, "play", play="8/5 6/5")
    response = director_client.get(reverse("match_export", args=[started.pk]))
    assert response["Content-Disposition"].endswith('.mat"')
    text = response.content.decode()
    assert " 5 point match" in text and "31: 8/5 6/5" in text


ILLEGAL = """ 3 point match

 Game 1
 Anna Rossi : 0                 Bruno Bianchi : 0
  1)                             41: 13/9 24/23
  2) 31: 8/5 6/5                 62: 24/18 13/10
  3) 55: 13/3(2)                 Doubles => 2
  4)  Drops                      Wins 1 point
"""


def test_an_import_is_previewed_with_the_illegal_line_flagged(director_client, anna, bruno):
    from matches.services import match_create

    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    url = reverse("match_import", args=[match.pk])
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("m.mat", ILLEGAL.encode())
    page = director_client.post(url, {"file": upload}).content.decode()
    assert re.search(
        r'data-line="6"><td[^>]*>6</td><td[^>]*>1</td><td[^>]*><span class="kind">Dice that do '
        r"not fit the "
        r"play</span>: Bruno Bianchi plays",
        page,
    )
    assert "WBF" in page and not Game.objects.exists()  # nothing saved until confirmed
    text = html.unescape(
        re.search(r'<textarea name="text" hidden>\n(.*?)</textarea>', page, re.S)[1]
    )
    response = director_client.post(url, {"text": text, "left": "0", "confirm": "1"})
    assert response.status_code == 302
    assert match_score_sheet(match=Match.objects.get(pk=match.pk)).score == (0, 1)


def test_a_dispute_from_a_file_shows_where_log_and_score_part_ways(director_client, match5, record):
    record(match5, 0, cube=2)  # recorded: Anna 2-0 ... the file says Bruno won game 1
    text = (
        " 5 point match\n\n Game 1\n Anna Rossi : 0                 Bruno Bianchi : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Drops                      Wins 1 point\n"
    )
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = director_client.post(
        reverse("dispute_new", args=[match5.pk]),
        {"file": SimpleUploadedFile("a.mat", text.encode())},
    )
    dispute = Dispute.objects.get()
    assert response["Location"] == dispute.get_absolute_url()
    page = director_client.get(dispute.get_absolute_url()).content.decode()
    assert "part ways at game 1" in page
    assert 'id="log-score">0–1<' in page and 'id="recorded-score">2–0<' in page
    # only Bruno kept a sheet: it stands, and the page says which rule it used
    director_client.post(dispute.get_absolute_url(), {"sheets": "1", "b_a": "0", "b_b": "1"})
    page = director_client.get(dispute.get_absolute_url()).content.decode()
    assert "Only Bruno Bianchi kept a score sheet, so it stands: 0–1 (WBF 3" in page
    sheets = {"sheets": "1", "a_a": "0", "a_b": "2", "b_a": "0", "b_b": "1"}
    director_client.post(dispute.get_absolute_url(), sheets)  # both have Anna trailing
    page = director_client.get(dispute.get_absolute_url()).content.decode()
    assert "the trailing player&#x27;s sheet stands, Anna Rossi&#x27;s: 0–2" in page
    sheets.update(a_a="2", a_b="0")  # now each sheet has the other player behind
    director_client.post(dispute.get_absolute_url(), sheets)
    page = director_client.get(dispute.get_absolute_url()).content.decode()
    assert "the sheets do not agree on who is trailing" in page
    # the decision: the log stands, corrected through the usual correction, linked to the dispute
    director_client.post(dispute.get_absolute_url(), {"decide": "1"})
    game = Game.objects.get(match=match5, number=1)
    assert (game.winner, game.result, game.cube) == (1, "drop", 1)
    corrected = AuditEntry.objects.get(match_id=match5.pk, code="game.corrected")
    assert corrected.dispute_id == dispute.pk
    decided = director_client.get(dispute.get_absolute_url()).content.decode()
    assert "The log stands, 1 game corrected or added" in decided


def test_a_dispute_from_the_site_s_own_log(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    post(director_client, started, "play", play="8/5 6/5")
    response = director_client.post(reverse("dispute_new", args=[started.pk]), {})
    dispute = Dispute.objects.get()
    assert dispute.source == "site" and response.status_code == 302
    page = director_client.get(dispute.get_absolute_url()).content.decode()
    assert "31: 8/5 6/5" in dispute.mat and "unfinished" in page


def test_replaying_the_site_s_log_again_reuses_the_open_dispute(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    post(director_client, started, "play", play="8/5 6/5")
    url = reverse("dispute_new", args=[started.pk])
    first = director_client.post(url, {})
    again = director_client.post(url, {})
    dispute = Dispute.objects.get()  # one dispute, one "opened" entry
    assert first["Location"] == again["Location"] == dispute.get_absolute_url()
    assert AuditEntry.objects.filter(code="dispute.opened").count() == 1
    # once it is closed, asking again opens a new one
    director_client.post(dispute.get_absolute_url(), {"close": "1"})
    director_client.post(url, {})
    assert Dispute.objects.count() == 2


def test_a_dispute_is_closed_without_changing_the_match(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    director_client.post(reverse("dispute_new", args=[started.pk]), {})
    dispute = Dispute.objects.get()
    page = director_client.get(dispute.get_absolute_url()).content.decode()
    assert 'id="close"' in page
    response = director_client.post(dispute.get_absolute_url(), {"close": "1"}, follow=True)
    page = response.content.decode()
    assert "The dispute is closed; the match is as recorded." in page
    assert "Closed without a change: the recorded score stands." in page
    assert 'id="close"' not in page and 'id="decide"' not in page
    closed = AuditEntry.objects.get(code="dispute.closed")
    assert closed.dispute_id == dispute.pk and closed.match_id == started.pk
    match_page = director_client.get(started.get_absolute_url()).content.decode()
    assert "(closed)" in match_page
    assert "closed the dispute without a change" in match_page
    # a closed dispute is neither decided nor closed again
    again = director_client.post(dispute.get_absolute_url(), {"close": "1"})
    assert again.status_code == 400 and "This dispute is decided." in again.content.decode()
    assert AuditEntry.objects.filter(code="dispute.closed").count() == 1
    italian = director_client.get(dispute.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it")
    assert "Chiusa senza modifiche" in italian.content.decode()


def test_score_sheets_are_checked_against_the_match_length(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    director_client.post(reverse("dispute_new", args=[started.pk]), {})
    dispute = Dispute.objects.get()
    url = dispute.get_absolute_url()
    # a 5-point match: 9-3 cannot be, nor 5-5
    for a_a, a_b in (("9", "3"), ("5", "5")):
        response = director_client.post(url, {"sheets": "1", "a_a": a_a, "a_b": a_b})
        assert response.status_code == 400
        assert f"Anna Rossi&#x27;s score sheet says {a_a}–{a_b}, which no 5-point match" in (
            response.content.decode()
        )
    dispute.refresh_from_db()
    assert dispute.sheet(0) is None
    assert not AuditEntry.objects.filter(code="dispute.sheets").exists()
    assert director_client.post(url, {"sheets": "1", "a_a": "5", "a_b": "3"}).status_code == 302
    dispute.refresh_from_db()
    assert dispute.sheet(0) == (5, 3)


def test_the_board_speaks_italian(director_client, started):
    post(director_client, started, "opening", die1=3, die2=1)
    director_client.cookies["django_language"] = "it"
    page = director_client.get(reverse("board", args=[started.pk])).content.decode()
    assert "Tavoliere dal lato di Anna Rossi" in page
    assert "Punta 6: 5 pedine di Anna Rossi" in page and "Conferma" not in page
    assert "Anna Rossi deve giocare 3-1." in page


CRAWFORD_DOUBLE = """ 3 point match

 Game 1
 Anna Rossi : 0                 Bruno Bianchi : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Takes                      64: 24/18 13/9
  3)  Doubles => 4                Drops
      Wins 2 points

 Game 2
 Anna Rossi : 2                 Bruno Bianchi : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Drops                      Wins 1 point
"""


def test_a_dispute_shows_a_crawford_double_annulled_at_its_line(
    director_client, anna, bruno, record
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from matches.services import match_create

    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    record(match, 0, cube=2, result="drop")  # 2-0
    record(match, 0)  # recorded: Anna won the Crawford game; the log says Bruno did
    upload = SimpleUploadedFile("crawford.mat", CRAWFORD_DOUBLE.encode())
    director_client.post(reverse("dispute_new", args=[match.pk]), {"file": upload})
    dispute = Dispute.objects.get()
    page = director_client.get(dispute.get_absolute_url()).content.decode()
    row = re.search(r'data-line="12">(.*?)</tr>', page, re.S)[1]
    assert "game 2 is the Crawford game: no doubling (WBF 24); the double is annulled" in row
    assert "part ways at game 2" in page
    assert 'id="log-score">2–1<' in page


CONTRADICTED = """ 3 point match

 Game 1
 Anna Rossi : 0                 Bruno Bianchi : 0
  1)                             41: 13/9 24/23
  2) 31: 8/5 6/5                  Doubles => 2
  3)  Drops                       Wins 2 points
"""


def test_a_dispute_shows_a_written_result_the_board_contradicts(director_client, anna, bruno):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from matches.services import match_create

    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    upload = SimpleUploadedFile("claim.mat", CONTRADICTED.encode())
    director_client.post(reverse("dispute_new", args=[match.pk]), {"file": upload})
    page = director_client.get(Dispute.objects.get().get_absolute_url()).content.decode()
    row = re.search(r'class="problem-row result" data-line="7">(.*?)</tr>', page, re.S)[1]
    assert "the log says Bruno Bianchi wins 2 points" in row
    assert "dropped with the cube at 1 (WBF 23): 1 point" in row
    assert 'id="log-score">0–1<' in page  # the rules' count, not the written one


def test_the_log_stands_refused_by_the_correction_rule_is_said_on_the_dispute_page(
    client, director, event_with, finish, record
):
    """A later match has begun: the log cannot stand (US rules 4.10); the director is told
    why on the dispute page, which stays as it was (it used to answer 500)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.tournaments.helpers import by_key
    from tournaments.models import Event
    from tournaments.services import event_draw

    event = event_with(Event.Format.SINGLE, 4, lengths=(1,))
    event_draw(event=event, seed=1, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    record(m11, 0)  # A wins the 1-point match
    finish(m12, m12.player_a)
    record(by_key(event, "M2-1"), 0)  # the final has begun
    a, b = m11.player_a.name, m11.player_b.name
    text = (
        f" 1 point match\n\n Game 1\n {a} : 0{' ' * (30 - len(a))}{b} : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Drops                      Wins 1 point and the match\n"
    )
    client.force_login(director)
    client.post(
        reverse("dispute_new", args=[m11.pk]),
        {"file": SimpleUploadedFile("a.mat", text.encode())},
    )
    dispute = Dispute.objects.get()
    response = client.post(dispute.get_absolute_url(), {"decide": "1"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "can no longer be corrected" in page and "US rules 4.10" in page
    assert 'id="log-score">0–1<' in page and 'id="decide"' in page  # the page, intact
    dispute.refresh_from_db()
    assert dispute.decided_at is None
    assert Game.objects.get(match=m11).winner == 0  # the recorded result stands
