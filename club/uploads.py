"""Files kept between their preview and their confirmation (:class:`club.models.KeptUpload`).

A page that previews an upload keeps the file here and puts only its key in the
confirmation's form: the file is not posted twice, so a file as large as the page takes
is confirmed as it was previewed. The key is bound to the account that uploaded it: another
account holding the key finds nothing. A kept file lasts :data:`KEPT`; each new one clears
those older than that.

Why the database and not the cache, as match files' replays are kept: a replay that is
lost is made again from the text the form carries, but a preview lost here means uploading
the file again. The cache is each process's memory on a laptop (and on a server run
without Redis, a confirmation reaching another worker would find nothing), Redis may evict
a large value or be down, while the database is shared by every worker and is what the
import writes to anyway; and taking the file inside the import's transaction makes a
confirmation sent twice import once.
"""

from __future__ import annotations

import datetime
import secrets
import zlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from .actors import Actor
from .models import KeptUpload

KEPT = datetime.timedelta(days=1)


def upload_gone() -> ValidationError:
    """The refusal when a kept file is not there (expired, confirmed, or someone else's)."""
    return ValidationError(
        _("The preview has expired or was already confirmed: upload the file again."),
        code="upload_gone",
    )


def upload_keep(*, user: Actor, kind: str, data: bytes) -> str:
    """Keep ``data`` for ``user`` and return its key; clear what has been kept too long."""
    if not isinstance(user, User):  # kept for an account: a visitor or the site has none
        raise PermissionDenied
    KeptUpload.objects.filter(kept_at__lt=timezone.now() - KEPT).delete()
    key = secrets.token_urlsafe(32)
    KeptUpload.objects.create(key=key, user=user, kind=kind, data=zlib.compress(data, 6))
    return key


def _kept(*, user: Actor, kind: str, key: str) -> QuerySet[KeptUpload]:
    if not isinstance(user, User) or not isinstance(key, str) or not key:
        return KeptUpload.objects.none()
    return KeptUpload.objects.filter(
        key=key, user=user, kind=kind, kept_at__gte=timezone.now() - KEPT
    )


def upload_read(*, user: Actor, kind: str, key: str) -> bytes:
    """The file ``user`` kept under ``key`` (to show its preview again), or :func:`upload_gone`."""
    found = _kept(user=user, kind=kind, key=key).values_list("data", flat=True).first()
    if found is None:
        raise upload_gone()
    return zlib.decompress(found)


def upload_take(*, user: Actor, kind: str, key: str) -> bytes:
    """The file kept under ``key``, removed: call it inside the transaction that uses it, so
    that a failure keeps it and two confirmations at once find it only once."""
    found = _kept(user=user, kind=kind, key=key).select_for_update().first()
    if found is None:
        raise upload_gone()
    deleted, _kinds = KeptUpload.objects.filter(pk=found.pk).delete()
    if not deleted:  # taken meanwhile (a database that does not lock rows: SQLite)
        raise upload_gone()
    return zlib.decompress(found.data)


View = Callable[..., HttpResponse]


def size_gate(limit: Callable[[], int], mark: str) -> Callable[[View], View]:
    """A view taking a file: a request declaring more than ``limit()`` bytes is refused unread.

    Django would read it all first (the CSRF check reads the form), to a temporary file for a
    large upload, or refuse a large form with a bare "400 Bad Request". Here the size the
    request declares is looked at before that: over the limit, the view is called with
    ``request.<mark>`` set and shows its empty form with the refusal (413), writing nothing,
    so no CSRF check is needed; otherwise the CSRF check runs as on any other page. ``limit``
    is asked at each request (the settings' value then)."""

    def decorate(view: View) -> View:
        protected = csrf_protect(view)

        @csrf_exempt
        @wraps(view)
        def gate(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                size = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                size = 0
            if request.method == "POST" and size > limit():
                setattr(request, mark, True)  # a mark on the request, read by getattr
                return view(request, *args, **kwargs)
            return protected(request, *args, **kwargs)

        return gate

    return decorate
