"""Putting a tournament and an event right on the site: their directors only, audited."""

import datetime
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from club.audit import audit_for_tournament
from club.policy import SYSTEM
from matches.models import Match
from tests.helpers import page_words as text
from tournaments.models import Event, Tournament
from tournaments.services import (
    event_create,
    event_draw,
    event_update,
    tournament_dice_allow,
    tournament_late_rounds_set,
    tournament_open_entry_set,
    tournament_reports_set,
    tournament_update,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def colleague(django_user_model, directors_group):
    user = django_user_model.objects.create_user("colleague", first_name="Carla")
    user.groups.add(directors_group)
    return user


# --- the tournament ---------------------------------------------------------------------


def test_a_director_puts_the_tournament_right(director_client, director, colleague, tournament):
    page = director_client.get(tournament.get_absolute_url()).content.decode()
    url = reverse("tournament_edit", args=[tournament.pk])
    assert f'href="{url}"' in page
    form = director_client.get(url).content.decode()
    assert 'value="Torneo di Natale"' in form and 'value="2026-12-13"' in form
    answer = director_client.post(
        url,
        {
            "name": "Torneo di Capodanno",
            "date": "2027-01-02",
            "venue": "Genova",
            "directors": [director.pk, colleague.pk],
            "physical_dice": "on",
        },
    )
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.date, tournament.venue) == (
        "Torneo di Capodanno",
        datetime.date(2027, 1, 2),
        "Genova",
    )
    assert set(tournament.directors.all()) == {director, colleague}
    assert tournament.physical_dice
    changed, dice = (
        audit_for_tournament(tournament_id=tournament.pk)
        .filter(code__in=["tournament.changed", "dice.allowed"])
        .order_by("id")
    )
    assert changed.code == "tournament.changed" and dice.code == "dice.allowed"
    assert changed.before == {
        "name": "Torneo di Natale",
        "date": "2026-12-13",
        "venue": "Milano",
        "directors": ["director"],
    }
    assert changed.after["directors"] == ["colleague", "director"]
    page = text(director_client.get(tournament.get_absolute_url()))
    assert "director changed the tournament Torneo di Capodanno: name from “Torneo di Natale”" in (
        page
    )
    assert "directors from “director” to “colleague, director”" in page


def test_the_date_shows_in_italian_too(director_client, tournament):
    """A date input takes the ISO date only: the Italian 13/12/2026 would show it empty."""
    url = reverse("tournament_edit", args=[tournament.pk])
    form = director_client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'type="date" name="date" value="2026-12-13"' in form


def test_saving_the_tournament_unchanged_records_nothing(director_client, director, tournament):
    url = reverse("tournament_edit", args=[tournament.pk])
    data = {"name": "Torneo di Natale", "date": "2026-12-13", "venue": "Milano"}
    answer = director_client.post(url, {**data, "directors": [director.pk]})
    assert answer.status_code == 302
    assert not audit_for_tournament(tournament_id=tournament.pk).filter(
        code__in=["tournament.changed", "dice.allowed"]
    )


def test_the_tournament_form_refuses_in_plain_words(director_client, director, tournament):
    url = reverse("tournament_edit", args=[tournament.pk])
    answer = director_client.post(url, {"name": "", "date": "13/13/2026", "directors": []})
    assert answer.status_code == 400
    said = text(answer)
    assert "This field is required." in said and "Enter a valid date." in said
    assert "A tournament keeps at least one director: choose who runs it." in said
    tournament.refresh_from_db()
    assert tournament.name == "Torneo di Natale" and list(tournament.directors.all()) == [director]


def test_a_director_named_by_staff_outside_the_group_is_kept(
    director_client, director, django_user_model, tournament
):
    """The picker offers the Directors group and the tournament's own directors."""
    guest = django_user_model.objects.create_user("guest-director")
    tournament.directors.add(guest)
    form = director_client.get(reverse("tournament_edit", args=[tournament.pk])).content.decode()
    assert "guest-director" in form
    assert re.search(rf'value="{guest.pk}"[^>]*checked', form)


