"""Mops Royal rules: rounds of one revealed tile, personal 5 × 5 layouts, combinations.

Each player's layout lives in the 9 × 9 window of ``components`` centred on his start tile.
Occupied and face-down cells, and the face-up cells of each colour and each object, are int
bitmasks over that window. A player's current combinations are kept incrementally from the
precomputed placements (``PL_MASK``): a placed tile adds the masks made with the face-up tiles
of its colour or object, a tile turned face down removes every mask through it.

A round is one chance node (the caller's reveal) followed by one simultaneous node where every
player places (or rejects) and then scores (or declines) without seeing the others' choices:
their effects on the layouts and scores are shown to the others only once everyone is done.
The notation is in ``notation``, the observation in ``views``.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import numpy as np

from meeple.engine import CHANCE, SIMULTANEOUS, TERMINAL, Game, Option, State
from meeple.engine.core import equal_chance_index
from meeple.engine.grid import bits
from meeple.engine.i18n import N_, words
from meeple.engine.options import OptionSchema, Preset

from . import notation, views
from .components import (
    ACTIVE,
    ALL_TILES,
    CELL_COL,
    CELL_ROW,
    CENTRE,
    COL_RANGE,
    END_SCORING,
    FULL,
    GRID,
    IS_CROWN,
    MASK_TO_PL,
    NCELLS,
    NOSCORE,
    NUM_ACTIONS,
    NUM_TILES,
    OVER,
    PASS,
    PL_MASK,
    PL_POINTS,
    PL_SCORE_IDS,
    REJECT,
    REVEAL,
    ROUND,
    ROW_RANGE,
    SCORE,
    SCORE_ACTIONS,
    SEAT_COLOURS,
    SETUP_CALLER,
    SETUP_START,
    SITOUT,
    START_CANDIDATES,
    STEP_DONE,
    STEP_PLACE,
    STEP_SCORE,
    TILE_COLOUR,
    TILE_OBJECT,
    tiles_of,
)

_, _n = words(__file__)


class MopsRoyal(Game):
    """Mops Royal (Günter Burkhardt, Noris 2014): grow a 5 × 5 layout from the caller's tiles
    and score colour or object combinations of the 17 charted shapes."""

    name = "mops_royal"
    title = "Mops Royal"
    version = "1"
    player_counts = (2, 3, 4)
    perfect_information = False
    pitch = N_("Grow a square of pug tiles and score shapes of one colour or one object")
    minutes = (20, 30)
    colours = SEAT_COLOURS
    option_schema = OptionSchema(
        (
            Option(
                "score_when_full",
                bool,
                True,
                reconstructed=True,
                help=N_("a player whose square of 25 tiles is complete may still score once "
                        "each round"),
                label=N_("Score on once your square is full"),
                advanced=True,
            ),
            Option(
                "replacement_tiles",
                bool,
                False,
                help=N_("variant: instead of placing the called tile you may put it face down "
                        "on one of your face-down tiles, at a cost that rises each time"),
                label=N_("Replacement tiles"),
            ),
            Option(
                "end_scoring",
                bool,
                False,
                help=N_("variant: nobody scores during play; once every square is full, the "
                        "players score in turn"),
                label=N_("Scoring only at the end"),
            ),
        )
    )

    @classmethod
    def presets(cls) -> tuple[Preset, ...]:
        return (
            Preset(N_("Standard"),
                   N_("Score a combination each round as your square of pugs grows.")),
            Preset(N_("Replacement tiles"), N_("As the standard game, and you may refuse a "
                   "called tile by laying it face down on a face-down tile, for rising points."),
                   {"replacement_tiles": True}),
            Preset(N_("Scoring at the end"), N_("Build first; everybody scores once all the "
                   "squares are full."), {"end_scoring": True}),
        )

    @classmethod
    def configurations(cls) -> list[tuple[int, dict[str, Any]]]:
        return [
            (2, {}),
            (3, {}),
            (4, {}),
            (3, {"replacement_tiles": True}),
            (2, {"end_scoring": True}),
            (4, {"score_when_full": False}),
        ]

    @classmethod
    def default_players(cls) -> int:
        return 2

    def set_up(
        self,
        caller: int | None = None,
        seed: int | random.Random | None = None,
        start_tiles: list[str] | None = None,
    ) -> MopsRoyalState:
        """A new game with its set-up resolved: start tiles (given as ids or short codes, or
        drawn), the caller seat (given, or drawn) and the RNG seed for the draws. The state
        returned waits for the first reveal."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        s = self.new_initial_state()
        assert isinstance(s, MopsRoyalState)
        if start_tiles is not None and len(start_tiles) != self.num_players:
            raise ValueError(f"give one start tile per player ({self.num_players})")
        if caller is not None and not 0 <= caller < self.num_players:
            raise ValueError(f"the caller is a seat 0..{self.num_players - 1}")
        for p in range(self.num_players):
            if start_tiles is None:
                s.apply(rng.choice(START_CANDIDATES), CHANCE)
            else:
                s.apply(s.string_to_action(f"start {start_tiles[p]}", CHANCE), CHANCE)
        s.apply(rng.randrange(self.num_players) if caller is None else caller, CHANCE)
        return s

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return NUM_TILES

    @property
    def max_game_length(self) -> int:
        n = self.num_players
        # set-up, at most 35 rounds of a reveal and two choices each, then end-scoring turns
        return n + 1 + 35 * (1 + 2 * n) + 25 * n * n + n

    @property
    def observation_shape(self) -> tuple[int, ...]:
        n = self.num_players
        return (n * (13 * NCELLS + NUM_TILES + 6) + NUM_TILES + n + 3,)

    def planes(self) -> list[dict[str, Any]]:
        return views.planes(self)


