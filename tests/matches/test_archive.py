"""Issue 29: an archive of match files imported into matches, as a job.

Real files (the corpus in tests/data/corpus/mat/, written by gnubg, BGBlitz and others) are
zipped here; each becomes a match outside any tournament through the single file's import
(its audit entries with it); a file met again is skipped, whatever archive brings it; a file
that cannot be read is listed with its reason and the others still come in; an archive that
is no archive, too large, empty, without match files or a zip bomb is refused in words.
"""

import io
import random
import zipfile

import pytest
from django.urls import reverse

from club.models import AuditEntry, Player
from club.policy import SYSTEM
from club.services import player_create
from jobs.models import Job
from jobs.runner import job_run, jobs_run_waiting
from matches.models import ImportedFile, Match
from matches.selectors import match_score_sheet
from rules.matfile import read_mat
from rules.replay import replay_match
from tests.conftest import data_files

pytestmark = pytest.mark.django_db

CORPUS = data_files("corpus/mat", "*.mat")
SOME = CORPUS[:4]


def zipped(files, extra=()):
    """A .zip of these corpus files (by name) and of (name, bytes) written here."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            archive.writestr(f"season/{path.name}", path.read_bytes())
        for name, data in extra:
            archive.writestr(name, data)
    return out.getvalue()


def upload(client, data, name="season.zip", **headers):
    file = io.BytesIO(data)
    file.name = name
    return client.post(reverse("matches_import"), {"archive": file}, **headers)


def the_job():
    return Job.objects.get(kind="matches.archive_import")


def test_each_file_becomes_a_match_with_its_games(director_client, director):
    answer = upload(director_client, zipped(SOME))
    job = the_job()
    assert answer.status_code == 302 and answer["Location"] == reverse("jobs:job", args=[job.pk])
    assert job.state == Job.State.DONE and (job.done, job.total) == (len(SOME), len(SOME))
    assert Match.objects.count() == len(SOME)
    for path in SOME:
        record = read_mat(path.read_bytes().decode("utf-8-sig"))
        imported = ImportedFile.objects.get(name=f"season/{path.name}").match
        assert (imported.player_a.name, imported.player_b.name) == tuple(
            name.strip() for name in record.players
        )
        assert imported.length == record.length
        assert Match.objects.filter(pk=imported.pk, place__isnull=True).exists()  # no tournament
        replay = replay_match(record)
        assert match_score_sheet(match=imported).score == replay.final_score
        # the same path as one file's import: its audit entry, by the director
        assert AuditEntry.objects.filter(
            code="match.imported", subject_id=imported.pk, user=director
        ).exists()
    page = director_client.get(answer["Location"]).content.decode()
    assert f"{len(SOME)} matches imported." in page
    assert f'href="{reverse("matches")}"' in page  # see the matches


def test_players_are_found_by_their_exact_name_or_created(director_client):
    record = read_mat(SOME[0].read_bytes().decode("utf-8-sig"))
    known = player_create(name=record.players[0].strip(), user=SYSTEM)
    upload(director_client, zipped(SOME[:1]))
    match = Match.objects.get()
    assert match.player_a == known
    assert Player.objects.filter(name=record.players[1].strip()).count() == 1


def test_an_archive_sent_again_or_tried_again_duplicates_nothing(director_client):
    upload(director_client, zipped(SOME[:2]))
    assert Match.objects.count() == 2
    games = sum(m.games.count() for m in Match.objects.all())
    audit = AuditEntry.objects.count()
    # the same files in another archive, with one more
    upload(director_client, zipped(SOME[:3]))
    second = Job.objects.filter(kind="matches.archive_import").order_by("-pk").first()
    assert second.result == {"imported": 1, "there": 2, "unread": []}
    assert Match.objects.count() == 3
    first_two = Match.objects.order_by("pk")[:2]
    assert sum(m.games.count() for m in first_two) == games
    # the third match's entries, and nothing more for the first two
    assert AuditEntry.objects.filter(code="match.imported").count() == 3
    assert AuditEntry.objects.count() > audit
    audit = AuditEntry.objects.count()
    # tried again: every file is already there
    Job.objects.filter(pk=second.pk).update(state=Job.State.QUEUED)
    assert job_run(second.pk) == "done"
    second.refresh_from_db()
    assert second.result == {"imported": 0, "there": 3, "unread": []}
    assert Match.objects.count() == 3 and AuditEntry.objects.count() == audit


def test_a_file_that_cannot_be_read_is_listed_and_the_others_come_in(director_client):
    broken = ("season/broken.mat", b"hello\nworld\n")
    answer = upload(director_client, zipped(SOME[:2], extra=[broken]))
    job = the_job()
    assert job.state == Job.State.DONE
    assert Match.objects.count() == 2
    (unread,) = job.result["unread"]
    assert unread[0] == "season/broken.mat" and "line 1" in unread[1]
    page = director_client.get(answer["Location"]).content.decode()
    assert "2 matches imported, 1 not read: season/broken.mat — " in page
    # nothing of the broken file was kept: no player, no match
    assert not Player.objects.filter(name__in=["hello", "world"]).exists()


def test_the_summary_is_in_the_directors_language(director_client):
    broken = ("broken.mat", b"hello\n")
    upload(director_client, zipped(SOME[:1], extra=[broken]), HTTP_ACCEPT_LANGUAGE="it")
    job = the_job()
    page = director_client.get(
        reverse("jobs:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert "1 partita importata, 1 non letto: broken.mat — " in page
    assert "Non è un file di partita leggibile" in job.result["unread"][0][1]


def test_the_import_waits_in_the_queue_and_a_double_click_is_one_job(director_client, settings):
    settings.JOBS_BACKEND = "held"
    data = zipped(SOME[:2])
    first, second = upload(director_client, data), upload(director_client, data)
    assert first["Location"] == second["Location"]
    assert Match.objects.count() == 0
    assert jobs_run_waiting() == 1
    assert Match.objects.count() == 2


def test_paths_that_climb_out_and_other_files_are_ignored(director_client):
    extra = [
        ("../../etc/evil.mat", SOME[2].read_bytes()),
        ("/abs/evil.mat", SOME[2].read_bytes()),
        ("__MACOSX/season/._x.mat", b"\x00\x05\x16\x07"),
        ("readme.txt", b"not a match"),
    ]
    upload(director_client, zipped(SOME[:1], extra=extra))
    job = the_job()
    assert job.total == 1 and job.result == {"imported": 1, "there": 0, "unread": []}


def refusal(answer):
    page = answer.content.decode()
    assert 'id="refusal"' in page or "errorlist" in page, page
    return page


@pytest.mark.parametrize(
    "data, name, said",
    [
        (b"just some text", "season.zip", "This is not a .zip archive"),
        (zipped([], extra=[("readme.txt", b"hello")]), "season.zip", "no match file (.mat)"),
        (zipped([], extra=[("../up.mat", b"x")]), "season.zip", "no match file (.mat)"),
        (b"", "season.zip", "The submitted file is empty."),
    ],
    ids=["not a zip", "no .mat", "only a path climbing out", "empty"],
)
def test_an_archive_that_cannot_be_imported_is_refused_in_words(director_client, data, name, said):
    answer = upload(director_client, data, name)
    assert answer.status_code == 400
    assert said in refusal(answer)
    assert not Job.objects.exists()


def test_a_zip_bomb_is_refused_by_the_size_its_files_declare(director_client, settings):
    settings.MATCH_FILE_MAX_BYTES = 10_000
    bomb = zipped([], extra=[("big.mat", b"0" * 200_000)])  # compresses to a few hundred bytes
    assert len(bomb) < 2_000
    answer = upload(director_client, bomb)
    assert answer.status_code == 400
    assert "big.mat would unpack to 0.2 MB" in refusal(answer)
    assert "10 kB" in answer.content.decode()
    assert not Job.objects.exists()


@pytest.mark.parametrize("filler", [1_010_000, 1_200_000], ids=["read", "refused unread"])
def test_an_archive_over_the_limit_is_refused_with_the_limit(director_client, settings, filler):
    """Just over: read, and refused; far over (more than the form's few fields could add):
    refused before the request is read."""
    settings.ARCHIVE_MAX_BYTES = 1_000_000
    data = zipped(SOME[:1], extra=[("filler.bin", random.Random(7).randbytes(filler))])
    assert 1_000_000 < len(data) < 1_000_000 + 65_536 or filler > 1_100_000
    answer = upload(director_client, data)
    assert answer.status_code == 413
    assert "The archive is too large: it may be at most 1 MB." in refusal(answer)
    assert not Job.objects.exists()


def test_the_page_is_for_those_who_may_create_matches(client, member, director):
    assert client.get(reverse("matches_import")).status_code == 302
    client.force_login(member)
    assert client.get(reverse("matches_import")).status_code == 403
    assert upload(client, zipped(SOME[:1])).status_code == 403
    assert "Import match files" not in client.get(reverse("matches")).content.decode()
    client.force_login(director)
    assert client.get(reverse("matches_import")).status_code == 200
    listed = client.get(reverse("matches")).content.decode()
    assert f'href="{reverse("matches_import")}"' in listed
    assert not Match.objects.exists()