@pytest.mark.parametrize("who", ["anonymous", "member", "other director"])
def test_only_its_directors_change_a_tournament(client, member, other_director, tournament, who):
    if who == "member":
        client.force_login(member)
    elif who == "other director":
        client.force_login(other_director)
    url = reverse("tournament_edit", args=[tournament.pk])
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert url not in page
    attempt = {"name": "Mine now", "date": "2026-12-13", "directors": [other_director.pk]}
    for response in (client.get(url), client.post(url, attempt)):
        if who == "anonymous":
            assert response.status_code == 302 and reverse("login") in response["Location"]
        else:
            assert response.status_code == 403
            assert "changed by its own directors" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.name == "Torneo di Natale"
    with pytest.raises(PermissionDenied):
        tournament_update(tournament=tournament, name="Mine now", user=other_director)


def test_staff_may_change_a_tournament_s_directors(
    client, django_user_model, colleague, tournament
):
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    client.force_login(staff)
    url = reverse("tournament_edit", args=[tournament.pk])
    data = {"name": "Torneo di Natale", "date": "2026-12-13", "directors": [colleague.pk]}
    assert client.post(url, data).status_code == 302
    assert list(tournament.directors.all()) == [colleague]


def test_the_service_keeps_one_director_and_a_name(tournament, director):
    with pytest.raises(ValidationError):
        tournament_update(tournament=tournament, directors=[], user=director)
    with pytest.raises(ValidationError):
        tournament_update(tournament=tournament, name="  ", user=director)
    kept = tournament_update(tournament=tournament, venue=" Torino ", user=SYSTEM)
    assert (kept.name, kept.venue) == ("Torneo di Natale", "Torino")


REPORTS = {"results_by": "players", "report_detail": "games", "confirm_minutes": 30}
ALLOWED = {"allowed": True}


@pytest.mark.parametrize(
    "setting, given, stored, code, params, before, after",
    [
        (
            tournament_dice_allow,
            ALLOWED,
            {"physical_dice": True},
            "dice.allowed",
            ALLOWED,
            None,
            None,
        ),
        (
            tournament_open_entry_set,
            ALLOWED,
            {"open_entry": True},
            "open_entry.set",
            ALLOWED,
            None,
            None,
        ),
        (
            tournament_late_rounds_set,
            {"count_as": "bye"},
            {"late_rounds": "bye"},
            "late_rounds.set",
            {"count_as": "bye"},
            {"late_rounds": "loss"},
            {"late_rounds": "bye"},
        ),
        (
            tournament_reports_set,
            REPORTS,
            REPORTS,
            "reports.set",
            REPORTS,
            {"results_by": "directors", "report_detail": "either", "confirm_minutes": 15},
            REPORTS,
        ),
    ],
)
def test_a_tournament_setting_is_audited_once_and_again_records_nothing(
    tournament, director, setting, given, stored, code, params, before, after
):
    """The four settings of a tournament share one writer: each change is one audit entry
    with its own code and words, and setting what is already set writes nothing."""
    changed = setting(tournament=tournament, user=director, **given)
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert (
        {name: getattr(fresh, name) for name in stored}
        == stored
        == {name: getattr(changed, name) for name in stored}
    )
    entries = list(audit_for_tournament(tournament_id=tournament.pk).filter(code=code))
    assert [(e.params, e.before, e.after) for e in entries] == [(params, before, after)]
    setting(tournament=tournament, user=director, **given)
    assert audit_for_tournament(tournament_id=tournament.pk).filter(code=code).count() == 1


# --- the event ------------------------------------------------------------------------------


def test_before_the_draw_a_director_changes_the_whole_event(director_client, event_with):
    event = event_with(Event.Format.SINGLE, 4)
    url = reverse("event_edit", args=[event.pk])
    assert f'href="{url}"' in director_client.get(event.get_absolute_url()).content.decode()
    form = director_client.get(url).content.decode()
    assert 'value="5, 5, 7, 7, 9, 11"' in form
    answer = director_client.post(
        url,
        {
            "name": "Svizzero",
            "format": "swiss",
            "lengths": "7, 9",
            "seeding": "rating",
            "swiss_rounds": "3",
            "cut": "2",
            "holland": "on",
        },
    )
    assert answer.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.format, event.seeding, event.swiss_rounds, event.cut) == (
        "Svizzero",
        "swiss",
        "rating",
        3,
        2,
    )
    assert event.holland and [r.length for r in event.rounds.all()] == [7, 9]
    (entry,) = audit_for_tournament(tournament_id=event.tournament_id).filter(code="event.changed")
    assert entry.before["format"] == "single" and entry.after["lengths"] == [7, 9]
    assert "pools" not in entry.after  # unchanged: not listed
    said = text(director_client.get(event.tournament.get_absolute_url()))
    assert "format from “single elimination” to “Swiss”" in said
    assert "Holland rule from “no” to “yes”" in said


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"format": "swiss", "lengths": "5"}, "Say how many rounds the Swiss has."),
        ({"format": "round_robin", "lengths": "5"}, "Say how many round robin pools there are."),
        ({"format": "single", "lengths": "5", "cut": "4"}, "Only a Swiss is cut to a knockout."),
        ({"format": "single", "lengths": "5, 6"}, "odd number of points, not 6 (WBF 3)"),
        ({"format": "single", "lengths": ""}, "This field is required."),
    ],
)
def test_the_event_form_refuses_in_plain_words(director_client, event_with, data, says):
    event = event_with(Event.Format.SINGLE, 2)
    url = reverse("event_edit", args=[event.pk])
    answer = director_client.post(url, {"name": "x", "seeding": "random", **data})
    assert answer.status_code == 400 and says in text(answer)
    event.refresh_from_db()
    assert event.format == "single" and event.name == "single 2"


