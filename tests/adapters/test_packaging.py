"""The core install (``pip install meeple``) is the engine, the games, the bots, the arena and
the terminal; the web platform's packages come with ``meeple[web]`` and only the server
imports them. Checked on the import graph, and by running the core with them blocked."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.test_layers import module_name, runtime_imports

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "meeple"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WEB_MODULES = {"fastapi", "starlette", "uvicorn", "websockets", "sqlalchemy", "alembic",
               "psycopg", "argon2", "itsdangerous", "redis"}
"""What the ``web`` extra's packages are imported as."""


def dist_names(specs: list[str]) -> set[str]:
    return {re.split(r"[\[<>=!~ ;]", s, maxsplit=1)[0].lower() for s in specs}


def python_files() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "node_modules" not in p.parts]


def test_the_core_install_has_no_web_package_and_the_web_extra_has_them_all():
    project = PYPROJECT["project"]
    core = dist_names(project["dependencies"])
    extras = project["optional-dependencies"]
    web = dist_names(extras["web"])
    assert not core & web
    assert {"fastapi", "uvicorn", "sqlalchemy", "alembic", "psycopg", "argon2-cffi",
            "itsdangerous", "redis"} <= web
    assert {"numpy", "scipy", "typer", "rich", "mujoco-core", "openskill"} <= core
    assert "meeple[web,peers,ray,test]" in extras["dev"]
    assert project["requires-python"] == ">=3.11"


def test_only_the_server_imports_web_packages():
    for path in python_files():
        if path.is_relative_to(PACKAGE / "server"):
            continue
        for name in runtime_imports(path):
            assert name.split(".")[0] not in WEB_MODULES, f"{path} imports {name}"


def test_the_core_modules_never_load_the_server():
    """From ``meeple``, the bots, the arena, the adapters and the terminal, no chain of
    imports at load reaches ``meeple.server`` (the terminal starts it inside ``serve``)."""
    graph = {module_name(p): runtime_imports(p, top_level_only=True) for p in python_files()}
    starts = ["meeple", "meeple.bots", "meeple.arena", "meeple.cli", "meeple.engine.planes"]
    seen: set[str] = set()
    todo = list(starts)
    while todo:
        m = todo.pop()
        if m in seen or m not in graph:
            continue
        seen.add(m)
        for name in graph[m]:
            assert not name.startswith("meeple.server"), f"{m} loads {name}"
            assert name.split(".")[0] not in WEB_MODULES, f"{m} loads {name}"
            todo += [name, name.rpartition(".")[0]]
    assert "meeple.arena.core" in seen and "meeple.engine.core" in seen


def test_the_core_runs_with_the_web_packages_missing(tmp_path):
    """``import meeple, meeple.bots, meeple.arena`` and a whole ``meeple play`` game, in a
    Python where every web package fails to import."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        "import importlib.abc, sys\n"
        f"BLOCKED = {sorted(WEB_MODULES)!r}\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ImportError(f'{name} is not installed (web extra)')\n"
        "sys.meta_path.insert(0, Block())\n",
        encoding="utf-8",
    )
    env = {"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"}
    code = ("import meeple, meeple.bots, meeple.arena, meeple.cli\n"
            "import sys\n"
            "assert not any(m.split('.')[0] in " + repr(sorted(WEB_MODULES)) +
            " for m in sys.modules)\n"
            "try:\n    import fastapi\nexcept ImportError:\n    print('blocked')\n")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "blocked"
    play = subprocess.run(
        [sys.executable, "-m", "meeple.cli", "play", "koplus", "--seats", "random,greedy",
         "--seed", "3", "--json"],
        env=env, capture_output=True, text=True, timeout=300,
    )
    assert play.returncode == 0, play.stderr
    assert '"terminal": true' in play.stdout
