"""KoPlus rules: the board of sections, NET placements, bonus turns, end and final scoring.

Speed: every placement of every orientation is precomputed once per board size
(:class:`Geometry`, from the engine's :class:`~meeple.engine.grid.Grid`): its cell mask, the
action ids it overlaps and the action ids it touches, all as int bitboards over action ids.
A state keeps one bitboard ``cand`` of the placements that are legal by the board (free,
touching a tile or inside the first-tile area, alien sum ≤ 9), updated with a few big-int
operations per placement, so ``legal_actions`` is a filter by the top tile's shape and the end
check is O(1). The notation is in :mod:`.notation`, the observation in :mod:`.views`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # mypy reads the shadow's typed names
    from meeple.engine import _cython_shadow as cython
else:
    try:
        import cython
    except ImportError:  # the pure-Python build without Cython installed
        from meeple.engine import _cython_shadow as cython

from meeple.engine import CHANCE, TERMINAL, Game, Option, OptionSchema
from meeple.engine.core import State, equal_chance_index
from meeple.engine.grid import Cell, Grid, bits, iter_bits, mask_of_indices, rotate_grid_cw
from meeple.engine.i18n import N_, words
from meeple.engine.options import Preset

from . import notation, views
from .components import (
    BOARD_SECTIONS,
    BONUS_ALLOWANCES,
    BONUS_THRESHOLDS,
    CATCH_LIMIT,
    INNER_AREA,
    ISOLATED_PENALTY,
    LARGEST_GROUP_BONUS,
    NON_MAXIMAL_PENALTY,
    SEAT_COLOURS,
    SECTION_SETS,
    SECTION_SIZE,
    SHAPE_NAMES,
    SHAPES,
    STACKS,
    TILES_PER_PLAYER,
    TOP_SHAPE,
)

_, _n = words(__file__)

Rect = tuple[int, int, int, int]
"""An inclusive rectangle of cells: (first row, last row, first col, last col)."""

_OFF_BOARD = 51
"""The alien value of the cell beyond the board: a placement that does not fit sums to at
least 51 (never ≤ 9) and at most 5 · 51 = 255, so sums fit one byte."""
_BEYOND = bytes((_OFF_BOARD,))
_OK_DIGIT = bytes(ord("1") if v <= CATCH_LIMIT else ord("0") for v in range(256))
_FEW_IDS = 20
"""Up to this many set bits, a bitboard is read bit by bit; beyond, numpy unpacks it (in
pure Python; compiled, a loop over its bytes reads any number)."""
_OUTCOME_CACHE = 1024
"""How many chance-outcome lists (by the sections already dealt) a game keeps."""


@cython.final
@cython.cclass
class Geometry:
    """Every placement on a rows × cols board, precomputed once per board size.

    Action ids follow the rules: ``k·R·C + r·C + c`` for orientation ``k`` (0 = X, 1..4 =
    U0..U3) anchored at ``(r, c)``; ``pass`` is ``5·R·C``. Lists are indexed by action id;
    an anchor whose shape leaves the board has ``mask == 0``. Compiled, its fields are C
    fields (``rules.pxd``); it pickles as its size (:func:`geometry` makes it again).
    """

    def __init__(self, rows: int, cols: int):
        grid = Grid(rows, cols)
        self.grid = grid
        """The board's cells as bitboards (bit ``r·cols + c`` is cell ``(r, c)``)."""
        self.rows = rows
        self.cols = cols
        size = grid.size
        self.size = size
        self.num_placements = 5 * size
        self._nbytes = (5 * size + 8) // 8
        self.pass_id = 5 * size
        n = self.num_placements
        self.cells: list[tuple[int, ...]] = [()] * n
        """The cell indices a placement covers, ascending (empty where it leaves the board)."""
        self.mask: list[int] = [0] * n
        cover = [0] * size  # cell -> action-id bitboard of placements covering it
        for k, name in enumerate(SHAPE_NAMES):
            offsets = SHAPES[name]
            for r in range(rows):
                for c in range(cols):
                    cells = [(r + dr, c + dc) for dr, dc in offsets]
                    if not all(grid.inside(rr, cc) for rr, cc in cells):
                        continue
                    a = k * size + grid.index(r, c)
                    m = grid.mask_of(cells)
                    self.cells[a] = tuple(bits(m))
                    self.mask[a] = m
                    for i in iter_bits(m):
                        cover[i] |= 1 << a
        self.cover = cover
        self.on_board = mask_of_indices(a for a in range(n) if self.mask[a])
        """Action-id bitboard of the placements that fit on the board."""
        self.shape_ids = ((1 << size) - 1, ((1 << (4 * size)) - 1) << size)
        """Action-id bitboards of the X placements and of the U placements."""
        self.conflict: list[int] = [0] * n
        """Action ids sharing a cell with the placement (itself included)."""
        self.touch: list[int] = [0] * n
        """Action ids covering a cell edge-adjacent to the placement."""
        self.around: list[int] = [0] * n
        """Cell bitboard of the cells edge-adjacent to the placement (not its own)."""
        self.keep: list[int] = [0] * n
        """Every action id (pass excluded) but those of ``conflict``: what laying the
        placement leaves possible, as a non-negative int (a fast ``&``)."""
        for a in range(n):
            own = self.mask[a]
            if not own:
                continue
            conf = 0
            for i in self.cells[a]:
                conf |= cover[i]
            self.conflict[a] = conf
            self.keep[a] = ((1 << n) - 1) ^ conf
            ring = grid.neighbours(own)
            self.around[a] = ring
            t = 0
            for i in iter_bits(ring):
                t |= cover[i]
            self.touch[a] = t
        # placement cells as an index array; off-board rows point at a sentinel cell
        cell_index = np.array([idx if idx else (size,) * 5 for idx in self.cells], dtype=np.intp)
        self.cell_columns = tuple(np.ascontiguousarray(cell_index[:, j]) for j in range(5))
        self._inner: dict[Rect, int] = {}

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        return geometry, (self.rows, self.cols)

    def inside(self, rect: Rect) -> int:
        """Action-id bitboard of the placements lying wholly inside ``rect``."""
        got = self._inner.get(rect)
        if got is None:
            r0, r1, c0, c1 = rect
            grid = self.grid
            area = grid.mask_of(
                (r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if grid.inside(r, c)
            )
            got = mask_of_indices(a for a, m in enumerate(self.mask) if m and m & area == m)
            self._inner[rect] = got
        return got

    def sums(self, aliens: Sequence[int]) -> tuple[bytes, int]:
        """Alien sum of every placement (as bytes, indexed by action id; over 50 when it
        does not fit), and the action-id bitboard of the placements with sum ≤ 9."""
        return self.price(np.frombuffer(bytes(aliens) + bytes((_OFF_BOARD,)), dtype=np.uint8))

    def price(self, ext: np.ndarray) -> tuple[bytes, int]:
        """:meth:`sums` from a uint8 array of the cells' alien values plus one cell beyond
        the board (value 51) at index ``rows·cols``."""
        c0, c1, c2, c3, c4 = self.cell_columns
        sums = (ext[c0] + ext[c1] + ext[c2] + ext[c3] + ext[c4]).tobytes()
        return sums, _fitting(sums)

    @cython.locals(data=bytes, i=cython.Py_ssize_t, byte=cython.uint, bit=cython.Py_ssize_t)
    def ids_of(self, ids: int) -> list[int]:
        """The set bits of an action-id bitboard, ascending."""
        if cython.compiled:  # C: a loop over the bytes, whatever the count
            data = ids.to_bytes(self._nbytes, "little")
            found: list[int] = []
            for i in range(len(data)):
                byte = data[i]
                bit = 8 * i
                while byte:
                    if byte & 1:
                        found.append(bit)
                    byte >>= 1
                    bit += 1
            return found
        if ids.bit_count() > _FEW_IDS:  # many: let numpy unpack the bytes
            raw = np.frombuffer(ids.to_bytes(self._nbytes, "little"), dtype=np.uint8)
            flags = np.unpackbits(raw, bitorder="little").view(np.bool_)  # bools: a fast nonzero
            return flags.nonzero()[0].tolist()
        out = []
        while ids:  # highest bit first (no negation), then reversed
            top = ids.bit_length() - 1
            out.append(top)
            ids ^= 1 << top
        out.reverse()
        return out

    def cells_of(self, action: int) -> list[Cell]:
        """The (row, col) cells a placement covers, row-major."""
        return self.grid.cells_of(self.mask[action])


@cython.locals(sums=bytes, n=cython.Py_ssize_t, i=cython.Py_ssize_t, limit=cython.int,
               out=bytearray)
def _fitting(sums: bytes) -> int:
    """The action-id bitboard of the placements whose alien sum (``sums[a]``) is at most the
    catch limit."""
    if cython.compiled:  # C: one pass over the bytes
        n = len(sums)
        limit = CATCH_LIMIT
        out = bytearray((n + 7) // 8)
        for i in range(n):
            if sums[i] <= limit:
                out[i >> 3] |= 1 << (i & 7)
        return int.from_bytes(out, "little")
    return int(sums.translate(_OK_DIGIT)[::-1], 2)  # bit a: sums[a] <= 9


@lru_cache(maxsize=16)
def geometry(rows: int, cols: int) -> Geometry:
    """The shared :class:`Geometry` of a rows × cols board."""
    return Geometry(rows, cols)


@lru_cache(maxsize=16)
def section_lanes(
    section_set: str, section_grid: tuple[int, int]
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int]:
    """What each dealt section adds to the board, as ints with one byte per lane, so that
    laying out a complete board is a few int additions.

    ``cells[pos][4·section + turn]``: the section's alien values at its place ``pos`` (row-major
    over the section grid), one byte per board cell; ``places[pos][4·section + turn]``: its
    share of every placement's alien sum, one byte per action id; ``off``: 255 in the byte of
    every placement that does not fit the board (on-board sums are at most 25, so no byte
    ever carries into the next)."""
    sr, sc = section_grid
    rows, cols = sr * SECTION_SIZE, sc * SECTION_SIZE
    geo = geometry(rows, cols)
    size = geo.size
    index = np.stack(geo.cell_columns, axis=1)  # [action, 5] cells (off-board: the sentinel)
    sections = rotated_sections(section_set)
    cells_out, places_out = [], []
    for pos in range(sr * sc):
        r0, c0 = divmod(pos, sc)
        at = np.array(
            [(r0 * SECTION_SIZE + i) * cols + c0 * SECTION_SIZE + j
             for i in range(SECTION_SIZE) for j in range(SECTION_SIZE)],
            dtype=np.intp,
        )
        cell_row, place_row = [], []
        for turns in sections:
            for values in turns:
                board = np.zeros(size + 1, dtype=np.uint8)
                board[at] = values
                cell_row.append(int.from_bytes(board[:size].tobytes(), "little"))
                sums = board[index].sum(axis=1, dtype=np.uint8)
                place_row.append(int.from_bytes(sums.tobytes(), "little"))
        cells_out.append(tuple(cell_row))
        places_out.append(tuple(place_row))
    off = int.from_bytes(bytes(0 if m else 255 for m in geo.mask), "little")
    return tuple(cells_out), tuple(places_out), off


@lru_cache(maxsize=8)
def _deals(count: int, rot: int) -> tuple[tuple[tuple[int, ...], ...],
                                          tuple[tuple[tuple[tuple[int, float], ...], ...], ...]]:
    """The chance outcomes of dealing ``count`` sections with ``rot`` allowed rotations:
    the outcome ids per section (one per rotation), and ``[sections not used yet][section]``
    that section's (outcome, probability) pairs."""
    ids = tuple(tuple(4 * i + q for q in range(rot)) for i in range(count))
    pairs = tuple(
        tuple(tuple((a, 1.0 / (rot * max(free, 1))) for a in group) for group in ids)
        for free in range(count + 1)
    )
    return ids, pairs


@lru_cache(maxsize=8)
def rotated_sections(section_set: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[n-1][q]``: section ``Snn`` turned ``q`` quarter turns clockwise, 16 values row-major."""
    out = []
    for name in sorted(SECTION_SETS[section_set]):
        rows = SECTION_SETS[section_set][name]
        grid = [[0 if ch == "." else int(ch) for ch in row] for row in rows]
        turns = []
        for _ in range(4):
            turns.append(tuple(v for row in grid for v in row))
            grid = rotate_grid_cw(grid)
        out.append(tuple(turns))
    return tuple(out)


class KoPlus(Game):
    """KoPlus for 2–4 players: lay X and U NET tiles to catch aliens worth up to 9 per tile."""

    name = "koplus"
    title = "KoPlus"
    version = "1"
    player_counts = (2, 3, 4)
    perfect_information = True
    pitch = N_("Catch aliens with nets of plus- and U-shaped tiles")
    minutes = (10, 30)
    colours = SEAT_COLOURS
    option_schema = OptionSchema(
        (
            Option(
                "section_set",
                str,
                "placeholder_v1",
                choices=tuple(SECTION_SETS),
                reconstructed=True,
                help=N_("where the aliens sit on the 16 board sections"),
                label=N_("Alien layout"),
                labels=(("placeholder_v1",
                         N_("meeple's own (the printed sections are not known)")),),
                advanced=True,
            ),
            Option(
                "random_rotation",
                bool,
                True,
                reconstructed=True,
                help=N_("each board section is laid turned at random; off: every section the "
                        "same way up"),
                label=N_("Turn the board sections at random"),
                advanced=True,
            ),
            Option(
                "bonus_needs_points",
                bool,
                False,
                reconstructed=True,
                help=N_("a tile that catches no alien never earns a bonus turn"),
                label=N_("Bonus turns only for tiles that score"),
                advanced=True,
            ),
            Option(
                "end_when_any_blocked",
                bool,
                False,
                help=N_("the game ends as soon as the player to play cannot lay a tile, "
                        "instead of that player passing"),
                label=N_("End when someone cannot lay a tile"),
            ),
        )
    )

    @classmethod
    def presets(cls) -> tuple[Preset, ...]:
        return (
            Preset(N_("Standard"), N_("The everyday game: play until nobody can lay a tile.")),
            Preset(N_("Quick end"), N_("The game ends as soon as the player to play cannot "
                                       "lay a tile."), {"end_when_any_blocked": True}),
        )

    @classmethod
    def configurations(cls) -> list[tuple[int, dict[str, Any]]]:
        return [
            (2, {}),
            (3, {}),
            (4, {}),
            (2, {"bonus_needs_points": True}),
            (3, {"end_when_any_blocked": True}),
            (4, {"random_rotation": False}),
        ]

    def _setup(self) -> None:
        n = self.num_players
        sr, sc = BOARD_SECTIONS[n]
        self.section_grid = (sr, sc)
        self.num_sections = sr * sc
        self.rows = sr * SECTION_SIZE
        self.cols = sc * SECTION_SIZE
        self.inner_area: Rect = INNER_AREA[n]
        self.geometry = geometry(self.rows, self.cols)
        self.inner_ids = self.geometry.inside(self.inner_area)
        self.sections = rotated_sections(self.options["section_set"])
        self.section_bytes = tuple(tuple(bytes(turn) for turn in sec) for sec in self.sections)
        """``[section][rotation]``: the 16 alien values as bytes."""
        order = []
        grid = self.geometry.grid
        for i in range(grid.size):
            r, c = grid.cell(i)
            pos = (r // SECTION_SIZE) * sc + c // SECTION_SIZE
            order.append(pos * 16 + (r % SECTION_SIZE) * SECTION_SIZE + c % SECTION_SIZE)
        order.append(self.num_sections * 16)
        self.board_order = np.array(order, dtype=np.intp)
        """Board cell -> index into the dealt sections' values laid end to end (+ beyond)."""
        self.section_count = len(self.sections)
        self.rotations = 4 if self.options["random_rotation"] else 1
        count, rot = self.section_count, self.rotations
        self.deal_ids, self.deal_pairs = _deals(count, rot)
        self.lanes = section_lanes(self.options["section_set"], (sr, sc))
        """Per-section shares of the cells' and placements' alien values (``section_lanes``)."""
        self.outcome_cache: dict[int, tuple[tuple[int, float], ...]] = {}
        """Chance outcomes by the bitboard of the sections already dealt (bounded)."""
        self.bonus_needs_points: bool = self.options["bonus_needs_points"]
        self.end_when_any_blocked: bool = self.options["end_when_any_blocked"]

    @property
    def num_distinct_actions(self) -> int:
        return 5 * self.rows * self.cols + 1

    @property
    def max_chance_outcomes(self) -> int:
        return 4 * self.section_count

    @property
    def max_game_length(self) -> int:
        n = self.num_players
        placements = TILES_PER_PLAYER * n
        # between two placements at most n passes (each seat once) can happen
        return self.num_sections + placements + (placements + 1) * n

    @property
    def observation_shape(self) -> tuple[int, ...]:
        n = self.num_players
        return ((8 + n) * self.rows * self.cols + 4 * n + 2,)

    def planes(self) -> list[dict[str, Any]]:
        return views.planes(self)


@cython.cclass
class KoPlusState(State):
    """One KoPlus position: the board being dealt, or the tiles, scores and turn of play.
    Compiled, an extension type: its fields are C fields (declared in ``rules.pxd``)."""

    game: KoPlus
    current_player: int  # a plain slot below, not the base class's property

    __slots__ = (
        "geo",
        "nplayers",
        "layout",
        "used",
        "free",
        "aliens",
        "psum",
        "ok",
        "inner",
        "inner_ids",
        "occupied",
        "live",
        "cand",
        "placed",
        "taken",
        "running",
        "bonus_left",
        "current_player",  # a plain slot: read on every engine call, so no property
        "bonus_turn",
        "final",
    )

    def __init__(self, game: Game):
        super().__init__(game)
        assert isinstance(game, KoPlus)
        n = game.num_players
        self.geo: Geometry = game.geometry
        self.nplayers = n
        self.layout: tuple[tuple[int, int], ...] = ()
        self.used = 0
        self.free: tuple[int, ...] = tuple(range(game.section_count))
        self.aliens: bytes | None = None
        """Alien value per cell (row-major), once the board is complete (shared by clones)."""
        self.psum: bytes | None = None
        """Alien sum per action id, once the board is complete (shared by clones)."""
        self.ok = 0
        self.inner: Rect = game.inner_area
        self.inner_ids: int = game.inner_ids
        self.occupied = 0
        self.live = 0
        """Action-id bitboard of the placements whose alien sum is ≤ 9 and that share no
        cell with a placed tile (``ok`` less the conflicts of every placed tile)."""
        self.cand = 0
        self.placed: list[tuple[int, int]] = []
        self.taken = [0] * n
        self.running = [0] * n
        self.bonus_left = list(BONUS_ALLOWANCES[n])
        self.current_player = CHANCE
        self.bonus_turn = False
        self.final: list[dict[str, Any]] | None = None
        """The final breakdown once the game is over (built on first use, then shared)."""

    # ------------------------------------------------------------------ constructed positions
    @classmethod
    def from_position(
        cls,
        game: Game,
        aliens: Sequence[Sequence[int]],
        inner_area: Rect,
        tiles: Sequence[tuple[int, str]],
        scores: Sequence[int],
        bonus_left: Sequence[int],
        to_move: int,
        stacks: Sequence[str] | None = None,
    ) -> KoPlusState:
        """A position in the middle of play, built from explicit data (for tests and analysis).

        ``aliens`` is the alien grid (rows × cols, any size, values 0–5), ``inner_area`` the
        first-tile rectangle ``(first row, last row, first col, last col)``, ``tiles`` the placed
        tiles as ``(player, "U1@0,0")`` in the order they were laid, ``scores`` the running
        scores, ``bonus_left`` the bonus turns left, ``to_move`` the seat to act. ``stacks``
        (optional) gives each player's remaining stack top first (e.g. ``"UXUXUXUXUX"``); it
        must agree with the fixed stack order of the seat and the tiles placed. Such a state has
        no history, so its record cannot be replayed.
        """
        if not isinstance(game, KoPlus):
            raise ValueError("from_position needs a KoPlus game")
        n = game.num_players
        rows = len(aliens)
        cols = len(aliens[0]) if rows else 0
        if rows < 1 or cols < 1 or any(len(row) != cols for row in aliens):
            raise ValueError("aliens must be a non-empty rectangular grid")
        flat = [int(v) for row in aliens for v in row]
        if any(not 0 <= v <= 5 for v in flat):
            raise ValueError("alien values are 0..5")
        for name, seq in (("scores", scores), ("bonus_left", bonus_left)):
            if len(seq) != n:
                raise ValueError(f"{name} needs one entry per player ({n})")
        if not 0 <= to_move < n:
            raise ValueError(f"to_move must be a seat 0..{n - 1}")
        s = cls(game)
        geo = geometry(rows, cols)
        s.geo = geo
        s.layout = ()
        s.used = 0
        s.aliens = bytes(flat)
        s.psum, s.ok = geo.sums(flat)
        s.inner = tuple(inner_area)  # type: ignore[assignment]
        s.inner_ids = geo.inside(s.inner)
        s.live = s.ok
        s.cand = s.inner_ids & s.ok
        for player, text in tiles:
            if not 0 <= player < n:
                raise ValueError(f"tile {text!r}: no player {player}")
            a = notation.parse_place(s, text)
            if not geo.mask[a]:
                raise ValueError(f"tile {text!r} does not fit on the board")
            if geo.mask[a] & s.occupied:
                raise ValueError(f"tile {text!r} overlaps another tile")
            if s.taken[player] >= TILES_PER_PLAYER:
                raise ValueError(f"player {player} has more than {TILES_PER_PLAYER} tiles")
            s._lay(player, a)
        if stacks is not None:
            if len(stacks) != n:
                raise ValueError(f"stacks needs one entry per player ({n})")
            for p, st in enumerate(stacks):
                expect = STACKS[p % 2][s.taken[p]:]
                if st.upper() != expect:
                    raise ValueError(
                        f"player {p}'s stack must be {expect or 'empty'!r} "
                        f"(seat order after {s.taken[p]} tiles placed), got {st!r}"
                    )
        s.running = [int(v) for v in scores]
        s.bonus_left = [int(v) for v in bonus_left]
        s.current_player = to_move
        if s._nobody_can_place():
            s._end()
        else:
            s._settle_turn()
        return s

    # ------------------------------------------------------------------ turn structure
    @cython.locals(geo=Geometry)
    def is_legal(self, action: int, player: int | None = None) -> bool:
        """Whether ``action`` is legal for ``player`` now: a direct bitboard test, the same
        answer as ``action in legal_actions(player)`` without building the list."""
        cp = self.current_player
        if cp == TERMINAL or (player is not None and player != cp):
            return False
        if type(action) is not int:
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
                return False
            action = int(action)
        if action < 0:
            return False
        if cp == CHANCE:
            section, q = divmod(action, 4)
            game = self.game
            return section < game.section_count and not self.used >> section & 1 and (
                q < game.rotations
            )
        geo = self.geo
        shape = TOP_SHAPE[cp & 1][self.taken[cp]]
        if action == geo.pass_id:
            return shape < 0 or not self.cand & geo.shape_ids[shape]
        if action > geo.pass_id or shape < 0:
            return False
        return bool(self.cand >> action & 1) and (action >= geo.size) == (shape == 1)

    def top_shape(self, player: int) -> int:
        """The shape of ``player``'s top tile: 0 = X, 1 = U, -1 = empty stack."""
        return TOP_SHAPE[player & 1][self.taken[player]]

    def can_place(self, player: int) -> bool:
        """Whether ``player`` has a legal placement with their own top tile now."""
        shape = TOP_SHAPE[player & 1][self.taken[player]]
        return shape >= 0 and bool(self.cand & self.geo.shape_ids[shape])

    @cython.locals(geo=Geometry, p=cython.Py_ssize_t, shape=cython.Py_ssize_t,
                   can_x=cython.bint, can_u=cython.bint)
    def _nobody_can_place(self) -> bool:
        cand = self.cand
        if not cand:
            return True
        geo = self.geo
        can_x = bool(cand & geo.shape_ids[0])
        # U ids lie above every X id: some U placement is legal iff cand reaches past them
        can_u = cand > geo.shape_ids[0]
        p = 0
        for taken in self.taken:
            shape = TOP_SHAPE[p & 1][taken]
            if (shape == 0 and can_x) or (shape == 1 and can_u):
                return False
            p += 1
        return True

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        game = self.game
        cache = game.outcome_cache
        got = cache.get(self.used)
        if got is None:
            pairs = game.deal_pairs[len(self.free)]
            got = tuple(chain.from_iterable(map(pairs.__getitem__, self.free)))
            if len(cache) < _OUTCOME_CACHE:
                cache[self.used] = got
        return list(got)

    @cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, rot=cython.Py_ssize_t)
    def _draw_chance(self, rng: random.Random) -> int:
        """The engine's draw (every section and turn equally likely) without listing the
        outcomes: the ``i``-th outcome is the ``i // rotations``-th free section turned
        ``i % rotations``."""
        if self.current_player != CHANCE:
            return State._draw_chance(self, rng)
        free = self.free
        rot = self.game.rotations
        n = rot * len(free)
        i = equal_chance_index(n, rng.random())
        return 4 * free[i // rot] + i % rot

    @cython.locals(geo=Geometry)
    def _legal_actions(self, player: int) -> list[int]:
        if player == CHANCE:
            return list(chain.from_iterable(map(self.game.deal_ids.__getitem__, self.free)))
        shape = TOP_SHAPE[player & 1][self.taken[player]]
        geo = self.geo
        if shape >= 0:
            ids = self.cand & geo.shape_ids[shape]
            if ids:
                return geo.ids_of(ids)
        return [geo.pass_id]

    # ------------------------------------------------------------------ applying
    @cython.locals(geo=Geometry, a=cython.Py_ssize_t, p=cython.Py_ssize_t,
                   gain=cython.Py_ssize_t, score=cython.Py_ssize_t)
    def _apply(self, action: int, player: int) -> None:
        if player == CHANCE:
            self._deal(action)
            return
        a, p = action, player  # compiled: C ints
        geo = self.geo
        game = self.game
        self.bonus_turn = False
        if a == geo.pass_id:
            self.current_player = (p + 1) % self.nplayers
            if self._nobody_can_place():
                self._end()
            elif game.end_when_any_blocked:
                self._settle_turn()
            return
        # lay the tile (as _lay, inlined: this is the hot path of every playout)
        keep = geo.keep[a]
        live = self.live = self.live & keep
        if self.placed:
            self.cand = (self.cand & keep) | (geo.touch[a] & live)
        else:  # the first tile: the inner area no longer matters
            self.cand = geo.touch[a] & live
        self.occupied |= geo.mask[a]
        self.placed.append((p, a))
        self.taken[p] += 1
        gain = self.psum[a]  # type: ignore[index]
        score = self.running[p] + gain
        self.running[p] = score
        if self._nobody_can_place():
            self._end()
            return
        if (
            score in BONUS_THRESHOLDS
            and self.bonus_left[p] > 0
            and (gain > 0 or not game.bonus_needs_points)
        ):
            self.bonus_left[p] -= 1
            self.bonus_turn = True
            self.current_player = p
        else:
            self.current_player = (p + 1) % self.nplayers
        if game.end_when_any_blocked:
            self._settle_turn()

    @cython.locals(geo=Geometry)
    def _lay(self, player: int, action: int) -> int:
        """Put ``player``'s top tile on ``action``'s cells; return its alien sum."""
        geo = self.geo
        keep = geo.keep[action]
        live = self.live = self.live & keep
        cand = self.cand & keep if self.placed else 0
        self.cand = cand | (geo.touch[action] & live)
        self.occupied |= geo.mask[action]
        self.placed.append((player, action))
        self.taken[player] += 1
        assert self.psum is not None
        return self.psum[action]

    def _settle_turn(self) -> None:
        """Apply option ``end_when_any_blocked`` to the player now due to act."""
        if self.game.end_when_any_blocked and not self.can_place(self.current_player):
            self._end()

    @cython.locals(geo=Geometry)
    def _deal(self, action: int) -> None:
        game = self.game
        section, q = divmod(action, 4)
        self.layout = self.layout + ((section, q),)
        self.used |= 1 << section
        free = self.free
        i = free.index(section)
        self.free = free[:i] + free[i + 1 :]
        if len(self.layout) < game.num_sections:
            return
        # the board is complete: lay out the aliens and price every placement once, adding
        # up each section's share, one byte per cell and per placement
        cell_lanes, place_lanes, off = game.lanes
        cells = sums = 0
        pos = 0
        for sec, rot in self.layout:
            k = 4 * sec + rot
            cells += cell_lanes[pos][k]
            sums += place_lanes[pos][k]
            pos += 1
        geo = self.geo
        self.aliens = cells.to_bytes(geo.size, "little")
        psum = self.psum = (sums | off).to_bytes(geo.num_placements, "little")
        self.ok = _fitting(psum)
        self.live = self.ok
        self.cand = self.inner_ids & self.ok
        self.current_player = 0
        if self._nobody_can_place():
            self._end()
        else:
            self._settle_turn()

    def _end(self) -> None:
        self.current_player = TERMINAL
        self.final = None  # the final breakdown is built when first asked for

    def final_result(self) -> list[dict[str, Any]] | None:
        """The final breakdown per player once the game is over, else ``None``."""
        if self.current_player != TERMINAL:
            return None
        if self.final is None:
            self.final = self.final_scoring()
        return self.final

    # ------------------------------------------------------------------ scoring
    def group_sizes(self, player: int) -> list[int]:
        """Sizes (in tiles) of ``player``'s components of edge-linked tiles; 1 = isolated.

        Each tile is a connected pentomino and tiles never overlap, so the edge-connected
        regions of the player's covered cells are exactly their groups, 5 cells a tile."""
        geo = self.geo
        own = 0
        for p, a in self.placed:
            if p == player:
                own |= geo.mask[a]
        return [part.bit_count() // 5 for part in geo.grid.components(own)]

    def _group_counts(self, player: int) -> list[int]:
        """The sizes of :meth:`group_sizes` in no particular order, grouping whole tiles (a
        tile joins a group when it covers a cell next to it): the evaluation's fast path."""
        geo = self.geo
        mask, around = geo.mask, geo.around
        tiles = [a for p, a in self.placed if p == player]
        sizes = []
        while tiles:
            reach = around[tiles.pop()]
            count = 1
            grew = True
            while grew and tiles:
                grew = False
                rest = []
                for b in tiles:
                    if mask[b] & reach:
                        reach |= around[b]
                        count += 1
                        grew = True
                    else:
                        rest.append(b)
                tiles = rest
            sizes.append(count)
        return sizes

    def final_scoring(self) -> list[dict[str, Any]]:
        """The end-of-game adjustments per player (rules 6.2), as if the game ended now:
        ``running_score``, ``largest_group`` (L_p) and its ``largest_group_bonus``,
        ``isolated_tiles`` and ``isolated_penalty``, ``non_maximal_tiles`` and
        ``non_maximal_penalty``, the ``final`` score and the ``tiles_in_hand`` (the tie-break)."""
        n = self.nplayers
        sizes = [self._group_counts(p) for p in range(n)]
        largest = [max((s for s in ss if s >= 2), default=0) for ss in sizes]
        top = max(largest)
        out = []
        for p in range(n):
            lp = largest[p]
            isolated = sum(1 for s in sizes[p] if s == 1)
            non_max = sum(s for s in sizes[p] if 2 <= s < lp)
            bonus = LARGEST_GROUP_BONUS if top >= 2 and lp == top else 0
            final = (
                self.running[p] + bonus + ISOLATED_PENALTY * isolated
                + NON_MAXIMAL_PENALTY * non_max
            )
            out.append(
                {
                    "player": p,
                    "running_score": self.running[p],
                    "largest_group": lp,
                    "largest_group_bonus": bonus,
                    "isolated_tiles": isolated,
                    "isolated_penalty": ISOLATED_PENALTY * isolated,
                    "non_maximal_tiles": non_max,
                    "non_maximal_penalty": NON_MAXIMAL_PENALTY * non_max,
                    "final": final,
                    "tiles_in_hand": TILES_PER_PLAYER - self.taken[p],
                }
            )
        return out

    def scores(self) -> list[float]:
        final = self.final_result()
        if final is not None:
            return [float(b["final"]) for b in final]
        return [float(s) for s in self.running]

    def ranking_key(self, player: int) -> tuple:
        final = self.final_result()
        score = final[player]["final"] if final is not None else self.running[player]
        return (score, TILES_PER_PLAYER - self.taken[player])

    # ------------------------------------------------------------------ copies
    def clone(self) -> KoPlusState:
        new = self._blank_copy()
        new.geo = self.geo
        new.nplayers = self.nplayers
        new.layout = self.layout
        new.used = self.used
        new.free = self.free
        new.aliens = self.aliens  # never changed once the board is complete
        new.psum = self.psum
        new.ok = self.ok
        new.inner = self.inner
        new.inner_ids = self.inner_ids
        new.occupied = self.occupied
        new.live = self.live
        new.cand = self.cand
        new.placed = self.placed.copy()
        new.taken = self.taken.copy()
        new.running = self.running.copy()
        new.bonus_left = self.bonus_left.copy()
        new.current_player = self.current_player
        new.bonus_turn = self.bonus_turn
        new.final = self.final  # built once at the end, never changed
        return new

    # ------------------------------------------------------------------ legality
    def _illegal_reason(self, action: int, player: int) -> str | None:
        if player == CHANCE:
            section, q = divmod(action, 4)
            if self.used >> section & 1:
                return _("section {section} is already on the board",
                         section=notation.section_name(section))
            if q >= self.game.rotations:
                return _("sections are laid unturned in this game (random_rotation is off)")
            return None
        geo = self.geo
        shape = TOP_SHAPE[player & 1][self.taken[player]]
        if action == geo.pass_id:
            return _("you may pass only when you have no legal placement")
        if not 0 <= action < geo.pass_id:
            return None
        k = action // geo.size
        if shape < 0:
            return _("your stack is empty: your only action is pass")
        if (k > 0) != (shape == 1):
            return _("your top tile is U") if shape == 1 else _("your top tile is X (a plus)")
        m = geo.mask[action]
        if not m:
            return _("the tile would stick out of the board")
        if m & self.occupied:
            return _("the tile would cover a tile already placed")
        if not self.placed:
            if not geo.inside(self.inner) >> action & 1:
                return _("the first tile of the game must lie wholly inside the inner area")
        elif not self._touches_tile(action):
            return _("the tile must share an edge with a tile already placed")
        if self.psum is not None and self.psum[action] > CATCH_LIMIT:
            return _("the aliens under it sum to {sum}; at most 9 is allowed",
                     sum=self.psum[action])
        return None

    def _touches_tile(self, action: int) -> bool:
        return bool(self.geo.around[action] & self.occupied)

    def cells_of(self, action: int) -> list[Cell]:
        """The (row, col) cells a placement covers, row-major."""
        return self.geo.cells_of(action)

    # ------------------------------------------------------------------ notation and views
    def _action_to_string(self, action: int, player: int) -> str:
        return notation.action_to_string(self, action, player)

    def _string_to_action(self, text: str, player: int) -> int:
        return notation.string_to_action(self, text, player)

    def _describe_action(self, action: int, player: int) -> dict[str, Any]:
        return notation.describe_action(self, action, player)

    def describe(self, player: int, action: int) -> str:
        return views.describe(self, player, action)

    def describe_setup(self) -> str:
        return views.describe_setup(self)

    def _action_to_dict(self, action: int, player: int) -> dict[str, Any]:
        return notation.action_to_dict(self, action, player)

    def _dict_to_action(self, move: dict[str, Any], player: int) -> int:
        return notation.dict_to_action(self, move, player)

    def _observation(self, player: int | None) -> dict[str, Any]:
        return views.observation(self, player)

    def observation_tensor(self, player: int) -> np.ndarray:
        return views.observation_tensor(self, player)


KoPlus.state_class = KoPlusState
