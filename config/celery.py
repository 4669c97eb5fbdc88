"""The Celery application, for a server's job workers (docs/deployment.md):

    DJANGO_SETTINGS_MODULE=config.settings celery -A config.celery worker --concurrency 2

Its settings are Django's CELERY_* ones (config/settings.py: CELERY_BROKER_URL). The web
processes only import it when JOBS_BACKEND is "celery"; a laptop's `make run` never needs it.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["jobs"])
