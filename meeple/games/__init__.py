"""One package per game; each registers itself with the engine when imported.

Importing a game package sets ``meeple.games`` to this package, over the function of the same
name; so the package itself answers ``meeple.games()`` with the registered names.
"""

import sys
import types


class _GamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        from meeple.engine.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesPackage
