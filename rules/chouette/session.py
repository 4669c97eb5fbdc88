"""A chouette (or a two-player money session) as an immutable value rebuilt from its events.

:meth:`Chouette.apply` takes one event and returns the next session or raises
:class:`rules.errors.IllegalActionError` citing the rule; :func:`replay` rebuilds a
session from its stored events; :meth:`Chouette.allowed` lists every event the site can
offer as a button now.

>>> from .events import Answer, BoxDoubles, End, Opening, StartGame
>>> from ..money import Level
>>> session = replay(ChouetteSettings(), [
...     Opening((("ann", 5), ("bob", 3), ("cy", 1))), StartGame(),
...     BoxDoubles(("bob", "cy")), Answer("bob", "take"), Answer("cy", "drop"),
...     End(box_wins=False, level=Level.SINGLE),
... ])
>>> session.totals()
{'ann': -1, 'bob': 2, 'cy': -1}
>>> session.lineup.box, session.lineup.team
('bob', ('cy', 'ann'))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import product

from ..errors import IllegalActionError, RulesError
from ..messages import Message
from ..money import Level
from ..settlement import Transfer
from . import play
from .cubes import BOX
from .events import (
    ANSWERS,
    Answer,
    AutomaticDouble,
    Back,
    BoxAnswers,
    BoxDoubles,
    Deal,
    End,
    Event,
    ExtraAnswer,
    ExtraDouble,
    ExtraRedouble,
    Join,
    Leave,
    MemberDoubles,
    Opening,
    Partner,
    Raccoon,
    Rest,
    StartGame,
    UndoGame,
)
from .lineup import Lineup
from .rotation import finish
from .settings import ChouetteSettings, CubeMode
from .state import GameRecord, GameState

__all__ = ["Chouette", "ChouetteReplayError", "replay"]

ORDER, PARTNER = "Galore 3.1", "Galore 3.6"
LINEUP_EVENTS = (Join, Leave, Rest, Back, Partner)


class ChouetteReplayError(IllegalActionError):
    """An event of a stored session that the rules refuse; ``index`` counts from 0."""

    def __init__(self, index: int, error: RulesError) -> None:
        self.index = index
        self.error = error
        super().__init__(
            Message("chouette-replay-event", {"index": index + 1, "reason": error.message}),
            rule=error.rule,
        )


@dataclass(frozen=True, slots=True)
class Chouette:
    """The session: its settings, the lineup (None before the opening roll), the game being
    played, the finished games, and the events that made it (for undo)."""

    settings: ChouetteSettings
    lineup: Lineup | None = None
    game: GameState | None = None
    games: tuple[GameRecord, ...] = ()
    events: tuple[Event, ...] = ()

    @classmethod
    def start(cls, settings: ChouetteSettings) -> Chouette:
        """A session before its opening roll."""
        return cls(settings=settings)

    # --- reading ------------------------------------------------------------------------

    @property
    def ledger(self) -> tuple[Transfer, ...]:
        """Every finished game's transfers, in order (a game being played is not in it)."""
        return tuple(t for record in self.games for t in record.ledger)

    def totals(self) -> dict[str, int]:
        """Each player's points over the finished games, by id; they sum to 0."""
        totals: dict[str, int] = {}
        if self.lineup is not None:
            totals.update({p: 0 for p in self.lineup.everyone})
        for transfer in self.ledger:
            totals[transfer.payer] = totals.get(transfer.payer, 0) - transfer.amount
            totals[transfer.payee] = totals.get(transfer.payee, 0) + transfer.amount
        return dict(sorted(totals.items()))

    def allowed(self) -> tuple[Event, ...]:
        """Every event :meth:`apply` accepts now, but a Join (it names a newcomer) and a Deal
        (it needs numbers: :meth:`can_deal`). Under multiple cubes the box may double any
        set of the members :meth:`box_may_double` names; listed are all of them and each."""
        return tuple(event for event in self._candidates() if self._accepts(event))

    def can_deal(self, members: Iterable[str]) -> bool:
        """Whether the box and these members may settle now (club practice)."""
        game = self.game
        if game is None:
            return False
        chosen = tuple(members)
        box_wins = True if game.acting_captain in chosen else None
        return self._accepts(Deal(chosen, 1, box_wins))

    def box_may_double(self) -> tuple[str, ...]:
        """The members whose cube the box may turn now (Galore 3.3, 3.5)."""
        game = self.game
        if game is None:
            return ()
        return tuple(m for m in game.playing if self._accepts(BoxDoubles((m,))))

    # --- applying -----------------------------------------------------------------------

    def apply(self, event: Event) -> Chouette:
        """The session after ``event``; raises IllegalActionError if the rules refuse it."""
        if isinstance(event, UndoGame):
            return self._undo()
        return replace(self._applied(event), events=(*self.events, event))

    def _accepts(self, event: Event) -> bool:
        try:
            self.apply(event) if isinstance(event, UndoGame) else self._applied(event)
        except RulesError:
            return False
        return True

    def _applied(self, event: Event) -> Chouette:
        settings = self.settings
        if isinstance(event, Opening):
            return self._opening(event)
        lineup = self.lineup
        if lineup is None:
            raise IllegalActionError(Message("chouette-not-opened"), rule=ORDER)
        if isinstance(event, Join):
            return replace(self, lineup=lineup.joined(event.player))
        if isinstance(event, Back):
            return replace(self, lineup=lineup.back(event.player))
        if isinstance(event, Leave | Rest):
            self._require_out_of_game(event.player)
            out = lineup.left if isinstance(event, Leave) else lineup.rested
            return replace(self, lineup=out(event.player))
        if isinstance(event, Partner):
            return replace(self, lineup=self._partner(lineup, event.player))
        if isinstance(event, StartGame):
            self._require_no_game()
            return replace(self, game=play.start(lineup, len(self.games) + 1))
        game = self.game
        if game is None:
            raise IllegalActionError(Message("chouette-no-game"), rule=ORDER)
        after = _game_event(game, settings, event)
        if not after.over:
            return replace(self, game=after)
        level = event.level if isinstance(event, End) else None
        resigned = event.resigned if isinstance(event, End) else False
        record, next_lineup = finish(after, lineup, settings, level=level, resigned=resigned)
        return replace(self, game=None, games=(*self.games, record), lineup=next_lineup)

    def _opening(self, event: Opening) -> Chouette:
        if self.lineup is not None:
            raise IllegalActionError(Message("chouette-opened"), rule=ORDER)
        return replace(self, lineup=Lineup.rolled(event.rolls))

    def _require_no_game(self) -> None:
        if self.game is not None:
            raise IllegalActionError(
                Message("chouette-game-on", {"number": self.game.number}), rule=ORDER
            )

    def _require_out_of_game(self, player: str) -> None:
        game = self.game
        if game is not None and player in (game.box, game.partner, *game.playing):
            raise IllegalActionError(
                Message("chouette-in-game", {"player": player, "number": game.number}),
                rule=ORDER,
            )

    def _partner(self, lineup: Lineup, player: str | None) -> Lineup:
        """The box's partner, offered from the captain down or drawn by lot (Galore 3.6)."""
        self._require_no_game()
        needed = self.settings.partner_from
        if needed is None:
            raise IllegalActionError(Message("chouette-partner-off"), rule=PARTNER)
        count = len(lineup.players)
        if count < needed:
            raise IllegalActionError(
                Message("chouette-partner-few", {"needed": needed, "count": count}), rule=PARTNER
            )
        if player is None or player == lineup.partner:
            return lineup.with_partner(player)
        if player not in lineup.team:
            raise IllegalActionError(
                Message("chouette-partner-member", {"player": player}), rule=PARTNER
            )
        if len(lineup.team) == 1 and lineup.partner is None:
            raise IllegalActionError(Message("chouette-partner-last"), rule=PARTNER)
        return lineup.with_partner(player)

    def _undo(self) -> Chouette:
        """Drop the last game whole: replay the events without it, keeping the lineup's."""
        starts = [i for i, e in enumerate(self.events) if isinstance(e, StartGame)]
        if not starts:
            raise IllegalActionError(Message("chouette-no-undo"), rule=ORDER)
        first = starts[-1]
        number = len(self.games) + (1 if self.game is not None else 0)
        kept = [
            e
            for i, e in enumerate(self.events)
            if i < first or (i > first and isinstance(e, (Opening, *LINEUP_EVENTS)))
        ]
        try:
            return replay(self.settings, kept)
        except ChouetteReplayError as error:
            raise IllegalActionError(
                Message("chouette-undo-breaks", {"number": number, "reason": error.error.message}),
                rule=error.rule,
            ) from error

    # --- what the site may offer ------------------------------------------------------------

    def _candidates(self) -> Iterable[Event]:
        lineup = self.lineup
        if lineup is None:
            return
        for player in lineup.players:
            yield Leave(player)
            yield Rest(player)
        for player in lineup.resting:
            yield Back(player)
            yield Leave(player)
        game = self.game
        if game is None:
            if self.settings.partner_from is not None:
                yield Partner(None)
                yield from (Partner(m) for m in lineup.team)
            yield StartGame()
            if self.games:
                yield UndoGame()
            return
        yield from self._game_candidates(game)
        yield UndoGame()

    def _game_candidates(self, game: GameState) -> Iterable[Event]:
        yield AutomaticDouble()
        if self.settings.cubes is CubeMode.SINGLE:
            yield BoxDoubles(game.playing)
        else:
            doublable = self.box_may_double()
            if doublable:
                yield BoxDoubles(doublable)
            if len(doublable) > 1:
                yield from (BoxDoubles((m,)) for m in doublable)
        for member in game.playing:
            cube = game.cubes[member]
            if cube.answerer == BOX:
                yield from (BoxAnswers(member, word) for word in ANSWERS)
            elif cube.answerer is not None:
                yield from (Answer(member, word) for word in ANSWERS)
            if cube.beavered:
                yield Raccoon(member)
            yield MemberDoubles(member)
        for member in game.extra_window:
            yield ExtraDouble(member)
        for extra in game.extras:
            yield ExtraRedouble(extra.member, by_taker=True)
            yield ExtraRedouble(extra.member, by_taker=False)
            yield ExtraAnswer(extra.member, take=True)
            yield ExtraAnswer(extra.member, take=False)
        for box_wins, level, resigned in product((True, False), Level, (False, True)):
            yield End(box_wins=box_wins, level=level, resigned=resigned)


