"""Invitations: a player makes their own account from a personal link, no admin needed.

The link is random, works once, until it expires, unless the director withdraws it; a
new one replaces the old. Every step is audited and reads as a sentence in the Changes."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation

from club.audit import audit_for_subject, audit_sentence
from club.models import Invitation, Player
from club.policy import SYSTEM
from club.services import (
    invitation_accept,
    invitation_issue,
    invitation_revoke,
    invitations_issue,
    player_update,
)

pytestmark = pytest.mark.django_db
PASSWORD = "tavola-reale-42"


def accept(invitation, username="anna", password=PASSWORD, user=None):
    from django.contrib.auth.models import AnonymousUser

    return invitation_accept(
        token=invitation.token, user=user or AnonymousUser(), username=username, password=password
    )


def age(invitation):
    """The invitation as if issued long enough ago to have expired a moment ago."""
    now = timezone.now()
    Invitation.objects.filter(pk=invitation.pk).update(
        created_at=now - datetime.timedelta(days=15), expires_at=now - datetime.timedelta(seconds=1)
    )


# --- the token ------------------------------------------------------------------------------


def test_a_token_is_long_random_and_different_each_time(anna, bruno, director):
    tokens = {invitation_issue(player=p, user=director).token for p in (anna, bruno, anna)}
    assert len(tokens) == 3
    assert all(len(token) >= 40 for token in tokens)  # 32 random bytes, url-safe


def test_a_token_works_once(anna, director):
    invitation = invitation_issue(player=anna, user=director)
    player, account = accept(invitation)
    assert player == anna and account.check_password(PASSWORD)
    assert Player.objects.get(pk=anna.pk).user == account
    with pytest.raises(ValidationError, match="has been used already") as refused:
        accept(invitation, username="someone-else")
    assert refused.value.code == "used"
    assert not get_user_model().objects.filter(username="someone-else").exists()


def test_an_expired_token_is_refused_and_makes_no_account(anna, director, settings):
    invitation = invitation_issue(player=anna, user=director)
    age(invitation)
    with pytest.raises(ValidationError, match="has expired") as refused:
        accept(invitation)
    assert refused.value.code == "expired"
    assert not get_user_model().objects.filter(username="anna").exists()
    assert Player.objects.get(pk=anna.pk).user is None


def test_a_token_expires_after_the_days_set(anna, director, settings):
    settings.INVITATION_DAYS = 3
    invitation = invitation_issue(player=anna, user=director)
    assert invitation.expires_at - invitation.created_at == datetime.timedelta(days=3)


def test_a_revoked_token_is_refused(anna, director):
    invitation = invitation_issue(player=anna, user=director)
    invitation_revoke(invitation=invitation, user=director)
    with pytest.raises(ValidationError, match="withdrawn by the director") as refused:
        accept(invitation)
    assert refused.value.code == "revoked"


def test_issuing_again_revokes_the_link_given_before(anna, director):
    first = invitation_issue(player=anna, user=director)
    second = invitation_issue(player=anna, user=director)
    with pytest.raises(ValidationError, match="withdrawn"):
        accept(first)
    player, _account = accept(second)
    assert player == anna


def test_an_unknown_token_is_refused(anna):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ValidationError, match="not one of ours") as refused:
        invitation_accept(token="nothing", user=AnonymousUser(), username="x", password=PASSWORD)
    assert refused.value.code == "unknown"


def test_the_database_keeps_one_open_invitation_a_player(anna, director):
    invitation = invitation_issue(player=anna, user=director)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(player=anna, token="another", expires_at=invitation.expires_at)


# --- refusals ---------------------------------------------------------------------------------


def test_a_player_with_an_account_gets_no_invitation(anna, director, member):
    player_update(player=anna, account=member, user=SYSTEM)
    with pytest.raises(ValidationError, match="already has an account"):
        invitation_issue(player=anna, user=director)


def test_a_player_linked_meanwhile_refuses_the_link(anna, director, member):
    invitation = invitation_issue(player=anna, user=director)
    player_update(player=anna, account=member, user=SYSTEM)
    with pytest.raises(ValidationError, match="already has an account") as refused:
        accept(invitation)
    assert refused.value.code == "player_linked"


def test_an_account_linked_to_another_player_is_refused(anna, bruno, director, member):
    player_update(player=bruno, account=member, user=SYSTEM)
    invitation = invitation_issue(player=anna, user=director)
    with pytest.raises(ValidationError, match="already linked to the player Bruno Bianchi"):
        invitation_accept(token=invitation.token, user=member)
    assert Player.objects.get(pk=anna.pk).user is None


def test_a_signed_in_account_is_linked(anna, director, member):
    invitation = invitation_issue(player=anna, user=director)
    _player, account = invitation_accept(token=invitation.token, user=member)
    assert account == member and Player.objects.get(pk=anna.pk).user == member


def test_the_password_validators_refuse_a_weak_password(anna, director):
    invitation = invitation_issue(player=anna, user=director)
    with pytest.raises(ValidationError, match=r"too short|too common"):
        accept(invitation, password="1234")
    assert Invitation.objects.get(pk=invitation.pk).state == "open"  # nothing used up


def test_a_user_name_taken_is_refused(anna, director, member):
    invitation = invitation_issue(player=anna, user=director)
    with pytest.raises(ValidationError, match="is taken"):
        accept(invitation, username="MEMBER")


def test_only_the_register_s_keepers_invite(anna, member):
    with pytest.raises(PermissionDenied):
        invitation_issue(player=anna, user=member)


def test_invitations_for_many_skip_those_with_an_account_or_a_link(
    anna, bruno, field, director, member
):
    carla = field(1, prefix="Carla")[0]
    player_update(player=anna, account=member, user=SYSTEM)
    kept = invitation_issue(player=bruno, user=director)
    issued = invitations_issue(players=[anna, bruno, carla], user=director)
    assert [i.player for i in issued] == [carla]
    assert Invitation.objects.get(pk=kept.pk).state == "open"


# --- the player's own details ---------------------------------------------------------------


def test_a_player_changes_their_own_name_club_email_phone(anna, director):
    account = accept(invitation_issue(player=anna, user=director))[1]
    saved = player_update(
        player=anna,
        user=account,
        name="Anna Maria Rossi",
        club="Circolo di Napoli",
        email="anna@example.org",
        phone="+39 333 1234567",
    )
    assert (saved.name, saved.club, saved.email, saved.phone) == (
        "Anna Maria Rossi",
        "Circolo di Napoli",
        "anna@example.org",
        "+39 333 1234567",
    )
    change = audit_for_subject(subject=anna).filter(code="player.changed").get()
    assert change.user == account


@pytest.mark.parametrize("field_name", ["country", "account"])
def test_a_player_changes_nothing_else_of_their_own(anna, director, member, field_name):
    account = accept(invitation_issue(player=anna, user=director))[1]
    value = "Francia" if field_name == "country" else member
    with pytest.raises(PermissionDenied):
        player_update(player=anna, user=account, **{field_name: value})
    assert Player.objects.get(pk=anna.pk).country == "IT"


def test_a_player_does_not_change_another(anna, bruno, director):
    account = accept(invitation_issue(player=anna, user=director))[1]
    with pytest.raises(PermissionDenied):
        player_update(player=bruno, user=account, name="Bruno il Grande")


def test_the_director_changes_the_details_and_staff_the_account(
    anna, director, member, django_user_model
):
    """Linking an account outright is the admin's: a director's way is the invitation,
    which asks a directing account to say it is the player (issue 23.1)."""
    saved = player_update(player=anna, user=director, country="Francia")
    assert saved.country == "FR"
    with pytest.raises(PermissionDenied):
        player_update(player=anna, user=director, account=director)
    assert Player.objects.get(pk=anna.pk).user is None
    staff = django_user_model.objects.create_user("staff", password="pw-1", is_staff=True)
    assert player_update(player=anna, user=staff, account=member).user == member


# --- the audit -------------------------------------------------------------------------------


def test_each_step_reads_as_a_sentence_in_english_and_italian(anna, director):
    first = invitation_issue(player=anna, user=director)
    invitation_revoke(invitation=first, user=director)
    accept(invitation_issue(player=anna, user=director))
    entries = list(audit_for_subject(subject=anna).order_by("id"))
    codes = [e.code for e in entries]
    assert codes == [
        "player.created",
        "invitation.issued",
        "invitation.revoked",
        "invitation.issued",
        "invitation.accepted",
    ]
    said = [audit_sentence(e) for e in entries]
    assert said[1].startswith("director issued an invitation link for Anna Rossi, valid until")
    assert said[2] == "director withdrew the invitation link of Anna Rossi."
    # the account is named by its player's name, and the sentence says which account
    assert said[4] == "Anna Rossi made the account anna with their invitation."
    with translation.override("it"):
        italian = [audit_sentence(e) for e in entries]
    assert all("%(" not in s for s in italian)  # the parameters are all filled in


# --- the pages --------------------------------------------------------------------------------


def test_the_link_makes_the_account_signs_in_and_lands_on_the_player_s_page(client, anna, director):
    invitation = invitation_issue(player=anna, user=director)
    page = client.get(reverse("invitation", args=[invitation.token]))
    assert page.status_code == 200 and "This link is for Anna Rossi" in page.content.decode()
    done = client.post(
        reverse("invitation", args=[invitation.token]),
        {"username": "anna", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    assert done.redirect_chain[-1][0] == reverse("me")
    text = done.content.decode()
    assert "Welcome, Anna Rossi" in text and 'id="my-page"' in text
    assert Player.objects.get(pk=anna.pk).user.username == "anna"


@pytest.mark.parametrize(
    ("spoil", "status", "said"),
    [
        ("used", 410, "has been used already"),
        ("revoked", 410, "withdrawn by the director"),
        ("expired", 410, "has expired"),
        ("unknown", 404, "not one of ours"),
    ],
)
def test_a_link_that_no_longer_works_says_why(client, anna, director, spoil, status, said):
    invitation = invitation_issue(player=anna, user=director)
    if spoil == "used":
        accept(invitation, username="first")
        client.logout()
    elif spoil == "revoked":
        invitation_revoke(invitation=invitation, user=director)
    elif spoil == "expired":
        age(invitation)
    token = "no-such-link" if spoil == "unknown" else invitation.token
    page = client.get(reverse("invitation", args=[token]))
    assert page.status_code == status and said in page.content.decode()
    posted = client.post(
        reverse("invitation", args=[token]),
        {"username": "late", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert posted.status_code == status and said in posted.content.decode()
    assert not get_user_model().objects.filter(username="late").exists()


def test_a_weak_password_is_refused_on_the_page(client, anna, director):
    invitation = invitation_issue(player=anna, user=director)
    page = client.post(
        reverse("invitation", args=[invitation.token]),
        {"username": "anna", "password1": "1234", "password2": "1234"},
    )
    assert page.status_code == 400 and "too short" in page.content.decode()
    assert Player.objects.get(pk=anna.pk).user is None


def test_a_signed_in_account_linked_elsewhere_is_refused_on_the_page(
    client, anna, bruno, director, member
):
    player_update(player=bruno, account=member, user=SYSTEM)
    invitation = invitation_issue(player=anna, user=director)
    client.force_login(member)
    page = client.post(reverse("invitation", args=[invitation.token]))
    assert page.status_code == 409
    assert "already linked to the player Bruno Bianchi" in page.content.decode()
    assert Player.objects.get(pk=anna.pk).user is None


def test_a_signed_in_account_is_linked_with_one_button(client, anna, director, member):
    invitation = invitation_issue(player=anna, user=director)
    client.force_login(member)
    assert (
        "Link my account member to Anna Rossi"
        in client.get(reverse("invitation", args=[invitation.token])).content.decode()
    )
    done = client.post(reverse("invitation", args=[invitation.token]))
    assert done.status_code == 302 and Player.objects.get(pk=anna.pk).user == member


def test_the_director_issues_prints_and_withdraws_a_player_s_card(director_client, anna):
    url = reverse("player_invitation", args=[anna.pk])
    assert "No invitation link works" in director_client.get(url).content.decode()
    director_client.post(url, {"action": "issue"})
    invitation = Invitation.objects.get(player=anna)
    card = director_client.get(url).content.decode()
    assert f"/invitations/{invitation.token}/" in card and "<svg" in card and "Anna Rossi" in card
    director_client.post(url, {"action": "revoke"})
    assert Invitation.objects.get(pk=invitation.pk).state == "revoked"
    assert "No invitation link works" in director_client.get(url).content.decode()
    page = director_client.get(anna.get_absolute_url()).content.decode()
    assert "withdrew the invitation link of Anna Rossi" in page  # the player's Changes


def test_a_member_cannot_issue_a_card(member_client, anna):
    url = reverse("player_invitation", args=[anna.pk])
    assert member_client.get(url).status_code == 403
    assert member_client.post(url, {"action": "issue"}).status_code == 403
    assert not Invitation.objects.exists()


def test_a_system_issued_card_names_no_one(anna):
    invitation = invitation_issue(player=anna, user=SYSTEM)
    entry = audit_for_subject(subject=anna).filter(code="invitation.issued").get()
    assert invitation.created_by is None and audit_sentence(entry).startswith("The site issued")


# --- who may invite, and which accounts a link may take (issue 23.1) -------------------------


@pytest.fixture
def entered(event_with, field):
    """A player entered in the director's tournament (a Swiss not yet drawn)."""
    from tournaments.models import Event

    event = event_with(Event.Format.SWISS, field(3), swiss_rounds=2)
    return event.entries.order_by("pk").first().player


