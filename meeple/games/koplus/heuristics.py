"""KoPlus values for the greedy bot: the points a placement catches, with tie-breaks that keep
the player's own tiles grouped and aim for a bonus turn at exactly 20, 40 or 60."""

from __future__ import annotations

import math

from meeple.engine import State
from meeple.engine.i18n import words

from .components import BONUS_THRESHOLDS
from .rules import KoPlusState

_, _n = words(__file__)

BONUS_TURN_VALUE = 2.5
"""What landing on 20/40/60 with a bonus turn left is worth, in points."""
JOIN_VALUE = 0.4
"""Touching one of the player's own tiles (the tile joins a group)."""
MERGE_VALUE = 0.3
"""Each further own tile touched (several of the player's groups may merge)."""
ISOLATED_COST = 0.6
"""A tile touching none of the player's own tiles, for now an isolated tile (−5 at the end)."""


def action_value(state: State, player: int, action: int) -> float:
    """The immediate gain of ``action`` for ``player`` plus small grouping and bonus terms."""
    assert isinstance(state, KoPlusState)
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


TILE_IN_HAND_VALUE = 2.5
"""Rough worth of a tile still in hand when projecting a final score mid-game."""
SCORE_SCALE = 10.0
"""A lead of this many points counts as most of a win against that opponent."""


def evaluate(state: State, player: int) -> float:
    """An estimate in [-1, 1] of ``player``'s return: the exact return at the end; before,
    each opponent compared on a projected score (the final scoring as if the game ended now,
    plus a little for every tile still in hand), averaged like the zero-sum returns."""
    assert isinstance(state, KoPlusState)
    if state.is_terminal():
        return state.returns()[player]
    breakdown = state.final_scoring()
    projected = [b["final"] + TILE_IN_HAND_VALUE * b["tiles_in_hand"] for b in breakdown]
    others = [q for q in range(len(projected)) if q != player]
    total = sum(math.tanh((projected[player] - projected[q]) / SCORE_SCALE) for q in others)
    return total / len(others)


def explain(state: State, player: int, action: int) -> str:
    """Why ``action`` is good for ``player``, in one plain sentence (the hint's reason): the
    points it catches, a bonus turn it earns, and how it sits with the player's own tiles."""
    assert isinstance(state, KoPlusState)
    geo = state.geo
    if action == geo.pass_id or state.psum is None:
        return _("no tile you can lay gains anything now: passing keeps your tiles for later")
    gain = int(state.psum[action])
    score = state.running[player] + gain
    parts = [_n("catches {n} point", "catches {n} points", gain) if gain
             else _("catches nothing")]
    if (score in BONUS_THRESHOLDS and state.bonus_left[player] > 0
            and (gain > 0 or not state.game.bonus_needs_points)):
        parts.append(_("reaches {score}: a bonus turn", score=score))
    ring = geo.around[action]
    touching = sum(1 for p, a in state.placed if p == player and geo.mask[a] & ring)
    if not any(p == player for p, _ in state.placed):
        parts.append(_("is your first tile on the board"))
    elif touching > 1:
        parts.append(_("joins {count} of your tiles into one group", count=touching))
    elif touching:
        parts.append(_("joins your group of tiles"))
    else:
        parts.append(_("stands apart from your tiles for now"))
    if len(parts) == 3:
        return _("{first}, {second} and {last}", first=parts[0], second=parts[1], last=parts[2])
    return _("{first} and {last}", first=parts[0], last=parts[1])
