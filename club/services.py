"""Writing the players' register: each change allowed by the policy and audited."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.text import one_line

from .actors import Actor
from .audit import audit_record
from .countries import country_code
from .csvimport import Row
from .models import Invitation, Player
from .policy import (
    SYSTEM,
    can_change_player,
    can_create,
    can_invite,
    directs,
    link_refusal,
    own_player,
    player_fields_allowed,
    require,
)
from .selectors import ImportLine, players_import_preview

PLAYER_FIELDS = ("name", "club", "country", "email", "phone")
# Every detail of a player is one line of text (issue 23.5): the forms refuse line breaks
# and hidden characters in plain words; a service stores whatever it is given made one
# line (rules.text.one_line), whoever calls it: a form, a players' file, the admin.


def _facts(player: Player) -> dict[str, Any]:
    # str: the country is a django-countries Country, its code as text
    facts: dict[str, Any] = {field: str(getattr(player, field)) for field in PLAYER_FIELDS}
    facts["account"] = player.user.get_username() if player.user is not None else ""
    return facts


def _country(text: str) -> str:
    """A country's code from a code or a name a club may type ("Italia", "CH"); refused in
    words when it names none (the form offers only codes; a file or a caller may not)."""
    code = country_code(one_line(str(text)))
    if code is None:
        raise ValidationError(
            _(
                "“%(country)s” is not a country the site knows: write its name (in English, "
                "Italian or German) or its two-letter code, e.g. IT, CH."
            )
            % {"country": one_line(str(text))},
            code="unknown_country",
        )
    return code


def player_create(
    *,
    name: str,
    club: str = "",
    country: str = "",
    email: str = "",
    phone: str = "",
    user: Actor,
) -> Player:
    require(can_create(user))
    with transaction.atomic():
        return _player_insert(
            name=name, club=club, country=country, email=email, phone=phone, user=user
        )


def _player_insert(
    *, name: str, club: str, country: str, email: str, phone: str, user: Actor
) -> Player:
    """A new player and its audit entry, in the caller's transaction, the policy asked."""
    name = one_line(name)
    if not name:
        raise ValidationError(_("A player needs a name."))
    player = Player.objects.create(
        name=name,
        club=one_line(club),
        country=_country(country),
        email=one_line(email),
        phone=one_line(phone),
    )
    audit_record(
        user=user,
        code="player.created",
        subject=player,
        params={"name": player.name},
        after=_facts(player),
    )
    return player


def players_import(*, rows: Iterable[Row], user: Actor) -> list[ImportLine]:
    """Register the players of a file's rows, all or none, each audited as registered.

    The rows are checked again against the register as it is now (it may have changed
    since the preview): a player registered meanwhile is left out, like a refused row.
    Returns what was done with each row (``status.creates``: registered).
    """
    require(can_create(user))
    with transaction.atomic():
        lines = players_import_preview(rows)
        for line in lines:
            if line.status.creates:
                _player_insert(**line.row.details(), user=user)
    return lines


def player_update(*, player: Player, user: Actor, **changes: Any) -> Player:
    """Change a player's details (``account``: the sign-in linked to them, or None).

    Those who may change the player change their details, staff their account too; a
    player signed in changes their own name, club, email and phone, and nothing else
    (:func:`club.policy.player_fields_allowed`)."""
    unknown = set(changes) - {*PLAYER_FIELDS, "account"}
    if unknown:
        raise TypeError(f"not a player's detail: {', '.join(sorted(unknown))}")
    require(can_change_player(user, player) or own_player(user) is not None)
    with transaction.atomic():
        locked = (
            Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
        )
        allowed = player_fields_allowed(user, locked)  # asked of the record as it is now
        if not allowed or not set(changes) <= allowed:
            raise PermissionDenied
        before = _facts(locked)
        for field in PLAYER_FIELDS:
            if field in changes:
                setattr(locked, field, one_line(changes[field]))
        if "country" in changes:
            locked.country = _country(changes["country"])
        if "account" in changes:
            locked.user = changes["account"]
        if not locked.name:
            raise ValidationError(_("A player needs a name."))
        locked.save()
        if "email" in changes and locked.user_id is not None:
            # one address per person (issue 25.1): the linked account's email follows the
            # player's, so Django's reset, the admin and the notifications agree on it
            account = get_user_model().objects.select_for_update().get(pk=locked.user_id)
            if account.email != locked.email:
                account.email = locked.email
                account.save(update_fields=["email"])
        after = _facts(locked)
        if after != before:
            audit_record(
                user=user,
                code="player.changed",
                subject=locked,
                params={"name": locked.name},
                before={k: v for k, v in before.items() if after[k] != v},
                after={k: v for k, v in after.items() if before[k] != v},
            )
    return locked


