"""How far a running job got, in the cache every process shares (Redis on a server).

A handler may do all its work in one transaction (the ratings do: the history changes whole or
not at all), and no other connection sees its writes before the end; the cache does. When the
cache is down the page shows the row's figures: "running", with no bar.
"""

from __future__ import annotations

import time

from club.cache import cache

# kept a day: long enough for any job, short enough never to pile up
KEEP_SECONDS = 86_400
# a job whose handler has not said anything for this long is taken as lost (its worker died):
# it may be started again (jobs.services.job_retry)
QUIET_MINUTES = 15


def _key(job_id: int) -> str:
    return f"jobs:progress:{job_id}"


def progress_say(job_id: int, done: int, total: int) -> None:
    cache.set(_key(job_id), (done, total, time.time()), KEEP_SECONDS)


def progress_read(job_id: int) -> tuple[int, int, float] | None:
    """(done, total, when it was said) or None: nothing said, or the cache down."""
    found = cache.get(_key(job_id))
    if isinstance(found, tuple | list) and len(found) == 3:
        return int(found[0]), int(found[1]), float(found[2])
    return None
