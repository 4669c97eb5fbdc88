"""A club's database from before the apps were restructured keeps everything it held.

The database is taken back to the last migrations before the restructure, filled the old
way (players in the tournaments app, a match knowing its event, an English pairing reason,
the audit in the matches app, a final score put on top of a walkover), then migrated
forward: nothing is lost, and what contradicted itself is put right.
"""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

OLD = [
    ("tournaments", "0003_player_user"),
    ("matches", "0004_board_games_and_disputes"),
    ("club", None),
]


@pytest.mark.django_db(transaction=True)
def test_migrating_an_old_club_database_keeps_everything():
    executor = MigrationExecutor(connection)
    executor.migrate(OLD)
    old = executor.loader.project_state(OLD[:2]).apps
    Player = old.get_model("tournaments", "Player")
    Tournament = old.get_model("tournaments", "Tournament")
    Event = old.get_model("tournaments", "Event")
    Bye = old.get_model("tournaments", "Bye")
    Match = old.get_model("matches", "Match")
    Audit = old.get_model("matches", "AuditEntry")
    anna = Player.objects.create(name="Anna Rossi")
    bruno = Player.objects.create(name="Bruno Bianchi")
    tournament = Tournament.objects.create(name="Torneo", date=timezone.localdate())
    event = Event.objects.create(
        tournament=tournament, name="Swiss", format="swiss", swiss_rounds=3
    )
    paired = Match.objects.create(
        player_a=anna,
        player_b=bruno,
        length=5,
        event=event,
        round=2,
        bracket_key="S2-1",
        pairing_reason=f"{anna.pk} floats down from 1 win to meet {bruno.pk} on 0 wins",
    )
    both = Match.objects.create(  # the old defect: a final score on top of a walkover
        player_a=anna,
        player_b=bruno,
        length=5,
        status="walkover",
        walkover_winner=0,
        final_score_a=2,
        final_score_b=5,
    )
    Bye.objects.create(
        event=event,
        round=1,
        player=anna,
        reason="bye, the lowest-ranked player who has not had one",
    )
    Audit.objects.create(match=paired, action="match created", after={"status": "scheduled"})
    Audit.objects.create(
        match=both,
        action="final score recorded",
        before={"status": "scheduled", "final score": None, "walkover winner": None},
        after={"status": "finished", "final score": "2-5", "walkover winner": "Anna Rossi"},
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from club.audit import audit_sentence
    from club.models import AuditEntry
    from club.models import Player as NewPlayer
    from matches.models import Match as NewMatch
    from tournaments.models import Bye as NewBye
    from tournaments.models import Place
    from tournaments.reasons import reason_text

    assert set(NewPlayer.objects.values_list("name", flat=True)) == {"Anna Rossi", "Bruno Bianchi"}
    place = Place.objects.get(match_id=paired.pk)
    assert (place.event_id, place.round, place.bracket_key) == (event.pk, 2, "S2-1")
    assert reason_text(place.reason_code, place.reason_params, "Anna Rossi", "Bruno Bianchi") == (
        "Anna Rossi floats down from 1 win to meet Bruno Bianchi on 0 wins"
    )
    bye = NewBye.objects.get()
    assert bye.reason_code == "bye"
    fixed = NewMatch.objects.get(pk=both.pk)
    assert (fixed.status, fixed.walkover_winner, fixed.final_score_b) == ("finished", None, 5)
    assert fixed.finished_at is not None
    sentences = [audit_sentence(e) for e in AuditEntry.objects.order_by("id")]
    assert sentences == [
        "The site created the 5-point match Anna Rossi – Bruno Bianchi.",
        "The site recorded the final score 2–5.",
    ]
    assert AuditEntry.objects.get(match_id=paired.pk).tournament_id == tournament.pk


@pytest.mark.django_db(transaction=True)
def test_a_double_elimination_s_final_moves_after_the_losers_draw():
    """Issue 25.2: a database from before numbered the final round 1 and the final played
    again round 2; migrated, they come after the losers' draw's last round. Other events'
    places, and a single elimination's, keep their rounds."""
    before = [("tournaments", "0014_entries_sorted_as_read")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Player = old.get_model("club", "Player")
    Tournament = old.get_model("tournaments", "Tournament")
    Event = old.get_model("tournaments", "Event")
    Place = old.get_model("tournaments", "Place")
    Match = old.get_model("matches", "Match")
    anna = Player.objects.create(name="Anna Rossi")
    bruno = Player.objects.create(name="Bruno Bianchi")
    tournament = Tournament.objects.create(name="Torneo", date=timezone.localdate())
    double = Event.objects.create(tournament=tournament, name="Double", format="double")
    single = Event.objects.create(tournament=tournament, name="Single", format="single")

    def place(event, number, key):
        match = Match.objects.create(player_a=anna, player_b=bruno, length=5)
        return Place.objects.create(match=match, event=event, round=number, bracket_key=key)

    rounds = {"M1-2": 1, "M2-1": 2, "L1-1": 1, "L5-1": 5, "L6-1": 6, "F1-1": 1, "F2-1": 2}
    for key, number in rounds.items():
        place(double, number, key)
    other = place(single, 1, "F1-1")  # no such key in a single elimination: left alone

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from tournaments.models import Place as NewPlace

    now = {p.bracket_key: p.round for p in NewPlace.objects.filter(event_id=double.pk)}
    assert now == rounds | {"F1-1": 7, "F2-1": 8}
    assert NewPlace.objects.get(pk=other.pk).round == 1
