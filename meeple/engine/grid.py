"""Grids as int bitboards, shared by every game: bits, cells, neighbours, regions, shapes.

Bit ``r * cols + c`` of a mask is cell ``(r, c)``. A :class:`Grid` precomputes its edge masks
once, so shifting a whole mask to its neighbours is four shifts and two ands, whatever its size.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

Cell = tuple[int, int]


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` as a list, lowest first (as ``iter_bits``,
    without a generator: compiled, a plain loop)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    """The index of the lowest set bit (``mask`` must not be 0)."""
    return (mask & -mask).bit_length() - 1


def mask_of_indices(indices: Iterable[int]) -> int:
    """The mask with exactly these bits set."""
    m = 0
    for i in indices:
        m |= 1 << i
    return m


class Grid:
    """A ``rows`` x ``cols`` board of bitboard cells, with its edge masks precomputed."""

    __slots__ = ("rows", "cols", "size", "full", "_not_first_col", "_not_last_col",
                 "_neighbours")

    def __init__(self, rows: int, cols: int):
        if rows < 1 or cols < 1:
            raise ValueError("a grid has at least one row and one column")
        self.rows = rows
        self.cols = cols
        self.size = rows * cols
        self.full = (1 << self.size) - 1
        first = last = 0
        for r in range(rows):
            first |= 1 << (r * cols)
            last |= 1 << (r * cols + cols - 1)
        self._not_first_col = self.full & ~first
        self._not_last_col = self.full & ~last
        self._neighbours = tuple(
            tuple(self.index(nr, nc) for nr, nc in self._cell_neighbours(*divmod(i, cols)))
            for i in range(self.size)
        )

    def __repr__(self) -> str:
        return f"Grid({self.rows}, {self.cols})"

    # -- cells and indices ----------------------------------------------------------------
    def index(self, r: int, c: int) -> int:
        return r * self.cols + c

    def cell(self, i: int) -> Cell:
        return divmod(i, self.cols)

    def bit(self, r: int, c: int) -> int:
        return 1 << (r * self.cols + c)

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols

    def mask_of(self, cells: Iterable[Cell]) -> int:
        m = 0
        for r, c in cells:
            m |= 1 << (r * self.cols + c)
        return m

    def cells_of(self, mask: int) -> list[Cell]:
        cols = self.cols
        return [divmod(i, cols) for i in iter_bits(mask)]

    def row_mask(self, r: int) -> int:
        return ((1 << self.cols) - 1) << (r * self.cols)

    def col_mask(self, c: int) -> int:
        m = 0
        for r in range(self.rows):
            m |= 1 << (r * self.cols + c)
        return m

    # -- neighbours -----------------------------------------------------------------------
    def _cell_neighbours(self, r: int, c: int) -> list[Cell]:
        return [(nr, nc) for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if self.inside(nr, nc)]

    def neighbour_indices(self, i: int) -> tuple[int, ...]:
        """The orthogonal neighbours of cell index ``i`` (up, down, left, right as present)."""
        return self._neighbours[i]

    def up(self, mask: int) -> int:
        return mask >> self.cols

    def down(self, mask: int) -> int:
        return (mask << self.cols) & self.full

    def left(self, mask: int) -> int:
        return (mask >> 1) & self._not_last_col

    def right(self, mask: int) -> int:
        return (mask << 1) & self._not_first_col

    def grow(self, mask: int) -> int:
        """``mask`` and every cell orthogonally next to it."""
        cols = self.cols
        return (mask | (mask >> cols) | ((mask << cols) & self.full)
                | ((mask >> 1) & self._not_last_col) | ((mask << 1) & self._not_first_col))

    def neighbours(self, mask: int) -> int:
        """The cells orthogonally next to ``mask``, not in it."""
        return self.grow(mask) & ~mask

    # -- regions --------------------------------------------------------------------------
    def flood(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected to ``seed`` (``seed`` cells outside ``within``
        are dropped first)."""
        region = seed & within
        while True:
            grown = self.grow(region) & within
            if grown == region:
                return region
            region = grown

    def components(self, mask: int) -> list[int]:
        """The edge-connected groups of ``mask``, each a mask, ordered by lowest cell."""
        out = []
        while mask:
            part = self.flood(mask & -mask, mask)
            out.append(part)
            mask &= ~part
        return out


# -- shapes ---------------------------------------------------------------------------------
def normalize(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Shift cells so the smallest row and column are 0; return them sorted."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def rotate_cw(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """One clockwise quarter turn (row r, col c -> row c, col -r), normalized."""
    return normalize((c, -r) for r, c in cells)


def mirror(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Left-right mirror image, normalized."""
    return normalize((r, -c) for r, c in cells)


def orientations(cells: Iterable[Cell], mirrored: bool = True) -> list[tuple[Cell, ...]]:
    """Distinct orientations of a polyomino: rotations (and mirror images), in a fixed order.

    Order: the shape as given, then each further clockwise quarter turn; then the mirror image
    and its turns. Duplicates (by symmetry) are dropped, keeping the first.
    """
    seen: list[tuple[Cell, ...]] = []
    base = normalize(cells)
    for start in ([base, mirror(base)] if mirrored else [base]):
        shape = start
        for _ in range(4):
            if shape not in seen:
                seen.append(shape)
            shape = rotate_cw(shape)
    return seen


def rotate_grid_cw(grid: Sequence[Sequence[int]]) -> list[list[int]]:
    """A rectangular grid of values turned a quarter clockwise: g'[i][j] = g[R-1-j][i]."""
    rows = len(grid)
    cols = len(grid[0])
    return [[grid[rows - 1 - j][i] for j in range(rows)] for i in range(cols)]
