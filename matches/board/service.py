"""Playing a game on the site's board: each action checked by the engine and saved as it happens.

The engine's log is the record. A board game stores its actions and nothing
else; the board is rebuilt from them on every request (:func:`board_state`), so
closing the browser or picking up another device resumes the game exactly.
Every change bumps the board's version in one conditional UPDATE: an action
sent from a board drawn before the latest change is refused, so of two devices
acting at once one wins and the other is shown the board as it now is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias, cast

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from club.actors import Actor
from club.policy import board_sides, can_type_dice
from club.words import sentence
from rules.dice import SecureDice, SeededDice
from rules.errors import RulesError
from rules.game import Act, Action, Game, Phase
from rules.match import GameContext
from rules.matchid import Resignation
from rules.notation import resolve_play
from rules.position import Position
from rules.turn import Turn

from ..models import BoardAction, BoardGame, Match
from ..results import result_facts
from ..selectors import game_situation, match_score_sheet
from ..services import game_record, match_audit_record, match_begin
from .clock import clock_after_action, clock_for_action, now_ms

Moves: TypeAlias = tuple[tuple[int, int], ...]  # checker moves (from, to) not yet confirmed


class BoardChanged(ValidationError):
    """The board changed after the device that sent an action drew it: nothing was applied."""


@dataclass(frozen=True)
class BoardState:
    """A board game as the engine sees it now, with the checker moves not yet confirmed."""

    board_game: BoardGame
    game: Game
    turn: Turn | None  # while a roll is being played
    recorded: bool  # the game's result is on the score sheet: nothing more to do here

    @property
    def position(self) -> Position:
        """The board to draw: mid-turn, with the moves made so far."""
        return self.turn.board if self.turn is not None else self.game.position


# --- reading ---------------------------------------------------------------------------------


def board_context(*, match: Match, number: int) -> GameContext:
    """The engine's context of game ``number``: the score before it, whether it is the
    Crawford game (:func:`matches.selectors.game_situation`)."""
    situation = game_situation(match=match, number=number)
    if situation.problem == "unchecked":  # the rules' own words
        raise ValidationError(situation.refusal)
    if not situation.playable:
        raise ValidationError(_("The match is over: no game %(number)s.") % {"number": number})
    return situation.context


def board_state(*, board_game: BoardGame) -> BoardState:
    """The game rebuilt from its log; each action is checked again on the way."""
    context = board_context(match=board_game.match, number=board_game.number)
    actions = [row.as_action() for row in board_game.actions.all()]
    game = Game.replay(actions, context)
    recorded = game.over or board_game.match.games.filter(number=board_game.number).exists()
    return _state(board_game, game, _moves(board_game.pending), recorded)


def _state(board_game: BoardGame, game: Game, pending: Moves, recorded: bool) -> BoardState:
    turn = None
    if game.phase is Phase.MOVE and game.dice is not None and not recorded:
        turn = Turn(game.position, game.dice, tuple(pending), tuple(game.legal_plays))
    return BoardState(board_game=board_game, game=game, turn=turn, recorded=recorded)


def board_game_current(*, match: Match) -> BoardGame | None:
    """The board game of the match's next game, or its last one; None if none was played."""
    return (
        BoardGame.objects.filter(match=match)
        .select_related("match__player_a", "match__player_b")
        .prefetch_related("actions")
        .order_by("-number")
        .first()
    )


# --- writing ---------------------------------------------------------------------------------


def board_game_start(*, match: Match, user: Actor) -> BoardGame:
    """Start the match's next game on the board (a second press lands on the same game)."""
    if not board_sides(user, match):
        raise PermissionDenied
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == Match.Status.WALKOVER or locked.final_score_a is not None:
            raise ValidationError(_("This match's result is recorded: there is no game to play."))
        sheet = match_score_sheet(match=locked)
        if sheet.over:
            raise ValidationError(_("The match is over: no game to play."))
        number = len(sheet.rows) + 1
        board_game, created = BoardGame.objects.get_or_create(match=locked, number=number)
        if created:  # opening the board does not begin the match: its first roll does
            match_audit_record(
                locked, user, "board.started", params={"number": number}, subject=board_game
            )
    return board_game


