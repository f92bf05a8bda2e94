"""Mops Royal data: the 36 tiles, the six crown tiles and the 17 combination shapes, and the
tables built from them once: the 9 × 9 window a layout lives in, every placement of every shape
in it, the action ids and the phases.

The first three are replaceable data (``TILES``, ``CROWNS``, ``SHAPES``): they were read from
scans of the real tiles and board, secondhand, so a physical copy may one day correct them.

Cell ``(x, y)`` of a layout, with −4 ≤ x, y ≤ 4 and the start tile at ``(0, 0)``, is index
``(y + 4) · 9 + (x + 4)`` of the window ``GRID``.
"""

from __future__ import annotations

from meeple.engine.grid import Grid, bits, mask_of_indices, rotate_grid_cw
from meeple.engine.i18n import N_, words
from meeple.engine.look import PALETTE, Colour

_, _n = words(__file__)

COLOURS: tuple[str, ...] = ("blue", "green", "orange", "pink", "purple", "yellow")
"""Colour names in index order."""
OBJECTS: tuple[str, ...] = ("pillow", "bone", "bowl", "can", "poop", "pug")
"""Object names in index order."""
COLOUR_LETTERS: tuple[str, ...] = ("B", "G", "O", "K", "U", "Y")
"""Short-code colour letters (pinK, pUrple)."""
COLOUR_WORDS: tuple[str, ...] = (N_("blue"), N_("green"), N_("orange"), N_("pink"), N_("purple"),
                                 N_("yellow"))
"""Colour names in index order as a person reads them (said with ``_``), for a key."""
OBJECT_WORDS: tuple[str, ...] = (N_("pillow"), N_("bone"), N_("bowl"), N_("can"), N_("poop"),
                                 N_("pug"))
"""Object names in index order as a person reads them (said with ``_``), for a key."""
OBJECT_LETTERS: tuple[str, ...] = ("l", "b", "w", "c", "p", "m")
"""Short-code object letters (pilLow, Bone, boWl, Can, Poop, pug = Mops)."""

NUM_TILES = 36
TILES: tuple[str, ...] = tuple(f"{c}-{o}" for c in COLOURS for o in OBJECTS)
"""Tile ids ``<colour>-<object>``; the index is ``6 × colour + object``."""
CODES: tuple[str, ...] = tuple(c + o for c in COLOUR_LETTERS for o in OBJECT_LETTERS)
"""Two-letter short codes, e.g. ``Bl`` for blue-pillow."""
TILE_INDEX: dict[str, int] = {t: i for i, t in enumerate(TILES)}
TILE_NAMES: tuple[str, ...] = (
    N_("blue pillow"), N_("blue bone"), N_("blue bowl"),
    N_("blue can"), N_("blue poop"), N_("blue pug"),
    N_("green pillow"), N_("green bone"), N_("green bowl"),
    N_("green can"), N_("green poop"), N_("green pug"),
    N_("orange pillow"), N_("orange bone"), N_("orange bowl"),
    N_("orange can"), N_("orange poop"), N_("orange pug"),
    N_("pink pillow"), N_("pink bone"), N_("pink bowl"),
    N_("pink can"), N_("pink poop"), N_("pink pug"),
    N_("purple pillow"), N_("purple bone"), N_("purple bowl"),
    N_("purple can"), N_("purple poop"), N_("purple pug"),
    N_("yellow pillow"), N_("yellow bone"), N_("yellow bowl"),
    N_("yellow can"), N_("yellow poop"), N_("yellow pug"),
)
"""Each tile in words, in index order ("blue pillow"): a caption, a tooltip."""
# TRANSLATORS: a tile inside a sentence, as its object: "places the blue bone"
THE_TILES: tuple[str, ...] = (
    N_("the blue pillow with a crown"), N_("the blue bone"), N_("the blue bowl"),
    N_("the blue can"), N_("the blue poop"), N_("the blue pug"),
    N_("the green pillow"), N_("the green bone"), N_("the green bowl"),
    N_("the green can"), N_("the green poop"), N_("the green pug with a crown"),
    N_("the orange pillow"), N_("the orange bone"), N_("the orange bowl with a crown"),
    N_("the orange can"), N_("the orange poop"), N_("the orange pug"),
    N_("the pink pillow"), N_("the pink bone"), N_("the pink bowl"),
    N_("the pink can with a crown"), N_("the pink poop"), N_("the pink pug"),
    N_("the purple pillow"), N_("the purple bone with a crown"), N_("the purple bowl"),
    N_("the purple can"), N_("the purple poop"), N_("the purple pug"),
    N_("the yellow pillow"), N_("the yellow bone"), N_("the yellow bowl"),
    N_("the yellow can"), N_("the yellow poop with a crown"), N_("the yellow pug"),
)
"""Each tile with its article and crown, in index order, said inside a sentence ("places
the blue bone", "the pink can with a crown")."""


