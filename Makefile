# Everything a fresh machine needs comes from here: nothing is installed by hand.
# Python 3.11, 3.12 or 3.13: the first of these that runs and is in range, or PYTHON=... to choose.
SUPPORTED := 3.11, 3.12 or 3.13
IN_RANGE := import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))
PYTHON ?= $(firstword $(foreach python,python3.11 python3.12 python3.13 python3,\
	$(shell $(python) -c '$(IN_RANGE)' >/dev/null 2>&1 && echo $(python))))
VENV := .venv
BIN := $(VENV)/bin
# two stamps: what the site needs to run (make run), and the test tools on top (make test)
SITE_STAMP := $(VENV)/.installed-site
TEST_STAMP := $(VENV)/.installed-test
# pytest-xdist workers for the suite: one a core (docs/testing.md has the timings)
JOBS ?= auto

.PHONY: test lint lock bench run venue clean

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Crawford needs Python $(SUPPORTED): none of python3.11,\
	 python3.12, python3.13 or python3 is one. Install one, or set PYTHON=/path/to/python3.x"; exit 1; }
	@$(PYTHON) -c '$(IN_RANGE)' 2>/dev/null || { echo "Crawford needs Python $(SUPPORTED);\
	 $(PYTHON) is $$($(PYTHON) --version 2>/dev/null || echo 'not a Python that runs here')"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Installs come from the lock files in requirements/ (exact versions with their hashes, the same on
# every machine and Python), then the project itself without resolving anything again.
$(SITE_STAMP): pyproject.toml requirements/site.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/site.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(SITE_STAMP)

$(TEST_STAMP): $(SITE_STAMP) requirements/test.txt
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/test.txt
	touch $(TEST_STAMP)

# The lock files again from pyproject.toml (after a dependency changes there), for Python 3.11 to
# 3.13 at once: uv resolves them, from its own small environment in .venvs/lock.
LOCK := uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet\
	--custom-compile-command "make lock"
lock:
	@test -x .venvs/lock/bin/uv || { $(PYTHON) -m venv .venvs/lock && .venvs/lock/bin/python -m pip\
	 install --quiet 'uv>=0.5'; }
	.venvs/lock/bin/$(LOCK) -o requirements/site.txt
	.venvs/lock/bin/$(LOCK) --extra server -o requirements/server.txt
	.venvs/lock/bin/$(LOCK) --extra test -o requirements/test.txt

test: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(JOBS)

lint: $(TEST_STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# the engine beside gnubg and OpenSpiel in one run (OpenSpiel in .venvs/bench-openspiel, made
# there when missing), then the site's own benchmarks; writes their table into
# docs/benchmarks.md, with the machine (minutes)
bench: $(SITE_STAMP)
	$(BIN)/python scripts/bench_report.py

# DEBUG is off unless the environment turns it on (config/settings.py): make run turns it on for
# itself, the laptop only (127.0.0.1) with the development secret key and Django's error pages
run: $(SITE_STAMP)
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py demo_club
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# the evening at the club: served to the players' phones on this network (docs/deployment.md, A laptop);
# prints the address they open, which the QR codes carry. PORT=8001 to choose the port. The set-up
# runs as on the laptop (DEBUG=1, no secret key to make first); `manage.py venue` then serves the
# network with DEBUG off and a secret key of its own (.venue-secret-key).
PORT ?= 8000
venue: $(SITE_STAMP)
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py venue --port $(PORT)

clean:
	rm -rf $(VENV) .venvs .pytest_cache .ruff_cache .mypy_cache .hypothesis staticfiles
