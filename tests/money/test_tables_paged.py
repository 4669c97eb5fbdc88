"""/tables/ pages its two lists, which grow with the club's evenings (issue 29): a
person's own tables and the open ones come 25 at a time, newest first, each with its own
page number, and the page costs the same queries for 3 tables as for 30."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from money.views import PER_PAGE

pytestmark = pytest.mark.django_db

URL = reverse("money:tables")


def section(page: str, name: str) -> str:
    found = re.search(rf'<section id="{name}">.*?</section>', page, re.S)
    assert found, f"no {name} on the page"
    return found.group(0)


def listed(page: str, name: str) -> list[int]:
    """The tables a section lists, in its order (each row links to its table)."""
    return [int(pk) for pk in re.findall(r'href="/tables/(\d+)/"', section(page, name))]


def get(client, **query) -> str:
    response = client.get(URL, query)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def evenings(people, director):
    """evenings(count, players, closed=False): ``count`` chouettes of ``players``, one after
    the other, started by the director; their ids, oldest first."""
    from money.models import TableKind
    from money.services import table_close, table_start
    from rules.chouette import ChouetteSettings

    def make(count, players, *, closed=False):
        made = []
        for n in range(count):
            table = table_start(
                user=director,
                kind=TableKind.CHOUETTE,
                name=f"Serata {n + 1:02}",
                settings=ChouetteSettings(),
                players=list(players),
            )
            if closed:
                table = table_close(user=director, table=table)
            made.append(table.pk)
        return made

    return make


def test_the_26th_of_my_tables_is_on_page_2(client, people, evenings):
    anna, bruno = people["Anna"], people["Bruno"]
    mine = evenings(PER_PAGE + 1, [anna, bruno], closed=True)
    newest = list(reversed(mine))
    client.force_login(anna.user)
    first = get(client)
    assert listed(first, "my-tables") == newest[:PER_PAGE]
    assert "page 1 of 2" in section(first, "my-tables")
    second = get(client, **{"mine-page": 2})
    assert listed(second, "my-tables") == [mine[0]]  # the oldest, the 26th newest
    assert "page 2 of 2" in section(second, "my-tables")


def test_the_open_tables_turn_on_their_own(client, people, evenings):
    """Each list has its own page number: the open tables' second page leaves my tables on
    their first, and each pager's link keeps the other's page."""
    anna, bruno, carla = people["Anna"], people["Bruno"], people["Carla"]
    mine = evenings(PER_PAGE + 3, [anna, bruno], closed=True)
    others = evenings(PER_PAGE + 5, [bruno, carla])
    client.force_login(anna.user)
    first = get(client)
    assert listed(first, "open-tables") == list(reversed(others))[:PER_PAGE]
    assert "open-page=2" in section(first, "open-tables")
    page = get(client, **{"open-page": 2, "mine-page": 2})
    assert listed(page, "open-tables") == list(reversed(others))[PER_PAGE:]
    assert listed(page, "my-tables") == list(reversed(mine))[PER_PAGE:]
    # the open tables' "Newer" goes back to their first page, my tables staying on their second
    newer = re.search(r'<a href="\?([^"]*)" rel="prev"', section(page, "open-tables")).group(1)
    assert "open-page=1" in newer and "mine-page=2" in newer


def test_no_address_breaks_the_page(client, people, evenings):
    anna, bruno = people["Anna"], people["Bruno"]
    mine = evenings(PER_PAGE + 2, [anna, bruno])
    newest = list(reversed(mine))
    client.force_login(anna.user)
    assert listed(get(client, **{"mine-page": "x"}), "my-tables") == newest[:PER_PAGE]
    assert listed(get(client, **{"mine-page": 99}), "my-tables") == newest[PER_PAGE:]  # the last
    assert listed(get(client, **{"open-page": -1}), "open-tables") == newest[PER_PAGE:]
    assert (
        listed(get(client, **{"open-page": 0, "per_page": 1000}), "open-tables")
        == newest[PER_PAGE:]
    )


def test_a_table_s_players_are_counted_for_each_row(client, people, evenings):
    players = list(people.values())
    evenings(1, players[:3])
    evenings(1, players)
    client.force_login(players[0].user)
    rows = section(get(client), "my-tables")
    assert [int(n) for n in re.findall(r"(\d+) players", rows)] == [5, 3]


def queries_for(client) -> int:
    with CaptureQueriesContext(connection) as seen:
        get(client)
    return len(seen.captured_queries)


def test_the_page_costs_the_same_queries_for_3_tables_or_30(client, people, evenings):
    anna, bruno, carla, dario = (people[n] for n in ("Anna", "Bruno", "Carla", "Dario"))
    evenings(3, [anna, bruno])
    client.force_login(anna.user)
    few = queries_for(client)
    evenings(30, [carla, dario, bruno])
    client.force_login(carla.user)
    many = queries_for(client)
    assert few == many


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ["page 1 of 2", "Older"]), ("it", ["pagina 1 di 2", "Meno recenti"])],
)
def test_the_pager_in_english_and_italian(client, people, evenings, language, words):
    evenings(PER_PAGE + 1, [people["Anna"], people["Bruno"]])
    client.force_login(people["Anna"].user)
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in section(page, "my-tables")
