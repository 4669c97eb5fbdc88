"""What the table's page reads: the order, each player's total (points and money, always
summing to zero), the settlement with the fewest transfers, the log, a player's tables."""

import random

import pytest
from django.utils import translation

from club.words import say
from money.models import Table, TableKind
from money.queries import (
    player_tables,
    table_chouette,
    table_lineup_rows,
    table_log,
    table_settlement,
    table_totals,
    tables_for,
    tables_open,
)
from money.services import table_close, table_set_stake, table_start
from rules.chouette import (
    Answer,
    BoxAnswers,
    ChouetteSettings,
    CubeMode,
    Deal,
    End,
    Leave,
    Opening,
    Partner,
    Rest,
    StartGame,
)
from rules.money import Level, MoneyRules
from tests.money.conftest import pid

pytestmark = pytest.mark.django_db


def test_the_order_box_partner_captain_team_then_resting(director, five, act):
    """Galore 3.6: with enough players the box has a partner, shown next to the box."""
    table = table_start(
        user=director,
        kind=TableKind.CHOUETTE,
        name="Sera",
        settings=ChouetteSettings(partner_from=4),
        players=five,
    )
    anna, bruno, carla, dario, elena = five
    rolls = tuple((pid(p), die) for p, die in zip(five, (6, 5, 4, 3, 2), strict=True))
    table = act(table, Opening(rolls=rolls), Rest(pid(elena)), Partner(pid(dario)))
    rows = [(row.role, row.player) for row in table_lineup_rows(table)]
    assert rows == [
        ("box", anna),
        ("partner", dario),
        ("captain", bruno),
        ("team", carla),
        ("resting", elena),
    ]


def test_a_settlement_takes_the_fewest_transfers(chouette, act, five):
    """Totals of -2, +4, +3, -3, -2 settle in 3 transfers (Dario pays Carla; Anna and Elena
    pay Bruno), where paying the largest creditor first would take 4 (club practice)."""
    _anna, bruno, carla, dario, elena = five
    table = act(
        chouette,
        StartGame(),
        Deal(members=(pid(carla),), points=-3),
        Deal(members=(pid(dario),), points=3),
        Deal(members=(pid(elena),), points=2),
        Deal(members=(pid(bruno),), points=-4, box_wins=False),
    )
    assert {row.player.name: row.points for row in table_totals(table)} == {
        "Anna Rossi": -2,
        "Bruno Bianchi": 4,
        "Carla Verdi": 3,
        "Dario Neri": -3,
        "Elena Gialli": -2,
    }
    settled = {(row.payer.name, row.payee.name, row.cents) for row in table_settlement(table)}
    assert settled == {
        ("Dario Neri", "Carla Verdi", 300),
        ("Anna Rossi", "Bruno Bianchi", 200),
        ("Elena Gialli", "Bruno Bianchi", 200),
    }


def test_each_game_counts_at_the_lower_stake(chouette, act, director, five):
    """Club practice: nobody plays for more than they agreed; Elena plays for 0.50."""
    table_set_stake(user=director, table=chouette, player=five[4], stake_cents=50)
    table = act(chouette, StartGame(), End(box_wins=True, level=Level.GAMMON))
    cents = {row.player.name: row.cents for row in table_totals(table)}
    assert cents == {
        "Anna Rossi": 700,
        "Bruno Bianchi": -200,
        "Carla Verdi": -200,
        "Dario Neri": -200,
        "Elena Gialli": -100,
    }


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("cubes", [CubeMode.SINGLE, CubeMode.MULTIPLE])
def test_totals_sum_to_zero_whatever_is_played(director, five, seed, cubes, act):
    """Any sequence the engine allows (doubles, beavers, drops, results, undo, breaks),
    recorded through the services with every player at their own stake: the points and the
    money each sum to 0, and the settlement pays every total exactly."""
    rng = random.Random(seed)
    table = table_start(
        user=director,
        kind=TableKind.CHOUETTE,
        name="Sera",
        settings=ChouetteSettings(
            cubes=cubes, money=MoneyRules(beavers=True, raccoons=True), partner_from=4
        ),
        players=five,
    )
    for player, stake in zip(five, (100, 50, 200, 100, 25), strict=True):
        table_set_stake(user=director, table=table, player=player, stake_cents=stake)
    rolls = tuple((pid(p), die) for p, die in zip(five, (6, 5, 4, 3, 2), strict=True))
    table = act(table, Opening(rolls=rolls))
    for _ in range(30):  # leaving is left out: the table would empty before the end
        allowed = [e for e in table_chouette(table).allowed() if not isinstance(e, Leave)]
        table = act(table, rng.choice(allowed))
    table = act(table, *_finished(table))
    assert table_chouette(table).games, "no game was finished: the walk proved nothing"
    totals = table_totals(table)
    assert sum(row.points for row in totals) == 0
    assert sum(row.cents for row in totals) == 0
    owed = {row.player.name: row.cents for row in totals}
    settlement = table_settlement(table)
    assert len(settlement) < max(2, sum(1 for cents in owed.values() if cents))
    for row in settlement:
        owed[row.payer.name] += row.cents
        owed[row.payee.name] -= row.cents
    assert set(owed.values()) == {0}


