"""A money table's games on the site's board: checkers through the engine's Game, the cubes
through the chouette (Galore 3.1-3.5), each write checked against the table's version."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections
from django.urls import reverse

from club.services import player_create
from money.board.service import BoardChanged, money_board, money_board_act
from money.board.state import BOX, TEAM
from money.models import Table, TableEvent, TableMove
from money.queries import table_chouette, table_totals
from money.services import table_act, table_join, table_start
from rules.chouette import ChouetteSettings, Opening
from rules.game import Phase
from tests.money.test_permissions import walk_table

pytestmark = pytest.mark.django_db
__all__ = ["walk_table"]  # the walk's table (tests/money/test_permissions.py)

NAMES = ("Anna Rossi", "Bruno Bianchi", "Carla Verdi", "Dario Neri")


@pytest.fixture
def phones(django_user_model):
    """Four players, each with their own account (their own phone)."""
    from club.policy import SYSTEM

    found = {}
    for name in NAMES:
        user = django_user_model.objects.create_user(
            name.split()[0].lower(), password="pw-12345678"
        )
        player = player_create(name=name, club="Circolo", country="Italia", user=SYSTEM)
        player.user = user
        player.save(update_fields=["user"])
        found[str(player.pk)] = (player, user)
    return found


def ids(phones):
    return list(phones)


def make_table(phones, count, kind, settings=None):
    """A table of ``count`` players in NAMES' order: the first the box, the second captain."""
    chosen = ids(phones)[:count]
    first_player, first_user = phones[chosen[0]]
    players = [phones[key][0] for key in chosen]
    table = table_start(
        user=first_user,
        kind=kind,
        name="Chouette" if kind == "chouette" else "Money",
        settings=settings or ChouetteSettings(),
        players=players if kind == "money" else [first_player],
    )
    if kind == "chouette":
        for key in chosen[1:]:
            player, user = phones[key]
            table_join(user=user, table=table, player=player)
    rolls = tuple((key, 6 - index) for index, key in enumerate(chosen))  # 6, 5, 4...: NAMES' order
    table_act(user=first_user, table=table, event=Opening(rolls))
    return Table.objects.get(pk=table.pk)


def act(table, user, action, **details):
    """Act as a phone that has just drawn the board (it sends the table's current version)."""
    fresh = Table.objects.get(pk=table.pk)
    board, _ = money_board_act(
        user=user, table=fresh, version=fresh.version, action=action, **details
    )
    return board


def board_now(table):
    return money_board(table=Table.objects.get(pk=table.pk))


def user_of(phones, player_id):
    return phones[player_id][1]


def step(table, phones):
    """One action by whoever must act now: the box for itself, the acting captain for the team."""
    board = board_now(table)
    game = board.game
    if game.phase is Phase.OPENING:
        return act(table, user_of(phones, board.side_player(BOX)), "opening")
    user = user_of(phones, board.side_player(game.acting))
    if game.phase is Phase.ROLL:
        return act(table, user, "roll")
    return act(table, user, "play", play=game.legal_plays[0].notation)


def play_until(table, phones, done, limit=600):
    for _ in range(limit):
        board = board_now(table)
        if done(board) or not board.playing:
            return board
        step(table, phones)
    raise AssertionError("the game did not get there")


def box_on_roll(board):
    return board.game.phase is Phase.ROLL and board.game.turn == BOX and board.game.turns[BOX] > 0


def test_a_money_session_played_to_the_end_appends_the_end_and_scores_it(client, phones):
    """Galore 2.8, WBF 25: the board's last play ends the game; its End event (winner, level
    from the final position) goes into the table's log, and the totals sum to zero."""
    table = make_table(phones, 2, "money")
    box, captain = ids(phones)[:2]
    assert table_chouette(table).lineup.box == box
    act(table, user_of(phones, captain), "start")
    # the first play by clicks: checker by checker, kept until it is confirmed
    board = play_until(table, phones, lambda b: b.game.phase is Phase.MOVE)
    mover = user_of(phones, board.side_player(board.game.acting))
    fresh = Table.objects.get(pk=table.pk)
    pending = ()
    while True:
        turn = money_board(table=fresh, pending=pending).turn
        if turn.play is not None:
            break
        option = turn.options[0]
        board, pending = money_board_act(
            user=mover,
            table=fresh,
            version=fresh.version,
            action="move",
            pending=pending,
            source=option.source,
            destination=option.destination,
        )
        assert Table.objects.get(pk=table.pk).version == fresh.version  # a move writes nothing
    money_board_act(
        user=mover, table=fresh, version=fresh.version, action="confirm", pending=pending
    )
    assert TableMove.objects.filter(table=table, data__act="play").count() == 1
    board = play_until(table, phones, lambda b: False)
    assert board.game.over and board.live is None
    last = TableEvent.objects.filter(table=table).order_by("-seq").first().data
    assert last["kind"] == "end" and last["box_wins"] == (board.game.result.winner == BOX)
    assert (
        last["level"]
        == {1: "single", 2: "gammon", 3: "backgammon"}[board.game.result.outcome.multiplier]
    )
    totals = {
        str(row.player.pk): row.points for row in table_totals(Table.objects.get(pk=table.pk))
    }
    assert sum(totals.values()) == 0
    winner = box if board.game.result.winner == BOX else captain
    assert totals[winner] == board.game.result.outcome.multiplier
    client.force_login(user_of(phones, captain))  # the page says so, and offers the next game
    page = client.get(reverse("money:table_board", args=[table.pk])).content.decode()
    said = "The box, Anna Rossi, wins" if winner == box else "The team wins"
    assert 'id="game-result"' in page and said in page and 'id="start"' in page


