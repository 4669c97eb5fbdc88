"""An archive of match files (.zip of .mat) brought into the site as matches (issue 29).

The director's page checks the archive before anything is kept (:func:`archive_members`: a
.zip, not over ``ARCHIVE_MAX_BYTES``, with match files inside, none declaring more than a match
file may hold), then a job reads it file by file. Each file goes the way a single file goes on
a match's import page (:func:`matches.matfiles.mat_import`: the replay, the games recorded
through the results' service, the audit entries): its players found by their exact name or
created, a match outside any tournament of the file's length made for it, all in one
transaction of its own, so a file that cannot be read leaves nothing and the others still
come in. Each file's content is recorded by its SHA-256 (:class:`matches.models.ImportedFile`,
unique): a file met again, in "Try again" or in a second upload, is skipped.

The reasons a file was not read are the import page's own sentences, written in the language
of the director who started the work (kept in the job's parameters), since the job runs where
no visitor's language is known.
"""

from __future__ import annotations

import datetime
import hashlib
import re
import zipfile
import zlib
from collections.abc import Mapping
from io import BytesIO
from pathlib import PurePosixPath
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from club.actors import Actor
from club.models import Player
from club.policy import can_create, require
from club.services import player_create
from jobs.kinds import JobFailed, JobKind, Progress, register_job_kind
from jobs.models import Job, JobFile
from jobs.services import job_file_read, job_start

from .matfiles import mat_import, mat_read, mat_read_text
from .models import ImportedFile, Match
from .services import match_create

KIND = "matches.archive_import"
# more files than this in one archive is refused: each is a match, read one by one
ARCHIVE_MAX_FILES = 5_000


def _megabytes(size: int) -> str:
    amount = size / 1_000_000
    return number_format(amount, decimal_pos=0 if amount.is_integer() else 1, force_grouping=True)


def archive_too_large() -> ValidationError:
    return ValidationError(
        _("The archive is too large: it may be at most %(limit)s MB.")
        % {"limit": _megabytes(settings.ARCHIVE_MAX_BYTES)},
        code="too_large",
    )


def _ignored(name: str) -> bool:
    """A member that is no match file of the archive's: a folder, a path that climbs out
    (``..``) or starts at the root, the Mac's shadow files (``__MACOSX/``, ``._name``)."""
    path = PurePosixPath(name.replace("\\", "/"))
    return (
        name.endswith(("/", "\\"))
        or path.is_absolute()
        or ".." in path.parts
        or (bool(path.parts) and path.parts[0] == "__MACOSX")
        or path.name.startswith("._")
        or path.suffix.lower() != ".mat"
    )


def archive_members(data: bytes) -> list[zipfile.ZipInfo]:
    """The archive's match files, in its order; or the reason it is refused, in words."""
    if not data:
        raise ValidationError(_("The file is empty."), code="empty")
    if len(data) > settings.ARCHIVE_MAX_BYTES:
        raise archive_too_large()
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as error:
        raise ValidationError(
            _("This is not a .zip archive: choose a .zip file holding .mat files."),
            code="not_zip",
        ) from error
    found = [member for member in members if not _ignored(member.filename)]
    if not found:
        raise ValidationError(
            _("The archive holds no match file (.mat): there is nothing to import."),
            code="no_mat",
        )
    if len(found) > ARCHIVE_MAX_FILES:
        raise ValidationError(
            _("The archive holds %(count)s match files: at most %(limit)s may come in at once.")
            % {
                "count": number_format(len(found), force_grouping=True),
                "limit": number_format(ARCHIVE_MAX_FILES, force_grouping=True),
            },
            code="too_many",
        )
    for member in found:
        if member.file_size > settings.MATCH_FILE_MAX_BYTES:
            raise ValidationError(
                _(
                    "%(name)s would unpack to %(size)s MB, and a match file may be at most "
                    "%(limit)s kB: the archive is refused whole."
                )
                % {
                    "name": member.filename,
                    "size": _megabytes(member.file_size),
                    "limit": number_format(
                        settings.MATCH_FILE_MAX_BYTES // 1000, force_grouping=True
                    ),
                },
                code="too_large_inside",
            )
    return found


def archive_import_start(*, user: Actor, name: str, data: bytes, language: str) -> Job:
    """Check the archive and start its import; the same archive sent again by the same
    director while the first is still waiting is that job."""
    require(can_create(user))
    archive_members(data)
    digest = hashlib.sha256(data).hexdigest()
    return job_start(
        kind=KIND,
        user=user,
        params={"name": name[:200], "language": language},
        key=f"{getattr(user, 'pk', '')}:{digest}",
        upload=(name[:200], "application/zip", data),
    )


