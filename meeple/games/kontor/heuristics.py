"""The greedy bot's Kontor heuristic: area leads, areas about to close, taxes and money.

``_raw`` scores a position for one player: victory points so far, then every open area
weighted by who would win it now and how close it is to closing, then coins. ``action_value``
is that score after the action; a card choice is valued by the best placement the card
would have now, plus the tax it charges the right-hand neighbour. For search bots,
``evaluate`` adds who holds the harbour card that would break a tie on points, and
``placement_scores`` rates placements quickly by the areas they close or join: the search tree
weighs only the best few (``shortlist``) and play-outs place at the best (``rollout_action``).
"""

from __future__ import annotations

import math
import random

from meeple.engine import State
from meeple.engine.i18n import words

from .components import (
    CARD_COIN,
    CARD_COLOUR,
    CARD_GOODS,
    CARD_KEY,
    CARD_KIND,
    CRANE,
    GOODS_CARD,
    NV,
    P_ACT,
    P_CHOOSE,
    S_PLACE,
    WATER,
)
from .rules import KontorState, area_winner

_, _n = words(__file__)

SEARCH = {"candidates": 6, "mistakes": 1.6, "chance_nodes": False}
"""Search bots weigh only the greedy bot's six best moves at the root; below it, the placements
of ``shortlist``. A newly drawn card matters only in a later round, so the tree does not split
on draws: the other player's reply to a placement is judged over all draws at once. A random
move costs less here than in most games: levels 3-4 make more of them, so that each level still
beats the one below."""

SHORTLIST = 6
"""How many placements ``shortlist`` keeps."""


_WINNERS: dict[tuple[int, ...], int] = {}
"""``area_winner`` by the counts (their length gives the player count): the same few counts
come up again and again in a search."""
_WINNERS_MAX = 1 << 16


def _winner(counts: list[int], n: int) -> int:
    """:func:`area_winner`, remembered."""
    key = tuple(counts)
    w = _WINNERS.get(key)
    if w is None:
        if len(_WINNERS) >= _WINNERS_MAX:
            _WINNERS.clear()
        w = _WINNERS[key] = area_winner(counts, n)
    return w


def _raw(state: KontorState, player: int) -> float:
    g = state.game
    n = g.num_players
    scores = state.scores()
    best_other = max(scores[q] for q in range(n) if q != player)
    value = 3.0 * (scores[player] - best_other) + 0.6 * (
        state.won[player] - max(state.won[q] for q in range(n) if q != player))
    grow = g.grid.grow
    legal = state.legal
    for m in state.areas.values():
        counts = state.area_counts(m)
        w = _winner(counts, n)
        if w < 0:
            continue
        if state.keepers[w] == 0:
            continue
        openings = (grow(m) & legal).bit_count()
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


TIE_BREAK = 1.5
"""What holding the best harbour card in hand adds to ``evaluate`` by the end of the game, in
``_raw``'s units (a victory point is worth 3). Between search bots about a third of 2-player
games end level on points; such a tie goes to the highest harbour card in hand (rules 6.4:
areas won come first, but in 2-player games they are usually the points). The weight grows
with the square of the share of the field filled."""


def evaluate(state: KontorState, player: int) -> float:
    """A static evaluation in [-1, 1] for search bots: the greedy bot's judgement, plus who
    holds the card that breaks a tie on points."""
    if state.is_terminal():
        return state.returns()[player]
    g = state.game
    filled = (state.land | state.water).bit_count() / (g.N * g.N)
    keys = [-1 if c < 0 else CARD_KEY[c]
            for c in map(state.best_harbour_card, range(g.num_players))]
    mine = keys[player]
    other = max(k for q, k in enumerate(keys) if q != player)
    tie = (mine > other) - (mine < other)
    return math.tanh((_raw(state, player) + TIE_BREAK * filled * filled * tie) / 4.0)


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


def action_value(state: State, player: int, action: int) -> float:
    """How good ``action`` looks for ``player`` right now (larger is better)."""
    if not isinstance(state, KontorState):
        raise TypeError(f"a Kontor heuristic needs a Kontor state, not {type(state).__name__}")
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


def _owner_sign(w: int, player: int) -> int:
    return 0 if w < 0 else 1 if w == player else -1


def _lead(counts: list[int], p: int, n: int) -> int:
    """``p``'s largest lead in any goods type over every other player (may be negative)."""
    return max(counts[p * 3 + t] - max(counts[q * 3 + t] for q in range(n) if q != p)
               for t in range(3))


