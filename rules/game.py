"""One game as a state machine: every action checked against the rules and logged.

The log is the record a director settles disputes with, so each entry keeps
who acted, what they did, the dice, and the board after it. A game can be
rebuilt from its log alone (:meth:`Game.replay`), whatever dice source played it.

Players are 0 and 1 (gnubg's numbering); the position is always seen from the
side of the player on roll.

>>> from rules.dice import EnteredDice
>>> game = Game(dice=EnteredDice((3, 1)))
>>> game.roll_opening()          # player 0 rolls 3, player 1 rolls 1: player 0 plays 3-1
>>> game.turn, game.dice
(0, (3, 1))
>>> played = game.play("8/5 6/5")
>>> game.turn, game.phase.value
(1, 'roll')
>>> game.double()
>>> game.drop()
>>> game.result
GameResult(winner=1, points=1, outcome=<Outcome.DROP: 'drop'>, cube=1)
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import TYPE_CHECKING

from .dice import DiceSource, EnteredDice, SecureDice, SeededDice
from .errors import IllegalActionError, IllegalPlayError
from .match import GameContext, GameResult, MoneyRules, Outcome
from .matchid import GameState, MatchState, Resignation
from .messages import Message
from .money import Level, automatic_double, game_value, within_max_cube
from .movegen import LegalPlays, check_dice
from .notation import apply_written, resolve_play
from .play import Play, Step
from .position import BAR, CHECKERS, OFF, Position
from .xgid import format_xgid

# What each action answers when the game is not ready for it (messages are values)
_NOT_NOW_OPENING_ROLL = Message("not-now-opening-roll")
_NOT_NOW_ROLL = Message("not-now-roll")
_NOT_NOW_START = Message("not-now-start")
_NOT_NOW_PLAY = Message("not-now-play")
_NOT_NOW_TAKE = Message("not-now-take")
_NOT_NOW_DROP = Message("not-now-drop")
_NOT_NOW_BEAVER = Message("not-now-beaver")
_NOT_NOW_RACCOON = Message("not-now-raccoon")
_NOT_NOW_ANSWER = Message("not-now-answer")


def level_lost(loser: Sequence[int]) -> Level:
    """How much of the cube a game is lost by, from the loser's 26 counts (WBF 25).

    A single game once the loser has borne off a checker; else a backgammon with a
    checker on the bar or in the winner's home board (the loser's points 19-24), else a
    gammon. Shared by a game borne off and a game lost on time (:func:`rules.clock.flag_result`),
    so both score the same board the same way.
    """
    if loser[OFF]:
        return Level.SINGLE
    if any(loser[19 : BAR + 1]):
        return Level.BACKGAMMON
    return Level.GAMMON


class Phase(Enum):
    """What the game waits for."""

    OPENING = "opening"  # the opening roll, one die each (WBF 12)
    ROLL = "roll"  # the player on roll may double, or rolls
    MOVE = "move"  # the dice are rolled; the play is due
    DOUBLED = "doubled"  # a double waits for take or drop
    RESIGNED = "resigned"  # a resignation waits for an answer
    OVER = "over"


class Act(Enum):
    """The kinds of action a log records."""

    OPENING_ROLL = "opening roll"
    ROLL = "roll"
    PLAY = "play"
    NO_PLAY = "no play"  # the roll could not be played: the turn is lost
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"  # the original doubler turns the cube again after a beaver (Galore 5.4)
    RESIGN = "resign"
    ACCEPT = "accept"
    REJECT = "reject"


if TYPE_CHECKING:
    # (act, player, dice, play, steps, resignation, illegal, note, position, state, reason)
    _ActionLayout = tuple[
        Act,
        int,
        tuple[int, int] | None,
        Play | str | None,
        tuple[Step, ...] | None,
        Resignation | None,
        str | None,
        Message | None,
        Position | None,
        MatchState | None,
        Message | None,
    ]
else:
    _ActionLayout = tuple


_FIELDS = (
    "act",
    "player",
    "dice",
    "play",
    "steps",
    "resignation",
    "illegal",
    "note",
    "position",
    "state",
    "illegal_reason",
)


class Action(_ActionLayout):
    """One logged action and the game right after it.

    ``play`` is the play in gnubg notation, or as written when illegal; ``steps`` a
    legal play's checker moves, in the order played; ``illegal`` why a play accepted
    as played was illegal (WBF 14), and ``illegal_reason`` the same as a message with
    its rule, to render in any language (the engine's log only); ``note`` what the log
    says beside the action; ``position`` and ``state`` the game after the action, the
    position from the side of the player on roll.

    An immutable tuple, like :class:`Position` and :class:`Play`: a game logs two or
    more a turn, and a long match file's replay keeps hundreds of thousands. A legal
    play is kept as its :class:`Play`, so its notation and steps are worked out only
    when asked for.
    """

    __slots__ = ()

    def __new__(
        cls,
        act: Act,
        player: int,
        dice: tuple[int, int] | None = None,
        play: str | None = None,
        steps: tuple[Step, ...] | None = None,
        resignation: Resignation | None = None,
        illegal: str | None = None,
        note: Message | None = None,
        position: Position | None = None,
        state: MatchState | None = None,
        illegal_reason: Message | None = None,
    ) -> Action:
        fields = (act, player, dice, play, steps, resignation, illegal, note, position, state)
        return tuple.__new__(cls, (*fields, illegal_reason))

    @property
    def act(self) -> Act:
        return self[0]

    @property
    def player(self) -> int:
        return self[1]

    @property
    def dice(self) -> tuple[int, int] | None:
        return self[2]

    @property
    def play(self) -> str | None:
        """The play in gnubg notation, or as written when illegal."""
        play = self[3]
        return play.notation if isinstance(play, Play) else play

    @property
    def steps(self) -> tuple[Step, ...] | None:
        """A legal play's checker moves, in the order played."""
        play = self[3]
        return play.steps if isinstance(play, Play) else self[4]

    @property
    def resignation(self) -> Resignation | None:
        return self[5]

    @property
    def illegal(self) -> str | None:
        return self[6]

    @property
    def note(self) -> Message | None:
        return self[7]

    @property
    def position(self) -> Position | None:
        return self[8]

    @property
    def state(self) -> MatchState | None:
        return self[9]

    @property
    def illegal_reason(self) -> Message | None:
        return self[10]

    @property
    def position_id(self) -> str | None:
        return self.position.id if self.position is not None else None

    @property
    def match_id(self) -> str | None:
        return self.state.id if self.state is not None else None

    def _compared(self) -> tuple[object, ...]:
        """The fields equality looks at: all but ``illegal_reason`` (``illegal`` says it)."""
        return tuple(getattr(self, name) for name in _FIELDS[:-1])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self._compared() == other._compared()
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self._compared() != other._compared()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FIELDS)
        return f"Action({fields})"

    def __getnewargs__(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)