class MopsRoyalState(State):
    """A Mops Royal position. Layouts, stocks and scores are flat lists indexed by seat."""

    __slots__ = (
        "n",
        "phase",
        "caller",
        "start",
        "tile",
        "round",
        "board",
        "occ",
        "down",
        "crownmask",
        "upcol",
        "upobj",
        "box",
        "combos",
        "covers",
        "stock",
        "score",
        "pub",
        "rej",
        "rejcost",
        "status",
        "step",
        "mayscore",
        "rplace",
        "rreject",
        "rflip",
        "rpoints",
        "rcost",
        "log",
        "last",
        "turn",
        "passes",
    )

    def __init__(self, game: Game):
        super().__init__(game)
        n = self.n = game.num_players
        self.phase = SETUP_START
        self.caller = -1
        self.start: list[int] = []
        self.tile = -1
        self.round = 0
        self.board = [-1] * (n * NCELLS)
        self.occ = [0] * n
        self.down = [0] * n
        self.crownmask = [0] * n
        self.upcol = [0] * (6 * n)
        self.upobj = [0] * (6 * n)
        self.box = [4, 4, 4, 4] * n  # min col, max col, min row, max row per seat
        self.combos: list[list[int]] = [[] for _ in range(n)]
        self.covers: list[dict[int, int]] = [{} for _ in range(n)]
        self.stock = [ALL_TILES] * n
        self.score = [0] * n
        self.pub = [0] * n
        self.rej = [0] * n
        self.rejcost = [0] * n
        self.status = [ACTIVE] * n
        self.step = [STEP_DONE] * n
        self.mayscore = [False] * n
        self.rplace = [-1] * n
        self.rreject = [-1] * n
        self.rflip = [-1] * n
        self.rpoints = [0] * n
        self.rcost = [0] * n
        self.log: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        self.last: list[tuple[int, int, int, int, int]] | None = None
        self.turn = -1
        self.passes = 0

    # ------------------------------------------------------------------ copies
    def clone(self) -> MopsRoyalState:
        c = self._blank_copy()
        c.n = self.n
        c.phase = self.phase
        c.caller = self.caller
        c.start = list(self.start)
        c.tile = self.tile
        c.round = self.round
        c.board = list(self.board)
        c.occ = list(self.occ)
        c.down = list(self.down)
        c.crownmask = list(self.crownmask)
        c.upcol = list(self.upcol)
        c.upobj = list(self.upobj)
        c.box = list(self.box)
        c.combos = [list(x) for x in self.combos]
        c.covers = [dict(x) for x in self.covers]
        c.stock = list(self.stock)
        c.score = list(self.score)
        c.pub = list(self.pub)
        c.rej = list(self.rej)
        c.rejcost = list(self.rejcost)
        c.status = list(self.status)
        c.step = list(self.step)
        c.mayscore = list(self.mayscore)
        c.rplace = list(self.rplace)
        c.rreject = list(self.rreject)
        c.rflip = list(self.rflip)
        c.rpoints = list(self.rpoints)
        c.rcost = list(self.rcost)
        c.log = [list(x) for x in self.log]
        c.last = self.last
        c.turn = self.turn
        c.passes = self.passes
        return c

    # ------------------------------------------------------------------ layout primitives
    def put_tile(self, p: int, cell: int, tile: int) -> None:
        """Put ``tile`` face up on empty ``cell`` of seat ``p``'s layout and add the new
        combinations it makes (no legality check: the rules call it with legal cells)."""
        self.board[p * NCELLS + cell] = tile
        bit = 1 << cell
        self.occ[p] |= bit
        if IS_CROWN[tile]:
            self.crownmask[p] |= bit
        b = 4 * p
        box = self.box
        col = CELL_COL[cell]
        row = CELL_ROW[cell]
        if col < box[b]:
            box[b] = col
        elif col > box[b + 1]:
            box[b + 1] = col
        if row < box[b + 2]:
            box[b + 2] = row
        elif row > box[b + 3]:
            box[b + 3] = row
        ci = 6 * p + TILE_COLOUR[tile]
        oi = 6 * p + TILE_OBJECT[tile]
        new = self.combos[p]
        for group in (self.upcol[ci], self.upobj[oi]):
            if group & (group - 1) == 0:  # fewer than two others: no combination yet
                continue
            others = bits(group)
            for size in (2, 3, 4):
                if size > len(others):
                    break
                for sub in combinations(others, size):
                    m = bit
                    for i in sub:
                        m |= 1 << i
                    k = MASK_TO_PL.get(m)
                    if k is not None:
                        new.append(k)
        self.upcol[ci] |= bit
        self.upobj[oi] |= bit

    def turn_down(self, p: int, cell: int) -> None:
        """Turn the face-up tile on ``cell`` face down; its combinations are gone for good."""
        bit = 1 << cell
        tile = self.board[p * NCELLS + cell]
        self.down[p] |= bit
        self.upcol[6 * p + TILE_COLOUR[tile]] &= ~bit
        self.upobj[6 * p + TILE_OBJECT[tile]] &= ~bit
        self.combos[p] = [k for k in self.combos[p] if not PL_MASK[k] & bit]

    def _rebuild(self, p: int) -> None:
        """Recompute seat ``p``'s derived layout data from its board and face-down mask."""
        base = p * NCELLS
        tiles = [(i, self.board[base + i]) for i in range(NCELLS) if self.board[base + i] >= 0]
        down = self.down[p]
        self.occ[p] = 0
        self.down[p] = 0
        self.crownmask[p] = 0
        for j in range(6):
            self.upcol[6 * p + j] = 0
            self.upobj[6 * p + j] = 0
        self.box[4 * p : 4 * p + 4] = [4, 4, 4, 4]
        self.combos[p] = []
        for i, _t in tiles:
            self.board[base + i] = -1
        for i, t in tiles:
            self.put_tile(p, i, t)
        for i in bits(down):
            self.turn_down(p, i)

    def place_cells(self, p: int) -> int:
        """Mask of the cells where seat ``p`` may place a tile (edge contact, 5 × 5 limit)."""
        occ = self.occ[p]
        nb = GRID.neighbours(occ)
        b = 4 * p
        box = self.box
        lo_c = box[b + 1] - 4
        hi_c = box[b] + 4
        lo_r = box[b + 3] - 4
        hi_r = box[b + 2] + 4
        return (
            nb
            & COL_RANGE[lo_c if lo_c > 0 else 0][hi_c if hi_c < 8 else 8]
            & ROW_RANGE[lo_r if lo_r > 0 else 0][hi_r if hi_r < 8 else 8]
        )

    def reject_allowed(self, p: int) -> bool:
        """Feasibility of a rejection [R13]: enough tiles left to complete the layout."""
        s = self.stock[self.caller]
        left = (s & ~(1 << self.start[p])).bit_count()
        return left >= 25 - self.occ[p].bit_count()

    def combination_points(self, p: int, k: int) -> int:
        """Points of placement ``k`` scored by seat ``p``: 2/4/7, +1 with a crown tile."""
        return PL_POINTS[k] + (1 if PL_MASK[k] & self.crownmask[p] else 0)

    def face_down_count(self, p: int) -> int:
        """Face-down cells of seat ``p``'s layout (a covered stack counts once) [R15]."""
        return self.down[p].bit_count()

    def is_complete(self, p: int) -> bool:
        return self.occ[p].bit_count() == 25

    # ------------------------------------------------------------------ turn structure
    @property
    def current_player(self) -> int:
        ph = self.phase
        if ph == ROUND:
            return SIMULTANEOUS
        if ph == END_SCORING:
            return self.turn
        if ph == OVER:
            return TERMINAL
        return CHANCE

    def _pending_players(self) -> list[int]:
        step = self.step
        return [p for p in range(self.n) if step[p] != STEP_DONE]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == SETUP_START:
            return [(t, 1 / 30) for t in START_CANDIDATES]
        if self.phase == SETUP_CALLER:
            return [(p, 1 / self.n) for p in range(self.n)]
        left = tiles_of(self.stock[self.caller])
        p = 1 / len(left)
        return [(t, p) for t in left]

    def _draw_chance(self, rng: random.Random) -> int:
        """The engine's draw (every tile left in the caller's stock equally likely), without listing
        the outcomes."""
        if self.current_player != CHANCE or self.phase in (SETUP_START, SETUP_CALLER):
            return State._draw_chance(self, rng)
        left = tiles_of(self.stock[self.caller])
        return left[equal_chance_index(len(left), rng.random())]

    def _legal_actions(self, player: int) -> list[int]:
        ph = self.phase
        if player == CHANCE:
            if ph == SETUP_START:
                return list(START_CANDIDATES)
            if ph == SETUP_CALLER:
                return list(range(self.n))
            return tiles_of(self.stock[self.caller])
        if ph == END_SCORING:
            out: list[int] = []
            for k in self.combos[player]:
                out.extend(PL_SCORE_IDS[k])
            if not out:
                return [PASS]
            out.sort()
            return out
        step = self.step[player]
        if step == STEP_PLACE:
            out = bits(self.place_cells(player))
            if self.game.options["replacement_tiles"] and self.down[player]:
                if self.reject_allowed(player):
                    out.extend(REJECT + c for c in bits(self.down[player]))
            return out
        if step == STEP_SCORE:
            out = [NOSCORE]
            for k in self.combos[player]:
                out.extend(PL_SCORE_IDS[k])
            out.sort()
            return out
        return []

    # ------------------------------------------------------------------ applying
    def _apply(self, action: int, player: int) -> None:
        ph = self.phase
        if player == CHANCE:
            if ph == SETUP_START:
                p = len(self.start)
                self.start.append(action)
                self.stock[p] &= ~(1 << action)
                self.put_tile(p, CENTRE, action)
                if len(self.start) == self.n:
                    self.phase = SETUP_CALLER
            elif ph == SETUP_CALLER:
                self.caller = action
                self.phase = REVEAL
            else:
                self._reveal(action)
            return
        if ph == END_SCORING:
            if action == PASS:
                self.passes += 1
            else:
                k, f = SCORE_ACTIONS[action - SCORE]
                pts = self.combination_points(player, k)
                self.score[player] += pts
                self.pub[player] = self.score[player]
                self.turn_down(player, f)
                self.log[player].append((self.round, k, f, pts))
                self.passes = 0
            if self.passes >= self.n:
                self.phase = OVER
                self.turn = -1
            else:
                self.turn = (self.turn + 1) % self.n
            return
        self._round_choice(action, player)
        if STEP_PLACE in self.step or STEP_SCORE in self.step:
            return
        self._end_round()

    def _round_choice(self, action: int, player: int) -> None:
        """One placement-step or scoring-step choice of ``player`` in the current round."""
        if action < REJECT:
            t = self.tile
            self.stock[player] &= ~(1 << t)
            self.put_tile(player, action, t)
            self.rplace[player] = action
            self.step[player] = STEP_SCORE if self.mayscore[player] else STEP_DONE
        elif action < NOSCORE:
            cell = action - REJECT
            t = self.tile
            self.stock[player] &= ~(1 << t)
            cov = self.covers[player]
            cov[cell] = cov.get(cell, 0) + 1
            k = self.rej[player] = self.rej[player] + 1
            cost = min(k + 1, self.score[player])
            self.score[player] -= cost
            self.rejcost[player] += cost
            self.rcost[player] = cost
            self.rreject[player] = cell
            self.step[player] = STEP_SCORE if self.mayscore[player] else STEP_DONE
        elif action == NOSCORE:
            self.step[player] = STEP_DONE
        else:
            k, f = SCORE_ACTIONS[action - SCORE]
            pts = self.combination_points(player, k)
            self.score[player] += pts
            self.turn_down(player, f)
            self.rflip[player] = f
            self.rpoints[player] = pts
            self.log[player].append((self.round, k, f, pts))
            self.step[player] = STEP_DONE

    def _reveal(self, t: int) -> None:
        """Start a round: the caller reveals ``t``; every seat gets its status and steps."""
        n = self.n
        self.round += 1
        self.tile = t
        self.stock[self.caller] &= ~(1 << t)
        opts = self.game.options
        in_play = not opts["end_scoring"]
        when_full = opts["score_when_full"] and in_play
        ci = TILE_COLOUR[t]
        oi = TILE_OBJECT[t]
        for p in range(n):
            self.rplace[p] = self.rreject[p] = self.rflip[p] = -1
            self.rpoints[p] = self.rcost[p] = 0
            if self.occ[p].bit_count() == 25:
                self.status[p] = FULL
                ok = when_full and bool(self.combos[p])
                self.mayscore[p] = ok
                self.step[p] = STEP_SCORE if ok else STEP_DONE
            elif p != self.caller and t == self.start[p]:
                self.status[p] = SITOUT
                self.mayscore[p] = False
                self.step[p] = STEP_DONE
            else:
                self.status[p] = ACTIVE
                self.step[p] = STEP_PLACE
                # whether a scoring step follows is decided from what everyone can see, so
                # that finishing early never tells the others where the tile went
                if not in_play:
                    self.mayscore[p] = False
                elif self.combos[p]:
                    self.mayscore[p] = True
                else:
                    c = self.upcol[6 * p + ci]
                    o = self.upobj[6 * p + oi]
                    self.mayscore[p] = bool(c & (c - 1)) or bool(o & (o - 1))
        self.phase = ROUND
        if STEP_PLACE not in self.step and STEP_SCORE not in self.step:
            self._end_round()

    def _end_round(self) -> None:
        """Everyone has chosen: reveal all choices together, then the end check."""
        n = self.n
        self.pub = list(self.score)
        self.last = [
            (self.status[p], self.rplace[p], self.rreject[p], self.rflip[p], self.rpoints[p])
            for p in range(n)
        ]
        for p in range(n):
            self.rplace[p] = self.rreject[p] = self.rflip[p] = -1
            self.rpoints[p] = 0
        if all(o.bit_count() == 25 for o in self.occ):
            if self.game.options["end_scoring"]:
                self.phase = END_SCORING
                self.turn = self.caller
                self.passes = 0
                self.tile = -1
            else:
                self.phase = OVER
        elif not self.stock[self.caller]:
            self.phase = OVER  # [R17]: cannot happen under the rules
        else:
            self.phase = REVEAL

    # ------------------------------------------------------------------ messages
    def _illegal_reason(self, action: int, player: int) -> str | None:
        if player == CHANCE:
            return None
        ph = self.phase
        if ph == END_SCORING:
            if action == PASS:
                return _("you have a combination, and a player who can score must score")
            if action >= SCORE:
                return _("those cells are not a face-up combination of yours")
            return _("only scoring or passing is possible in the scoring phase")
        if ph != ROUND:
            return _("nobody chooses now")
        step = self.step[player]
        if step == STEP_DONE:
            if self.status[player] == SITOUT:
                return _("the revealed tile is your start tile: you sit out this round")
            return _("you have finished this round")
        if step == STEP_PLACE:
            if action < REJECT:
                return _("a tile goes on an empty cell touching your layout along an edge, "
                         "keeping it within 5 × 5")
            if action < NOSCORE:
                if not self.game.options["replacement_tiles"]:
                    return _("rejecting tiles is only allowed in the Replacement tiles variant")
                if not self.down[player]:
                    return _("you have no face-down tile to reject onto: place the tile")
                if not self.reject_allowed(player):
                    return _("too few tiles are left to complete your layout if you reject")
                return _("a rejected tile goes on one of your face-down tiles")
            return _("place the revealed tile first")
        if action < NOSCORE:
            return _("you have already taken this round's tile")
        if action == PASS:
            return _("pass is for the end-scoring phase; decline with noscore")
        return _("those cells are not a face-up combination of yours, or the flip is not marked")

    # ------------------------------------------------------------------ notation
    def _action_to_string(self, action: int, player: int) -> str:
        return notation.action_to_string(self, action, player)

    def _string_to_action(self, text: str, player: int) -> int:
        return notation.string_to_action(self, text, player)

    def _action_to_dict(self, action: int, player: int) -> dict[str, Any]:
        return notation.action_to_dict(self, action, player)

    def _dict_to_action(self, d: dict[str, Any], player: int) -> int:
        return notation.dict_to_action(self, d, player)

    def _describe_action(self, action: int, player: int) -> dict[str, Any]:
        return notation.describe_action(self, action, player)

    def describe(self, player: int, action: int) -> str:
        return views.describe(self, player, action)

    def describe_unseen(self, player: int) -> str:
        return views.describe_unseen(self, player)

    def describe_setup(self) -> str:
        return views.describe_setup(self)

    # ------------------------------------------------------------------ views
    def _hidden_from(self, q: int, viewer: int | None) -> bool:
        """Whether seat ``q``'s choices this round are still hidden from ``viewer``."""
        return self.phase == ROUND and viewer != q

    def visible_layout(self, q: int, viewer: int | None) -> tuple[list[int], int, dict[int, int]]:
        """Seat ``q``'s layout as ``viewer`` sees it: (81 tiles or −1, face-down mask, covers).

        During a round, another seat's placement, rejection and turned tile are not shown.
        """
        base = q * NCELLS
        board = self.board[base : base + NCELLS]
        down = self.down[q]
        covers = self.covers[q]
        if self._hidden_from(q, viewer):
            if self.rplace[q] >= 0:
                board[self.rplace[q]] = -1
            if self.rflip[q] >= 0:
                down &= ~(1 << self.rflip[q])
            if self.rreject[q] >= 0:
                covers = dict(covers)
                c = self.rreject[q]
                covers[c] -= 1
                if not covers[c]:
                    del covers[c]
        return board, down, covers

    def visible_stock(self, q: int, viewer: int | None) -> int:
        s = self.stock[q]
        if self._hidden_from(q, viewer) and (self.rplace[q] >= 0 or self.rreject[q] >= 0):
            if q != self.caller:
                s |= 1 << self.tile
        return s

    def visible_rejections(self, q: int, viewer: int | None) -> int:
        k = self.rej[q]
        if self._hidden_from(q, viewer) and self.rreject[q] >= 0:
            k -= 1
        return k

    def scores(self) -> list[float]:
        return [float(s) for s in self.pub]

    def ranking_key(self, player: int) -> tuple:
        return (self.pub[player], -self.down[player].bit_count())

    def _observation(self, player: int | None) -> dict[str, Any]:
        return views.observation(self, player)

    def observation_tensor(self, player: int) -> np.ndarray:
        return views.observation_tensor(self, player)

    def _hidden_entries(self, viewer: int | None) -> set[int]:
        return views.hidden_entries(self, viewer)


    def resample(self, player: int, rng: random.Random) -> MopsRoyalState:
        """A state consistent with ``player``'s view: the others' choices this round, which he
        cannot see, are undone and chosen afresh at random for those who have finished."""
        s = self.clone()
        if s.phase != ROUND:
            return s
        for q in range(s.n):
            if q == player or (s.rplace[q] < 0 and s.rreject[q] < 0 and s.rflip[q] < 0):
                continue
            s._undo_round(q)
            if self.step[q] == STEP_DONE:
                while s.step[q] != STEP_DONE:
                    s._round_choice(rng.choice(s._legal_actions(q)), q)
            s._legal_cache = {}
        return s

    def _undo_round(self, q: int) -> None:
        """Take back seat ``q``'s choices of the current round."""
        t = self.tile
        if self.rflip[q] >= 0:
            self.down[q] &= ~(1 << self.rflip[q])
            self.log[q] = [e for e in self.log[q] if e[0] != self.round]
        if self.rplace[q] >= 0:
            self.board[q * NCELLS + self.rplace[q]] = -1
            if q != self.caller:
                self.stock[q] |= 1 << t
        if self.rreject[q] >= 0:
            c = self.rreject[q]
            self.covers[q][c] -= 1
            if not self.covers[q][c]:
                del self.covers[q][c]
            self.rej[q] -= 1
            self.rejcost[q] -= self.rcost[q]
            if q != self.caller:
                self.stock[q] |= 1 << t
        self.score[q] = self.pub[q]
        self._rebuild(q)
        self.rplace[q] = self.rreject[q] = self.rflip[q] = -1
        self.rpoints[q] = self.rcost[q] = 0
        self.step[q] = STEP_PLACE if self.status[q] == ACTIVE else (
            STEP_SCORE if self.mayscore[q] else STEP_DONE
        )


MopsRoyal.state_class = MopsRoyalState
