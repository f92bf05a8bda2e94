"""Botanik heuristics for the greedy bot: colour groups, flowers, and keeping the network open.

``machine_value`` rates one machine: its score now, the tiles joined to the Source, pairs of
same-colour tiles that a third tile would turn into a scoring group, and the open ends that keep
it growing. ``action_value`` applies an action to a copy, settles the releases it causes with a
quick local choice for every pending addition, and compares both players' machines and rows.
``evaluate``, for search bots, turns the same parts of both machines into a chance of
winning, with weights fitted to the outcomes of many games (``MARGIN_MODEL``).
"""

from __future__ import annotations

import math
import random

from meeple.engine import State
from meeple.engine.i18n import words

from .components import (
    ADD,
    ADD_BASE,
    PLANT,
    REVEAL,
    ROUNDS,
    SOURCE_CELL,
    STEP,
    SWAP,
    SWAP_BASE,
    VEGETABLE,
    add_cell,
    rotate,
)
from .rules import BotanikState

_, _n = words(__file__)

SEARCH = {"candidates": 5, "rollout_depth": 0}
"""Search bots weigh only the greedy bot's five best moves: play-outs are too short to judge
where a tile fits best in a machine, which ``action_value`` rates exactly. A play-out goes on
only to the end of the round (``quiet``)."""

SHORTLIST = 5
"""How many additions ``shortlist`` keeps."""


def machine_parts(state: BotanikState, p: int) -> tuple[float, int, int, int]:
    """``p``'s machine as (points now, tiles joined to the Source, same-colour pairs, open
    ends of the main network)."""
    ts = state.ts
    tiles = state.mtile[p]
    pipes = state.mpipe[p]
    kept = state.main_cells(p)
    colour = ts.colour
    points = 0.0
    pairs = 0
    for _, part in state.colour_groups(p, kept=kept)[1]:
        n = part.bit_count()
        if n >= 3:
            points += n
        elif n == 2:
            pairs += 1
    for x in kept:
        t = tiles[x]
        f = ts.flowers[t]
        if not f:
            continue
        if ts.type[t] in (PLANT, VEGETABLE):
            e = pipes[x]
            y = x + STEP[(1, 2, 4, 8).index(e)]
            if y in tiles and colour[tiles[y]] == colour[t]:
                points += f
        else:
            points += f
    return points, len(kept), pairs, state.open_ends(p)


def _openness(open_ends: int) -> float:
    """What open ends are worth: room to grow, and a machine near closing is in danger."""
    return min(open_ends, 4) * 0.6 - (1.5 if open_ends <= 1 else 0.0)


def machine_value(state: BotanikState, p: int) -> float:
    """A rating of ``p``'s machine (higher is better)."""
    points, kept, pairs, open_ends = machine_parts(state, p)
    return points + 0.35 * kept + 0.8 * pairs + _openness(open_ends)


def tile_value(state: BotanikState, t: int) -> float:
    """What a tile is worth before it is placed: flowers and its chance to join a group."""
    return 1.0 + state.ts.flowers[t] * (0.5 if state.ts.type[t] in (PLANT, VEGETABLE) else 0.9)


def add_value(state: BotanikState, q: int, action: int) -> float:
    """A quick local rating of adding the pending tile with ``action`` (no copy made)."""
    ts = state.ts
    t = state.pend_tile
    x, k = add_cell(action)
    e = rotate(ts.exits[t], k)
    tiles = state.mtile[q]
    comp = state.mcomp[q]
    main = comp[SOURCE_CELL]
    linked_main = False
    same = 0
    free = 0
    plant_ok = False
    for d in range(4):
        y = x + STEP[d]
        ty = tiles.get(y)
        if ty is None:
            if e >> d & 1:
                free += 1
            continue
        if e >> d & 1 and comp[y] == main:
            linked_main = True
            if ts.colour[ty] == ts.colour[t]:
                plant_ok = True
        if ts.colour[ty] == ts.colour[t] and comp[y] == main:
            same += 1
    v = 3.0 if linked_main else -1.0
    if linked_main:
        v += 1.2 * same
        if ts.type[t] in (PLANT, VEGETABLE):
            v += 3.0 if plant_ok else 0.0
        else:
            v += ts.flowers[t]
        v += 0.4 * min(free, 2)
    return v


