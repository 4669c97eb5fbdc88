"""config.settings as on a developer's laptop, for the test suite and the type checker.

DEBUG is off unless the environment turns it on (a server never has to remember to); `make
run` turns it on for itself. The suite and mypy (its Django plugin imports the settings) read
the settings the same way, whatever the shell says: DEBUG on while they are read, so the
development SECRET_KEY is allowed, the static files come from the apps (none collected) and
cookies go over plain http (the live-server tests). pytest-django then runs every test with
DEBUG off, like a server. The tests of the settings themselves start Python afresh with
config.settings and an environment of their own (tests/site/test_settings.py).
"""

import os

os.environ["DEBUG"] = "1"  # also for the processes a test starts, as make run's would have

from config.settings import *  # noqa: F403
