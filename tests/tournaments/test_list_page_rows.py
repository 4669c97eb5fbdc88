"""The lists of matches and players, a player's page and the home page have their rows written
in Python (templates/tables/rows.html): each page is the same, byte for byte, as when
django-tables2's template writes every cell (templates/tables/stacked.html), in English and
Italian, for a visitor and a member: dates, links, scores, ratings, countries, the event and
round of a player's match, a walkover."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from club.tables import PlayerTable
from matches.tables import MatchTable
from tournaments.models import Entry, Event
from tournaments.queries.events import event_matches
from tournaments.services import entry_withdraw, event_draw
from tournaments.tables import PlayerMatchTable, RatingHistoryTable

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


@pytest.fixture
def played(tournament, event_with, field, director, finish):
    """A double elimination part played (rated results, a walkover): its first player."""
    event = event_with(Event.Format.DOUBLE, field(6), lengths=(3, 5, 7))
    event_draw(event=event, seed=4, user=director)
    rng = random.Random(30)
    for match in [m for m in event_matches(event=event) if not m.decided][:3]:
        finish(match, rng.choice((match.player_a, match.player_b)), loser_points=1)
    waiting = [m for m in event_matches(event=event) if not m.decided]
    gone = Entry.objects.get(event=event, player=waiting[0].player_a)
    entry_withdraw(entry=gone, user=director)
    first = next(m for m in event_matches(event=event) if m.decided)
    first.player_a.country = "IT"
    first.player_a.save()
    return first.player_a


def pages(viewer, player):
    urls = ["/", reverse("matches"), reverse("players"), player.get_absolute_url()]
    found = []
    for language in ("en", "it"):
        for url in urls:
            answer = viewer.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert answer.status_code == 200, url
            found.append(TOKEN.sub("token", answer.content.decode()))
    return found


def test_the_lists_are_the_same_with_their_rows_written_in_python(
    played, client, member, monkeypatch
):
    signed_in = Client()
    signed_in.force_login(member)
    fast = [pages(viewer, played) for viewer in (client, signed_in)]
    for table in (MatchTable, PlayerMatchTable, PlayerTable, RatingHistoryTable):
        assert table._meta.template_name == "tables/rows.html"
        monkeypatch.setattr(table._meta, "template_name", "tables/stacked.html")
    slow = [pages(viewer, played) for viewer in (client, signed_in)]
    assert fast == slow
    player_page = fast[0][3]
    assert 'id="rating-history"' in player_page and 'id="player-matches"' in player_page
    assert "walkover" in fast[0][1] and "Italy" in fast[0][2]
