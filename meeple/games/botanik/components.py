"""Botanik data: the 67 tiles, their pipes, flowers and colours; edges and rotations.

Everything here is plain data (tables keyed by tile index). Items marked **[R1]**, **[R2]**,
**[R3]** are reconstructed (see ``rules.md`` §8); a different ``tile_set`` can replace them.
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.engine.grid import Grid
from meeple.engine.i18n import N_, words
from meeple.engine.look import PALETTE, Colour, seat_name

_, _n = words(__file__)

SEAT_COLOURS: tuple[Colour, ...] = PALETTE
"""The players' colours by seat (``Botanik.colours``): the shared palette, as the pieces of the
game have no player colours of their own. The tile colours below are the tiles', not a player's."""

COLOURS = ("R", "Y", "G", "B", "K")
"""Colour letters, by colour index: red, yellow, green, blue, black."""
COLOUR_NAMES = ("red", "yellow", "green", "blue", "black")
NO_COLOUR = 5
"""Colour index of the Source tiles (they have no colour)."""

TYPES = ("straight", "elbow", "tee", "cross", "plant", "vegetable", "meca", "source")
STRAIGHT, ELBOW, TEE, CROSS, PLANT, VEGETABLE, MECA, SOURCE = range(8)

DIRS = ("N", "E", "S", "W")
"""Edge directions; bit ``d`` of an exit mask is a pipe on edge ``d``."""

# Per colour, slot -> (suffix, type, exit mask at rotation 0, flowers).  [R1][R2]
RECONSTRUCTED_V1 = (
    ("ST1", STRAIGHT, 0b0101, 1),
    ("ST2", STRAIGHT, 0b0101, 0),
    ("ST3", STRAIGHT, 0b0101, 0),
    ("EL1", ELBOW, 0b0011, 1),
    ("EL2", ELBOW, 0b0011, 0),
    ("EL3", ELBOW, 0b0011, 0),
    ("TE1", TEE, 0b0111, 1),
    ("TE2", TEE, 0b0111, 0),
    ("TE3", TEE, 0b0111, 0),
    ("CR", CROSS, 0b1111, 0),
    ("PL", PLANT, 0b0001, 3),
    ("VE", VEGETABLE, 0b0001, 3),
    ("MB", MECA, 0b0000, 0),
)
SOURCE_EXITS = 0b1111  # [R3] four exits, no colour, no flowers

TILE_SETS = {"reconstructed_v1": RECONSTRUCTED_V1}
"""The tile tables the ``tile_set`` option chooses from."""

NUM_COLOURED = 65
SRC0, SRC1 = 65, 66
NUM_TILES = 67


def rotate(mask: int, k: int) -> int:
    """The exit mask turned ``k`` quarter turns clockwise (exit ``d`` becomes ``d + k``)."""
    k &= 3
    return ((mask << k) | (mask >> (4 - k))) & 15


class TileSet:
    """Flat per-tile tables (index 0–66) built from one tile-set table."""

    def __init__(self, name: str = "reconstructed_v1"):
        table = TILE_SETS[name]
        self.name = name
        self.ids: list[str] = []
        self.colour: list[int] = []
        self.type: list[int] = []
        self.exits: list[int] = []
        self.flowers: list[int] = []
        for ci, letter in enumerate(COLOURS):
            for suffix, typ, exits, flowers in table:
                self.ids.append(f"{letter}-{suffix}")
                self.colour.append(ci)
                self.type.append(typ)
                self.exits.append(exits)
                self.flowers.append(flowers)
        for sid in ("SRC0", "SRC1"):
            self.ids.append(sid)
            self.colour.append(NO_COLOUR)
            self.type.append(SOURCE)
            self.exits.append(SOURCE_EXITS)
            self.flowers.append(0)
        self.index = {tid: i for i, tid in enumerate(self.ids)}
        # match[a] is a bitmask over tile indices that ``a`` matches (colour or type)
        self.match: list[int] = []
        for a in range(NUM_TILES):
            m = 0
            for b in range(NUM_TILES):
                same_colour = self.colour[a] == self.colour[b] and self.colour[a] != NO_COLOUR
                if same_colour or self.type[a] == self.type[b]:
                    m |= 1 << b
            self.match.append(m)
        # canonical rotations: [(k, exit mask)] with the smallest k for each distinct mask
        self.rotations: list[tuple[tuple[int, int], ...]] = []
        for a in range(NUM_TILES):
            seen: dict[int, int] = {}
            for k in range(4):
                seen.setdefault(rotate(self.exits[a], k), k)
            self.rotations.append(tuple((k, m) for m, k in seen.items()))
        self.is_meca = [t == MECA for t in self.type]
        # fits[a][known << 4 | value]: the rotations (k, new open pipes) of ``a`` whose exits
        # agree with ``value`` on the ``known`` (occupied) sides
        self.fits: list[list[tuple[tuple[int, int], ...]]] = []
        for a in range(NUM_TILES):
            fits: list[tuple[tuple[int, int], ...]] = []
            for kv in range(256):
                known, value = kv >> 4, kv & 15
                ok = value & ~known == 0
                fits.append(tuple(
                    (k, (m & ~known & 15).bit_count())
                    for k, m in self.rotations[a] if ok and m & known == value
                ))
            self.fits.append(fits)

    def matches(self, a: int, b: int) -> bool:
        """Whether tiles ``a`` and ``b`` match: same colour or same type."""
        return bool(self.match[a] >> b & 1)

    def canonical(self, tile: int, k: int) -> int:
        """The smallest rotation giving the same exits as rotation ``k`` of ``tile``."""
        m = rotate(self.exits[tile], k)
        for kk in range(4):
            if rotate(self.exits[tile], kk) == m:
                return kk
        return k  # pragma: no cover


_CACHE: dict[str, TileSet] = {}


def tile_set(name: str = "reconstructed_v1") -> TileSet:
    """The (shared, read-only) tables of a tile set."""
    ts = _CACHE.get(name)
    if ts is None:
        ts = _CACHE[name] = TileSet(name)
    return ts


COLOUR_WORDS = {"R": N_("red"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue"),
                "K": N_("black")}
"""Each tile colour letter in words."""
TYPE_WORDS = {"straight": N_("straight pipe"), "elbow": N_("elbow"), "tee": N_("tee"),
              "cross": N_("cross"), "plant": N_("plant"), "vegetable": N_("vegetable"),
              "meca": N_("Meca-Botanist"), "source": N_("Source")}
"""Each tile type in the game's words."""
TILE_NAMES = {
    ("R", "straight"): N_("red straight pipe"),
    ("R", "elbow"): N_("red elbow"),
    ("R", "tee"): N_("red tee"),
    ("R", "cross"): N_("red cross"),
    ("R", "plant"): N_("red plant"),
    ("R", "vegetable"): N_("red vegetable"),
    ("R", "meca"): N_("red Meca-Botanist"),
    ("Y", "straight"): N_("yellow straight pipe"),
    ("Y", "elbow"): N_("yellow elbow"),
    ("Y", "tee"): N_("yellow tee"),
    ("Y", "cross"): N_("yellow cross"),
    ("Y", "plant"): N_("yellow plant"),
    ("Y", "vegetable"): N_("yellow vegetable"),
    ("Y", "meca"): N_("yellow Meca-Botanist"),
    ("G", "straight"): N_("green straight pipe"),
    ("G", "elbow"): N_("green elbow"),
    ("G", "tee"): N_("green tee"),
    ("G", "cross"): N_("green cross"),
    ("G", "plant"): N_("green plant"),
    ("G", "vegetable"): N_("green vegetable"),
    ("G", "meca"): N_("green Meca-Botanist"),
    ("B", "straight"): N_("blue straight pipe"),
    ("B", "elbow"): N_("blue elbow"),
    ("B", "tee"): N_("blue tee"),
    ("B", "cross"): N_("blue cross"),
    ("B", "plant"): N_("blue plant"),
    ("B", "vegetable"): N_("blue vegetable"),
    ("B", "meca"): N_("blue Meca-Botanist"),
    ("K", "straight"): N_("black straight pipe"),
    ("K", "elbow"): N_("black elbow"),
    ("K", "tee"): N_("black tee"),
    ("K", "cross"): N_("black cross"),
    ("K", "plant"): N_("black plant"),
    ("K", "vegetable"): N_("black vegetable"),
    ("K", "meca"): N_("black Meca-Botanist"),
}
"""Each coloured tile in words, as a name ("red elbow")."""
TILE_OBJECTS = {
    ("R", "straight"): N_("the red straight pipe"),
    ("R", "elbow"): N_("the red elbow"),
    ("R", "tee"): N_("the red tee"),
    ("R", "cross"): N_("the red cross"),
    ("R", "plant"): N_("the red plant"),
    ("R", "vegetable"): N_("the red vegetable"),
    ("R", "meca"): N_("the red Meca-Botanist"),
    ("Y", "straight"): N_("the yellow straight pipe"),
    ("Y", "elbow"): N_("the yellow elbow"),
    ("Y", "tee"): N_("the yellow tee"),
    ("Y", "cross"): N_("the yellow cross"),
    ("Y", "plant"): N_("the yellow plant"),
    ("Y", "vegetable"): N_("the yellow vegetable"),
    ("Y", "meca"): N_("the yellow Meca-Botanist"),
    ("G", "straight"): N_("the green straight pipe"),
    ("G", "elbow"): N_("the green elbow"),
    ("G", "tee"): N_("the green tee"),
    ("G", "cross"): N_("the green cross"),
    ("G", "plant"): N_("the green plant"),
    ("G", "vegetable"): N_("the green vegetable"),
    ("G", "meca"): N_("the green Meca-Botanist"),
    ("B", "straight"): N_("the blue straight pipe"),
    ("B", "elbow"): N_("the blue elbow"),
    ("B", "tee"): N_("the blue tee"),
    ("B", "cross"): N_("the blue cross"),
    ("B", "plant"): N_("the blue plant"),
    ("B", "vegetable"): N_("the blue vegetable"),
    ("B", "meca"): N_("the blue Meca-Botanist"),
    ("K", "straight"): N_("the black straight pipe"),
    ("K", "elbow"): N_("the black elbow"),
    ("K", "tee"): N_("the black tee"),
    ("K", "cross"): N_("the black cross"),
    ("K", "plant"): N_("the black plant"),
    ("K", "vegetable"): N_("the black vegetable"),
    ("K", "meca"): N_("the black Meca-Botanist"),
}
"""Each coloured tile with its article, as a sentence's subject or object ("the red
elbow"): one whole text each, so that every language agrees its article and colour with the
kind."""


