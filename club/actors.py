"""Who acts: a person signed in, a visitor, or the site itself.

Every service takes the acting user, and the permission policy answers for it. The type
says which three kinds there are, so a service cannot be handed something else (a player,
a user id) by mistake, and mypy checks what each kind is asked.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

from django.contrib.auth.models import AnonymousUser, User


class System:
    """The site itself acting: a management command, a data import, a test's set-up.

    Services take ``user=SYSTEM`` where no person acts; a view always passes the
    request's user, so a visitor can never be taken for the site.
    """

    is_authenticated: Final = False
    is_active: Final = True
    is_staff: Final = False
    is_superuser: Final = False
    pk: Final = None
    id: Final = None

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM: Final = System()

# A view passes ``request.user`` (a User or AnonymousUser); scripts and imports pass SYSTEM.
Actor: TypeAlias = User | AnonymousUser | System

# What the audit records of who acted, for the pages that list it.
ActorKind: TypeAlias = Literal["user", "visitor", "system"]