def tile_words(tile: str) -> str:
    """A tile (its id ``blue-pillow``) in words, in the language in use: "blue pillow"."""
    return _(TILE_NAMES[TILE_INDEX[tile]])


def the_tile_words(tile: int) -> str:
    """A tile (its index) with its article and crown, in the language in use, for inside a
    sentence: "the blue bone", "the pink pug with a crown"."""
    return _(THE_TILES[tile])


CODE_INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}

CROWNS: frozenset[int] = frozenset(
    TILE_INDEX[t]
    for t in (
        "blue-pillow",
        "green-pug",
        "orange-bowl",
        "pink-can",
        "purple-bone",
        "yellow-poop",
    )
)
"""The six tiles with the bonus crown: one per colour and one per object."""

START_CANDIDATES: tuple[int, ...] = tuple(i for i in range(NUM_TILES) if i not in CROWNS)
"""The 30 tiles without a crown: only these can be start tiles."""

SEAT_COLOURS: tuple[Colour, ...] = PALETTE
"""The players' colours, also the back colours of their tile sets: the rules only ask for four
distinct backs [R6], so they are the shared seat colours, each with its symbol."""

BASE_POINTS: dict[int, int] = {3: 2, 4: 4, 5: 7}
"""Points of a combination by its size; +1 if it holds a crown tile."""


def colour_of(tile: int) -> int:
    """Colour index of a tile."""
    return tile // 6


def object_of(tile: int) -> int:
    """Object index of a tile."""
    return tile % 6


# The combination chart: id, name, then the shape drawn as rows ('X' marked, 'o' member).
SHAPES: tuple[tuple[str, str, str], ...] = (
    ("I3", N_("short line"), "oXo"),
    ("V3", N_("small corner"), "oX/.o"),
    ("D3", N_("short diagonal"), "o../.X./..o"),
    ("I4", N_("line of four"), "oXXo"),
    ("L4", N_("L of four"), "Xo/X./o."),
    ("D4", N_("diagonal of four"), "...o/..X./.X../o..."),
    ("S4", N_("skew of four"), ".Xo/oX."),
    ("T4", N_("T of four"), "oXo/.o."),
    ("I5", N_("line of five"), "ooXoo"),
    ("D5", N_("long diagonal"), "....o/...o./..X../.o.../o...."),
    ("V5", N_("big corner"), "Xoo/o../o.."),
    ("L5", N_("L of five"), "oo/X./o./o."),
    ("N5", N_("N of five"), ".o/Xo/o./o."),
    ("F5", N_("F of five"), "..o/oXo/.o."),
    ("U5", N_("U of five"), "oo/.X/oo"),
    ("X5", N_("plus"), ".o./oXo/.o."),
    ("Y5", N_("Y of five"), ".o../oXoo"),
)
"""The 17 shapes of the combination chart, each in one orientation."""

SHAPE_IDS: tuple[str, ...] = tuple(s[0] for s in SHAPES)
SHAPE_NAMES: dict[str, str] = {s[0]: s[1] for s in SHAPES}