def settle(state: BotanikState) -> None:
    """Resolve every pending swap and addition in place with the quick local choices."""
    while state.phase in (ADD, SWAP):
        q = state.pend_player
        legal = state.legal_actions(q)
        if state.phase == ADD:
            best = max(legal, key=lambda a: add_value(state, q, a))
        else:
            best = max(legal, key=lambda a: tile_value(state, state.piles[a - SWAP_BASE][-1]))
        state.apply(best, q)


def _rows_value(state: BotanikState, p: int) -> float:
    return sum(0.6 * tile_value(state, t) for t in state.rows[p * 5:(p + 1) * 5] if t >= 0)


def position_value(state: BotanikState, player: int) -> float:
    """``player``'s machine and waiting tiles against the opponent's."""
    o = 1 - player
    return (machine_value(state, player) + _rows_value(state, player)
            - machine_value(state, o) - _rows_value(state, o))


def action_value(state: State, player: int, action: int) -> float:
    """The greedy bot's value of ``action``: the position after it and the releases it causes."""
    assert isinstance(state, BotanikState)
    s = state.clone()
    s.apply(action, player)
    if state.phase == ADD and ADD_BASE <= action < SWAP_BASE:
        # our own addition: rate our machine exactly; the rest is the same for every choice
        return machine_value(s, player)
    settle(s)
    return position_value(s, player)


MARGIN_MODEL = (
    (0.86, (0.45, 0.58, 0.46, 0.28, 0.48), 5.4),
    (0.60, (0.64, 0.33, 0.93, 1.03, 0.73), 4.8),
    (0.35, (0.78, 0.14, 0.91, 1.22, 0.95), 3.9),
    (0.13, (0.86, 0.02, 0.38, 0.22, 0.60), 2.7),
)
"""``evaluate``'s model of the final score difference, by stage: (share of rounds left,
weights, spread). The weights apply to the differences of both players' points, tiles joined
to the Source, same-colour pairs, open ends (up to 4) and waiting tiles (``_rows_value``); the
spread is the typical error of that prediction. Fitted by least squares to 29,000 positions of
1,100 games between level-3 search bots (``scripts/fit_botanik_evaluation.py``, seeds 5000 on)
that searched with the earlier model, fitted to greedy games; rerun now, the script refits from
bots using this one. Play at search strength keeps open ends and waiting tiles worth more than
greedy play does, and the greedy-game model underrated them. Between stages the model is
interpolated."""


def rounds_left(state: BotanikState) -> float:
    """The share of the game's rounds still to come, counting the current one (1 down to 0)."""
    return max(0.0, (ROUNDS - state.round + 1) / ROUNDS)


def _stage(left: float) -> tuple[list[float], float]:
    """``MARGIN_MODEL``'s weights and spread at the share of rounds ``left``."""
    model = MARGIN_MODEL
    if left >= model[0][0]:
        return list(model[0][1]), model[0][2]
    for (l0, w0, s0), (l1, w1, s1) in zip(model, model[1:], strict=False):
        if left >= l1:
            f = (l0 - left) / (l0 - l1)
            return [a + (b - a) * f for a, b in zip(w0, w1, strict=True)], s0 + (s1 - s0) * f
    return list(model[-1][1]), model[-1][2]


def margin_features(state: BotanikState, p: int) -> tuple[float, ...]:
    """The parts of ``p``'s position that ``MARGIN_MODEL`` weighs, in its order."""
    points, kept, pairs, open_ends = machine_parts(state, p)
    return points, kept, pairs, min(open_ends, 4), _rows_value(state, p)


