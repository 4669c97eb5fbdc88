"""The players' score sheets in a dispute: which one stands, where that rule comes from, and
applying it to the match.

WBF 3 says only that in a dispute the player who kept no score is wrong. That the trailing
player's sheet stands when both kept one is club practice, and it needs both sheets to name
the same player as trailing: a tie on one sheet and a lead on the other is no agreement, and
the director decides.
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from club.models import AuditEntry, Player
from matches.models import Dispute, Match
from matches.selectors import match_score_sheet
from rules.sheets import SheetRule, sheet_ruling
from tests.helpers import page_words
from tournaments.models import Event
from tournaments.services import event_draw

pytestmark = pytest.mark.django_db


def log(first="Anna Rossi", second="Bruno Bianchi"):
    """A log of game 1 of a 5-point match: the first player wins it, 1 point, a double dropped."""
    return (
        f" 5 point match\n\n Game 1\n {first} : 0                 {second} : 0\n"
        "  1)                             31: 8/5 6/5\n"
        "  2)  Doubles => 2                Drops\n"
        "  3)  Wins 1 point\n"
    )


LOG = log()
page_of = page_words


@pytest.fixture
def dispute(director_client, match5, record):
    record(match5, 0, cube=2)  # Anna 2-0 as recorded
    director_client.post(
        reverse("dispute_new", args=[match5.pk]),
        {"file": SimpleUploadedFile("anna.mat", LOG.encode())},
    )
    return Dispute.objects.get(match=match5)


def sheets(client, dispute, a, b):
    data = {"sheets": "1"}
    if a:
        data.update(a_a=a[0], a_b=a[1])
    if b:
        data.update(b_a=b[0], b_b=b[1])
    return client.post(dispute.get_absolute_url(), data)


def test_a_tied_sheet_against_a_lead_is_no_agreement_on_who_trails(director_client, dispute):
    # Anna's sheet says 2-2; Bruno's says she trails 1-2. Anna's tied sheet, the one that
    # favours her, stood before: the sheets do not agree on who trails, so none stands
    sheets(director_client, dispute, (2, 2), (1, 2))
    page = page_of(director_client.get(dispute.get_absolute_url()))
    assert "the sheets do not agree on who is trailing" in page
    assert "a tie on one and a lead on the other is a disagreement too" in page
    assert "player's sheet stands" not in page and "The score sheet stands" not in page
    # the same the other way round
    sheets(director_client, dispute, (2, 1), (2, 2))
    assert "player's sheet stands" not in page_of(director_client.get(dispute.get_absolute_url()))


def test_the_trailing_player_s_sheet_is_cited_as_club_practice(director_client, dispute):
    sheets(director_client, dispute, (1, 0), (2, 0))  # both have Bruno trailing
    page = page_of(director_client.get(dispute.get_absolute_url()))
    assert (
        "by club practice (not a rule of the WBF's) the trailing player's sheet stands, "
        "Bruno Bianchi's: 2–0." in page
    )
    italian = page_of(director_client.get(dispute.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it"))
    assert "per consuetudine del circolo" in italian
    # only one sheet: WBF 3, a seed's rule, cited as such
    sheets(director_client, dispute, None, (1, 0))
    page = page_of(director_client.get(dispute.get_absolute_url()))
    assert "so it stands: 1–0 (WBF 3: in a dispute, the player who kept no score is wrong)" in page


scores = st.tuples(st.integers(0, 5), st.integers(0, 5))


@given(first=scores, second=scores)
def test_a_sheet_stands_by_the_practice_only_when_both_name_the_same_trailer(first, second):
    ruling = sheet_ruling(first, second)
    if first == second:
        assert ruling.rule is SheetRule.AGREE
    elif ruling.rule is SheetRule.TRAILING:
        # both sheets have the standing sheet's keeper behind; neither shows a tie
        side = ruling.side
        assert first[side] < first[1 - side] and second[side] < second[1 - side]
        assert ruling.score == (first, second)[side]
        assert ruling.rule.source == "club practice"
    else:
        assert ruling.rule is SheetRule.UNDECIDED and ruling.score is None


def test_the_rule_of_one_sheet_is_the_wbf_s():
    assert sheet_ruling(None, (3, 1)).rule.source == "WBF 3"
    assert sheet_ruling((2, 2), (2, 1)).rule is SheetRule.UNDECIDED


# --- applying the sheet that stands (the dispute's page, directors of the match only) ----------


@pytest.fixture
def in_play(tournament, event_with, director, django_user_model, record):
    """A 5-point match of a knockout, game 1 recorded as the first player's 2 points (a gammon
    at cube 1); the log says a double dropped, 1 point; its players have accounts."""
    event = event_with(Event.Format.SINGLE, 4, lengths=(5, 5))
    event_draw(event=event, seed=1, user=director)
    match = (
        Match.objects.filter(place__event=event, place__round=1)
        .select_related("player_a", "player_b")
        .order_by("place__bracket_key")
        .first()
    )
    for side, name in ((match.player_a_id, "a"), (match.player_b_id, "b")):
        user = django_user_model.objects.create_user(name, password=f"pw-{name}-1")
        Player.objects.filter(pk=side).update(user=user)
    record(match, 0, result="gammon")
    return match


def open_dispute(client, match):
    text = log(match.player_a.name, match.player_b.name)
    response = client.post(
        reverse("dispute_new", args=[match.pk]),
        {"file": SimpleUploadedFile("log.mat", text.encode())},
    )
    assert response.status_code == 302
    return Dispute.objects.get(match=match)


def games_of(match):
    return [
        (g.number, g.winner, g.result, g.cube) for g in Match.objects.get(pk=match.pk).games.all()
    ]


def test_a_match_still_in_play_is_not_a_problem_of_its_log(director_client, in_play):
    dispute = open_dispute(director_client, in_play)
    page = page_of(director_client.get(dispute.get_absolute_url()))
    assert "the match stops at" not in page and "Unfinished match" not in page
    assert "The log breaks no rule and agrees with itself." in page


def test_the_director_applies_the_sheet_that_stands_after_a_confirm_page(director_client, in_play):
    dispute = open_dispute(director_client, in_play)
    url = dispute.get_absolute_url()
    b = in_play.player_b.name
    sheets(director_client, dispute, (2, 0), (1, 0))  # both have the second player trailing
    page = page_of(director_client.get(url))
    assert f"the trailing player's sheet stands, {b}'s: 1–0." in page
    assert "The score sheet stands: correct the match to 1–0" in page
    # first the page that says what will happen; nothing has changed yet
    asked = director_client.post(url, {"apply_sheet": "1"})
    said = page_of(asked)
    assert asked.status_code == 200 and "Apply the score sheet that stands: 1–0?" in said
    assert "Game 1 is corrected to the log's or added from it: the match then stands at 1–0" in said
    assert "(it was 2–0)" in said and "club practice (not a rule of the WBF's)" in said
    assert games_of(in_play) == [(1, 0, "gammon", 1)]
    # then its button: the game corrected through the usual correction, linked to the dispute
    done = director_client.post(url, {"apply_sheet": "1", "confirm": "1"}, follow=True)
    words = page_of(done)
    assert "The score sheet is applied and the dispute decided." in words
    assert "Decided: The score sheet stands, 1 game corrected or added" in words
    assert "correct the match to 1–0" not in words
    assert games_of(in_play) == [(1, 0, "drop", 1)]
    assert match_score_sheet(match=Match.objects.get(pk=in_play.pk)).score == (1, 0)
    assert Dispute.objects.get(pk=dispute.pk).decision == "sheet"
    applied = AuditEntry.objects.get(code="dispute.sheet_applied")
    assert applied.dispute_id == dispute.pk and applied.match_id == in_play.pk
    corrected = AuditEntry.objects.get(code="game.corrected")
    assert corrected.dispute_id == dispute.pk
    match_page = page_of(director_client.get(in_play.get_absolute_url()))
    assert (
        f"decided the dispute: {b}'s score sheet stands, 1–0, 1 change to the match." in match_page
    )
    italian = page_of(director_client.get(url, HTTP_ACCEPT_LANGUAGE="it"))
    assert "Decisa: Vale il foglio segnapunti, 1 gioco corretto o aggiunto" in italian
    # decided: asked again, it is refused in words
    again = director_client.post(url, {"apply_sheet": "1", "confirm": "1"})
    assert again.status_code == 400 and "This dispute is decided." in page_of(again)


def test_a_sheet_the_log_never_reaches_is_refused_in_words(director_client, in_play):
    dispute = open_dispute(director_client, in_play)
    url = dispute.get_absolute_url()
    sheets(director_client, dispute, (3, 0), None)  # only the first player kept one: WBF 3
    refused = director_client.post(url, {"apply_sheet": "1"})
    assert refused.status_code == 400
    assert (
        "The recorded games make 2–0 and the sheet 3–0, but a sheet does not say which game "
        "is wrong, and the log does not reach 3–0" in page_of(refused)
    )
    assert games_of(in_play) == [(1, 0, "gammon", 1)]
    assert Dispute.objects.get(pk=dispute.pk).decided_at is None


@pytest.mark.parametrize("who", ["player", "other director"])
def test_only_the_match_s_directors_may_apply_a_sheet(
    client, director_client, in_play, other_director, who
):
    dispute = open_dispute(director_client, in_play)
    sheets(director_client, dispute, (2, 0), (1, 0))
    user = (
        other_director
        if who == "other director"
        else Player.objects.get(pk=in_play.player_a_id).user
    )
    assert user is not None
    client.force_login(user)
    url = dispute.get_absolute_url()
    assert client.post(url, {"apply_sheet": "1"}).status_code == 403
    assert client.post(url, {"apply_sheet": "1", "confirm": "1"}).status_code == 403
    assert games_of(in_play) == [(1, 0, "gammon", 1)]
    assert Dispute.objects.get(pk=dispute.pk).decided_at is None
    assert not AuditEntry.objects.filter(code="dispute.sheet_applied").exists()


def test_a_final_score_is_corrected_to_the_sheet_that_stands(director_client, match5, finish, anna):
    finish(match5, anna, loser_points=1)  # recorded: 5-1
    director_client.post(
        reverse("dispute_new", args=[match5.pk]),
        {"file": SimpleUploadedFile("a.mat", LOG.encode())},
    )
    dispute = Dispute.objects.get(match=match5)
    url = dispute.get_absolute_url()
    # a finished match whose log stops early: that is still a problem of the log
    assert "the match stops at 1-0" in page_of(director_client.get(url))
    sheets(director_client, dispute, (5, 1), (5, 2))  # both have Bruno trailing: his stands
    asked = page_of(director_client.post(url, {"apply_sheet": "1"}))
    assert "The final score is recorded as 5–2 (it was 5–1)." in asked
    director_client.post(url, {"apply_sheet": "1", "confirm": "1"})
    fresh = Match.objects.get(pk=match5.pk)
    assert (fresh.final_score_a, fresh.final_score_b) == (5, 2)
    final = AuditEntry.objects.get(code="result.final_score", before__isnull=False)
    assert final.dispute_id == dispute.pk