# --- invitations: a player makes their own account -------------------------------------

INVITATION_DAYS = 14  # how long a link works, unless settings.INVITATION_DAYS says otherwise


def _invitation_days() -> int:
    return int(getattr(settings, "INVITATION_DAYS", INVITATION_DAYS))


def _refuse_linked(player: Player) -> None:
    if player.user_id is not None:
        raise ValidationError(
            _("%(name)s already has an account: they sign in with it.") % {"name": player.name},
            code="player_linked",
        )


def _issue(player: Player, user: Actor) -> Invitation:
    """A new open invitation for a player (any open one revoked first), audited."""
    now = timezone.now()
    for old in Invitation.objects.select_for_update().filter(
        player=player, used_at__isnull=True, revoked_at__isnull=True
    ):
        old.revoked_at = now
        old.save(update_fields=["revoked_at"])
    invitation = Invitation.objects.create(
        player=player,
        token=secrets.token_urlsafe(32),
        created_at=now,
        expires_at=now + datetime.timedelta(days=_invitation_days()),
        created_by=user if isinstance(user, User) else None,  # a person, not the site
    )
    audit_record(
        user=user,
        code="invitation.issued",
        subject=player,
        params={"name": player.name, "expires": invitation.expires_at.date().isoformat()},
    )
    return invitation


def invitation_issue(*, player: Player, user: Actor) -> Invitation:
    """A personal link for the player to make their own account; issuing again revokes the
    link given before (a lost card, a link sent to the wrong person)."""
    require(can_invite(user, player))
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        _refuse_linked(locked)
        return _issue(locked, user)


def invitations_issue(*, players: Iterable[Player], user: Actor) -> list[Invitation]:
    """An invitation for each player who has neither an account nor a link still open."""
    issued = []
    with transaction.atomic():
        for player in players:
            require(can_invite(user, player))
            locked = Player.objects.select_for_update().get(pk=player.pk)
            open_one = Invitation.objects.filter(
                player=locked,
                used_at__isnull=True,
                revoked_at__isnull=True,
                expires_at__gt=timezone.now(),
            ).exists()
            if locked.user_id is None and not open_one:
                issued.append(_issue(locked, user))
    return issued


def invitation_revoke(*, invitation: Invitation, user: Actor) -> Invitation:
    """The link stops working (used links stay as they were)."""
    require(can_invite(user, invitation.player))
    with transaction.atomic():
        locked = (
            Invitation.objects.select_for_update().select_related("player").get(pk=invitation.pk)
        )
        if locked.used_at is not None or locked.revoked_at is not None:
            return locked
        locked.revoked_at = timezone.now()
        locked.save(update_fields=["revoked_at"])
        audit_record(
            user=user,
            code="invitation.revoked",
            subject=locked.player,
            params={"name": locked.player.name},
        )
    return locked


def invitation_refusal(invitation: Invitation | None) -> ValidationError | None:
    """Why this link no longer works, in plain words (None: it works)."""
    state = "unknown" if invitation is None else invitation.state
    said = {
        "unknown": _("This invitation link is not one of ours: check it, or ask the director."),
        "used": _("This invitation has been used already: sign in with the account it made."),
        "revoked": _("This invitation was withdrawn by the director: ask them for a new one."),
        "expired": _("This invitation has expired: ask the director for a new one."),
    }
    if state == "open":
        return None
    return ValidationError(said[state], code=state)


def _account_new(*, username: str, password: str, email: str = "") -> User:
    """A new sign-in, its password checked by the site's password validators."""
    model = get_user_model()
    username = model.normalize_username(username.strip())
    if not username:
        raise ValidationError(_("Choose a user name."), code="username")
    candidate = model(username=username, email=email)
    validate_password(password, candidate)
    if model.objects.filter(username__iexact=username).exists():
        raise ValidationError(
            _("The user name %(username)s is taken: choose another.") % {"username": username},
            code="username_taken",
        )
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save()
    except IntegrityError:  # taken meanwhile
        raise ValidationError(
            _("The user name %(username)s is taken: choose another.") % {"username": username},
            code="username_taken",
        ) from None
    return candidate


