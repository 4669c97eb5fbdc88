"""Playing a money table's game on the board: checkers by the engine, cubes by the chouette.

Each action is one request and one transaction. The table's row is locked and its version
compared with the one the sender's page was drawn at: of two phones acting at once, the first
wins and the other is shown the board as it now is (:class:`BoardChanged`). Checker play is
kept as TableMove rows, replayed through :class:`rules.game.Game` on every request; every cube
action is a chouette event appended through :func:`money.services.table_act` (checked by
:mod:`rules.chouette`, audited there), as is the End of a game borne off or resigned.

Who may do what (Galore 3.1, 3.3): the box plays and doubles for itself; the acting captain
rolls and moves for the team; each member answers the box's double, and doubles their own
cube (multiple cubes, Galore 3.5), on their own phone; with a single cube the acting captain
doubles for the team. A director may act for anyone, as at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from club.actors import Actor
from club.policy import can_correct_table, can_record_at, own_player
from club.words import sentence
from rules.chouette import (
    Answer,
    AutomaticDouble,
    BoxAnswers,
    BoxDoubles,
    Chouette,
    End,
    Event,
    MemberDoubles,
    Raccoon,
    StartGame,
)
from rules.dice import SecureDice, SeededDice
from rules.errors import RulesError
from rules.game import Game, Phase
from rules.match import Outcome
from rules.matchid import Resignation
from rules.notation import resolve_play
from rules.turn import Turn

from ..models import Table, TableEvent, TableMove
from ..queries import table_chouette
from ..services import table_act
from .state import BOX, BOX_ID, TEAM, MoneyBoard, Moves, action_data, board_game, ending_level

ACTIONS = (
    "start",  # a new game of the table, played on the board
    "opening",
    "roll",
    "move",
    "undo",
    "type",
    "confirm",
    "play",  # a play made at once (scripts, tests)
    "box-double",
    "answer",
    "raccoon",
    "double",
    "box-answer",
    "resign",
    "accept",
    "reject",
)
ANSWERS = ("take", "drop", "beaver")


class BoardChanged(ValidationError):
    """The table changed after the sender's page was drawn: nothing was applied."""


@dataclass(frozen=True)
class Seat:
    """Who the user is at the table: their player's id in the chouette, and whether they
    direct (a director acts for anyone, as at a table of the club)."""

    player: str | None
    director: bool

    def is_(self, player: str | None) -> bool:
        return self.director or (player is not None and player == self.player)


def user_seat(user: Actor, table: Table) -> Seat:
    """The user's place at ``table``; nobody's for a visitor who may not record there."""
    if not can_record_at(user, table):
        return Seat(None, False)
    player = own_player(user)
    return Seat(str(player.pk) if player is not None else None, can_correct_table(user, table))


# --- reading ---------------------------------------------------------------------------------


def board_number(chouette: Chouette) -> int | None:
    """The game on the board: the live one, else the last one played (None before any)."""
    if chouette.game is not None:
        return chouette.game.number
    if chouette.games:
        return chouette.games[-1].number
    return None


def money_board(*, table: Table, pending: Moves = ()) -> MoneyBoard:
    """The table's board as it is now, with the checker moves ``pending`` (the sender's own,
    not yet confirmed; dropped if they no longer fit the roll)."""
    chouette = table_chouette(table)
    number = board_number(chouette)
    moves = _moves(table, number) if number is not None else []
    if chouette.game is None and not moves:
        number = None  # the last game was recorded by taps, or undone: nothing to show
    try:
        return board_game(chouette, moves, number=number, pending=pending)
    except RulesError:  # pending moves from a roll since played: the board without them
        return board_game(chouette, moves, number=number)


def _moves(table: Table, number: int) -> list[dict[str, object]]:
    """The moves of the table's latest game start, if it is game ``number``.

    A game undone (UndoGame) and begun again has the same number; its first attempt's moves
    stay in the table's record, and only those made since the latest StartGame are this
    game's (the table's row lock orders every write, so their times do too).
    """
    started = (
        TableEvent.objects.filter(table=table, data__kind=StartGame.kind)
        .order_by("-seq")
        .values_list("created", flat=True)
        .first()
    )
    if started is None:
        return []
    return list(
        TableMove.objects.filter(table=table, game=number, created__gte=started)
        .order_by("seq")
        .values_list("data", flat=True)
    )


