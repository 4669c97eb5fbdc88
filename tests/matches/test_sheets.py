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

from matches.models import Dispute
from rules.sheets import SheetRule, sheet_ruling

pytestmark = pytest.mark.django_db

# Anna won game 1 with the cube at 2, and the log agrees
LOG = (
    " 5 point match\n\n Game 1\n Anna Rossi : 0                 Bruno Bianchi : 0\n"
    "  1)                             31: 8/5 6/5\n"
    "  2)  Doubles => 2                Drops\n"
    "  3)  Wins 1 point\n"
)


def page_of(response):
    import html
    import re

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


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
    assert "player's sheet stands" not in page and "Apply the score sheet" not in page
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
