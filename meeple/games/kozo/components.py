"""Kozo data: the 12 polycubes, their orientations, the base ring and the placement tables.

Everything here is data computed once at import; the rules read these flat tables.
Reconstructed items (rules.md section 8) are marked **[R]** in comments.
"""

from __future__ import annotations

from itertools import permutations, product

from meeple.engine.grid import Grid
from meeple.engine.i18n import N_, words
from meeple.engine.look import PALETTE, Colour

_, _n = words(__file__)

Cube = tuple[int, int, int]

# The shared set (piece_set "derived_v1"): every polycube of size 2-4 plus the V-pentacube.
# [R1] composition, [R2] which pentacube. Base cubes in a resting pose; points = cube count.
PIECES: tuple[tuple[str, tuple[Cube, ...]], ...] = (
    ("dicube", ((0, 0, 0), (1, 0, 0))),
    ("I-tricube", ((0, 0, 0), (1, 0, 0), (2, 0, 0))),
    ("L-tricube", ((0, 0, 0), (1, 0, 0), (0, 1, 0))),
    ("I-tetracube", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0))),
    ("O-tetracube", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0))),
    ("T-tetracube", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0))),
    ("L-tetracube", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0))),
    ("S-tetracube", ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0))),
    ("tripod", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1))),
    ("screw A", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1))),
    ("screw B", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1))),
    ("V-pentacube", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (0, 2, 0))),
)
PIECE_SETS = ("derived_v1",)
NUM_PIECES = len(PIECES)
SIZES: tuple[int, ...] = tuple(len(cubes) for _, cubes in PIECES)
LETTERS = "ABCDEFGHIJKL"
"""One letter per piece for the terminal's layer view: A = P1 ... L = P12."""
ALL_PIECES = (1 << NUM_PIECES) - 1
"""The mask of every piece (bit p = piece P(p + 1))."""
SIZE_VALUES = (2, 3, 4, 5)
"""The sizes of the pieces, and so the values of the scoring tiles."""

SEAT_COLOURS: tuple[Colour, ...] = PALETTE
"""The players' colours (``Kozo.colours``): the shared palette, as the pieces are shared and
belong to no player."""
PIECE_FILLS = (
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4",
    "#46f0f0", "#f032e6", "#bcf60c", "#fabebe", "#008080", "#9a6324",
)
"""The colour of each wooden piece in the pictures (index = piece number - 1): a piece's own
colour, not a player's."""
PIECE_RICH = (
    "red", "green", "yellow", "blue", "dark_orange", "purple",
    "cyan", "magenta", "bright_green", "pink1", "dark_cyan", "orange4",
)
"""The same piece colours as terminal (rich) colour names."""
PIECE_COLOUR_WORDS = (
    "red", "green", "yellow", "blue", "orange", "purple",
    "cyan", "magenta", "lime", "pink", "teal", "brown",
)
"""The same piece colours in words."""


PIECE_NAMES = (
    N_("dicube"), N_("I-tricube"), N_("L-tricube"), N_("I-tetracube"), N_("O-tetracube"),
    N_("T-tetracube"), N_("L-tetracube"), N_("S-tetracube"), N_("tripod"), N_("screw A"),
    N_("screw B"), N_("V-pentacube"),
)
"""The pieces' names as players read them (said in the language in use)."""
PIECE_OBJECTS = (
    # TRANSLATORS: a piece as the object of a verb ("places the red dicube", "Make them play
    # the red dicube"); use the case a direct object takes
    N_("the red dicube"), N_("the green I-tricube"), N_("the yellow L-tricube"),
    N_("the blue I-tetracube"), N_("the orange O-tetracube"), N_("the purple T-tetracube"),
    N_("the cyan L-tetracube"), N_("the magenta S-tetracube"), N_("the lime tripod"),
    N_("the pink screw A"), N_("the teal screw B"), N_("the brown V-pentacube"),
)
"""Each piece with its colour, as the object of a sentence."""


def piece_name(piece: int) -> str:
    """A piece's name in the game's words, with its letter: "L-tetracube (G)"."""
    return f"{_(PIECE_NAMES[piece - 1])} ({LETTERS[piece - 1]})"


def piece_object(piece: int) -> str:
    """A piece with its colour, kind and letter, as a sentence's object: "the red dicube
    (A)"."""
    return f"{_(PIECE_OBJECTS[piece - 1])} ({LETTERS[piece - 1]})"


BALANCE_EDGE = 0.57  # [R4] edge of a balance cube, in cube edges
BALANCE_INSET = (1.0 - BALANCE_EDGE) / 2  # 0.215: gap from the cell's sides
BALANCE_HUNDREDTHS = 57  # surfaces are kept in hundredths of a cube edge

