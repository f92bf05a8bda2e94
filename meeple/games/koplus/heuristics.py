"""KoPlus values for the greedy bot: the points a placement catches, with tie-breaks that keep
the player's own tiles grouped and aim for a bonus turn at exactly 20, 40 or 60."""

from __future__ import annotations

from .components import BONUS_THRESHOLDS
from .rules import KoPlusState

BONUS_TURN_VALUE = 2.5
"""What landing on 20/40/60 with a bonus turn left is worth, in points."""
JOIN_VALUE = 0.4
"""Touching one of the player's own tiles (the tile joins a group)."""
MERGE_VALUE = 0.3
"""Each further own tile touched (several of the player's groups may merge)."""
ISOLATED_COST = 0.6
"""A tile touching none of the player's own tiles, for now an isolated tile (−5 at the end)."""


def action_value(state: KoPlusState, player: int, action: int) -> float:
    """The immediate gain of ``action`` for ``player`` plus small grouping and bonus terms."""
    geo = state.geo
    if action == geo.pass_id or state.psum is None:
        return 0.0
    gain = state.psum[action]
    value = float(gain)
    score = state.running[player] + gain
    if (
        score in BONUS_THRESHOLDS
        and state.bonus_left[player] > 0
        and (gain > 0 or not state.game.bonus_needs_points)
    ):
        value += BONUS_TURN_VALUE
    ring = geo.around[action]
    touching = sum(1 for p, a in state.placed if p == player and geo.mask[a] & ring)
    if touching:
        value += JOIN_VALUE + MERGE_VALUE * (touching - 1)
    else:
        value -= ISOLATED_COST
    return value


def evaluate(state: KoPlusState, player: int) -> float:
    """A static evaluation in [-1, 1]: the player's lead in (final-style) score, squashed."""
    breakdown = state.final_result() or state.final_breakdown()
    mine = breakdown[player]["final"]
    best_other = max(b["final"] for b in breakdown if b["player"] != player)
    lead = mine - best_other
    return max(-1.0, min(1.0, lead / 30.0))