def board_game_act(
    *,
    board_game: BoardGame,
    version: int,
    action: str,
    user: Actor,
    dice: tuple[int, int] | None = None,
    source: int | None = None,
    destination: int | None = None,
    play: str = "",
    level: int = 1,
    at: int | None = None,
) -> BoardState:
    """Apply one action to the board, if the board is still as the sender saw it.

    Refusals name the rule (the engine's own words); an action that ends the
    game records it into the match score in the same transaction. ``at``: the server's
    time of the request, in ms (:func:`.clock.now_ms` if not given), which presses the
    match's clock when the action hands the game to the other player; refused with
    :class:`.clock.ClockStopped` while the clocks are paused or once a flag has fallen.
    """
    if action not in ACTS:
        raise ValidationError(_("Unknown action."))
    at = now_ms() if at is None else at
    try:
        with transaction.atomic():
            clock = clock_for_action(match=board_game.match, at=at)  # locked before the board
            bumped = BoardGame.objects.filter(pk=board_game.pk, version=version).update(
                version=F("version") + 1
            )
            if not bumped:
                raise BoardChanged(
                    _(
                        "The board changed before your action arrived (someone acted on another "
                        "device). Nothing you sent was applied: here is the board as it is now."
                    )
                )
            fresh = BoardGame.objects.select_related("match__player_a", "match__player_b").get(
                pk=board_game.pk
            )
            state = board_state(board_game=fresh)
            pending = _apply(state, action, user, dice, source, destination, play, level)
            clock_after_action(
                row=clock, match=fresh.match, game=state.game, recorded=state.game.over, at=at
            )
            return _state(fresh, state.game, pending, state.game.over)  # the game, as changed
    except IntegrityError as error:  # a simultaneous action took the same log line
        raise BoardChanged(
            _("Someone else acted on this board at the same moment: here is the board now.")
        ) from error


def _apply(
    state: BoardState,
    action: str,
    user: Actor,
    dice: tuple[int, int] | None,
    source: int | None,
    destination: int | None,
    play: str,
    level: int,
) -> Moves:
    """Apply the action to ``state.game`` and save it; the checker moves now pending."""
    game, board_game = state.game, state.board_game
    match = board_game.match
    if state.recorded:
        raise ValidationError(_("This game is over: its result is on the score sheet."))
    sides = board_sides(user, match)
    acting = game.acting
    if not sides or (game.phase is not Phase.OPENING and acting not in sides):
        raise PermissionDenied
    if dice is not None and not can_type_dice(user, match):
        raise ValidationError(
            _(
                "Only a director enters dice rolled at the table, unless the director has "
                "allowed the players to for this match: roll with the site's dice."
            )
        )
    wanted = ACTS[action]
    if wanted not in game.available() and wanted is not Act.DOUBLE:  # the engine says why
        raise ValidationError(
            _("That is not possible now: %(waiting)s") % {"waiting": board_waiting(game, match)}
        )
    logged = len(game.log)
    pending = state.turn.moves if state.turn is not None else ()
    try:
        if action in ("opening", "roll"):
            rolled = dice or _server_dice(board_game, logged)
            game.roll_opening(rolled) if action == "opening" else game.roll(rolled)
            match_begin(match=match)  # the first roll begins the match (US rules 4.10)
        elif action in ("move", "undo", "confirm"):
            assert state.turn is not None  # the phase is MOVE: checked above
            turn = state.turn
            if action == "move":
                if source is None or destination is None:  # the form asks for both
                    raise ValidationError(_("Choose a checker, then where it goes."))
                pending = turn.move(source, destination).moves
            elif action == "undo":
                if not turn.moves:
                    raise ValidationError(_("No checker has been moved yet this turn."))
                pending = turn.undo().moves
            else:
                if turn.play is None:
                    raise ValidationError(
                        _("The play is not complete: move the rest of the roll first.")
                    )
                game.play(turn.play)
        elif action == "type":
            assert state.turn is not None  # the phase is MOVE: checked above
            pending = _typed(state.turn, play)
        elif action == "play":
            game.play(play)
        elif action == "resign":
            game.resign(Resignation(level))
        else:
            {
                "double": game.double,
                "take": game.take,
                "drop": game.drop,
                "accept": game.accept_resignation,
                "reject": game.reject_resignation,
            }[action]()
    except RulesError as error:
        raise ValidationError(sentence(error)) from error
    if action not in ("move", "undo", "type"):
        pending = ()
    _save(board_game, game.log[logged:], logged, user)
    board_game.pending = " ".join(f"{s}:{d}" for s, d in pending)
    board_game.save(update_fields=["pending"])
    if game.over and game.result is not None:
        game_record(
            match=match,
            number=board_game.number,
            user=user,
            board=True,
            **cast(dict[str, Any], result_facts(game.result)),  # game_record's arguments
        )
    return pending


