"""Formats that do what directors expect: a consolation sized to who can enter it, a
warning when a first defeat sends most players home, a play-off for third place."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import page_words
from tests.tournaments.helpers import by_key
from tournaments.models import Event
from tournaments.pairing.bracket import (
    FINAL_KEY,
    RESET_KEY,
    first_defeat_ends,
    play_out,
    random_results,
    single_elimination,
    with_consolation,
)
from tournaments.queries.events import event_matches
from tournaments.queries.knockouts import event_knockout
from tournaments.services import event_cut, event_draw


@given(st.integers(2, 130), st.integers(0, 2**32), st.booleans())
def test_a_consolation_never_draws_bye_against_bye(count, seed, third):
    bracket = with_consolation(count, third_place=third)
    outcome = play_out(bracket, random_results(random.Random(seed)))
    first = bracket.rounds("consolation")[:1]
    for match in first[0] if first else []:
        assert outcome.players[match.key] != (None, None), match.key
    real_losers = count - bracket.size // 2  # the first round's real matches
    expected = real_losers - 1 if real_losers > 1 else 0  # a knockout of them: n - 1 matches
    played = [m for m in bracket.matches if m.draw == "consolation"]
    assert len([m for m in played if None not in outcome.players[m.key]]) == expected


def test_twelve_players_get_a_consolation_of_four():
    bracket = with_consolation(12)
    rounds = bracket.rounds("consolation")
    assert [len(r) for r in rounds] == [2, 1]  # the 4 first-round losers: semis, final


def test_nine_players_have_no_consolation_of_one():
    assert with_consolation(9).rounds("consolation") == []


@given(st.integers(4, 130), st.integers(0, 2**32))
def test_the_semi_finals_losers_play_for_third(count, seed):
    bracket = single_elimination(count, third_place=True)
    outcome = play_out(bracket, random_results(random.Random(seed)))
    semis = bracket.rounds("main")[-2]
    losers = set()
    for semi in semis:
        a, b = outcome.players[semi.key]
        if a is not None and b is not None:
            losers.add(b if outcome.winners[semi.key] == a else a)
    (playoff,) = bracket.rounds("third")[0]
    assert {p for p in outcome.players[playoff.key] if p is not None} == losers
    assert outcome.champion == outcome.winners[bracket.final().key]  # the final decides


@pytest.mark.parametrize(
    ("format", "count", "out"),
    [
        ("single", 12, 12),  # everyone's event can end with one defeat
        ("consolation", 12, 4),  # only the byes' holders: their first match is round 2
        ("consolation", 9, 9),  # one first-round loser: no consolation at all
        ("progressive", 12, 0),
        ("double", 12, 0),
    ],
)
def test_how_many_go_home_after_one_defeat(format, count, out):
    from tournaments.queries.knockouts import SHAPES

    assert first_defeat_ends(SHAPES[format](count, third_place=False)) == out


@pytest.mark.django_db
def test_the_event_page_warns_when_most_go_home_after_one_match(
    event_with, director, director_client
):
    plain = event_with(Event.Format.SINGLE, 12)
    page = director_client.get(plain.get_absolute_url()).content.decode()
    assert "Between 4 and 8 of the 12 players go home after their first match" in page
    kept = event_with(Event.Format.CONSOLATION, 12)
    page = director_client.get(kept.get_absolute_url()).content.decode()
    assert "go home after their first match" not in page


@pytest.mark.django_db
def test_a_consolation_is_not_recommended_to_an_event_that_has_one(event_with, director_client):
    """Ten players with a consolation: the six who start with a bye play first in round 2,
    whose losers the consolation does not take; the warning names what would keep them."""
    from tests.helpers import page_words

    event = event_with(Event.Format.CONSOLATION, 10)
    words = page_words(director_client.get(event.get_absolute_url()))
    assert "Between 2 and 4 of the 10 players go home after their first match" in words
    assert "a consolation, a progressive" not in words
    assert "its consolation takes only the losers of round 1" in words
    assert "A progressive consolation or double elimination keeps more of them playing" in words
    words = page_words(director_client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it"))
    assert "la sua consolazione accoglie solo" in words
    assert "una consolazione, una consolazione progressiva" not in words


@pytest.mark.django_db
def test_a_play_off_for_third_place_is_made_when_the_semi_finals_end(event_with, director, finish):
    event = event_with(Event.Format.SINGLE, 4, third_place=True)
    assert event.third_place
    event_draw(event=event, seed=1, user=director)
    for match in event_matches(event=event):
        finish(match, match.player_a)
    keys = {m.place.bracket_key: m for m in event_matches(event=event)}
    assert set(keys) == {"M1-1", "M1-2", "M2-1", "P1-1"}  # the final and the play-off
    semis = [keys["M1-1"], keys["M1-2"]]
    assert {keys["P1-1"].player_a_id, keys["P1-1"].player_b_id} == {m.player_b_id for m in semis}
    assert event_knockout(event=event).bracket.final().key == "M2-1"


def _play_all(event, finish):
    """Every match as it comes, the first-named player winning, until none is left."""
    while True:
        waiting = [m for m in event_matches(event=event) if not m.decided]
        if not waiting:
            return
        for match in waiting:
            finish(match, match.player_a)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "count", "third", "expected"),
    [
        ("single", 12, False, ["1", "2", "3–4", "5–8", "9–12"]),
        ("single", 8, True, ["1", "2", "3", "4", "5–8"]),
        ("consolation", 12, False, ["1", "2", "3–4", "5–8", "9–12"]),
        ("double", 6, False, ["1", "2", "3", "4", "5–6"]),
    ],
)
def test_every_entrant_gets_a_final_place_by_the_round_reached(
    event_with, director, finish, director_client, format, count, third, expected
):
    from tournaments.queries.knockouts import event_placings

    event = event_with(format, count, third_place=third)
    event_draw(event=event, seed=count, user=director)
    _play_all(event, finish)
    sections = event_placings(event=event, knockout=event_knockout(event=event))
    _title, places = sections[0]
    assert [p.label for p in places] == expected
    placed = [player.pk for place in places for player in place.players]
    assert sorted(placed) == sorted(event.entries.values_list("player_id", flat=True))
    for place in places:  # a range holds as many players as it names
        assert len(place.players) == place.last - place.first + 1
    if format == "consolation":  # the 4 first-round losers' own placings after
        assert sections[1][0] == "Consolation"
        assert [p.label for p in sections[1][1]] == ["1", "2", "3–4"]
    page = director_client.get(event.get_absolute_url()).content.decode()
    assert "Final placings" in page and f'"place">{expected[-1]}</td>' in page


@pytest.mark.django_db
def test_a_knockout_with_a_play_off_makes_the_round_trip_of_a_tournament_file(
    event_with, director, finish
):
    import copy

    from tests.tournaments.helpers import another_tournament
    from tournaments.transfer import tournament_export, tournament_import

    event = event_with(Event.Format.CONSOLATION, 6, third_place=True)
    event_draw(event=event, seed=6, user=director)
    _play_all(event, finish)
    original = another_tournament(tournament_export(tournament=event.tournament))

    copied = tournament_import(document=copy.deepcopy(original), user=director)

    twin = copied.events.get()
    assert twin.third_place and "P1-1" in {m.place.bracket_key for m in event_matches(event=twin)}
    again = tournament_export(tournament=copied)
    again["audit"].pop()
    assert again == original


@pytest.mark.django_db
def test_a_file_whose_consolation_has_another_shape_is_refused_in_words(
    event_with, director, finish
):
    """A file from before the consolation was sized to its players: refused, not misplaced."""
    import copy

    from django.core.exceptions import ValidationError

    from tournaments.transfer import tournament_export, tournament_import

    event = event_with(Event.Format.CONSOLATION, 12)
    event_draw(event=event, seed=12, user=director)
    _play_all(event, finish)
    document = tournament_export(tournament=event.tournament)
    for match in document["matches"]:  # the old shape numbered the consolation otherwise
        if match["bracket_key"] == "C1-1":
            match["bracket_key"] = "C1-3"
    with pytest.raises(ValidationError, match="do not follow from the draw"):
        tournament_import(document=copy.deepcopy(document), user=director)


@pytest.fixture
def cut_of_four(event_with, director, finish):
    """A Swiss of six, one round, cut to a knockout of its top four."""
    swiss = event_with(Event.Format.SWISS, 6, swiss_rounds=1, cut=4)
    event_draw(event=swiss, seed=1, user=director)
    for match in event_matches(event=swiss):
        finish(match, match.player_a)
    return event_cut(event=swiss, user=director)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "2 of the 4 players go home after their first match in this format"),
        ("it", "Con questa formula 2 dei 4 giocatori tornano a casa dopo la prima partita"),
    ],
)
def test_a_cut_of_four_warns_that_two_go_home_after_their_first_match(
    cut_of_four, director_client, language, said
):
    """Two semi-finals: their two losers go home, not all four players (issue 25)."""
    from tests.helpers import page_words

    words = page_words(
        director_client.get(cut_of_four.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    )
    assert said in words
    assert "4 of the 4" not in words and "4 dei 4" not in words


@pytest.mark.django_db
def test_the_warning_is_gone_once_the_first_round_is_played(cut_of_four, director_client, finish):
    """It can still change the format or the draw only up to the first round."""
    from tests.helpers import page_words

    url = cut_of_four.get_absolute_url()
    for match in event_matches(event=cut_of_four):  # the semi-finals: the final is next
        finish(match, match.player_a)
    assert "go home after their first match" not in page_words(director_client.get(url))
    for match in event_matches(event=cut_of_four):
        if not match.decided:
            finish(match, match.player_a)
    for language in ("en", "it"):  # finished
        words = page_words(director_client.get(url, HTTP_ACCEPT_LANGUAGE=language))
        assert "go home after their first match" not in words
        assert "tornano a casa dopo la prima partita" not in words


# --- double elimination's final: after the losers' draw, and called the final (issue 25.2) ----

FINAL_NAMES = {
    "en": ("Round %s", "Final", "Final, played again", "matches to %s points"),
    "it": ("Turno %s", "Finale", "Ripetizione della finale", "partite ai %s punti"),
}


def _rounds_shown(client, event, language):
    """The event page's rounds: (the heading, the match codes listed under it)."""
    page = client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    sections = re.findall(r'<section class="round" id="round-\d+">(.*?)</section>', page, re.S)
    return [
        (
            " ".join(re.search(r"<h3>(.*?)</h3>", s, re.S)[1].split()),
            re.findall(r"\b[MLF]\d+-\d+\b", s.split("</h3>", 1)[1]),
        )
        for s in sections
    ]


