"""Kontor's rules: the field, the round (choose, reveal, tax, act), areas, valuation, scoring.

The field is a padded square grid (an engine ``Grid``) of cell indices; occupied, water, land and
legal cells are int bitboards, so adjacency, closure and the field frame are a few shifts and
masks. Areas are kept incrementally (merged on placement, split on removal). Every shuffle is a
chance node (rules page 3.3): piles hold an unordered unseen part, a visible top and a known
returned queue. The notation is in ``notation.py``, what players see in ``views.py``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from meeple.engine import CHANCE, SIMULTANEOUS, TERMINAL, Game, Option, State, grid
from meeple.engine.core import equal_chance_index
from meeple.engine.errors import OptionError
from meeple.engine.i18n import N_, words
from meeple.engine.options import OptionSchema, Preset

from . import notation, views
from .components import (
    ANCHOR_ID,
    BEATS,
    BRIDGE,
    CARD_COIN,
    CARD_COLOUR,
    CARD_GOODS,
    CARD_KEY,
    CARD_KIND,
    CARD_NAME,
    CARD_SHIP,
    COLOURS,
    CRANE,
    CROSS_CELLS,
    CUSTOMS,
    FLOOD,
    GOODS,
    GOODS_CARD,
    IS_HARBOUR,
    NUM_CARDS,
    NV,
    P_ACT,
    P_CHOOSE,
    P_END,
    P_NEXT,
    P_ROUND,
    S_BUY,
    S_PLACE,
    S_REMOVE,
    S_SHIP,
    SEAT_COLOURS,
    SPECIAL_CARDS,
    STEP_NAMES,
    T_CROSS,
    T_HAND,
    T_TOP,
    TRIPLE_PAIR,
    WATER,
    WATER_CARDS,
    card_id,
    harbour_cards,
)

_, _n = words(__file__)

MODES = ("basic", "advanced", "expansion")
FIELD_SIZE = {("basic", 2): 6, ("advanced", 2): 7, ("expansion", 3): 8, ("expansion", 4): 9}
ROUND_CEILING = 500
"""Rounds after which a game always ends as E2 when ``max_rounds`` is 0 (rules 5.14, [R39])."""

KEEPERS = {"basic": 5, "advanced": 5, "expansion": 7}
CHITS_PER_TYPE = 6  # [R28]


_BYTE_BITS = tuple(tuple(tuple(k * 8 + j for j in grid.bits(b)) for b in range(256))
                   for k in range(32))
"""The set bits of every byte value at every byte position of a field mask (fields up to 256
cells), from ``grid.bits``: long masks are read a byte at a time."""


def _bits(m: int) -> list[int]:
    """The set bit indices of ``m``, lowest first: ``grid.bits``, a byte at a time for long
    masks (the legal cells, the water)."""
    if m.bit_count() <= 12:
        return grid.bits(m)
    out: list[int] = []
    k = 0
    table = _BYTE_BITS
    while m:
        b = m & 255
        if b:
            out += table[k][b]
        m >>= 8
        k += 1
    return out


def area_winner(counts: list[int], n: int) -> int:
    """The winner of an area from its counts (``counts[p * 3 + t]``), or -1 for nobody.

    Largest single lead wins; leads tied across players are broken by the cycle
    wine > spice > tea > wine; a pure cycle or no lead at all: nobody (rules 4.7).
    """
    leads: list[tuple[int, int, int]] = []
    for t in range(3):
        vals = counts[t::3]
        top = max(vals)
        if top == 0 or vals.count(top) > 1:
            continue
        leader = vals.index(top)
        second = max(v for p, v in enumerate(vals) if p != leader)
        leads.append((top - second, leader, t))
    if not leads:
        return -1
    d = max(x[0] for x in leads)
    c = [(p, t) for lead, p, t in leads if lead == d]
    players = {p for p, _ in c}
    if len(players) == 1:
        return c[0][0]
    for p in sorted(players):
        mine = [t for q, t in c if q == p]
        others = [t for q, t in c if q != p]
        if any(all(BEATS[m] == o for o in others) for m in mine):
            return p
    return -1


class Kontor(Game):
    """Kontor: 2-player basic and advanced, and the 3 & 4 player expansion."""

    name = "kontor"
    title = "Kontor"
    colours = SEAT_COLOURS
    version = "1"
    player_counts = (2, 3, 4)
    perfect_information = False
    pitch = N_("Build a harbour card by card and win its areas with tea, wine and spice")
    minutes = (20, 40)
    option_schema = OptionSchema(
        (
            Option("mode", str, None, choices=MODES,
                   help=N_("which game: the basic and advanced games are for 2 players, the "
                        "expansion for 3 or 4"),
                   label=N_("Game"),
                   labels=((None, N_("by the player count: basic for 2, the expansion for 3 or 4")),
                           ("basic", N_("basic game: 2 players on a 6 × 6 harbour")),
                           ("advanced", N_("advanced game: 2 players on a 7 × 7 harbour, with "
                                        "the patrol ship")),
                           ("expansion", N_("expansion: 3 players on an 8 × 8 harbour, 4 on "
                                         "9 × 9")))),
            Option("special_cards", bool, None, reconstructed=True,
                   help=N_("the Flood, the Bridge and the Customs house; they need the patrol "
                        "ship, so never in the basic game"),
                   label=N_("Special cards"),
                   labels=((None, N_("as the game says (with the expansion only)")),
                           (True, N_("with special cards")), (False, N_("without special cards")))),
            Option("max_rounds", int, 0, minimum=0, reconstructed=True,
                   help=N_("the game ends after this many rounds and is scored as usual; "
                        "0: no limit (a game lasts about 14 to 22 rounds)"),
                   label=N_("Round limit"), labels=((0, N_("no limit")),)),
            Option("scored_areas", str, None, reconstructed=True,
                   help=N_("which closed areas score at the end; as the game says: every area "
                        "with 2 players or with the storage limit, else the 7 largest (3 "
                        "players) or the 9 largest (4 players); areas as large as the last "
                        "one that scores score too"),
                   label=N_("Areas that score"),
                   labels=((None, N_("as the game says (see below)")),
                           ("all", N_("every closed area")),
                           ("largest_5", N_("the 5 largest closed areas")),
                           ("largest_7", N_("the 7 largest closed areas")),
                           ("largest_9", N_("the 9 largest closed areas"))),
                   advanced=True),
            Option("export_warehouse", bool, False, reconstructed=True,
                   help=N_("2-player games: you may export one good of each harbour card you "
                        "lay, and the most exports of a goods type earn a point, as in the "
                        "expansion"),
                   label=N_("Export warehouse (2 players)"), advanced=True),
            Option("restriction_of_camp", bool, False, reconstructed=True,
                   help=N_("3 or 4 players: in each area a player counts at most 2 of each "
                        "goods type, and harbour cards may not join two areas"),
                   label=N_("Storage limit (3 or 4 players)"), advanced=True),
            Option("remove_triple_cards", bool, None, reconstructed=True,
                   help=N_("each colour's card with three goods is left out of the game"),
                   label=N_("Triple cards"),
                   labels=((None, N_("as the game says (left out in the expansion only)")),
                           (True, N_("left out")), (False, N_("kept in"))),
                   advanced=True),
            Option("warehouses_per_type", int, 16, minimum=1, maximum=64,
                   help=N_("how many warehouses of each goods type the supply holds (32 is "
                        "like playing with two boxes)"),
                   label=N_("Warehouses of each goods type"), advanced=True),
            Option("limited_coins", bool, False, reconstructed=True,
                   help=N_("only 20 coins in all; water cards pay only while the bank has coins"),
                   label=N_("Limited coins"), advanced=True),
            Option("open_draw_piles", bool, True, reconstructed=True,
                   help=N_("everyone sees the top card of the water pile and of each harbour "
                        "pile"),
                   label=N_("Open draw piles"), advanced=True),
        )
    )

    @classmethod
    def presets(cls) -> tuple[Preset, ...]:
        return (
            Preset(N_("Standard"), N_("The basic game with 2 players, the expansion with 3 or 4.")),
            Preset(N_("Short game"), N_("As the standard game, but it ends after 10 rounds."),
                   {"max_rounds": 10}),
            Preset(N_("Advanced game"), N_("For 2 players: a larger harbour and the patrol ship, "
                   "which removes cards."), {"mode": "advanced"}, players=(2,)),
            Preset(N_("Advanced with everything"), N_("For 2 players: the advanced game with the "
                   "special cards and the export warehouse."),
                   {"mode": "advanced", "special_cards": True, "export_warehouse": True},
                   players=(2,)),
        )

    @classmethod
    def configurations(cls) -> list[tuple[int, dict[str, Any]]]:
        return [
            (2, {"mode": "basic"}),
            (2, {"mode": "advanced"}),
            (2, {"mode": "advanced", "special_cards": True, "export_warehouse": True}),
            (3, {"mode": "expansion"}),
            (4, {"mode": "expansion"}),
            (3, {"mode": "expansion", "restriction_of_camp": True}),
        ]

    @classmethod
    def default_players(cls) -> int:
        return 2

    def allowed_player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        """Every count: a mode that does not fit the count is refused in ``_setup``, saying
        which mode fits."""
        return self.player_counts

    def _setup(self) -> None:
        o = self.options
        n = self.num_players
        mode = o["mode"] or ("basic" if n == 2 else "expansion")
        fits: tuple[int, ...] = (2,)
        if mode == "expansion":
            fits = (3, 4)
        if n not in fits:
            if n <= 2:
                raise OptionError(_("Kontor's expansion is for 3 or 4 players; with 2 players "
                                    "play the basic or the advanced game"))
            if mode == "advanced":
                raise OptionError(_("Kontor's advanced game is for 2 players; with {n} players "
                                    "play the expansion", n=n))
            raise OptionError(_("Kontor's basic game is for 2 players; with {n} players play "
                                "the expansion", n=n))
        o["mode"] = mode
        self.mode = mode
        self.expansion = mode == "expansion"
        if o["export_warehouse"] and self.expansion:
            raise OptionError(_("the export warehouse is a 2-player variant: the expansion "
                                "always exports"))
        if o["restriction_of_camp"] and not self.expansion:
            raise OptionError(_("the storage limit is a variant of the expansion (3 or 4 "
                                "players)"))
        if o["special_cards"] and mode == "basic":
            raise OptionError(_("the special cards need the patrol ship: play the advanced "
                                "game or the expansion"))
        self.special = bool(o["special_cards"]) if o["special_cards"] is not None else (
            self.expansion)
        self.triple_removed = bool(o["remove_triple_cards"]) if (
            o["remove_triple_cards"] is not None) else self.expansion
        self.restriction = bool(o["restriction_of_camp"])
        self.export = self.expansion or bool(o["export_warehouse"])
        self.has_ship = mode != "basic"
        self.open_piles = bool(o["open_draw_piles"])
        self.limited = bool(o["limited_coins"])
        self.max_rounds = o["max_rounds"] or ROUND_CEILING
        sa = o["scored_areas"]
        if sa is None:
            sa = "all" if (n == 2 or self.restriction) else f"largest_{2 * n + 1}"
        if sa == "all":
            self.scored_cut = 0
        else:
            m = re.fullmatch(r"largest_([1-9]\d*)", sa)
            if not m:
                raise OptionError(_(
                    "option 'scored_areas' of kontor cannot be {value}; allowed: 'all' or "
                    "'largest_<n>' with n >= 1, e.g. 'largest_5'", value=repr(sa)))
            self.scored_cut = int(m.group(1))
        self.scored_areas = sa
        # record the values the mode chose, so records replay with explicit options
        o["scored_areas"] = sa
        o["special_cards"] = self.special
        o["remove_triple_cards"] = self.triple_removed
        self.keepers = KEEPERS[mode]
        N = self.N = FIELD_SIZE[(mode, n)]
        O = self.O = N - 3
        self.off = O + 1
        W = self.W = 2 * O + 3
        self.G = G = W * W
        self.grid = grid.Grid(W, W)
        """The padded field: one ring of cells that are never played around the field."""
        inner = range(1, W - 1)
        self.valid = self.grid.mask_of((r, c) for r in inner for c in inner)
        self.nb: list[tuple[int, ...]] = [
            tuple(j for j in self.grid.neighbour_indices(i) if self.valid >> j & 1)
            for i in range(G)]
        """The field cells next to each cell, from the grid's neighbours."""
        self.col = [self.grid.col_mask(c) & self.valid for c in range(W)]
        """The field cells of each column (index ``x + off``)."""
        self.row = [self.grid.row_mask(r) & self.valid for r in range(W)]
        self._xy = [(c - self.off, r - self.off) for r, c in map(self.grid.cell, range(G))]
        """The rules' ``(x, y)`` of every cell index, from the grid's cells."""
        self._inside_cache: dict[tuple[int, int, int, int], int] = {}
        self.anchor = self.idx(0, 0)
        self.cross = [self.idx(x, y) for x, y in CROSS_CELLS]
        self.PLACE = NUM_CARDS
        self.SHIP = self.PLACE + NV * G
        self.REMOVE = self.SHIP + G
        self.BUY = self.REMOVE + G
        self.SKIP = self.BUY + 1
        self.water_pile = n
        self.special_pile = n + 1

    def idx(self, x: int, y: int) -> int:
        """Cell index of ``(x, y)`` (rules page 2.7 coordinates)."""
        return self.grid.index(y + self.off, x + self.off)

    def xy(self, i: int) -> tuple[int, int]:
        """The ``(x, y)`` coordinates of cell index ``i``."""
        return self._xy[i]

    def xy_text(self, i: int) -> str:
        """Cell ``i`` as the notation writes it: ``(x,y)``."""
        x, y = self.xy(i)
        return f"({x},{y})"

    def xy_list(self, mask: int) -> list[list[int]]:
        """The ``[x, y]`` of every cell of ``mask``, lowest index first."""
        return [list(self.xy(j)) for j in grid.iter_bits(mask)]

    def cell_id(self, i: int) -> str:
        """SVG element id of cell ``i``: ``cell-<row>-<col>`` on the padded grid."""
        r, c = self.grid.cell(i)
        return f"cell-{r}-{c}"

    def on_grid(self, x: int, y: int) -> bool:
        return -self.O <= x <= self.O and -self.O <= y <= self.O

    def inside(self, minx: int, maxx: int, miny: int, maxy: int) -> int:
        """Cells not outside the field for this frame."""
        key = (minx, maxx, miny, maxy)
        m = self._inside_cache.get(key)
        if m is None:
            N, off = self.N, self.off
            cm = rm = 0
            for x in range(max(maxx - N + 1, -self.O), min(minx + N - 1, self.O) + 1):
                cm |= self.col[x + off]
            for y in range(max(maxy - N + 1, -self.O), min(miny + N - 1, self.O) + 1):
                rm |= self.row[y + off]
            m = self._inside_cache[key] = cm & rm
        return m

    @property
    def num_distinct_actions(self) -> int:
        return self.SKIP + 1

    @property
    def max_chance_outcomes(self) -> int:
        return NUM_CARDS

    @property
    def max_game_length(self) -> int:
        n = self.num_players
        return 8 + 6 * n + 2 + self.max_rounds * n * 9

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (views.N_PLANES * self.G + views.N_VECTOR,)

    def planes(self) -> list[dict[str, Any]]:
        return views.planes(self)



