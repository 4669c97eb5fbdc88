"""What a document must satisfy beyond its shape: the keys between its parts, the rules.

Its shape is the models' (:mod:`.document`); here, the document read: every key it refers to
is one it defines, once; each event's settings hold together; every match's result is what
the services would have written (its games checked by the rules engine,
:func:`rules.match.checked_match`, and every board game's log replayed,
:meth:`rules.game.Game.replay`, as the board does); a knockout's matches are those its draw
and results make; the history names what the document holds. A refusal is a
:class:`~django.core.exceptions.ValidationError` in plain words naming the event, the match
(event, round, players) or the place in the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import NoReturn, TypeVar

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from club.models import Player
from club.words import sentence
from matches.matfiles import mat_import_plan
from matches.models import Match
from matches.services import length_checked
from rules.errors import RulesError
from rules.game import Game as RulesGame
from rules.game import Phase
from rules.match import (
    Entry,
    Forfeit,
    ForfeitReason,
    GameContext,
    GameResult,
    MatchRules,
    Outcome,
    Penalty,
    PenaltyReason,
    checked_match,
    match_winner,
    score_possible,
)
from rules.match import Match as RulesMatch
from rules.turn import Turn

from ..models import Arrival, Event
from ..pairing.bracket import FINAL_KEY, RESET_KEY, Bracket, resolve
from ..queries.knockouts import SHAPES
from ..rounds import round_name
from .document import (
    SUBJECTS,
    AuditPart,
    BoardGamePart,
    DisputePart,
    DocumentV1,
    EventPart,
    MatchPart,
    PlayerPart,
    Says,
    SubjectPart,
)


def document_checked(document: DocumentV1) -> None:
    """Refuse ``document`` unless it holds together; on the way, gather each event's matches
    (:attr:`.document.EventPart.matches`) and name and judge each match (``label``,
    ``winner``)."""
    players = _keys(document.players, _("the player"))
    events: dict[str, EventPart] = {}
    for event in document.events:
        if event.key in events:
            _twice(_("the event"), event.key)
        _check_event(event, events, players)  # a parent is an event before it
        events[event.key] = event
    matches = _keys(document.matches, _("the match"))
    disputes = _keys([d for m in document.matches for d in m.disputes], _("the dispute"))
    for number, match in enumerate(document.matches, 1):
        where = f"matches[{number}]"
        if match.event not in events:
            _unknown(where, match.event)
        for key in (match.player_a, match.player_b):
            if key not in players:
                _unknown(where, key)
        match.label = _label(match, events, players)
        event = events[match.event]
        _check_match(match, event, players)
        event.matches.append(match)
    for event in document.events:
        if event.format in SHAPES and event.drawn_at is not None:
            _check_knockout(event, players)
        elif event.format not in SHAPES:
            keys = [m.bracket_key for m in event.matches if m.bracket_key]
            if len(keys) != len(set(keys)):
                raise ValidationError(
                    _("%(event)s: two matches have the same place.") % {"event": event.name}
                )
    _check_audit(document.audit, events, players, matches, disputes)


def _unknown(where: str, key: str) -> NoReturn:
    raise ValidationError(
        _(
            "The file does not hold together: %(where)s refers to “%(key)s”, which the file "
            "does not define."
        )
        % {"where": where, "key": key}
    )


def _twice(what: str, key: str) -> NoReturn:
    raise ValidationError(
        _("The file does not hold together: %(what)s “%(key)s” appears twice.")
        % {"what": what, "key": key}
    )


Keyed = TypeVar("Keyed", PlayerPart, MatchPart, DisputePart)


def _keys(items: Iterable[Keyed], what: str) -> dict[str, Keyed]:
    found: dict[str, Keyed] = {}
    for item in items:
        if item.key in found:
            _twice(what, item.key)
        found[item.key] = item
    return found


def _refuse(match: MatchPart, reason: str) -> NoReturn:
    raise ValidationError(_("%(match)s: %(reason)s") % {"match": match.label, "reason": reason})


def _check_event(
    event: EventPart, events: dict[str, EventPart], players: dict[str, PlayerPart]
) -> None:
    def refuse(reason: str) -> NoReturn:
        raise ValidationError(_("%(event)s: %(reason)s") % {"event": event.name, "reason": reason})

    if event.format == Event.Format.SWISS and not event.swiss_rounds:
        refuse(_("Say how many rounds the Swiss has."))
    if event.format == Event.Format.ROUND_ROBIN and not event.pools:
        refuse(_("Say how many round robin pools there are."))
    if event.cut is not None and event.format != Event.Format.SWISS:
        refuse(_("Only a Swiss is cut to a knockout."))
    if not event.rounds:
        refuse(_("Give at least one match length."))
    timed = [times.number for times in event.round_times]
    if len(timed) != len(set(timed)) or any(number > len(event.rounds) for number in timed):
        refuse(
            _("the start times and clocks of its rounds are given twice, or for a round it lacks.")
        )
    for length in event.rounds:
        try:
            length_checked(length)
        except ValidationError as error:
            refuse(" ".join(error.messages))
    if event.parent is not None and event.parent not in events:
        refuse(_("it is cut from an event the file does not hold before it."))
    seen: set[str] = set()
    seeds: set[int] = set()
    for entry in event.entries:
        if entry.player not in players:
            _unknown(f"{event.name}", entry.player)
        if entry.player in seen:
            refuse(_("%(player)s is entered twice.") % {"player": players[entry.player].name})
        seen.add(entry.player)
        if entry.seed is not None:
            if entry.seed in seeds:
                refuse(_("two players have the seed %(seed)s.") % {"seed": entry.seed})
            seeds.add(entry.seed)
        if entry.pool is not None and (
            event.format != Event.Format.ROUND_ROBIN or entry.pool > (event.pools or 0)
        ):
            refuse(
                _("%(player)s is in a pool the event does not have.")
                % {"player": players[entry.player].name}
            )
    drawn = event.drawn_at is not None
    if not drawn and (seeds or event.byes):
        refuse(_("the draw is not made, yet the file gives it seeds, matches or byes."))
    seeded = {e.player for e in event.entries if e.seed is not None}
    unpooled = any(e.pool is None for e in event.entries if e.seed is not None)
    if drawn and event.format == Event.Format.ROUND_ROBIN and unpooled:
        refuse(_("a player drawn in a round robin has no pool."))
    rounds: set[int] = set()
    for bye in event.byes:
        if bye.player not in players:
            _unknown(f"{event.name}", bye.player)
        if bye.player not in seeded:
            refuse(
                _("%(player)s has a bye but is not in the draw.")
                % {"player": players[bye.player].name}
            )
        if bye.round in rounds:
            refuse(_("two byes in round %(round)s.") % {"round": bye.round})
        rounds.add(bye.round)


def _label(match: MatchPart, events: dict[str, EventPart], players: dict[str, PlayerPart]) -> str:
    """A match as a refusal names it: "Main, round 2, Anna – Bruno", "Double, final, …"."""
    name = round_name(match.round, [match.bracket_key])
    a, b = players[match.player_a].name, players[match.player_b].name
    return f"{events[match.event].name}, {name}, {a} – {b}"


def _check_match(match: MatchPart, event: EventPart, players: dict[str, PlayerPart]) -> None:
    """The match's result as the services would have written it, its games by the rules."""
    if event.drawn_at is None:
        _refuse(match, _("its event's draw is not made."))
    if match.player_a == match.player_b:
        _refuse(match, _("A match is played by two different players."))
    seeded = {e.player for e in event.entries if e.seed is not None}
    for key in (match.player_a, match.player_b):
        if key not in seeded:
            _refuse(
                match,
                _("%(player)s is not in the draw of the event.") % {"player": players[key].name},
            )
    try:
        length_checked(match.length)
    except ValidationError as error:
        _refuse(match, " ".join(error.messages))
    numbers = [g.number for g in match.games]
    if numbers != list(range(1, len(numbers) + 1)):
        _refuse(match, _("its games are not numbered 1, 2, 3 and so on."))
    status = Match.Status
    final, walkover = match.final_score, match.walkover_winner
    retired = match.retired is not None  # then games, and the final score they lead to
    if match.forfeit and not retired:
        _refuse(match, _("a forfeit needs the player who forfeited."))
    played = bool(match.games) and not retired
    if sum(bool(x) for x in (played, final is not None, walkover is not None)) > 1:
        _refuse(
            match,
            _("a result is its games, only a final score, or a walkover: never two of them."),
        )
    if (match.status == status.WALKOVER) != (walkover is not None):
        _refuse(match, _("a walkover needs its winner, and only a walkover has one."))
    if (match.status == status.FINISHED) != (match.finished_at is not None):
        _refuse(match, _("a finished match has the time it finished, and only a finished one."))
    if match.board_games and not retired and (final is not None or walkover is not None):
        _refuse(match, _("only a match played game by game has games on the board."))
    derived = RulesMatch(match.length)
    _penalties_placed(match)
    if retired:
        derived = _retirement_checked(match)
    elif match.games or (match.penalties and final is None and walkover is None):
        derived = _games_checked(match)
        if derived.over:
            expected: tuple[Match.Status, ...] = (status.FINISHED,)
        elif match.games:
            expected = (status.IN_PLAY,)
        else:  # penalty points before the first game: begun on the board, or not yet
            expected = (status.SCHEDULED, status.IN_PLAY)
        if match.status not in expected:
            _refuse(match, _("its status does not follow from its games."))
        match.winner = derived.winner
    elif final is not None:
        if not score_possible(match.length, final) or max(final) != match.length:
            _refuse(
                match,
                _(
                    "%(a)s–%(b)s cannot be the final score of a %(length)s-point match: exactly "
                    "one player reaches %(length)s, and points beyond it do not count (WBF 3)."
                )
                % {"a": final[0], "b": final[1], "length": match.length},
            )
        if match.status != status.FINISHED:
            _refuse(match, _("its status does not follow from its final score."))
        match.winner = match_winner(match.length, final)
    elif walkover is not None:
        match.winner = walkover
    elif match.status not in (status.SCHEDULED, status.IN_PLAY):
        _refuse(match, _("its status does not follow from its result."))
    boards: set[int] = set()
    for board in match.board_games:
        if board.number in boards:
            _refuse(
                match, _("two games numbered %(number)s on the board.") % {"number": board.number}
            )
        boards.add(board.number)
        _board_checked(match, derived, board)
    for number, dispute in enumerate(match.disputes, 1):
        _dispute_checked(match, players, number, dispute)
    sides = [arrival.side for arrival in match.arrivals]
    pending = Arrival.State.PENDING
    if len(sides) != len(set(sides)) or any(
        (a.state == pending) != (a.decided_at is None) or (a.state == pending and not a.points)
        for a in match.arrivals
    ):
        _refuse(match, _("its arrivals do not hold together: one a player, each decided once."))