@pytest.mark.django_db
def test_the_final_comes_after_the_losers_draw_and_is_played_again_by_itself(
    double_final_again, client
):
    """Nine players: the main draw has 4 rounds, the losers' draw 6; the final is round 7
    and the final played again round 8, each alone in its round. While the final played
    again waits, the event's line and its score sheet call it what it is."""
    event = double_final_again
    final, again = by_key(event, FINAL_KEY), by_key(event, RESET_KEY)
    losers = [m for m in event_matches(event=event) if m.place.bracket_key.startswith("L")]
    assert (final.place.round, again.place.round) == (7, 8)
    assert max(m.place.round for m in losers) == 6
    assert {again.player_a_id, again.player_b_id} == {final.player_a_id, final.player_b_id}
    assert final.length == again.length == 11  # the last length given: the final's
    for language, playing, where in (
        ("en", "Final, played again: in play", "· final, played again (F2-1) ·"),
        ("it", "Ripetizione della finale: in corso", "· ripetizione della finale (F2-1) ·"),
    ):
        words = page_words(client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language))
        assert playing in words
        sheets = client.get(
            reverse("round_sheets", args=[event.pk, 8]), HTTP_ACCEPT_LANGUAGE=language
        )
        words = page_words(sheets)
        assert where in words and words.count("F2-1") == 2  # the code above, and beside "where"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "it"])
