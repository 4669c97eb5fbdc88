"""Issue 23.5: a player's details are one line, whoever writes them.

The forms refuse a line break or a hidden character in plain words; the services store
what they are given made one line (:func:`rules.text.one_line`), for the callers that are
not forms: a players' file, the admin, a script.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from club.csvimport import rows_read
from club.models import AuditEntry, Player
from club.policy import SYSTEM
from club.services import player_create, player_sign_up, player_update, players_import
from tests.helpers import page_words as words

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-pass-phrase-9"


def details(player: Player) -> tuple[str, ...]:
    return (player.name, player.club, player.country, player.email, player.phone)


def test_a_player_registered_with_line_breaks_is_stored_on_one_line(director):
    player = player_create(
        name="Anna\r\nRossi\u202e",
        club="Circolo\nMilano",
        country="Italia\x00",
        email="anna@example.org\n",
        phone="+39\t02 1234",
        user=director,
    )
    player.refresh_from_db()
    assert details(player) == (
        "Anna Rossi",
        "Circolo Milano",
        "IT",
        "anna@example.org",
        "+39 02 1234",
    )
    assert AuditEntry.objects.get(code="player.created").params == {"name": "Anna Rossi"}


def test_a_name_of_nothing_but_hidden_characters_is_no_name(director):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="needs a name"):
        player_create(name="\u202e\u200b\r\n", user=director)
    assert not Player.objects.exists()


def test_a_change_by_the_director_or_the_player_is_stored_on_one_line(anna, director, member):
    player_update(player=anna, user=director, name="Anna\u2028Rossi", club="Roma\r\n")
    anna.refresh_from_db()
    assert (anna.name, anna.club) == ("Anna Rossi", "Roma")
    Player.objects.filter(pk=anna.pk).update(user=member)
    player_update(player=anna, user=member, name="Anna \u202eissoR", phone="333\n444")
    anna.refresh_from_db()
    assert (anna.name, anna.phone) == ("Anna issoR", "333 444")


def test_a_visitor_signing_up_is_stored_on_one_line():
    player, account = player_sign_up(
        username="carla",
        password=PASSWORD,
        name="Carla\nVerdi",
        club="\u2066Torino\u2069",
        email="carla@example.org",
        phone="",
        user=AnonymousUser(),
    )
    player.refresh_from_db()
    assert (player.name, player.club, player.user_id) == ("Carla Verdi", "Torino", account.pk)


def test_a_players_file_s_cells_across_lines_register_players_on_one_line(director):
    rows = rows_read('name,club\n"Anna\r\nRossi","Circolo\nMilano"\n"Bruno\u202e",Roma\n')
    players_import(rows=rows, user=director)
    assert sorted(details(p)[:2] for p in Player.objects.all()) == [
        ("Anna Rossi", "Circolo Milano"),
        ("Bruno", "Roma"),
    ]


def test_a_player_registered_by_a_script_as_system_is_one_line_too():
    player = player_create(name="  Dario\n\nNeri  ", user=SYSTEM)
    assert Player.objects.get(pk=player.pk).name == "Dario Neri"


# --- the forms refuse in plain words, in English and Italian -----------------------------

NAME_REFUSED = {
    "en": "A name is one line: in the box below, its line breaks and invisible control "
    "characters are taken out. Check it, then save again.",
    "it": "Un nome sta su una riga sola: nel campo qui sotto gli a capo e i caratteri di "
    "controllo invisibili sono stati tolti. Controllalo, poi salva di nuovo.",
}
LINE_REFUSED = {
    "en": "One line only: in the box below, the line breaks and invisible control characters "
    "are taken out. Check it, then save again.",
    "it": "Una riga sola: nel campo qui sotto gli a capo e i caratteri di controllo invisibili "
    "sono stati tolti. Controllalo, poi salva di nuovo.",
}


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_player_form_refuses_a_name_over_two_lines(director_client, language):
    from django.urls import reverse

    page = director_client.post(
        reverse("player_new"),
        {"name": "Anna\r\nRossi", "club": "Milano\u202e"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert page.status_code != 302 and not Player.objects.exists()
    assert NAME_REFUSED[language] in words(page) and LINE_REFUSED[language] in words(page)
    shown = page.content.decode()  # the boxes hold the text as it would be saved
    assert 'value="Anna Rossi"' in shown and 'value="Milano"' in shown


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_player_form_refuses_a_change_with_a_hidden_character(director_client, anna, language):
    from django.urls import reverse

    url = reverse("player_edit", args=[anna.pk])
    posted = {"name": "Anna \u202eissoR", "phone": "02\n1234", "country": "IT"}
    page = director_client.post(url, posted, HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code != 302 and NAME_REFUSED[language] in words(page)
    assert LINE_REFUSED[language] in words(page)
    assert 'value="Anna issoR"' in page.content.decode()  # what the override hid, shown
    anna.refresh_from_db()
    assert (anna.name, anna.phone) == ("Anna Rossi", "")


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_player_s_own_profile_refuses_a_name_over_two_lines(client, anna, member, language):
    from django.urls import reverse

    player_update(player=anna, account=member, user=SYSTEM)
    client.force_login(member)
    page = client.post(
        reverse("my_profile"), {"name": "Anna\nRossi\u0085"}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert page.status_code == 400 and NAME_REFUSED[language] in words(page)
    assert Player.objects.get(pk=anna.pk).name == "Anna Rossi"


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_sign_up_refuses_a_name_with_an_override(client, tournament, director, language):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from tournaments.models import Event
    from tournaments.services import event_create, tournament_open_entry_set

    event = event_create(
        tournament=tournament, name="Main", format=Event.Format.SINGLE, lengths=[5], user=director
    )
    tournament_open_entry_set(tournament=tournament, allowed=True, user=director)
    posted = {
        "username": "carla",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "name": "Carla \u202eidreV",
        "club": "Tor\r\nino",
        "email": "",
        "phone": "",
    }
    page = client.post(reverse("event_ask", args=[event.pk]), posted, HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 400 and NAME_REFUSED[language] in words(page)
    assert LINE_REFUSED[language] in words(page)
    assert not get_user_model().objects.filter(username="carla").exists()
