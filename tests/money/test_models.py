"""The database holds a table's rules on its own: a code of the agreed letters, a player
seated once, a log line once, whatever a service forgets."""

import pytest
from django.db import IntegrityError, transaction

from money.models import CODE_ALPHABET, Seat, Table, TableEvent, TableKind, TableMove

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(director):
    return Table.objects.create(
        kind=TableKind.CHOUETTE, name="Venerdì sera", code="ABCDEF", created_by=director
    )


def refused(**fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(**fields)


def test_a_join_code_is_never_misread(director):
    """No 0/O or 1/I in a code people read aloud and type on a phone."""
    assert not set("0O1I") & set(CODE_ALPHABET)
    base = {"kind": TableKind.CHOUETTE, "name": "Sera", "created_by": director}
    for code in ("ABCD0F", "ABCDOF", "ABC1EF", "ABCIEF", "abcdef", "ABC", ""):
        refused(code=code, **base)
    Table.objects.create(code="XY23Z9", **base)


def test_a_code_is_one_tables(table, director):
    refused(kind=TableKind.MONEY, name="Altro", code="ABCDEF", created_by=director)


def test_a_table_has_a_name_and_a_kind(director):
    refused(kind=TableKind.CHOUETTE, name="", code="ABCDEG", created_by=director)
    refused(kind="match", name="Sera", code="ABCDEH", created_by=director)


def test_a_player_sits_at_a_table_once(table, anna):
    Seat.objects.create(table=table, player=anna, stake_cents=100)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, player=anna)


def test_a_stake_is_never_negative(table, anna):
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, player=anna, stake_cents=-100)


def test_a_log_line_is_written_once_and_names_its_kind(table):
    TableEvent.objects.create(table=table, seq=1, data={"kind": "start-game"})
    with pytest.raises(IntegrityError), transaction.atomic():
        TableEvent.objects.create(table=table, seq=1, data={"kind": "start-game"})
    with pytest.raises(IntegrityError), transaction.atomic():
        TableEvent.objects.create(table=table, seq=0, data={"kind": "start-game"})
    with pytest.raises(IntegrityError), transaction.atomic():
        TableEvent.objects.create(table=table, seq=2, data={"player": "1"})


def test_a_board_move_is_numbered_once_a_game(table):
    TableMove.objects.create(table=table, game=1, seq=1, data={"act": "roll"})
    TableMove.objects.create(table=table, game=2, seq=1, data={"act": "roll"})
    with pytest.raises(IntegrityError), transaction.atomic():
        TableMove.objects.create(table=table, game=1, seq=1, data={"act": "roll"})
    with pytest.raises(IntegrityError), transaction.atomic():
        TableMove.objects.create(table=table, game=0, seq=1, data={"act": "roll"})


def test_a_player_at_a_table_is_kept(table, anna):
    """A player with a money history is never deleted from under it (PROTECT)."""
    from django.db.models import ProtectedError

    Seat.objects.create(table=table, player=anna)
    with pytest.raises(ProtectedError):
        anna.delete()
