"""Registering players: a name already registered asks first; pickers tell namesakes apart."""

from __future__ import annotations

from django.urls import reverse

from club.models import Player


def test_a_second_player_of_the_same_name_is_registered_only_when_confirmed(director_client, anna):
    url = reverse("player_new")
    typed = {"name": "  anna   ROSSI ", "club": "Circolo di Torino"}
    page = director_client.post(url, typed)
    assert page.status_code == 200  # the form again, with the warning
    text = page.content.decode()
    assert f"Already registered: Anna Rossi (Circolo Backgammon Milano, #{anna.pk})" in text
    assert 'type="checkbox" name="same_name"' in text
    assert Player.objects.count() == 1  # nothing registered yet
    answer = director_client.post(url, {**typed, "same_name": "on"})
    assert answer.status_code == 302 and Player.objects.count() == 2
    other = Player.objects.exclude(pk=anna.pk).get()
    assert (other.name, other.club) == ("anna   ROSSI", "Circolo di Torino")


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
