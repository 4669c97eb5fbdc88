"""The engine's messages in the visitor's language.

The rules engine (:mod:`rules`) says everything as a :class:`rules.messages.Message`,
a code with parameters, and knows no Django; here they are rendered through Django's
translation functions, so a refusal, a replay problem or an illegal play reads in the
language of whoever looks at it.
"""

from __future__ import annotations

from django.utils import translation

from rules.errors import RulesError
from rules.messages import Message


def say(message: Message) -> str:
    """A message in the active language."""
    return message.render(translation)


def sentence(error: RulesError) -> str:
    """A refusal as a director reads it: the sentence, then the rule it enforces, e.g.
    "Game 4 is the Crawford game: no doubling (WBF 24)." in the active language."""
    return error.sentence(translation)
