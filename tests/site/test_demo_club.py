"""The demo club stays off servers: with DEBUG off it is refused unless asked for by name."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from matches.models import Match
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_a_server_refuses_the_demo_club_in_plain_words(settings, tmp_path):
    settings.DEBUG = False
    settings.BASE_DIR = tmp_path
    with pytest.raises(CommandError) as refused:
        call_command("demo_club")
    assert "a staff account named 'director'" in str(refused.value)
    assert "Nothing was loaded" in str(refused.value) and "--force" in str(refused.value)
    assert not Player.objects.exists()
    assert not get_user_model().objects.filter(username="director").exists()


def test_a_server_loads_it_when_forced(settings, tmp_path, capsys):
    settings.DEBUG = False
    settings.BASE_DIR = tmp_path
    call_command("demo_club", force=True)
    assert "Director account: director / password: " in capsys.readouterr().out
    assert Player.objects.count() == 12
    assert get_user_model().objects.get(username="director").is_staff


def test_the_message_counts_what_was_loaded(settings, tmp_path, capsys):
    settings.DEBUG = True  # a director's laptop
    settings.BASE_DIR = tmp_path
    call_command("demo_club")
    out = capsys.readouterr().out
    # the club's 8 and the tournament's 4 guests; every match made, the board's one included
    assert Player.objects.count() == 12
    assert f"Demo club loaded: 12 players, {Match.objects.count()} matches." in out
    call_command("demo_club")
    again = capsys.readouterr().out
    assert "The demo club is already loaded." in again and "Demo club loaded" not in again


def test_a_demo_player_signs_in_to_their_page_with_a_match_to_report(
    settings, tmp_path, capsys, client
):
    settings.DEBUG = True
    settings.BASE_DIR = tmp_path
    call_command("demo_club")
    out = capsys.readouterr().out
    password = (tmp_path / ".demo-director").read_text().strip()
    assert f"Player account: player / password: {password}" in out
    player = Player.objects.get(user__username="player")
    assert player.user.check_password(password)
    client.force_login(player.user)
    page = client.get("/me/").content.decode()
    assert f"<h1>{player.name}</h1>" in page and "Report the result" in page
    call_command("demo_club")  # once: a second run makes no second account
    assert get_user_model().objects.filter(username="player").count() == 1
    assert f"Player account: player / password: {password}" in capsys.readouterr().out