def _typed(turn: Turn, play: str | None) -> tuple[tuple[int, int], ...]:
    """A typed play's checker moves, made on the board as if clicked: they wait for the
    player's confirmation like clicked ones, since a play is final only once confirmed.
    The play is made whole (Turn.playing): move by move, a first move that reaches another
    legal play's position would leave the rest of a complete play refused."""
    chosen = resolve_play(turn.position, turn.dice, play or "", plays=turn.plays)
    typed = Turn.begin(turn.position, turn.dice, turn.plays)  # the moves clicked so far go
    return typed.playing(chosen).moves if chosen else typed.moves


def board_waiting(game: Game, match: Match) -> str:
    """What the board waits for, with the players' names."""
    name = str(match.player(game.acting))
    if game.phase is Phase.OPENING:
        return _("the game waits for the opening roll.")
    if game.phase is Phase.ROLL:
        if game.double_refusal() is None:
            return _("%(name)s is to double or roll.") % {"name": name}
        return _("%(name)s is to roll.") % {"name": name}  # the Crawford game, the cube's owner
    if game.phase is Phase.MOVE and game.dice:
        return _("%(name)s is to play %(a)s-%(b)s.") % {
            "name": name,
            "a": game.dice[0],
            "b": game.dice[1],
        }
    if game.phase is Phase.DOUBLED:
        return _("%(name)s is to take or drop.") % {"name": name}
    if game.phase is Phase.RESIGNED:
        return _("%(name)s is to accept or refuse the resignation.") % {"name": name}
    return _("the game is over.")


ACTS = {  # the board's actions, and the engine act each one is
    "opening": Act.OPENING_ROLL,
    "roll": Act.ROLL,
    "move": Act.PLAY,
    "undo": Act.PLAY,
    "confirm": Act.PLAY,
    "type": Act.PLAY,  # a play typed in notation: its moves shown, to confirm
    "play": Act.PLAY,  # a play made at once (scripts, tests)
    "double": Act.DOUBLE,
    "take": Act.TAKE,
    "drop": Act.DROP,
    "resign": Act.RESIGN,
    "accept": Act.ACCEPT,
    "reject": Act.REJECT,
}


def _save(board_game: BoardGame, actions: list[Action], logged: int, user: Actor) -> None:
    BoardAction.objects.bulk_create(
        BoardAction.from_action(game=board_game, seq=logged + index, action=action, user=user)
        for index, action in enumerate(actions, start=1)
    )


def _server_dice(board_game: BoardGame, logged: int) -> tuple[int, int]:
    """Secure dice; with a seed (tests, demos) the same roll for the same place in a game."""
    seed = settings.DICE_SEED
    if seed is None:
        return SecureDice().roll()
    return SeededDice(f"{seed}:{board_game.match_id}:{board_game.number}:{logged}").roll()


def _moves(pending: str) -> tuple[tuple[int, int], ...]:
    return tuple(tuple(int(n) for n in pair.split(":")) for pair in pending.split())  # type: ignore[misc]
