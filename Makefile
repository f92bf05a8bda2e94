# meeple: `make start` sets up and starts the site; `make test` sets up and runs every test.
.PHONY: setup start play test test-versions lint bench

setup:
	./scripts/setup.sh

start: setup
	.venv/bin/meeple serve

play: setup
	.venv/bin/meeple play koplus --players 3 --seats human,greedy,random

# `make test`'s stages, in order. Every stage runs even when one before it failed; at the end
# the failed ones are named and `make test` fails. A new stage is a target `test-NAME` below
# and its NAME in this list.
TEST_STAGES = ruff mypy pytest pure py3.13
.PHONY: $(TEST_STAGES:%=test-%)

test:
	./scripts/setup.sh --test
	@failed=; \
	for stage in $(TEST_STAGES); do \
	  $(MAKE) --no-print-directory test-$$stage || failed="$$failed $$stage"; \
	done; \
	if [ -n "$$failed" ]; then echo "== make test: failed:$$failed"; exit 1; fi; \
	echo "== make test: every stage passed ($(TEST_STAGES))"

test-ruff:
	@echo "== ruff"
	.venv/bin/ruff check .

test-mypy:
	@echo "== mypy"
	.venv/bin/mypy

test-pytest:
	@echo "== the whole suite under $$(.venv/bin/python -V)"
	.venv/bin/python -m pytest -n 2 --dist worksteal --durations=40

# The engine, games and adapters tests again on the pure-Python build of the same source (the
# suite above runs on the compiled modules of meeple/_build.py), but for the long physics runs:
# under Python 3.12 (.venv/py3.12 of `scripts/setup.sh --test`: core install and peers, not
# compiled), or under the main venv where the machine has no Python 3.12.
PURE_PYTHON = $(firstword $(wildcard .venv/py3.12/bin/python) .venv/bin/python)
test-pure:
	@echo "== the pure-Python build under $$($(PURE_PYTHON) -V): tests/engine tests/games tests/adapters"
	MEEPLE_PURE_PYTHON=1 MEEPLE_OPTIONAL_PEERS=1 $(PURE_PYTHON) -m pytest -n 2 --dist worksteal -q \
	  -p no:cacheprovider -m "not slow" --ignore-glob='*test_web*' \
	  --ignore=tests/engine/test_builds.py tests/engine tests/games tests/adapters

# The engine, games and adapters tests again, compiled, under the newest supported Python
# (.venv/py3.13 of `scripts/setup.sh --test`: core install and peers), but for the long physics
# runs.
test-py3.13:
	@if [ -x .venv/py3.13/bin/python ]; then \
	  echo "== Python 3.13, compiled: tests/engine tests/games tests/adapters (core install and peers)"; \
	  MEEPLE_OPTIONAL_PEERS=1 .venv/py3.13/bin/python -m pytest -n 2 --dist worksteal -q -p no:cacheprovider \
	    -m "not slow" --ignore-glob='*test_web*' tests/engine tests/games tests/adapters; \
	else \
	  echo "== Python 3.13: no venv (see scripts/setup.sh --test), skipped"; \
	fi

lint: setup
	.venv/bin/ruff check .
	.venv/bin/mypy

bench: setup
	.venv/bin/python benchmarks/playouts.py
