"""The registry of games: ``games()`` lists them, ``load()`` makes a :class:`Game`.

Each game package under ``meeple.games`` registers its Game class when imported; the registry
imports the packages by name on first use, so the engine never imports a game statically.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, cast

from .core import Game
from .errors import OptionError
from .i18n import words
from .plugins import Heuristics, Lessons, Motion, Renderer

_, _n = words(__file__)

_GAMES: dict[str, type[Game]] = {}
_discovered = False


def register(
    game_class: type[Game],
    *,
    renderer: Renderer,
    heuristics: Heuristics | None = None,
    motion: Motion | None = None,
    lessons: Lessons | None = None,
    views: tuple[str, ...] = ("board",),
) -> type[Game]:
    """Register a Game subclass under its ``name`` with what it provides besides its rules:
    its ``renderer`` (required), the bots' ``heuristics``, a ``motion`` simulation, the
    ``views`` a client shows and the ``lessons`` that teach it. Each is checked against its
    protocol (``plugins.py``) and set on the class, so nothing needs to find a game's modules
    by name. The game's options and lessons are bound to its catalog here, so that they
    say their words in the language in use (``Game.words``)."""
    if not game_class.name:
        raise ValueError("a game class needs a name")
    for what, value, protocol in (
        ("renderer", renderer, Renderer),
        ("heuristics", heuristics, Heuristics),
        ("motion", motion, Motion),
        ("lessons", lessons, Lessons),
    ):
        if value is not None and not isinstance(value, protocol):
            raise TypeError(f"{game_class.name}: {what} {value!r} is not a {protocol.__name__}")
    if not views or any(v not in VIEWS for v in views):
        raise ValueError(f"{game_class.name}: views must be among {', '.join(VIEWS)}")
    from .lessons import TaughtLessons

    if lessons is not None and not isinstance(lessons, TaughtLessons):
        # says its words when read
        lessons = cast(Lessons, TaughtLessons(lessons, game_class.words()))
    game_class.bind_words()
    game_class.renderer = renderer
    game_class.heuristics = heuristics
    game_class.motion = motion
    game_class.lessons = lessons
    game_class.views = tuple(views)
    _GAMES[game_class.name] = game_class
    return game_class


VIEWS = ("board", "tower-3d")
"""The views a client knows how to show."""


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    pkg = importlib.import_module("meeple.games")
    for mod in pkgutil.iter_modules(pkg.__path__):
        if mod.ispkg and not mod.name.startswith("_"):
            importlib.import_module(f"meeple.games.{mod.name}")


def games() -> list[str]:
    """Names of every registered game, sorted."""
    _discover()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The Game class registered as ``name``; :class:`OptionError` names the known games."""
    _discover()
    try:
        return _GAMES[name]
    except KeyError:
        raise OptionError(_("no game named {name}; known games: {games}", name=repr(name),
                            games=", ".join(sorted(_GAMES)))) from None


def game_lessons(name: str) -> Lessons:
    """What teaches the game ``name`` (its how-to-play steps and player aid); OptionError
    names the known games, LookupError says when a game has none."""
    lessons = game_class(name).lessons
    if lessons is None:
        raise LookupError(_("{game} has no lessons yet", game=name))
    return lessons


def load(name: str, players: int | None = None, **options: Any) -> Game:
    """Make a game: ``meeple.load("koplus", players=3, random_rotation=False)``."""
    return game_class(name)(players, **options)
