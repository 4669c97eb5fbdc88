"""Registering players: a name already registered asks first; pickers tell namesakes apart."""

from __future__ import annotations

from django.urls import reverse

from club.models import Player


def test_a_second_player_of_the_same_name_is_registered_only_when_confirmed(director_client, anna):
    url = reverse("player_new")
    typed = {"name": "  anna   ROSSI ", "club": "Circolo di Torino"}
    page = director_client.post(url, typed)
    assert page.status_code == 400  # the form again, with the warning
    text = page.content.decode()
    assert f"Already registered: Anna Rossi (Circolo Backgammon Milano, #{anna.pk})" in text
    assert 'type="checkbox" name="same_name"' in text
    assert Player.objects.count() == 1  # nothing registered yet
    answer = director_client.post(url, {**typed, "same_name": "on"})
    assert answer.status_code == 302 and Player.objects.count() == 2
    other = Player.objects.exclude(pk=anna.pk).get()
    assert (other.name, other.club) == ("anna   ROSSI", "Circolo di Torino")


def test_a_new_player_refused_is_answered_400(director_client):
    page = director_client.post(reverse("player_new"), {"name": "", "email": "not an address"})
    assert page.status_code == 400
    assert "Enter a valid email address." in page.content.decode()
    assert not Player.objects.exists()


def test_a_new_name_is_registered_at_once(director_client, anna):
    page = director_client.get(reverse("player_new")).content.decode()
    assert 'type="hidden" name="same_name"' in page  # no box to tick for a new name
    answer = director_client.post(reverse("player_new"), {"name": "Carla Verdi"})
    assert answer.status_code == 302 and Player.objects.filter(name="Carla Verdi").exists()


def test_pickers_show_club_and_id_beside_the_name(director_client, anna, bruno, director):
    from club.policy import SYSTEM
    from club.services import player_create

    twin = player_create(name="Anna Rossi", user=SYSTEM)
    page = director_client.get(reverse("match_new")).content.decode()
    assert f">Anna Rossi (Circolo Backgammon Milano, #{anna.pk})<" in page
    assert f">Anna Rossi (#{twin.pk})<" in page


# --- a player's details put right on the site ----------------------------------------------


def test_a_director_puts_a_player_s_details_right_and_the_change_is_audited(director_client, anna):
    from club.audit import audit_for_subject

    page = director_client.get(anna.get_absolute_url()).content.decode()
    url = reverse("player_edit", args=[anna.pk])
    assert f'href="{url}"' in page  # the Edit link
    form = director_client.get(url).content.decode()
    assert 'value="Circolo Backgammon Milano"' in form
    answer = director_client.post(
        url, {"name": "Anna Rossi", "club": "Circolo di Napoli", "email": "anna@example.org"}
    )
    assert answer.status_code == 302 and answer["Location"] == anna.get_absolute_url()
    anna.refresh_from_db()
    assert (anna.club, anna.email, anna.country) == ("Circolo di Napoli", "anna@example.org", "")
    (entry,) = audit_for_subject(subject=anna).filter(code="player.changed")
    assert entry.before == {"club": "Circolo Backgammon Milano", "country": "IT", "email": ""}
    assert entry.user_name == "director"


def test_renaming_a_player_to_a_namesake_asks_first(director_client, anna, bruno):
    url = reverse("player_edit", args=[bruno.pk])
    page = director_client.post(url, {"name": "anna rossi", "club": bruno.club})
    assert page.status_code == 400
    text = page.content.decode()
    assert "Already registered: Anna Rossi (Circolo Backgammon Milano" in text
    assert "Change Bruno Bianchi" in text  # named as saved, not as typed
    assert Player.objects.get(pk=bruno.pk).name == "Bruno Bianchi"
    answer = director_client.post(url, {"name": "Anna Rossi", "same_name": "on"})
    assert answer.status_code == 302 and Player.objects.filter(name="Anna Rossi").count() == 2


def test_a_player_s_form_refuses_in_plain_words(director_client, anna):
    """A refused form is the page again with what is wrong, answered 400 (issue 23.3)."""
    url = reverse("player_edit", args=[anna.pk])
    page = director_client.post(url, {"name": "  ", "email": "not an address"})
    assert page.status_code == 400
    text = page.content.decode()
    assert "This field is required." in text and "Enter a valid email address." in text
    assert Player.objects.get(pk=anna.pk).name == "Anna Rossi"


def test_only_the_club_s_directors_edit_players(client, member, anna):
    url = reverse("player_edit", args=[anna.pk])
    answer = client.get(url)
    assert answer.status_code == 302 and reverse("login") in answer["Location"]
    assert "player_edit" not in client.get(anna.get_absolute_url()).content.decode()
    client.force_login(member)
    assert (
        reverse("player_edit", args=[anna.pk])
        not in client.get(anna.get_absolute_url()).content.decode()
    )
    refused = client.post(url, {"name": "Intruder"})
    assert refused.status_code == 403 and "Nothing was changed." in refused.content.decode()
    assert Player.objects.get(pk=anna.pk).name == "Anna Rossi"
    assert client.get(reverse("player_edit", args=[anna.pk + 99])).status_code == 404
