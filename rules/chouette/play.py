"""The cube actions, deals and results of one chouette game, as pure functions of its state.

Each function takes a :class:`GameState` and returns the next one, or raises
:class:`rules.errors.IllegalActionError` citing the rule. Under a single cube (Galore 3.3)
the box doubles every member still in and each answers on their own, the team doubles
through its acting captain and the box's one answer holds for every member; under multiple
cubes (Galore 3.5) every member's cube moves on its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType

from ..errors import IllegalActionError
from ..messages import Message
from ..money import Level, game_value
from ..settlement import Transfer
from .cubes import BOX, MEMBER, TAKER, ExtraCube, MemberCube
from .events import ANSWERS, DROP, TAKE
from .lineup import Lineup
from .settings import ChouetteSettings, CubeMode
from .state import BoxRound, GameState

__all__ = [
    "answer",
    "automatic_double",
    "box_answers",
    "box_doubles",
    "deal",
    "end",
    "extra_answer",
    "extra_double",
    "extra_redouble",
    "member_doubles",
    "raccoon",
    "start",
]

SINGLE_CUBE, MULTIPLE_CUBES, LAST_DROPS = "Galore 3.3", "Galore 3.5", "Galore 3.4"
MONEY, RACCOONS, DEALS = "Galore 2.8", "Galore 5.4", "club practice"


def _cube_rule(settings: ChouetteSettings) -> str:
    return SINGLE_CUBE if settings.cubes is CubeMode.SINGLE else MULTIPLE_CUBES


def start(lineup: Lineup, number: int) -> GameState:
    """A game with the lineup as it stands: every member in, every cube at 1 in the centre."""
    captain = lineup.captain
    if captain is None:
        raise IllegalActionError(Message("chouette-no-captain"), rule="Galore 3.1")
    return GameState(
        number=number,
        box=lineup.box,
        partner=lineup.partner,
        captain=captain,
        acting_captain=captain,
        members=lineup.team,
        playing=lineup.team,
        cubes=MappingProxyType({m: MemberCube() for m in lineup.team}),
        table_size=len(lineup.players),
    )


# --- helpers --------------------------------------------------------------------------


def _with_cubes(game: GameState, changed: Mapping[str, MemberCube]) -> GameState:
    cubes = dict(game.cubes)
    cubes.update(changed)
    return replace(game, cubes=MappingProxyType(cubes))


def _box_settles(game: GameState, member: str, amount: int) -> tuple[Transfer, ...]:
    """The box receives ``amount`` from ``member`` (pays when below 0), shared with a
    partner: ``int(p / 2)`` to the partner, the remainder to the box (club practice, 3.6)."""
    points = abs(amount)
    if points == 0:
        return ()
    if game.partner is None:
        shares = [(game.box, points)]
    else:
        shares = [(game.box, points - points // 2), (game.partner, points // 2)]
    shares = [(side, share) for side, share in shares if share]
    if amount > 0:
        return tuple(Transfer(member, side, share) for side, share in shares)
    return tuple(Transfer(side, member, share) for side, share in shares)


def _pay(game: GameState, transfers: Iterable[Transfer]) -> GameState:
    return replace(game, ledger=(*game.ledger, *transfers))


def _out(
    game: GameState, member: str, *, box_won: bool, extras_multiplier: int | None = 1
) -> GameState:
    """``member`` is out of the game; their extra cubes settle with them (Galore 3.4).

    The acting captain who goes out hands the dice to the best-placed member still in
    (Galore 3.3); when nobody is left the last one stays named, for the rotation.
    """
    playing = tuple(m for m in game.playing if m != member)
    outcomes = dict(game.outcomes)
    outcomes[member] = box_won
    acting = game.acting_captain
    if member == acting and playing:
        acting = playing[0]
    game = replace(
        game,
        playing=playing,
        acting_captain=acting,
        outcomes=MappingProxyType(outcomes),
        extra_window=() if member == game.extra_taker else game.extra_window,
    )
    if member == game.extra_taker and game.extras:
        game = _settle_extras(game, taker_won=not box_won, multiplier=extras_multiplier)
    return game


def _settle_extras(game: GameState, *, taker_won: bool, multiplier: int | None) -> GameState:
    """Each extra cube pays its value times ``multiplier`` (None: nothing, a drawn deal)."""
    transfers = []
    for extra in game.extras:
        if multiplier:
            amount = extra.value * multiplier
            if taker_won:
                transfers.append(Transfer(extra.member, extra.taker, amount))
            else:
                transfers.append(Transfer(extra.taker, extra.member, amount))
    return _pay(replace(game, extras=()), transfers)


def _require_no_answer_due(game: GameState, rule: str) -> None:
    if game.awaiting:
        raise IllegalActionError(Message("chouette-answer-due"), rule=rule)


def _require_playing(game: GameState, member: str) -> None:
    if member not in game.playing:
        raise IllegalActionError(
            Message("chouette-not-playing", {"player": member, "number": game.number}),
            rule="Galore 3.3",
        )


def _require_cap(settings: ChouetteSettings, value: int) -> None:
    cap = settings.money.max_cube
    if cap is not None and value > cap:
        raise IllegalActionError(Message("chouette-max-cube", {"cube": cap}), rule=MONEY)


def _close_windows(game: GameState) -> GameState:
    """A new cube action: the moment for extra cubes has passed (Galore 3.4)."""
    return replace(game, extra_window=())


# --- the cube ---------------------------------------------------------------------------


def automatic_double(game: GameState, settings: ChouetteSettings) -> GameState:
    """Equal opening dice: every cube doubled, owned by nobody, not turned (Galore 2.8)."""
    allowed = settings.money.automatic_doubles
    if allowed == 0:
        raise IllegalActionError(Message("chouette-automatic-off"), rule=MONEY)
    untouched = game.playing == game.members and all(
        c.owner is None and not c.turned and not c.pending for c in game.cubes.values()
    )
    if not untouched:
        raise IllegalActionError(Message("chouette-automatic-late"), rule=MONEY)
    if game.automatic >= allowed:
        raise IllegalActionError(
            Message("chouette-automatic-count", {"count": allowed}), rule=MONEY
        )
    for member in game.playing:
        _require_cap(settings, game.cubes[member].value * 2)
    game = _with_cubes(game, {m: game.cubes[m].automatic() for m in game.playing})
    return replace(game, automatic=game.automatic + 1)


def box_doubles(game: GameState, settings: ChouetteSettings, members: tuple[str, ...]) -> GameState:
    """The box offers these members their cube at twice its value."""
    rule = _cube_rule(settings)
    _require_no_answer_due(game, rule)
    if not members:
        raise IllegalActionError(Message("chouette-no-members"), rule=rule)
    _require_distinct(members, rule)
    for member in members:
        _require_playing(game, member)
    if settings.cubes is CubeMode.SINGLE and set(members) != set(game.playing):
        raise IllegalActionError(Message("chouette-box-doubles-all"), rule=SINGLE_CUBE)
    for member in members:
        cube = game.cubes[member]
        if not cube.may_double(BOX):
            raise IllegalActionError(
                Message("chouette-box-cube", {"player": member}), rule="WBF 23"
            )
        _require_cap(settings, cube.value * 2)
    ordered = tuple(m for m in game.playing if m in members)
    initial = not any(c.turned for c in game.cubes.values())
    round_ = BoxRound(
        members=ordered, base=tuple((m, game.cubes[m].value) for m in ordered), initial=initial
    )
    game = _with_cubes(game, {m: game.cubes[m].offered(BOX) for m in ordered})
    return replace(_close_windows(game), round=round_)


def member_doubles(game: GameState, settings: ChouetteSettings, member: str) -> GameState:
    """A member doubles the box: the team's cube through the acting captain (single cube,
    Galore 3.3) or the member's own cube (Galore 3.5)."""
    rule = _cube_rule(settings)
    _require_playing(game, member)
    if settings.cubes is CubeMode.SINGLE:
        _require_no_answer_due(game, rule)
        if member != game.acting_captain:
            raise IllegalActionError(
                Message("chouette-acting-captain", {"player": game.acting_captain}),
                rule=SINGLE_CUBE,
            )
        doubled = game.playing
    else:
        if any(game.cubes[m].answerer == MEMBER for m in game.playing):
            _require_no_answer_due(game, rule)
        doubled = (member,)
    for m in doubled:
        cube = game.cubes[m]
        if not cube.may_double(MEMBER):
            raise IllegalActionError(Message("chouette-member-cube", {"player": m}), rule="WBF 23")
        _require_cap(settings, cube.value * 2)
    game = _with_cubes(game, {m: game.cubes[m].offered(MEMBER) for m in doubled})
    return _close_windows(game)


