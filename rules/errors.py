"""One exception class per way a rules question can fail.

Every error carries what it says as a :class:`rules.messages.Message` (a catalog
key and its parameters, so the site renders it in the visitor's language) and
the rule it enforces (``rule``, e.g. ``"WBF 17"``), so that a director reading
it can check it against the rule book.

>>> error = RulesError(Message("crawford-double", {"number": 4}), rule="WBF 24")
>>> str(error)
'WBF 24: game 4 is the Crawford game: no doubling'
>>> error.key, error.params["number"], error.reason
('crawford-double', 4, 'game 4 is the Crawford game: no doubling')
"""

from __future__ import annotations

from collections.abc import Mapping

from .messages import ENGLISH, Message, Param, Translator


class RulesError(ValueError):
    """Base class: something the rules, or the formats that record them, forbid."""

    def __init__(self, message: Message, *, rule: str | None = None) -> None:
        self.message = message
        self.rule = rule
        super().__init__(f"{rule}: {message}" if rule else str(message))

    @property
    def key(self) -> str:
        """The message's catalog key, e.g. ``"crawford-double"``."""
        return self.message.key

    @property
    def params(self) -> Mapping[str, Param]:
        """The message's parameters, e.g. ``{"number": 4}``."""
        return self.message.params

    @property
    def reason(self) -> str:
        """What is wrong, in English, without the rule."""
        return str(self.message)

    @property
    def cited(self) -> Message:
        """The message with its rule in front, as ``str(error)`` has it, to put in another."""
        if self.rule is None:
            return self.message
        return Message("rule-cited", {"rule": self.rule, "reason": self.message})

    def sentence(self, translate: Translator = ENGLISH) -> str:
        """The message as a sentence for a director, in ``translate``'s language, the rule last.

        >>> error = RulesError(Message("crawford-double", {"number": 4}), rule="WBF 24")
        >>> error.sentence()
        'Game 4 is the Crawford game: no doubling (WBF 24).'
        >>> class Italian:  # the site passes django.utils.translation
        ...     def gettext(self, text):
        ...         return {
        ...             "game %(number)s is the Crawford game: no doubling":
        ...                 "la partita %(number)s è la Crawford: nessun raddoppio",
        ...         }.get(text, text)
        ...     def ngettext(self, singular, plural, n):
        ...         return singular if n == 1 else plural
        >>> error.sentence(Italian())
        'La partita 4 è la Crawford: nessun raddoppio (WBF 24).'
        """
        text = self.message.render(translate)
        text = text[:1].upper() + text[1:]
        return f"{text} ({self.rule})." if self.rule else f"{text}."

    @property
    def plain(self) -> str:
        """:meth:`sentence` in English."""
        return self.sentence()


class InvalidPositionError(RulesError):
    """A board that cannot occur: wrong checker count, a point held by both sides."""


class InvalidPositionIdError(RulesError):
    """Text that is not a gnubg Position ID, or an ID of an impossible board."""


class InvalidMatchIdError(RulesError):
    """Text that is not a gnubg Match ID."""


class InvalidXgidError(RulesError):
    """Text that is not an eXtreme Gammon XGID."""


class InvalidDiceError(RulesError):
    """Dice that are not two numbers from 1 to 6."""


class InvalidPlayError(RulesError):
    """Play notation that cannot be read at all (a syntax error)."""


class IllegalPlayError(RulesError):
    """A readable play that the rules do not allow for this position and dice."""


class AmbiguousPlayError(RulesError):
    """Play notation that fits more than one legal play."""


class IllegalActionError(RulesError):
    """A game action (roll, double, take, resign, ...) not allowed at this moment."""


class InvalidMatchLengthError(RulesError):
    """A match length that is not an odd positive number."""


class MatchOverError(RulesError):
    """A game recorded after the match was already won."""


class MatFileError(RulesError):
    """A match file whose shape cannot be followed; ``line`` says where (1-based)."""

    def __init__(self, message: Message, *, line: int, rule: str | None = None) -> None:
        self.line = line
        super().__init__(message, rule=rule)

    def __str__(self) -> str:
        return f"line {self.line}: {super().__str__()}"