def _penalties_placed(match: MatchPart) -> None:
    """Penalty points come in the order of the games they precede, each before a game the
    match has or the next one (as the site gives them, between games)."""
    places = [p.before_game for p in match.penalties]
    if places != sorted(places) or any(n > len(match.games) + 1 for n in places):
        _refuse(
            match,
            _("its penalty points are not in order, each before a game it has or the next one."),
        )


def _retirement_checked(match: MatchPart) -> RulesMatch:
    """A retirement: the games played (and penalty points given), then the opponent at the
    match length (a retirement or a forfeit loses the match), the retiring player at the
    score the games gave them. What is returned is the match before it: a game the board
    was playing when a flag fell is in its place."""
    assert match.retired is not None
    derived = _games_checked(match)
    score = list(derived.score)
    score[1 - match.retired] = match.length
    if match.forfeit and not derived.over:  # the engine's forfeit: the same score, checked
        forfeit = Forfeit(player=match.retired, reason=ForfeitReason(match.forfeit.value))
        score = list(derived.add(forfeit).score)
    if derived.over or match.final_score != (score[0], score[1]):
        _refuse(
            match,
            _(
                "after a retirement the final score is the games' score with the opponent at "
                "the match length: %(a)s–%(b)s."
            )
            % {"a": score[0], "b": score[1]},
        )
    if match.status != Match.Status.FINISHED or match.walkover_winner is not None:
        _refuse(match, _("its status does not follow from its result."))
    match.winner = 1 - match.retired
    return derived


