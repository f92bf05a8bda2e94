"""Bots: one :class:`Bot` protocol, and ``make_bot("greedy", game)`` to build one by name."""

from __future__ import annotations

from collections.abc import Callable

from meeple.engine import Game, OptionError

from .base import Bot, View, seats_policy, view_for
from .mcts import MCTSBot, mcts_bot
from .simple import GreedyBot, RandomBot

BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "mcts": mcts_bot}


def bot_names() -> list[str]:
    """The bot kinds ``make_bot`` knows."""
    return sorted(BOTS)


def bot_choices() -> list[dict[str, object]]:
    """The bots a table or the terminal offers, strongest last: ``spec`` (for ``make_bot``),
    ``label`` (the name with its level, for showing next to a seat) and ``level``."""
    from .mcts import LEVELS

    out: list[dict[str, object]] = [
        {"spec": "random", "label": "random", "level": None},
        {"spec": "greedy", "label": "greedy", "level": None},
    ]
    out += [{"spec": f"mcts:{k}", "label": f"mcts (level {k})", "level": k} for k in LEVELS]
    return out


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
    "bot_choices",
    "bot_names",
    "make_bot",
    "seats_policy",
    "view_for",
]