def test_a_chouette_game_the_box_doubles_one_drops_one_takes_the_new_captain_moves(phones):
    """Galore 3.3: the box doubles, each member answers on their own; the captain drops and
    the member who takes captains for the rest of the game; the End scores only the taker."""
    table = make_table(phones, 3, "chouette")
    box, captain, member = ids(phones)[:3]
    act(table, user_of(phones, captain), "start")
    board = play_until(table, phones, box_on_roll)
    assert set(board.live.playing) == {captain, member}
    with pytest.raises(PermissionDenied):  # a member never doubles for the box
        act(table, user_of(phones, member), "box-double")
    act(table, user_of(phones, box), "box-double")
    board = board_now(table)
    assert set(board.awaiting) == {captain, member}
    with pytest.raises(PermissionDenied):  # each member answers on their own phone
        act(table, user_of(phones, member), "answer", member=captain, answer="drop")
    with pytest.raises(ValidationError):  # nobody rolls while the cube waits
        act(table, user_of(phones, box), "roll")
    act(table, user_of(phones, captain), "answer", member=captain, answer="drop")
    act(table, user_of(phones, member), "answer", member=member, answer="take")
    board = board_now(table)
    assert board.live.playing == (member,) and board.captain == member
    assert board.live.cubes[member].value == 2 and board.live.cubes[member].owner == "member"
    board = play_until(table, phones, lambda b: b.game.phase is Phase.MOVE and b.game.turn == TEAM)
    with pytest.raises(PermissionDenied):  # the captain who dropped moves no more
        act(table, user_of(phones, captain), "play", play=board.game.legal_plays[0].notation)
    act(table, user_of(phones, member), "play", play=board.game.legal_plays[0].notation)
    board = play_until(table, phones, lambda b: False)
    chouette = table_chouette(Table.objects.get(pk=table.pk))
    assert chouette.game is None and len(chouette.games) == 1
    totals = chouette.totals()
    assert sum(totals.values()) == 0
    assert totals[captain] == -1  # the drop paid the cube before the double
    level = board.game.result.outcome.multiplier
    member_won = board.game.result.winner == TEAM
    assert totals[member] == (2 * level if member_won else -2 * level)


@pytest.fixture
def doubled_table(phones):
    """A three-player chouette in its first game, the team on roll (the box has played)."""
    table = make_table(phones, 3, "chouette")
    act(table, user_of(phones, ids(phones)[1]), "start")
    play_until(
        table,
        phones,
        lambda b: b.game.phase is Phase.ROLL and b.game.turn == TEAM and b.game.turns[BOX] > 0,
    )
    return table


def test_refusals_a_member_moving_an_out_of_turn_double_a_stale_version(phones, doubled_table):
    """Galore 3.1: only the acting captain moves for the team; WBF 23: a double only on
    one's own turn, before rolling; a page drawn before the latest change acts on nothing."""
    table = doubled_table
    box, captain, member = ids(phones)[:3]
    with pytest.raises(PermissionDenied):
        act(table, user_of(phones, member), "roll")
    with pytest.raises(ValidationError) as refused:
        act(table, user_of(phones, box), "box-double")
    assert "WBF 23" in refused.value.messages[0]
    stale = Table.objects.get(pk=table.pk)
    act(table, user_of(phones, captain), "roll")
    with pytest.raises(BoardChanged):
        money_board_act(
            user=user_of(phones, captain), table=stale, version=stale.version, action="roll"
        )


