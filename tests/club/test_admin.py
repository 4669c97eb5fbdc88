"""The admin cannot go around the rules and the audit trail."""

import pytest
from django.urls import reverse

from club.audit import audit_sentence
from club.models import AuditEntry, AuditEntryIsPermanent, Player
from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model, directors_group):
    """A staff director with every permission the demo club gives the Directors group."""
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user("chief", password="x", is_staff=True)
    staff.user_permissions.add(*Permission.objects.all())
    staff.groups.add(directors_group)
    client.force_login(staff)
    return client


def test_staff_cannot_change_a_match_in_the_admin(staff_client, match5, record, anna, bruno):
    from club.policy import SYSTEM
    from club.services import player_create

    record(match5, 0)
    carla = player_create(name="Carla", user=SYSTEM)
    before = list(Match.objects.values())
    url = reverse("admin:matches_match_change", args=[match5.pk])
    page = staff_client.get(url)
    assert page.status_code == 200  # staff may look
    assert 'name="player_a"' not in page.content.decode()  # but there is nothing to edit
    attempt = {
        "player_a": carla.pk,
        "player_b": bruno.pk,
        "length": 7,
        "status": "walkover",
        "walkover_winner": 1,
        "final_score_a": 7,
        "final_score_b": 0,
    }
    assert staff_client.post(url, attempt).status_code == 403
    assert staff_client.get(reverse("admin:matches_match_add")).status_code == 403
    assert (
        staff_client.post(
            reverse("admin:matches_match_delete", args=[match5.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert list(Match.objects.values()) == before


def test_the_audit_trail_cannot_be_edited_or_deleted(staff_client, match5):
    entry = AuditEntry.objects.get(match_id=match5.pk)
    url = reverse("admin:club_auditentry_change", args=[entry.pk])
    assert staff_client.post(url, {"code": "nothing", "user_name": "nobody"}).status_code == 403
    delete = reverse("admin:club_auditentry_delete", args=[entry.pk])
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    bulk = staff_client.post(
        reverse("admin:club_auditentry_changelist"),
        {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302, 403)
    assert AuditEntry.objects.filter(pk=entry.pk, code="match.created").exists()
    # nor through the models, by mistake in code
    with pytest.raises(AuditEntryIsPermanent):
        entry.delete()
    entry.code = "changed"
    with pytest.raises(AuditEntryIsPermanent):
        entry.save()
    with pytest.raises(AuditEntryIsPermanent):
        AuditEntry.objects.filter(pk=entry.pk).update(code="changed")
    with pytest.raises(AuditEntryIsPermanent):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get(pk=entry.pk).code == "match.created"


def test_a_player_changed_in_the_admin_is_audited(staff_client, anna, django_user_model):
    account = django_user_model.objects.create_user("anna", password="pw-anna-1")
    url = reverse("admin:club_player_change", args=[anna.pk])
    data = {
        "name": "Anna Rossi-Verdi",
        "club": anna.club,
        "country": anna.country,
        "email": "",
        "phone": "",
        "user": account.pk,
    }
    assert staff_client.post(url, data).status_code == 302
    anna = Player.objects.get(pk=anna.pk)
    assert anna.name == "Anna Rossi-Verdi" and anna.user == account
    entry = AuditEntry.objects.filter(code="player.changed").get()
    assert audit_sentence(entry) == (
        "chief changed the player Anna Rossi-Verdi: name from “Anna Rossi” to "
        "“Anna Rossi-Verdi”; account from “” to “anna”."
    )
    assert (
        staff_client.post(
            reverse("admin:club_player_delete", args=[anna.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
