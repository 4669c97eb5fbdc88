"""How the matches app tells the apps above it that a result changed.

The tournaments app moves winners on and updates ratings when a result is
recorded, and forbids a correction once a later match has begun (US rules
4.10). This app sits below it and does not import it: the tournaments app
registers a listener at start-up (``AppConfig.ready``), and every service that
writes a result calls :func:`result_correction_check` before a correction and
:func:`result_announce` in its transaction, so a listener's refusal undoes the
whole change.

A listener may itself record results: advancement makes a withdrawn player's next
match a walkover, which is announced in turn. Those announcements are collected, not
handled inside the listener that made them: within one change (the outermost
:func:`results_collected`, which :func:`result_announce` opens when none is open) the
results announced wait in a queue, and when the change's own work is done each is
handed to every listener, in the order announced, until the queue is empty. Each
listener sees each changed match once (a match announced again before it was handled
is handled once, in its latest state), nothing is handled in the middle of another
listener's work, and it all happens in the caller's transaction: a refusal from any
listener, at any depth, undoes everything.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from club.actors import Actor

    from .models import Match


class ResultListener(Protocol):
    def correction_check(self, *, match: Match) -> None:
        """Raise ValidationError if the match's result may no longer change."""

    def result_changed(self, *, match: Match, user: Actor, corrected: bool) -> None:
        """The match's result was recorded or changed, in the writing transaction."""


@dataclass
class _Announced:
    match: Match
    user: Actor
    corrected: bool


_listeners: list[ResultListener] = []
# the results announced in the change being made and not yet handled (None: no change open)
_waiting: ContextVar[list[_Announced] | None] = ContextVar("results_waiting", default=None)


def register_result_listener(listener: ResultListener) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def unregister_result_listener(listener: ResultListener) -> None:
    """Stop telling a listener (a test's, once the test is over)."""
    if listener in _listeners:
        _listeners.remove(listener)


def result_correction_check(*, match: Match) -> None:
    for listener in _listeners:
        listener.correction_check(match=match)


@contextmanager
def results_collected() -> Iterator[None]:
    """Collect the results announced inside and hand them to the listeners when the block
    is done, each once (see the module). Inside another such block it only collects: the
    outermost hands them on. The results announced by a block that fails are dropped with
    it (its transaction, or savepoint, undoes them)."""
    waiting = _waiting.get()
    if waiting is not None:  # an outer block hands them on
        mark = len(waiting)
        try:
            yield
        except BaseException:
            del waiting[mark:]
            raise
        return
    waiting = []
    token = _waiting.set(waiting)
    try:
        yield
        _hand_on(waiting)
    finally:
        _waiting.reset(token)


def _hand_on(waiting: list[_Announced]) -> None:
    """Every result waiting to every listener, in order, including those the listeners
    announce meanwhile (appended to the same list); a match announced again before it was
    handled is handled once, at its last announcement, corrected if any said so."""
    done = 0
    while done < len(waiting):
        announced = waiting[done]
        done += 1
        later = next((a for a in waiting[done:] if a.match.pk == announced.match.pk), None)
        if later is not None:
            later.corrected = later.corrected or announced.corrected
            continue
        for listener in list(_listeners):
            listener.result_changed(
                match=announced.match, user=announced.user, corrected=announced.corrected
            )


def result_announce(*, match: Match, user: Actor, corrected: bool = False) -> None:
    """The match's result was recorded or changed: the listeners are told once the change
    is made (at once, when no :func:`results_collected` block is open)."""
    with results_collected():
        waiting = _waiting.get()
        assert waiting is not None  # opened just above, or by a caller
        waiting.append(_Announced(match, user, corrected))