def _finished(table):
    """The events that end the game being played, if one is: the answers due, then a
    result (any the engine allows)."""
    chouette = table_chouette(table)
    events = []
    while chouette.game is not None:
        allowed = chouette.allowed()
        ends = [e for e in allowed if isinstance(e, End)]
        answers = [e for e in allowed if isinstance(e, Answer | BoxAnswers) and e.answer == "take"]
        event = (ends or answers)[0]
        events.append(event)
        chouette = chouette.apply(event)
    return events


def test_the_log_names_players_and_games(chouette, act, five, account):
    carla, dario = five[2:4]
    table = act(chouette, StartGame(), Deal(members=(pid(carla),), points=1))
    table = act(table, End(box_wins=True, level=Level.SINGLE), user=account(dario))
    log = table_log(table)
    assert [(row.seq, row.game) for row in log] == [(1, None), (2, 1), (3, 1), (4, 1)]
    assert [row.author_name for row in log] == ["director"] * 3 + ["Dario Neri"]
    assert say(log[0].message) == (
        "the opening roll: Anna Rossi rolled 6, Bruno Bianchi rolled 5, Carla Verdi rolled 4, "
        "Dario Neri rolled 3, Elena Gialli rolled 2"
    )
    assert "Carla Verdi" in say(log[2].message) and "1 point" in say(log[2].message)
    with translation.override("it"):
        assert say(log[3].message) == "il box vince un gioco semplice"


def test_a_players_page_lists_their_tables_with_their_totals(chouette, act, five, director):
    anna, bruno = five[:2]
    act(chouette, StartGame(), End(box_wins=True, level=Level.SINGLE))
    session = table_start(
        user=director,
        kind=TableKind.MONEY,
        name="Anna – Bruno",
        settings=ChouetteSettings(),
        players=[anna, bruno],
        stake_cents=200,
    )
    rolls = ((pid(bruno), 6), (pid(anna), 1))
    act(session, Opening(rolls=rolls), StartGame(), End(box_wins=True, level=Level.GAMMON))
    rows = [(row.table.name, row.points, row.cents) for row in player_tables(anna)]
    assert rows == [("Anna – Bruno", -2, -400), ("Venerdì sera", 4, 400)]
    assert [row.table.name for row in player_tables(five[4])] == ["Venerdì sera"]


def test_open_tables_and_a_players_own(chouette, director, five, account, act):
    user = account(five[2])
    assert list(tables_for(user)) == [chouette]
    assert list(tables_open()) == [chouette]
    table_close(user=director, table=chouette)
    assert list(tables_open()) == []
    assert list(tables_for(user)) == [chouette]  # closed, still theirs to look back on


def test_a_long_evening_asks_the_database_no_more_than_a_short_one(chouette, act):
    """The table's page reads the log once however many games it holds: the queries are
    the same after one game and after ten (the replay is the engine's, in memory)."""

    def read(table):
        table_chouette(table)
        table_lineup_rows(table)
        table_totals(table)
        table_settlement(table)
        table_log(table)

    def counted(table):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            read(Table.objects.get(pk=table.pk))
        return len(queries)

    short = act(chouette, StartGame(), End(box_wins=True, level=Level.SINGLE))
    first = counted(short)
    long = act(short, *[e for _ in range(9) for e in (StartGame(), End(True, Level.GAMMON))])
    assert counted(long) == first == 7  # the table, the log twice, the seats thrice, names


def test_the_log_marks_the_lines_of_a_game_taken_back(chouette, act, five):
    """The log never loses a line: game 2's lines stay, marked undone, and the undo is a
    line of its own; a player's break during the game is kept by the undo (the order's
    changes stand), so it is not marked."""
    from rules.chouette import UndoGame

    table = act(
        chouette,
        StartGame(),
        End(box_wins=True, level=Level.SINGLE),
        StartGame(),
        Deal(members=(pid(five[3]),), points=1),
        End(box_wins=False, level=Level.SINGLE),
        Rest(pid(five[3])),
        UndoGame(),
    )
    log = table_log(table)
    assert [(row.seq, row.game, row.undone) for row in log] == [
        (1, None, False),
        (2, 1, False),
        (3, 1, False),
        (4, 2, True),
        (5, 2, True),
        (6, 2, True),
        (7, None, False),  # the break, after game 2: kept
        (8, 2, False),  # the undo itself
    ]
