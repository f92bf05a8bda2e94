"""Which of meeple's modules are compiled to C extensions, and whether the compiled ones are
the ones to import.

The modules in :data:`COMPILED` are compiled by Cython from their own ``.py`` source when meeple
is installed (``setup.py``); the extension lands beside the source. This module imports nothing
of meeple's, so ``setup.py`` reads the list from it without importing the package.

At ``import meeple`` (:func:`choose`), the compiled build is used only when every listed module
has an extension built no earlier than its source; otherwise (``MEEPLE_PURE_PYTHON=1``, no
extension built, or a source edited since) a finder put first on ``sys.meta_path`` loads every
listed module from its ``.py`` source, so the package never mixes an old compiled rule with a
newer source. ``make`` (``scripts/setup.sh``) rebuilds the extensions when a source is newer.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

COMPILED = (
    "meeple/engine/core.py",
    "meeple/engine/grid.py",
    "meeple/games/botanik/components.py",
    "meeple/games/botanik/rules.py",
    "meeple/games/kontor/components.py",
    "meeple/games/kontor/rules.py",
    "meeple/games/koplus/components.py",
    "meeple/games/koplus/rules.py",
    "meeple/games/kozo/components.py",
    "meeple/games/kozo/physics.py",
    "meeple/games/kozo/rules.py",
    "meeple/games/mops_royal/components.py",
    "meeple/games/mops_royal/rules.py",
    "meeple/bots/mcts.py",
)
"""The compiled modules' sources, relative to the folder that holds the package."""

PURE_ENV = "MEEPLE_PURE_PYTHON"
"""Set to ``1`` to import the pure-Python source even where the extensions are built."""

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def module_name(source: str) -> str:
    """``meeple/engine/core.py`` -> ``meeple.engine.core``."""
    return source[: -len(".py")].replace("/", ".")


def extension_of(source: str) -> str | None:
    """The path of the extension built from ``source`` for this interpreter, if there is one."""
    base = os.path.join(_ROOT, source[: -len(".py")])
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.exists(base + suffix):
            return base + suffix
    return None


def why_pure(sources: Sequence[str] = COMPILED) -> str | None:
    """Why the pure-Python source is imported (``None``: the compiled build is).

    In a checkout (an editable install, beside ``pyproject.toml``) a source modified after
    its extension was built makes the whole package pure; an installed wheel is taken as
    built, since installing writes its files in no particular order."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return f"{PURE_ENV} is set"
    checkout = os.path.exists(os.path.join(_ROOT, "pyproject.toml"))
    for source in sources:
        ext = extension_of(source)
        if ext is None:
            return "not built"
        if checkout and os.path.getmtime(os.path.join(_ROOT, source)) > os.path.getmtime(ext):
            return f"{source} is newer than its build (make rebuilds it)"
    return None


class SourceFinder:
    """Finds the listed modules' ``.py`` source, ahead of the extensions beside them."""

    def __init__(self, sources: Sequence[str] = COMPILED):
        self.paths = {module_name(s): os.path.join(_ROOT, s) for s in sources}

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.paths.get(name)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(name, source)


REASON: str | None = None
"""Why the package runs as pure Python (``None``: compiled); set by :func:`choose`."""


def choose() -> None:
    """Decide once, before any listed module is imported, which build this process uses."""
    global REASON
    REASON = why_pure()
    if REASON is not None and not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


if __name__ == "__main__":  # scripts/setup.sh: exit 1 when the extensions need (re)building
    reason = why_pure()
    print(f"meeple: {reason or 'compiled build up to date'}")
    sys.exit(0 if reason is None or PURE_ENV in reason else 1)