def test_refusals_through_the_page_are_answers_never_a_500(client, phones, doubled_table):
    table = doubled_table
    box, captain, member = ids(phones)[:3]
    url = reverse("money:table_board_act", args=[table.pk])
    version = Table.objects.get(pk=table.pk).version
    client.force_login(user_of(phones, member))
    response = client.post(url, {"action": "roll", "version": version})
    assert response.status_code == 403 and b'id="board-error"' in response.content
    client.force_login(user_of(phones, box))
    response = client.post(url, {"action": "box-double", "version": version})
    assert response.status_code == 400 and "WBF 23" in response.content.decode()
    response = client.post(url, {"action": "roll", "version": version - 1})
    assert response.status_code == 409
    response = client.post(url, {"action": "nonsense", "version": version})
    assert response.status_code == 400
    client.force_login(user_of(phones, captain))
    response = client.post(url, {"action": "roll", "version": version})
    assert response.status_code == 302
    page = client.get(reverse("money:table_board", args=[table.pk])).content.decode()
    assert "<svg" in page and 'id="cubes"' in page


def test_a_poll_with_the_current_version_is_answered_204_else_the_board(
    client, phones, doubled_table
):
    table = Table.objects.get(pk=doubled_table.pk)
    url = reverse("money:table_board", args=[table.pk])
    client.force_login(user_of(phones, ids(phones)[2]))
    response = client.get(url + f"?since={table.version}", HTTP_X_BOARD="1")
    assert response.status_code == 204
    response = client.get(url + f"?since={table.version - 1}", HTTP_X_BOARD="1")
    assert response.status_code == 200 and b'id="board-area"' in response.content


def test_the_captain_doubles_the_box_takes_and_a_resignation_accepted_ends_the_game(
    phones, doubled_table
):
    """Galore 3.3: with one cube the acting captain doubles for the team and the box answers;
    a resignation (common practice, valued as WBF 25) offered by the team and accepted by
    the box is the game's End, resigned, at the level given up times each member's cube."""
    table = doubled_table
    box, captain, member = ids(phones)[:3]
    act(table, user_of(phones, captain), "double")
    with pytest.raises(PermissionDenied):  # the box answers for itself
        act(table, user_of(phones, member), "box-answer", member=captain, answer="take")
    board = board_now(table)
    assert board.awaiting == ("box",)
    with pytest.raises(ValidationError):  # nobody rolls while the cube waits
        act(table, user_of(phones, captain), "roll")
    act(table, user_of(phones, box), "box-answer", member=captain, answer="take")
    board = board_now(table)
    assert {cube.value for cube in board.live.cubes.values()} == {2}
    assert board.live.cubes[captain].owner == "box"
    act(table, user_of(phones, captain), "resign", level=2)
    with pytest.raises(PermissionDenied):  # the team's resignation is the box's to accept
        act(table, user_of(phones, member), "accept")
    act(table, user_of(phones, box), "accept")
    last = TableEvent.objects.filter(table=table).order_by("-seq").first().data
    assert last == {"kind": "end", "box_wins": True, "level": "gammon", "resigned": True}
    totals = table_chouette(Table.objects.get(pk=table.pk)).totals()
    assert totals == {box: 8, captain: -4, member: -4}


def test_equal_opening_dice_double_every_cube_when_the_table_allows_it(phones, monkeypatch):
    """Galore 2.8: equal opening dice raise every cube, owned by nobody, as many times as the
    table agreed (here once); then the opening is rolled again (WBF 12)."""
    from dataclasses import replace

    from money.board import service
    from rules.match import MoneyRules

    rolls = iter([(3, 3), (4, 4), (5, 2)])
    monkeypatch.setattr(service, "_server_dice", lambda *args: next(rolls))
    settings = replace(ChouetteSettings(), money=MoneyRules(automatic_doubles=1))
    table = make_table(phones, 3, "chouette", settings)
    box, captain = ids(phones)[:2]
    act(table, user_of(phones, captain), "start")
    act(table, user_of(phones, box), "opening")
    board = board_now(table)
    assert board.game.phase is Phase.OPENING
    assert {(c.value, c.owner) for c in board.live.cubes.values()} == {(2, None)}
    act(table, user_of(phones, captain), "opening")  # 4-4: no second automatic double
    assert {c.value for c in board_now(table).live.cubes.values()} == {2}
    board = act(table, user_of(phones, box), "opening")
    assert board.game.phase is Phase.MOVE and board.game.turn == BOX  # the box rolled the 5
    kinds = list(TableEvent.objects.filter(table=table).values_list("data__kind", flat=True))
    assert kinds.count("automatic-double") == 1


