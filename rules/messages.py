"""Messages as codes with parameters, rendered (and translated) where they are shown.

The engine never builds a sentence for a person to read: a refusal or a replay
problem is a :class:`Message`, a stable key from :data:`CATALOG` and its
parameters. The page that shows it renders it in the visitor's language, through
anything with ``gettext`` and ``ngettext`` (the site passes Django's translation
functions); without a translator it renders in English.

>>> held = Message("held-point", {"point": 7})
>>> str(held)
'point 7 is held by two or more opposing checkers'
>>> Message("hop", {"hop": "24/17", "reason": held}).render()
'24/17: point 7 is held by two or more opposing checkers'

A translator is anything with the two functions; this toy one knows a single sentence:

>>> class Italian:
...     words = {
...         "point %(point)s is held by two or more opposing checkers":
...             "la punta %(point)s è chiusa da due o più pedine avversarie",
...     }
...     def gettext(self, text):
...         return self.words.get(text, text)
...     def ngettext(self, singular, plural, n):
...         return singular if n == 1 else plural
>>> held.render(Italian())
'la punta 7 è chiusa da due o più pedine avversarie'

A template whose words depend on a number is a (singular, plural) pair; the
``count`` parameter chooses, in the translator's language:

>>> Message("points", {"count": 1}).render(), Message("points", {"count": 3}).render()
('1 point', '3 points')

The site stores a message as its key and parameters, which survive JSON:

>>> Message.from_dict(held.as_dict()) == held
True

Every template below is wrapped in :func:`gettext_noop` or :func:`ngettext_noop`, so
the site's ``makemessages`` finds them (xgettext keywords ``gettext_noop`` and
``ngettext_noop:1,2``). A rule cited inside a template, "(WBF 23)", is part of the
sentence; a refusal's own rule is kept apart (:attr:`rules.errors.RulesError.rule`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Protocol, TypeAlias


def gettext_noop(text: str) -> str:
    """Mark a template for translation; it is translated where it is rendered."""
    return text


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Mark a template with a singular and a plural form; ``count`` chooses between them."""
    return (singular, plural)


class Translator(Protocol):
    """What renders a message in a language: Django's translation module is one."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class _English:
    """The templates as written: English, one form for 1 and another for any other number."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


ENGLISH: Final[Translator] = _English()

Template: TypeAlias = str | tuple[str, str]
Param: TypeAlias = "str | int | Message | tuple[Message, ...]"