# The base: a 3 x 3 square whose centre (1, 1) is the chimney.
BASE = Grid(3, 3)
"""The base as a grid: row y (south to north), column x, so column (x, y) is cell index
``BASE.index(y, x)`` (rules.md 2.4)."""
CHIMNEY = (1, 1)
RING: tuple[tuple[int, int], ...] = (
    (0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2),
)
"""Ring columns in ring order (encodings and listings)."""
RING_INDEX = {c: i for i, c in enumerate(RING)}
RING_COLUMNS = tuple(BASE.index(y, x) for x, y in RING)
"""Column indices (``BASE.index(y, x)``) of the ring, in ring order."""


Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]


def _rotations() -> list[Matrix]:
    """The 24 proper rotations as signed permutation matrices (rows), determinant +1."""
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = [[0, 0, 0] for _ in range(3)]
            for r in range(3):
                m[r][perm[r]] = signs[r]
            det = (
                m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
            )
            if det == 1:
                rows = [(row[0], row[1], row[2]) for row in m]
                out.append((rows[0], rows[1], rows[2]))
    return out


def orientations(cubes: tuple[Cube, ...]) -> list[tuple[Cube, ...]]:
    """Distinct orientations of a polycube, each normalised and sorted, in lexicographic order."""
    seen = set()
    for m in _rotations():
        rot = [
            tuple(sum(m[r][k] * c[k] for k in range(3)) for r in range(3)) for c in cubes
        ]
        mins = [min(c[k] for c in rot) for k in range(3)]
        seen.add(tuple(sorted((c[0] - mins[0], c[1] - mins[1], c[2] - mins[2]) for c in rot)))
    return sorted(seen)


ORIENTATIONS: tuple[tuple[tuple[Cube, ...], ...], ...] = tuple(
    tuple(orientations(cubes)) for _, cubes in PIECES
)
"""ORIENTATIONS[p][o]: the cubes of piece p (0-based) in orientation o."""

# Turn phases (rules.md 4.2), in the order of the observation tensor
DRAW, CHOOSE, PLACE, TREMOR, BALANCE, OVER = range(6)
PHASE_NAMES = ("draw", "choose", "place", "tremor", "balance", "over")
MAX_Z = 24
"""Layers of the tower kept in the observation tensor."""

TowerEntry = tuple[int, int, int, int, int, tuple[Cube, ...]]
"""A placed polycube: ``(piece index, orientation, dx, dy, z0, cells)``."""

# Action ids (rules.md 2.7)
PLACE_BASE = 0
BALANCE_BASE = 2592
SIZE_BASE = 2600
PIECE_BASE = 2604
NUM_ACTIONS = 2616


def place_id(piece: int, orient: int, dx: int, dy: int) -> int:
    """The id of ``Pp.o@dx,dy`` (piece 1-based as in the notation)."""
    return ((piece - 1) * 24 + orient) * 9 + BASE.index(dy, dx)


Placement = tuple[int, int, int, int, int, tuple[Cube, ...], tuple[tuple[int, int, int], ...]]
"""``(action id, piece index, orientation, dx, dy, cubes, columns)`` (see :func:`_placements`)."""


def _placements() -> tuple[tuple[tuple[Placement, ...], ...], dict[int, Placement]]:
    """Every in-footprint placement (conditions C2 and C3) of every piece, by piece.

    An entry is ``(action id, piece index, orientation, dx, dy, cubes, columns)`` where
    ``columns`` is a tuple of ``(column index, lowest z, highest z)`` of the piece per column.
    """
    ring = set(RING)
    by_piece: list[tuple[Placement, ...]] = []
    table: dict[int, Placement] = {}
    for p, orients in enumerate(ORIENTATIONS):
        entries: list[Placement] = []
        for o, cubes in enumerate(orients):
            for dy in range(3):
                for dx in range(3):
                    placed = tuple((x + dx, y + dy, z) for x, y, z in cubes)
                    if any((x, y) not in ring for x, y, _ in placed):
                        continue
                    cols: dict[int, list[int]] = {}
                    for x, y, z in placed:
                        lo_hi = cols.setdefault(BASE.index(y, x), [z, z])
                        lo_hi[0] = min(lo_hi[0], z)
                        lo_hi[1] = max(lo_hi[1], z)
                    entry = (
                        place_id(p + 1, o, dx, dy), p, o, dx, dy, placed,
                        tuple((c, lo, hi) for c, (lo, hi) in sorted(cols.items())),
                    )
                    entries.append(entry)
                    table[entry[0]] = entry
        by_piece.append(tuple(entries))
    return tuple(by_piece), table


PLACEMENTS_BY_PIECE, PLACEMENTS = _placements()
"""In-footprint placements per piece, and by action id."""
