"""KoPlus components: board sections, NET tile shapes, stacks, bonus allowances (data only).

Reconstructed items (not confirmed by a source) are marked ``[Rn]`` as in the rules page.
"""

from __future__ import annotations

from meeple.engine.grid import Cell, orientations
from meeple.engine.look import PALETTE, Colour

SECTION_SIZE = 4
"""Every board section is 4 × 4 cells [R2]."""

# [R1] The printed alien layouts are unknown. ``placeholder_v1``: 16 sections, each with six
# aliens worth {1, 1, 2, 3, 4, 5}, no 4 or 5 orthogonally next to another 4 or 5 (generated
# with seed 20171001). Rows top to bottom; "." = no alien, a digit = the alien's value.
SECTION_SETS: dict[str, dict[str, tuple[str, str, str, str]]] = {
    "placeholder_v1": {
        "S01": ("2.4.", "..15", "..3.", "...1"),
        "S02": ("...4", ".35.", "..1.", "2..1"),
        "S03": (".2..", "1...", "4.51", "...3"),
        "S04": ("...2", "4.3.", "1..1", ".5.."),
        "S05": (".1.2", "..3.", "15..", "...4"),
        "S06": ("1...", ".1..", "5.4.", "2..3"),
        "S07": (".4..", "5...", ".213", "1..."),
        "S08": ("1.2.", ".5.1", "3...", "..4."),
        "S09": ("214.", "3...", "5.1.", "...."),
        "S10": ("4..3", "1...", ".12.", "...5"),
        "S11": ("...4", "5...", ".1.1", ".3.2"),
        "S12": ("41..", "....", "...1", "523."),
        "S13": ("143.", "....", "2..1", "...5"),
        "S14": ("5...", "2...", "341.", "..1."),
        "S15": ("..1.", "4...", "2...", "135."),
        "S16": ("23..", ".1..", "..5.", "1..4"),
    },
}

# Board shape in sections (rows, cols) per player count [R3 for 2 and 3 players].
BOARD_SECTIONS: dict[int, tuple[int, int]] = {2: (3, 3), 3: (3, 4), 4: (4, 4)}

# First-tile (inner) area per player count as (first row, last row, first col, last col),
# inclusive: the sections not on the border of the section grid [R5 for 2 and 3 players].
INNER_AREA: dict[int, tuple[int, int, int, int]] = {
    2: (4, 7, 4, 7),
    3: (4, 7, 4, 11),
    4: (4, 11, 4, 11),
}

X_CELLS: tuple[Cell, ...] = ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1))
"""The plus-shaped X: ``.#.`` / ``###`` / ``.#.`` (one orientation)."""
U_CELLS: tuple[Cell, ...] = ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2))
"""The U (コ) opening up, ``#.#`` / ``###``: the orientation U0."""

# NET shapes: name -> covered cells as (dr, dc) offsets from the anchor (the top-left corner of
# the bounding box), row-major. U1..U3 are U0 turned 1..3 quarter turns clockwise. Both shapes
# are mirror symmetric, so flipping a tile changes nothing.
SHAPES: dict[str, tuple[Cell, ...]] = {
    "X": X_CELLS,
    **{f"U{k}": cells for k, cells in enumerate(orientations(U_CELLS, mirrored=False))},
}
SHAPE_NAMES: tuple[str, ...] = ("X", "U0", "U1", "U2", "U3")
"""Orientation index k (0 = X, 1..4 = U0..U3): the block of action ids k·R·C ... ."""

# The cell a player points at to choose a placement: X its middle cell, U the middle cell of
# its base (the side opposite the opening).
SHAPE_TARGET: dict[str, tuple[int, int]] = {
    "X": (1, 1),
    "U0": (1, 1),
    "U1": (1, 0),
    "U2": (0, 1),
    "U3": (1, 1),
}

TILES_PER_PLAYER = 12
"""Each player has 12 tiles, 6 X and 6 U, at every player count [R6]."""

# Fixed stack order, top first: seats 0 and 2 start with U, seats 1 and 3 with X.
STACKS: tuple[str, str] = ("UX" * 6, "XU" * 6)

TOP_SHAPE: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 if shape == "U" else 0 for shape in stack) + (-1,) for stack in STACKS
)
"""``[seat % 2][tiles placed]``: the top tile's shape, 0 = X, 1 = U, -1 = empty stack."""

# Bonus turns each seat may take in the whole game, per player count.
BONUS_ALLOWANCES: dict[int, tuple[int, ...]] = {
    2: (2, 3),
    3: (1, 2, 2),
    4: (1, 1, 2, 2),
}

BONUS_THRESHOLDS: frozenset[int] = frozenset((20, 40, 60))
CATCH_LIMIT = 9
"""The alien sum under one tile may be at most 9."""

LARGEST_GROUP_BONUS = 5
ISOLATED_PENALTY = -5
NON_MAXIMAL_PENALTY = -3

SEAT_COLOURS: tuple[Colour, ...] = PALETTE
"""The players' colours (``KoPlus.colours``): each player's 12 tiles are of one colour and the
rules name none, so they are the shared seat colours, each with its symbol."""
