"""The games the adapter, bot and arena tests run on: the test suite's own tiny game (chance,
simultaneous bids, hidden information) and every registered game with each configuration."""

from __future__ import annotations

import pytest

from meeple.engine import registry
from tests.engine.tinygame import SealedBids, register_tiny

TINY = "sealed_bids"




def _id(name: str, players: int, options: dict) -> str:
    opts = "-".join(f"{k}={v}" for k, v in options.items())
    return f"{name}-{players}p" + (f"-{opts}" if opts else "")


def configurations(first_only: bool = False) -> list:
    """``pytest.param(name, players, options)`` for the tiny game and every registered game."""
    out = []
    named = [(TINY, SealedBids)] + [(n, registry.game_class(n)) for n in registry.games()]
    for name, cls in named:
        configs = cls.configurations()
        if first_only:
            configs = configs[:1]
        for players, options in configs:
            out.append(pytest.param(name, players, options, id=_id(name, players, options)))
    return out


def game_names() -> list[str]:
    """The tiny game and every registered game."""
    return [TINY] + list(registry.games())


def hidden_game_names() -> list[str]:
    """The games of hidden information among :func:`game_names`."""
    return [TINY] + [n for n in registry.games() if not registry.game_class(n).perfect_information]


def perfect_game_names() -> list[str]:
    """The games of perfect information among :func:`game_names`."""
    return [n for n in registry.games() if registry.game_class(n).perfect_information]


@pytest.fixture(autouse=True)
def tiny_game_registered():
    """Register the tiny game for one test (removed after, so the contract test never sees
    a game without a renderer)."""
    register_tiny()
    yield
    registry._GAMES.pop(TINY, None)