# a file's "Date" tag, as gnubg writes it: 2026.01.31
DATE_TAG = re.compile(r"^\s*(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})")


def _date_of(value: str | None) -> datetime.date | None:
    match = DATE_TAG.match(value or "")
    if match is None:
        return None
    try:
        return datetime.date(*(int(part) for part in match.groups()))
    except ValueError:
        return None


def _player(name: str, user: Actor) -> Player:
    """The player of that exact name, or a new one; two of that name: which one is not known."""
    found = list(Player.objects.filter(name=name).order_by("pk")[:2])
    if len(found) > 1:
        raise ValidationError(
            _(
                "two players are named %(name)s: make the match and import its file from the "
                "match's page"
            )
            % {"name": name}
        )
    if found:
        return found[0]
    return player_create(name=name, user=user)


def _one_file(*, raw: bytes, name: str, digest: str, user: Actor) -> Match:
    """One file in, whole or not at all (the caller's savepoint)."""
    text = mat_read_text(raw)
    record = mat_read(text=text)
    names = [player.strip() for player in record.players]
    if not all(names):
        raise ValidationError(_("the file does not name both players"))
    if names[0] == names[1]:
        raise ValidationError(
            _("both players are named %(name)s: a match needs two") % {"name": names[0]}
        )
    if record.length < 1:
        raise ValidationError(_("the file is a money session, not a match to a length"))
    player_a, player_b = _player(names[0], user), _player(names[1], user)
    match = match_create(
        player_a=player_a,
        player_b=player_b,
        length=record.length,
        date=_date_of(record.tag("Date")),
        user=user,
    )
    mat_import(match=match, text=text, left=0, user=user)
    ImportedFile.objects.create(sha256=digest, name=name[:255], match=match)
    return match


def _run(job: Job, progress: Progress) -> Mapping[str, Any]:
    user = job.created_by
    if user is None or not can_create(user):
        raise JobFailed("not_allowed")
    kept = job_file_read(job=job, role=JobFile.Role.INPUT)
    if kept is None:
        raise JobFailed("no_archive")
    data = kept[1]
    imported, there, unread = 0, 0, []
    with translation.override(str(job.params.get("language") or "") or None):
        try:
            members = archive_members(data)
        except ValidationError as refusal:
            raise JobFailed("archive_refused", reason=" ".join(refusal.messages)) from refusal
        with zipfile.ZipFile(BytesIO(data)) as archive:
            for done, member in enumerate(members):
                progress(done, len(members))
                name = member.filename
                try:
                    with archive.open(member) as inside:
                        raw = inside.read(settings.MATCH_FILE_MAX_BYTES + 1)
                except (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, OSError):
                    unread.append([name, _("it could not be unpacked from the archive")])
                    continue
                digest = hashlib.sha256(raw).hexdigest()
                if ImportedFile.objects.filter(sha256=digest).exists():
                    there += 1
                    continue
                try:
                    with transaction.atomic():
                        _one_file(raw=raw, name=name, digest=digest, user=user)
                except IntegrityError:  # the same file, brought in meanwhile by another import
                    there += 1
                except ValidationError as refusal:
                    unread.append([name, " ".join(refusal.messages)])
                else:
                    imported += 1
        progress(len(members), len(members))
    return {"imported": imported, "there": there, "unread": unread}


def _summary(result: Mapping[str, Any]) -> str:
    imported = int(result.get("imported") or 0)
    there = int(result.get("there") or 0)
    unread = [tuple(item) for item in result.get("unread") or () if len(item) == 2]
    parts = [
        ngettext("%(count)s match imported", "%(count)s matches imported", imported)
        % {"count": imported}
    ]
    if there:
        parts.append(
            ngettext("%(count)s already there", "%(count)s already there", there) % {"count": there}
        )
    said = ", ".join(parts)
    if unread:
        listed = "; ".join(f"{name} — {reason}" for name, reason in unread)
        said += ", " + ngettext(
            "%(count)s not read: %(files)s", "%(count)s not read: %(files)s", len(unread)
        ) % {"count": len(unread), "files": listed}
    return said if said.endswith(".") else said + "."  # a reason ends with its own


def _matches_page(job: Job) -> str:
    return reverse("matches")


def register() -> None:
    register_job_kind(
        JobKind(
            kind=KIND,
            title=gettext_noop("Match files imported from %(name)s"),
            run=_run,
            summary=_summary,
            result_url=_matches_page,
            errors={
                "not_allowed": gettext_noop(
                    "The account that started this import may no longer create matches."
                ),
                "no_archive": gettext_noop("The archive is no longer kept: upload it again."),
                "archive_refused": gettext_noop("The archive cannot be read: %(reason)s"),
            },
        )
    )
