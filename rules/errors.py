"""One exception class per way a rules question can fail.

Every error carries the rule it enforces (``rule``, e.g. ``"WBF 17"``) so that
a director reading the message can check it against the rule book; the rule is
also part of the message text itself.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: something the rules, or the formats that record them, forbid."""

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        key: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        self.rule = rule
        self.reason = message
        # ``key`` and ``params`` let a translated interface say the same thing in its own
        # language (the site's Italian), without parsing the English message
        self.key = key
        self.params = params or {}
        super().__init__(f"{rule}: {message}" if rule else message)

    @property
    def plain(self) -> str:
        """The message as a sentence for a director, the rule at the end.

        >>> RulesError("game 4 is the Crawford game: no doubling", rule="WBF 24").plain
        'Game 4 is the Crawford game: no doubling (WBF 24).'
        """
        text = self.reason[:1].upper() + self.reason[1:]
        return f"{text} ({self.rule})." if self.rule else f"{text}."


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

    def __init__(self, message: str, *, line: int, rule: str | None = None) -> None:
        self.line = line
        super().__init__(message, rule=rule)

    def __str__(self) -> str:
        return f"line {self.line}: {super().__str__()}"
