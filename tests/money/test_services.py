"""The tables' services: each write in one transaction, allowed by the policy, checked by the
chouette engine (its refusals in words, citing the rule), guarded by the table's version and
audited; the log never loses a line."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from club.models import AuditEntry
from money.models import CODE_ALPHABET, Seat, Table, TableEvent, TableKind
from money.queries import table_lineup_rows, table_log, table_totals
from money.services import (
    TableChanged,
    table_act,
    table_close,
    table_correct,
    table_join,
    table_set_stake,
    table_start,
)
from rules.chouette import (
    Answer,
    BoxDoubles,
    ChouetteSettings,
    CubeMode,
    Deal,
    End,
    Join,
    MemberDoubles,
    Opening,
    StartGame,
    UndoGame,
)
from rules.money import Level, MoneyRules
from tests.money.conftest import pid

pytestmark = pytest.mark.django_db


def codes(table):
    return list(
        AuditEntry.objects.filter(subject_id=table.pk, code__startswith="table.")
        .exclude(code="table.moved")
        .order_by("id")
        .values_list("code", flat=True)
    )


def points(table):
    return {row.player.name: row.points for row in table_totals(table)}


def refusal(error):
    return " ".join(error.value.messages)


# --- starting and sitting down ------------------------------------------------------------


def test_a_chouette_starts_with_a_code_people_can_read(director, five):
    table = table_start(
        user=director,
        kind=TableKind.CHOUETTE,
        name="  Venerdì sera ",
        settings=ChouetteSettings(cubes=CubeMode.MULTIPLE),
        players=five,
        stake_cents=150,
    )
    assert table.name == "Venerdì sera" and table.version == 0
    assert len(table.code) == 6 and set(table.code) <= set(CODE_ALPHABET)
    assert ChouetteSettings.from_dict(table.settings).cubes is CubeMode.MULTIPLE
    assert sorted(table.seats.values_list("stake_cents", flat=True)) == [150] * 5
    assert codes(table) == ["table.started"]
    assert [row.role for row in table_lineup_rows(table)] == ["waiting"] * 5


def test_a_player_starts_a_money_session_without_a_director(anna, bruno, account):
    """Issue 27: either player starts it, no director needed; one cube between two."""
    table = table_start(
        user=account(anna),
        kind=TableKind.MONEY,
        name="Anna – Bruno",
        settings=ChouetteSettings(cubes=CubeMode.MULTIPLE, money=MoneyRules(jacoby=True)),
        players=[anna, bruno],
        stake_cents=200,
    )
    settings = ChouetteSettings.from_dict(table.settings)
    assert settings.cubes is CubeMode.SINGLE and settings.partner_from is None
    assert settings.money.jacoby


def test_a_money_session_is_two_players_one_of_them_its_starter(
    anna, bruno, carla, account, member
):
    start = {"kind": TableKind.MONEY, "name": "Sfida", "settings": ChouetteSettings()}
    with pytest.raises(ValidationError) as refused:
        table_start(user=account(anna), players=[anna], **start)
    assert refusal(refused) == "A money session is played by two players."
    with pytest.raises(ValidationError) as refused:
        table_start(user=account(carla), players=[anna, bruno], **start)
    assert refusal(refused) == "A player starts a money session they play in."
    with pytest.raises(PermissionDenied):  # an account with no player, not a director
        table_start(user=member, players=[anna, bruno], **start)
    assert not Table.objects.exists()


def test_a_table_needs_a_name_and_a_sensible_stake(director, five):
    start = {"user": director, "kind": TableKind.CHOUETTE, "settings": ChouetteSettings()}
    with pytest.raises(ValidationError):
        table_start(name="  ", **start)
    with pytest.raises(ValidationError) as refused:
        table_start(name="Sera", players=five, stake_cents=-1, **start)
    assert "not -1" in refusal(refused)
    with pytest.raises(ValidationError):
        table_start(name="Sera", players=[five[0], five[0]], **start)
    assert not Table.objects.exists()


def test_a_newcomer_sits_down_with_the_code_and_joins_at_the_bottom(
    chouette, django_user_model, account
):
    """Galore 3.1: a newcomer joins at the bottom; seating them after the opening roll
    records the Join in the log, so the engine's order has them."""
    from club.policy import SYSTEM
    from club.services import player_create

    franco = player_create(name="Franco Blu", club="", country="", user=SYSTEM)
    user = account(franco)
    seat = table_join(user=user, table=chouette, player=franco, stake_cents=50)
    assert seat.stake_cents == 50
    rows = table_lineup_rows(chouette)
    assert (rows[-1].role, rows[-1].player) == ("team", franco)
    assert TableEvent.objects.filter(table=chouette).last().data == {
        "kind": "join",
        "player": pid(franco),
    }
    assert codes(chouette)[-1] == "table.joined"
    with pytest.raises(ValidationError) as refused:
        table_join(user=user, table=chouette, player=franco)
    assert refusal(refused) == "Franco Blu is already at “Venerdì sera”."


