"""The random and greedy bots, which every game has."""

from __future__ import annotations

import random
from collections.abc import Callable

from meeple.engine import Game, State

from .base import View


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, game: Game, seed: int | None = None):
        self.rng = random.Random(seed)

    def act(self, view: View) -> int:
        return self.rng.choice(view.legal_actions)


def immediate_gain(state: State, player: int, action: int) -> float:
    """Default greedy value: the player's score lead right after the action."""
    s = state.clone()
    s.apply(action, player)
    scores = s.scores()
    others = [x for i, x in enumerate(scores) if i != player]
    return scores[player] - (max(others) if others else 0.0)


class GreedyBot:
    """Takes the action of best immediate value; ties broken at random.

    The value is the game's ``heuristics.action_value(state, player, action)`` where the game
    provides one, else the score lead right after the action.
    """

    name = "greedy"

    def __init__(self, game: Game, seed: int | None = None):
        self.rng = random.Random(seed)
        h = game.heuristics
        self.value: Callable[[State, int, int], float] = (
            h.action_value if h is not None else immediate_gain
        )

    def act(self, view: View) -> int:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        state = view.sample_state(self.rng)
        best: list[int] = []
        best_value = float("-inf")
        for a in actions:
            v = self.value(state, view.seat, a)
            if v > best_value + 1e-9:
                best, best_value = [a], v
            elif v > best_value - 1e-9:
                best.append(a)
        return self.rng.choice(best)