def answer(game: GameState, settings: ChouetteSettings, member: str, word: str) -> GameState:
    """A member answers the box's double, or the box's beaver (take or drop)."""
    rule = _cube_rule(settings)
    _require_answer_word(word, rule)
    _require_playing(game, member)
    cube = game.cubes[member]
    if cube.answerer != MEMBER:
        raise IllegalActionError(Message("chouette-no-offer", {"player": member}), rule=rule)
    first = game.round is not None and member in game.round.members and cube.offered_by == BOX
    first = first and not cube.raccooned
    if word != DROP and first and _last_must_drop(game, settings, member):
        raise IllegalActionError(Message("chouette-last-must-drop"), rule=LAST_DROPS)
    game = _answered(game, settings, member, cube, word)
    if first and game.round is not None:
        round_ = game.round
        game = replace(game, round=replace(round_, answers=(*round_.answers, (member, word))))
    return _resolve_round(game, settings)


def box_answers(game: GameState, settings: ChouetteSettings, member: str, word: str) -> GameState:
    """The box answers a member's double (single cube: the team's, for every member still
    in, through the acting captain), or a member's beaver."""
    rule = _cube_rule(settings)
    _require_answer_word(word, rule)
    _require_playing(game, member)
    cube = game.cubes[member]
    if cube.answerer != BOX:
        raise IllegalActionError(Message("chouette-box-no-offer", {"player": member}), rule=rule)
    plain = not (cube.beavered or cube.raccooned)
    if settings.cubes is CubeMode.SINGLE and plain:
        if member != game.acting_captain:
            raise IllegalActionError(
                Message("chouette-acting-captain", {"player": game.acting_captain}),
                rule=SINGLE_CUBE,
            )
        answered = [m for m in game.playing if game.cubes[m].answerer == BOX]
    else:
        answered = [member]
    acting = game.acting_captain
    for m in answered:
        game = _answered(game, settings, m, game.cubes[m], word)
    if not game.playing:  # the box dropped the team's double: the captain stays named
        game = replace(game, acting_captain=acting)
    return _resolve_round(game, settings)


