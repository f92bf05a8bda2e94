"""Shared geometry: polyomino orientations, grid neighbours, bitboards, connected components."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

Cell = tuple[int, int]


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
    starts = [base, mirror(base)] if mirrored else [base]
    for start in starts:
        shape = start
        for _ in range(4):
            if shape not in seen:
                seen.append(shape)
            shape = rotate_cw(shape)
    return seen


def rotate_grid_cw(grid: Sequence[Sequence[int]]) -> list[list[int]]:
    """A square or rectangular grid turned a quarter clockwise: g'[i][j] = g[R-1-j][i]."""
    rows = len(grid)
    cols = len(grid[0])
    return [[grid[rows - 1 - j][i] for j in range(rows)] for i in range(cols)]


def neighbours(r: int, c: int, rows: int, cols: int) -> list[Cell]:
    """Orthogonal neighbours of (r, c) inside a rows × cols grid."""
    out = []
    if r > 0:
        out.append((r - 1, c))
    if r + 1 < rows:
        out.append((r + 1, c))
    if c > 0:
        out.append((r, c - 1))
    if c + 1 < cols:
        out.append((r, c + 1))
    return out


def bit(r: int, c: int, cols: int) -> int:
    """The bitboard bit of cell (r, c) on a grid ``cols`` wide."""
    return 1 << (r * cols + c)


def mask_of(cells: Iterable[Cell], cols: int) -> int:
    """The bitboard of a set of cells."""
    m = 0
    for r, c in cells:
        m |= 1 << (r * cols + c)
    return m


def cells_of(mask: int, cols: int) -> list[Cell]:
    """The cells of a bitboard, in index order."""
    out = []
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        out.append(divmod(i, cols))
        mask ^= low
    return out


def dilate(mask: int, rows: int, cols: int) -> int:
    """Cells orthogonally adjacent to ``mask`` (not including it) on a rows × cols bitboard."""
    full = (1 << (rows * cols)) - 1
    left_edge = 0
    right_edge = 0
    for r in range(rows):
        left_edge |= 1 << (r * cols)
        right_edge |= 1 << (r * cols + cols - 1)
    grown = (mask << cols) | (mask >> cols)
    grown |= (mask << 1) & ~left_edge
    grown |= (mask >> 1) & ~right_edge
    return grown & full & ~mask


def components(n: int, linked: Callable[[int, int], bool]) -> list[list[int]]:
    """Connected components of items 0..n-1 under a symmetric ``linked(i, j)`` relation."""
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if linked(i, j):
                a, b = find(i), find(j)
                if a != b:
                    parent[b] = a
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def cell_components(cells: Iterable[Cell]) -> list[list[Cell]]:
    """Edge-connected components of a set of cells."""
    todo = set(cells)
    out = []
    while todo:
        start = todo.pop()
        comp = [start]
        stack = [start]
        while stack:
            r, c = stack.pop()
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in todo:
                    todo.remove(nb)
                    comp.append(nb)
                    stack.append(nb)
        out.append(sorted(comp))
    return out