Cell = tuple[int, int]


def parse_diagram(rows: str) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    """Cells and marked cells ``(x, y)`` of a diagram written row by row, rows split by '/'."""
    cells: list[Cell] = []
    marks: list[Cell] = []
    for y, row in enumerate(rows.split("/")):
        for x, ch in enumerate(row):
            if ch in "oX":
                cells.append((x, y))
            if ch == "X":
                marks.append((x, y))
    return tuple(sorted(cells)), tuple(sorted(marks))


def _diagram_grid(rows: str) -> list[list[int]]:
    """A diagram as a rectangle of values: 0 outside the shape, 1 a member, 2 a marked cell."""
    lines = rows.split("/")
    width = max(len(line) for line in lines)
    return [[{"o": 1, "X": 2}.get(ch, 0) for ch in line.ljust(width, ".")] for line in lines]


def _grid_cells(values: list[list[int]]) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    """Cells and marked cells ``(x, y)`` of a value rectangle, each sorted."""
    cells = sorted((x, y) for y, row in enumerate(values) for x, v in enumerate(row) if v)
    marks = sorted((x, y) for y, row in enumerate(values) for x, v in enumerate(row) if v == 2)
    return tuple(cells), tuple(marks)


def orientations(rows: str) -> list[tuple[tuple[Cell, ...], tuple[Cell, ...]]]:
    """Every distinct orientation ``(cells, marks)`` of a shape, duplicates removed.

    The order is the chart's: the shape as drawn and its three clockwise quarter turns, then
    its mirror image, the mirror turned twice, three times and once (the action ids depend
    on it)."""
    turns = [_diagram_grid(rows)]
    for _ in range(3):
        turns.append(rotate_grid_cw(turns[-1]))
    mirrored = [[row[::-1] for row in turns[0]]]
    for _ in range(3):
        mirrored.append(rotate_grid_cw(mirrored[-1]))
    seen: dict[tuple[Cell, ...], tuple[Cell, ...]] = {}
    for values in (*turns, mirrored[0], mirrored[2], mirrored[3], mirrored[1]):
        key, mk = _grid_cells(values)
        if key in seen:
            if seen[key] != mk:  # the chart guarantees symmetric shapes keep their marks
                raise ValueError(f"shape {rows!r}: one cell set with two mark sets")
            continue
        seen[key] = mk
    return list(seen.items())


# ---------------------------------------------------------------------------- the window
W = 9
"""Width and height of the window a layout lives in."""
GRID = Grid(W, W)
"""The window as a grid: bit ``row · 9 + col`` with row = y + 4, col = x + 4."""
NCELLS = GRID.size
SIDE = 5
"""A layout never grows beyond 5 × 5."""


def cell_index(x: int, y: int) -> int:
    """Window index of layout cell ``(x, y)`` (start tile at ``(0, 0)``)."""
    return GRID.index(y + 4, x + 4)


def cell_xy(i: int) -> tuple[int, int]:
    """Layout coordinates ``(x, y)`` of window index ``i``."""
    r, c = GRID.cell(i)
    return c - 4, r - 4


CENTRE = cell_index(0, 0)
COL_RANGE = [[sum(GRID.col_mask(c) for c in range(lo, hi + 1)) for hi in range(W)]
             for lo in range(W)]
"""``COL_RANGE[lo][hi]``: the mask of window columns lo..hi."""
ROW_RANGE = [[sum(GRID.row_mask(r) for r in range(lo, hi + 1)) for hi in range(W)]
             for lo in range(W)]
"""``ROW_RANGE[lo][hi]``: the mask of window rows lo..hi."""
CELL_ROW = [GRID.cell(i)[0] for i in range(NCELLS)]
CELL_COL = [GRID.cell(i)[1] for i in range(NCELLS)]