def test_a_stranger_cannot_seat_someone_else(chouette, account):
    from club.policy import SYSTEM
    from club.services import player_create

    franco = player_create(name="Franco Blu", club="", country="", user=SYSTEM)
    gino = player_create(name="Gino Rosa", club="", country="", user=SYSTEM)
    with pytest.raises(PermissionDenied):
        table_join(user=account(franco), table=chouette, player=gino)
    assert not Seat.objects.filter(player__in=[franco, gino]).exists()


def test_a_third_player_cannot_sit_at_a_money_session(anna, bruno, carla, account):
    anna_user = account(anna)
    table = table_start(
        user=anna_user,
        kind=TableKind.MONEY,
        name="Sfida",
        settings=ChouetteSettings(),
        players=[anna, bruno],
    )
    with pytest.raises(ValidationError) as refused:
        table_join(user=account(carla), table=table, player=carla)
    assert refusal(refused) == "A money session is played by two players."


def test_everyone_seated_rolls_for_the_order(director, five):
    """Galore 3.1: the order comes from everyone's die; a player left out is named."""
    table = table_start(
        user=director,
        kind=TableKind.CHOUETTE,
        name="Sera",
        settings=ChouetteSettings(),
        players=five,
    )
    rolls = tuple((pid(p), die) for p, die in zip(five[:4], (6, 5, 4, 3), strict=True))
    with pytest.raises(ValidationError) as refused:
        table_act(user=director, table=table, event=Opening(rolls=rolls))
    assert (
        refusal(refused)
        == "Everyone seated rolls for the order (Galore 3.1): Elena Gialli did not."
    )


# --- recording ----------------------------------------------------------------------------


def test_a_game_is_recorded_and_audited(chouette, act, five):
    anna, bruno, carla, dario, elena = five
    table = act(
        chouette,
        StartGame(),
        BoxDoubles(members=tuple(pid(p) for p in five[1:])),
        Answer(pid(bruno), "take"),
        Answer(pid(carla), "drop"),
        Answer(pid(dario), "take"),
        Answer(pid(elena), "take"),
        End(box_wins=True, level=Level.SINGLE),
    )
    assert points(table) == {
        "Anna Rossi": 7,
        "Bruno Bianchi": -2,
        "Carla Verdi": -1,
        "Dario Neri": -2,
        "Elena Gialli": -2,
    }
    assert table.version == 8  # the opening, then seven events
    assert codes(table)[-2:] == ["table.game_started", "table.game_ended"]
    ended = AuditEntry.objects.filter(code="table.game_ended").get()
    assert ended.params | {} == {
        "table": "Venerdì sera",
        "seq": 8,
        "number": 1,
        "box": "Anna Rossi",
        "box_wins": True,
        "result": "single",
        "resigned": None,
    }
    # Galore 3.1: the box won, so the captain goes to the bottom
    assert [row.player for row in table_lineup_rows(table)] == [anna, carla, dario, elena, bruno]


def test_an_out_of_date_page_changes_nothing(chouette, director, five):
    """Two phones tap at once: the second was drawn before the first's tap, and is told
    what changed."""
    drawn = chouette.version
    table_act(user=director, table=chouette, event=StartGame(), version=drawn)
    lines = TableEvent.objects.filter(table=chouette).count()
    with pytest.raises(TableChanged) as refused:
        table_act(
            user=director,
            table=Table.objects.get(pk=chouette.pk),
            event=MemberDoubles(pid(five[1])),
            version=drawn,
        )
    assert refusal(refused).startswith("The table changed after you opened it: ")
    assert "started game 1" in refusal(refused)
    assert TableEvent.objects.filter(table=chouette).count() == lines


def test_only_seated_players_are_named(chouette, director):
    from club.policy import SYSTEM
    from club.services import player_create

    franco = player_create(name="Franco Blu", club="", country="", user=SYSTEM)
    with pytest.raises(ValidationError) as refused:
        table_act(user=director, table=chouette, event=Join(pid(franco)))
    assert "Only the players seated at “Venerdì sera” play there" in refusal(refused)


def test_an_illegal_event_is_refused_citing_its_rule(chouette, act, director, five):
    """Galore 3.3: under a single cube the box doubles every member still in, not some."""
    table = act(chouette, StartGame())
    before = TableEvent.objects.filter(table=table).count()
    with pytest.raises(ValidationError) as refused:
        table_act(user=director, table=table, event=BoxDoubles(members=(pid(five[1]),)))
    assert refusal(refused).endswith("(Galore 3.3).")
    assert TableEvent.objects.filter(table=table).count() == before
    assert Table.objects.get(pk=table.pk).version == table.version


