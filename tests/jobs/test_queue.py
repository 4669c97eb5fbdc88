"""The job queue as a director meets it (issue 29): work started runs once, joins work already
waiting, fails in words, is tried again without doing anything twice, and its pages refuse
whom they should. Run with the tests' own kinds (tests/jobs/kinds.py)."""

from __future__ import annotations

import logging
import threading

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobs.models import Job
from jobs.runner import job_run, jobs_run_waiting
from jobs.services import job_retry, job_start
from tests.helpers import page_words

from . import kinds
from .kinds import FLAKY, ROWS

pytestmark = pytest.mark.django_db

CRASHED = "The work stopped on an error of the site"
TOO_LARGE = "The file is too large: a match file may be at most 1000 kB."
TOO_LARGE_IT = "Il file è troppo grande"


def rows(key: str) -> int:
    return Group.objects.filter(name__startswith=f"{key}-").count()


def page(client, job, language="en") -> str:
    return page_words(client.get(reverse("jobs:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE=language))


def test_eager_runs_at_once(director):
    job = job_start(kind=ROWS, user=director, params={"n": 3}, key="eager")
    job.refresh_from_db()
    assert job.state == Job.State.DONE
    assert (job.done, job.total, job.attempts) == (3, 3, 1)
    assert job.result == {"made": 3, "rows": 3}
    assert rows("eager") == 3


def test_held_waits_until_run(director, director_client, settings):
    settings.JOBS_BACKEND = "held"
    job = job_start(kind=ROWS, user=director, params={"n": 2}, key="held")
    assert Job.objects.get(pk=job.pk).state == Job.State.QUEUED
    assert rows("held") == 0
    words = page(director_client, job)
    assert "Waiting to start" in words
    assert jobs_run_waiting() == 1
    assert Job.objects.get(pk=job.pk).state == Job.State.DONE
    assert rows("held") == 2
    assert "Done" in page(director_client, job)
    assert "2 of 2 rows made" in page(director_client, job)
    assert jobs_run_waiting() == 0  # nothing waits any more


def test_a_key_joins_waiting_work_and_merges(director, settings):
    settings.JOBS_BACKEND = "held"
    first = job_start(kind=ROWS, user=director, params={"n": 2}, key="same")
    second = job_start(kind=ROWS, user=director, params={"n": 5}, key="same")
    third = job_start(kind=ROWS, user=director, params={"n": 1}, key="same")
    assert first.pk == second.pk == third.pk
    assert Job.objects.get(pk=first.pk).params == {"n": 5}
    other = job_start(kind=ROWS, user=director, params={"n": 1}, key="other")
    assert other.pk != first.pk
    assert jobs_run_waiting() == 2
    assert rows("same") == 5
    # once it has run, the same key starts new work
    again = job_start(kind=ROWS, user=director, params={"n": 1}, key="same")
    assert again.pk != first.pk


def test_a_job_runs_once_however_often_it_is_asked(director, settings):
    """A message delivered twice, or a worker and a retry: the row's state decides."""
    settings.JOBS_BACKEND = "held"
    job = job_start(kind=ROWS, user=director, params={"n": 1})
    assert job_run(job.pk) == "done"
    assert job_run(job.pk) == "skipped"
    Job.objects.filter(pk=job.pk).update(state=Job.State.RUNNING)  # another worker has it
    assert job_run(job.pk) == "skipped"
    assert kinds.ENTERED[job.pk] == 1


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="two runners racing need PostgreSQL's row locks (SQLite runs one writer at a time)",
)
@pytest.mark.django_db(transaction=True)
def test_two_runners_racing_run_it_once(director, settings):
    settings.JOBS_BACKEND = "held"
    job = job_start(kind=ROWS, user=director, params={"n": 2, "sleep": 0.2}, key="race")
    start = threading.Barrier(4)
    outcomes: list[str] = []

    def runner() -> None:
        from django.db import connections

        try:
            start.wait()
            outcomes.append(job_run(job.pk))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["done", "skipped", "skipped", "skipped"]
    assert kinds.ENTERED[job.pk] == 1
    assert rows("race") == 2


@pytest.mark.parametrize(
    ("language", "words"), [("en", TOO_LARGE), ("it", TOO_LARGE_IT)], ids=["en", "it"]
)
def test_a_reason_in_words_shows_on_the_page(director, director_client, language, words):
    job = job_start(kind=ROWS, user=director, params={"n": 3, "fail": True})
    job.refresh_from_db()
    assert (job.state, job.error, job.error_params) == ("failed", "too_large", {"limit": 1000})
    shown = page(director_client, job, language)
    assert words in shown
    assert ("Try again" if language == "en" else "Riprova") in shown


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_crash_says_so_and_is_logged(director, director_client, caplog, language):
    with caplog.at_level(logging.ERROR, logger="jobs.runner"):
        job = job_start(kind=ROWS, user=director, params={"n": 3, "crash_at": 2}, key="crash")
    job.refresh_from_db()
    assert (job.state, job.error, job.done, job.total) == ("failed", "crashed", 1, 3)
    logged = [r for r in caplog.records if r.name == "jobs.runner" and r.exc_info]
    assert len(logged) == 1 and "a bug at row 2" in str(logged[0].exc_info[1])
    shown = page(director_client, job, language)
    if language == "en":
        assert CRASHED in shown
    else:
        assert "Il lavoro si è fermato per un errore del sito" in shown


def test_the_database_not_answering_is_tried_again_then_fails_in_words(director, caplog):
    with caplog.at_level(logging.WARNING, logger="jobs.runner"):
        job = job_start(kind=ROWS, user=director, params={"n": 1, "unavailable": 2}, key="db")
    job.refresh_from_db()
    assert (job.state, job.attempts) == ("done", 3)  # two refusals, then it worked
    assert sum("will be tried again" in r.getMessage() for r in caplog.records) == 2

    lost = job_start(kind=ROWS, user=director, params={"n": 1, "unavailable": 99}, key="down")
    lost.refresh_from_db()
    assert (lost.state, lost.error, lost.attempts) == ("failed", "unavailable", 4)  # 1 + 3 retries
    assert lost.error_params == {"attempts": 4}
    assert rows("down") == 0


def test_a_kinds_own_not_now_is_tried_again(director, director_client):
    gets_there = job_start(kind=FLAKY, user=director, params={"down": 2})
    gets_there.refresh_from_db()
    assert (gets_there.state, gets_there.attempts) == ("done", 3)
    never = job_start(kind=FLAKY, user=director, params={"down": 99})
    never.refresh_from_db()
    assert (never.state, never.error, never.attempts) == ("failed", "unavailable", 3)
    assert "did not answer, 3 times" in page(director_client, never)
    assert "non ha risposto, 3 volte" in page(director_client, never, "it")


def test_try_again_finishes_without_doing_anything_twice(director, director_client):
    job = job_start(kind=ROWS, user=director, params={"n": 4, "crash_at": 3}, key="again")
    assert rows("again") == 2  # it stopped part-way
    response = director_client.post(reverse("jobs:job_again", args=[job.pk]))
    assert response.status_code == 302
    job.refresh_from_db()
    assert (job.state, job.attempts) == ("done", 2)
    assert job.result == {"made": 2, "rows": 4}  # the first two were already there
    assert rows("again") == 4
    assert "2 of 4 rows made" in page(director_client, job)
    # the audit says who tried it again
    from club.models import AuditEntry

    assert AuditEntry.objects.filter(code="job.retried", user=director).count() == 1


def test_try_again_while_it_runs_is_refused_in_words(director, director_client, settings):
    settings.JOBS_BACKEND = "held"
    job = job_start(kind=ROWS, user=director, params={"n": 1})
    Job.objects.filter(pk=job.pk).update(state=Job.State.RUNNING, started_at=timezone.now())
    for language, words in (
        ("en", "This work is not stopped: it can be tried again only after it fails."),
        ("it", "Questo lavoro non è fermo"),
    ):
        response = director_client.post(
            reverse("jobs:job_again", args=[job.pk]), HTTP_ACCEPT_LANGUAGE=language
        )
        assert response.status_code == 409
        assert words in page_words(response)
    assert Job.objects.get(pk=job.pk).state == Job.State.RUNNING


def test_try_again_when_the_same_work_waits_is_refused(director, director_client, settings):
    failed = job_start(kind=ROWS, user=director, params={"n": 1, "fail": True}, key="twin")
    settings.JOBS_BACKEND = "held"
    job_start(kind=ROWS, user=director, params={"n": 1}, key="twin")
    response = director_client.post(reverse("jobs:job_again", args=[failed.pk]))
    assert response.status_code == 409
    assert "The same work is already waiting to start" in page_words(response)


def test_another_user_is_refused_and_anonymous_sent_to_sign_in(director, member, client):
    job = job_start(kind=ROWS, user=director, params={"n": 1, "file": True})
    client.force_login(member)
    for name in ("jobs:job", "jobs:job_download"):
        assert client.get(reverse(name, args=[job.pk])).status_code == 403
    assert client.post(reverse("jobs:job_again", args=[job.pk])).status_code == 403
    assert job.pk not in [row.pk for row in client.get(reverse("jobs:jobs")).context["page"]]
    client.logout()
    for name in ("jobs:job", "jobs:job_download"):
        response = client.get(reverse(name, args=[job.pk]))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get(reverse("jobs:job", args=[job.pk + 1000])).status_code == 302


def test_the_list_is_paged_newest_first(director, director_client, settings):
    settings.JOBS_BACKEND = "held"
    made = [job_start(kind=ROWS, user=director, params={"n": 1}) for _ in range(27)]
    first = director_client.get(reverse("jobs:jobs"))
    listed = [row.pk for row in first.context["page"]]
    assert listed == [job.pk for job in reversed(made)][:25]
    assert "page 1 of 2" in page_words(first)
    second = director_client.get(reverse("jobs:jobs"), {"page": 2})
    assert [row.pk for row in second.context["page"]] == [made[1].pk, made[0].pk]
    assert "pagina 2 di 2" in page_words(
        director_client.get(reverse("jobs:jobs"), {"page": 2}, HTTP_ACCEPT_LANGUAGE="it")
    )


def test_the_file_made_downloads(director, director_client):
    job = job_start(kind=ROWS, user=director, params={"n": 3, "file": True}, key="file")
    assert "Download rows.txt" in page(director_client, job)
    response = director_client.get(reverse("jobs:job_download", args=[job.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain"
    assert response["Content-Disposition"] == 'attachment; filename="rows.txt"'
    assert response.content == b"file-1\nfile-2\nfile-3\n"
    nothing = job_start(kind=ROWS, user=director, params={"n": 1})
    assert director_client.get(reverse("jobs:job_download", args=[nothing.pk])).status_code == 404


def test_a_finished_page_stops_refreshing_and_a_running_one_does_not(director, director_client):
    job = job_start(kind=ROWS, user=director, params={"n": 1})
    part = director_client.get(
        reverse("jobs:job", args=[job.pk]), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="job"
    ).content.decode()
    assert "data-refresh-stop" in part and "<html" not in part
    Job.objects.filter(pk=job.pk).update(state=Job.State.RUNNING, done=0, total=0)
    assert "data-refresh-stop" not in page(director_client, job)


# --- a property: whatever is asked, in whatever order, one waiting job per key at most ----------

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["start", "run", "fail", "retry"]),
        st.sampled_from(["a", "b"]),
        st.integers(1, 5),
    ),
    max_size=12,
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_at_most_one_waiting_job_per_key(director, steps):
    from django.conf import settings as django_settings

    Job.objects.all().delete()
    old = django_settings.JOBS_BACKEND
    django_settings.JOBS_BACKEND = "held"
    try:
        asked: dict[str, int] = {}  # the largest count asked since the key's work last ran
        for action, key, n in steps:
            if action == "start":
                job_start(kind=ROWS, user=director, params={"n": n}, key=key)
                asked[key] = max(asked.get(key, 0), n)
            elif action == "run":
                jobs_run_waiting()
                asked.clear()
            elif action == "fail":
                Job.objects.filter(key=key, state=Job.State.QUEUED).update(
                    state=Job.State.FAILED, error="crashed"
                )
                asked.pop(key, None)
            else:
                failed = Job.objects.filter(key=key, state=Job.State.FAILED).first()
                if failed is not None:
                    waiting = Job.objects.filter(key=key, state=Job.State.QUEUED).exists()
                    try:
                        job_retry(job=failed, user=director)
                    except Exception as refusal:
                        assert waiting, refusal  # refused only when the same work waits
                    else:
                        assert not waiting
                        asked[key] = int(failed.params["n"])
            for each in ("a", "b"):
                waiting = Job.objects.filter(key=each, state=Job.State.QUEUED)
                assert waiting.count() <= 1
                if each in asked:
                    assert waiting.get().params["n"] == asked[each]
                else:
                    assert not waiting.exists()
    finally:
        django_settings.JOBS_BACKEND = old


def test_work_lost_with_its_worker_may_be_tried_again(director, director_client, settings):
    """Running, and not a word from it for a long while (its worker was killed): the page says
    so and offers "Try again", which runs it."""
    import datetime

    settings.JOBS_BACKEND = "held"
    job = job_start(kind=ROWS, user=director, params={"n": 2}, key="lost")
    long_ago = timezone.now() - datetime.timedelta(minutes=20)
    Job.objects.filter(pk=job.pk).update(state=Job.State.RUNNING, started_at=long_ago)
    assert "Nothing has been heard from this work for a long while" in page(director_client, job)
    response = director_client.post(reverse("jobs:job_again", args=[job.pk]))
    assert response.status_code == 302
    assert jobs_run_waiting() == 1
    assert Job.objects.get(pk=job.pk).state == Job.State.DONE
    assert rows("lost") == 2
