"""The games the adapter, bot and arena tests run on: the test suite's own tiny game (chance,
simultaneous bids, hidden information) and every registered game with each configuration."""

from __future__ import annotations

import pytest

from meeple.adapters import planes
from meeple.engine import registry
from tests.engine.tinygame import SealedBids, register_tiny

TINY = "sealed_bids"


def tiny_planes(game) -> list[dict]:
    """The tiny game's tensor: round, prize, prizes won, the cards in hand, the other's bid."""
    return [
        {"name": "round", "shape": (1,), "low": 0.0, "high": 3.0, "meaning": "rounds played"},
        {"name": "prize", "shape": (1,), "low": 0.0, "high": 3.0, "meaning": "the prize"},
        {"name": "won", "shape": (1,), "low": 0.0, "high": 6.0, "meaning": "seat 0's prizes"},
        {"name": "hand", "shape": (4,), "low": 0.0, "high": 6.0,
         "meaning": "seat 1's prizes, then 1 for each card 1 to 3 in hand"},
        {"name": "other_bid", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "1 once the other player has bid"},
    ]


planes.declare(SealedBids, tiny_planes)


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
