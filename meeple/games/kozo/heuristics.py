"""Kozo values for the greedy bot: avoid collapses (judged by the static referee), prefer big
pieces, and hand opponents small or awkward choices."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from meeple.engine import State
from meeple.engine.i18n import words

from . import physics
from .components import BALANCE_BASE, PIECE_BASE, PLACEMENTS, RING, RING_COLUMNS, SIZE_BASE, SIZES

if TYPE_CHECKING:
    from .rules import KozoState

_, _n = words(__file__)

PLAN_MARGIN_EXTRA = 0.04
"""How much further than the referee (option ``static_margin``) the greedy bot keeps the centre
of mass from a support edge: it plans with the referee's margin plus this, so a placement it
calls safe is never one the referee judges only at its threshold."""

SEARCH = {"rollout_depth": 0}
"""Search bots evaluate a position at once: every placement is judged by the stability
referee, too costly for play-outs."""


def plan_margin(options: Mapping[str, Any]) -> float:
    """The contact shrink the bot judges its own moves with: always above the referee's."""
    return float(options["static_margin"]) + PLAN_MARGIN_EXTRA


def action_value(state: State, player: int, action: int) -> float:
    """Higher is better for ``player``: a placement that stands is worth its size (plus a
    little for a low, well-supported tower); one that falls costs the round's points."""
    s = cast("KozoState", state)  # a clone handed over by the bot; not modified here
    if action < BALANCE_BASE:
        entry = PLACEMENTS[action]
        z0, cubes = s.resting_cubes(action)
        pieces, balances = s.physics_tower()
        pieces.append((cubes, 0.0, 0.0))
        margin = plan_margin(s.game.options)
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
        margin = plan_margin(s.game.options)
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


def explain(state: State, player: int, action: int) -> str:
    """Why ``action`` is good for ``player``, in one plain sentence (the hint's reason): a
    piece that stands and its size, a safe balance cube, or the choice left to the
    opponent."""
    value = action_value(state, player, action)
    if action < BALANCE_BASE:
        size = SIZES[PLACEMENTS[action][1]]
        if value <= -100.0:
            return _("every placement left puts the tower at risk; this one is the best chance")
        return _n("a piece of {n} cube that keeps the tower standing with room to spare, worth "
                  "its size in points", "a piece of {n} cubes that keeps the tower standing "
                  "with room to spare, worth its size in points", size)
    if action < SIZE_BASE:
        if value <= -100.0:
            return _("every spot for the balance cube is risky; this one is the best chance")
        h = balance_height(state, action)
        return _("the balance cube sits at height {height}, where the tower stays steady",
                 height=h)
    if action < PIECE_BASE:
        return _("leaves your opponent the smallest pieces, worth the fewest points")
    size = SIZES[action - PIECE_BASE]
    return _n("hands your opponent a piece of only {n} cube",
              "hands your opponent a piece of only {n} cubes", size)


def balance_height(state: State, action: int) -> int:
    """The height a balance cube of ``action`` would rest at."""
    s = cast("KozoState", state)
    return int(s.top[RING_COLUMNS[action - BALANCE_BASE]])