class KontorState(State):
    """One position of a Kontor game."""

    game: Kontor

    def __init__(self, game: Kontor):
        super().__init__(game)
        g = game
        n = g.num_players
        self.phase = P_ROUND
        self.step = S_PLACE
        self.round = 0
        self.cell = [-1] * g.G
        self.stored = [0] * g.G
        self.valued = [0] * g.G  # goods a card had stored when its area was valued
        self.crane = [-1] * g.G  # named type t (active), t + 3 (inactive), -1 none
        self.area_of = [-1] * g.G
        self.areas: dict[int, int] = {}
        self.next_area = 0
        self.closed: list[tuple[int, int, int, tuple[int, ...]]] = []  # mask, owner, size, counts
        self.closed_mask = 0
        self.land = 0
        self.water = 1 << g.anchor
        self.cell[g.anchor] = ANCHOR_ID
        self.frame = [-2, 2, -2, 2]
        self.legal = 0
        self.ship = g.anchor if g.has_ship else -1
        self.ship_moves = 0
        self.moved_to_anchor = False
        self.coins = [4] * n
        self.treasury = 20 - 4 * n
        self.keepers = [g.keepers] * n
        self.won = [0] * n
        self.chits = [0] * (3 * n)
        self.chit_supply = [CHITS_PER_TYPE] * 3
        self.supply = [g.options["warehouses_per_type"]] * 3
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.public = [False] * NUM_CARDS
        self.unseen: list[list[int]] = []
        for p in range(n):
            cards = harbour_cards(p)
            if g.triple_removed:
                cards.remove(card_id(p, TRIPLE_PAIR))
            self.unseen.append(cards)
        self.unseen.append(list(WATER_CARDS))
        self.unseen.append(list(SPECIAL_CARDS) if g.special else [])
        self.queue: list[list[int]] = [[] for _ in range(n + 2)]
        self.top = [-1] * (n + 2)
        self.chosen = [-1] * n
        self.revealed = [-1] * n
        self.order: list[int] = []
        self.act_i = 0
        self.acting = -1
        self.card = -1
        self.ended = ""
        self.log: list[str] = []
        tasks: list[tuple[int, int, int]] = [(T_CROSS, i, n) for i in g.cross]
        for p in range(n):
            tasks += [(T_HAND, p, p)] * 3 + [(T_HAND, p, n)] * 2
        if g.open_piles:
            tasks += [(T_TOP, pile, 0) for pile in range(n + 1)]
        self.tasks = tasks
        self._final: dict[str, Any] | None = None
        self._advance()

    # ------------------------------------------------------------------ copies
    def clone(self) -> KontorState:
        s = self._blank_copy()
        s.phase, s.step, s.round = self.phase, self.step, self.round
        s.cell = self.cell[:]
        s.stored = self.stored[:]
        s.valued = self.valued[:]
        s.crane = self.crane[:]
        s.area_of = self.area_of[:]
        s.areas = dict(self.areas)
        s.next_area = self.next_area
        s.closed = self.closed[:]
        s.closed_mask, s.land, s.water = self.closed_mask, self.land, self.water
        s.frame = self.frame[:]
        s.legal = self.legal
        s.ship, s.ship_moves, s.moved_to_anchor = self.ship, self.ship_moves, self.moved_to_anchor
        s.coins = self.coins[:]
        s.treasury = self.treasury
        s.keepers = self.keepers[:]
        s.won = self.won[:]
        s.chits = self.chits[:]
        s.chit_supply = self.chit_supply[:]
        s.supply = self.supply[:]
        s.hands = [h[:] for h in self.hands]
        s.public = self.public[:]
        s.unseen = [u[:] for u in self.unseen]
        s.queue = [q[:] for q in self.queue]
        s.top = self.top[:]
        s.chosen = self.chosen[:]
        s.revealed = self.revealed[:]
        s.order = self.order[:]
        s.act_i, s.acting, s.card, s.ended = self.act_i, self.acting, self.card, self.ended
        s.log = self.log[:]
        s.tasks = self.tasks[:]
        s._final = self._final
        s.cp = self.cp
        return s

    def resample(self, player: int, rng: random.Random) -> KontorState:
        """Redraw what ``player`` cannot see: other hands' hidden cards, unseen pile parts,
        and the choices of others not yet revealed."""
        s = self.clone()
        g = self.game
        n = g.num_players
        pub = s.public
        kinds: tuple[tuple[str, Sequence[int]], ...] = (
            ("harbour", range(n)), ("water", [g.water_pile]), ("special", [g.special_pile]))
        for pile_of, piles in kinds:
            for pile in piles:
                slots: list[tuple[int, int]] = []
                pool = list(s.unseen[pile])
                for q in range(n):
                    if q == player:
                        continue
                    for j, c in enumerate(s.hands[q]):
                        if pub[c]:
                            continue
                        if pile_of == "harbour" and CARD_COLOUR[c] == pile:
                            slots.append((q, j))
                            pool.append(c)
                        elif pile_of == "water" and CARD_KIND[c] == WATER:
                            slots.append((q, j))
                            pool.append(c)
                        elif pile_of == "special" and c >= SPECIAL_CARDS[0] and c < ANCHOR_ID:
                            slots.append((q, j))
                            pool.append(c)
                if not slots:
                    continue
                pool.sort()  # the draw rests on which cards are unseen, not where they lie
                rng.shuffle(pool)
                for k, (q, j) in enumerate(slots):
                    s.hands[q][j] = pool[k]
                s.unseen[pile] = sorted(pool[len(slots):])
        for q in range(n):
            if q != player and s.chosen[q] >= 0:
                s.chosen[q] = rng.choice(s.hands[q])
        return s

    # ------------------------------------------------------------------ turn structure
    current_player = property(attrgetter("cp"), doc="The seat to act, CHANCE, SIMULTANEOUS "
                              "or TERMINAL (kept up to date by every change).")

    def _sync(self) -> None:
        """Recompute the cached ``current_player`` after the state changed."""
        self.cp = self._current()

    def _current(self) -> int:
        if self.tasks:
            return CHANCE
        ph = self.phase
        if ph == P_CHOOSE:
            return SIMULTANEOUS
        if ph == P_ACT:
            return self.acting
        return TERMINAL

    def _pending_players(self) -> list[int]:
        return [p for p in range(self.game.num_players) if self.chosen[p] < 0]

    def _chance_pile(self) -> int:
        kind, a, b = self.tasks[0]
        return a if kind == T_TOP else b

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        u = self.unseen[self._chance_pile()]
        p = 1.0 / len(u)
        return [(c, p) for c in u]

    def _draw_chance(self, rng: random.Random) -> int:
        """The engine's draw (every unseen card of the pile equally likely), without listing
        the outcomes."""
        if self.current_player != CHANCE:
            return State._draw_chance(self, rng)
        u = self.unseen[self._chance_pile()]
        return u[equal_chance_index(len(u), rng.random())]

    def _legal_actions(self, player: int) -> list[int]:
        if player == CHANCE:
            return list(self.unseen[self._chance_pile()])
        g = self.game
        if self.phase == P_CHOOSE:
            return sorted(self.hands[player])
        step = self.step
        if step == S_PLACE:
            return self._place_actions()
        if step == S_SHIP:
            out = [g.SHIP + i for i in _bits(self.water & ~(1 << self.ship))]
        elif step == S_BUY:
            out = [g.BUY]
        else:
            out = [g.REMOVE + i for i in self._removable()]
        out.append(g.SKIP)
        return out

    def _place_actions(self) -> list[int]:
        g = self.game
        card = self.card
        base = g.PLACE
        kind = CARD_KIND[card]
        if kind == CRANE:
            variants = [1, 2, 3]
        elif kind == GOODS_CARD and g.export:
            variants = [0] + [
                4 + t for t in sorted(CARD_GOODS[card])
                if not g.expansion or self.chit_supply[t] > 0
            ]
        else:
            variants = [0]
        return [base + i * NV + v for i in self._targets(card) for v in variants]

    def _targets(self, card: int) -> list[int]:
        """The cells ``card`` may be placed on now (rules 4.5)."""
        kind = CARD_KIND[card]
        g = self.game
        if kind == WATER:
            return list(_bits(self.legal))
        if kind == FLOOD:
            return [i for i in _bits(self.land) if self.area_of[i] >= 0
                    and IS_HARBOUR[self.cell[i]]]
        if kind == BRIDGE:
            out = []
            near_closed = g.grid.grow(self.closed_mask)
            for i in _bits(self.water & ~(1 << g.anchor) & ~near_closed):
                if i == self.ship:
                    continue
                if g.restriction and self._blocked(i):
                    continue
                out.append(i)
            return out
        # harbour cards and customs houses
        if not g.restriction:
            return list(_bits(self.legal))
        return [i for i in _bits(self.legal) if not self._blocked(i)]

    def _has_target(self, card: int) -> bool:
        """Whether ``card`` could be placed now (a fast form of ``_targets``)."""
        kind = CARD_KIND[card]
        if kind == WATER or (not self.game.restriction and (IS_HARBOUR[card] or kind == CUSTOMS)):
            return self.legal != 0
        return bool(self._targets(card))

    def _blocked(self, i: int) -> bool:
        """Edge-adjacent to land of two or more different areas (``restriction_of_camp``)."""
        seen = -1
        for j in self.game.nb[i]:
            a = self.area_of[j]
            if a >= 0:
                if seen >= 0 and a != seen:
                    return True
                seen = a
        return False

    def _removable(self) -> list[int]:
        if self.ship < 0:
            return []
        out = []
        for j in self.game.nb[self.ship]:
            c = self.cell[j]
            if c >= 0 and IS_HARBOUR[c] and CARD_SHIP[c] and self.area_of[j] >= 0:
                out.append(j)
        out.sort()
        return out

    # ------------------------------------------------------------------ applying
    def _apply(self, action: int, player: int) -> None:
        g = self.game
        if player == CHANCE:
            self._apply_chance(action)
        elif self.phase == P_CHOOSE:
            self.chosen[player] = action
            if -1 not in self.chosen:
                self._reveal()
        elif action == g.SKIP:
            if self.step == S_REMOVE:
                self._finish_action()
            else:
                self._to_remove_step()
        elif self.step == S_PLACE:
            i, v = divmod(action - g.PLACE, NV)
            self._place(i, v)
        elif self.step == S_SHIP:
            i = action - g.SHIP
            self.ship = i
            self.ship_moves += 1
            self.log.append(f"{COLOURS[player]}: ship {self.game.xy_text(i)}")
            if (i == g.anchor and g.special and self.unseen[g.special_pile]
                    and self.coins[player] >= 2):
                self.step = S_BUY
            else:
                self._to_remove_step()
        elif self.step == S_BUY:
            self.coins[player] -= 2
            self.treasury += 2
            self.tasks.append((T_HAND, player, g.special_pile))
            self.log.append(f"{COLOURS[player]}: buy")
            self._to_remove_step()
        else:
            i = action - g.REMOVE
            self.log.append(f"{COLOURS[player]}: remove {CARD_NAME[self.cell[i]]} "
                            f"{self.game.xy_text(i)}")
            self._remove_card(i)
            self.cell[i] = -1
            self._refresh_legal()
            self._finish_action()
        self._advance()

    def _apply_chance(self, c: int) -> None:
        kind, a, b = self.tasks.pop(0)
        if kind == T_CROSS:
            self.unseen[b].remove(c)
            self.cell[a] = c
            self.water |= 1 << a
            if not self.tasks or self.tasks[0][0] != T_CROSS:
                self._refresh_legal()
        elif kind == T_HAND:
            self.unseen[b].remove(c)
            self.hands[a].append(c)
            self.public[c] = False
            if self.phase != P_ROUND:
                what = "a special card" if b == self.game.special_pile else (
                    "a water card" if b == self.game.water_pile else "a harbour card")
                self.log.append(f"{COLOURS[a]} draws {what}")
        else:
            self.unseen[a].remove(c)
            self.top[a] = c

    def _advance(self) -> None:
        """Run the automatic parts of the round until a player or chance must act."""
        self._run()
        self.cp = self._current()

    def _run(self) -> None:
        g = self.game
        while True:
            while self.tasks:  # resolve draws that need no chance
                kind, a, b = self.tasks[0]
                pile = a if kind == T_TOP else b
                if self.unseen[pile]:
                    return
                self.tasks.pop(0)
                q = self.queue[pile]
                if kind == T_TOP:
                    self.top[pile] = q.pop(0) if q else -1
                elif q:
                    c = q.pop(0)
                    self.hands[a].append(c)
                    self.public[c] = True
                    self.log.append(f"{COLOURS[a]} draws {CARD_NAME[c]}")
            ph = self.phase
            if ph == P_ROUND:
                if self.round >= g.max_rounds:
                    self._end("E2")
                    return
                for p in range(g.num_players):
                    if not self._has_playable_land(p):
                        self.log.append(f"{COLOURS[p]} has only water cards left")
                        self._end("E2")
                        return
                self.round += 1
                self.ship_moves = 0
                self.phase = P_CHOOSE
                self.chosen = [-1] * g.num_players
                self.revealed = [-1] * g.num_players
                return
            if ph == P_NEXT:
                if self.act_i >= len(self.order):
                    self.phase = P_ROUND
                    self.acting = -1
                    self.card = -1
                    continue
                p = self.order[self.act_i]
                card = self.revealed[p]
                if not self._has_target(card):
                    self.hands[p].append(card)
                    self.public[card] = True
                    self.revealed[p] = -1
                    self.log.append(f"return {CARD_NAME[card]}")
                    self.act_i += 1
                    continue
                self.acting = p
                self.card = card
                self.step = S_PLACE
                self.phase = P_ACT
                return
            return

    def _has_playable_land(self, p: int) -> bool:
        land_ok = None
        for c in self.hands[p]:
            k = CARD_KIND[c]
            if k == WATER:
                continue
            if IS_HARBOUR[c] or k == CUSTOMS:
                if land_ok is None:
                    land_ok = self._has_target(c)
                if land_ok:
                    return True
            elif self._has_target(c):
                return True
        return False

    def _reveal(self) -> None:
        g = self.game
        n = g.num_players
        self.revealed = self.chosen[:]
        self.chosen = [-1] * n
        charges = [0] * n
        for p, c in enumerate(self.revealed):
            self.hands[p].remove(c)
            self.public[c] = True
            if CARD_COIN[c]:
                charges[(p - 1) % n] += 1
            if CARD_KIND[c] == CUSTOMS:
                for q in range(n):
                    if q != p:
                        charges[q] += 1
        self.log.append("reveal " + " ".join(CARD_NAME[c] for c in self.revealed))
        acting = []
        for p in range(n):
            k = charges[p]
            if k and self.coins[p] < k:
                c = self.revealed[p]
                self.hands[p].append(c)
                self.revealed[p] = -1
                self.log.append(f"withdraw {COLOURS[p]}")
                continue
            if k:
                self.coins[p] -= k
                self.treasury += k
                self.log.append(f"tax {COLOURS[p]} {k}")
            acting.append(p)
        acting.sort(key=lambda p: -CARD_KEY[self.revealed[p]])
        self.order = acting
        self.act_i = 0
        self.phase = P_NEXT

    def _refresh_legal(self) -> None:
        g = self.game
        occ = self.land | self.water
        self.legal = g.grid.grow(occ) & ~occ & g.inside(*self.frame)

    def _place(self, i: int, v: int) -> None:
        g = self.game
        p = self.acting
        card = self.card
        kind = CARD_KIND[card]
        self.revealed[p] = -1
        x, y = g.xy(i)
        text = f"{COLOURS[p]}: place {CARD_NAME[card]} ({x},{y})"
        if v:
            text += f" {'crane' if v < 4 else 'export'}={GOODS[(v - 1) % 3]}"
        self.log.append(text)
        b = 1 << i
        if kind == FLOOD:
            self._remove_card(i)
            self.cell[i] = card
            self.water |= b
        elif kind == BRIDGE:
            self.water &= ~b
            self.cell[i] = card
            self._add_land(i)
        else:
            f = self.frame
            if x < f[0]:
                f[0] = x
            elif x > f[1]:
                f[1] = x
            if y < f[2]:
                f[2] = y
            elif y > f[3]:
                f[3] = y
            self.cell[i] = card
            if kind == WATER:
                self.water |= b
                if not g.limited or self.treasury > 0:
                    self.coins[p] += 1
                    self.treasury -= 1
            else:
                self._add_land(i)
                if kind == GOODS_CARD:
                    self._store_goods(i, card, p, v - 4 if v >= 4 else -1)
                elif kind == CRANE:
                    t = v - 1
                    if g.restriction and self._count(self.areas[self.area_of[i]], p, t) >= 2:
                        self.crane[i] = t + 3
                    else:
                        self.crane[i] = t
        self._refresh_legal()
        self._close_areas()
        if not self.legal:
            self._end("E1")
            return
        if g.has_ship and CARD_SHIP[card] and self.ship_moves < 2:
            self.step = S_SHIP
        else:
            self._to_remove_step()

    def _to_remove_step(self) -> None:
        if self.game.has_ship and CARD_SHIP[self.card] and self._removable():
            self.step = S_REMOVE
        else:
            self._finish_action()

    def _finish_action(self) -> None:
        g = self.game
        p = self.acting
        card = self.card
        kind = CARD_KIND[card]
        if kind == WATER:
            self._draw(p, g.water_pile)
        elif IS_HARBOUR[card]:
            self._draw(p, p)
        self.act_i += 1
        self.phase = P_NEXT
        self.acting = -1
        self.card = -1

    def _draw(self, p: int, pile: int) -> None:
        if self.game.open_piles:
            c = self.top[pile]
            if c < 0:
                return
            self.hands[p].append(c)
            self.public[c] = True
            self.top[pile] = -1
            self.log.append(f"{COLOURS[p]} draws {CARD_NAME[c]}")
            self.tasks.append((T_TOP, pile, 0))
        else:
            self.tasks.append((T_HAND, p, pile))

    def _add_land(self, i: int) -> None:
        """Put land on cell ``i`` and merge the areas it touches."""
        mask = 1 << i
        areas = self.areas
        area_of = self.area_of
        for j in self.game.nb[i]:
            a = area_of[j]
            if a >= 0 and a in areas:
                mask |= areas.pop(a)
        self.land |= 1 << i
        aid = self.next_area
        self.next_area += 1
        areas[aid] = mask
        for j in _bits(mask):
            area_of[j] = aid

    def _store_goods(self, i: int, card: int, p: int, export: int) -> None:
        g = self.game
        if export >= 0:
            if g.expansion:
                self.chit_supply[export] -= 1
            self.chits[p * 3 + export] += 1
        mask = self.areas[self.area_of[i]] if g.restriction else 0
        for t in CARD_GOODS[card]:
            if t == export:
                continue
            if self.supply[t] <= 0:
                continue
            if g.restriction and self._count(mask, p, t) >= 2:
                continue
            self.supply[t] -= 1
            self.stored[i] |= 1 << t

    def _count(self, mask: int, p: int, t: int) -> int:
        """count(A, p, t): p's stored warehouses of t plus p's active cranes naming t."""
        n = 0
        bit = 1 << t
        for j in _bits(mask):
            c = self.cell[j]
            if CARD_COLOUR[c] != p:
                continue
            if self.stored[j] & bit:
                n += 1
            if self.crane[j] == t:
                n += 1
        return n

    def area_counts(self, mask: int) -> list[int]:
        """Counts of every player and type in the cells of ``mask`` (``[p * 3 + t]``)."""
        counts = [0] * (3 * self.game.num_players)
        for j in _bits(mask):
            c = self.cell[j]
            p = CARD_COLOUR[c]
            if p < 0:
                continue
            s = self.stored[j]
            if s:
                for t in range(3):
                    if s >> t & 1:
                        counts[p * 3 + t] += 1
            k = self.crane[j]
            if 0 <= k < 3:
                counts[p * 3 + k] += 1
        return counts

    def _remove_card(self, i: int) -> None:
        """Remove harbour card on cell ``i`` from its open area (rules 4.6); the caller fills
        the cell (empty for the ship, a Flood card)."""
        g = self.game
        c = self.cell[i]
        q = CARD_COLOUR[c]
        aid = self.area_of[i]
        mask = self.areas.pop(aid)
        for t in CARD_GOODS[c]:
            bit = 1 << t
            if self.stored[i] & bit:
                self.stored[i] &= ~bit
                self.supply[t] += 1
                continue
            best = -1
            for j in _bits(mask):
                if j != i and CARD_COLOUR[self.cell[j]] == q and self.stored[j] & bit:
                    if best < 0 or CARD_KEY[self.cell[j]] > CARD_KEY[self.cell[best]]:
                        best = j
            if best >= 0:
                self.stored[best] &= ~bit
                self.supply[t] += 1
            elif self.chits[q * 3 + t] > 0:
                self.chits[q * 3 + t] -= 1
                if g.expansion:
                    self.chit_supply[t] += 1
        self.stored[i] = 0
        self.crane[i] = -1
        self.queue[q].append(c)
        if g.open_piles and self.top[q] < 0 and not any(
                t[0] == T_TOP and t[1] == q for t in self.tasks):
            self.tasks.append((T_TOP, q, 0))
        self.land &= ~(1 << i)
        self.area_of[i] = -1
        for comp in g.grid.components(mask & ~(1 << i)):
            aid = self.next_area
            self.next_area += 1
            self.areas[aid] = comp
            for j in _bits(comp):
                self.area_of[j] = aid

    def _close_areas(self) -> None:
        """Value every open area with no legal cell next to it, larger first (rules 4.7)."""
        near_legal = self.game.grid.grow(self.legal)
        closing = []
        for aid, m in self.areas.items():
            if not m & near_legal:
                closing.append((-m.bit_count(), (m & -m).bit_length(), aid))
        if not closing:
            return
        closing.sort()
        for _, _, aid in closing:
            self._value(aid)

    def _value(self, aid: int) -> None:
        n = self.game.num_players
        mask = self.areas.pop(aid)
        counts = self.area_counts(mask)
        w = area_winner(counts, n)
        owner = -1
        if w >= 0 and self.keepers[w] > 0:
            self.keepers[w] -= 1
            self.won[w] += 1
            owner = w
        for j in _bits(mask):
            s = self.stored[j]
            if s:
                for t in range(3):
                    if s >> t & 1:
                        self.supply[t] += 1
                self.stored[j] = 0
                self.valued[j] = s
            self.area_of[j] = -1
        self.closed.append((mask, owner, mask.bit_count(), tuple(counts)))
        self.closed_mask |= mask
        cells = " ".join(self.game.xy_text(j) for j in _bits(mask))
        self.log.append(f"valuate {cells} -> {COLOURS[owner] if owner >= 0 else 'none'}")

    def _end(self, why: str) -> None:
        self.ended = why
        self.phase = P_END
        self.tasks = []
        for p in range(self.game.num_players):
            c = self.revealed[p]
            if c >= 0:
                self.hands[p].append(c)
                self.public[c] = True
                self.revealed[p] = -1
                if why == "E1":
                    self.log.append(f"return {CARD_NAME[c]}")
            if self.chosen[p] >= 0:
                self.chosen[p] = -1
        self.acting = -1
        self.card = -1
        self.log.append(f"end {why}")
        self._final = self.breakdown()

    # ------------------------------------------------------------------ scoring
    def scored_closed(self) -> list[int]:
        """Indices into ``closed`` of the areas that score (rules 6.2)."""
        cut = self.game.scored_cut
        idx = list(range(len(self.closed)))
        if not cut or len(idx) <= cut:
            return idx
        sizes = sorted((a[2] for a in self.closed), reverse=True)
        s = sizes[cut - 1]
        return [k for k in idx if self.closed[k][2] >= s]

    def breakdown(self) -> dict[str, Any]:
        """Victory points per player with every part (rules 6.3) and the tie-break values."""
        g = self.game
        n = g.num_players
        scored = self.scored_closed()
        areas = [0] * n
        for k in scored:
            o = self.closed[k][1]
            if o >= 0:
                areas[o] += 1
        chit_bonus = [[0] * 3 for _ in range(n)]
        if g.export:
            for t in range(3):
                vals = [self.chits[p * 3 + t] for p in range(n)]
                top = max(vals)
                if top >= 1 and vals.count(top) == 1:
                    chit_bonus[vals.index(top)][t] = 1
        penalty = [0] * n
        money = [0] * n
        if g.expansion:
            for p in range(n):
                if not any(self.chits[p * 3: p * 3 + 3]):
                    penalty[p] = -1
            top = max(self.coins)
            if self.coins.count(top) == 1:
                money[self.coins.index(top)] = 1
        players = []
        for p in range(n):
            best = self.best_harbour_card(p)
            players.append({
                "player": p,
                "colour": COLOURS[p],
                "areas": areas[p],
                "chit_majorities": {GOODS[t]: chit_bonus[p][t] for t in range(3)},
                "no_chit_penalty": penalty[p],
                "money_majority": money[p],
                "total": areas[p] + sum(chit_bonus[p]) + penalty[p] + money[p],
                "areas_won": self.won[p],
                "coins": self.coins[p],
                "best_harbour_card": CARD_NAME[best] if best >= 0 else None,
                "_best_key": CARD_KEY[best] if best >= 0 else -1,
            })
        return {
            "scored_areas": g.scored_areas,
            "scored": [g.xy_list(self.closed[k][0]) for k in scored],
            "players": players,
            "end": self.ended,
        }

    def final_result(self) -> dict[str, Any]:
        """The scoring of :meth:`breakdown`, fixed at the end of the game."""
        return self._final if self._final is not None else self.breakdown()

    def winner_of(self, counts: list[int]) -> int:
        """Who would win an area with these counts now (:func:`area_winner`), or -1."""
        return area_winner(counts, self.game.num_players)

    def best_harbour_card(self, p: int) -> int:
        """``p``'s highest harbour card in hand by order key (the tie-break of rules 6.4), or -1
        without one."""
        return max((c for c in self.hands[p] if IS_HARBOUR[c]), key=CARD_KEY.__getitem__,
                   default=-1)

    def scores(self) -> list[float]:
        b = self.final_result()
        return [float(x["total"]) for x in b["players"]]

    def ranking_key(self, player: int) -> tuple:
        b = self.final_result()
        x = b["players"][player]
        return (x["total"], x["areas_won"], x["_best_key"])

    # ------------------------------------------------------------------ notation and views
    def _action_to_string(self, action: int, player: int) -> str:
        return notation.action_to_string(self, action, player)

    def _string_to_action(self, text: str, player: int) -> int:
        return notation.string_to_action(self, text, player)

    def _action_to_dict(self, action: int, player: int) -> dict[str, Any]:
        return notation.action_to_dict(self, action, player)

    def _dict_to_action(self, move: dict[str, Any], player: int) -> int:
        return notation.dict_to_action(self, move, player)

    def _describe_action(self, action: int, player: int) -> dict[str, Any]:
        return notation.describe_action(self, action, player)

    def describe(self, player: int, action: int) -> str:
        return views.describe(self, player, action)

    def describe_unseen(self, player: int) -> str:
        return views.describe_unseen(self, player)

    def describe_setup(self) -> str:
        return views.describe_setup(self)

    def _observation(self, player: int | None) -> dict[str, Any]:
        return views.observation(self, player)

    def observation_tensor(self, player: int) -> np.ndarray:
        return views.observation_tensor(self, player)

    def cell_id(self, i: int) -> str:
        """SVG element id of cell ``i``: ``cell-<row>-<col>`` on the padded grid."""
        return self.game.cell_id(i)

    def _illegal_reason(self, action: int, player: int) -> str | None:
        g = self.game
        if player == CHANCE:
            return _("that card is not among the unseen cards of the pile being drawn")
        if self.phase == P_CHOOSE:
            if action >= g.PLACE:
                return _("every player now chooses a card from their hand")
            return _("{card} is not in your hand", card=CARD_NAME[action])
        step = STEP_NAMES[self.step]
        if g.PLACE <= action < g.SHIP and self.step == S_PLACE:
            i, v = divmod(action - g.PLACE, NV)
            if i not in self._targets(self.card):
                return _("{card} cannot go on {cell}", card=CARD_NAME[self.card],
                         cell=self.game.xy_text(i))
            if CARD_KIND[self.card] == CRANE and not 1 <= v <= 3:
                return _("a crane needs a goods type: crane=tea, crane=wine or crane=spice")
            return _("that goods choice is not available for this card now")
        if step == "place":
            return _("it is time to place the card now: {forms}", forms=notation.FORMS)
        if step == "ship":
            return _("it is time to move the patrol ship now: {forms}", forms=notation.FORMS)
        if step == "buy":
            return _("it is time to buy a special card or not now: {forms}",
                     forms=notation.FORMS)
        return _("it is time to remove a card or not now: {forms}", forms=notation.FORMS)

Kontor.state_class = KontorState
