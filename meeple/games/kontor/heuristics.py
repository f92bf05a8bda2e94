"""The greedy bot's Kontor heuristic: area leads, areas about to close, taxes and money.

``evaluate`` scores a position for one player: victory points so far, then every open area
weighted by who would win it now and how close it is to closing, then coins. ``action_value``
is the evaluation after the action; a card choice is valued by the best placement the card
would have now, plus the tax it charges the right-hand neighbour.
"""

from __future__ import annotations

import math

from .components import CARD_COIN, CARD_KIND, CRANE, WATER
from .rules import NV, P_ACT, P_CHOOSE, S_PLACE, KontorState, _bits, area_winner


def _raw(state: KontorState, player: int) -> float:
    g = state.game
    n = g.num_players
    scores = state.scores()
    best_other = max(scores[q] for q in range(n) if q != player)
    value = 3.0 * (scores[player] - best_other) + 0.6 * (
        state.won[player] - max(state.won[q] for q in range(n) if q != player))
    W = g.W
    legal = state.legal
    for m in state.areas.values():
        counts = state.area_counts(m)
        w = area_winner(counts, n)
        if w < 0:
            continue
        if state.keepers[w] == 0:
            continue
        openings = (((m << 1) | (m >> 1) | (m << W) | (m >> W)) & legal).bit_count()
        size = m.bit_count()
        top = max(counts[w * 3: w * 3 + 3])
        weight = (0.6 + 0.15 * min(size, 6)) * (1.5 if openings <= 1 else 1.0 / (1 + 0.3 *
                                                                             openings))
        weight *= 0.7 + 0.1 * min(top, 3)
        value += weight if w == player else -weight / (n - 1)
    coins = state.coins
    value += 0.12 * (min(coins[player], 8) - sum(min(coins[q], 8) for q in range(n)
                                                  if q != player) / (n - 1))
    # a player without coins cannot pay taxes
    value -= 0.3 * (coins[player] == 0) - 0.3 * sum(coins[q] == 0 for q in range(n)
                                                     if q != player) / (n - 1)
    return value


def evaluate(state: KontorState, player: int) -> float:
    """A static evaluation in [-1, 1] for ``player``."""
    if state.is_terminal():
        return state.returns()[player]
    return math.tanh(_raw(state, player) / 4.0)


def _card_value(state: KontorState, player: int, card: int) -> float:
    """The value of playing ``card`` now at its best cell (a sample of cells)."""
    s = state.clone()
    s.phase = P_ACT
    s.step = S_PLACE
    s.acting = player
    s.card = card
    s.tasks = []
    s.order = [player]
    s.act_i = 0
    s._sync()
    targets = s._targets(card)
    if not targets:
        return -1.0
    if len(targets) > 10:
        targets = targets[:: max(1, len(targets) // 10)]
    variants = [1, 2, 3] if CARD_KIND[card] == CRANE else [0]
    best = -1e9
    base = s.game.PLACE
    for i in targets:
        for v in variants:
            t = s.clone()
            t.hands[player] = [c for c in t.hands[player] if c != card]
            try:
                t._apply(base + i * NV + v, player)
            except (KeyError, ValueError, IndexError):
                continue
            best = max(best, _raw(t, player))
    return best


def action_value(state: KontorState, player: int, action: int) -> float:
    """How good ``action`` looks for ``player`` right now (larger is better)."""
    g = state.game
    if state.phase == P_CHOOSE and action < g.PLACE:
        v = _card_value(state, player, action)
        if CARD_COIN[action]:
            v += 0.25  # the right-hand neighbour pays a coin
            right = (player - 1) % g.num_players
            if state.coins[right] == 0:
                v += 0.3  # and may be withdrawn
        if CARD_KIND[action] == WATER:
            v += 0.1 if state.coins[player] < 3 else -0.05
        return v
    s = state.clone()
    s.apply(action, player)
    return _raw(s, player)


__all__ = ["action_value", "evaluate", "_bits"]