def test_a_director_of_another_tournament_may_not_invite_or_change_its_players(
    client, entered, director, other_director
):
    """The invitation makes an account the player's: only those who may change the player
    issue it, and a director of another tournament may not (issue 23.1)."""
    with pytest.raises(PermissionDenied):
        invitation_issue(player=entered, user=other_director)
    with pytest.raises(PermissionDenied):
        player_update(player=entered, user=other_director, email="other@example.org")
    client.force_login(other_director)
    page = reverse("player_invitation", args=[entered.pk])
    assert client.get(page).status_code == 403
    assert client.post(page, {"action": "issue"}).status_code == 403
    assert client.post(reverse("player_edit", args=[entered.pk]), {"name": "X"}).status_code == 403
    seen = client.get(entered.get_absolute_url()).content.decode()
    assert page not in seen and reverse("player_edit", args=[entered.pk]) not in seen
    assert not Invitation.objects.filter(player=entered).exists()
    client.force_login(director)  # the player's own director may
    assert client.post(page, {"action": "issue"}).status_code == 302
    assert Invitation.objects.filter(player=entered, created_by=director).count() == 1


def test_the_directors_group_invites_a_player_of_no_tournament(anna, other_director):
    """The register's keepers keep the players no tournament has yet."""
    assert invitation_issue(player=anna, user=other_director).player == anna