def board_waiting(board: MoneyBoard, names: dict[str, str]) -> str:
    """What the board waits for, with the players' names."""
    game, live = board.game, board.live
    if live is None or game is None:
        return _("no game is being played.")
    if board.awaiting:
        who = ", ".join(
            _("the box") if key == BOX_ID else names.get(key, key) for key in board.awaiting
        )
        return _("waiting for the answer to the cube: %(names)s.") % {"names": who}
    acting = board.side_player(game.acting) or ""
    name = names.get(acting, acting)
    if game.phase is Phase.OPENING:
        return _("the game waits for the opening roll.")
    if game.phase is Phase.ROLL:
        return _("%(name)s is to double or roll.") % {"name": name}
    if game.phase is Phase.MOVE and game.dice:
        return _("%(name)s is to play %(a)s-%(b)s.") % {
            "name": name,
            "a": game.dice[0],
            "b": game.dice[1],
        }
    if game.phase is Phase.RESIGNED:
        return _("%(name)s is to accept or refuse the resignation.") % {"name": name}
    return _("the game is over.")


# --- writing ---------------------------------------------------------------------------------


def money_board_act(
    *,
    user: Actor,
    table: Table,
    version: int,
    action: str,
    pending: Moves = (),
    source: int | None = None,
    destination: int | None = None,
    play: str = "",
    level: int = 1,
    members: Sequence[str] = (),
    member: str = "",
    answer: str = "",
) -> tuple[MoneyBoard, Moves]:
    """Apply one action, if the table is still as the sender saw it (``version``).

    Returns the board after it and the checker moves now pending (the mover's, kept by the
    caller until the play is confirmed). Refusals are ValidationErrors in the visitor's
    language, naming the rule; a user with no part in the action is refused PermissionDenied.
    """
    if action not in ACTIONS:
        raise ValidationError(_("Unknown action."))
    seat = user_seat(user, table)
    if seat.player is None and not seat.director:
        raise PermissionDenied
    try:
        with transaction.atomic():
            locked = Table.objects.select_for_update().get(pk=table.pk)
            if locked.closed is not None:
                raise ValidationError(_("This table is closed."))
            if locked.version != version:
                raise BoardChanged(
                    _(
                        "The table changed before your action arrived (someone acted on another "
                        "phone). Nothing you sent was applied: here is the board as it is now."
                    )
                )
            board = money_board(table=locked, pending=pending)
            pending = _apply(
                locked,
                board,
                seat,
                user,
                action,
                pending=pending,
                source=source,
                destination=destination,
                play=play,
                level=level,
                members=members,
                member=member,
                answer=answer,
            )
            return money_board(table=locked, pending=pending), pending
    except IntegrityError as error:  # a simultaneous action took the same line of the log
        raise BoardChanged(
            _("Someone else acted at this table at the same moment: here is the board now.")
        ) from error


def _apply(
    table: Table,
    board: MoneyBoard,
    seat: Seat,
    user: Actor,
    action: str,
    *,
    pending: Moves,
    source: int | None,
    destination: int | None,
    play: str,
    level: int,
    members: Sequence[str],
    member: str,
    answer: str,
) -> Moves:
    """Check the action against the board and the user's seat, and save it; the moves pending."""
    if action == "start":
        _event(table, user, StartGame())
        return ()
    game = board.game
    if not board.playing or game is None:
        raise ValidationError(_("No game is being played on the board: start one."))
    if action in ("box-double", "double"):
        _double(table, board, game, seat, user, action, members, member)
        return ()
    if action in ("answer", "raccoon", "box-answer"):
        _answer(table, board, seat, user, action, member, answer)
        return ()
    # the checkers and the resignations: the game's acting side, the box or the acting captain
    acting = game.acting
    if game.phase is Phase.OPENING:
        if not (seat.is_(board.side_player(BOX)) or seat.is_(board.side_player(TEAM))):
            raise PermissionDenied
    elif not seat.is_(board.side_player(acting)):
        raise PermissionDenied  # the acting captain moves for the team (Galore 3.1, 3.3)
    if board.awaiting and action in ("opening", "roll", "resign"):
        raise ValidationError(_("A double waits for its answer: nobody rolls meanwhile."))
    logged = len(game.log)
    turn = board.turn
    try:
        if action in ("opening", "roll"):
            dice = _server_dice(table, board.number or 0, logged)
            game.roll_opening(dice) if action == "opening" else game.roll(dice)
            pending = ()
        elif action in ("move", "undo", "type", "confirm"):
            if turn is None:
                raise ValidationError(_("There is no roll to play now."))
            if action == "move":
                if source is None or destination is None:
                    raise ValidationError(_("Choose a checker, then where it goes."))
                return turn.move(source, destination).moves
            if action == "undo":
                if not turn.moves:
                    raise ValidationError(_("No checker has been moved yet this turn."))
                return turn.undo().moves
            if action == "type":
                return _typed(turn, play)
            if turn.play is None:
                raise ValidationError(
                    _("The play is not complete: move the rest of the roll first.")
                )
            game.play(turn.play)
            pending = ()
        elif action == "play":
            game.play(play)
            pending = ()
        elif action == "resign":
            game.resign(Resignation(level), player=acting)
        elif action == "accept":
            game.accept_resignation()
        else:
            game.reject_resignation()
    except RulesError as error:
        raise ValidationError(sentence(error)) from error
    _save(table, board.number or 0, game, logged, user)
    if action == "opening" and game.phase is Phase.OPENING:
        _automatic_double(table, board.chouette, user)
    if game.over:
        _end(table, game, user)
    return pending