def raccoon(game: GameState, settings: ChouetteSettings, member: str) -> GameState:
    """The original doubler turns a beavered cube again at once (Galore 5.4)."""
    _require_playing(game, member)
    if not settings.money.raccoons:
        raise IllegalActionError(Message("chouette-raccoon-off"), rule=RACCOONS)
    cube = game.cubes[member]
    if not cube.beavered or cube.raccooned:
        raise IllegalActionError(Message("chouette-no-beaver", {"player": member}), rule=RACCOONS)
    _require_cap(settings, cube.value * 2)
    return _with_cubes(game, {member: cube.raccoon()})


def _require_answer_word(word: str, rule: str) -> None:
    if word not in ANSWERS:
        raise IllegalActionError(Message("chouette-answer-word", {"answer": word}), rule=rule)


def _require_distinct(members: tuple[str, ...], rule: str) -> None:
    for index, member in enumerate(members):
        if member in members[:index]:
            raise IllegalActionError(Message("chouette-named-twice", {"player": member}), rule=rule)


def _answered(
    game: GameState, settings: ChouetteSettings, member: str, cube: MemberCube, word: str
) -> GameState:
    """One cube's answer: a drop pays the offering side the cube's value and ends that
    member's game; a take doubles it; a beaver doubles it and offers it back at once."""
    if word == DROP:
        offerer = cube.offered_by
        amount = cube.value if offerer == BOX else -cube.value
        game = _with_cubes(game, {member: replace(cube, offered_by=None)})
        game = _pay(game, _box_settles(game, member, amount))
        return _out(game, member, box_won=offerer == BOX)
    if word == TAKE:
        _require_cap(settings, cube.value * 2)
        return _with_cubes(game, {member: cube.taken()})
    if not settings.money.beavers:
        raise IllegalActionError(Message("chouette-beaver-off"), rule=MONEY)
    if cube.beavered or cube.raccooned:
        raise IllegalActionError(Message("chouette-beaver-answer"), rule=MONEY)
    _require_cap(settings, cube.value * 4)
    return _with_cubes(game, {member: cube.beaver()})


