"""Botanik rules: the registry, the rounds of three tiles, releases, machines and scoring.

The notation lives in ``notation.py`` and the views in ``views.py``; the state's hooks call them.

The state keeps each machine as small dicts keyed by the cell's index on the engine grid
``components.GRID`` (``rc_cell``): the tile, its exit mask and its pipe-network component, with
the number of open ends of every component kept up to date. A placement's legality (edges, the
main network staying open, loops) is then a few dict look-ups per candidate cell.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

import numpy as np

if TYPE_CHECKING:  # mypy reads the shadow's typed names
    from meeple.engine import _cython_shadow as cython
else:
    try:
        import cython
    except ImportError:  # the pure-Python build without Cython installed
        from meeple.engine import _cython_shadow as cython

from meeple.engine import CHANCE, TERMINAL, Game, Option, State
from meeple.engine.core import equal_chance_index
from meeple.engine.grid import iter_bits
from meeple.engine.i18n import N_, words
from meeple.engine.options import OptionSchema, Preset

from . import notation, views
from .components import (
    ADD,
    ADD_BASE,
    COLOUR_NAMES,
    COLUMNS,
    DEAL,
    END,
    GRID,
    GRID_WIDTH,
    MAX_REACH,
    NUM_ACTIONS,
    NUM_COLOURED,
    PLANT,
    REVEAL,
    ROUNDS,
    SEAT_COLOURS,
    SOURCE_CELL,
    SRC0,
    STEP,
    SWAP,
    SWAP_BASE,
    TAKE,
    TILE_SETS,
    VEGETABLE,
    add_action,
    add_cell,
    add_parts,
    cell_rc,
    rc_cell,
    rotate,
    tile_set,
)

_, _n = words(__file__)

# add-id base of each internal cell a tile can reach (a connected machine of at most 61 cells
# keeps |r| + |c| <= 60)
_ADD_ID: dict[int, int] = {
    rc_cell(_r, _c): add_action(_r, _c, 0)
    for _r in range(-MAX_REACH, MAX_REACH + 1)
    for _c in range(-MAX_REACH, MAX_REACH + 1)
    if abs(_r) + abs(_c) <= MAX_REACH
}


class Botanik(Game):
    """Botanik for two players: tiles pass through the registry into pipe machines."""

    name = "botanik"
    title = "Botanik"
    version = "1"
    player_counts = (2,)
    perfect_information = True
    pitch = N_("Pass tiles through a shared registry and build a blooming pipe machine")
    minutes = (30, 30)
    colours = SEAT_COLOURS
    option_schema = OptionSchema(
        (
            Option(
                "forbid_loops",
                bool,
                False,
                reconstructed=True,
                help=N_("no tile may be added where its pipes would close a ring of pipes"),
                label=N_("No closed rings of pipes"),
                advanced=True,
            ),
            Option(
                "group_needs_pipe",
                bool,
                False,
                reconstructed=True,
                help=N_("tiles of one colour count as a group only where pipes link them"),
                label=N_("Groups must be linked by pipes"),
                advanced=True,
            ),
            Option(
                "tile_set",
                str,
                "reconstructed_v1",
                choices=tuple(TILE_SETS),
                reconstructed=True,
                help=N_("the pipes and flowers on the 65 coloured tiles"),
                label=N_("Tiles"),
                labels=(("reconstructed_v1",
                         N_("meeple's own (the printed tiles are not known)")),),
                advanced=True,
            ),
        )
    )

    @classmethod
    def presets(cls) -> tuple[Preset, ...]:
        return (
            Preset(N_("Standard"),
                   N_("The everyday game: build your machine from the registry.")),
            Preset(N_("Strict machines"),
                   N_("Pipes may never close a ring, and only tiles linked by pipes form a "
                      "group."), {"forbid_loops": True, "group_needs_pipe": True}),
        )

    @classmethod
    def configurations(cls) -> list[tuple[int, dict[str, Any]]]:
        return [(2, {}), (2, {"forbid_loops": True}), (2, {"group_needs_pipe": True})]

    def _setup(self) -> None:
        self.tiles = tile_set(self.options["tile_set"])
        self.forbid_loops: bool = self.options["forbid_loops"]
        self.group_needs_pipe: bool = self.options["group_needs_pipe"]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return NUM_COLOURED

    @property
    def max_game_length(self) -> int:
        # 5 deals, 60 reveals, 60 takes, at most one add per coloured tile, 5 swaps
        return 5 + 60 + 60 + 65 + 5

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (views.OBS_SIZE,)

    def planes(self) -> list[dict[str, Any]]:
        return views.planes(self)


class BotanikState(State):
    """A Botanik position: registry, arrival, supply, both machines and pending releases."""

    __slots__ = (
        "g",
        "ts",
        "phase",
        "round",
        "step",
        "supply",
        "piles",
        "rows",
        "arrival",
        "mtile",
        "mpipe",
        "mcomp",
        "copen",
        "frontier",
        "next_comp",
        "current_player",
        "work",
        "pend_player",
        "pend_tile",
        "pend_adds",
        "log",
        "discarded",
    )

    current_player: int
    """Who acts now: a plain attribute (it shadows the base property), kept up to date after
    every action so the engine reads it without a call."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.g = cast(Botanik, game)
        self.ts = self.g.tiles
        self.phase = DEAL
        self.current_player = CHANCE
        self.round = 1
        self.step = 0
        self.supply: list[int] = list(range(NUM_COLOURED))
        self.piles: list[list[int]] = [[] for _ in range(COLUMNS)]
        self.rows: list[int] = [-1] * (2 * COLUMNS)
        self.arrival: list[int] = []
        self.mtile: list[dict[int, int]] = []
        self.mpipe: list[dict[int, int]] = []
        self.mcomp: list[dict[int, int]] = []
        self.copen: list[dict[int, int]] = []
        self.frontier: list[set[int]] = []
        for p in range(2):
            self.mtile.append({SOURCE_CELL: SRC0 + p})
            self.mpipe.append({SOURCE_CELL: 15})
            self.mcomp.append({SOURCE_CELL: 0})
            self.copen.append({0: 4})
            self.frontier.append({SOURCE_CELL + s for s in STEP})
        self.next_comp = [1, 1]
        self.work: list[tuple[int, int, int]] = []  # a stack: last item is resolved next
        self.pend_player = -1
        self.pend_tile = -1
        self.pend_adds: list[int] = []
        self.log: list[str] = []
        self.discarded: list[int] = []

    def clone(self) -> BotanikState:
        s = self._blank_copy()
        s.g = self.g
        s.ts = self.ts
        s.phase = self.phase
        s.current_player = self.current_player
        s.round = self.round
        s.step = self.step
        s.supply = list(self.supply)
        s.piles = [list(p) for p in self.piles]
        s.rows = list(self.rows)
        s.arrival = list(self.arrival)
        s.mtile = [dict(m) for m in self.mtile]
        s.mpipe = [dict(m) for m in self.mpipe]
        s.mcomp = [dict(m) for m in self.mcomp]
        s.copen = [dict(m) for m in self.copen]
        s.frontier = [set(f) for f in self.frontier]
        s.next_comp = list(self.next_comp)
        s.work = list(self.work)
        s.pend_player = self.pend_player
        s.pend_tile = self.pend_tile
        s.pend_adds = self.pend_adds  # never mutated in place
        s.log = list(self.log)
        s.discarded = list(self.discarded)
        return s

    # ------------------------------------------------------------------ turn structure
    @property
    def meca_player(self) -> int:
        """Seat holding the Meca pawn this round."""
        return (self.round - 1) % 2

    @property
    def active_player(self) -> int:
        """The player who takes a tile in the current step (A and C: Meca player; B: other)."""
        m = (self.round - 1) % 2
        return 1 - m if self.step == 1 else m

    def _sync(self) -> None:
        """Recompute who acts after the phase, round or step changed."""
        self.current_player = self._player_to_act()

    def _player_to_act(self) -> int:
        ph = self.phase
        if ph == TAKE:
            return self.active_player
        if ph == ADD or ph == SWAP:
            return self.pend_player
        if ph == END:
            return TERMINAL
        return CHANCE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        n = len(self.supply)
        return list(zip(self.supply, [1.0 / n] * n, strict=True))

    def _draw_chance(self, rng: random.Random) -> int:
        """The engine's draw (every tile of the supply equally likely), without listing
        the outcomes."""
        if self.current_player != CHANCE:
            return State._draw_chance(self, rng)
        supply = self.supply
        return supply[equal_chance_index(len(supply), rng.random())]

    def _legal_actions(self, player: int) -> list[int]:
        ph = self.phase
        if ph == DEAL or ph == REVEAL:
            return list(self.supply)
        if ph == TAKE:
            return self._take_actions(player)
        if ph == ADD:
            return list(self.pend_adds)
        if ph == SWAP:
            meca = self.ts.is_meca
            return [SWAP_BASE + j for j in range(COLUMNS) if not meca[self.piles[j][-1]]]
        return []

    @cython.locals(out=list, a=cython.Py_ssize_t, j=cython.Py_ssize_t, base=cython.Py_ssize_t)
    def _take_actions(self, player: int) -> list[int]:
        out: list[int] = []
        match = self.ts.match
        rows = self.rows
        base = player * COLUMNS
        piles = self.piles
        free = [(j, 1 << piles[j][-1]) for j in range(COLUMNS) if rows[base + j] < 0]
        arrival = self.arrival
        for t in (sorted(arrival) if len(arrival) > 1 else arrival):
            m = match[t]
            a = 10 * t
            out += [a + j for j, bit in free if m & bit]
            out += (a + 5, a + 6, a + 7, a + 8, a + 9)
        return out

    # ------------------------------------------------------------------ machines
    @cython.locals(x=cython.Py_ssize_t, known=cython.Py_ssize_t, value=cython.Py_ssize_t,
                   k=cython.Py_ssize_t, n=cython.Py_ssize_t, base_open=cython.Py_ssize_t,
                   out=list, linked=list, pipes=dict)
    def legal_adds(self, q: int, t: int) -> list[int]:
        """Sorted ids of every legal ``add`` of tile ``t`` to player ``q``'s machine."""
        pipes = self.mpipe[q]
        comp = self.mcomp[q]
        copen = self.copen[q]
        main = comp[SOURCE_CELL]
        forbid_loops = self.g.forbid_loops
        fits = self.ts.fits[t]
        add_id = _ADD_ID
        out = []
        get = pipes.get
        for x in self.frontier[q]:
            known = value = 0
            linked = []
            m = get(x - GRID_WIDTH)
            if m is not None:
                known = 1
                if m & 4:
                    value = 1
                    linked.append(comp[x - GRID_WIDTH])
            m = get(x + 1)
            if m is not None:
                known |= 2
                if m & 8:
                    value |= 2
                    linked.append(comp[x + 1])
            m = get(x + GRID_WIDTH)
            if m is not None:
                known |= 4
                if m & 1:
                    value |= 4
                    linked.append(comp[x + GRID_WIDTH])
            m = get(x - 1)
            if m is not None:
                known |= 8
                if m & 2:
                    value |= 8
                    linked.append(comp[x - 1])
            ks = fits[known << 4 | value]
            if not ks:
                continue
            aid = add_id.get(x)
            if aid is None:
                continue
            if not linked:
                for k, _ in ks:
                    out.append(aid + k)
                continue
            if len(linked) == 1:
                c = linked[0]
                if c != main:
                    for k, _ in ks:
                        out.append(aid + k)
                    continue
                base_open = copen[c] - 1
            else:
                distinct = set(linked)
                if forbid_loops and len(distinct) < len(linked):
                    continue
                if main not in distinct:
                    for k, _ in ks:
                        out.append(aid + k)
                    continue
                base_open = sum(copen[c] for c in distinct) - len(linked)
            for k, n in ks:
                if base_open + n >= 1:
                    out.append(aid + k)
        out.sort()
        return out

    def _place(self, q: int, t: int, x: int, e: int) -> None:
        """Put tile ``t`` with exit mask ``e`` at cell ``x`` of ``q``'s machine."""
        pipes = self.mpipe[q]
        comp = self.mcomp[q]
        copen = self.copen[q]
        linked: set[int] = set()
        nlinks = 0
        opens = 0
        for d in range(4):
            if e >> d & 1:
                y = x + STEP[d]
                if y in pipes:
                    linked.add(comp[y])
                    nlinks += 1
                else:
                    opens += 1
        if linked:
            total = sum(copen[c] for c in linked) - nlinks + opens
            keep = comp[SOURCE_CELL] if comp[SOURCE_CELL] in linked else min(linked)
            others = linked - {keep}
            if others:
                for y, c in comp.items():
                    if c in others:
                        comp[y] = keep
                for c in others:
                    del copen[c]
            copen[keep] = total
            comp[x] = keep
        else:
            cid = self.next_comp[q]
            self.next_comp[q] = cid + 1
            comp[x] = cid
            copen[cid] = opens
        pipes[x] = e
        self.mtile[q][x] = t
        f = self.frontier[q]
        f.discard(x)
        for s in STEP:
            y = x + s
            if y not in pipes:
                f.add(y)

    # ------------------------------------------------------------------ applying actions
    def _apply(self, action: int, player: int) -> None:
        self._do(action, player)
        self.current_player = self._player_to_act()

    def _do(self, action: int, player: int) -> None:
        ph = self.phase
        ts = self.ts
        if ph == REVEAL:
            self.supply.remove(action)
            self.arrival.append(action)
            if len(self.arrival) == 3:
                self.phase = TAKE
                self.step = 0
            return
        if ph == DEAL:
            self.supply.remove(action)
            j = sum(1 for p in self.piles if p)
            self.piles[j].append(action)
            if j == COLUMNS - 1:
                self.phase = REVEAL
            return
        if ph == TAKE:
            t, rest = divmod(action, 10)
            self.arrival.remove(t)
            if rest < 5:
                self.rows[player * COLUMNS + rest] = t
                self._end_step()
                return
            j = rest - 5
            self.piles[j].append(t)
            self.work.append((0, j, 0))
            self._run()
            return
        if ph == ADD:
            x, k = add_cell(action)
            t = self.pend_tile
            self._place(player, t, x, rotate(ts.exits[t], k))
            self._run()
            return
        if ph == SWAP:
            j = action - SWAP_BASE
            meca = self.pend_tile
            x = self.piles[j][-1]
            self.piles[j][-1] = meca
            self.log.append(f"swap P{player} {ts.ids[meca]} for {ts.ids[x]}@{j}")
            # add the taken tile first, then the chain check on that column [R13]
            self.work.append((0, j, 0))
            self.work.append((1, player, x))
            self._run()
            return
        raise AssertionError("no action at the end")  # pragma: no cover

    def _run(self) -> None:
        """Resolve pending releases until a player must decide, then move the round on."""
        work = self.work
        ts = self.ts
        while work:
            kind, a, b = work.pop()
            if kind == 0:  # release check of column a
                top = self.piles[a][-1]
                m = ts.match[top]
                act = self.active_player
                released = []
                for q in (act, 1 - act):
                    s = self.rows[q * COLUMNS + a]
                    if s >= 0 and not m >> s & 1:
                        self.rows[q * COLUMNS + a] = -1
                        released.append((1, q, s))
                        self.log.append(f"release P{q} {ts.ids[s]}@{a}")
                released.reverse()
                work.extend(released)
                continue
            q, s = a, b
            if ts.is_meca[s]:
                if all(ts.is_meca[p[-1]] for p in self.piles):  # [R8]
                    self._discard(s)
                    continue
                self.phase = SWAP
                self.pend_player, self.pend_tile = q, s
                return
            adds = self.legal_adds(q, s)
            if not adds:
                self._discard(s)
                continue
            self.phase = ADD
            self.pend_player, self.pend_tile, self.pend_adds = q, s, adds
            return
        self.pend_player, self.pend_tile, self.pend_adds = -1, -1, []
        self._end_step()

    def _discard(self, s: int) -> None:
        self.discarded.append(s)
        self.log.append(f"discard {self.ts.ids[s]}")

    def _end_step(self) -> None:
        if self.step < 2:
            self.step += 1
            self.phase = TAKE
            return
        self.step = 0
        if self.round >= ROUNDS:
            self.phase = END
            self.log.append("end")
            return
        self.round += 1
        self.phase = REVEAL

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

    def describe_setup(self) -> str:
        return views.describe_setup(self)

    def _observation(self, player: int | None) -> dict[str, Any]:
        return views.observation(self, player)

    def observation_tensor(self, player: int) -> np.ndarray:
        return views.observation_tensor(self, player)

    def machine_json(self, p: int) -> list[dict[str, Any]]:
        """Every tile of ``p``'s machine, as the observation shows it."""
        return views.machine_json(self, p)

    # ------------------------------------------------------------------ rule explanations
    def _illegal_reason(self, action: int, player: int) -> str | None:
        ph = self.phase
        ids = self.ts.ids
        if action >= SWAP_BASE:
            if ph != SWAP:
                return _("a swap is only made when your Meca-Botanist is released")
            return _("the top of pile {pile} is a Meca-Botanist", pile=str(action - SWAP_BASE))
        if action >= ADD_BASE:
            if ph != ADD:
                return _("a tile is only added to a machine when it is released")
            r, c, k = add_parts(action)
            x = rc_cell(r, c)
            cell = f"{r},{c}"
            if x in self.mtile[player]:
                return _("cell {cell} is not empty (M1)", cell=cell)
            if x not in self.frontier[player]:
                return _("cell {cell} touches no tile of the machine (M2)", cell=cell)
            t = self.pend_tile
            if self.ts.canonical(t, k) != k:
                return _("use the canonical rotation {k} for these exits",
                         k=str(self.ts.canonical(t, k)))
            e = rotate(self.ts.exits[t], k)
            pipes = self.mpipe[player]
            move = f"{ids[t]} at {r},{c}/{k}"
            for d in range(4):
                m = pipes.get(x + STEP[d])
                if m is not None and bool(e >> d & 1) != bool(m >> ((d + 2) & 3) & 1):
                    return _("{move} puts a pipe against a blank edge on its {side} side (M3)",
                             move=move, side="NESW"[d])
            if self.g.forbid_loops:
                linked = [self.mcomp[player][x + STEP[d]] for d in range(4)
                          if e >> d & 1 and x + STEP[d] in pipes]
                if len(set(linked)) < len(linked):
                    return _("{move} would close a loop of pipes (M5)", move=move)
            return _("{move} would leave the main network no open end (M4)", move=move)
        if ph != TAKE:
            return _("no tile is being taken now")
        t, rest = divmod(action, 10)
        if t not in self.arrival:
            return _("{tile} is not in the arrival", tile=ids[t]) if t < NUM_COLOURED else None
        if rest < 5:
            if self.rows[player * COLUMNS + rest] >= 0:
                return _("your space {space} is not empty (O1)", space=str(rest))
            top = self.piles[rest][-1]
            return _("{tile} matches the top of pile {pile}, {top}, in neither colour nor type "
                     "(O2)", tile=ids[t], pile=str(rest), top=ids[top])
        return None

    def releases(self, q: int, j: int, t: int) -> bool:
        """Whether putting tile ``t`` on central pile ``j`` releases ``q``'s tile in column
        ``j`` (it matches ``t`` in neither colour nor type)."""
        s = self.rows[q * COLUMNS + j]
        return s >= 0 and not self.ts.matches(s, t)

    # ------------------------------------------------------------------ scoring
    def breakdown(self, p: int) -> dict[str, Any]:
        """Score of ``p``'s machine as it stands, with every part of the count."""
        ts = self.ts
        tiles = self.mtile[p]
        pipes = self.mpipe[p]
        kept = self.main_cells(p)
        keptset = set(kept)
        removed = sorted(x for x in tiles if x != SOURCE_CELL and x not in keptset)
        colour = ts.colour
        groups = []
        group_points = 0
        base, parts = self.colour_groups(p, self.g.group_needs_pipe, kept)
        for col, part in parts:
            members = [base + i for i in iter_bits(part)]
            pts = len(members) if len(members) >= 3 else 0
            group_points += pts
            groups.append(
                {
                    "colour": COLOUR_NAMES[col],
                    "cells": [list(cell_rc(y)) for y in members],
                    "points": pts,
                }
            )
        flowers = []
        flower_points = 0
        for x in sorted(kept):
            t = tiles[x]
            n = ts.flowers[t]
            if not n:
                continue
            if ts.type[t] in (PLANT, VEGETABLE):
                e = pipes[x]
                d = (1, 2, 4, 8).index(e)
                y = x + STEP[d]
                ok = y in tiles and colour[tiles[y]] == colour[t]
                pts = n if ok else 0
            else:
                pts = n
            flower_points += pts
            flowers.append({"tile": ts.ids[t], "cell": list(cell_rc(x)), "points": pts})
        return {
            "group_points": group_points,
            "flower_points": flower_points,
            "total": group_points + flower_points,
            "main_tiles": len(kept),
            "removed": [ts.ids[tiles[x]] for x in removed],
            "groups": groups,
            "flowers": flowers,
        }

    def main_cells(self, p: int) -> list[int]:
        """The GRID cells of ``p``'s main network, the Source left out."""
        comp = self.mcomp[p]
        main = comp[SOURCE_CELL]
        return [x for x, c in comp.items() if c == main and x != SOURCE_CELL]

    def colour_groups(self, p: int, pipe_linked: bool = False,
                      kept: list[int] | None = None) -> tuple[int, list[tuple[int, int]]]:
        """The same-colour groups among ``kept`` (default: ``p``'s main network): ``(base,
        [(colour, mask), ...])``, bit ``i`` of a mask being GRID cell ``base + i``; by colour,
        then by lowest cell. ``pipe_linked``: neighbours join only through a pipe (the
        ``group_needs_pipe`` option), else adjacency is enough."""
        if kept is None:
            kept = self.main_cells(p)
        if not kept:
            return 0, []
        tiles = self.mtile[p]
        # shifted down by whole rows, so the masks stay small and the grid's edges still hold
        base = min(kept) // GRID_WIDTH * GRID_WIDTH
        colour = self.ts.colour
        masks = [0] * 5
        for x in kept:
            masks[colour[tiles[x]]] |= 1 << (x - base)
        out: list[tuple[int, int]] = []
        if not pipe_linked:
            right, down, components = GRID.right, GRID.down, GRID.components
            for col in range(5):
                m = masks[col]
                if not m:
                    continue
                n = m.bit_count()
                if n == 1 or (n == 2 and m & (right(m) | down(m))):  # one group
                    out.append((col, m))
                elif n == 2:  # two tiles apart
                    low = m & -m
                    out.append((col, low))
                    out.append((col, m ^ low))
                else:
                    for part in components(m):
                        out.append((col, part))
            return base, out
        pipes = self.mpipe[p]
        sides = [0, 0, 0, 0]  # cells with a pipe on their N, E, S, W edge
        for x in kept:
            e = pipes[x]
            for d in range(4):
                if e >> d & 1:
                    sides[d] |= 1 << (x - base)
        north, east, south, west = sides
        for col, m in enumerate(masks):
            while m:
                region = m & -m
                while True:
                    grown = (region | GRID.up(region & north) | GRID.right(region & east)
                             | GRID.down(region & south) | GRID.left(region & west)) & m
                    if grown == region:
                        break
                    region = grown
                out.append((col, region))
                m &= ~region
        return base, out

    def scores(self) -> list[float]:
        return [float(self.breakdown(p)["total"]) for p in range(2)]

    def main_tiles(self, p: int) -> int:
        """Tiles of ``p``'s main network, the Source not counted (the tie-break)."""
        comp = self.mcomp[p]
        main = comp[SOURCE_CELL]
        return sum(1 for c in comp.values() if c == main) - 1

    def open_ends(self, p: int) -> int:
        """Open ends of ``p``'s main network."""
        return self.copen[p][self.mcomp[p][SOURCE_CELL]]

    def ranking_key(self, player: int) -> tuple:
        b = self.breakdown(player)
        return (b["total"], b["main_tiles"])



Botanik.state_class = BotanikState

__all__ = [
    "ADD",
    "ADD_BASE",
    "DEAL",
    "END",
    "NUM_ACTIONS",
    "REVEAL",
    "SWAP",
    "SWAP_BASE",
    "TAKE",
    "Botanik",
    "BotanikState",
    "add_action",
    "add_parts",
    "rc_cell",
]
