"""Every change of a result carries the version of the page it was made from (issue 23.7).

Without one, the conflict check was skipped: of two directors, the last to save won unseen,
and twenty final scores sent at once without a version were all recorded. A page always
sends its version (a hidden field of every form that changes a result); a post without it
is refused as a page out of date, and nothing changes.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from club.models import AuditEntry
from matches.board.service import board_game_start
from matches.models import BoardAction, Match, ResultReport
from matches.reports import report_make
from matches.services import match_create
from tests.helpers import page_words as text
from tests.matches import test_reports

pytestmark = pytest.mark.django_db
knockout, duel = test_reports.knockout, test_reports.duel  # a match whose players report
OUT_OF_DATE = "This page was out of date: nothing was saved."


def state(match: Match) -> tuple:
    """What a change of the result would change."""
    found = Match.objects.get(pk=match.pk)
    games = list(found.games.order_by("number").values_list("winner", "cube", "result"))
    return (
        found.version,
        found.status,
        found.final_score_a,
        found.walkover_winner,
        found.retired,
        games,
        AuditEntry.objects.count(),
    )


# what each form sends, less its version; "confirm" past the pages that ask first
CHANGES = {
    "game_edit": {"winner": 1, "cube": 1, "result": "single", "number": 1},
    "final_score": {"score_a": 5, "score_b": 1},
    "walkover": {"winner": 0, "confirm": "1"},
    "retire": {"side": 1, "confirm": "1"},
    "result_clear": {"confirm": "1"},
}


@pytest.mark.parametrize("name", list(CHANGES))
@pytest.mark.parametrize("version", [None, "", "abc", "-1"])
def test_a_change_of_a_result_without_its_version_is_refused(
    director_client, match5, record, finish, name, version
):
    if name in ("game_edit", "retire"):
        record(match5, 0)
    elif name == "result_clear":
        finish(match5, match5.player_a, 2)
    args = [match5.pk, 1] if name == "game_edit" else [match5.pk]
    data = {**CHANGES[name], **({} if version is None else {"version": version})}
    before = state(match5)

    response = director_client.post(reverse(name, args=args), data)

    assert response.status_code == 400
    assert OUT_OF_DATE in text(response)
    assert state(match5) == before


def test_the_refusal_is_said_in_italian(director_client, match5):
    response = director_client.post(
        reverse("final_score", args=[match5.pk]),
        {"score_a": 5, "score_b": 1},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.status_code == 400
    assert "Questa pagina non era aggiornata: nulla è stato salvato." in text(response)


@pytest.mark.parametrize("name", ["report_confirm", "report_dispute"])
def test_a_report_answered_without_its_version_is_refused(client, duel, name):
    match, a, b = duel["match"], duel["a"], duel["b"]
    report = report_make(match=match, user=a, number=1, winner=0, cube=1, result="single")
    client.force_login(b)
    response = client.post(reverse(name, args=[match.pk]), {})
    assert response.status_code == 400
    assert OUT_OF_DATE in text(response)
    assert ResultReport.objects.get(pk=report.pk).status == ResultReport.Status.PENDING
    assert not match.games.exists()


def test_a_board_action_without_its_version_is_refused_in_words(director_client, director, match5):
    board = board_game_start(match=match5, user=director)
    response = director_client.post(
        reverse("board_act", args=[match5.pk, board.number]), {"action": "opening"}
    )
    assert response.status_code == 400
    assert OUT_OF_DATE in text(response)
    assert not BoardAction.objects.filter(game=board).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's row locks (run by .ci/run's PostgreSQL pass); "
    "SQLite serialises every write",
)
@pytest.mark.parametrize("versioned", [True, False])
def test_twenty_final_scores_sent_at_once_one_is_recorded(anna, bruno, director, versioned):
    """Twenty directors send a final score at once, from the same page: the first is
    recorded and the others are told the sheet changed (409); without a version all
    twenty were recorded, the last winning: now none is."""
    match = match_create(player_a=anna, player_b=bruno, length=5, user=director)
    url = reverse("final_score", args=[match.pk])
    clients = [Client() for _ in range(20)]
    for sender in clients:
        sender.force_login(director)
    barrier = threading.Barrier(len(clients))
    answers: list[int] = []

    def send(sender: Client, loser_points: int) -> None:
        data = {"score_a": 5, "score_b": loser_points}
        if versioned:
            data["version"] = match.version
        try:
            barrier.wait()
            answers.append(sender.post(url, data).status_code)
        finally:
            connections.close_all()  # this thread's own connections

    threads = [
        threading.Thread(target=send, args=(sender, n % 5)) for n, sender in enumerate(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    recorded = AuditEntry.objects.filter(match_id=match.pk, code="result.final_score").count()
    if versioned:
        assert sorted(answers) == [302] + [409] * 19
        assert recorded == 1
    else:
        assert answers == [400] * 20
        assert recorded == 0 and Match.objects.get(pk=match.pk).final_score_a is None
