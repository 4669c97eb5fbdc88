"""How the matches app tells the apps above it that a result changed.

The tournaments app moves winners on and updates ratings when a result is
recorded, and forbids a correction once a later match has begun (US rules
4.10). This app sits below it and does not import it: the tournaments app
registers a listener at start-up (``AppConfig.ready``), and every service that
writes a result calls :func:`result_correction_check` before a correction and
:func:`result_announce` in its transaction, so a listener's refusal undoes the
whole change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .models import Match


class ResultListener(Protocol):
    def correction_check(self, *, match: Match) -> None:
        """Raise ValidationError if the match's result may no longer change."""

    def result_changed(self, *, match: Match, user: Any, corrected: bool) -> None:
        """The match's result was recorded or changed, in the writing transaction."""


_listeners: list[ResultListener] = []


def register_result_listener(listener: ResultListener) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def result_correction_check(*, match: Match) -> None:
    for listener in _listeners:
        listener.correction_check(match=match)


def result_announce(*, match: Match, user: Any, corrected: bool = False) -> None:
    for listener in _listeners:
        listener.result_changed(match=match, user=user, corrected=corrected)
