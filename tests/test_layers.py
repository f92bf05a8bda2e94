"""Layers import only downwards: engine ← games ← bots/arena/adapters ← server ← cli."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "meeple"
RANK = {"engine": 0, "games": 1, "bots": 2, "adapters": 3, "arena": 3, "gallery": 3, "server": 4,
        "cli": 5}
"""The engine finds the games by name at run time (``registry._discover``), never by import."""


def layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "meeple" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in RANK else None


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: -node.level]
                found.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                found.add(node.module)
    return found


FILES = sorted(p for p in ROOT.rglob("*.py") if layer(
    ".".join(p.relative_to(ROOT.parent).with_suffix("").parts)))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT.parent)))
def test_imports_go_downwards(path):
    own = layer(".".join(path.relative_to(ROOT.parent).with_suffix("").parts))
    for module in imports(path):
        other = layer(module)
        if other is None or other == own:
            continue
        assert RANK[other] < RANK[own], f"{own} must not import {module}"


def test_games_do_not_import_each_other():
    for path in (ROOT / "games").rglob("*.py"):
        parts = path.relative_to(ROOT / "games").parts
        if len(parts) < 2:
            continue
        for module in imports(path):
            bits = module.split(".")
            if bits[:2] == ["meeple", "games"] and len(bits) > 2:
                assert bits[2] == parts[0], f"{path} imports another game: {module}"


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
    return name.removesuffix(".__init__")


def runtime_imports(path: Path, top_level_only: bool = False, typing: bool = False) -> set[str]:
    """The modules a file imports at run time, at load or (unless ``top_level_only``) inside
    functions; imports under ``if TYPE_CHECKING:`` are for the type checker only and are
    left out (unless ``typing``)."""
    tree = ast.parse(path.read_text())
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if top_level_only and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                found.add(mod)
                found.update(f"{mod}.{a.name}" for a in node.names)
            elif isinstance(node, ast.If):
                test = node.test
                if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" and not typing:
                    visit(node.orelse)
                else:
                    visit(node.body + node.orelse)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    visit(getattr(node, field, None) or [])

    visit(tree.body)
    return found


def assert_no_cycle(paths: dict[str, Path], typing: bool = False) -> None:
    """No module of ``paths`` (by module name) imports, directly or through others, one that
    imports it back; with ``typing``, counting the type checker's imports too."""
    graph = {m: {i for i in runtime_imports(p, typing=typing)
                 if i in paths and i != m and not m.startswith(i + ".")}  # a parent loads first
             for m, p in paths.items()}
    state: dict[str, int] = {}

    def walk(m: str, trail: list[str]) -> None:
        state[m] = 1
        for nxt in sorted(graph[m]):
            if state.get(nxt) == 1:
                circle = trail[trail.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(circle))
            if nxt not in state:
                walk(nxt, trail + [nxt])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            walk(m, [m])


def test_no_import_cycles_between_modules():
    """No module imports, directly or through others, a module that imports it back (not even
    through imports inside functions)."""
    assert_no_cycle({module_name(p): p for p in ROOT.rglob("*.py")
                     if "node_modules" not in p.parts})


GAMES = sorted(p for p in (ROOT / "games").iterdir() if (p / "__init__.py").is_file())


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_a_games_modules_import_one_way_for_the_type_checker_too(game):
    """Inside a game, imports run one way (components <- notation <- views <- rules) even
    under ``if TYPE_CHECKING:``: notation and views read a position through a Protocol of
    their own, so a compiler or the type checker takes each module apart from the rules."""
    assert_no_cycle({module_name(p): p for p in game.glob("*.py")}, typing=True)


def test_no_game_module_is_looked_up_by_name():
    """Only the registry imports the game packages by name; the rest use what a game declared."""
    for path in ROOT.rglob("*.py"):
        if "node_modules" in path.parts or path == ROOT / "engine" / "registry.py":
            continue
        text = path.read_text()
        assert "import_module" not in text, f"{path} imports a module by name"
        assert "inspect.getmodule" not in text, f"{path} finds a module to look into by name"
    for path in (ROOT / "web").rglob("*.js"):
        if "node_modules" in path.parts:
            continue
        for name in ("koplus", "kozo", "mops_royal", "botanik", "kontor"):
            for op in ("===", "!=="):
                assert f'{op} "{name}"' not in path.read_text(), f"{path} tests the game's name"
