"""A correction's request only asks for the ratings to be worked out again (issue 29): the
job does it, the pages say so meanwhile, and once every job has run the ratings are what the
whole history gives, whatever was recorded, corrected and run in between."""

from __future__ import annotations

import contextlib
import re
from decimal import Decimal
from io import StringIO
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from club.models import AuditEntry, Player
from club.policy import SYSTEM
from club.services import player_create
from jobs.models import Job
from jobs.runner import jobs_run_waiting
from matches.models import Match
from matches.services import (
    match_create,
    match_delete,
    match_record_final_score,
    match_result_clear,
    match_walkover,
)
from tests.helpers import page_words
from tests.tournaments.helpers import clock_at, final_score, ratings_now
from tournaments.advancement import RATINGS_JOB, ratings_rederive
from tournaments.models import RatingChange
from tournaments.ratings_jobs import ratings_pending
from tournaments.transfer.writer import tournament_import

from .test_transfer import demo_document, document  # noqa: F401  (the fixtures)

pytestmark = pytest.mark.django_db

PENDING = "The ratings are being brought up to date after a correction."
PENDING_IT = "I rating sono in corso di aggiornamento dopo una correzione."


def _whole() -> tuple[dict, list]:
    """What the whole history gives, the database left as it was."""
    with transaction.atomic():
        ratings_rederive()
        found = ratings_now()
        transaction.set_rollback(True)
    return found


class _Undo(Exception):
    pass


steps = st.lists(
    st.tuples(
        st.sampled_from(["new", "new", "correct", "clear", "walkover", "delete", "run", "run"]),
        st.integers(0, 4),
        st.integers(0, 4),
        st.sampled_from((1, 3, 5, 7)),
        st.booleans(),
        st.integers(0, 6),
        st.integers(0, 5),  # the clock: ties, and results that fall before rated ones
    ),
    min_size=1,
    max_size=14,
)


def test_any_interleaving_of_results_corrections_and_jobs_ends_as_the_whole_history(director, held):
    """Appends while a job waits, corrections merging into it, matches that stop counting
    and are deleted, jobs run in between: whenever no job waits the history is the whole
    history's, and once the last job has run it is too."""
    players = [player_create(name=f"J{i}", user=SYSTEM) for i in range(5)]

    @settings(max_examples=80, deadline=None, database=None)
    @given(steps)
    def history(plan):
        try:
            with transaction.atomic():
                _play(plan)
                raise _Undo
        except _Undo:
            pass

    def _play(plan):
        matches: list[Match] = []
        for step in plan:
            with contextlib.suppress(ValidationError):  # a refusal changes nothing
                _step(matches, *step)
            if not ratings_pending():
                assert ratings_now() == _whole(), plan
        jobs_run_waiting()
        assert not ratings_pending()
        assert ratings_now() == _whole(), plan

    def _step(matches, kind, first, second, length, a_wins, loser_points, minute):
        if kind == "run":
            jobs_run_waiting()
            return
        with clock_at(minute), transaction.atomic():
            if kind == "new" or not matches:
                second = second if first != second else (first + 1) % len(players)
                match = match_create(
                    player_a=players[first], player_b=players[second], length=length, user=SYSTEM
                )
                score = final_score(match, a_wins, loser_points)
                match_record_final_score(
                    match=match, score_a=score[0], score_b=score[1], user=director
                )
                matches.append(match)
                return
            match = Match.objects.get(pk=matches[first % len(matches)].pk)
            if kind == "clear" and match.decided:
                match_result_clear(match=match, user=director)
            elif kind == "delete" and not match.decided:
                match_delete(match=match, user=director)  # its rating changes are gone
                matches.remove(next(m for m in matches if m.pk == match.pk))
            elif kind == "walkover":
                match_walkover(match=match, winner=0 if a_wins else 1, user=director)
            elif kind == "correct":
                score = final_score(match, a_wins, loser_points)
                match_record_final_score(
                    match=match, score_a=score[0], score_b=score[1], user=director
                )

    history()


