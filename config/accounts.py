"""A forgotten password: the reset reaches the address the person's mail goes to (issue 25.1).

A player's address is the one on their record, which they change on /me/emails/ (and a
director on the player's page); the account's own email is only the address of an
account with no player, or of a player with none (:func:`matches.notify.player_address`,
the same rule the notifications follow). The mail is the site's own, in the player's
language, and says how long the link works (issue 25.8).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import translation
from django.utils.translation import ngettext

from matches.notify import player_address, player_notifications


def account_address(account: User) -> str:
    """Where an account's mail goes: its player's address, else the account's own."""
    player = getattr(account, "player", None)
    if player is not None:
        return player_address(player)
    return account.email or ""


def account_language(account: User) -> str:
    """The language the player chose for their emails; none chosen: the page's."""
    player = getattr(account, "player", None)
    chosen = player_notifications(player=player).language if player is not None else ""
    return chosen or translation.get_language() or settings.LANGUAGE_CODE


def link_validity(seconds: int) -> str:
    """How long a reset link works, in words ("3 days"), in the active language."""
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    minutes = max(1, round(seconds / 60))
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


class ResetByAddressForm(PasswordResetForm):
    """Django's reset form, finding the account by the address its mail goes to."""

    def get_users(self, email: str) -> Iterator[User]:
        """Active accounts with a password whose address (:func:`account_address`) is
        ``email``, compared as Django does; an address no longer anyone's finds nobody."""
        model = get_user_model()
        candidates = model._default_manager.filter(is_active=True).filter(
            Q(player__email__iexact=email)
            | Q(player__isnull=True, email__iexact=email)
            | Q(player__email="", email__iexact=email)
        )
        for account in candidates.select_related("player"):
            if account.has_usable_password() and (
                account_address(account).casefold() == email.casefold()
            ):
                yield account

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        """The mail to the account's address, in its player's language, with the link's
        validity in words."""
        account = context["user"]
        with translation.override(account_language(account)):
            context = {
                **context,
                "email": account_address(account),
                "validity": link_validity(int(settings.PASSWORD_RESET_TIMEOUT)),
            }
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                account_address(account),
                html_email_template_name,
            )