def test_after_the_draw_the_name_the_holland_rule_and_lengths_not_begun_change(
    director_client, event_with, director, finish
):
    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    first, second = Match.objects.filter(place__event=event).order_by("pk")
    finish(first, first.player_a)
    url = reverse("event_edit", args=[event.pk])
    form = director_client.get(url).content.decode()
    assert 'name="format"' not in form and 'name="lengths"' in form  # issue 25.5
    assert "The draw is made" in form
    answer = director_client.post(url, {"name": "Tabellone", "holland": "on", "format": "swiss"})
    assert answer.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.format, event.holland) == ("Tabellone", "single", True)
    first.refresh_from_db()
    second.refresh_from_db()
    assert not first.holland  # finished under the rule it was played with
    assert second.holland  # not begun: played under the new rule
    with pytest.raises(ValidationError, match="Round 1 of Tabellone has begun: its matches stay 5"):
        event_update(event=event, lengths=[3], user=director)
    with pytest.raises(ValidationError, match="The draw of Tabellone is made"):
        event_update(event=event, seeding="rating", user=director)
    event_update(event=event, lengths=[5, 5, 7, 7, 9, 11], user=director)  # unchanged: fine


def test_an_event_left_nameless_is_named_by_its_format(director_client, event_with):
    event = event_with(Event.Format.DOUBLE, 2)
    url = reverse("event_edit", args=[event.pk])
    data = {"name": "", "format": "double", "lengths": "5", "seeding": "random"}
    assert director_client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.name == "double elimination"


@pytest.mark.parametrize("who", ["anonymous", "member", "other director"])
def test_only_its_directors_change_an_event(client, member, other_director, event_with, who):
    event = event_with(Event.Format.SINGLE, 2)
    if who == "member":
        client.force_login(member)
    elif who == "other director":
        client.force_login(other_director)
    url = reverse("event_edit", args=[event.pk])
    assert url not in client.get(event.get_absolute_url()).content.decode()
    attempt = {"name": "Mine", "format": "single", "lengths": "5", "seeding": "random"}
    for response in (client.get(url), client.post(url, attempt)):
        if who == "anonymous":
            assert response.status_code == 302 and reverse("login") in response["Location"]
        else:
            assert response.status_code == 403
    event.refresh_from_db()
    assert event.name == "single 2"
    with pytest.raises(PermissionDenied):
        event_update(event=event, name="Mine", user=other_director)


def test_a_tournament_s_events_are_its_own(director, other_director):
    """A director of one tournament cannot reach another's event through the service."""
    theirs = Tournament.objects.get(name="Another club's cup")
    event = event_create(
        tournament=theirs, name="Main", format="single", lengths=[5], user=other_director
    )
    with pytest.raises(PermissionDenied):
        event_update(event=event, holland=True, user=director)


def test_a_change_reads_in_the_forms_order_whatever_order_the_database_kept():
    """PostgreSQL's jsonb keeps its keys in its own order: the sentence does not follow it."""
    from club.audit import audit_sentence
    from club.models import AuditEntry

    entry = AuditEntry(
        user_name="director",
        code="tournament.changed",
        params={"name": "Coppa"},
        before={"venue": "Milano", "name": "Torneo"},
        after={"venue": "Genova", "name": "Coppa"},
    )
    said = audit_sentence(entry)
    assert said.index("name from") < said.index("venue from"), said