def test_two_corrections_waiting_are_one_job_from_the_earlier(director, held):
    anna, bruno, carla = (player_create(name=n, user=SYSTEM) for n in ("Anna", "Bruno", "Carla"))
    made = []
    for a, b in ((anna, bruno), (bruno, carla), (anna, carla)):
        match = match_create(player_a=a, player_b=b, length=3, user=SYSTEM)
        made.append(match_record_final_score(match=match, score_a=3, score_b=1, user=director))
    assert not Job.objects.exists()  # appends: in the request, no job
    match_record_final_score(match=made[2], score_a=0, score_b=3, user=director)
    match_record_final_score(match=made[1], score_a=2, score_b=3, user=director)
    (job,) = Job.objects.filter(kind=RATINGS_JOB)
    assert job.params == {"order": 2} and job.key == "ratings" and job.created_by is None
    assert job.state == Job.State.QUEUED
    assert jobs_run_waiting() == 1
    job.refresh_from_db()
    assert job.state == Job.State.DONE and job.result["order"] == 2
    assert ratings_now() == _whole()
    # the ratings changed with no other change: the audit says so, for the API's tags
    assert AuditEntry.objects.filter(code="ratings.rederived").count() == 1


def test_what_a_failed_job_left_undone_the_next_one_does(director, held):
    """A correction after a failure asks only from its own match: the run takes on the
    failed job's work too, once; a later run does not do it again."""
    anna, bruno, carla = (player_create(name=n, user=SYSTEM) for n in ("Anna", "Bruno", "Carla"))
    made = []
    for a, b in ((anna, bruno), (bruno, carla), (anna, carla), (anna, bruno)):
        match = match_create(player_a=a, player_b=b, length=3, user=SYSTEM)
        made.append(match_record_final_score(match=match, score_a=3, score_b=1, user=director))
    match_record_final_score(match=made[1], score_a=1, score_b=3, user=director)
    with mock.patch(
        "tournaments.ratings_jobs.ratings_rederive_from", side_effect=RuntimeError("down")
    ):
        jobs_run_waiting()
    failed = Job.objects.get(kind=RATINGS_JOB)
    assert failed.state == Job.State.FAILED and failed.params == {"order": 2}
    assert ratings_now() != _whole()
    match_record_final_score(match=made[3], score_a=0, score_b=3, user=director)
    jobs_run_waiting()
    second = Job.objects.filter(kind=RATINGS_JOB).latest("pk")
    assert second.params == {"order": 4} and second.result["order"] == 2
    assert ratings_now() == _whole()
    match_record_final_score(match=made[3], score_a=3, score_b=2, user=director)
    jobs_run_waiting()
    assert Job.objects.filter(kind=RATINGS_JOB).latest("pk").result["order"] == 4
    assert ratings_now() == _whole()


# --- the correction's request, through the game's correction page --------------------------


def _correction(director_client, record, anna, bruno, later: int, at: int):
    """A one-point match Anna won, ``later`` rated matches of others after it, then its game
    corrected through its page (Bruno won it): the queries the request sent."""
    match = match_create(player_a=anna, player_b=bruno, length=1, user=SYSTEM)
    with clock_at(at):
        record(match, 0)
    others = [player_create(name=f"Other {at}-{n:03}", user=SYSTEM) for n in range(2 * later)]
    with clock_at(at + 1):
        for a, b in zip(others[::2], others[1::2], strict=True):
            other = match_create(player_a=a, player_b=b, length=3, user=SYSTEM)
            match_record_final_score(match=other, score_a=3, score_b=1, user=SYSTEM)
    assert not ratings_pending()  # every one appended in its request
    match.refresh_from_db()
    url = reverse("game_edit", args=[match.pk, 1])
    director_client.get(url)  # the session and the user read once, as for any request
    data = {"version": match.version, "number": 1, "winner": 1, "cube": 1, "result": "single"}
    with CaptureQueriesContext(connection) as seen:
        response = director_client.post(url, data)
    assert response.status_code == 302, page_words(response)
    return seen.captured_queries


