"""Issue 29: a list too long for one download is prepared whole as background work.

The streamed CSV holds at most ``EXPORT_MAX_ROWS`` rows; past it the list offers "Prepare the
whole file", a job that writes every row (the same columns, cells and order) into its file,
offered on the job's page. The same list asked twice while it waits is one job.
"""

import csv
import io

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st

import club.tables
from jobs.models import Job, JobFile
from jobs.runner import jobs_run_waiting
from jobs.services import job_file_read
from tests.matches.test_export_stream import played, rows

pytestmark = pytest.mark.django_db


def prepare(client, query=None):
    path = reverse("table_prepare", args=["matches"])
    if query:
        path += "?" + query
    return client.post(path)


def whole_file(job):
    kept = job_file_read(job=job, role=JobFile.Role.OUTPUT)
    assert kept is not None, job.state
    file, data = kept
    assert file.name == "matches.csv" and file.content_type == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(data.decode())))


def test_past_the_bound_the_list_offers_the_whole_file(client, director, record, settings):
    settings.EXPORT_MAX_ROWS = 5
    played(5, director, record)
    page = client.get(reverse("matches")).content.decode()
    assert "Prepare the whole file" not in page  # exactly the bound: the download has it all
    played(1, director, record)
    page = client.get(reverse("matches"), {"player": ""}).content.decode()
    assert 'id="prepare-whole"' in page and "Prepare the whole file" in page
    italian = client.get(reverse("matches"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Prepara il file intero" in italian


def test_the_whole_file_has_every_row_of_the_capped_download_and_the_rest(
    director_client, director, record, settings, monkeypatch
):
    settings.EXPORT_MAX_ROWS = 5
    monkeypatch.setattr(club.tables, "EXPORT_CHUNK_ROWS", 3)  # several slices
    played(8, director, record)
    capped = rows(director_client.get(reverse("matches"), {"_export": "csv"}))
    assert len(capped) == 1 + 5 + 1 and capped[-1][0].startswith("Only the first 5 rows")
    answer = prepare(director_client)
    job = Job.objects.get(kind="tables.export")
    assert answer.status_code == 302 and answer["Location"] == reverse("jobs:job", args=[job.pk])
    assert job.state == Job.State.DONE and (job.done, job.total) == (8, 8)
    whole = whole_file(job)
    assert whole[:6] == capped[:6]  # the same header, columns, cells and order
    assert len(whole) == 1 + 8
    assert [row[0] for row in whole[1:]] == sorted((row[0] for row in whole[1:]), reverse=True)
    page = director_client.get(answer["Location"]).content.decode()
    assert "The file holds 8 rows." in page and reverse("jobs:job_download", args=[job.pk]) in page
    download = director_client.get(reverse("jobs:job_download", args=[job.pk]))
    assert download.content.decode().count("\n") == 9


def test_the_filters_and_the_order_of_the_list_are_kept(
    director_client, director, record, settings
):
    settings.EXPORT_MAX_ROWS = 1
    played(5, director, record)
    query = "player=Player+002&sort=date&page=2"
    capped = rows(director_client.get(reverse("matches") + "?_export=csv&" + query))
    prepare(director_client, query)
    job = Job.objects.get(kind="tables.export")
    assert job.params["query"] == "player=Player+002&sort=date"  # not the page shown
    whole = whole_file(job)
    assert whole[:2] == capped[:2]
    assert [row[1:3] for row in whole[1:]] == [
        ["Player 001", "Player 002"],
        ["Player 002", "Player 003"],
    ]


def test_the_file_is_in_the_language_it_was_asked_in(director_client, director, record):
    played(2, director, record)
    director_client.post(reverse("table_prepare", args=["matches"]), HTTP_ACCEPT_LANGUAGE="it")
    header = whole_file(Job.objects.get(kind="tables.export"))[0]
    assert header[0] == "data"


def test_a_double_click_prepares_it_once(director_client, director, record, settings):
    settings.JOBS_BACKEND = "held"
    played(3, director, record)
    first = prepare(director_client, "player=Player+001")
    second = prepare(director_client, "player=Player+001")
    assert first["Location"] == second["Location"]
    assert Job.objects.filter(kind="tables.export").count() == 1
    other = prepare(director_client, "player=Player+002")  # another list: another file
    assert other["Location"] != first["Location"]
    assert jobs_run_waiting() == 2
    assert not Job.objects.exclude(state=Job.State.DONE).exists()
    # done, the same list asked again is prepared again (the matches may have changed)
    assert prepare(director_client, "player=Player+001")["Location"] != first["Location"]


def test_a_retry_writes_the_file_again_whole(director_client, director, record):
    from jobs.runner import job_run

    played(3, director, record)
    prepare(director_client)
    job = Job.objects.get(kind="tables.export")
    Job.objects.filter(pk=job.pk).update(state=Job.State.QUEUED)
    assert job_run(job.pk) == "done"
    assert len(whole_file(job)) == 1 + 3
    assert JobFile.objects.filter(job=job).count() == 1


def test_anonymous_visitors_are_sent_to_sign_in(client, director, record):
    played(2, director, record)
    path = reverse("table_prepare", args=["matches"]) + "?player=Player+001"
    answer = client.post(path)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    assert not Job.objects.exists()
    # signed in, the address they were sent back to asks them first, then prepares it
    client.force_login(director)
    page = client.get(path)
    assert page.status_code == 200 and 'id="prepare"' in page.content.decode()
    assert not Job.objects.exists()


def test_another_visitor_cannot_take_the_file(director_client, member, director, record, client):
    played(2, director, record)
    prepare(director_client)
    job = Job.objects.get(kind="tables.export")
    client.force_login(member)
    assert client.get(reverse("jobs:job_download", args=[job.pk])).status_code == 403


def test_a_list_the_site_does_not_have_is_not_found(director_client):
    assert director_client.post(reverse("table_prepare", args=["nothing"])).status_code == 404


names = st.sampled_from(["player", "status", "length", "sort", "page", "_export", "date_after"])
values = st.text(alphabet="ab 1-&=", max_size=4)


@examples(max_examples=100)
@given(st.lists(st.tuples(names, values), max_size=6), st.randoms())
def test_the_same_list_asked_in_any_order_is_the_same_query(pairs, rng):
    """The job's key: the same filters in any order are one list; which page was shown, or
    a download asked, is not part of it; and the query reads back to the same list."""
    from django.http import QueryDict

    from club.tables import export_query

    one, other = QueryDict(mutable=True), QueryDict(mutable=True)
    for name, value in pairs:
        one.appendlist(name, value)
    order = sorted({name for name, _ in pairs})
    rng.shuffle(order)
    for name in order:  # the names in another order, each name's values in theirs
        other.setlist(name, one.getlist(name))
    said = export_query(one)
    assert said == export_query(other)
    back = QueryDict(said)
    assert not {"page", "_export"} & set(back)
    for name in back:
        assert back.getlist(name) == [value for value in one.getlist(name) if value != ""]
    assert export_query(back) == said
