# Everything a fresh machine needs comes from here: nothing is installed by hand.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test lint bench run clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed (set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python -m rules bench ../shared/bench/gnubg-legal.jsonl
	$(BIN)/python -m rules bench --games 200 --repeat 3
	$(BIN)/python -m rules bench ../shared/corpus/mat --replay --repeat 5
	$(BIN)/python -m tournaments.pairing.bench
	$(BIN)/python scripts/bench_bracket.py
	$(BIN)/python scripts/bench_board.py

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo_club
	$(BIN)/python manage.py runserver 127.0.0.1:8000

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis staticfiles