def _with_flowers(words: str, n: int) -> str:
    if not n:
        return words
    return _n("{tile} with a flower", "{tile} with {n} flowers", n, tile=words)


def tile_words(tile_id: str, names: Sequence[str] | None = None, *, flowers: bool = False) -> str:
    """A tile in the game's words, as a name: "red elbow", "blue Meca-Botanist", "Alice's
    Source"; with ``flowers``, its flowers too ("green tee with a flower")."""
    ts = tile_set()
    t = ts.index.get(tile_id)
    if t is None or ts.type[t] == SOURCE:
        return _("{player}'s Source", player=seat_name(int(tile_id[3:]), names))
    said = _(TILE_NAMES[(tile_id[0], TYPES[ts.type[t]])])
    return _with_flowers(said, ts.flowers[t]) if flowers else said


def the_tile(tile_id: str, names: Sequence[str] | None = None, *, flowers: bool = False) -> str:
    """A tile with its article, as a sentence names it: "the red elbow", "the green tee with a
    flower" (with ``flowers``)."""
    ts = tile_set()
    t = ts.index.get(tile_id)
    if t is None or ts.type[t] == SOURCE:
        return _("{player}'s Source", player=seat_name(int(tile_id[3:]), names))
    said = _(TILE_OBJECTS[(tile_id[0], TYPES[ts.type[t]])])
    return _with_flowers(said, ts.flowers[t]) if flowers else said


