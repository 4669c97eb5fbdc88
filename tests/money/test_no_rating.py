"""Money sessions and chouettes count for nothing in tournament ratings (issue 27): a
player's rating and experience move only with matches, and a table writes no match."""

from __future__ import annotations

from decimal import Decimal

from matches.models import Match
from rules.chouette import Answer, BoxDoubles, End, StartGame
from rules.money import Level
from tournaments.models import RatingChange


def test_a_chouette_evening_moves_no_rating(chouette, act, five):
    members = tuple(str(p.pk) for p in five[1:])
    table = act(chouette, StartGame(), BoxDoubles(members=members))
    table = act(
        table,
        *[Answer(member=m, answer="take") for m in members],
        End(box_wins=False, level=Level.GAMMON),
    )
    table = act(table, StartGame(), End(box_wins=True, level=Level.BACKGAMMON))
    assert table.events.filter(data__kind="end").count() == 2
    for player in five:
        player.refresh_from_db()
        assert (player.rating, player.experience) == (Decimal("1500.00"), 0), player.name
    assert not Match.objects.exists() and not RatingChange.objects.exists()
