#!/usr/bin/env bash
# Set up meeple on this machine: a virtual environment in .venv with meeple and its pinned
# dependencies, and the browser libraries from npm (lockfile; Debian's python3-venv, nodejs and
# npm are installed with apt when missing). With --test, also the system packages the test suite
# drives: Debian's Chromium and its headless shell, Redis, PostgreSQL, tmux, cairo, nginx and
# ccache, and for each other supported Python found on the machine (3.12, 3.13) a venv
# .venv/py<version> with the core install, the test tools and each peer framework that has a
# wheel for it (no web platform), where `make test` runs the engine, games and adapters tests
# again: under 3.12 on the pure-Python build (installed without compiling), under 3.13
# compiled. Where ccache is found, the C compiler runs through it, so an unchanged module is not
# compiled twice on one machine. System packages need root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null || PY=python3

need=()
[ -x .venv/bin/python ] || "$PY" -c "import ensurepip" 2>/dev/null || need+=(python3-venv)
if [ -f meeple/web/package.json ]; then
  command -v npm >/dev/null || need+=(nodejs npm)
fi
if [ "${1:-}" = "--test" ]; then
  command -v chromium >/dev/null || need+=(chromium fonts-dejavu-core)
  command -v chromium-headless-shell >/dev/null || need+=(chromium-headless-shell)
  command -v redis-server >/dev/null || need+=(redis-server)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  command -v tmux >/dev/null || need+=(tmux)
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx openssl)
  ldconfig -p | grep -c 'libcairo\.so\.2' >/dev/null || need+=(libcairo2)  # -q: SIGPIPE
  command -v ccache >/dev/null || need+=(ccache)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "installing system packages: ${need[*]}"
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

if command -v ccache >/dev/null && [ -z "${CC:-}" ]; then
  export CC="ccache cc"
fi

find_python() {  # an interpreter of Python $1: on the PATH, else one of pyenv's versions
  local p
  if command -v "python$1" >/dev/null && "python$1" -c "" 2>/dev/null; then
    echo "python$1"
    return
  fi
  for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$1".*/bin/"python$1"; do
    if [ -x "$p" ] && "$p" -c "" 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  return 1
}

listed() {  # the requirements under the dotted keys $2... of pyproject.toml, one a line ($1: python)
  "$1" -c "import sys, tomllib
d = tomllib.load(open('pyproject.toml', 'rb'))
for key in sys.argv[1:]:
    v = d
    for k in key.split('.'):
        v = v[k]
    print(*v, sep='\n')" "${@:2}"
}

# .venv/py$1 for the tests: core install, test tools, peers; pure Python when $2 is 1. In two
# halves: `peers` makes the venv and installs what meeple needs there (its dependencies, the
# test tools, its build's tools and the peer frameworks; meeple's source untouched, so it runs
# beside the main install), `meeple` installs meeple itself.
version_venv() {
  local half=$1 v=$2 pure=$3 py venv peer
  py=$(find_python "$v") || return 0
  venv=.venv/py$v
  if [ "$half" = peers ]; then
    [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
    [ ! -f "$venv/.installed" ] || [ pyproject.toml -nt "$venv/.installed" ] || return 0
    echo "setting up $venv (core install, test tools, peers$([ "$pure" = 0 ] || echo ', pure Python'))"
    "$venv/bin/pip" install -q --upgrade pip
    listed "$py" project.dependencies project.optional-dependencies.test build-system.requires |
      "$venv/bin/pip" install -q -r /dev/stdin
    for peer in $(listed "$py" project.optional-dependencies.peers); do
      "$venv/bin/pip" install -q --only-binary=:all: "$peer" ||
        echo "no wheel of $peer for Python $v: its suite is skipped there"
    done
    return 0
  fi
  if [ ! -f "$venv/.installed" ] || [ pyproject.toml -nt "$venv/.installed" ]; then
    MEEPLE_PURE_PYTHON=$pure "$venv/bin/pip" install -q --no-build-isolation -e '.[test]'
    touch "$venv/.installed"
  fi
  [ "$pure" = 1 ] || "$venv/bin/python" meeple/_build.py >/dev/null ||
    "$venv/bin/pip" install -q --no-build-isolation --no-deps -e .
}

# Python 3.12 holds the pure-Python build and 3.13 a compiled one (see the Makefile).
VERSIONS="3.12:1 3.13:0"
peers_job=
if [ "${1:-}" = "--test" ]; then
  for vp in $VERSIONS; do
    find_python "${vp%:*}" >/dev/null ||
      echo "Python ${vp%:*} is not on this machine: its test run is skipped"
  done
  (for vp in $VERSIONS; do version_venv peers "${vp%:*}" "${vp#*:}"; done) &
  peers_job=$!
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
# The install compiles the modules of meeple/_build.py in place; after a source is edited
# meeple runs as pure Python until they are compiled again, here.
.venv/bin/python meeple/_build.py >/dev/null || .venv/bin/pip install -q --no-deps -e .

if [ -f meeple/web/package.json ]; then
  if [ ! -d meeple/web/node_modules ] || [ meeple/web/package-lock.json -nt meeple/web/node_modules ]; then
    # only what the pages load (three.js): the dev tools (Lighthouse, for
    # benchmarks/lighthouse.py, which installs them when it runs) stay out of everyone's setup
    (cd meeple/web && npm ci --omit=dev --no-audit --no-fund --silent)
  fi
fi

if [ "${1:-}" = "--test" ]; then
  wait "$peers_job"
  for vp in $VERSIONS; do  # one install at a time: each writes meeple's build files
    version_venv meeple "${vp%:*}" "${vp#*:}"
  done
fi
