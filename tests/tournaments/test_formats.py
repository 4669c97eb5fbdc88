"""Formats that do what directors expect: a consolation sized to who can enter it, a
warning when a first defeat sends most players home, a play-off for third place."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.models import Event
from tournaments.pairing.bracket import (
    first_defeat_ends,
    play_out,
    random_results,
    single_elimination,
    with_consolation,
)
from tournaments.selectors import event_knockout, event_matches
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
    from tournaments.selectors import SHAPES

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
    from tournaments.selectors import event_placings

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
