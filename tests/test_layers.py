"""Layers import only downwards: engine ← games ← bots/arena/adapters ← server ← cli."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "meeple"
RANK = {"engine": 0, "games": 1, "bots": 2, "adapters": 3, "arena": 3, "server": 4, "cli": 5}
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
