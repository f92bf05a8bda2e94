# meeple: `make start` sets up and starts the site; `make test` sets up and runs every test.
.PHONY: setup start play test lint bench

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

lint: setup
	.venv/bin/ruff check .
	.venv/bin/mypy

bench: setup
	.venv/bin/python benchmarks/playouts.py
