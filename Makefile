# reelsmith: `make run` plays, `make test` proves. Both set up .venv/ on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play test test-slow test-long reliability-report lint format bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/reelsmith serve --demo --host 127.0.0.1 --port 8000

play: $(STAMP)
	$(BIN)/reelsmith play days-of-the-tsar

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest -m "not slow"

test-slow: $(STAMP)
	$(BIN)/pytest -m slow

# The reliability suite's long form (kill -9 x100 per database, 20k fuzzed requests, 100M RNG
# draws, dieharder, a 10-minute soak); it prints its figures at the end.
test-long: $(STAMP)
	command -v dieharder >/dev/null 2>&1 || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dieharder >/dev/null; }
	$(BIN)/pytest -m slow tests/reliability

# The short form alone (it also runs in `make test`), with its figures.
reliability-report: $(STAMP)
	$(BIN)/pytest -q -m "not slow" tests/reliability

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache .mypy_cache