def _last_must_drop(game: GameState, settings: ChouetteSettings, member: str) -> bool:
    """Galore 3.4: with 5 or more players, when all members but one have dropped the box's
    double, the last one must drop too (a setting, single cube)."""
    round_ = game.round
    if not _last_drop_rule(game, settings) or round_ is None:
        return False
    answers = dict(round_.answers)
    others = [m for m in round_.members if m != member]
    return all(answers.get(m) == DROP for m in others)


def _last_drop_rule(game: GameState, settings: ChouetteSettings) -> bool:
    round_ = game.round
    return (
        settings.last_must_drop
        and settings.cubes is CubeMode.SINGLE
        and game.table_size >= 5
        and round_ is not None
        and len(round_.members) >= 2
    )


def _resolve_round(game: GameState, settings: ChouetteSettings) -> GameState:
    """Once every answer to the box's double is in: a lone taker among five or more must
    drop too (Galore 3.4), or, with extra cubes, may be offered them (Galore 3.4)."""
    round_ = game.round
    if round_ is None or any(game.cubes[m].pending for m in round_.members if m in game.playing):
        return game
    answers = dict(round_.answers)
    droppers = tuple(m for m in round_.members if answers.get(m) == DROP)
    takers = [m for m in round_.members if m in game.playing and answers.get(m) != DROP]
    base = dict(round_.base)
    game = replace(game, round=None)
    lone = len(takers) == 1 and len(droppers) == len(round_.members) - 1 and droppers
    if lone and _last_drop_rule(replace(game, round=round_), settings):
        taker = takers[0]
        game = _pay(game, _box_settles(game, taker, base[taker]))
        return _out(game, taker, box_won=True)
    if lone and settings.extra_cubes and round_.initial:
        taker = takers[0]
        game = replace(game, extra_window=droppers, extra_taker=taker, extra_value=2 * base[taker])
    return game


# --- the extra cubes (Galore 3.4) --------------------------------------------------------


def extra_double(game: GameState, settings: ChouetteSettings, member: str) -> GameState:
    """A member who dropped the box's first double gives the lone taker a 2-cube, which
    the taker must accept (Galore 3.4)."""
    if not settings.extra_cubes:
        raise IllegalActionError(Message("chouette-extra-off"), rule=LAST_DROPS)
    taker = game.extra_taker
    if member not in game.extra_window or taker is None or taker not in game.playing:
        raise IllegalActionError(
            Message("chouette-extra-not-now", {"player": member}), rule=LAST_DROPS
        )
    _require_cap(settings, game.extra_value)
    extra = ExtraCube(member=member, taker=taker, value=game.extra_value, owner=TAKER)
    window = tuple(m for m in game.extra_window if m != member)
    return replace(game, extras=(*game.extras, extra), extra_window=window)


def _extra(game: GameState, member: str) -> ExtraCube:
    for extra in game.extras:
        if extra.member == member:
            return extra
    raise IllegalActionError(Message("chouette-no-extra", {"player": member}), rule=LAST_DROPS)


