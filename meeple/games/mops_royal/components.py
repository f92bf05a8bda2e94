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
from meeple.engine.look import PALETTE, Colour

COLOURS: tuple[str, ...] = ("blue", "green", "orange", "pink", "purple", "yellow")
"""Colour names in index order."""
OBJECTS: tuple[str, ...] = ("pillow", "bone", "bowl", "can", "poop", "pug")
"""Object names in index order."""
COLOUR_LETTERS: tuple[str, ...] = ("B", "G", "O", "K", "U", "Y")
"""Short-code colour letters (pinK, pUrple)."""
OBJECT_LETTERS: tuple[str, ...] = ("l", "b", "w", "c", "p", "m")
"""Short-code object letters (pilLow, Bone, boWl, Can, Poop, pug = Mops)."""

NUM_TILES = 36
TILES: tuple[str, ...] = tuple(f"{c}-{o}" for c in COLOURS for o in OBJECTS)
"""Tile ids ``<colour>-<object>``; the index is ``6 × colour + object``."""
CODES: tuple[str, ...] = tuple(c + o for c in COLOUR_LETTERS for o in OBJECT_LETTERS)
"""Two-letter short codes, e.g. ``Bl`` for blue-pillow."""
TILE_INDEX: dict[str, int] = {t: i for i, t in enumerate(TILES)}


def tile_words(tile: str) -> str:
    """A tile (its id ``blue-pillow``) in words: "blue pillow"."""
    return tile.replace("-", " ")


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
    ("I3", "short line", "oXo"),
    ("V3", "small corner", "oX/.o"),
    ("D3", "short diagonal", "o../.X./..o"),
    ("I4", "line of four", "oXXo"),
    ("L4", "L of four", "Xo/X./o."),
    ("D4", "diagonal of four", "...o/..X./.X../o..."),
    ("S4", "skew of four", ".Xo/oX."),
    ("T4", "T of four", "oXo/.o."),
    ("I5", "line of five", "ooXoo"),
    ("D5", "long diagonal", "....o/...o./..X../.o.../o...."),
    ("V5", "big corner", "Xoo/o../o.."),
    ("L5", "L of five", "oo/X./o./o."),
    ("N5", "N of five", ".o/Xo/o./o."),
    ("F5", "F of five", "..o/oXo/.o."),
    ("U5", "U of five", "oo/.X/oo"),
    ("X5", "plus", ".o./oXo/.o."),
    ("Y5", "Y of five", ".o../oXoo"),
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