def exits_text(mask: int) -> list[str]:
    """Exit mask as direction letters, in N, E, S, W order."""
    return [DIRS[d] for d in range(4) if mask >> d & 1]


# The registry
COLUMNS = 5
ROUNDS = 20
TILES_PER_ROUND = 3

# Machine grid: each machine is a board of GRID, the Source at its centre; cell (r, c) of a
# machine (the Source at 0, 0) is GRID index (r + 64) * 128 + (c + 64). The action ids code cells
# on a narrower span of 121 (rules.md §2.7).
GRID_OFFSET = 64
GRID_WIDTH = 128
GRID = Grid(GRID_WIDTH, GRID_WIDTH)
"""The board every machine is drawn on; bit ``rc_cell(r, c)`` of a mask is machine cell r, c."""


def rc_cell(r: int, c: int) -> int:
    """Machine cell (row, column), the Source at 0, 0 -> its GRID index."""
    return GRID.index(r + GRID_OFFSET, c + GRID_OFFSET)


def cell_rc(x: int) -> tuple[int, int]:
    """GRID index -> machine cell (row, column), the Source at 0, 0."""
    r, c = GRID.cell(x)
    return r - GRID_OFFSET, c - GRID_OFFSET


SOURCE_CELL = rc_cell(0, 0)
STEP = tuple(rc_cell(dr, dc) - SOURCE_CELL for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)))
"""GRID index step toward N, E, S, W."""
MAX_REACH = 60
"""``|r| + |c|`` of any cell a tile can reach."""


# action id layout (rules.md §2.7)
ADD_BASE = 650
SWAP_BASE = 59214
NUM_ACTIONS = 59219
CELL_SPAN = 121  # cells -60..60 per axis in the action encoding

# phases of a round
DEAL, REVEAL, TAKE, ADD, SWAP, END = range(6)
PHASE_NAMES = ("deal", "reveal", "take", "add", "swap", "end")
STEP_NAMES = ("A", "B", "C")


def add_action(r: int, c: int, k: int) -> int:
    """The id of ``add ...@r,c/k``."""
    return ADD_BASE + 4 * ((r + 60) * CELL_SPAN + (c + 60)) + k


def add_parts(action: int) -> tuple[int, int, int]:
    """(row, column, rotation) of an ``add`` id."""
    code, k = divmod(action - ADD_BASE, 4)
    r, c = divmod(code, CELL_SPAN)
    return r - 60, c - 60, k


ADD_CELL: dict[int, int] = {
    (add_action(r, c, 0) - ADD_BASE) >> 2: rc_cell(r, c)
    for r in range(-MAX_REACH, MAX_REACH + 1)
    for c in range(-MAX_REACH, MAX_REACH + 1)
    if abs(r) + abs(c) <= MAX_REACH
}
"""The GRID cell of an ``add`` id: ``ADD_CELL[(id - ADD_BASE) >> 2]`` (its rotation is
``(id - ADD_BASE) & 3``), for every cell a tile can reach; built once from ``rc_cell`` for the
hot paths."""


def add_cell(action: int) -> tuple[int, int]:
    """(GRID cell, rotation) of an ``add`` id."""
    code, k = divmod(action - ADD_BASE, 4)
    return ADD_CELL[code], k