def test_a_refusal_names_players_by_name_in_the_visitors_language(chouette, act, director, five):
    table = act(chouette, StartGame())
    with pytest.raises(ValidationError) as refused:
        table_act(user=director, table=table, event=Answer(pid(five[2]), "take"))
    said = refusal(refused)
    assert said == "Carla Verdi has no double to answer (Galore 3.3)."
    with translation.override("it"), pytest.raises(ValidationError) as italian:
        table_act(user=director, table=table, event=Answer(pid(five[2]), "take"))
    assert "Carla Verdi" in refusal(italian) and refusal(italian) != said


def test_a_player_who_is_not_seated_cannot_record(chouette, account, django_user_model):
    from club.policy import SYSTEM
    from club.services import player_create

    franco = player_create(name="Franco Blu", club="", country="", user=SYSTEM)
    with pytest.raises(PermissionDenied):
        table_act(user=account(franco), table=chouette, event=StartGame())


def test_a_seated_player_records_from_their_phone(chouette, account, five):
    table_act(user=account(five[3]), table=chouette, event=StartGame())
    line = TableEvent.objects.filter(table=chouette).last()
    assert line.author.player == five[3]
    assert table_log(chouette)[-1].author_name == "Dario Neri"


def test_a_deal_with_some_members_and_the_game_goes_on(chouette, act, five):
    """Club practice: the box and a member settle at agreed points; the others play on."""
    carla, dario = five[2:4]
    table = act(
        chouette,
        StartGame(),
        Deal(members=(pid(carla), pid(dario)), points=1),
        End(box_wins=False, level=Level.SINGLE),
    )
    assert points(table) == {
        "Anna Rossi": 0,  # +1 +1 from the deals, -1 -1 to Bruno and Elena
        "Bruno Bianchi": 1,
        "Carla Verdi": -1,
        "Dario Neri": -1,
        "Elena Gialli": 1,
    }
    deal = AuditEntry.objects.get(code="table.deal")
    assert deal.params["members"] == ["Carla Verdi", "Dario Neri"] and deal.params["points"] == 1


def test_undo_takes_back_the_last_game_and_keeps_the_line(chouette, act, five):
    table = act(chouette, StartGame(), End(box_wins=False, level=Level.GAMMON))
    assert points(table)["Anna Rossi"] == -8
    table = act(table, UndoGame())
    assert set(points(table).values()) == {0}
    assert [row.message.key for row in table_log(table)][-3:] == [
        "chouette-log-start",
        "chouette-log-end-team-wins",
        "chouette-log-undo",
    ]
    assert table_log(table)[-1].game == 1
    assert codes(table)[-1] == "table.game_undone"
    # the order is as before the game: Anna the box, Bruno the captain
    assert [row.player for row in table_lineup_rows(table)][:2] == five[:2]


def test_undo_with_no_game_is_refused(chouette, director):
    with pytest.raises(ValidationError) as refused:
        table_act(user=director, table=chouette, event=UndoGame())
    assert refusal(refused) == "There is no game to undo (Galore 3.1)."


# --- corrections --------------------------------------------------------------------------


def test_a_director_corrects_a_result_and_everything_after_follows(chouette, act, director):
    table = act(
        chouette,
        StartGame(),
        End(box_wins=True, level=Level.SINGLE),
        StartGame(),
        End(box_wins=True, level=Level.SINGLE),
    )
    assert points(table)["Anna Rossi"] == 8
    table = table_correct(
        user=director, table=table, seq=3, event=End(box_wins=True, level=Level.GAMMON)
    )
    assert points(table)["Anna Rossi"] == 12
    entry = AuditEntry.objects.get(code="table.corrected")
    assert entry.before["data"] == {
        "kind": "end",
        "box_wins": True,
        "level": "single",
        "resigned": False,
    }
    assert entry.after["data"]["level"] == "gammon"
    from club.audit import audit_sentence

    assert audit_sentence(entry) == (
        "director corrected line 3 of “Venerdì sera”: the box wins a gammon (it was: "
        "the box wins a single game)."
    )


