"""Bots: one :class:`Bot` protocol, and ``make_bot(spec, game)`` to build one by its spec.

The bots a seat offers are the steps of the ladder in :mod:`meeple.bots.levels` (random,
greedy and two searches with fixed budgets), listed by :func:`bot_choices`; the old specs
``"mcts:1"`` … ``"mcts:5"`` still build the old levels.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.engine import Game, OptionError
from meeple.engine.i18n import words

from . import levels
from .base import Bot, View, seats_policy, view_for
from .levels import bot_name, step_of
from .mcts import MCTSBot, mcts_bot
from .simple import GreedyBot, RandomBot

_, _n = words(__file__)

BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "mcts": mcts_bot}
"""The bot kinds by the part of a spec before any ``:`` (a program may add its own)."""


def bot_names() -> list[str]:
    """The bot specs a seat offers, weakest first (the ladder's specs), then any other bot
    kind a program added to ``BOTS``."""
    specs = [s.spec for s in levels.LADDER]
    kinds = {s.partition(":")[0] for s in specs}
    return specs + sorted(k for k in BOTS if k not in kinds)


def bot_choices() -> list[dict[str, object]]:
    """The bot levels a table or the terminal offers, weakest first: ``spec`` (for
    ``make_bot``), ``name`` and ``description`` (what a player reads) and ``step`` (1 is the
    weakest)."""
    return levels.choices()


def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot:
    """Build a bot from a spec: a step of the ladder (``"random"``, ``"greedy"``,
    ``"mcts:thoughtful"``, ``"mcts:expert"``) or an old level such as ``"mcts:4"``."""
    if levels.is_step(spec):
        return levels.build(spec, game, seed=seed)
    kind, _sep, level = spec.partition(":")
    factory = BOTS.get(kind)
    if factory is None:
        raise OptionError(_("no bot named {name}; known bots: {bots}", name=repr(kind),
                            bots=", ".join(bot_names())))
    if level:
        try:
            lv = int(level)
        except ValueError:
            raise OptionError(_("no bot level {spec}; the levels are {levels}", spec=repr(spec),
                                levels=", ".join(bot_names()))) from None
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
    "bot_name",
    "bot_names",
    "make_bot",
    "seats_policy",
    "step_of",
    "view_for",
]
