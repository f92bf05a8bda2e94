#!/usr/bin/env bash
# Set up meeple on this machine: a virtual environment in .venv with meeple and its pinned
# dependencies, and the browser libraries from npm (lockfile). With --test, also the system
# packages the test suite drives: Debian's Chromium, Redis and PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null || PY=python3

if [ "${1:-}" = "--test" ]; then
  need=()
  command -v chromium >/dev/null || need+=(chromium fonts-dejavu-core)
  command -v redis-server >/dev/null || need+=(redis-server)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  if [ ${#need[@]} -gt 0 ]; then
    echo "installing system packages: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
  fi
fi

stamp=.venv/.installed
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -e '.[dev]'
  touch "$stamp"
fi

if [ -f meeple/web/package.json ]; then
  if [ ! -d meeple/web/node_modules ] || [ meeple/web/package-lock.json -nt meeple/web/node_modules ]; then
    (cd meeple/web && npm ci --no-audit --no-fund --silent)
  fi
fi