# The match states logged so far, by what they are made of (see Game._state): a value for
# each roll of each player at each score and cube, which every game of a session repeats.
_STATES: dict[tuple[object, ...], MatchState] = {}
# The contexts (length, score, Crawford) games have been played in. A context's states are
# shared from its second game on: a money session's score changes every game, and keeping
# the states of contexts that never come back made the collector walk them again and again
# (a sixth of a long log's replay), while matches' contexts (0-0 of a 7-point match) recur.
_CONTEXTS_SEEN: set[tuple[object, ...]] = set()
_CONTEXTS_KEPT = 8192

# The phases a turn passes through, read as plain globals: an Enum member is a class
# attribute lookup, and a random-play turn reads a phase half a dozen times
_ROLL, _MOVE, _OVER = Phase.ROLL, Phase.MOVE, Phase.OVER
_ROLLED, _PLAY = Act.ROLL, Act.PLAY  # the same for the two actions of every turn
_PLAYING, _NO_RESIGNATION = GameState.PLAYING, Resignation.NONE
_new_tuple = tuple.__new__

# Dice sources whose rolls are two dice 1-6 by construction, so a roll needs no check
_TRUSTED_DICE = (SecureDice, SeededDice)
_STATES_KEPT = 8192
# The states of a turn (see Game._turn_state): by context and cube, then player and dice;
# some 70 states a context and cube
_TURN_STATES_KEPT = 256
_TURN_STATES: dict[tuple[object, ...], tuple[dict[object, MatchState], ...]] = {}