def _games_checked(match: MatchPart) -> RulesMatch:
    """The games, and the penalty points between them, by the rules engine (WBF 3, 23-25;
    tournament rules); a refusal names the first game or penalty it meets."""
    results: list[GameResult] = []
    for game in match.games:
        if (game.result == Outcome.RESIGNATION.value) != (game.resigned is not None):
            _refuse(
                match,
                _("game %(number)s: say what was resigned, and only for a resignation.")
                % {"number": game.number},
            )
        points = game.cube * (game.resigned or Outcome(game.result.value).multiplier)
        results.append(
            GameResult(
                winner=game.winner,
                points=points,
                outcome=Outcome(game.result.value),
                cube=game.cube,
            )
        )
    history: list[Entry] = []
    waiting = list(match.penalties)
    for number, result in enumerate([*results, None], 1):  # None: the game to come
        while waiting and waiting[0].before_game <= number:
            given = waiting.pop(0)
            penalty = Penalty(
                player=given.side, points=given.points, reason=PenaltyReason(given.reason.value)
            )
            history.append(penalty)
        if result is not None:
            history.append(result)
    try:
        return checked_match(match.length, history)
    except RulesError:
        games = 0
        for count, entry in enumerate(history, 1):
            games += isinstance(entry, GameResult)
            try:
                checked_match(match.length, history[:count])
            except RulesError as error:
                if isinstance(entry, GameResult):
                    where = _("game %(number)s: %(reason)s")
                else:
                    where = _("penalty points before game %(number)s: %(reason)s")
                number = games if isinstance(entry, GameResult) else games + 1
                _refuse(match, where % {"number": number, "reason": sentence(error)})
        raise


