"""Bots: one :class:`Bot` protocol, and ``make_bot("greedy", game)`` to build one by name."""

from __future__ import annotations

from collections.abc import Callable

from meeple.engine import Game, OptionError

from .base import Bot, View, view_for
from .mcts import MCTSBot, mcts_bot
from .simple import GreedyBot, RandomBot

BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "mcts": mcts_bot}


def bot_names() -> list[str]:
    """The bot kinds ``make_bot`` knows."""
    return sorted(BOTS)


def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot:
    """Build a bot from a spec such as ``"random"``, ``"greedy"`` or ``"mcts:4"``."""
    kind, _, level = spec.partition(":")
    factory = BOTS.get(kind)
    if factory is None:
        raise OptionError(f"no bot named {kind!r}; known bots: {', '.join(bot_names())}")
    if level:
        try:
            lv = int(level)
        except ValueError:
            raise OptionError(f"bot level must be a number, got {level!r}") from None
        return factory(game, seed=seed, level=lv)
    return factory(game, seed=seed)


__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "MCTSBot",
    "RandomBot",
    "View",
    "bot_names",
    "make_bot",
    "view_for",
]