_STOCK_CHUNKS = tuple(
    tuple([12 * k + i for i in bits(m)] for m in range(1 << 12)) for k in range(3)
)
"""The tile indices of every 12-bit part of a 36-bit stock mask, for :func:`tiles_of`."""


def tiles_of(stock: int) -> list[int]:
    """Tile indices in a 36-bit stock mask, lowest first (three table look-ups)."""
    low, mid, high = _STOCK_CHUNKS
    return low[stock & 4095] + mid[(stock >> 12) & 4095] + high[stock >> 24]


# ---------------------------------------------------------------------------- placements
SHAPE_INDEX = {s: i for i, s in enumerate(SHAPE_IDS)}
PL_MASK: list[int] = []
"""Cell mask of every translated orientation of every shape inside the window."""
PL_SHAPE: list[int] = []
PL_CELLS: list[tuple[int, ...]] = []
PL_MARKS: list[tuple[int, ...]] = []
PL_POINTS: list[int] = []
MASK_TO_PL: dict[int, int] = {}
ORIENTATIONS: dict[str, list[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]]] = {}
for _si, (_sid, _name, _rows) in enumerate(SHAPES):
    ORIENTATIONS[_sid] = orientations(_rows)
    for _cells, _marks in ORIENTATIONS[_sid]:
        _w = max(x for x, _ in _cells) + 1
        _h = max(y for _, y in _cells) + 1
        for _oy in range(W - _h + 1):
            for _ox in range(W - _w + 1):
                _idx = tuple(sorted(GRID.index(y + _oy, x + _ox) for x, y in _cells))
                _m = mask_of_indices(_idx)
                MASK_TO_PL[_m] = len(PL_MASK)
                PL_MASK.append(_m)
                PL_SHAPE.append(_si)
                PL_CELLS.append(_idx)
                PL_MARKS.append(tuple(sorted(GRID.index(y + _oy, x + _ox) for x, y in _marks)))
                PL_POINTS.append(BASE_POINTS[len(_cells)])
NUM_PLACEMENTS = len(PL_MASK)

# ---------------------------------------------------------------------------- action ids
PLACE = 0
"""``PLACE + cell``: put the revealed tile face up on ``cell``."""
REJECT = NCELLS
"""``REJECT + cell``: stack the revealed tile face down on face-down ``cell`` (variant)."""
NOSCORE = 2 * NCELLS
"""Decline scoring this round."""
PASS = NOSCORE + 1
"""End-scoring turn without a combination."""
SCORE = PASS + 1
"""``SCORE + k``: the k-th (placement, flip) pair of ``SCORE_ACTIONS``."""
SCORE_ACTIONS: list[tuple[int, int]] = []
PL_SCORE_IDS: list[tuple[int, ...]] = []
for _k in range(NUM_PLACEMENTS):
    _ids = []
    for _f in PL_MARKS[_k]:
        _ids.append(SCORE + len(SCORE_ACTIONS))
        SCORE_ACTIONS.append((_k, _f))
    PL_SCORE_IDS.append(tuple(_ids))
NUM_ACTIONS = SCORE + len(SCORE_ACTIONS)

TILE_COLOUR = [t // 6 for t in range(NUM_TILES)]
TILE_OBJECT = [t % 6 for t in range(NUM_TILES)]
IS_CROWN = [t in CROWNS for t in range(NUM_TILES)]
START_MASK = sum(1 << t for t in START_CANDIDATES)
ALL_TILES = (1 << NUM_TILES) - 1

# phases
SETUP_START, SETUP_CALLER, REVEAL, ROUND, END_SCORING, OVER = range(6)
PHASE_NAMES = ("setup", "setup", "reveal", "round", "end_scoring", "over")
# statuses in a round
ACTIVE, SITOUT, FULL = 0, 1, 2
STATUS_NAMES = ("active", "sitout", "full")
# steps of a player in a round
STEP_PLACE, STEP_SCORE, STEP_DONE = 0, 1, 2
STEP_NAMES = ("place", "score", "done")
