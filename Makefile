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
TEST_STAGES = ruff mypy pytest pure $(PYTHONS:%=py%)
PYTHONS = 3.12 3.13
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
	.venv/bin/python -m pytest -n 2 --durations=15

# The engine, games and adapters tests again on the pure-Python build of the same source (the
# suite above runs on the compiled modules of meeple/_build.py), but for the long physics runs.
test-pure:
	@echo "== the pure-Python build (MEEPLE_PURE_PYTHON=1): tests/engine tests/games tests/adapters"
	MEEPLE_PURE_PYTHON=1 .venv/bin/python -m pytest -n 2 -q \
	  -p no:cacheprovider -m "not slow" tests/engine tests/games tests/adapters

# The engine and adapters tests again under each other supported Python (the venvs
# .venv/py3.12 and .venv/py3.13 of `scripts/setup.sh --test`: core install and peers only),
# and under the newest also the games', but for the long physics runs marked slow, which the
# main run covers.
version_tests = tests/engine tests/adapters$(if $(filter $1,$(lastword $(PYTHONS))), tests/games)

test-versions: $(PYTHONS:%=test-py%)

$(PYTHONS:%=test-py%): test-py%:
	@if [ -x .venv/py$*/bin/python ]; then \
	  echo "== Python $*: $(call version_tests,$*) (core install and peers)"; \
	  MEEPLE_OPTIONAL_PEERS=1 .venv/py$*/bin/python -m pytest -n 2 -q -p no:cacheprovider \
	    -m "not slow" --ignore-glob='*test_web*' $(call version_tests,$*); \
	else \
	  echo "== Python $*: no venv (see scripts/setup.sh --test), skipped"; \
	fi

lint: setup
	.venv/bin/ruff check .
	.venv/bin/mypy

bench: setup
	.venv/bin/python benchmarks/playouts.py