def evaluate(state: BotanikState, player: int) -> float:
    """A static evaluation in [-1, 1] for search bots: the chance of winning, from the final
    score difference that ``MARGIN_MODEL`` predicts."""
    if state.is_terminal():
        return float(state.returns()[player])
    weights, spread = _stage(rounds_left(state))
    margin = sum(w * (a - b) for w, a, b in zip(
        weights, margin_features(state, player), margin_features(state, 1 - player), strict=True))
    return math.erf(margin / (spread * math.sqrt(2.0)))


def quiet(state: BotanikState) -> bool:
    """Whether a play-out may stop here: at the end of a round, when every step of it has been
    played and its releases resolved. Mid-round, the player still to take a tile holds a
    tempo the evaluation does not see."""
    return state.phase == REVEAL


def shortlist(state: BotanikState, player: int, legal: list[int]) -> list[int]:
    """The additions a search weighs at a tree node: the best few by ``add_value``."""
    if state.phase != ADD or len(legal) <= SHORTLIST:
        return legal
    return sorted(legal, key=lambda a: add_value(state, player, a))[-SHORTLIST:]


def rollout_action(state: BotanikState, player: int, rng: random.Random) -> int:
    """A cheap play-out policy for search bots: sensible additions and releases, with noise."""
    legal = state.legal_actions(player)
    if len(legal) == 1 or rng.random() < 0.15:
        return rng.choice(legal)
    ph = state.phase
    if ph == ADD:
        return max(legal, key=lambda a: add_value(state, player, a) + rng.random() * 0.5)
    if ph == SWAP:
        return max(legal, key=lambda a: tile_value(state, state.piles[a - SWAP_BASE][-1])
                   + rng.random() * 0.5)
    rows = state.rows
    match = state.ts.match
    o = 1 - player

    def take_value(a: int) -> float:
        t, rest = divmod(a, 10)
        if rest < 5:
            return 0.6 * tile_value(state, t) + rng.random()
        j = rest - 5
        v = rng.random()
        mine, theirs = rows[player * 5 + j], rows[o * 5 + j]
        if mine >= 0 and not match[t] >> mine & 1:
            v += tile_value(state, mine)
        if theirs >= 0 and not match[t] >> theirs & 1:
            v -= tile_value(state, theirs)
        return v

    return max(legal, key=take_value)


def explain(state: State, player: int, action: int) -> str:
    """Why ``action`` is good for ``player``, in one plain sentence (the hint's reason): what
    it does to the player's machine once the tiles it releases are added."""
    assert isinstance(state, BotanikState)
    before = machine_parts(state, player)
    s = state.clone()
    s.apply(action, player)
    settle(s)
    after = machine_parts(s, player)
    points, joined = after[0] - before[0], after[1] - before[1]
    pairs, ends = after[2] - before[2], after[3]
    parts = []
    if points > 0:
        shown = int(points) if points == int(points) else points
        parts.append(_n("scores {n} more point in your machine",
                        "scores {n} more points in your machine", shown))
    if joined > 0:
        parts.append(_n("joins {n} more tile to your Source", "joins {n} more tiles to your Source",
                        joined))
    if pairs > 0:
        parts.append(_("makes a pair of one colour that a third tile turns into points"))
    kind = state.describe_action(action, player).get("kind")
    if not parts and kind == "own":
        parts.append(_("keeps this tile waiting on your space until your machine can take it"))
    elif not parts and kind == "pile":
        parts.append(_("puts on the central pile the tile that helps your opponent least"))
    if not parts:
        theirs = machine_parts(s, 1 - player)[0] - machine_parts(state, 1 - player)[0]
        if theirs <= 0:
            parts.append(_("gives your opponent nothing to score"))
        else:
            parts.append(_("costs the least of your choices"))
    if ends >= 2:
        parts.append(_("keeps {ends} pipe ends open for your machine to grow", ends=ends))
    text = parts[0] if len(parts) == 1 else _("{first} and {last}", first=", ".join(parts[:-1]),
                                              last=parts[-1])
    if ends <= 1:
        return _("{hint}; your machine is close to closing", hint=text)
    return text
