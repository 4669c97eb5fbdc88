"""The admin shows a table, its seats and its log, and changes none of them: a line edited
there would change every total after it, with nothing in the audit."""

import pytest
from django.urls import reverse

from money.models import Seat, TableEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user("chief", password="x", is_staff=True)
    staff.user_permissions.add(*Permission.objects.all())
    client.force_login(staff)
    return client


def test_staff_look_at_a_table_but_cannot_change_it(staff_client, chouette):
    lines = list(TableEvent.objects.values())
    seats = list(Seat.objects.values())
    url = reverse("admin:money_table_change", args=[chouette.pk])
    page = staff_client.get(url)
    assert page.status_code == 200
    assert "Venerdì sera" in page.content.decode() and 'name="name"' not in page.content.decode()
    assert staff_client.post(url, {"name": "Altro", "kind": "money"}).status_code == 403
    assert staff_client.get(reverse("admin:money_table_add")).status_code == 403
    delete = reverse("admin:money_table_delete", args=[chouette.pk])
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    assert staff_client.get(reverse("admin:money_table_changelist")).status_code == 200
    assert list(TableEvent.objects.values()) == lines and list(Seat.objects.values()) == seats
