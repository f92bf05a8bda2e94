"""Building Kontor positions for the worked examples: a field laid out card by card."""

from __future__ import annotations

import random

import meeple
from meeple.engine import resolve_chance
from meeple.games.kontor.components import CARD_GOODS, CARD_ID, CROSS_CELLS, WATER_CARDS
from meeple.games.kontor.rules import P_ACT, P_CHOOSE, S_PLACE, KontorState


def game(players: int = 2, **options) -> meeple.Game:
    return meeple.load("kontor", players=players, **options)


def fresh(players: int = 2, seed: int = 0, **options) -> KontorState:
    """A state after set-up (chance resolved with a seeded rng), at the first choice."""
    s = game(players, **options).new_initial_state()
    resolve_chance(s, random.Random(seed))
    return s


def _take_out(s: KontorState, c: int) -> None:
    """Remove card ``c`` from wherever it is (hands, piles, tops) so it can be laid."""
    for h in s.hands:
        if c in h:
            h.remove(c)
    for u in s.unseen:
        if c in u:
            u.remove(c)
    for q in s.queue:
        if c in q:
            q.remove(c)
    for k, t in enumerate(s.top):
        if t == c:
            s.top[k] = -1


def lay(s: KontorState, layout: dict[tuple[int, int], str], cross: bool = True,
        stored: bool = True) -> KontorState:
    """Replace the field by ``layout`` (cell -> card name or '~' for any water card).

    The standard cross is laid too unless ``cross`` is False. Goods cards get all their goods
    stored (taken from the supply). Areas are recomputed; nothing is valued.
    """
    g = s.game
    for i in range(g.G):
        c = s.cell[i]
        if c in WATER_CARDS:
            s.unseen[g.water_pile].append(c)
    s.cell = [-1] * g.G
    s.stored = [0] * g.G
    s.crane = [-1] * g.G
    s.area_of = [-1] * g.G
    s.areas = {}
    s.land = 0
    s.water = 1 << g.anchor
    s.cell[g.anchor] = CARD_ID["anchor"]
    s.supply = [g.options["warehouses_per_type"]] * 3
    cells = dict(layout)
    if cross:
        for xy in CROSS_CELLS:
            cells.setdefault(xy, "~")
    named = {CARD_ID[v] for v in cells.values() if v != "~"}
    for c in named:
        _take_out(s, c)
    spare = [c for c in s.unseen[g.water_pile] if c not in named]
    xs = [0, -2, 2] + [x for x, _ in cells]
    ys = [0, -2, 2] + [y for _, y in cells]
    s.frame = [min(xs), max(xs), min(ys), max(ys)]
    for (x, y), name in cells.items():
        i = g.idx(x, y)
        if name == "~":
            c = spare.pop()
            _take_out(s, c)
        else:
            c = CARD_ID[name]
        s.cell[i] = c
        if name == "~" or name.startswith(("water", "flood")):
            s.water |= 1 << i
        else:
            s.land |= 1 << i
            if stored:
                for t in CARD_GOODS[c]:
                    s.stored[i] |= 1 << t
                    s.supply[t] -= 1
    for comp in g.grid.components(s.land):
        aid = s.next_area
        s.next_area += 1
        s.areas[aid] = comp
        for j in range(g.G):
            if comp >> j & 1:
                s.area_of[j] = aid
    s._refresh_legal()
    for u in s.unseen:
        u.sort()
    s._legal_cache = {}
    s._sync()
    return s


def act_with(s: KontorState, player: int, card: str) -> KontorState:
    """Make ``player`` the one acting now with ``card`` (revealed, out of his hand)."""
    c = CARD_ID[card]
    _take_out(s, c)
    s.tasks = []
    s.phase = P_ACT
    s.step = S_PLACE
    s.acting = player
    s.card = c
    s.order = [player]
    s.act_i = 0
    s.revealed = [-1] * s.game.num_players
    s.revealed[player] = c
    s._legal_cache = {}
    s._sync()
    return s


def choosing(s: KontorState, hands: dict[int, list[str]]) -> KontorState:
    """Start a choose phase with the given hands."""
    for p, names in hands.items():
        for old in s.hands[p]:
            s.unseen[p if old < 88 else s.game.water_pile].append(old)
        s.hands[p] = []
        for name in names:
            c = CARD_ID[name]
            _take_out(s, c)
            s.hands[p].append(c)
    s.tasks = []
    s.phase = P_CHOOSE
    s.chosen = [-1] * s.game.num_players
    for u in s.unseen:
        u.sort()
    s._legal_cache = {}
    s._sync()
    return s


def do(s: KontorState, text: str, player: int | None = None) -> None:
    """Apply one move written in notation."""
    p = s.current_player if player is None else player
    s.apply(s.string_to_action(text, p), p)


def texts(s: KontorState, player: int | None = None) -> list[str]:
    p = s.current_player if player is None else player
    return [s.action_to_string(a, p) for a in s.legal_actions(p)]


def cells_of(s: KontorState, mask: int) -> set[tuple[int, int]]:
    return {s.game.xy(j) for j in range(s.game.G) if mask >> j & 1}


def legal_cells(s: KontorState) -> set[tuple[int, int]]:
    return cells_of(s, s.legal)