def test_a_correction_costs_the_same_after_5_or_50_rated_matches_and_the_pages_say_so(
    director_client, record, anna, bruno, held
):
    few = _correction(director_client, record, anna, bruno, 5, at=0)
    jobs_run_waiting()
    anna, bruno = (player_create(name=n, user=SYSTEM) for n in ("Anna Due", "Bruno Due"))
    many = _correction(director_client, record, anna, bruno, 50, at=10)
    assert len(few) == len(many), [q["sql"][:80] for q in many]

    # until the job has run, every page that shows ratings says so, in both languages
    assert ratings_pending()
    pages = [reverse("ratings"), reverse("players"), reverse("player", args=[anna.pk])]
    for path in pages:
        assert PENDING in page_words(director_client.get(path)), path
        italian = director_client.get(path, HTTP_ACCEPT_LANGUAGE="it")
        assert PENDING_IT in page_words(italian), path
    detail = director_client.get(f"/api/v1/players/{anna.pk}").json()
    assert detail["ratings_pending"] is True
    stale = ratings_now()
    assert stale != _whole()  # Anna still has the win she no longer has

    jobs_run_waiting()
    assert ratings_now() == _whole()
    for path in pages:
        assert PENDING not in page_words(director_client.get(path)), path
    anna.refresh_from_db()
    assert anna.rating < Decimal("1500.00")  # she lost her one match
    detail = director_client.get(f"/api/v1/players/{anna.pk}").json()
    assert detail["ratings_pending"] is False
    assert detail["rating"] == float(anna.rating)


LOCK = re.compile(r"FOR (NO KEY )?UPDATE")


def _players_locked(queries) -> list[str]:
    """The queries that lock rows of club_player (a join locked OF another table is not)."""
    return [
        q["sql"]
        for q in queries
        if LOCK.search(q["sql"])
        and 'FROM "club_player"' in q["sql"]
        and " OF " not in q["sql"].split("FOR", 1)[-1]
    ]


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite has no row locks (.ci/run's PostgreSQL pass runs this)",
)
def test_a_correction_locks_no_player_and_a_new_result_only_its_two(
    director_client, record, anna, bruno, held
):
    queries = _correction(director_client, record, anna, bruno, 5, at=0)
    assert _players_locked(queries) == [], "\n".join(_players_locked(queries))
    carla = player_create(name="Carla", user=SYSTEM)
    match = match_create(player_a=anna, player_b=carla, length=1, user=SYSTEM)
    with CaptureQueriesContext(connection) as seen:
        record(match, 1)  # finished after every rated match: appended in the request
    locked = _players_locked(seen.captured_queries)
    assert len(locked) == 2, locked
    assert all(
        f'"club_player"."id" = {p.pk}' in q for q, p in zip(locked, (anna, carla), strict=True)
    )


# --- who may start the whole, the command ---------------------------------------------------


def test_staff_and_directors_work_every_rating_out_again_from_the_rating_list(
    client, director, member, anna, bruno, held
):
    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    match_record_final_score(match=match, score_a=3, score_b=0, user=director)
    client.force_login(member)
    assert "Work out every rating again" not in page_words(client.get(reverse("ratings")))
    assert client.post(reverse("ratings_again"), {"confirm": "1"}).status_code == 403
    client.force_login(director)
    assert "Work out every rating again" in page_words(client.get(reverse("ratings")))
    asked = client.get(reverse("ratings_again"))
    assert "Work out every rating again?" in page_words(asked)
    assert not Job.objects.exists()  # asking changes nothing
    done = client.post(reverse("ratings_again"), {"confirm": "1"})
    job = Job.objects.get(kind=RATINGS_JOB)
    assert done["Location"] == reverse("jobs:job", args=[job.pk])
    assert job.params == {"order": 1} and job.created_by == director
    assert AuditEntry.objects.filter(code="job.started", user=director).exists()
    assert "Waiting to start" in page_words(client.get(done["Location"]))
    jobs_run_waiting()
    page = page_words(client.get(done["Location"]))
    assert "Every rating was worked out again from the first rated match." in page
    client.force_login(member)  # someone else's job, not theirs to follow
    assert client.get(done["Location"]).status_code == 403


