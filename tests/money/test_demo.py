"""The demo club's evening has its money tables: a chouette of five with a change of box,
and a money session, recorded through the services (make run shows them)."""

import pytest
from django.core.management import call_command

from money.models import Table, TableKind
from money.queries import table_chouette, table_lineup_rows, table_settlement, table_totals

pytestmark = pytest.mark.django_db


def test_the_demo_loads_a_chouette_and_a_money_session_once(settings, tmp_path, capsys):
    settings.DEBUG = True
    settings.BASE_DIR = tmp_path
    call_command("demo_club")
    assert "Demo tables: Venerdì sera (a chouette of 5) and a money session." in (
        capsys.readouterr().out
    )
    chouette = Table.objects.get(kind=TableKind.CHOUETTE)
    assert chouette.name == "Venerdì sera" and chouette.seats.count() == 5
    games = table_chouette(chouette).games
    assert len(games) == 3
    assert len({game.box for game in games}) == 2  # the team won game 2: a new box
    assert table_lineup_rows(chouette)[0].player.name == "Francesca Greco"
    totals = table_totals(chouette)
    assert sum(row.points for row in totals) == 0 and sum(row.cents for row in totals) == 0
    assert table_settlement(chouette)
    session = Table.objects.get(kind=TableKind.MONEY)
    assert session.seats.count() == 2 and len(table_chouette(session).games) == 2
    call_command("demo_club")
    assert Table.objects.count() == 2