def placement_scores(state: KontorState, player: int, legal: list[int]) -> list[float]:
    """A quick rating of each placement in ``legal``: the areas it closes or joins.

    A water card is worth the areas it closes (won +1, lost -1); a harbour card the change in
    who would win the area it joins, and a little for the lead it leaves there.
    """
    g = state.game
    grow, n, base = g.grid.grow, g.num_players, g.PLACE
    card = state.card
    kind = CARD_KIND[card]
    opening = state.legal
    areas = []
    for m in state.areas.values():
        edge = grow(m) & opening
        counts = state.area_counts(m)
        areas.append((edge, counts, _owner_sign(_winner(counts, n), player)))
    own = CARD_COLOUR[card] == player
    out = []
    seen: dict[tuple[int, ...], float] = {}
    for a in legal:
        i, v = divmod(a - base, NV)
        b = 1 << i
        value = 0.0
        if kind == WATER:
            for edge, _, sign in areas:
                if edge == b:
                    value += sign
        else:
            merged = [0] * (3 * n)
            before = 0
            for edge, counts, sign in areas:
                if edge & b:
                    before += sign
                    merged = [x + y for x, y in zip(merged, counts, strict=True)]
            if own and kind == GOODS_CARD:
                for t in CARD_GOODS[card]:
                    merged[player * 3 + t] += 1
            elif own and kind == CRANE and 1 <= v <= 3:
                merged[player * 3 + v - 1] += 1
            key = tuple(merged)
            after = seen.get(key)
            if after is None:
                after = seen[key] = (_owner_sign(_winner(merged, n), player)
                                     + 0.1 * max(-3, min(3, _lead(merged, player, n))))
            value = after - before
        out.append(value)
    return out


def _placing(state: KontorState) -> bool:
    return state.phase == P_ACT and state.step == S_PLACE


def shortlist(state: KontorState, player: int, legal: list[int]) -> list[int]:
    """The placements a search weighs at a tree node: the best few by ``placement_scores``."""
    if len(legal) <= SHORTLIST or not _placing(state):
        return legal
    scores = placement_scores(state, player, legal)
    ranked = sorted(range(len(legal)), key=lambda k: -scores[k])
    return [legal[k] for k in ranked[:SHORTLIST]]


def rollout_action(state: KontorState, player: int, rng: random.Random) -> int:
    """The play-out policy: the best placement by ``placement_scores`` (ties and one move in
    ten at random); card choices at random."""
    legal = state.legal_actions(player)
    if len(legal) == 1 or not _placing(state) or rng.random() < 0.1:
        return rng.choice(legal)
    scores = placement_scores(state, player, legal)
    top = max(scores)
    best = [a for a, v in zip(legal, scores, strict=True) if v == top]
    return best[0] if len(best) == 1 else rng.choice(best)


__all__ = ["action_value", "evaluate", "placement_scores", "rollout_action", "shortlist"]


def explain(state: State, player: int, action: int) -> str:
    """Why ``action`` is good for ``player``, in one plain sentence (the hint's reason): the
    areas a placement wins or closes, or what a card choice prepares."""
    if not isinstance(state, KontorState):
        raise TypeError(f"a Kontor heuristic needs a Kontor state, not {type(state).__name__}")
    g = state.game
    if state.phase == P_CHOOSE and action < g.PLACE:
        if CARD_KIND[action] == WATER:
            return _("a water card can close an area while you lead it")
        if CARD_COIN[action]:
            return _("this card has the best place on the field now and your right-hand "
                     "neighbour pays you a coin")
        return _("this card has the best place on the field now")
    if _placing(state):
        value = placement_scores(state, player, [action])[0]
        if CARD_KIND[state.card] == WATER:
            if value > 0:
                return _("closes an area you win")
            if value < 0:
                return _("the only places left close an area for someone else; this costs least")
            return _("closes no area that someone else would win")
        if value >= 1:
            return _("takes the lead in the area it joins")
        if value > 0:
            return _("adds to your lead where you are ahead")
        if value < 0:
            return _("every place helps someone else a little; this one helps them least")
        return _("keeps the areas as they are, with your chances intact")
    before, after = _raw(state, player), _raw(_after(state, player, action), player)
    return _("the best of your choices now") if after >= before else \
        _("the least costly choice now")


def _after(state: KontorState, player: int, action: int) -> KontorState:
    s = state.clone()
    s.apply(action, player)
    return s
