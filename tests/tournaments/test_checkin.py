"""Check-in at the door: everyone at once, or one row at a time without a page load."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club.models import AuditEntry
from tournaments.models import Entry, Event
from tournaments.services import entry_check_in, event_check_in_all, event_draw

pytestmark = pytest.mark.django_db


def test_everyone_entered_is_checked_in_each_in_the_audit(event_with, director):
    event = event_with(Event.Format.SINGLE, 6, check_in=False)
    entry_check_in(entry=event.entries.first(), user=director)
    event.entries.filter(pk=event.entries.last().pk).update(status=Entry.Status.WITHDRAWN)

    assert event_check_in_all(event=event, user=director) == 4

    statuses = sorted(event.entries.values_list("status", flat=True))
    assert statuses == ["checked_in"] * 5 + ["withdrawn"]  # a withdrawn player stays out
    assert AuditEntry.objects.filter(code="entry.checked_in").count() == 5


def test_everyone_is_not_checked_in_after_the_draw(event_with, field, director):
    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=1, user=director)
    with pytest.raises(ValidationError, match="check-in is over"):
        event_check_in_all(event=event, user=director)


def test_the_check_in_list_comes_first_with_a_search_box_and_everyone(event_with, director_client):
    event = event_with(Event.Format.SINGLE, 3, check_in=False)
    page = director_client.get(event.get_absolute_url()).content.decode()
    assert page.index('id="entries"') < page.index('class="director-tools')
    assert 'data-filter-rows="#entries-table tbody tr"' in page
    assert "Check in everyone entered (3 still to arrive)" in page
    assert "0 of 3 checked in" in page
    assert "vendor/htmx.min.js" in page  # served by the site itself, no network
    row = event.entries.first()
    assert f'hx-select="#entry-{row.pk}"' in page and f'id="entry-{row.pk}"' in page

    done = director_client.post(
        reverse("event_check_in_all", args=[event.pk]), follow=True
    ).content.decode()
    assert "3 players are checked in." in done and "3 of 3 checked in" in done
    assert "Check in everyone entered" not in done


def test_a_member_cannot_check_everyone_in(event_with, member_client):
    event = event_with(Event.Format.SINGLE, 3, check_in=False)
    refused = member_client.post(reverse("event_check_in_all", args=[event.pk]))
    assert refused.status_code == 403
    assert not event.entries.filter(status=Entry.Status.CHECKED_IN).exists()