PENDING_MOVE = re.compile(r"([0-9]{1,2}):([1-6])", re.ASCII)


def _board_checked(match: MatchPart, derived: RulesMatch, board: BoardGamePart) -> None:
    """The board game's log replayed through the engine, in its place in the match."""

    def refuse(reason: str) -> NoReturn:
        _refuse(
            match,
            _("game %(number)s on the board: %(reason)s")
            % {"number": board.number, "reason": reason},
        )

    rules = MatchRules(match.length)
    if board.number <= len(derived.games):
        scored = derived.games[board.number - 1]
        context = GameContext(
            rules=rules,
            score=scored.score_before,
            crawford=scored.crawford,
            post_crawford=scored.post_crawford,
            number=board.number,
        )
    elif board.number == len(derived.games) + 1 and not derived.over:
        context = derived.next_game
    else:
        refuse(_("The match is over: no game %(number)s.") % {"number": board.number})
    try:
        game = RulesGame.replay([a.as_action() for a in board.actions], context)
    except RulesError as error:
        refuse(sentence(error))
    except (ValueError, AssertionError):
        refuse(_("its log cannot be replayed."))
    if not board.pending:
        return
    recorded = board.number <= len(derived.games)
    if game.phase is not Phase.MOVE or game.dice is None or recorded:
        refuse(_("checker moves wait for a play that is not due."))
    turn = Turn.begin(game.position, game.dice, game.legal_plays)
    for token in board.pending.split():
        found = PENDING_MOVE.fullmatch(token)
        move = (int(found.group(1)), int(found.group(2))) if found else (-1, -1)
        following = None
        for option in turn.options:
            if option.source == move[0]:
                after = turn.move(option.source, option.destination)
                if after.moves[-1] == move:
                    following = after
                    break
        if following is None:
            refuse(_("its checker moves not yet confirmed cannot be made."))
        turn = following


def _dispute_checked(
    match: MatchPart, players: dict[str, PlayerPart], number: int, dispute: DisputePart
) -> None:
    """The dispute's log can be read and replayed as its page will (matches.disputes)."""
    shown = Match(
        player_a=Player(name=players[match.player_a].name),
        player_b=Player(name=players[match.player_b].name),
        length=match.length,
    )
    try:
        mat_import_plan(match=shown, text=dispute.mat, left=int(dispute.swapped))
    except ValidationError as error:
        _refuse(
            match,
            _("dispute %(number)s: %(reason)s")
            % {"number": number, "reason": " ".join(error.messages)},
        )


# a file exported before a double elimination's final came after the losers' draw's last
# round numbered the final round 1 and the final played again round 2
_FINAL_ROUNDS_BEFORE = {FINAL_KEY: 1, RESET_KEY: 2}