def test_staff_invites_anyone(entered, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="pw-1", is_staff=True)
    assert invitation_issue(player=entered, user=staff).player == entered


def test_a_directing_account_says_it_is_the_player_before_it_is_linked(
    client, entered, director, other_director
):
    """A link opened while signed in as a director's account would hand it the player's
    side on the board and their reports: the page says so and asks (issue 23.1)."""
    invitation = invitation_issue(player=entered, user=director)
    client.force_login(other_director)
    page = client.get(invitation.get_absolute_url())
    text = page.content.decode()
    assert page.status_code == 200
    assert "Your account other is a director's account" in text and 'name="identity"' in text
    refused = client.post(invitation.get_absolute_url())
    assert refused.status_code == 409
    assert "Tick the box only if you are" in refused.content.decode()
    assert Player.objects.get(pk=entered.pk).user is None
    assert Invitation.objects.get(pk=invitation.pk).used_at is None
    italian = client.post(invitation.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it")
    assert "Spunta la casella solo se sei" in italian.content.decode()
    linked = client.post(invitation.get_absolute_url(), {"identity": "yes"})
    assert linked.status_code == 302
    assert Player.objects.get(pk=entered.pk).user == other_director
    said = audit_sentence(audit_for_subject(subject=entered).order_by("-id").first())
    assert said == (
        f"{entered.name} linked the account other, which directs tournaments, with their "
        "invitation, saying it is that player."
    )


def test_staff_is_asked_too(client, anna, director, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="pw-1", is_staff=True)
    invitation = invitation_issue(player=anna, user=director)
    with pytest.raises(ValidationError) as refused:
        invitation_accept(token=invitation.token, user=staff)
    assert refused.value.code == "confirm_identity"
    assert Player.objects.get(pk=anna.pk).user is None
    invitation_accept(token=invitation.token, user=staff, confirmed=True)
    assert Player.objects.get(pk=anna.pk).user == staff


def test_a_player_s_own_account_is_not_asked(client, anna, director, member):
    """An account that directs nothing links with one button, as before."""
    invitation = invitation_issue(player=anna, user=director)
    client.force_login(member)
    assert 'name="identity"' not in client.get(invitation.get_absolute_url()).content.decode()
    assert client.post(invitation.get_absolute_url()).status_code == 302
    assert Player.objects.get(pk=anna.pk).user == member


def test_a_director_is_never_linked_to_a_player_of_their_own_tournament(client, entered, director):
    """Linked, they would report and confirm their own matches' results as the player and
    judge them as the director: refused whatever they tick (issue 23.1)."""
    invitation = invitation_issue(player=entered, user=director)
    with pytest.raises(ValidationError) as refused:
        invitation_accept(token=invitation.token, user=director, confirmed=True)
    assert refused.value.code == "account_directs_player"
    client.force_login(director)
    for response in (
        client.get(invitation.get_absolute_url()),
        client.post(invitation.get_absolute_url(), {"identity": "yes"}),
    ):
        assert response.status_code == 409
        assert "never linked to a player of their own tournament" in response.content.decode()
        assert 'name="identity"' not in response.content.decode()
    italian = client.get(invitation.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it")
    assert "non viene mai collegato a un giocatore del proprio torneo" in italian.content.decode()
    assert Player.objects.get(pk=entered.pk).user is None
    client.logout()  # the director who also plays makes a separate account with the link
    made = client.post(
        invitation.get_absolute_url(),
        {"username": "playing", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert made.status_code == 302
    assert Player.objects.get(pk=entered.pk).user.get_username() == "playing"


def test_issuing_again_to_a_linked_player_does_not_unlink_them(
    client, entered, director, member, tournament
):
    """Neither the player's page nor the tournament's cards take a linked player's account
    away (issue 23.1)."""
    accept(invitation_issue(player=entered, user=director), user=member)
    with pytest.raises(ValidationError):
        invitation_issue(player=entered, user=director)
    client.force_login(director)
    client.post(reverse("player_invitation", args=[entered.pk]), {"action": "issue"})
    client.post(reverse("player_invitation", args=[entered.pk]), {"action": "revoke"})
    client.post(reverse("tournament_invitations", args=[tournament.pk]))
    assert Player.objects.get(pk=entered.pk).user == member
    assert not Invitation.objects.filter(player=entered, used_at__isnull=True).exists()


def test_a_director_entered_after_their_link_is_flagged_on_the_tournament_page(
    client, anna, director, tournament, event_with
):
    """The link was made while Anna played nowhere; entered since in a tournament her account
    directs, the tournament's page says so to everyone (issue 23.1: refused or flagged)."""
    from tournaments.models import Event

    invitation_accept(
        token=invitation_issue(player=anna, user=director).token, user=director, confirmed=True
    )
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert 'id="playing-directors"' not in page
    event_with(Event.Format.SWISS, [anna], swiss_rounds=1)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Also playing, with a director's account:" in page
    assert 'id="playing-directors"' in page and anna.name in page.split("playing-directors")[1]