@dataclass(frozen=True, slots=True, repr=False)
class Message:
    """A catalog key and its parameters: what is said, not yet in any language.

    Parameters are text (names, notation, a roll such as "6-5"), whole numbers,
    other messages, or tuples of messages (rendered as a list); a message within
    a message is rendered in the same language.
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.key, str):
            raise TypeError(f"a message key is a str, not {self.key!r}")
        if not self.params:
            object.__setattr__(self, "params", _NO_PARAMS)
            return
        params = dict(self.params)
        for name, value in params.items():
            if not _is_param(value):
                raise TypeError(f"message parameter {name!r} cannot be {value!r}")
        object.__setattr__(self, "params", MappingProxyType(params))

    def render(self, translate: Translator = ENGLISH) -> str:
        """The message in ``translate``'s language; English without one.

        A template or parameter that is missing raises KeyError: the catalog and
        the code that builds messages are tested to agree (test_message_catalog.py).
        """
        template = CATALOG[self.key]
        values = {name: _render(value, translate) for name, value in self.params.items()}
        if isinstance(template, tuple):
            count = self.params["count"]
            if not isinstance(count, int):
                raise TypeError(f"{self.key}: count must be a whole number, not {count!r}")
            text = translate.ngettext(template[0], template[1], count)
        else:
            text = translate.gettext(template)
        return text % values

    def as_dict(self) -> dict[str, object]:
        """The message as plain data (JSON): ``{"key": ..., "params": {...}}``."""
        return {"key": self.key, "params": {n: _encode(v) for n, v in self.params.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Message:
        """The message :meth:`as_dict` gave (after a trip through JSON, too)."""
        key, params = data.get("key"), data.get("params", {})
        if not isinstance(key, str) or not isinstance(params, Mapping):
            raise ValueError(f"not a message: {data!r}")
        return cls(key, {str(name): _decode(value) for name, value in params.items()})

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Message({self.key!r}, {dict(self.params)!r})"

    def __hash__(self) -> int:
        return hash((self.key, frozenset(self.params.items())))

    def __reduce__(self) -> tuple[type[Message], tuple[str, dict[str, Param]]]:
        return (Message, (self.key, dict(self.params)))


_NO_PARAMS: Mapping[str, Param] = MappingProxyType({})


def _is_param(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, str | int | Message):
        return True
    return isinstance(value, tuple) and all(isinstance(item, Message) for item in value)


def _render(value: Param, translate: Translator) -> str | int:
    if isinstance(value, Message):
        return value.render(translate)
    if isinstance(value, tuple):
        separator = translate.gettext(_text("list-separator"))
        return separator.join(item.render(translate) for item in value)
    return value


def _encode(value: Param) -> object:
    if isinstance(value, Message):
        return value.as_dict()
    if isinstance(value, tuple):
        return [item.as_dict() for item in value]
    return value


def _decode(value: object) -> Param:
    if isinstance(value, Mapping):
        return Message.from_dict(value)
    if isinstance(value, list | tuple):
        if not all(isinstance(item, Mapping) for item in value):
            raise ValueError(f"not a list of messages: {value!r}")
        return tuple(Message.from_dict(item) for item in value)
    if isinstance(value, str | int) and not isinstance(value, bool):
        return value
    raise ValueError(f"not a message parameter: {value!r}")


def _text(key: str) -> str:
    template = CATALOG[key]
    assert isinstance(template, str)
    return template


# --- the catalog ------------------------------------------------------------------
#
# Keys are stable: the site stores them (audit entries, disputes) and tests name them.
# Change a template's words freely; never reuse a key for a different meaning.

CATALOG: Final[Mapping[str, Template]] = {
    # --- pieces of other messages
    # Translators: joins the items of a list, e.g. "2 taken, 4 dropped"
    "list-separator": gettext_noop(", "),
    # Translators: a refusal with the rule it enforces, e.g. "WBF 17: both dice ..."
    "rule-cited": gettext_noop("%(rule)s: %(reason)s"),
    "points": ngettext_noop("%(count)s point", "%(count)s points"),
    "side-on-roll": gettext_noop("the player on roll"),
    "side-opponent": gettext_noop("the opponent"),
    "place-off": gettext_noop("the tray (borne off)"),
    "place-bar": gettext_noop("the bar"),
    # --- money play: the options of a session and what a game is worth (rules/money.py)
    "raccoon-without-beaver": gettext_noop("raccoons are played only where beavers are allowed"),
    "automatic-doubles-count": gettext_noop(
        "the most automatic doubles a game is a whole number, 0 or more, not %(count)s"
    ),
    "max-cube-power": gettext_noop("the highest cube is a power of 2 from 2 up, not %(cube)s"),
    "max-cube": gettext_noop("the cube may not pass %(max)s, the highest agreed: not %(cube)s"),
    "raccoon-match": gettext_noop("raccoons are a money-play rule, never used in a match"),
    "raccoon-off": gettext_noop("this money game is played without raccoons"),
    "raccoon-after-beaver": gettext_noop(
        "a raccoon answers a beaver: the original doubler turns the cube again"
    ),
    "raccoon-no-otter": gettext_noop(
        "the raccoon is answered by the beaverer, who takes or drops (no otters)"
    ),
    "not-now-raccoon": gettext_noop("a raccoon is not possible now"),
    "note-raccoon": gettext_noop(
        "raccoons: redoubles to %(cube)s, the cube staying with the beaverer"
    ),
    "note-automatic-double": gettext_noop(
        "equal dice: automatic double, the cube at %(cube)s in the centre; roll again"
    ),
    # --- money play: end of section (the chouette's messages are at the end of the catalog)
    "place-point": gettext_noop("point %(point)s"),
    # --- dice
    "die-range": gettext_noop("a die shows 1 to 6, not %(die)s"),
    "roll-two-dice": gettext_noop("a roll is two dice, got %(count)s"),
    "no-dice-entered": gettext_noop("no dice have been entered for this roll"),
    # --- positions and their IDs
    "counts-length": gettext_noop(
        "%(side)s needs 26 counts (off, points 1-24, bar), got %(count)s"
    ),
    "counts-value": gettext_noop("%(side)s has %(value)s checkers on %(place)s"),
    "checker-total": gettext_noop("%(side)s has %(total)s checkers; each side has exactly 15"),
    "point-both-sides": gettext_noop(
        "point %(point)s of the player on roll (the opponent's %(theirs)s) "
        "has checkers of both sides"
    ),
    "position-id-length": gettext_noop("a Position ID has 14 characters, %(text)s has %(length)s"),
    "position-id-alphabet": gettext_noop(
        "%(text)s is not a Position ID: only letters, digits, '+' and '/' are allowed"
    ),
    "position-id-checkers": gettext_noop("%(text)s gives %(side)s more than 15 checkers (WBF 1)"),
    "impossible-board": gettext_noop("%(text)s is not a possible board: %(reason)s"),
    "match-id-cube": gettext_noop("a cube shows a power of two, not %(cube)s"),
    # Translators: field is the name of a Match ID field, e.g. "score0"
    "match-id-field": gettext_noop("%(field)s %(value)s does not fit a Match ID"),
    "match-id-length": gettext_noop("a Match ID has 12 characters, %(text)s has %(length)s"),
    "match-id-alphabet": gettext_noop(
        "%(text)s is not a Match ID: only letters, digits, '+' and '/' are allowed"
    ),
    "match-id-owner": gettext_noop("%(text)s gives the cube to no valid owner"),
    "match-id-dice": gettext_noop("%(text)s holds dice %(dice)s, which no roll shows"),
    "match-id-state": gettext_noop("%(text)s holds an unknown game state"),
    "xgid-fields": gettext_noop("an XGID has 10 fields separated by ':', %(text)s has %(count)s"),
    "xgid-board-length": gettext_noop(
        "the board field of an XGID has 26 characters, not %(length)s"
    ),
    "xgid-board-char": gettext_noop("%(char)s in an XGID board is neither a checker nor '-'"),
    "xgid-board-place": gettext_noop("position %(index)s of an XGID board cannot hold %(char)s"),
    "xgid-numbers": gettext_noop("%(text)s: the fields after the board must be numbers"),
    "xgid-range": gettext_noop("%(text)s: turn, cube owner or cube value out of range"),
    "xgid-dice": gettext_noop("%(dice)s is not an XGID dice field"),
    # --- play notation and legal plays
    "not-a-move": gettext_noop(
        "%(token)s is not a move: write it as from/to, e.g. 13/7 or bar/22 or 6/off"
    ),
    "move-upwards": gettext_noop(
        "%(token)s moves from %(source)s to %(destination)s: "
        "a move is written from the higher point to the lower"
    ),
    "move-repeats": gettext_noop("%(token)s: a move is repeated at most 4 times"),
    "too-many-moves": gettext_noop("%(text)s has more moves than one roll allows"),
    "no-such-point": gettext_noop(
        "%(token)s: there is no point %(point)s; points run from 1 to 24"
    ),
    "roll-must-be-played": gettext_noop("the roll %(roll)s can be played, so it must be"),
    "no-checker-on-bar-to-move": gettext_noop("there is no checker of yours on the bar to move"),
    "no-checker-on-point-to-move": gettext_noop(
        "there is no checker of yours on point %(point)s to move"
    ),
    "ambiguous-play": gettext_noop("%(text)s fits more than one legal play: %(plays)s"),
    "no-legal-play-turn-lost": gettext_noop("no legal play exists for %(roll)s: the turn is lost"),
    "no-legal-play": gettext_noop("no legal play exists for %(roll)s"),
    "double-moves-must-be-played": ngettext_noop(
        "%(count)s of the four moves of %(roll)s can be played, so %(count)s must be",
        "%(count)s of the four moves of %(roll)s can be played, so %(count)s must be",
    ),
    "higher-die": gettext_noop("only one die can be played, and it must be the higher, %(die)s"),
    "both-dice": gettext_noop("both dice can be played, so both must be"),
    "not-a-legal-play": gettext_noop("the moves do not make up a legal play of this roll"),
    "play-not-legal": gettext_noop("%(play)s is not a legal play of this roll"),
    # Translators: hop is one checker's move, e.g. "13/7"; reason says what it breaks
    "hop": gettext_noop("%(hop)s: %(reason)s"),
    "no-checker-on-bar": gettext_noop("there is no checker of yours on the bar"),
    "no-checker-on-point": gettext_noop("there is no checker of yours on point %(point)s"),
    "bar-first": gettext_noop("a checker on the bar must enter before any other moves"),
    "held-point": gettext_noop("point %(point)s is held by two or more opposing checkers"),
    "bear-off-not-home": gettext_noop(
        "bearing off needs all your checkers in your home board (%(count)s still outside)"
    ),
    "bear-off-higher": gettext_noop(
        "a %(die)s bears off from point %(point)s only when no checker stands higher"
    ),
    # Translators: left lists the dice not used yet, e.g. "1, 3"
    "hop-too-far": ngettext_noop(
        "%(hop)s moves %(count)s pip, and the dice left of %(roll)s (%(left)s) "
        "cannot move a checker that far",
        "%(hop)s moves %(count)s pips, and the dice left of %(roll)s (%(left)s) "
        "cannot move a checker that far",
    ),
    "hop-too-far-no-dice": ngettext_noop(
        "%(hop)s moves %(count)s pip, and the dice left of %(roll)s (none) "
        "cannot move a checker that far",
        "%(hop)s moves %(count)s pips, and the dice left of %(roll)s (none) "
        "cannot move a checker that far",
    ),
    "play-complete": gettext_noop(
        "%(hop)s: the play %(play)s is complete; confirm it or take a move back"
    ),
    "rest-unplayable": gettext_noop(
        "%(hop)s: after it the rest of the roll cannot be played as the rules require "
        "(both dice when both can be played, the higher when only one can)"
    ),
    "cannot-move-die": gettext_noop("%(point)s cannot move a %(die)s here"),
    # --- a game's actions
    "game-over": gettext_noop("the game is over"),
    "crawford-double": gettext_noop("game %(number)s is the Crawford game: no doubling"),
    "double-after-opening": gettext_noop("the cube can be turned only after the opening roll"),
    "double-own-turn": gettext_noop(
        "a player doubles at the start of their own turn, before rolling"
    ),
    "redouble-owner": gettext_noop("only the owner of the cube may redouble"),
    "holland": gettext_noop(
        "under the Holland rule the trailer may not double before their third turn"
    ),
    "beaver-match": gettext_noop("beavers are a money-play rule, never used in a match"),
    "beaver-off": gettext_noop("this money game is played without beavers"),
    "beaver-twice": gettext_noop(
        "the beaver is answered by the original doubler, who takes or drops"
    ),
    "resignation-levels": gettext_noop(
        "a resignation gives up a single game, a gammon or a backgammon"
    ),
    # Translators: refusal says what cannot be done; waiting what the game waits for
    "not-now": gettext_noop("%(refusal)s: %(waiting)s"),
    "no-resignation-now": gettext_noop("no resignation can be offered now"),
    "not-now-opening-roll": gettext_noop("the opening roll is not possible now"),
    "not-now-roll": gettext_noop("a roll is not possible now"),
    "not-now-start": gettext_noop("starting the game is not possible now"),
    "not-now-play": gettext_noop("a play is not possible now"),
    "not-now-take": gettext_noop("a take is not possible now"),
    "not-now-drop": gettext_noop("a drop is not possible now"),
    "not-now-beaver": gettext_noop("a beaver is not possible now"),
    "not-now-answer": gettext_noop("an answer to a resignation is not possible now"),
    "waiting-opening": gettext_noop("the game waits for the opening roll"),
    "waiting-roll": gettext_noop("player %(player)s is to double or roll"),
    "waiting-play": gettext_noop("player %(player)s is to play %(roll)s"),
    "waiting-play-due": gettext_noop("a play is due"),
    "waiting-answer": gettext_noop("player %(player)s is to take or drop"),
    "waiting-resignation": gettext_noop("player %(player)s is to accept or reject the resignation"),
    # --- match play
    "length-whole": gettext_noop("a match length is a whole number, not %(length)s"),
    "length-positive": gettext_noop("a match is played to at least 1 point, not %(length)s"),
    "odd-length": gettext_noop("a match is played to an odd number of points, not %(length)s"),
    "game-after-match": gettext_noop(
        "game %(number)s was recorded after the match was won %(a)s-%(b)s"
    ),
    "match-over": gettext_noop("the match is over: won %(a)s-%(b)s"),
    "game-after-win": gettext_noop(
        "game %(number)s could not have been played: the match is won %(a)s-%(b)s at game %(won)s"
    ),
    "cube-power": gettext_noop("a cube shows 1, 2, 4, 8, ..., not %(cube)s"),
    "resignation-points": gettext_noop(
        "a resignation gives up a single game, a gammon or a backgammon: "
        "%(single)s, %(gammon)s or %(backgammon)s points with the cube at %(cube)s, "
        "not %(points)s"
    ),
    "single-worth": ngettext_noop(
        "a single with the cube at %(cube)s is worth %(count)s point, not %(points)s",
        "a single with the cube at %(cube)s is worth %(count)s points, not %(points)s",
    ),
    "gammon-worth": ngettext_noop(
        "a gammon with the cube at %(cube)s is worth %(count)s point, not %(points)s",
        "a gammon with the cube at %(cube)s is worth %(count)s points, not %(points)s",
    ),
    "backgammon-worth": ngettext_noop(
        "a backgammon with the cube at %(cube)s is worth %(count)s point, not %(points)s",
        "a backgammon with the cube at %(cube)s is worth %(count)s points, not %(points)s",
    ),
    "drop-worth": ngettext_noop(
        "a drop with the cube at %(cube)s is worth %(count)s point, not %(points)s",
        "a drop with the cube at %(cube)s is worth %(count)s points, not %(points)s",
    ),
    # --- reading .mat files
    "mat-length": gettext_noop("expected the match length, e.g. '7 point match', not %(text)s"),
    "mat-no-length": gettext_noop(
        "expected the match length, e.g. '7 point match': the file has none"
    ),
    "mat-game-header": gettext_noop(
        "expected a game header such as 'Game %(number)s', not %(text)s"
    ),
    "mat-no-game": gettext_noop("expected 'Game 1' after the match length: the file has no game"),
    "mat-score-end": gettext_noop(
        "expected the players and the score, e.g. 'Alice : 0   Bob : 0', "
        "after the game header: the file ends"
    ),
    "mat-score": gettext_noop(
        "expected the players and the score, e.g. 'Alice : 0   Bob : 0', not %(text)s"
    ),
    "mat-move": gettext_noop(
        "expected a move line such as ' 3) 64: 24/18 13/9', a cube action or 'Wins 2 points', "
        "not %(text)s"
    ),
    "mat-variation": gettext_noop(
        "the file plays the variation %(variation)s: Crawford replays standard backgammon "
        "and Nackgammon only"
    ),
    "mat-time-line": gettext_noop(
        "%(text)s is not a penalty or forfeit line such as "
        "'Penalty: NAME 2 points (lateness)' or 'Forfeit: NAME (time)'"
    ),
    "mat-time-player": gettext_noop(
        "%(name)s is neither %(first)s nor %(second)s, the players of this match"
    ),
    "mat-after-forfeit": gettext_noop("a forfeit ends the match: nothing can follow it"),
    "mat-time-in-game": gettext_noop(
        "penalty points are given between games, not among a game's moves"
    ),
    # --- the command line
    "cli-roll": gettext_noop("%(text)s is not a roll: write two dice, e.g. 65 or 6-5"),
    "cli-positions": gettext_noop("give a file of positions (e.g. gnubg-legal.jsonl) or --games N"),
    "cli-mat-files": gettext_noop("give a .mat file or a folder of them"),
    # --- replaying a match log: each problem's kind, as a short title
    "kind-illegal-play": gettext_noop("illegal play"),
    "kind-dice": gettext_noop("dice that do not fit the play"),
    "kind-unknown-play": gettext_noop("play not recorded"),
    "kind-crawford-double": gettext_noop("Crawford double"),
    "kind-cube-owner": gettext_noop("redouble without the cube"),
    "kind-cube-value": gettext_noop("wrong cube value"),
    "kind-cube-turn": gettext_noop("double at the wrong time"),
    "kind-no-double": gettext_noop("answer to no double"),
    "kind-beaver": gettext_noop("beaver in a match"),
    "kind-turn": gettext_noop("roll out of turn"),
    "kind-opening": gettext_noop("double as the opening roll"),
    "kind-result": gettext_noop("wrong result"),
    "kind-score": gettext_noop("wrong score"),
    "kind-players": gettext_noop("players' names"),
    "kind-after-end": gettext_noop("entry after the game ended"),
    "kind-no-result": gettext_noop("game without a result"),
    "kind-after-match": gettext_noop("game after the match"),
    "kind-unfinished": gettext_noop("unfinished match"),
    "kind-length": gettext_noop("even match length"),
    "kind-continued": gettext_noop("match continued from another file"),
    "kind-greedy-bear-off": gettext_noop("automatic bear-off"),
    "kind-rules": gettext_noop("entry the rules refuse"),
    "kind-not-read": gettext_noop("rest of the file not read"),
    # --- replaying a match log: the problems (name, other, winner...: players' names)
    "log-even-length": gettext_noop(
        "a %(length)s-point match: a match is played to an odd number of points (WBF 3); "
        "the games are replayed as a match to %(length)s, as written"
    ),
    "log-greedy-bear-off": gettext_noop(
        "in game %(number)s the server bore off by itself: %(name)s's rolls are written "
        "without a play where checkers came off, and the replay bears off as many as each "
        "roll allows, as the later lines agree"
    ),
    "log-continues": gettext_noop(
        "this file continues a match at %(a)s-%(b)s: the score is counted from there"
    ),
    "log-continues-post-crawford": gettext_noop(
        "this file continues a match at %(a)s-%(b)s: the score is counted from there; "
        "a double in its first game shows the Crawford game was already played (WBF 24)"
    ),
    "log-players": gettext_noop(
        "game %(number)s names the players %(first)s and %(second)s, "
        "the match %(left)s and %(right)s: the columns are read as in the first game"
    ),
    "log-after-match": gettext_noop(
        "game %(number)s was played after %(winner)s had won the match %(a)s-%(b)s (WBF 3): "
        "it does not count"
    ),
    "log-score": gettext_noop(
        "the log gives the score before game %(number)s as %(written_a)s-%(written_b)s; "
        "the games before it make it %(a)s-%(b)s"
    ),
    "log-claims-match": gettext_noop(
        "the log says game %(number)s wins the match, but the score after it is %(a)s-%(b)s "
        "in a match to %(length)s"
    ),
    "log-unfinished": ngettext_noop(
        "the match stops at %(a)s-%(b)s: nobody reached %(count)s point (WBF 3)",
        "the match stops at %(a)s-%(b)s: nobody reached %(count)s points (WBF 3)",
    ),
    "log-past-length": ngettext_noop(
        "the file goes on after game %(number)s, but a %(length)s-point match has at most "
        "%(count)s game that counts: the rest of the file is not read",
        "the file goes on after game %(number)s, but a %(length)s-point match has at most "
        "%(count)s games that count: the rest of the file is not read",
    ),
    "log-not-read": gettext_noop(
        "the file goes on after game %(number)s: the rest of the file is not read"
    ),
    # Translators: entry is the log's cell as written; reason a refusal with its rule
    "log-refused": gettext_noop("%(entry)s: %(reason)s; the entry is left out"),
    "log-no-result": gettext_noop("game %(number)s has no result: the log stops before it ended"),
    "log-unknown-play": gettext_noop(
        "%(name)s's play of %(roll)s is not recorded ('???'): "
        "the rest of game %(number)s cannot be checked against the board"
    ),
    "log-roll-after-end": gettext_noop("%(name)s rolls %(roll)s after game %(number)s ended"),
    "log-opening-double": gettext_noop(
        "the opening roll cannot be a double: equal dice are rolled again (WBF 12); "
        "%(name)s's %(roll)s is replayed as a first turn"
    ),
    "log-unanswered-double": gettext_noop(
        "%(name)s neither took nor dropped %(doubler)s's double before the next roll: "
        "the replay takes it as taken"
    ),
    "log-unanswered-beaver": gettext_noop(
        "%(name)s neither took nor dropped %(doubler)s's beaver before the next roll, as the "
        "doubler must after a beaver (Galore 2.8): the replay takes it as taken"
    ),
    "log-out-of-turn": gettext_noop(
        "%(name)s rolls %(roll)s out of turn: it is %(other)s's turn; the roll is left out"
    ),
    "log-ambiguous-play": gettext_noop("%(name)s plays %(play)s: %(reason)s"),
    "log-unplaceable-play": gettext_noop(
        "%(name)s plays %(play)s with %(roll)s: %(reason)s. The play cannot be put on the "
        "board, so the rest of game %(number)s cannot be checked"
    ),
    "log-illegal-play": gettext_noop(
        "%(name)s plays %(play)s with %(roll)s: %(reason)s. It stands: once the opponent "
        "rolls, an illegal play can no longer be corrected (WBF 14)"
    ),
    # Translators: the same, where the opponent did not roll or double after the play
    "log-illegal-play-last": gettext_noop("%(name)s plays %(play)s with %(roll)s: %(reason)s"),
    "log-nothing-played": gettext_noop(
        "%(name)s plays nothing with %(roll)s: %(reason)s. It stands: once the opponent "
        "rolls, an illegal play can no longer be corrected (WBF 14)"
    ),
    # Translators: the same, where the opponent did not roll or double after it
    "log-nothing-played-last": gettext_noop("%(name)s plays nothing with %(roll)s: %(reason)s"),
    "log-wrong-dice": gettext_noop(
        "that is a play of %(played)s, not of the %(written)s written (WBF 15)"
    ),
    "log-double-after-end": gettext_noop("%(name)s doubles after game %(number)s ended"),
    "log-cube-value": gettext_noop(
        "%(name)s doubles to %(value)s, but the cube stood at %(cube)s: "
        "a double offers %(offered)s (WBF 23)"
    ),
    "log-annulled": gettext_noop(
        "%(reason)s; the double is annulled and the game counts as if it had not been made"
    ),
    "log-crawford-double": gettext_noop(
        "%(name)s doubles, but game %(number)s is the Crawford game: no doubling (WBF 24)"
    ),
    "log-double-before-opening": gettext_noop("%(name)s doubles before the opening roll (WBF 23)"),
    "log-cube-owner": gettext_noop(
        "%(name)s doubles, but %(other)s owns the cube at %(cube)s: "
        "only the owner may redouble (WBF 23)"
    ),
    "log-double-out-of-turn": gettext_noop(
        "%(name)s doubles out of turn: a player doubles at the start of their own turn, "
        "before rolling (WBF 23)"
    ),
    "log-double-refused": gettext_noop("%(name)s doubles: %(reason)s"),
    "log-beaver-in-match": gettext_noop(
        "%(name)s beavers: beavers are a money-play rule, never used in a match (Galore 4); "
        "taken as a plain take"
    ),
    "log-take-after-end": gettext_noop("%(name)s takes after game %(number)s ended"),
    "log-drop-after-end": gettext_noop("%(name)s drops after game %(number)s ended"),
    "log-beaver-after-end": gettext_noop("%(name)s beavers after game %(number)s ended"),
    "log-resign-after-end": gettext_noop("%(name)s resigns after game %(number)s ended"),
    "log-take-no-double": gettext_noop("%(name)s takes, but no double was offered"),
    "log-drop-no-double": gettext_noop("%(name)s drops, but no double was offered"),
    "log-beaver-no-double": gettext_noop("%(name)s beavers, but no double was offered"),
    "log-take-not-offered": gettext_noop(
        "%(name)s takes, but no double was offered to them (WBF 23)"
    ),
    "log-drop-not-offered": gettext_noop(
        "%(name)s drops, but no double was offered to them (WBF 23)"
    ),
    "log-beaver-not-offered": gettext_noop(
        "%(name)s beavers, but no double was offered to them (WBF 23)"
    ),
    "log-second-result": gettext_noop("a second result for game %(number)s"),
    # Translators: how says how the game ended, e.g. "the double was dropped with the cube at 2"
    "log-wrong-winner": gettext_noop(
        "the log says %(name)s wins game %(number)s, but %(how)s: %(winner)s won it"
    ),
    # Translators: written and worth are numbers of points, e.g. "2 points"
    "log-wrong-points": gettext_noop(
        "the log says %(name)s wins %(written)s, but %(how)s: %(worth)s"
    ),
    "log-resignation-points": ngettext_noop(
        "%(count)s point is not a single game, gammon or backgammon with the cube at %(cube)s "
        "(WBF 25): taken as written",
        "%(count)s points is not a single game, gammon or backgammon with the cube at %(cube)s "
        "(WBF 25): taken as written",
    ),
    "log-how-drop": gettext_noop("the double was dropped with the cube at %(cube)s (WBF 23)"),
    "log-how-resignation": gettext_noop(
        "the resignation gave up %(points)s with the cube at %(cube)s"
    ),
    "log-how-single": gettext_noop("the board shows a single with the cube at %(cube)s (WBF 25)"),
    "log-how-gammon": gettext_noop("the board shows a gammon with the cube at %(cube)s (WBF 25)"),
    "log-how-backgammon": gettext_noop(
        "the board shows a backgammon with the cube at %(cube)s (WBF 25)"
    ),
    # what the engine's log says of an action, beside it on a game's log page
    "note-opening-again": gettext_noop("equal dice: roll again (WBF 12)"),
    "note-no-opening": gettext_noop("no opening roll: this player starts"),
    "note-offers": gettext_noop("offers the cube at %(cube)s"),
    "note-to-doubler": ngettext_noop(
        "%(count)s point to the doubler", "%(count)s points to the doubler"
    ),
    "note-cube": gettext_noop("cube at %(cube)s"),
    # Translators: a beaver: the player doubled takes and at once redoubles, keeping the cube
    "note-beaver": gettext_noop("beavers: redoubles to %(cube)s, keeping the cube"),
    "note-no-play": gettext_noop("no legal play: the turn is lost (WBF 17)"),
    # --- a game's cube actions in a few words: "2 taken, 4 dropped"
    # Translators: the list of a game's cube actions, e.g. "2 taken, 4 dropped"
    "cube-story": gettext_noop("%(actions)s"),
    # Translators: a double to this cube value, not answered in the log
    "cube-offered": gettext_noop("%(cube)s"),
    "cube-taken": gettext_noop("%(cube)s taken"),
    "cube-dropped": gettext_noop("%(cube)s dropped"),
    "cube-beavered": gettext_noop("%(cube)s beavered"),
    # Translators: a double the rules annulled (e.g. in the Crawford game)
    "cube-annulled": gettext_noop("%(cube)s annulled"),
    "cube-annulled-taken": gettext_noop("%(cube)s annulled taken"),
    "cube-annulled-dropped": gettext_noop("%(cube)s annulled dropped"),
    "cube-annulled-beavered": gettext_noop("%(cube)s annulled beavered"),
    # --- the chouette (rules/chouette/): refusals and the session log
    "chouette-player": gettext_noop("%(player)s"),
    "chouette-partner-from": gettext_noop(
        "a partner for the box comes with 3 or more players, or never, not %(count)s"
    ),
    "chouette-settings-data": gettext_noop("not the settings of a chouette: %(data)s"),
    "chouette-event-data": gettext_noop("not an event of a chouette: %(data)s"),
    "chouette-replay-event": gettext_noop("event %(index)s: %(reason)s"),
    "chouette-not-opened": gettext_noop("a chouette begins with the opening roll"),
    "chouette-opened": gettext_noop("the opening roll has already set the order"),
    "chouette-opening-players": gettext_noop(
        "the opening roll needs at least two players, not %(count)s"
    ),
    "chouette-opening-die": gettext_noop("%(player)s rolled %(die)s: a die shows 1 to 6"),
    "chouette-opening-tie": gettext_noop(
        "%(player)s and %(other)s rolled the same number: they roll again"
    ),
    "chouette-opening-reroll": gettext_noop("%(player)s rolled again without a tie to break"),
    "chouette-at-table": gettext_noop("%(player)s is already at the table"),
    "chouette-not-at-table": gettext_noop("%(player)s is not at the table"),
    "chouette-resting": gettext_noop("%(player)s is already on a break"),
    "chouette-not-resting": gettext_noop("%(player)s is not on a break"),
    "chouette-last-player": gettext_noop(
        "%(player)s is the box and nobody in the team could take the box"
    ),
    "chouette-in-game": gettext_noop(
        "%(player)s is still in game %(number)s: finish it or settle with a deal first"
    ),
    "chouette-game-on": gettext_noop("game %(number)s is still being played"),
    "chouette-no-game": gettext_noop("no game is being played"),
    "chouette-no-captain": gettext_noop("a game needs a box and a captain: two players at least"),
    "chouette-no-undo": gettext_noop("there is no game to undo"),
    "chouette-undo-breaks": gettext_noop(
        "game %(number)s cannot be undone: a later event would break (%(reason)s)"
    ),
    "chouette-partner-off": gettext_noop("this chouette is played without a partner for the box"),
    "chouette-partner-few": gettext_noop(
        "the box may have a partner with %(needed)s players or more, and %(count)s are playing"
    ),
    "chouette-partner-member": gettext_noop("%(player)s is not in the team"),
    "chouette-partner-last": gettext_noop("the team's only member cannot be the box's partner"),
    "chouette-answer-due": gettext_noop("the cube waits for an answer first"),
    "chouette-answer-word": gettext_noop("an answer is take, drop or beaver, not %(answer)s"),
    "chouette-not-playing": gettext_noop("%(player)s is not playing game %(number)s"),
    "chouette-named-twice": gettext_noop("%(player)s is named twice"),
    "chouette-no-members": gettext_noop("name at least one member of the team"),
    "chouette-max-cube": gettext_noop("the cube may not go past %(cube)s, as agreed"),
    "chouette-automatic-off": gettext_noop("this chouette is played without automatic doubles"),
    "chouette-automatic-late": gettext_noop(
        "an automatic double comes with the opening roll, before any cube action"
    ),
    "chouette-automatic-count": gettext_noop("at most %(count)s automatic doubles a game"),
    "chouette-box-doubles-all": gettext_noop(
        "with a single cube the box doubles every member still in the game"
    ),
    "chouette-box-cube": gettext_noop(
        "the box may not double %(player)s: the cube is theirs, or an answer is due"
    ),
    "chouette-member-cube": gettext_noop(
        "%(player)s may not double: the box owns the cube, or an answer is due"
    ),
    "chouette-acting-captain": gettext_noop(
        "with a single cube the team's cube goes through its captain, %(player)s"
    ),
    "chouette-no-offer": gettext_noop("%(player)s has no double to answer"),
    "chouette-box-no-offer": gettext_noop("the box has no double of %(player)s to answer"),
    "chouette-beaver-off": gettext_noop("this chouette is played without beavers"),
    "chouette-beaver-answer": gettext_noop("a beaver or a raccoon is answered by a take or a drop"),
    "chouette-raccoon-off": gettext_noop("this chouette is played without raccoons"),
    "chouette-no-beaver": gettext_noop("the cube of %(player)s has no beaver to raccoon"),
    "chouette-last-must-drop": gettext_noop(
        "with 5 or more players, when all the other members drop the last one must drop too"
    ),
    "chouette-extra-off": gettext_noop("this chouette is played without extra cubes"),
    "chouette-extra-not-now": gettext_noop(
        "%(player)s may not give an extra cube: only a member who dropped the box's first "
        "double, when a single member took it, before the next cube action"
    ),
    "chouette-no-extra": gettext_noop("%(player)s has no extra cube"),
    "chouette-extra-owner": gettext_noop(
        "only the owner of the extra cube of %(player)s may redouble it"
    ),
    "chouette-extra-no-offer": gettext_noop(
        "the extra cube of %(player)s has no redouble to answer"
    ),
    "chouette-deal-points": gettext_noop("a deal is a whole number of points, not %(points)s"),
    "chouette-deal-winner": gettext_noop(
        "a deal with the captain, %(player)s, says who won the game, for the rotation"
    ),
    "chouette-deal-no-winner": gettext_noop("only a deal with the captain says who won the game"),
    # the session log
    "chouette-log-roll": gettext_noop("%(player)s rolled %(die)s"),
    "chouette-log-opening": gettext_noop("the opening roll: %(rolls)s"),
    "chouette-log-join": gettext_noop("%(player)s joins at the bottom"),
    "chouette-log-leave": gettext_noop("%(player)s leaves the table"),
    "chouette-log-rest": gettext_noop("%(player)s takes a break"),
    "chouette-log-back": gettext_noop("%(player)s is back, at the bottom"),
    "chouette-log-partner": gettext_noop("%(player)s is the box's partner"),
    "chouette-log-no-partner": gettext_noop("the box plays without a partner"),
    "chouette-log-start": gettext_noop("a game begins"),
    "chouette-log-automatic": gettext_noop("automatic double: every cube doubled"),
    "chouette-log-box-doubles": gettext_noop("the box doubles %(members)s"),
    "chouette-log-take": gettext_noop("%(player)s takes"),
    "chouette-log-drop": gettext_noop("%(player)s drops"),
    "chouette-log-beaver": gettext_noop("%(player)s beavers"),
    "chouette-log-raccoon": gettext_noop("raccoon on the cube of %(player)s"),
    "chouette-log-member-doubles": gettext_noop("%(player)s doubles the box"),
    "chouette-log-box-take": gettext_noop("the box takes the double of %(player)s"),
    "chouette-log-box-drop": gettext_noop("the box drops the double of %(player)s"),
    "chouette-log-box-beaver": gettext_noop("the box beavers the double of %(player)s"),
    "chouette-log-extra": gettext_noop("%(player)s gives the lone taker an extra cube"),
    "chouette-log-extra-taker": gettext_noop(
        "the lone taker redoubles the extra cube of %(player)s"
    ),
    "chouette-log-extra-member": gettext_noop("%(player)s redoubles their extra cube"),
    "chouette-log-extra-take": gettext_noop(
        "the redouble of the extra cube of %(player)s is taken"
    ),
    "chouette-log-extra-drop": gettext_noop(
        "the redouble of the extra cube of %(player)s is dropped"
    ),
    "chouette-log-deal-pay": ngettext_noop(
        "deal: %(members)s pay the box %(count)s point each",
        "deal: %(members)s pay the box %(count)s points each",
    ),
    "chouette-log-deal-paid": ngettext_noop(
        "deal: the box pays %(members)s %(count)s point each",
        "deal: the box pays %(members)s %(count)s points each",
    ),
    "chouette-log-deal-even": gettext_noop("deal: %(members)s and the box settle at no points"),
    "chouette-log-deal-box-wins": gettext_noop("%(deal)s; the box wins the game"),
    "chouette-log-deal-team-wins": gettext_noop("%(deal)s; the team wins the game"),
    "chouette-level-single": gettext_noop("a single game"),
    "chouette-level-gammon": gettext_noop("a gammon"),
    "chouette-level-backgammon": gettext_noop("a backgammon"),
    "chouette-log-end-box-wins": gettext_noop("the box wins %(level)s"),
    "chouette-log-end-team-wins": gettext_noop("the team wins %(level)s"),
    "chouette-log-end-team-resigns": gettext_noop("the team resigns %(level)s"),
    "chouette-log-end-box-resigns": gettext_noop("the box resigns %(level)s"),
    "chouette-log-undo": gettext_noop("the last game is undone"),
    # the settings a table agreed, shown to everyone
    "chouette-setting-single": gettext_noop("a single cube for the team (Galore 3.3)"),
    "chouette-setting-multiple": gettext_noop("a cube for each member (Galore 3.5)"),
    "chouette-setting-consultation-free": gettext_noop("consultation: free (Galore 3.2)"),
    "chouette-setting-consultation-forbidden": gettext_noop("consultation: forbidden (Galore 3.2)"),
    "chouette-setting-consultation-after-cube": gettext_noop(
        "consultation: only once the cube has moved (Galore 3.2)"
    ),
    "chouette-setting-box-captain": gettext_noop(
        "the box keeps the box until beaten by the captain (Galore 3.5)"
    ),
    "chouette-setting-box-net": gettext_noop(
        "the box keeps the box unless it loses the game on balance (club practice)"
    ),
    "chouette-setting-winners-move-up": gettext_noop(
        "members who beat the box move ahead of those who lost (club practice)"
    ),
    "chouette-setting-last-must-drop": gettext_noop(
        "with 5 or more players, when all the other members drop the last one drops too "
        "(Galore 3.4)"
    ),
    "chouette-setting-extra-cubes": gettext_noop(
        "a lone taker of the box's first double accepts extra 2-cubes (Galore 3.4)"
    ),
    "chouette-setting-partner": gettext_noop(
        "the box may have a partner from %(count)s players (Galore 3.6)"
    ),
    "chouette-setting-no-partner": gettext_noop("the box never has a partner"),
    "chouette-setting-jacoby": gettext_noop(
        "the Jacoby rule: gammons count single until a cube is turned (Galore 2.8)"
    ),
    "chouette-setting-beavers": gettext_noop("beavers (Galore 2.8)"),
    "chouette-setting-raccoons": gettext_noop("raccoons (Galore 5.4)"),
    "chouette-setting-automatic": ngettext_noop(
        "at most %(count)s automatic double a game (Galore 2.8)",
        "at most %(count)s automatic doubles a game (Galore 2.8)",
    ),
    "chouette-setting-max-cube": gettext_noop("the cube stops at %(cube)s"),
    "chouette-setting-nackgammon": gettext_noop("nackgammon: the games start from its position"),
    # --- the chouette: end of section
    # --- time: clocks (tournament rules)
    "clock-time-backwards": gettext_noop(
        "the time %(at)s ms is earlier than the clock's last time, %(last)s ms"
    ),
    "clock-not-running": gettext_noop("the clock is not running"),
    "clock-running": gettext_noop("the clock is already running"),
    "clock-paused": gettext_noop("the clock is paused: resume it"),
    "clock-not-paused": gettext_noop("the clock is not paused"),
    "clock-flag-fallen": gettext_noop("player %(player)s has run out of time: the flag has fallen"),
    # --- time: penalty points and forfeits in a match's history (tournament rules)
    "penalty-after-win": gettext_noop(
        "penalty points before game %(number)s could not have been given: "
        "the match is won %(a)s-%(b)s"
    ),
    "forfeit-after-win": gettext_noop(
        "a forfeit could not have happened: the match is won %(a)s-%(b)s"
    ),
    "game-after-penalty-win": gettext_noop(
        "game %(number)s could not have been played: penalty points won the match %(a)s-%(b)s"
    ),
    "game-after-forfeit": gettext_noop(
        "game %(number)s could not have been played: the match was forfeited, %(a)s-%(b)s"
    ),
    "time-money": gettext_noop("penalty points and forfeits belong to a match, not to money play"),
    # --- time: end of section
}