def invitation_link_refusal(*, account: Actor, player: Player, confirmed: bool) -> None:
    """Refuse, in plain words, to link a signed-in account to the player by their invitation:
    one that directs a tournament the player plays in (it would judge its own matches), and,
    unless it said it is the player (``confirmed``), one that directs or is staff: a link
    opened by mistake would hand it the player's identity on the board and in reports."""
    if not isinstance(account, User):
        return  # a visitor, who makes a new account with the link: nothing to refuse
    mine = own_player(account)
    if mine is not None:
        raise ValidationError(
            _(
                "Your account is already linked to the player %(name)s: sign out, "
                "then open the link again to make a new account."
            )
            % {"name": mine.name},
            code="account_linked",
        )
    if link_refusal(account, player) is not None:
        raise ValidationError(
            _(
                "Your account %(account)s directs a tournament %(name)s plays in, and a "
                "director is never linked to a player of their own tournament. To play, sign "
                "out and make a separate account with this link."
            )
            % {"account": account.get_username(), "name": player.name},
            code="account_directs_player",
        )
    if directs(account) and not confirmed:
        raise ValidationError(
            _(
                "Your account %(account)s is a director's account: linked to %(name)s, it "
                "would also act as %(name)s on the board and in results. Tick the box only if "
                "you are %(name)s; otherwise sign out and give the link to them."
            )
            % {"account": account.get_username(), "name": player.name},
            code="confirm_identity",
        )


def invitation_accept(
    *, token: str, user: Actor, username: str = "", password: str = "", confirmed: bool = False
) -> tuple[Player, User]:
    """Use an invitation: a visitor makes a new account (``username``, ``password``), or a
    signed-in account is linked to the player. Returns the player and the account, for the
    view to sign in. Refused in plain words: a link expired, used or revoked, an account
    already linked to another player, a player already linked to an account, and
    (:func:`invitation_link_refusal`) an account that directs the player's tournament or,
    not ``confirmed`` to be the player, any account that directs or is staff."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update(of=("self",))
            .select_related("player")
            .filter(token=token)
            .first()
        )
        refusal = invitation_refusal(invitation)
        if refusal is not None:
            raise refusal
        assert invitation is not None  # a token that finds none is refused just above
        player = Player.objects.select_for_update().get(pk=invitation.player_id)
        _refuse_linked(player)
        created = not isinstance(user, User)  # a visitor (or the site) makes a new account
        if isinstance(user, User):
            account = user
            invitation_link_refusal(account=account, player=player, confirmed=confirmed)
        else:
            account = _account_new(username=username, password=password, email=player.email)
        directing = not created and directs(account)
        player.user = account
        player.save(update_fields=["user"])
        invitation.used_at = timezone.now()
        invitation.used_by = account
        invitation.save(update_fields=["used_at", "used_by"])
        audit_record(
            user=account,
            code="invitation.accepted",
            subject=player,
            params={
                "name": player.name,
                "account": account.get_username(),
                "new": created,
                "directs": directing,
            },
            before={"account": ""},
            after={"account": account.get_username()},
        )
    return player, account


def player_sign_up(
    *,
    username: str,
    password: str,
    name: str,
    club: str = "",
    email: str = "",
    phone: str = "",
    user: Actor,
) -> tuple[Player, User]:
    """A visitor makes an account and registers as a player in one step, audited as done by
    the new account. The caller decides why a visitor may (a tournament that lets players
    ask to enter: :func:`tournaments.services.requests.entry_request_sign_up`); someone signed in
    already has an account and is refused."""
    require(user is SYSTEM or not user.is_authenticated)
    name, club, email, phone = one_line(name), one_line(club), one_line(email), one_line(phone)
    if not name:
        raise ValidationError(_("A player needs a name."))
    with transaction.atomic():
        account = _account_new(username=username, password=password, email=email)
        player = Player.objects.create(name=name, club=club, email=email, phone=phone, user=account)
        audit_record(
            user=account,
            code="player.signed_up",
            subject=player,
            params={"name": player.name, "account": account.get_username()},
            after=_facts(player),
        )
    return player, account