class Game:
    """A backgammon game under match or money rules, with its action log."""

    def __init__(
        self,
        context: GameContext | None = None,
        *,
        dice: DiceSource | None = None,
    ) -> None:
        self.context = context or GameContext(rules=MoneyRules())
        self.dice_source: DiceSource = dice or SecureDice()
        self.position = self.context.rules.variation.start
        self.phase = Phase.OPENING
        self.turn = 0  # the player on roll (meaningless before the opening roll)
        self.dice: tuple[int, int] | None = None
        self.cube = 1
        self.cube_owner: int | None = None
        self.offer: Resignation | None = None
        self.offered_by: int | None = None
        # a beaver waits for the original doubler's take or drop (Galore 2.8)
        self.beavered = False
        # a raccoon waits for the beaverer's take or drop (Galore 5.4)
        self.raccooned = False
        self.automatic_doubles = 0  # equal opening rolls that raised the cube (Galore 2.8)
        self.result: GameResult | None = None
        self.turns = [0, 0]  # plays made by each player in this game
        self.log: list[Action] = []
        self._legal: LegalPlays | None = None  # listed when first asked for
        self._before_resign = Phase.ROLL
        self._keyed_context: GameContext | None = None  # the context _context_key was read from
        self._context_key: tuple[object, ...] = ()
        # where this game keeps its states: shared by all games once its context recurs
        self._states: dict[tuple[object, ...], MatchState] = {}
        self._all_turn_states: dict[tuple[object, ...], tuple[dict[object, MatchState], ...]] = {}
        self._played_dice: tuple[int, int] | None = None
        # each player's match states while a turn is rolled and played, by the dice (None
        # before the roll), for this context and cube (see _turn_state)
        self._turn_states: tuple[dict[object, MatchState], ...] = ({}, {})

    def trial(self) -> Game:
        """A copy to try a reading of a log on (see :mod:`rules.replay`): its own log and
        counts of turns; everything else is a value, or a cache both may share."""
        other = copy.copy(self)
        other.log = list(self.log)
        other.turns = list(self.turns)
        return other

    # --- reading the state ---------------------------------------------------

    @property
    def acting(self) -> int:
        """The player who must act now: the opponent while a double or resignation waits."""
        if self.phase in (Phase.DOUBLED, Phase.RESIGNED):
            return 1 - (self.offered_by if self.offered_by is not None else self.turn)
        return self.turn

    @property
    def legal_plays(self) -> Sequence[Play]:
        """The legal plays of the dice rolled (empty before the roll): those of
        :func:`rules.movegen.legal_plays`, not always in its order.

        Counted when the roll is checked for a play, or on first use: replaying a written
        play does not need them (see :func:`rules.notation.resolve_play`). A
        :class:`~rules.movegen.LegalPlays`: each play is made when first read, since a
        turn reads one, and the commonest rolls are not even searched until the whole
        list is wanted.
        """
        legal = self._legal
        if legal is None:
            if self.phase is not _MOVE:
                return ()
            assert self.dice is not None  # in the MOVE phase the dice are always rolled
            legal = self._legal = LegalPlays(self.position, self.dice)
        return legal

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    @property
    def cube_turned(self) -> bool:
        """Whether anyone has doubled in this game: the cube has an owner then. An automatic
        double raises the cube in the centre without turning it (Galore 2.8), so the Jacoby
        rule still counts a gammon single after one."""
        return self.cube_owner is not None

    @property
    def waiting(self) -> str:
        """What the game waits for, in English ("player 1 is to take or drop")."""
        return str(self.waiting_message)

    @property
    def waiting_message(self) -> Message:
        """What the game waits for, as a message."""
        phase = self.phase
        if phase is Phase.OPENING:
            return Message("waiting-opening")
        if phase is Phase.ROLL:
            return Message("waiting-roll", {"player": self.turn})
        if phase is Phase.MOVE:
            if self.dice is None:
                return Message("waiting-play-due")
            roll = f"{self.dice[0]}-{self.dice[1]}"
            return Message("waiting-play", {"player": self.turn, "roll": roll})
        if phase is Phase.DOUBLED:
            return Message("waiting-answer", {"player": self.acting})
        if phase is Phase.RESIGNED:
            return Message("waiting-resignation", {"player": self.acting})
        return Message("game-over")

    def why_not_double(self, player: int | None = None) -> str | None:
        """Why ``player`` (default: on roll) may not double now, with the rule; None if they may."""
        refusal = self.double_refusal(player)
        return str(refusal) if refusal else None

    def double_refusal(self, player: int | None = None) -> IllegalActionError | None:
        """The refusal ``player`` (default: on roll) would meet doubling now; None if they may."""
        player = self.turn if player is None else player
        if self.phase is Phase.OVER:
            return IllegalActionError(Message("game-over"))
        if not self.context.cube_available:
            crawford = Message("crawford-double", {"number": self.context.number})
            return IllegalActionError(crawford, rule="WBF 24")
        if self.phase is Phase.OPENING:
            return IllegalActionError(Message("double-after-opening"), rule="WBF 23")
        if self.phase is not Phase.ROLL or player != self.turn:
            return IllegalActionError(Message("double-own-turn"), rule="WBF 23")
        if self.cube_owner is not None and self.cube_owner != player:
            return IllegalActionError(Message("redouble-owner"), rule="WBF 23")
        refusal = self._past_max_cube(self.cube * 2)
        if refusal:
            return refusal
        if self._holland_forbids(player):
            return IllegalActionError(Message("holland"), rule="Galore 5.4")
        return None

    def _holland_forbids(self, player: int) -> bool:
        rules = self.context.rules
        return (
            not self.context.money
            and getattr(rules, "holland", False)
            and self.context.post_crawford
            and self.context.trailer == player
            and self.turns[player] < 2
        )

    def available(self) -> set[Act]:
        """The actions allowed at this moment (for a board's buttons)."""
        if self.phase is Phase.OPENING:
            return {Act.OPENING_ROLL}
        if self.phase is Phase.ROLL:
            acts = {Act.ROLL, Act.RESIGN}
            if self.why_not_double() is None:
                acts.add(Act.DOUBLE)
            return acts
        if self.phase is Phase.MOVE:
            return {Act.PLAY, Act.RESIGN}
        if self.phase is Phase.DOUBLED:
            acts = {Act.TAKE, Act.DROP}
            if self._beaver_refusal() is None:
                acts.add(Act.BEAVER)
            if self._raccoon_refusal() is None:
                acts.add(Act.RACCOON)
            return acts
        if self.phase is Phase.RESIGNED:
            return {Act.ACCEPT, Act.REJECT}
        return set()

    @property
    def match_state(self) -> MatchState:
        """The gnubg Match ID fields for this moment."""
        if self.phase is Phase.OVER:
            state = {
                Outcome.DROP: GameState.DROPPED,
                Outcome.RESIGNATION: GameState.RESIGNED,
            }.get(self.result.outcome if self.result else Outcome.SINGLE, GameState.OVER)
        elif self.phase is Phase.OPENING:
            state = GameState.NONE
        else:
            state = GameState.PLAYING
        return MatchState(
            match_length=self.context.length,
            score=self.context.score,
            cube=self.cube,
            cube_owner=self.cube_owner,
            player_on_roll=self.turn,
            turn=self.acting,
            crawford=self.context.crawford,
            game_state=state,
            double_offered=self.phase is Phase.DOUBLED,
            resignation=self.offer
            if self.phase is Phase.RESIGNED and self.offer
            else Resignation.NONE,
            dice=self.dice if self.phase is Phase.MOVE else None,
        )

    @property
    def position_id(self) -> str:
        return self.position.id

    @property
    def match_id(self) -> str:
        return self.match_state.id

    @property
    def xgid(self) -> str:
        return format_xgid(self.position, self.match_state)

    # --- actions -------------------------------------------------------------

    def roll_opening(self, dice: tuple[int, int] | None = None) -> None:
        """Each player rolls one die (player 0's first); the higher plays both (WBF 12).

        Equal dice are rolled again; in money play with automatic doubles agreed, they
        also double the cube in the centre, owned by nobody and not turned, as many times
        as agreed and never past the highest cube (Galore 2.8, :func:`rules.money.automatic_cube`).
        """
        self._require(Phase.OPENING, _NOT_NOW_OPENING_ROLL)
        first, second = check_dice(dice if dice is not None else self.dice_source.roll())
        if first == second:
            rules = self.context.rules
            note = Message("note-opening-again")
            if isinstance(rules, MoneyRules) and automatic_double(
                self.cube, self.automatic_doubles, rules
            ):
                self.cube *= 2
                self.automatic_doubles += 1
                self._turn_states = ({}, {})  # the states of another cube
                note = Message("note-automatic-double", {"cube": self.cube})
            self._log(Act.OPENING_ROLL, 0, dice=(first, second), note=note)
            return
        self.turn = 0 if first > second else 1
        self.dice = (first, second) if self.turn == 0 else (second, first)
        self._start_move()
        self._log(Act.OPENING_ROLL, self.turn, dice=(first, second))
        self._pass_if_no_play()

    def roll(self, dice: tuple[int, int] | None = None, *, pass_if_no_play: bool = True) -> None:
        """The player on roll rolls (dice given, or from the game's dice source).

        A roll with no legal play loses the turn at once (WBF 17), unless a
        replay asks to wait for the play a log wrote anyway (``pass_if_no_play``).
        """
        if self.phase is not _ROLL:
            self._require(Phase.ROLL, _NOT_NOW_ROLL)
        # Half of every turn: the steps of _start_move, _log and _pass_if_no_play written out
        source = self.dice_source
        if dice is None and type(source) in _TRUSTED_DICE:
            rolled = source.roll()  # two dice 1-6 by construction: nothing to check
        else:
            rolled = check_dice(dice if dice is not None else source.roll())
        self.dice = rolled
        self.phase = _MOVE
        turn, position = self.turn, self.position
        state = self._turn_states[turn].get(rolled)
        if state is None or self.context is not self._keyed_context:
            state = self._turn_state(rolled)
        entry = (_ROLLED, turn, rolled, None, None, None, None, None, position, state, None)
        self.log.append(_new_tuple(Action, entry))
        if pass_if_no_play:
            legal = self._legal = LegalPlays(position, rolled)
            if not len(legal):
                self._pass_turn(rolled)
        else:
            self._legal = None

    def start_without_opening(self, player: int) -> None:
        """Put ``player`` on roll without an opening roll, for logs that skipped or broke it."""
        self._require(Phase.OPENING, _NOT_NOW_START)
        self.turn = player
        self.phase = Phase.ROLL
        self._log(Act.OPENING_ROLL, player, note=Message("note-no-opening"))

    def play(self, play: Play | str, *, accept_illegal: bool = False) -> Play | None:
        """Make a play: a :class:`Play` from :attr:`legal_plays`, or notation.

        With ``accept_illegal`` (for replaying a log), a play that breaks the
        rules is applied as written and logged as illegal: it stood once the
        opponent rolled (WBF 14), the log saying why. Returns the legal play made, None
        for an illegal one, and None for no play ("dance", "-") written for a roll that has
        none, read as the roll itself would be: the turn is lost (WBF 17).
        """
        if self.phase is not _MOVE:
            self._require(Phase.MOVE, _NOT_NOW_PLAY)
        illegal: IllegalPlayError | None = None
        legal = self._legal
        if legal is not None and type(play) is Play and legal.made(play):
            chosen: Play | None = play  # read from this turn's list: legal
        elif isinstance(play, Play):
            if play not in self.legal_plays:  # one lookup (see LegalPlays)
                raise IllegalPlayError(Message("play-not-legal", {"play": play.notation}))
            chosen = play
        else:
            assert self.dice is not None  # in the MOVE phase the dice are always rolled
            try:
                chosen = resolve_play(self.position, self.dice, play, plays=self._legal)
            except IllegalPlayError as error:
                if not accept_illegal:
                    raise
                chosen, illegal = None, error
            if chosen is None and illegal is None:  # no play written, and none possible
                self._pass_turn(self.dice)
                return None
        # Here a play is chosen, or (replaying a log) written out as played, illegal; a roll
        # with no legal play reaches this point only for a log that wrote a play anyway.
        written: Play | str  # a legal play is logged as itself: its notation when asked for
        if chosen is not None:
            after, written = chosen.result, chosen
        else:
            after, written = apply_written(self.position, str(play)), str(play).strip()
        # Half of every turn: _finish_turn and _log written out, as in roll()
        mover, dice = self.turn, self.dice
        self._played_dice = dice
        self.turns[mover] += 1
        self.position = after
        self.turn = 1 - mover
        self.dice = None
        self._legal = None
        self.phase = _ROLL
        reason, why = (illegal.cited, str(illegal)) if illegal else (None, None)
        state = self._turn_states[1 - mover].get(None)
        if state is None or self.context is not self._keyed_context:
            state = self._turn_state(None)
        entry = (_PLAY, mover, dice, written, None, None, why, None, after, state, reason)
        self.log.append(_new_tuple(Action, entry))
        if after[1] & 15 == CHECKERS:
            self._end_by_bearing_off(mover, after)
        return chosen

    def double(self) -> None:
        """The player on roll offers the cube at twice its value (WBF 23)."""
        refusal = self.double_refusal()
        if refusal:
            raise refusal
        self.phase = Phase.DOUBLED
        self.offered_by = self.turn
        self._log(Act.DOUBLE, self.turn, note=Message("note-offers", {"cube": self.cube * 2}))

    def take(self) -> None:
        """Accept the double: the cube doubles and the taker owns it (WBF 23).

        After a beaver the original doubler takes the redouble, and the cube, now
        at 4 times its value before the double, stays with the beaverer: during the
        immediate redoubles the cube does not change hands (Galore 2.8, 5.4). After a
        raccoon the beaverer takes it at 8 times that value, and keeps the cube.
        """
        self._require(Phase.DOUBLED, _NOT_NOW_TAKE)
        taker = self.acting
        # the beaverer, who owns the cube since the beaver, keeps it
        owner = self.cube_owner if self.beavered else taker
        self.cube *= 2
        self.cube_owner = owner
        self._turn_states = ({}, {})  # the states of another cube: found at the next miss
        self.phase = Phase.ROLL
        self.offered_by = None
        self.beavered = self.raccooned = False
        self._log(Act.TAKE, taker, note=Message("note-cube", {"cube": self.cube}))

    def drop(self) -> None:
        """Refuse the double: the doubler wins the cube's value before the double (WBF 23).

        After a beaver the original doubler drops the redouble: the beaverer wins
        the cube's value before the beaver, the double they accepted (Galore 2.6, 2.8).
        After a raccoon the beaverer drops it, and the original doubler wins the cube's
        value before the raccoon, the beaver they accepted (Galore 5.4).
        """
        self._require(Phase.DOUBLED, _NOT_NOW_DROP)
        dropper = self.acting
        self.offered_by = None
        self.beavered = self.raccooned = False
        points = self._points(Level.SINGLE)  # the cube before the double, whatever the rule
        self._end(
            GameResult(winner=1 - dropper, points=points, outcome=Outcome.DROP, cube=self.cube)
        )
        self._log(Act.DROP, dropper, note=Message("note-to-doubler", {"count": points}))

    def beaver(self) -> None:
        """Money play with beavers (Galore 2.8): the player doubled takes and at once
        redoubles, keeping the cube; the original doubler then takes or drops by the
        usual rules (:meth:`take`, :meth:`drop`) before anyone rolls, or, with raccoons
        agreed, turns it again (:meth:`raccoon`). Refused past the highest cube agreed.
        """
        self._require(Phase.DOUBLED, _NOT_NOW_BEAVER)
        refusal = self._beaver_refusal()
        if refusal:
            raise refusal
        beaverer = self.acting
        self.cube *= 2  # the double, accepted
        self.cube_owner = beaverer  # and kept through the redouble (Galore 5.4)
        self._turn_states = ({}, {})
        self.offered_by = beaverer  # the redouble waits for the original doubler
        self.beavered = True
        self._log(Act.BEAVER, beaverer, note=Message("note-beaver", {"cube": self.cube * 2}))

    def raccoon(self) -> None:
        """Money play with raccoons (Galore 5.4): after a beaver, the original doubler takes
        the redouble and at once turns the cube again, to 8 times its value before the
        double; the cube stays with the beaverer, who takes (:meth:`take`) or drops
        (:meth:`drop`) before anyone rolls. Refused past the highest cube agreed.

        Otters (the beaverer answering a raccoon with yet another redouble, Galore 5.4)
        are not offered: after a raccoon the beaverer takes or drops.
        """
        self._require(Phase.DOUBLED, _NOT_NOW_RACCOON)
        refusal = self._raccoon_refusal()
        if refusal:
            raise refusal
        raccooner = self.acting  # the original doubler
        self.cube *= 2  # the beaver, accepted; the cube stays with the beaverer
        self._turn_states = ({}, {})
        self.offered_by = raccooner  # the redouble waits for the beaverer
        self.raccooned = True
        self._log(Act.RACCOON, raccooner, note=Message("note-raccoon", {"cube": self.cube * 2}))

    def _beaver_refusal(self) -> IllegalActionError | None:
        """Why the player doubled may not beaver now, with the rule; None if they may."""
        rules = self.context.rules
        if not isinstance(rules, MoneyRules):
            return IllegalActionError(Message("beaver-match"), rule="Galore 4")
        if self.raccooned:
            return IllegalActionError(Message("raccoon-no-otter"), rule="Galore 5.4")
        if self.beavered:
            return IllegalActionError(Message("beaver-twice"), rule="Galore 2.8")
        if not rules.beavers:
            return IllegalActionError(Message("beaver-off"), rule="Galore 2.8")
        return self._past_max_cube(self.cube * 4)  # the double taken, and redoubled

    def _raccoon_refusal(self) -> IllegalActionError | None:
        """Why the original doubler may not raccoon now, with the rule; None if they may."""
        rules = self.context.rules
        if not isinstance(rules, MoneyRules):
            return IllegalActionError(Message("raccoon-match"), rule="Galore 4")
        if not rules.raccoons:
            return IllegalActionError(Message("raccoon-off"), rule="Galore 5.4")
        if self.raccooned:
            return IllegalActionError(Message("raccoon-no-otter"), rule="Galore 5.4")
        if not self.beavered:
            return IllegalActionError(Message("raccoon-after-beaver"), rule="Galore 5.4")
        return self._past_max_cube(self.cube * 4)  # the beaver taken, and redoubled

    def _past_max_cube(self, cube: int) -> IllegalActionError | None:
        """The refusal of a cube raised to ``cube`` past the highest agreed (Galore 2.8)."""
        rules = self.context.rules
        if isinstance(rules, MoneyRules) and not within_max_cube(cube, rules):
            limit = Message("max-cube", {"cube": cube, "max": rules.max_cube or 0})
            return IllegalActionError(limit, rule="Galore 2.8")
        return None

    def resign(
        self, level: Resignation | int = Resignation.SINGLE, *, player: int | None = None
    ) -> None:
        """Offer to resign a single game, a gammon or a backgammon.

        No seed has a rule on resigning: this is the common practice of servers and of
        gnubg (the opponent accepts or plays on). What a resigned game is worth uses the
        values of WBF 25 and Galore 2.7, times the cube.
        """
        level = Resignation(level)
        if level is Resignation.NONE:
            raise IllegalActionError(Message("resignation-levels"))
        if self.phase not in (Phase.ROLL, Phase.MOVE):
            refusal = Message("no-resignation-now")
            raise IllegalActionError(
                Message("not-now", {"refusal": refusal, "waiting": self.waiting_message})
            )
        player = self.turn if player is None else player
        self._before_resign = self.phase
        self.phase = Phase.RESIGNED
        self.offer = level
        self.offered_by = player
        self._log(Act.RESIGN, player, resignation=level)

    def accept_resignation(self) -> None:
        """The opponent accepts: the game ends for the value offered times the cube."""
        self._require(Phase.RESIGNED, _NOT_NOW_ANSWER)
        assert self.offer is not None and self.offered_by is not None
        winner = 1 - self.offered_by
        points = self._points(int(self.offer))
        acceptor, level = winner, self.offer
        self._end(
            GameResult(winner=winner, points=points, outcome=Outcome.RESIGNATION, cube=self.cube)
        )
        self._log(Act.ACCEPT, acceptor, resignation=level)

    def reject_resignation(self) -> None:
        """The opponent plays on instead."""
        self._require(Phase.RESIGNED, _NOT_NOW_ANSWER)
        rejector = 1 - (self.offered_by or 0)
        self.phase = self._before_resign
        self.offer = None
        self.offered_by = None
        self._log(Act.REJECT, rejector)

    # --- replay ----------------------------------------------------------------

    @classmethod
    def replay(cls, actions: Iterable[Action], context: GameContext | None = None) -> Game:
        """Rebuild a game from its log; each action is checked again as it is applied."""
        entered = EnteredDice()
        game = cls(context, dice=entered)
        actions = list(actions)
        for index, action in enumerate(actions):
            act = action.act
            if act is Act.OPENING_ROLL and action.dice is None:
                game.start_without_opening(action.player)
            elif act is Act.OPENING_ROLL:
                game.roll_opening(action.dice)
            elif act is Act.ROLL:
                assert action.dice is not None
                written_anyway = index + 1 < len(actions) and actions[index + 1].act is Act.PLAY
                game.roll(action.dice, pass_if_no_play=not written_anyway)
            elif act is Act.PLAY:
                game.play(action.play or "", accept_illegal=action.illegal is not None)
            elif act is Act.DOUBLE:
                game.double()
            elif act is Act.TAKE:
                game.take()
            elif act is Act.DROP:
                game.drop()
            elif act is Act.BEAVER:
                game.beaver()
            elif act is Act.RACCOON:
                game.raccoon()
            elif act is Act.RESIGN:
                game.resign(action.resignation or Resignation.SINGLE, player=action.player)
            elif act is Act.ACCEPT:
                game.accept_resignation()
            elif act is Act.REJECT:
                game.reject_resignation()
            # NO_PLAY entries follow from the roll and are made again by it
        return game

    # --- internals ---------------------------------------------------------------

    def _require(self, phase: Phase, refusal: Message) -> None:
        """Refuse an action (``refusal`` says which) unless the game is in ``phase``."""
        if self.phase is not phase:
            raise IllegalActionError(
                Message("not-now", {"refusal": refusal, "waiting": self.waiting_message})
            )

    def _start_move(self) -> None:
        assert self.dice is not None  # called once the dice are rolled
        self.phase = Phase.MOVE
        self._legal = None

    def _pass_if_no_play(self) -> None:
        """Lose the turn when the roll has no legal play (WBF 17).

        The plays are listed here rather than only tested for (``can_play``): whoever
        rolled reads them next (a board, a bot), so the test would be work done twice.
        A replay of a written play does not come here, and needs no list.
        """
        assert self.dice is not None  # called once the dice are rolled
        if self._legal is None:
            self._legal = LegalPlays(self.position, self.dice)
        if not self._legal:
            self._pass_turn(self.dice)

    def _pass_turn(self, dice: tuple[int, int]) -> None:
        mover = self.turn
        self._finish_turn(self.position.swap())
        self._log(Act.NO_PLAY, mover, dice=dice, note=Message("note-no-play"))

    def _finish_turn(self, after: Position) -> None:
        self._played_dice = self.dice
        self.turns[self.turn] += 1
        self.position = after
        self.turn = 1 - self.turn
        self.dice = None
        self._legal = None
        self.phase = _ROLL

    def _end_by_bearing_off(self, winner: int, after: Position) -> None:
        loser = after.on_roll  # the loser is on roll in the position after the play
        points = self._points(level_lost(loser))
        # the outcome scored: a gammon counted single under the Jacoby rule is a single game
        outcome = {1: Outcome.SINGLE, 2: Outcome.GAMMON, 3: Outcome.BACKGAMMON}[points // self.cube]
        self.turn = winner
        self.position = after.swap()
        self._end(GameResult(winner=winner, points=points, outcome=outcome, cube=self.cube))

    def _points(self, level: int) -> int:
        """What the game is worth ended at ``level`` (1 single, 2 gammon, 3 backgammon, WBF 25):
        in money play :func:`rules.money.game_value`, where gammons count single under the
        Jacoby rule while the cube is unturned (Galore 2.8); in a match the cube times it."""
        rules = self.context.rules
        if isinstance(rules, MoneyRules):
            return game_value(
                Level(level), cube=self.cube, cube_turned=self.cube_turned, rules=rules
            )
        return self.cube * level

    def _end(self, result: GameResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self.dice = None
        self._legal = None

    def _log(
        self,
        act: Act,
        player: int,
        *,
        dice: tuple[int, int] | None = None,
        play: Play | str | None = None,
        resignation: Resignation | None = None,
        illegal: str | None = None,
        note: Message | None = None,
        illegal_reason: Message | None = None,
    ) -> None:
        fields = (act, player, dice, play, None, resignation, illegal, note, self.position)
        self.log.append(tuple.__new__(Action, (*fields, self._state(), illegal_reason)))

    def _turn_state(self, dice: tuple[int, int] | None) -> MatchState:
        """:meth:`_state` while a turn is rolled (``dice``) or waits for the roll (None).

        Then nothing is offered and the game is not over, so the state follows from
        the player on roll and the dice, once the context and the cube are known: the
        states of each context and cube are kept (``_TURN_STATES`` once the context
        recurs, see ``_CONTEXTS_SEEN``), and roll() and play() look theirs up in
        ``self._turn_states``, which this method points at the right ones whenever the
        lookup misses.
        """
        context = self.context
        if context is not self._keyed_context:
            self._key_context(context)
        cube, owner, turn = self.cube, self.cube_owner, self.turn
        basis = (self._context_key, cube, owner)
        kept = self._all_turn_states
        states = kept.get(basis)
        if states is None:
            if len(kept) >= _TURN_STATES_KEPT:
                kept.clear()
            states = kept[basis] = ({}, {})
        self._turn_states = states
        # what match_state says then, made at once: a game makes some forty of them
        state = states[turn][dice] = MatchState(
            context.length, context.score, cube, owner, turn, turn, context.crawford,
            _PLAYING, False, _NO_RESIGNATION, dice,
        )  # fmt: skip
        return state

    def _key_context(self, context: GameContext) -> None:
        """Read the context once a game (a context is a value), and choose where states are kept."""
        self._keyed_context = context
        self._context_key = known = (context.length, context.score, context.crawford)
        if known in _CONTEXTS_SEEN:
            self._states, self._all_turn_states = _STATES, _TURN_STATES
        else:
            if len(_CONTEXTS_SEEN) >= _CONTEXTS_KEPT:
                _CONTEXTS_SEEN.clear()
            _CONTEXTS_SEEN.add(known)
            self._states, self._all_turn_states = {}, {}

    def _state(self) -> MatchState:
        """:attr:`match_state`, for the log: a game logs two a turn, and they repeat.

        Shared by all games of a context that recurs (see ``_STATES``), by everything
        it is made of.
        """
        if self.context is not self._keyed_context:
            self._key_context(self.context)
        key = (
            self._context_key,
            self.phase._value_,  # a plain str: Enum's own __hash__ is Python code
            self.turn,
            self.offered_by,
            self.cube,
            self.cube_owner,
            self.dice,
            self.offer,
            self.result,
        )  # everything match_state reads
        kept = self._states
        state = kept.get(key)
        if state is None:
            if len(kept) >= _STATES_KEPT:
                kept.clear()  # a server's scores and cubes add up; start over now and then
            state = kept[key] = self.match_state
        return state
