"""Logs for people: a refusal is one line, a real error one traceback and a mail, rate-limited.

Django logs every request it refuses: a 403 (PermissionDenied) with its whole traceback, and a
request for a host not in ALLOWED_HOSTS, or any other SuspiciousOperation, as an ERROR with a
traceback, which also mails the admins. Anyone may send such requests as fast as they like,
and would fill the log and the admins' mailbox. A refusal is the client's doing, not the
site's: :class:`RefusalsInOneLine` makes it one line at WARNING. A server error (a 500) keeps
its traceback and is mailed (:class:`RateLimitedAdminEmailHandler`), at most
ADMIN_MAILS_PER_HOUR mails an hour from each process; the log keeps every one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils.log import AdminEmailHandler


def is_refusal(record: logging.LogRecord) -> bool:
    """A record about a request answered under 500 (Django's log_response says which): one
    the site refused (400, 403, 404, 405, 429...), not one it failed."""
    status = getattr(record, "status_code", None)
    return isinstance(status, int) and status < 500


class RefusalsInOneLine(logging.Filter):
    """On a handler: a refusal is written as one line at WARNING, without its traceback;
    dropped when the handler writes only above WARNING (LOG_LEVEL=ERROR)."""

    def __init__(self, level: str = "WARNING") -> None:
        super().__init__()
        self.level = int(logging.getLevelName(level))  # the number of a name: "WARNING", 30

    def filter(self, record: logging.LogRecord) -> bool:
        if is_refusal(record):
            if record.levelno > logging.WARNING:  # DisallowedHost and the other suspicions
                record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = record.stack_info = None
        return record.levelno >= self.level


class RateLimitedAdminEmailHandler(AdminEmailHandler):
    """Django's mail to the ADMINS for a server error, refusals never, and at most
    ADMIN_MAILS_PER_HOUR an hour (counted in this process: a cache that is down must not
    stop the mail that may say why); the next mail sent says how many were not."""

    clock: Callable[[], float] = staticmethod(time.monotonic)
    PERIOD = 3600

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Forget the mails sent (each test starts afresh)."""
        self._sent: deque[float] = deque()  # when each mail of the last hour was sent
        self._held = 0  # errors not mailed since the last mail
        self._note = ""

    def emit(self, record: logging.LogRecord) -> None:
        if is_refusal(record) or record.levelno < logging.ERROR:
            return
        with self._lock:
            now = self.clock()
            while self._sent and self._sent[0] <= now - self.PERIOD:
                self._sent.popleft()
            if len(self._sent) >= settings.ADMIN_MAILS_PER_HOUR:
                self._held += 1
                return
            self._sent.append(now)
            held, self._held = self._held, 0
            self._note = f" (and {held} more not mailed: see the log)" if held else ""
            super().emit(record)  # under the lock: the note is this mail's

    def format_subject(self, subject: str) -> str:
        return super().format_subject(subject + self._note)
