"""``{{ message|say }}``: an engine message (a replay problem, an illegal play) in the
visitor's language."""

from django import template

from club.words import say as say_message
from rules.messages import Message

register = template.Library()


@register.filter
def say(message: Message | None) -> str:
    return "" if message is None else say_message(message)