def _double(
    table: Table,
    board: MoneyBoard,
    game: Game,
    seat: Seat,
    user: Actor,
    action: str,
    members: Sequence[str],
    member: str,
) -> None:
    """The box doubles (these members, else all still in), or a member doubles the box:
    with one cube the acting captain for the team (Galore 3.3), with a cube each, their own
    (3.5). Only on the doubler's own turn, before rolling (WBF 23), and never while another
    double waits for its answer."""
    if action == "box-double":
        side, doubler = BOX, board.box
    else:
        side, doubler = TEAM, member or board.captain
    if not seat.is_(doubler):
        raise PermissionDenied
    refusal = game.double_refusal(side)
    if refusal is not None:
        raise ValidationError(sentence(refusal))
    if board.awaiting:
        raise ValidationError(_("A double waits for its answer: nobody doubles meanwhile."))
    playing = board.live.playing if board.live is not None else ()
    event: Event
    if side == BOX:
        event = BoxDoubles(tuple(members) or tuple(playing))
    else:
        event = MemberDoubles(doubler or "")
    _event(table, user, event)


def _answer(
    table: Table,
    board: MoneyBoard,
    seat: Seat,
    user: Actor,
    action: str,
    member: str,
    answer: str,
) -> None:
    """A member answers the box's double on their own phone (Galore 3.3); the box answers a
    member's double, or turns a beavered cube again (a raccoon, Galore 5.4)."""
    if member not in (board.live.playing if board.live is not None else ()):
        raise ValidationError(_("Choose a member still in the game."))
    if not seat.is_(member if action == "answer" else board.box):
        raise PermissionDenied
    if action == "raccoon":
        _event(table, user, Raccoon(member))
        return
    if answer not in ANSWERS:
        raise ValidationError(_("Answer take, drop or beaver."))
    _event(
        table, user, Answer(member, answer) if action == "answer" else BoxAnswers(member, answer)
    )


def _typed(turn: Turn, play: str) -> Moves:
    """A typed play's checker moves, made on the board as if clicked, to be confirmed."""
    try:
        chosen = resolve_play(turn.position, turn.dice, play or "", plays=turn.plays)
    except RulesError as error:
        raise ValidationError(sentence(error)) from error
    typed = Turn.begin(turn.position, turn.dice, turn.plays)
    for step in chosen.steps if chosen else ():
        typed = typed.move(step.source, step.destination)
    return typed.moves


def _event(table: Table, user: Actor, event: Event) -> None:
    """Append a chouette event through the table's service (checked, versioned, audited)."""
    table_act(user=user, table=table, event=event, version=None)
    table.refresh_from_db(fields=["version"])


def _save(table: Table, number: int, game: Game, logged: int, user: Actor) -> None:
    """The game's new log entries as TableMove rows, and the table's version bumped."""
    author = user if isinstance(user, User) else None
    # numbered after every move of this game number, an undone attempt's among them
    last = TableMove.objects.filter(table=table, game=number).aggregate(last=Max("seq"))["last"]
    TableMove.objects.bulk_create(
        TableMove(table=table, game=number, seq=seq, data=action_data(action), author=author)
        for seq, action in enumerate(game.log[logged:], start=(last or 0) + 1)
    )
    table.version += 1
    table.save(update_fields=["version"])


def _automatic_double(table: Table, chouette: Chouette, user: Actor) -> None:
    """Equal opening dice: every cube doubled, owned by nobody, if the table's options allow
    one more (Galore 2.8); the chouette refuses past the agreed number or the maximum cube."""
    try:
        chouette.apply(AutomaticDouble())
    except RulesError:
        return  # no automatic double (off, or the agreed number reached): roll again
    _event(table, user, AutomaticDouble())


def _end(table: Table, game: Game, user: Actor) -> None:
    """The board's game is over: its result for every member still in (Galore 3.1)."""
    level = ending_level(game)
    assert game.result is not None and level is not None
    resigned = game.result.outcome is Outcome.RESIGNATION
    _event(table, user, End(box_wins=game.result.winner == BOX, level=level, resigned=resigned))


def _server_dice(table: Table, number: int, logged: int) -> tuple[int, int]:
    """Secure dice; with a seed (tests, demos) the same roll for the same place in a game."""
    seed = settings.DICE_SEED
    if seed is None:
        return SecureDice().roll()
    return SeededDice(f"{seed}:table:{table.pk}:{number}:{logged}").roll()
