"""The one public audit service: every write of the site records its change here.

An entry keeps a code, its parameters (names as they were, numbers), and the facts
before and after. It is shown as a sentence in the visitor's language: each app
registers, at start-up, how its codes read (:func:`audit_sentences_register`), so
nothing is stored as an English sentence. An entry brought by a tournament file is
``imported``: it names who the file says acted, never an account of this site, and
reads as the file's claim.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model, QuerySet
from django.utils.translation import gettext as _

from .actors import Actor, System
from .models import AuditEntry
from .policy import own_player

SentenceRenderer = Callable[[AuditEntry, str], str]
_SENTENCES: dict[str, SentenceRenderer] = {}


def audit_sentences_register(renderers: Mapping[str, SentenceRenderer]) -> None:
    """How each code reads: ``renderer(entry, who)`` returns the sentence, translated."""
    _SENTENCES.update(renderers)


def actor_name(user: Actor | None) -> str:
    """A person as the site names them in its audit and on its pages: the name of the
    player their account is linked to (a player reads "Niccolò D'Agostino confirmed", not
    their sign-in "niccolo"), else their full name, else their user name. The one place
    that decides it: every sentence naming who acted goes through here."""
    if user is None or isinstance(user, AnonymousUser | System) or not user.is_authenticated:
        return ""
    player = own_player(user)
    if player is not None:
        return player.name
    return user.get_full_name() or user.get_username()


def audit_record(
    *,
    user: Actor,
    code: str,
    subject: Model,
    params: Mapping[str, Any] | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    match_id: int | None = None,
    tournament_id: int | None = None,
    dispute_id: int | None = None,
) -> AuditEntry:
    """Record one change, in the caller's transaction (a write and its entry stand or fall
    together). ``user`` is the person acting, or :data:`club.policy.SYSTEM`."""
    if code not in _SENTENCES:
        raise ValueError(f"audit code {code!r} has no sentence registered")
    name = actor_name(user)
    person = user if name and isinstance(user, User) else None  # a person, not the site
    return AuditEntry.objects.create(
        user=person,
        user_name=name,
        code=code,
        params=dict(params or {}),
        before=dict(before) if before is not None else None,
        after=dict(after) if after is not None else None,
        subject_type=ContentType.objects.get_for_model(subject),
        subject_id=subject.pk,
        match_id=match_id,
        tournament_id=tournament_id,
        dispute_id=dispute_id,
    )


def audit_sentence(entry: AuditEntry) -> str:
    """The entry as a sentence in the active language; an imported one as the file's claim
    (“According to the file: Anna Rossi recorded game 3 …”), never as this site's record."""
    who = entry.user_name or entry.imported_username or _("The site")
    renderer = _SENTENCES.get(entry.code)
    if renderer is None:  # a code from a version of the site that no longer has it
        said = _("%(who)s made a change (%(code)s).") % {"who": who, "code": entry.code}
    else:
        said = renderer(entry, who)
    if entry.imported:
        return _("According to the file: %(sentence)s") % {"sentence": said}
    return said


def audit_for_match(*, match_id: int) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(match_id=match_id).order_by("-at", "-id")


def audit_for_tournament(*, tournament_id: int) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(tournament_id=tournament_id).order_by("-at", "-id")


def audit_for_subject(*, subject: Model) -> QuerySet[AuditEntry]:
    kind = ContentType.objects.get_for_model(subject)
    return AuditEntry.objects.filter(subject_type=kind, subject_id=subject.pk)