def _game_event(game: GameState, settings: ChouetteSettings, event: Event) -> GameState:
    """The game after one of its own events."""
    if isinstance(event, AutomaticDouble):
        return play.automatic_double(game, settings)
    if isinstance(event, BoxDoubles):
        return play.box_doubles(game, settings, tuple(event.members))
    if isinstance(event, Answer):
        return play.answer(game, settings, event.member, event.answer)
    if isinstance(event, Raccoon):
        return play.raccoon(game, settings, event.member)
    if isinstance(event, MemberDoubles):
        return play.member_doubles(game, settings, event.member)
    if isinstance(event, BoxAnswers):
        return play.box_answers(game, settings, event.member, event.answer)
    if isinstance(event, ExtraDouble):
        return play.extra_double(game, settings, event.member)
    if isinstance(event, ExtraRedouble):
        return play.extra_redouble(game, settings, event.member, event.by_taker)
    if isinstance(event, ExtraAnswer):
        return play.extra_answer(game, settings, event.member, event.take)
    if isinstance(event, Deal):
        return play.deal(game, settings, tuple(event.members), event.points, event.box_wins)
    if isinstance(event, End):
        return play.end(game, settings, event.box_wins, event.level)
    raise IllegalActionError(Message("chouette-event-data", {"data": repr(event)}))


def replay(settings: ChouetteSettings, events: Iterable[Event]) -> Chouette:
    """The session its events make, from :meth:`Chouette.start`; a refusal names the event."""
    session = Chouette.start(settings)
    for index, event in enumerate(events):
        try:
            session = session.apply(event)
        except ChouetteReplayError as error:
            raise ChouetteReplayError(index, error.error) from error
        except RulesError as error:
            raise ChouetteReplayError(index, error) from error
    return session