def test_a_double_elimination_s_final_is_called_the_final_on_every_page(
    double_final_again, client, finish, language
):
    """Played to the end, the losers' draw's player winning the final: the event's rounds, the
    printed pairings, the printed bracket's last page and the match's header say "Final" and
    "Final, played again", never round 1 and 2."""
    event = double_final_again
    again = by_key(event, RESET_KEY)
    finish(again, again.player_a)
    assert event_knockout(event=event).champion is not None
    numbered, final, played_again, lengths = FINAL_NAMES[language]

    shown = _rounds_shown(client, event, language)
    assert [heading for heading, _codes in shown] == [
        *(
            f"{numbered % n} · {lengths % length}"
            for n, length in enumerate([5, 5, 7, 7, 9, 11], 1)
        ),
        f"{final} · {lengths % 11}",
        f"{played_again} · {lengths % 11}",
    ]
    assert shown[0][1] == ["M1-2"]  # round 1: seeds 8 and 9, the one real match; no final
    assert (shown[-2][1], shown[-1][1]) == (["F1-1"], ["F2-1"])

    def printed(number):
        response = client.get(
            reverse("round", args=[event.pk, number]), HTTP_ACCEPT_LANGUAGE=language
        )
        return page_words(response)

    assert "F1-1" not in printed(1) and "M1-2" in printed(1)
    assert f"{final}: {lengths % 11}" in printed(7) and "F1-1" in printed(7)
    assert f"{played_again}: {lengths % 11}" in printed(8) and "F2-1" in printed(8)

    page = client.get(reverse("bracket", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=language)
    last = page.content.decode().split('class="bracket-section"')[-1]
    assert f'aria-label="{final}"' in last
    columns = re.findall(r"<h3>(.*?)</h3>.*?id=\"box-(F\d-1)\"", last, re.S)
    assert columns == [(final, "F1-1"), (played_again, "F2-1")]

    for key, name in ((FINAL_KEY, final), (RESET_KEY, played_again)):
        match = by_key(event, key)
        words = page_words(client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language))
        assert f"· {event.name} · {name.lower()} ({key})" in words


