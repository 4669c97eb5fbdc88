"""Announcements for the playing room: posted and withdrawn by the tournament's directors,
audited, shown on the wall display and the tournament's page until their time is over."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.audit import audit_for_tournament, audit_sentence
from tournaments.announcements import (
    announcement_post,
    announcement_withdraw,
    announcements_shown,
)
from tournaments.models import Announcement

pytestmark = pytest.mark.django_db


def test_a_director_posts_and_withdraws_and_the_audit_says_so(tournament, director):
    posted = announcement_post(
        tournament=tournament, text="  Round 2\n starts at 15:00 ", minutes=30, user=director
    )
    assert posted.text == "Round 2 starts at 15:00"  # one line, for the wall
    assert posted.posted_by == director
    assert posted.shown_until - posted.posted_at == datetime.timedelta(minutes=30)
    assert list(announcements_shown(tournament=tournament)) == [posted]
    announcement_withdraw(announcement=posted, user=director)
    assert list(announcements_shown(tournament=tournament)) == []
    assert Announcement.objects.get().withdrawn_at is not None  # kept, not deleted
    said = [audit_sentence(e) for e in audit_for_tournament(tournament_id=tournament.pk)[:2]]
    assert said == [
        "director withdrew the announcement “Round 2 starts at 15:00”.",
        "director posted an announcement for the room: “Round 2 starts at 15:00”.",
    ]


@pytest.mark.parametrize(
    ("text", "minutes", "said"),
    [
        ("   ", None, "Write the announcement."),
        ("x" * 281, None, "at most 280 characters: this one has 281"),
        ("Dinner", 0, "Show it for 1 minute to 24 hours"),
        ("Dinner", 24 * 60 + 1, "Show it for 1 minute to 24 hours"),
    ],
)
def test_a_notice_that_cannot_be_shown_is_refused_in_plain_words(
    tournament, director, text, minutes, said
):
    with pytest.raises(ValidationError) as refused:
        announcement_post(tournament=tournament, text=text, minutes=minutes, user=director)
    assert said in " ".join(refused.value.messages)
    assert not Announcement.objects.exists()


def test_withdrawing_twice_or_after_its_time_is_refused(tournament, director, monkeypatch):
    first = announcement_post(tournament=tournament, text="Bar closes at 23", user=director)
    announcement_withdraw(announcement=first, user=director)
    with pytest.raises(ValidationError, match="already withdrawn"):
        announcement_withdraw(announcement=first, user=director)
    timed = announcement_post(tournament=tournament, text="Photo at 18", minutes=5, user=director)
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now + datetime.timedelta(minutes=6))
    assert list(announcements_shown(tournament=tournament)) == []
    with pytest.raises(ValidationError, match="its time is over"):
        announcement_withdraw(announcement=timed, user=director)


def test_only_this_tournament_s_directors_post_or_withdraw(
    tournament, director, member, django_user_model, directors_group
):
    other = django_user_model.objects.create_user("elsewhere", password="pw-else-1")
    other.groups.add(directors_group)
    from tournaments.services import tournament_create

    tournament_create(name="Other cup", date=datetime.date(2026, 12, 20), user=other)
    posted = announcement_post(tournament=tournament, text="Ours", user=director)
    for user in (member, other):
        with pytest.raises(PermissionDenied):
            announcement_post(tournament=tournament, text="Not yours", user=user)
        with pytest.raises(PermissionDenied):
            announcement_withdraw(announcement=posted, user=user)
    assert Announcement.objects.count() == 1
    assert Announcement.objects.get().withdrawn_at is None


def test_the_director_posts_from_the_tournament_page_and_the_wall_shows_it(
    director_client, tournament
):
    client = Client()  # a visitor's phone, beside the director's laptop
    page = director_client.get(tournament.get_absolute_url()).content.decode()
    assert f'action="/tournaments/{tournament.pk}/announcements/#announcements"' in page
    response = director_client.post(
        reverse("announcement_new", args=[tournament.pk]),
        {"text": "Dinner at eight", "minutes": ""},
        follow=True,
    )
    assert "The announcement is on the wall display." in response.content.decode()
    assert "Dinner at eight" in client.get(reverse("wall", args=[tournament.pk])).content.decode()
    notice = Announcement.objects.get()
    assert "Dinner at eight" in client.get(tournament.get_absolute_url()).content.decode()
    response = director_client.post(
        reverse("announcement_withdraw", args=[tournament.pk, notice.pk]), follow=True
    )
    assert "The announcement is withdrawn." in response.content.decode()
    again = director_client.post(
        reverse("announcement_withdraw", args=[tournament.pk, notice.pk]), follow=True
    )
    assert "This announcement was already withdrawn." in again.content.decode()
    assert (
        "Dinner at eight" not in client.get(reverse("wall", args=[tournament.pk])).content.decode()
    )


def test_a_refused_notice_is_said_on_the_tournament_page_its_text_kept(director_client, tournament):
    """The director corrects what is wrong without typing the notice again."""
    response = director_client.post(
        reverse("announcement_new", args=[tournament.pk]),
        {"text": "Dinner at eight in the garden", "minutes": "0"},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "greater than or equal to 1" in page
    assert "Dinner at eight in the garden</textarea>" in page
    assert tournament.name in page  # the tournament's page, with its form
    assert not Announcement.objects.exists()


def test_a_visitor_sees_the_notices_but_no_form(director, tournament):
    announcement_post(tournament=tournament, text="Dinner at eight", user=director)
    page = Client().get(tournament.get_absolute_url()).content.decode()
    assert "Dinner at eight" in page
    assert "/announcements/" not in page and "Withdraw" not in page
