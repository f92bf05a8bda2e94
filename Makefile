# meeple: `make start` sets up and starts the site; `make test` sets up and runs every test.
.PHONY: setup start play test test-versions lint bench

setup:
	./scripts/setup.sh

start: setup
	.venv/bin/meeple serve

play: setup
	.venv/bin/meeple play koplus --players 3 --seats human,greedy,random

test:
	./scripts/setup.sh --test
	.venv/bin/ruff check .
	.venv/bin/mypy
	.venv/bin/python -m pytest -n 2 --durations=15
	$(MAKE) --no-print-directory test-versions

# The engine and adapters tests again under each other supported Python (the venvs
# .venv/py3.12 and .venv/py3.13 of `scripts/setup.sh --test`: core install and peers only),
# and under the newest also the games', but for the long physics runs marked slow, which the
# main run covers.
test-versions:
	@for v in 3.12 3.13; do \
	  if [ -x .venv/py$$v/bin/python ]; then \
	    echo "== Python $$v: engine and adapters, and games under 3.13 (core install and peers)"; \
	    MEEPLE_OPTIONAL_PEERS=1 .venv/py$$v/bin/python -m pytest -n 2 -q -p no:cacheprovider -m "not slow" \
	      --ignore-glob='*test_web*' tests/engine tests/adapters \
	      $$( [ $$v = 3.13 ] && echo tests/games ) || exit 1; \
	  else \
	    echo "== Python $$v: no venv (see scripts/setup.sh --test), skipped"; \
	  fi; \
	done

lint: setup
	.venv/bin/ruff check .
	.venv/bin/mypy

bench: setup
	.venv/bin/python benchmarks/playouts.py
