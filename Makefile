# reelsmith: `make run` plays, `make test` proves. Both set up .venv/ on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two installs into the one .venv: what running needs (the core package), and everything
# (the core, the lab's and the cluster's extras, the test tools). Each stamp is newer than
# pyproject.toml once its install is done; the full install also makes the core one current,
# so `make run` after `make test` installs nothing, and `make test` after `make run` adds the
# rest.
STAMP := $(VENV)/.installed
CORE_STAMP := $(VENV)/.installed-core

.PHONY: run play warm test test-slow test-long reliability-report lint format bench wheel-smoke clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[dev,lab,cluster]'
	touch $(STAMP) $(CORE_STAMP)

$(CORE_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(CORE_STAMP)

# Where `make run` listens: make run PORT=8080 (HOST=0.0.0.0 to listen on every interface)
HOST ?= 127.0.0.1
PORT ?= 8000

run: $(CORE_STAMP)
	$(BIN)/reelsmith serve --demo --host $(HOST) --port $(PORT)

# The lab's compiled kernels, built now into the user's cache (~/.cache/reelsmith/numba) rather
# than by the first analyze or simulate. `make run` does not run it: on a fresh machine it takes
# minutes (docs/performance.md), and serving rounds needs none of the lab's kernels.
warm: $(CORE_STAMP)
	$(BIN)/reelsmith warm

# The title `make play` plays (any id `reelsmith titles` lists): make play TITLE=sultan-spins
TITLE ?= days-of-the-tsar

play: $(CORE_STAMP)
	$(BIN)/reelsmith play $(TITLE)

# How many processes run the suite (pytest-xdist; each test file stays on one process, so its
# fixtures are built once): make test TEST_WORKERS=0 runs it in this process. Each process
# compiles and holds its own kernels (about 2.5 GB at the most).
TEST_WORKERS ?= 2

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest -m "not slow" -n $(TEST_WORKERS) --dist loadfile

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

# The built wheel, installed into a fresh venv outside the source tree, serving the web client
# and a round of each title (CI runs it before `make test`).
wheel-smoke:
	$(PYTHON) tests/packaging/wheel_smoke.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache .mypy_cache
