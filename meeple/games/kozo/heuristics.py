"""Kozo values for the greedy bot: avoid collapses (judged by the static referee), prefer big
pieces, and hand opponents small or awkward choices."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from meeple.engine import State

from . import physics
from .components import BALANCE_BASE, PIECE_BASE, PLACEMENTS, RING, RING_COLUMNS, SIZE_BASE, SIZES

if TYPE_CHECKING:
    from .rules import KozoState

SEARCH = {"rollout_depth": 0}
"""Search bots evaluate a position at once: every placement is judged by the stability
referee, too costly for play-outs."""


def action_value(state: State, player: int, action: int) -> float:
    """Higher is better for ``player``: a placement that stands is worth its size (plus a
    little for a low, well-supported tower); one that falls costs the round's points."""
    s = cast("KozoState", state)  # a clone handed over by the bot; not modified here
    if action < BALANCE_BASE:
        entry = PLACEMENTS[action]
        z0, cubes = s.resting_cubes(action)
        pieces, balances = s.physics_tower()
        pieces.append((cubes, 0.0, 0.0))
        margin = max(0.05, s.game.options["static_margin"])
        if not physics.static_stands(pieces, balances, margin):
            return -100.0 - s.round_points[player]
        size = SIZES[entry[1]]
        height = max(z for _, _, z in cubes) + 1
        return size * 10.0 - height * 0.1
    if action < SIZE_BASE:
        x, y = RING[action - BALANCE_BASE]
        pieces, balances = s.physics_tower()
        h = s.top[RING_COLUMNS[action - BALANCE_BASE]]
        balances.append((x, y, h))
        margin = max(0.05, s.game.options["static_margin"])
        if not physics.static_stands(pieces, balances, margin):
            return -100.0
        return -0.1 * h
    if action < PIECE_BASE:
        return -float(action - SIZE_BASE + 2)  # give the opponent the smallest size
    return -float(SIZES[action - PIECE_BASE])


def evaluate(state: State, player: int) -> float:
    """Score lead in [-1, 1]."""
    sc = state.scores()
    others = [v for i, v in enumerate(sc) if i != player]
    lead = sc[player] - (max(others) if others else 0.0)
    return max(-1.0, min(1.0, lead / 45.0))
