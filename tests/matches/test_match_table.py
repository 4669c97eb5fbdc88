"""Issue 29: the matches' table reads a match's status from names worked out once per
language (matches.tables.status_name); what it shows is still the model's own
get_status_display(), on the page and in the download, and the column still sorts."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django_tables2.rows import BoundRow

from club.policy import SYSTEM
from club.services import player_create
from matches.models import Match
from matches.selectors import match_list
from matches.services import match_create
from matches.tables import MatchTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_of_each(director):
    """A match in each status, the statuses' order not the matches' order."""
    made = []
    for day, status in enumerate(reversed(Match.Status.values)):
        people = [player_create(name=f"{status} {side}", user=SYSTEM) for side in "AB"]
        match = match_create(
            player_a=people[0],
            player_b=people[1],
            length=5,
            date=datetime.date(2026, 1, 1) + datetime.timedelta(days=day),
            user=director,
        )
        walkover = 0 if status == Match.Status.WALKOVER else None
        finished = timezone.now() if status == Match.Status.FINISHED else None
        Match.objects.filter(pk=match.pk).update(
            status=status, walkover_winner=walkover, finished_at=finished
        )
        made.append(match.pk)
    return made


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_status_cell_is_the_model_s_own_name_on_the_page_and_in_the_file(one_of_each, language):
    with translation.override(language):
        table = MatchTable(match_list())
        for match in match_list():
            row = BoundRow(match, table=table)
            assert row.get_cell("status") == match.get_status_display()
            assert row.get_cell_value("status") == match.get_status_display()
        shown = {str(name) for name in Match.Status.labels}
    assert len(shown) == 4


def test_the_status_column_still_sorts_the_list(client, one_of_each):
    page = client.get(reverse("matches"), {"sort": "status"}, HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    where = [text.index(f">{name}</td>") for name in ("finished", "in play", "scheduled")]
    assert where == sorted(where)  # finished, in_play, scheduled, walkover: by the stored code