@pytest.mark.django_db
def test_a_finalist_s_own_page_names_the_final(double_final_again, client, finish, member):
    from club.policy import SYSTEM
    from club.services import player_update

    event = double_final_again
    again = by_key(event, RESET_KEY)
    finish(again, again.player_b)
    player_update(player=again.player_a, account=member, user=SYSTEM)
    client.force_login(member)
    for language, names in (
        ("en", ["final, played again", "final"]),
        ("it", ["ripetizione della finale", "finale"]),
    ):
        page = client.get(reverse("me"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        results = page.split('id="results"')[1]
        facts = re.findall(r'<span class="match-facts">(.*?)</span>', results, re.S)
        assert [f.split(" · ")[-1] for f in facts[:2]] == names, facts


@pytest.mark.django_db
def test_a_file_numbering_the_final_round_1_is_taken_with_the_final_last(
    double_final_again, director, finish
):
    """A tournament file exported before the final came last numbered it round 1 (and the
    final played again round 2): it is imported, the finals in the rounds they have now;
    any other round for them is refused."""
    import copy

    from django.core.exceptions import ValidationError

    from tournaments.transfer import tournament_export, tournament_import

    event = double_final_again
    again = by_key(event, RESET_KEY)
    finish(again, again.player_b)
    document = tournament_export(tournament=event.tournament)
    finals = {m["bracket_key"]: m for m in document["matches"] if m["bracket_key"][0] == "F"}
    assert {k: m["round"] for k, m in finals.items()} == {FINAL_KEY: 7, RESET_KEY: 8}
    finals[FINAL_KEY]["round"], finals[RESET_KEY]["round"] = 1, 2  # as older files had them
    document["version"] = 1  # files of then carried no identity: imported beside the original
    del document["tournament"]["uuid"]

    twin = tournament_import(document=copy.deepcopy(document), user=director).events.get()

    rounds = {m.place.bracket_key: m.place.round for m in event_matches(event=twin)}
    assert (rounds[FINAL_KEY], rounds[RESET_KEY]) == (7, 8)
    assert event_knockout(event=twin).champion == event_knockout(event=event).champion
    finals[FINAL_KEY]["round"] = 3  # neither the old numbering nor the new
    with pytest.raises(ValidationError, match=r"do not follow from the draw .*\(at F1-1\)"):
        tournament_import(document=copy.deepcopy(document), user=director)