def test_another_director_follows_the_ratings_work_the_site_started(
    client, other_director, anna, bruno, director, held
):
    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    match_record_final_score(match=match, score_a=3, score_b=0, user=director)
    match_record_final_score(match=match, score_a=1, score_b=3, user=director)
    job = Job.objects.get(kind=RATINGS_JOB)
    client.force_login(other_director)
    assert client.get(reverse("jobs:job", args=[job.pk])).status_code == 200


def test_the_command_runs_the_job_here_when_nothing_else_will_and_draws_a_bar(
    director, anna, bruno, held
):
    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    match_record_final_score(match=match, score_a=3, score_b=1, user=director)
    step = ratings_now()
    Player.objects.update(rating=Decimal("1400.00"))
    out, err = StringIO(), StringIO()
    call_command("ratings_rederive", stdout=out, stderr=err)
    assert ratings_now() == step
    assert "[" + "#" * 30 + "] 100%  1 of 1 finished matches" in err.getvalue()
    assert "Ratings worked out again." in out.getvalue()
    assert Job.objects.get(kind=RATINGS_JOB).state == Job.State.DONE


def test_the_command_says_why_the_job_failed(director, held):
    with (
        mock.patch("tournaments.ratings_jobs.ratings_rederive", side_effect=RuntimeError),
        pytest.raises(Exception, match="stopped on an error of the site"),
    ):
        call_command("ratings_rederive", stdout=StringIO(), stderr=StringIO())


def test_an_import_asks_for_the_ratings_as_a_job_and_its_request_does_not_wait(
    document,  # noqa: F811  (the fixture)
    held,
):
    tournament_import(document=document, user=SYSTEM)
    assert not RatingChange.objects.exists() and ratings_pending()
    assert Job.objects.get(kind=RATINGS_JOB).params == {"order": 1}
    jobs_run_waiting()
    assert RatingChange.objects.exists() and ratings_now() == _whole()


# --- the notice's one query, by index ---------------------------------------------------------


def _pending_query(client) -> str:
    with CaptureQueriesContext(connection) as seen:
        assert client.get(reverse("ratings")).status_code == 200
    (found,) = [q["sql"] for q in seen.captured_queries if '"jobs_job"' in q["sql"]]
    return found


def _plan(sql: str) -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("EXPLAIN " + sql)
            return "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("EXPLAIN QUERY PLAN " + sql)
        return "\n".join(str(row[-1]) for row in cursor.fetchall())


