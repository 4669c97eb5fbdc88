"""A Celery worker for the tests, with the tests' kinds of work registered (tests/jobs/kinds.py):

    python tests/jobs/worker.py

The environment says where: DATABASE_URL (the test database), CELERY_BROKER_URL,
CELERY_KEY_PREFIX. One process (--pool solo), as a small server's worker would run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_dev")
    import django

    django.setup()
    import tests.jobs.kinds  # noqa: F401  (registers the tests' kinds)
    from config.celery import app

    app.worker_main(
        [
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "WARNING",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ]
    )


if __name__ == "__main__":
    main()
