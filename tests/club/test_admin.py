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


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_audit_list_shows_the_sites_sentence_in_the_admins_language(
    staff_client, match5, language
):
    """Staff read what happened, as the match's Changes page says it, not a code."""
    from django.utils import translation
    from django.utils.html import escape

    entry = AuditEntry.objects.get(match_id=match5.pk, code="match.created")
    with translation.override(language):
        said = audit_sentence(entry)
    changelist = reverse("admin:club_auditentry_changelist")
    page = staff_client.get(changelist, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert escape(said) in page
    detail = reverse("admin:club_auditentry_change", args=[entry.pk])
    page = staff_client.get(detail, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert escape(said) in page
    assert ("Che cosa è successo" in page) == (language == "it")  # the label, translated


def test_an_audit_entrys_title_and_when_agree_on_local_time(staff_client, match5, settings):
    """The title said UTC and "When" the club's time (Europe/Rome): both say local time."""
    from datetime import UTC, datetime

    from django.contrib.contenttypes.models import ContentType
    from django.utils import timezone

    at = datetime(2026, 7, 1, 22, 30, tzinfo=UTC)  # 00:30 the next day in Rome
    made = AuditEntry.objects.get(match_id=match5.pk, code="match.created")
    entry = AuditEntry.objects.create(
        at=at,
        user_name="chief",
        code="match.created",
        params=made.params,
        subject_type=ContentType.objects.get_for_model(match5),
        subject_id=match5.pk,
    )
    assert settings.TIME_ZONE == "Europe/Rome"
    assert str(entry).startswith("2026-07-02 00:30 ")
    assert f"{timezone.localtime(entry.at):%Y-%m-%d %H:%M}" == "2026-07-02 00:30"
    detail = staff_client.get(reverse("admin:club_auditentry_change", args=[entry.pk]))
    page = detail.content.decode()
    assert page.count("2026-07-02 00:30") >= 2  # the title and "When"
    assert "2026-07-01 22:30" not in page
    changelist = staff_client.get(reverse("admin:club_auditentry_changelist")).content.decode()
    assert "2026-07-02 00:30" in changelist and "22:30" not in changelist