def _replace_extra(game: GameState, old: ExtraCube, new: ExtraCube | None) -> GameState:
    extras: list[ExtraCube] = []
    for extra in game.extras:
        if extra is not old:
            extras.append(extra)
        elif new is not None:
            extras.append(new)
    return replace(game, extras=tuple(extras))


def extra_redouble(
    game: GameState, settings: ChouetteSettings, member: str, by_taker: bool
) -> GameState:
    """The owner of an extra cube turns it again (Galore 3.4: used as usual)."""
    extra = _extra(game, member)
    side = TAKER if by_taker else MEMBER
    if extra.offered_by is not None or extra.owner != side:
        raise IllegalActionError(Message("chouette-extra-owner", {"player": member}), rule="WBF 23")
    _require_cap(settings, extra.value * 2)
    return _replace_extra(game, extra, replace(extra, offered_by=side))


def extra_answer(game: GameState, settings: ChouetteSettings, member: str, take: bool) -> GameState:
    """The answer to an extra cube's redouble: a drop pays its value and ends it."""
    extra = _extra(game, member)
    if extra.offered_by is None:
        raise IllegalActionError(
            Message("chouette-extra-no-offer", {"player": member}), rule="WBF 23"
        )
    answering = MEMBER if extra.offered_by == TAKER else TAKER
    if take:
        taken = replace(extra, value=extra.value * 2, owner=answering, offered_by=None)
        return _replace_extra(game, extra, taken)
    if answering == MEMBER:
        transfer = Transfer(extra.member, extra.taker, extra.value)
    else:
        transfer = Transfer(extra.taker, extra.member, extra.value)
    return _pay(_replace_extra(game, extra, None), (transfer,))


# --- deals and the end -----------------------------------------------------------------


def deal(
    game: GameState,
    settings: ChouetteSettings,
    members: tuple[str, ...],
    points: int,
    box_wins: bool | None,
) -> GameState:
    """The box and these members settle now at ``points`` each (club practice)."""
    _require_no_answer_due(game, DEALS)
    if not members:
        raise IllegalActionError(Message("chouette-no-members"), rule=DEALS)
    _require_distinct(members, DEALS)
    for member in members:
        _require_playing(game, member)
    if isinstance(points, bool) or not isinstance(points, int):
        raise IllegalActionError(
            Message("chouette-deal-points", {"points": str(points)}), rule=DEALS
        )
    with_captain = game.acting_captain in members
    if with_captain and box_wins is None:
        raise IllegalActionError(
            Message("chouette-deal-winner", {"player": game.acting_captain}), rule=DEALS
        )
    if not with_captain and box_wins is not None:
        raise IllegalActionError(Message("chouette-deal-no-winner"), rule=DEALS)
    acting = game.acting_captain
    for member in tuple(m for m in game.playing if m in members):
        game = _pay(game, _box_settles(game, member, points))
        box_won = bool(box_wins) if member == acting else points >= 0
        multiplier = 1 if points else None
        game = _out(
            replace(game, acting_captain=acting),
            member,
            box_won=box_won,
            extras_multiplier=multiplier,
        )
    still = game.playing
    return replace(game, acting_captain=still[0] if acting in members and still else acting)


def end(game: GameState, settings: ChouetteSettings, box_wins: bool, level: Level) -> GameState:
    """The board's result: every member still in pays the box (or is paid) their cube's
    value at ``level``, under the Jacoby rule where agreed (Galore 2.8, WBF 25)."""
    _require_no_answer_due(game, _cube_rule(settings))
    money = settings.money
    for member in game.playing:
        cube = game.cubes[member]
        value = game_value(level, cube=cube.value, cube_turned=cube.turned, rules=money)
        game = _pay(game, _box_settles(game, member, value if box_wins else -value))
    extra_level = game_value(level, cube=1, cube_turned=True, rules=money)
    outcomes = dict(game.outcomes)
    outcomes.update({m: box_wins for m in game.playing})
    game = replace(game, outcomes=MappingProxyType(outcomes), playing=())
    return _settle_extras(game, taker_won=not box_wins, multiplier=extra_level)
