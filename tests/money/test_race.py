"""Two phones tap at once at the same table: the table's row lock makes one wait for the
other, so the log never gets two lines with one number, nor an event the engine would have
refused after the other's."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections

from money.models import Table, TableEvent
from money.services import TableChanged, table_act
from rules.chouette import StartGame

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL's row locks (run by .ci/run's PostgreSQL pass); "
        "SQLite serialises every write",
    ),
]


def race(table, director, version):
    """Ten phones send the game's start at once; what each was told."""
    barrier = threading.Barrier(10)
    told: list[str] = []

    def tap() -> None:
        try:
            barrier.wait()
            table_act(
                user=director,
                table=Table.objects.get(pk=table.pk),
                event=StartGame(),
                version=version,
            )
            told.append("saved")
        except TableChanged:
            told.append("out of date")
        except ValidationError:
            told.append("refused")
        finally:
            connections.close_all()  # this thread's own connections

    threads = [threading.Thread(target=tap) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(told)


@pytest.mark.parametrize("versioned", [True, False])
def test_ten_phones_start_the_game_at_once_one_is_recorded(chouette, director, versioned):
    """With the page's version the nine others are told the table changed; without it,
    each waits for the lock, replays the log with the first's start in it, and the engine
    refuses a second start (game 1 is being played: Galore 3.1)."""
    told = race(chouette, director, chouette.version if versioned else None)
    assert told == sorted(["saved"] + (["out of date"] if versioned else ["refused"]) * 9)
    assert TableEvent.objects.filter(table=chouette, data__kind="start-game").count() == 1
    assert Table.objects.get(pk=chouette.pk).version == chouette.version + 1
