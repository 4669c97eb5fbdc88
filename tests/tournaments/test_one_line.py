"""Issue 23.5 and 23.11: a tournament's and an event's names, its venue and its
announcements are one line, with no override turning what follows right to left.

The forms refuse in plain words (English and Italian); the services store what they are
given made one line (:func:`rules.text.one_line`) for callers that are not forms.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.club.test_one_line import LINE_REFUSED, NAME_REFUSED
from tests.helpers import page_words as words
from tournaments.announcements import announcement_post
from tournaments.models import Announcement, Event, Tournament
from tournaments.services import event_create, event_update, tournament_create, tournament_update

pytestmark = pytest.mark.django_db

ANNOUNCEMENT_REFUSED = {
    "en": "An announcement cannot hold invisible control characters, such as those that turn "
    "the text right to left: take them out.",
    "it": "Un avviso non può contenere caratteri di controllo invisibili, come quelli che "
    "girano il testo da destra a sinistra: toglili.",
}
# the bidirectional controls: embeddings and overrides, isolates, marks
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
BIDI += ["\u200e", "\u200f", "\u061c"]


# --- the services ---------------------------------------------------------------------------


def test_a_tournament_and_its_event_are_stored_on_one_line(director):
    tournament = tournament_create(
        name="Torneo\r\ndi Natale",
        date=datetime.date(2026, 12, 13),
        venue="Mi\u202elano",
        user=director,
    )
    tournament.refresh_from_db()
    assert (tournament.name, tournament.venue) == ("Torneo di Natale", "Milano")
    tournament_update(
        tournament=tournament, name="Torneo\u2028d'Inverno", venue="Roma\n", user=director
    )
    tournament.refresh_from_db()
    assert (tournament.name, tournament.venue) == ("Torneo d'Inverno", "Roma")
    event = event_create(
        tournament=tournament,
        name="Main\n\u2066Event",
        format=Event.Format.SINGLE,
        lengths=[5],
        user=director,
    )
    assert Event.objects.get(pk=event.pk).name == "Main Event"
    event_update(event=event, name="Consolation\r", user=director)
    assert Event.objects.get(pk=event.pk).name == "Consolation"


def test_a_posted_announcement_holds_no_override(tournament, director):
    posted = announcement_post(
        tournament=tournament, text="Round 2 \u202eat 15:00\u202c\nin room B", user=director
    )
    assert Announcement.objects.get(pk=posted.pk).text == "Round 2 at 15:00 in room B"


# --- the forms, through their pages -----------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_tournament_forms_refuse_a_name_over_two_lines(director_client, tournament, language):
    posted = {"name": "Torneo\r\ndi Natale", "date": "2026-12-13", "venue": "Mi\u202elano"}
    new = director_client.post(reverse("tournament_new"), posted, HTTP_ACCEPT_LANGUAGE=language)
    assert new.status_code == 400 and Tournament.objects.count() == 1
    assert NAME_REFUSED[language] in words(new) and LINE_REFUSED[language] in words(new)
    url = reverse("tournament_edit", args=[tournament.pk])
    posted["directors"] = [d.pk for d in tournament.directors.all()]
    edit = director_client.post(url, posted, HTTP_ACCEPT_LANGUAGE=language)
    assert edit.status_code == 400 and NAME_REFUSED[language] in words(edit)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.venue) == ("Torneo di Natale", "Milano")


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_event_forms_refuse_a_name_with_an_override(director_client, tournament, language):
    posted = {
        "name": "Main \u202etnevE",
        "format": "single",
        "lengths": "5, 7",
        "seeding": "random",
    }
    url = reverse("event_new", args=[tournament.pk])
    new = director_client.post(url, posted, HTTP_ACCEPT_LANGUAGE=language)
    assert new.status_code == 400 and not Event.objects.exists()
    assert NAME_REFUSED[language] in words(new)
    event = event_create(
        tournament=tournament,
        name="Main",
        format=Event.Format.SINGLE,
        lengths=[5],
        user=tournament.directors.get(),
    )
    edit = director_client.post(
        reverse("event_edit", args=[event.pk]), posted, HTTP_ACCEPT_LANGUAGE=language
    )
    assert edit.status_code == 400 and NAME_REFUSED[language] in words(edit)
    assert Event.objects.get(pk=event.pk).name == "Main"


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("control", BIDI, ids=lambda c: f"U+{ord(c):04X}")
def test_an_announcement_with_a_bidirectional_control_is_refused_in_plain_words(
    director_client, tournament, language, control
):
    """Issue 23.11: "Round 2 at {RLO}00:51" would show the room 15:00 reversed. Lines typed
    in the text area are no control: they are joined into one."""
    url = reverse("announcement_new", args=[tournament.pk])
    page = director_client.post(
        url, {"text": f"Round 2 at {control}00:51"}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert page.status_code == 400 and ANNOUNCEMENT_REFUSED[language] in words(page)
    assert not Announcement.objects.exists()
    director_client.post(url, {"text": "Round 2\r\nstarts at 15:00"})
    assert Announcement.objects.get().text == "Round 2 starts at 15:00"