def _check_knockout(event: EventPart, players: dict[str, PlayerPart]) -> None:
    """A knockout's matches are those its draw and results make (as event_advance keeps them).

    A double elimination's final numbered as older files did is taken in the round it has now.
    """

    def refuse(key: str) -> NoReturn:
        raise ValidationError(
            _("%(event)s: the matches do not follow from the draw and the results (at %(key)s).")
            % {"event": event.name, "key": key}
        )

    seeds = {e.seed: e.player for e in event.entries if e.seed is not None}
    if sorted(seeds) != list(range(1, len(seeds) + 1)) or len(seeds) < 2:
        raise ValidationError(
            _("%(event)s: the seeds of a knockout are 1, 2, 3 and so on, for two players or more.")
            % {"event": event.name}
        )
    seed_of = {player: seed for seed, player in seeds.items()}
    by_key: dict[str, MatchPart] = {}
    for match in event.matches:
        if not match.bracket_key or match.bracket_key in by_key:
            refuse(match.bracket_key or "—")
        by_key[match.bracket_key] = match
    results = {
        key: seed_of[m.player_a if m.winner == 0 else m.player_b]
        for key, m in by_key.items()
        if m.winner is not None
    }
    try:
        shape: Callable[..., Bracket] = SHAPES[event.format]
        state = resolve(shape(len(seeds), third_place=event.third_place), results)
    except (ValueError, KeyError):
        refuse(next(iter(results), "—"))
    for key, slot in state.slots.items():
        a = seeds.get(slot.first) if isinstance(slot.first, int) else None
        b = seeds.get(slot.second) if isinstance(slot.second, int) else None
        existing = by_key.get(key)
        if existing is None:
            if a is not None and b is not None:
                refuse(key)
            continue
        if existing.round == _FINAL_ROUNDS_BEFORE.get(key):
            existing.round = slot.match.round
        if (existing.player_a, existing.player_b) != (a, b) or existing.round != slot.match.round:
            refuse(key)
    for key in by_key:
        if key not in state.slots:
            refuse(key)


def _check_audit(
    audit: list[AuditPart],
    events: Mapping[str, EventPart],
    players: Mapping[str, PlayerPart],
    matches: Mapping[str, MatchPart],
    disputes: Mapping[str, DisputePart],
) -> None:
    for number, entry in enumerate(audit, 1):
        where = f"audit[{number}]"
        if entry.match is not None and entry.match not in matches:
            _unknown(where, entry.match)
        if entry.dispute is not None and entry.dispute not in disputes:
            _unknown(where, entry.dispute)
        _subject_in(entry.subject, f"{where}.subject", events, players, matches, disputes)


def _subject_in(
    subject: SubjectPart,
    where: str,
    events: Mapping[str, EventPart],
    players: Mapping[str, PlayerPart],
    matches: Mapping[str, MatchPart],
    disputes: Mapping[str, DisputePart],
) -> None:
    """What an entry is about is an object the document holds, by its kind's keys."""
    kind = subject.kind
    kinds = Says.choice(list(SUBJECTS))
    if subject.gone:  # no longer there: any model of this site
        if kind not in SUBJECTS and content_type_named(kind) is None:
            _wrong(f"{where}.kind", kinds)
        return
    needs: dict[str, dict[str, Mapping[str, object]]] = {
        "tournament": {},
        "event": {"event": events},
        "entry": {"event": events, "player": players},
        "player": {"player": players},
        "place": {"match": matches},
        "match": {"match": matches},
        "game": {"match": matches},
        "board_game": {"match": matches},
        "dispute": {"dispute": disputes},
        "penalty": {"match": matches},
        "arrival": {"match": matches, "player": players},
    }
    if kind not in needs:
        _wrong(f"{where}.kind", kinds)
    for name, known in needs[kind].items():
        key = getattr(subject, name)
        if key is None or key not in known:
            _unknown(f"{where}.{name}", str(key))
    if kind in ("game", "board_game") and subject.match is not None:
        match = matches[subject.match]
        held = match.games if kind == "game" else match.board_games
        if subject.number not in [item.number for item in held]:
            _unknown(f"{where}.number", str(subject.number))
    match_part = matches.get(subject.match or "")
    penalties = len(match_part.penalties) if match_part is not None else 0
    if kind == "penalty" and not 1 <= (subject.number or 0) <= penalties:  # its place
        _unknown(f"{where}.number", str(subject.number))
    if kind == "arrival" and subject.match is not None:
        match = matches[subject.match]
        arrived = [(match.player_a, match.player_b)[a.side] for a in match.arrivals]
        if subject.player not in arrived:
            _unknown(f"{where}.player", str(subject.player))
    if (
        kind == "entry"
        and subject.event is not None
        and subject.player is not None
        and subject.player not in [e.player for e in events[subject.event].entries]
    ):
        _unknown(f"{where}.player", subject.player)


def _wrong(where: str, says: Says) -> NoReturn:
    raise ValidationError(
        _("The file does not hold a tournament we can read: %(where)s should be %(what)s.")
        % {"where": where, "what": str(says)}
    )


def content_type_named(kind: str) -> ContentType | None:
    """A model of this site named "app_label.model" (what a gone subject of another kind is)."""
    app_label, _dot, model = kind.partition(".")
    return ContentType.objects.filter(app_label=app_label, model=model).first()
