"""A result changes only through one correction path: version-checked, refused once a later
match has begun (US rules 4.10), audited; and the database refuses contradictory results."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from club.audit import audit_sentence
from club.models import AuditEntry
from matches.models import Game, Match
from matches.selectors import match_score_sheet
from matches.services import match_record_final_score, match_walkover

pytestmark = pytest.mark.django_db


def last_change(match):
    return audit_sentence(AuditEntry.objects.filter(match_id=match.pk).latest("id"))


@pytest.mark.parametrize(
    "fields",
    [
        {"status": "walkover"},  # a walkover with no winner
        {"status": "finished", "finished_at": timezone.now(), "walkover_winner": 0},
        {"status": "in_play", "final_score_a": 5, "final_score_b": 2},
        {
            "status": "finished",
            "finished_at": timezone.now(),
            "final_score_a": 5,
            "final_score_b": 5,
        },
        {
            "status": "finished",
            "finished_at": timezone.now(),
            "final_score_a": 3,
            "final_score_b": 2,
        },
        {"status": "finished"},  # finished, but never said when (ratings are ordered by it)
    ],
)
def test_contradictory_results_cannot_be_stored(match5, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=match5.pk).update(**fields)


def test_a_walkover_given_to_the_other_player_is_a_correction(match5, director):
    match_walkover(match=match5, winner=0, user=director)
    match_walkover(match=Match.objects.get(pk=match5.pk), winner=1, user=director)
    match = Match.objects.get(pk=match5.pk)
    assert (match.status, match.walkover_winner) == ("walkover", 1)
    assert match_score_sheet(match=match).winner == 1
    assert last_change(match) == (
        "director corrected the result to a walkover to Bruno Bianchi "
        "(it was a walkover to Anna Rossi)."
    )
    with pytest.raises(ValidationError, match="already recorded"):
        match_walkover(match=match, winner=1, user=director)


def test_a_final_score_put_over_a_walkover_replaces_it(match5, director):
    match_walkover(match=match5, winner=0, user=director)
    match_record_final_score(
        match=Match.objects.get(pk=match5.pk), score_a=3, score_b=5, user=director
    )
    match = Match.objects.get(pk=match5.pk)
    assert (match.status, match.walkover_winner) == ("finished", None)
    assert match_score_sheet(match=match).winner == 1
    assert last_change(match) == (
        "director corrected the result to the final score 3–5 (it was a walkover to Anna Rossi)."
    )


def test_a_match_with_games_cannot_become_a_walkover(match5, record, director):
    record(match5, 0)
    with pytest.raises(ValidationError, match="cannot be a walkover"):
        match_walkover(match=Match.objects.get(pk=match5.pk), winner=1, user=director)
    assert Match.objects.get(pk=match5.pk).walkover_winner is None


def test_walkovers_and_final_scores_stand_once_a_later_match_has_begun(
    event_with, director, finish, record
):
    from tests.tournaments.helpers import by_key
    from tournaments.models import Event
    from tournaments.services import event_draw

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    match_walkover(match=m11, winner=0, user=director)
    finish(m12, m12.player_a)
    record(by_key(event, "M2-1"), 0)  # the final has begun
    for change in (
        lambda m: match_walkover(match=m, winner=1, user=director),
        lambda m: match_record_final_score(match=m, score_a=2, score_b=5, user=director),
    ):
        with pytest.raises(ValidationError, match=r"started a later match .*US rules 4\.10"):
            change(Match.objects.get(pk=m11.pk))
    m11.refresh_from_db()
    assert (m11.status, m11.walkover_winner, m11.final_score_a) == ("walkover", 0, None)


def test_two_directors_correcting_one_game_the_second_is_told_what_changed(
    client, django_user_model, directors_group, match5, record, director
):
    record(match5, 0)
    second = django_user_model.objects.create_user("sara", password="pw-sara-1")
    second.first_name, second.last_name = "Sara", "Neri"
    second.save()
    second.groups.add(directors_group)
    url = reverse("game_edit", args=[match5.pk, 1])
    client.force_login(director)
    form_a = client.get(url).context["form"]
    client.force_login(second)
    form_b = client.get(url).context["form"]
    assert form_a["version"].value() == form_b["version"].value()
    client.force_login(director)
    first = {"version": form_a["version"].value(), "number": 1, "winner": 1, "cube": 2}
    assert client.post(url, {**first, "result": "gammon"}).status_code == 302
    client.force_login(second)
    late = {"version": form_b["version"].value(), "number": 1, "winner": 0, "cube": 1}
    response = client.post(url, {**late, "result": "single"})
    assert response.status_code == 409
    page = response.content.decode()
    assert "The score sheet changed after you opened it: director corrected game 1" in page
    assert "Nothing you sent was saved" in page and 'id="sheet"' in page  # the sheet as it is
    game = Game.objects.get(match=match5, number=1)
    assert (game.winner, game.cube, game.result) == (1, 2, "gammon")  # the first one's


@pytest.mark.parametrize(
    "language, said",
    [
        ("en", "Game 5 could not have been played: the match is won 5-0 at game 4 (WBF 3)."),
        (
            "it",
            "Il gioco 5 non può essere stato giocato: la partita è vinta 5-0 al gioco 4 (WBF 3).",
        ),
    ],
)
def test_a_correction_that_makes_a_later_game_impossible_names_it(
    director_client, match5, record, language, said
):
    """Issue 24.9: the refusal said "The match is over: won 5-4 (WBF 3)." without naming the
    game the correction makes impossible; it names it and where the match is won (WBF 3)."""
    record(match5, 0)  # 1-0
    record(match5, 1)  # 1-1
    record(match5, 0, cube=2)  # 3-1
    record(match5, 0)  # 4-1: game 5 is the Crawford game
    record(match5, 1)  # 4-2
    record(match5, 0)  # 5-2
    # game 2 to Anna: 2-0, 4-0, 5-0 at game 4, and games 5 and 6 could not have been played
    url = reverse("game_edit", args=[match5.pk, 2])
    version = Match.objects.get(pk=match5.pk).version
    posted = {"version": version, "number": 2, "winner": 0, "cube": 1, "result": "single"}
    response = director_client.post(url, posted, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert said in page_text(response)
    assert "The match is over" not in page_text(response)
    assert Game.objects.get(match=match5, number=2).winner == 1  # nothing changed


def test_two_directors_recording_a_final_score_the_second_is_refused(client, match5, director):
    url = reverse("final_score", args=[match5.pk])
    client.force_login(director)
    drawn = client.get(match5.get_absolute_url()).context["final_form"]["version"].value()
    assert client.post(url, {"score_a": 5, "score_b": 1, "version": drawn}).status_code == 302
    response = client.post(url, {"score_a": 1, "score_b": 5, "version": drawn})
    assert response.status_code == 409
    assert "recorded the final score 5–1" in response.content.decode()
    match = Match.objects.get(pk=match5.pk)
    assert (match.final_score_a, match.final_score_b) == (5, 1)


# --- putting a walkover or a final score right through the match page ----------------------


def page_text(response):
    import re

    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_walkover_form_has_no_winner_chosen(director_client, match5):
    form = director_client.get(match5.get_absolute_url()).context["walkover_form"]
    assert form["winner"].value() is None
    assert '<option value="" selected>—</option>' in str(form["winner"])
    response = director_client.post(reverse("walkover", args=[match5.pk]), {"version": 0})
    assert response.status_code == 400 and "This field is required" in page_text(response)


def test_a_walkover_asks_first_and_a_wrong_one_is_put_right(director_client, match5):
    url = reverse("walkover", args=[match5.pk])
    asked = director_client.post(url, {"winner": 0, "version": 0})
    assert asked.status_code == 200
    assert "A walkover to Anna Rossi?" in page_text(asked)
    assert "Anna Rossi wins by walkover against Bruno Bianchi (5-point match)." in page_text(asked)
    assert Match.objects.get(pk=match5.pk).status == "scheduled"  # nothing yet
    done = director_client.post(url, {"winner": 0, "version": 0, "confirm": "1"}, follow=True)
    assert "The walkover is recorded." in page_text(done)
    version = Match.objects.get(pk=match5.pk).version
    # the wrong player: given to the other one, the confirmation saying what it replaces
    asked = director_client.post(url, {"winner": 1, "version": version})
    assert "It replaces a walkover to Anna Rossi." in page_text(asked)
    director_client.post(url, {"winner": 1, "version": version, "confirm": "1"})
    match = Match.objects.get(pk=match5.pk)
    assert (match.status, match.walkover_winner) == ("walkover", 1)
    # and nobody won without playing after all: taken back, the match is to be played
    clear = reverse("result_clear", args=[match5.pk])
    asked = director_client.post(clear, {"version": match.version})
    assert "The result, a walkover to Bruno Bianchi, is taken back" in page_text(asked)
    done = director_client.post(clear, {"version": match.version, "confirm": "1"}, follow=True)
    assert "The result is taken back: the match is to be played." in page_text(done)
    match = Match.objects.get(pk=match5.pk)
    assert (match.status, match.walkover_winner) == ("scheduled", None)
    assert "Record game 1" in page_text(done)
    assert last_change(match) == (
        "director took back a walkover to Bruno Bianchi: the match is to be played."
    )


def test_the_walkover_and_retirement_confirmations_name_each_player_once(director_client, match5):
    """Issue 24.14e: "Anna Rossi wins Anna Rossi – Bruno Bianchi (5) without playing"."""
    url = reverse("walkover", args=[match5.pk])
    asked = director_client.post(url, {"winner": 1, "version": 0}, HTTP_ACCEPT_LANGUAGE="it")
    said = page_text(asked)
    assert "Bruno Bianchi vince a tavolino contro Anna Rossi (partita ai 5 punti)." in said
    assert "Anna Rossi – Bruno Bianchi (5)" not in said
    asked = director_client.post(reverse("retire", args=[match5.pk]), {"side": 0, "version": 0})
    said = page_text(asked)
    assert (
        "Anna Rossi retires from the 5-point match against Bruno Bianchi: Bruno Bianchi wins "
        "it, the score written as 5 for them."
    ) in said


def test_a_stale_take_back_is_refused_with_the_sheet_as_it_is(director_client, match5, director):
    match_walkover(match=match5, winner=0, user=director)
    stale = Match.objects.get(pk=match5.pk).version
    match_walkover(match=Match.objects.get(pk=match5.pk), winner=1, user=director)
    response = director_client.post(
        reverse("result_clear", args=[match5.pk]), {"version": stale, "confirm": "1"}
    )
    assert response.status_code == 409
    assert "The score sheet changed after you opened it" in page_text(response)
    assert Match.objects.get(pk=match5.pk).walkover_winner == 1


def test_a_final_score_is_corrected_from_a_form_showing_it(director_client, match5, director):
    match_record_final_score(match=match5, score_a=5, score_b=3, user=director)
    page = director_client.get(match5.get_absolute_url())
    form = page.context["final_form"]
    assert (form["score_a"].value(), form["score_b"].value()) == (5, 3)
    assert "Correct the result to this final score" in page_text(page)
    version = Match.objects.get(pk=match5.pk).version
    data = {"score_a": 5, "score_b": 4, "version": version}
    director_client.post(reverse("final_score", args=[match5.pk]), data)
    match = Match.objects.get(pk=match5.pk)
    assert (match.final_score_a, match.final_score_b) == (5, 4)
    assert last_change(match) == (
        "director corrected the result to the final score 5–4 (it was the final score 5–3)."
    )


def test_taking_back_a_result_a_later_match_depends_on_is_refused_in_words(
    director_client, event_with, director, finish, record
):
    from tests.tournaments.helpers import by_key
    from tournaments.models import Event
    from tournaments.services import event_draw

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    match_walkover(match=m11, winner=0, user=director)
    finish(m12, m12.player_a)
    record(by_key(event, "M2-1"), 0)
    version = Match.objects.get(pk=m11.pk).version
    response = director_client.post(
        reverse("result_clear", args=[m11.pk]), {"version": version, "confirm": "1"}
    )
    assert response.status_code == 400
    assert "can no longer be corrected" in page_text(response)
    assert "US rules 4.10" in page_text(response)
    assert Match.objects.get(pk=m11.pk).status == "walkover"
