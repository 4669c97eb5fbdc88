"""The players' pages name what they speak of: a report to confirm names its match (event,
round, length, table), an earlier report says in a full sentence who did what to whose
report, and the audit names a player's account by the player's name (club.audit.actor_name)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from club.models import Player
from matches.models import Dispute, Match
from matches.reports import report_confirm, report_dispute, report_make, report_withdraw
from tests.helpers import page_words as text
from tests.matches.test_reports import duel, knockout  # noqa: F401  (the fixtures)
from tournaments.models import Event, Table
from tournaments.services import event_draw
from tournaments.venue import tournament_tables_set

pytestmark = pytest.mark.django_db

NICCOLO, TOMMASO = "Niccolò D'Agostino", "Tommaso Rè"


@pytest.fixture
def named(request):
    """The duel with its players named as at the club: Niccolò (a) against Tommaso (b)."""
    played = request.getfixturevalue("duel")
    match = played["match"]
    for pk, name in ((match.player_a_id, NICCOLO), (match.player_b_id, TOMMASO)):
        player = Player.objects.get(pk=pk)
        player.name = name
        player.save()
    played["match"] = Match.objects.select_related("player_a", "player_b").get(pk=match.pk)
    return played


def _as(client, user, language):
    client.force_login(user)
    client.cookies["django_language"] = language


@pytest.mark.parametrize("language", ["en", "it"])
def test_two_reports_against_the_same_opponent_each_name_their_match(
    named, client, event_with, tournament, director, language
):
    first, a, b = named["match"], named["a"], named["b"]
    players = [first.player_a, first.player_b]
    side = event_with(Event.Format.SINGLE, players, lengths=(7,))  # the same two, again
    event_draw(event=side, seed=1, user=director)
    second = Match.objects.get(place__event=side)
    tournament_tables_set(tournament=tournament, count=6, user=director)
    assert Table.objects.filter(match=first).exists()
    report_make(match=first, user=a, score_a=3, score_b=1)
    report_make(match=Match.objects.get(pk=second.pk), user=a, score_a=7, score_b=2)
    _as(client, b, language)
    page = client.get(reverse("me")).content.decode()
    listed = re.search(r'<ul class="plain to-confirm">(.*?)</ul>', page, re.S).group(1)
    items = [text_of(li) for li in re.findall(r"<li>(.*?)</li>", listed, re.S)]
    assert len(items) == 2
    for match, item, length in ((first, items[0], 3), (second, items[1], 7)):
        place = match.place
        assert place.event.name in item and place.event.tournament.name in item
        if language == "en":
            assert f"match to {length}" in item and f"round {place.round}" in item
        else:
            assert f"partita ai {length}" in item and f"turno {place.round}" in item
        table = Table.objects.filter(match=match).first()
        if table is not None:
            word = "table" if language == "en" else "tavolo"
            assert f"{word} {table.number}" in item
    assert items[0] != items[1]  # the two are told apart
    # the report page says the same: event, round, length, table
    report_page = text(client.get(reverse("report", args=[second.pk])))
    assert side.name in report_page
    table = Table.objects.filter(match=second).first()
    if table is not None:
        assert ("table" if language == "en" else "tavolo") + f" {table.number}" in report_page


def text_of(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


SAID = {
    "disputed": {
        "en": (
            f"{TOMMASO} disputed your report.",
            f"You disputed {NICCOLO}’s report.",
            f"{TOMMASO} disputed {NICCOLO}’s report.",
        ),
        "it": (
            f"{TOMMASO} ha contestato il risultato che hai comunicato.",
            f"Hai contestato il risultato comunicato da {NICCOLO}.",
            f"{TOMMASO} ha contestato il risultato comunicato da {NICCOLO}.",
        ),
    },
    "confirmed": {
        "en": (
            f"{TOMMASO} confirmed your report.",
            f"You confirmed {NICCOLO}’s report.",
            f"{TOMMASO} confirmed {NICCOLO}’s report.",
        ),
        "it": (
            f"{TOMMASO} ha confermato il risultato che hai comunicato.",
            f"Hai confermato il risultato comunicato da {NICCOLO}.",
            f"{TOMMASO} ha confermato il risultato comunicato da {NICCOLO}.",
        ),
    },
    "withdrawn": {
        "en": (
            "You withdrew your report.",
            f"{NICCOLO} withdrew their report.",
            f"{NICCOLO} withdrew their report.",
        ),
        "it": (
            "Hai ritirato il risultato che avevi comunicato.",
            f"{NICCOLO} ha ritirato il risultato che aveva comunicato.",
            f"{NICCOLO} ha ritirato il risultato che aveva comunicato.",
        ),
    },
}


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("outcome", sorted(SAID))
def test_earlier_reports_say_who_did_what_to_whose_report(
    named, client, director, outcome, language
):
    match, a, b = named["match"], named["a"], named["b"]
    report = report_make(match=match, user=a, score_a=3, score_b=1)
    if outcome == "disputed":
        report_dispute(report=report, user=b, version=report.version, score_a=1, score_b=3)
    elif outcome == "confirmed":
        report_confirm(report=report, user=b, version=report.version)
    else:
        report_withdraw(report=report, user=a)
    url = reverse("report", args=[match.pk])
    for user, said in zip((a, b, director), SAID[outcome][language], strict=True):
        _as(client, user, language)
        earlier = client.get(url).content.decode()
        section = text_of(re.search(r'<section id="earlier">(.*?)</section>', earlier, re.S)[1])
        assert said in section, (user, section)
        assert f"{NICCOLO}:" not in section  # never "Niccolò D'Agostino: disputed"


def test_a_director_s_record_of_a_report_says_a_director_did_it(named, client, director):
    match, a = named["match"], named["a"]
    report = report_make(match=match, user=a, score_a=3, score_b=1)
    report_confirm(report=report, user=director, version=report.version)
    client.force_login(a)
    page = text(client.get(reverse("report", args=[match.pk])))
    assert "A director recorded your report." in page


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_changes_name_a_player_s_account_by_the_player_s_name(
    named, client, tournament, director, language
):
    match, a, b = named["match"], named["a"], named["b"]
    report = report_make(match=match, user=a, score_a=3, score_b=1)
    report_dispute(report=report, user=b, version=report.version, score_a=1, score_b=3)
    client.cookies["django_language"] = language
    changes = text(client.get(reverse("tournament_changes", args=[tournament.pk])))
    if language == "en":
        assert f"{NICCOLO} reported" in changes
        assert f"{TOMMASO} disputed the result {NICCOLO} reported" in changes
    else:
        assert f"{TOMMASO} ha contestato il risultato comunicato da {NICCOLO}" in changes
    # the accounts' sign-in names ("a", "b") never stand for the players
    assert not re.search(r"(?<![\w'])[ab] (reported|disputed|ha )", changes)
    # the decision on the dispute names the director by the same helper
    dispute = Dispute.objects.get(match=match)
    director.first_name, director.last_name = "Giulia", "Conti"
    director.save()
    client.force_login(director)
    client.post(dispute.get_absolute_url(), {"decide": "1"})
    assert "Giulia Conti" in text(client.get(dispute.get_absolute_url()))
