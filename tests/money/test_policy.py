"""Who may do what at a table: a friendly game needs no director; a correction does.

The policy's questions (club/policy.py), asked of each kind of account: a visitor, an
account with no player, a player seated at the table, one who is not, whoever started it,
a director of the club (the Directors group) and staff.
"""

import pytest
from django.contrib.auth.models import AnonymousUser

from club.policy import (
    GAME_START_KIND,
    SYSTEM,
    can_correct_table,
    can_join_table,
    can_record_at,
    can_set_stake,
    can_start_table,
)
from money.models import Seat, Table, TableEvent, TableKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(anna, bruno, carla, account, member, director, django_user_model):
    """Anna (who starts the table) and Bruno seated; Carla a player of the club not seated."""
    staff = django_user_model.objects.create_user("staff", password="pw-staff-1", is_staff=True)
    return {
        "anna": account(anna),
        "bruno": account(bruno),
        "carla": account(carla),
        "member": member,
        "director": director,
        "staff": staff,
        "visitor": AnonymousUser(),
    }


@pytest.fixture
def table(people, anna, bruno):
    table = Table.objects.create(
        kind=TableKind.CHOUETTE, name="Venerdì sera", code="ABCDEF", created_by=people["anna"]
    )
    Seat.objects.create(table=table, player=anna)
    Seat.objects.create(table=table, player=bruno)
    return table


def allowed(question, people):
    return {name for name, user in people.items() if question(user)}


def test_any_player_or_director_starts_a_table(people):
    """A money session between two players needs no director (issue 27); an account with no
    player (not a player of the club) and a visitor may not."""
    assert allowed(can_start_table, people) == {"anna", "bruno", "carla", "director", "staff"}
    assert can_start_table(SYSTEM)


def test_the_seated_the_starter_and_directors_record(people, table, bruno):
    assert allowed(lambda user: can_record_at(user, table), people) == {
        "anna",
        "bruno",
        "director",
        "staff",
    }
    # the one who started it records even when not seated (a director's chouette)
    Seat.objects.filter(table=table, player__name="Anna Rossi").delete()
    assert can_record_at(people["anna"], table)


def test_only_directors_correct_a_line(people, table):
    """Players record and undo their last game; replacing a line of the log is a director's
    (audited with before and after)."""
    assert allowed(lambda user: can_correct_table(user, table), people) == {"director", "staff"}


def test_a_player_sits_down_themself_or_is_brought_by_the_table(people, table, carla, dario):
    assert allowed(lambda user: can_join_table(user, table, carla), people) == {
        "anna",
        "bruno",
        "carla",
        "director",
        "staff",
    }
    # Carla, not seated, cannot bring Dario
    assert not can_join_table(people["carla"], table, dario)


def test_a_player_sets_their_own_stake_only_before_the_first_game(people, table, anna):
    """Club practice: a stake is agreed before play, never changed after a loss; a
    director may change it at any time."""
    assert allowed(lambda user: can_set_stake(user, table, anna), people) == {
        "anna",
        "director",
        "staff",
    }
    TableEvent.objects.create(table=table, seq=1, data={"kind": GAME_START_KIND})
    assert allowed(lambda user: can_set_stake(user, table, anna), people) == {"director", "staff"}
