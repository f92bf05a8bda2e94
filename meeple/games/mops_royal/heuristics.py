"""What the greedy bot maximises in Mops Royal: points now against the room to grow later.

A layout's *potential* sums, per colour and per object, the best combination it holds now and
a growth term for the tiles of that colour or object still to come. Scoring takes points but
turns a tile face down, which can kill a larger combination in the making; declining keeps the
potential. Placing values the combinations the tile makes at once and the potential after it.
"""

from __future__ import annotations

import math

from meeple.engine import State
from meeple.engine.i18n import words

from .components import (
    GRID,
    NOSCORE,
    PASS,
    PL_MASK,
    PL_POINTS,
    REJECT,
    SCORE,
    SCORE_ACTIONS,
    TILE_COLOUR,
    TILE_OBJECT,
    tiles_of,
)
from .rules import MopsRoyalState

_, _n = words(__file__)

SEARCH = {"budget": 2.5}
"""Search bots get 2.5 times a level's usual iterations: with the usual 600, level 5 wins about
nine games in ten against the greedy bot, too close to it."""

GROWTH = 0.35
"""Value of one face-up group member with matching tiles still to come."""
FUTURE = 0.5
"""Weight of the potential against points in hand."""


def potential(s: MopsRoyalState, p: int) -> float:
    """How much seat ``p``'s layout may still score: best combination per colour/object group
    plus a growth term while tiles of that group can still arrive and cells are free."""
    best: dict[tuple[int, int], int] = {}
    crowns = s.crownmask[p]
    for k in s.combos[p]:
        m = PL_MASK[k]
        pts = PL_POINTS[k] + (1 if m & crowns else 0)
        for j in range(6):
            if m & s.upcol[6 * p + j] == m:
                key = (0, j)
                break
            if m & s.upobj[6 * p + j] == m:
                key = (1, j)
                break
        else:
            continue
        if pts > best.get(key, 0):
            best[key] = pts
    total = float(sum(best.values()))
    empty = 25 - s.occ[p].bit_count()
    if empty and s.caller >= 0:
        per_col = [0] * 6
        per_obj = [0] * 6
        for t in tiles_of(s.stock[s.caller]):
            per_col[TILE_COLOUR[t]] += 1
            per_obj[TILE_OBJECT[t]] += 1
        frac = min(1.0, empty / 12)
        for j in range(6):
            for group, left in ((s.upcol[6 * p + j], per_col[j]), (s.upobj[6 * p + j], per_obj[j])):
                m = group.bit_count()
                if m >= 2 and left:
                    total += GROWTH * min(m, 4) * min(left, 3) / 3 * frac
    return total


def _best_now(s: MopsRoyalState, p: int) -> int:
    crowns = s.crownmask[p]
    return max(
        (PL_POINTS[k] + (1 if PL_MASK[k] & crowns else 0) for k in s.combos[p]), default=0
    )


def action_value(state: State, player: int, action: int) -> float:
    """The greedy value of ``action`` for ``player``."""
    s = state
    assert isinstance(s, MopsRoyalState)
    if action == NOSCORE or action == PASS:
        return FUTURE * potential(s, player)
    if action >= SCORE:
        k, f = SCORE_ACTIONS[action - SCORE]
        pts = s.combination_points(player, k)
        t = s.clone()
        t.turn_down(player, f)
        return pts + FUTURE * potential(t, player)
    if action >= REJECT:
        cost = min(s.rej[player] + 2, s.score[player])
        return -cost - 1.0 + FUTURE * potential(s, player)
    t = s.clone()
    t.put_tile(player, action, s.tile)
    may_score = not s.game.options["end_scoring"]
    now = _best_now(t, player) if may_score else 0
    # keep the layout compact: a cell touching more tiles leaves fewer awkward holes
    occ = t.occ[player]
    touching = sum(1 for i in GRID.neighbour_indices(action) if occ >> i & 1)
    return 0.6 * now + FUTURE * potential(t, player) + 0.05 * touching


def evaluate(state: State, player: int) -> float:
    """A static evaluation in [-1, 1]: score lead plus part of the potential lead."""
    s = state
    assert isinstance(s, MopsRoyalState)
    mine = s.score[player] + 0.3 * potential(s, player)
    others = [s.score[q] + 0.3 * potential(s, q) for q in range(s.n) if q != player]
    return math.tanh((mine - max(others)) / 15) if others else 0.0


def explain(state: State, player: int, action: int) -> str:
    """Why ``action`` is good for ``player``, in one plain sentence (the hint's reason): the
    points it takes now or the combinations it keeps growing."""
    s = state
    assert isinstance(s, MopsRoyalState)
    if action == PASS:
        return _("nothing you could do now is worth more than waiting")
    if action == NOSCORE:
        return _("scoring now would turn a tile face down; your combinations can still grow")
    if action >= SCORE:
        k, _f = SCORE_ACTIONS[action - SCORE]
        pts = s.combination_points(player, k)
        return _n("takes {n} point now, the most of what you can score",
                  "takes {n} points now, the most of what you can score", pts)
    if action >= REJECT:
        cost = min(s.rej[player] + 2, s.score[player])
        return _n("declines a tile that fits nowhere useful, for {n} point",
                  "declines a tile that fits nowhere useful, for {n} points", cost)
    t = s.clone()
    t.put_tile(player, action, s.tile)
    before, now = _best_now(s, player), _best_now(t, player)
    if now > before:
        return _n("makes a combination worth {n} point", "makes a combination worth {n} points",
                  now)
    grow = potential(t, player) - potential(s, player)
    if grow > 0.5:
        return _("joins tiles of the same colour or object, a combination in the making")
    return _("keeps your layout compact, with room for the tiles to come")