def test_a_correction_that_breaks_a_later_line_is_refused(chouette, act, director, five):
    """The box won game 1, so Bruno, the captain, went to the bottom and game 2's double
    names him as a member; had the team won, Bruno would be the box (Galore 3.1), and the
    double of game 2 could not name him: the correction is refused, naming that line."""
    _anna, bruno, carla, dario, elena = five
    table = act(
        chouette,
        StartGame(),
        End(box_wins=True, level=Level.SINGLE),
        StartGame(),
        BoxDoubles(members=(pid(carla), pid(dario), pid(elena), pid(bruno))),
    )
    before = list(TableEvent.objects.filter(table=table).values_list("data", flat=True))
    with pytest.raises(ValidationError) as refused:
        table_correct(
            user=director, table=table, seq=3, event=End(box_wins=False, level=Level.SINGLE)
        )
    assert refusal(refused).startswith("Line 5 of the log can no longer be played: ")
    assert "Bruno Bianchi" in refusal(refused) and refusal(refused).endswith("(Galore 3.3).")
    assert list(TableEvent.objects.filter(table=table).values_list("data", flat=True)) == before
    assert not AuditEntry.objects.filter(code="table.corrected").exists()


def test_players_do_not_correct(chouette, account, five):
    with pytest.raises(PermissionDenied):
        table_correct(user=account(five[0]), table=chouette, seq=1, event=StartGame())


def test_a_correction_names_a_line_that_exists(chouette, director):
    with pytest.raises(ValidationError) as refused:
        table_correct(user=director, table=chouette, seq=9, event=StartGame())
    assert refusal(refused) == "The table “Venerdì sera” has no line 9."


# --- stakes and closing -------------------------------------------------------------------


def test_a_player_sets_their_stake_before_the_first_game_only(chouette, account, director, five):
    anna = five[0]
    user = account(anna)
    table_set_stake(user=user, table=chouette, player=anna, stake_cents=250)
    entry = AuditEntry.objects.filter(code="table.stake").get()
    assert (entry.before, entry.after) == ({"stake": 100}, {"stake": 250})
    table_act(user=director, table=chouette, event=StartGame())
    with pytest.raises(PermissionDenied):
        table_set_stake(user=user, table=chouette, player=anna, stake_cents=50)
    table_set_stake(user=director, table=chouette, player=anna, stake_cents=50)
    assert Seat.objects.get(table=chouette, player=anna).stake_cents == 50


def test_a_table_closes_between_games_only(chouette, act, director):
    table = act(chouette, StartGame())
    with pytest.raises(ValidationError) as refused:
        table_close(user=director, table=table)
    assert refusal(refused) == (
        "Game 1 is still being played: record its end or take it back first."
    )
    table = act(table, End(box_wins=True, level=Level.SINGLE))
    table = table_close(user=director, table=table)
    assert table.closed is not None and codes(table)[-1] == "table.closed"
    with pytest.raises(ValidationError) as refused:
        table_act(user=director, table=table, event=StartGame())
    assert refusal(refused) == "The table “Venerdì sera” is closed: nothing more is recorded."


def test_a_correction_from_an_out_of_date_page_changes_nothing(chouette, act, director):
    drawn = chouette.version
    table = act(chouette, StartGame(), End(box_wins=True, level=Level.SINGLE))
    with pytest.raises(TableChanged):
        table_correct(
            user=director,
            table=table,
            seq=3,
            event=End(box_wins=False, level=Level.SINGLE),
            version=drawn,
        )
    assert TableEvent.objects.get(table=table, seq=3).data["box_wins"] is True


def test_a_stranger_is_refused_before_being_told_the_page_is_old(chouette, account):
    from club.policy import SYSTEM
    from club.services import player_create

    franco = player_create(name="Franco Blu", club="", country="", user=SYSTEM)
    with pytest.raises(PermissionDenied):
        table_act(user=account(franco), table=chouette, event=StartGame(), version=0)


def test_a_player_who_left_comes_back_at_the_bottom(chouette, account, five):
    """Galore 3.1: players leave and come back at any time, at the bottom; their seat, stake
    and results stay."""
    from rules.chouette import Leave

    carla = five[2]
    user = account(carla)
    table_act(user=user, table=chouette, event=Leave(pid(carla)))
    assert carla not in [row.player for row in table_lineup_rows(chouette)]
    seat = table_join(user=user, table=chouette, player=carla, stake_cents=999)
    assert seat.stake_cents == 100 and Seat.objects.filter(player=carla).count() == 1
    assert table_lineup_rows(chouette)[-1].player == carla
    assert codes(chouette)[-1] == "table.lineup"


def test_an_out_of_date_page_is_told_the_tap_it_missed(chouette, act, director, five):
    """A double is in the log alone (no audit entry): the refusal still says it."""
    table = act(chouette, StartGame())
    drawn = table.version
    table = act(table, BoxDoubles(members=tuple(pid(p) for p in five[1:])))
    with pytest.raises(TableChanged) as refused:
        table_act(user=director, table=table, event=Answer(pid(five[1]), "take"), version=drawn)
    assert refusal(refused).startswith(
        "The table changed after you opened it: director recorded “the box doubles Bruno Bianchi,"
    )