@pytest.fixture
def many_jobs(db):
    """A season's finished work: thousands of jobs of every kind, none of the ratings' waiting."""
    Job.objects.bulk_create(
        Job(kind=kind, state=Job.State.DONE)
        for n in range(3000)
        for kind in (("ratings.rederive", "exports.matches", "mail.send")[n % 3],)
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE jobs_job")


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plan")
def test_sqlite_the_notice_asks_the_jobs_index(client, many_jobs):
    said = _plan(_pending_query(client))
    assert "jobs_kind_state" in said and "SCAN jobs_job\n" not in said + "\n", said


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plan")
@pytest.mark.django_db(transaction=True)
def test_postgresql_the_notice_asks_the_jobs_index(client, many_jobs):
    said = _plan(_pending_query(client))
    assert "jobs_kind_state" in said and "Seq Scan on jobs_job" not in said, said


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's locks (.ci/run's PostgreSQL pass); SQLite serialises every write",
)
@pytest.mark.django_db(transaction=True)
def test_a_result_recorded_while_the_job_runs_waits_for_it_and_counts(director, held):
    """The job holds the history's lock to its end: a new result's request waits for it,
    then appends to the history the job left, from the ratings it wrote."""
    import threading
    import time

    from django.db import connections

    import tournaments.ratings_jobs as ratings_jobs

    a, b, c, d, e, f = (player_create(name=n, user=SYSTEM) for n in "ABCDEF")
    for minute, (first, second) in enumerate(((a, b), (c, d), (a, c)), start=1):
        with clock_at(minute):
            match = match_create(player_a=first, player_b=second, length=5, user=SYSTEM)
            match_record_final_score(match=match, score_a=5, score_b=2, user=director)
    with clock_at(2):  # finished before the third: the job puts it third, the third fourth
        match = match_create(player_a=b, player_b=d, length=5, user=SYSTEM)
        match_record_final_score(match=match, score_a=5, score_b=2, user=director)
    assert Job.objects.get(kind=RATINGS_JOB).params == {"order": 3}
    working, go_on = threading.Event(), threading.Event()
    real = ratings_jobs.ratings_rederive_from

    def slow(*args, **kwargs):
        done = real(*args, **kwargs)
        working.set()  # the history written, the lock still held: the transaction is open
        go_on.wait(10)
        return done

    def run():
        try:
            jobs_run_waiting()
        finally:
            connections.close_all()

    with mock.patch.object(ratings_jobs, "ratings_rederive_from", slow):
        worker = threading.Thread(target=run)
        worker.start()
        assert working.wait(10)
        threading.Timer(1.0, go_on.set).start()
        began = time.monotonic()
        with clock_at(10):  # players the job does not touch: only the history's lock orders them
            match = match_create(player_a=e, player_b=f, length=3, user=SYSTEM)
            match_record_final_score(match=match, score_a=3, score_b=0, user=director)
        waited = time.monotonic() - began
        worker.join(10)
    assert waited >= 0.8  # it waited for the job's end
    assert not ratings_pending()
    assert Job.objects.get(kind=RATINGS_JOB).state == Job.State.DONE
    assert RatingChange.objects.filter(match=match, order=5).count() == 2  # after the job's
    assert ratings_now() == _whole()


def test_a_failed_ratings_job_is_said_until_later_work_does_it(client, director, held):
    """The ratings stay those from before a correction when its job fails: the rating list
    says so (not "up to date" by silence) until a later job has done the work."""
    anna, bruno = (player_create(name=n, user=SYSTEM) for n in ("Anna", "Bruno"))
    made = []
    for _ in range(3):
        match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
        made.append(match_record_final_score(match=match, score_a=3, score_b=1, user=director))
    first, second = made[1], made[2]
    match_record_final_score(match=first, score_a=1, score_b=3, user=director)  # a correction
    assert "being brought up to date" in page_words(client.get(reverse("ratings")))
    with mock.patch(
        "tournaments.ratings_jobs.ratings_rederive_from", side_effect=RuntimeError("down")
    ):
        jobs_run_waiting()
    said = page_words(client.get(reverse("ratings")))
    assert "could not be brought up to date" in said and ratings_pending()
    with translation.override("it"):
        said = page_words(client.get(reverse("ratings"), HTTP_ACCEPT_LANGUAGE="it"))
    assert "Non è stato possibile aggiornare i rating" in said
    match_record_final_score(match=second, score_a=1, score_b=3, user=director)
    jobs_run_waiting()
    assert not ratings_pending() and ratings_now() == _whole()
    assert "ratings-pending" not in client.get(reverse("ratings")).content.decode()


def test_the_command_says_when_no_worker_takes_the_job(director, held, monkeypatch):
    """With a job queue and no worker running, the job waits: the command says so once (and
    how to run it here instead) rather than drawing an empty bar for ever."""
    from tournaments.management.commands import ratings_rederive as command

    job = Job.objects.create(kind=RATINGS_JOB, params={"order": 1})
    monkeypatch.setattr(command, "WAITING_SAY_SECONDS", 0.0)
    naps = []

    def nap(seconds):  # the worker comes at last, after a few looks
        naps.append(seconds)
        if len(naps) == 3:
            Job.objects.filter(pk=job.pk).update(state=Job.State.DONE)

    monkeypatch.setattr(command.time, "sleep", nap)
    err = StringIO()
    follower = command.Command(stdout=StringIO(), stderr=err)
    assert follower.follow(job).state == Job.State.DONE
    said = err.getvalue()
    assert said.count("No worker has taken the job yet") == 1 and "--here" in said