def test_a_game_undone_and_begun_again_starts_from_the_opening(phones, doubled_table):
    """An undo drops the game whole (the table's log keeps a line for it): the board's next
    attempt at the same game number starts from the opening roll, and the first attempt's
    moves stay on record."""
    from rules.chouette import UndoGame

    table = doubled_table
    box, captain = ids(phones)[:2]
    before = TableMove.objects.filter(table=table).count()
    table_act(user=user_of(phones, box), table=Table.objects.get(pk=table.pk), event=UndoGame())
    assert board_now(table).game is None
    act(table, user_of(phones, captain), "start")
    board = board_now(table)
    assert board.number == 1 and board.game.phase is Phase.OPENING and not board.game.log
    act(table, user_of(phones, box), "opening")
    assert TableMove.objects.filter(table=table).count() > before
    assert board_now(table).game.log[0].act.value == "opening roll"


def test_the_board_s_urls_as_every_role(client, walk_table):
    """The walk of tests/money/test_permissions.py for the board's two URLs: signed-in
    visitors read it; those who record at the table are refused in words (a stale version,
    a form no page sends), anyone else 403; a visitor signs in first."""
    from tests.money.test_permissions import JUNK, ROLES

    table = walk_table["table"]
    routes = [("board", "get", {200}), ("board", "post", {405}), ("act", "get", {405})]
    for role in ROLES:
        client.logout()
        if role != "anonymous":
            client.force_login(walk_table[role])
        records = role in ("seated", "creator", "director")
        for name, method, wanted in [*routes, ("act", "post", {400, 409} if records else {403})]:
            url = reverse(f"money:table_board{'_act' if name == 'act' else ''}", args=[table.pk])
            before = Table.objects.get(pk=table.pk).version
            response = getattr(client, method)(url, {**JUNK, "action": "roll"})
            assert response.status_code in ({302} if role == "anonymous" else wanted), (role, url)
            assert Table.objects.get(pk=table.pk).version == before


def test_multiple_cubes_the_box_doubles_one_member_and_the_page_offers_each(client, phones):
    """Galore 3.5: with a cube each, the box may double some members and not others; its
    page offers a box for each member it may double; a member doubles their own cube."""
    from dataclasses import replace

    from rules.chouette import CubeMode

    settings = replace(ChouetteSettings(), cubes=CubeMode.MULTIPLE)
    table = make_table(phones, 3, "chouette", settings)
    box, captain, member = ids(phones)[:3]
    act(table, user_of(phones, captain), "start")
    play_until(table, phones, box_on_roll)
    client.force_login(user_of(phones, box))
    page = client.get(reverse("money:table_board", args=[table.pk])).content.decode()
    assert page.count('type="checkbox" name="members"') == 2
    act(table, user_of(phones, box), "box-double", members=(member,))
    board = board_now(table)
    assert board.awaiting == (member,) and board.live.cubes[captain].offered_by is None
    act(table, user_of(phones, member), "answer", member=member, answer="take")
    board = play_until(table, phones, lambda b: b.game.phase is Phase.ROLL and b.game.turn == TEAM)
    with pytest.raises(PermissionDenied):  # a member doubles only their own cube
        act(table, user_of(phones, member), "double", member=captain)
    act(table, user_of(phones, captain), "double", member=captain)
    assert board_now(table).awaiting == ("box",)
    with pytest.raises(PermissionDenied):  # the box answers for itself
        act(table, user_of(phones, member), "box-answer", member=captain, answer="take")
    act(table, user_of(phones, box), "box-answer", member=captain, answer="take")
    cubes = board_now(table).live.cubes
    assert (cubes[captain].value, cubes[captain].owner) == (2, "box")
    assert (cubes[member].value, cubes[member].owner) == (2, "member")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL's row locks (run by .ci/run's PostgreSQL pass); "
    "SQLite serialises every write",
)
def test_ten_phones_roll_at_once_one_roll_is_kept(phones, doubled_table):
    """The table's row lock and its version: of ten taps sent from one page, one rolls and
    nine are told the table changed; the game has one roll more, not ten."""
    table = Table.objects.get(pk=doubled_table.pk)
    captain = user_of(phones, ids(phones)[1])
    rolls = TableMove.objects.filter(table=table, data__act="roll").count()
    barrier = threading.Barrier(10)
    told: list[str] = []

    def tap() -> None:
        try:
            barrier.wait()
            money_board_act(user=captain, table=table, version=table.version, action="roll")
            told.append("rolled")
        except BoardChanged:
            told.append("out of date")
        finally:
            connections.close_all()  # this thread's own connections

    threads = [threading.Thread(target=tap) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(told) == ["out of date"] * 9 + ["rolled"]
    assert TableMove.objects.filter(table=table, data__act="roll").count() == rolls + 1
