"""Kozo stability referees and the motion the 3D view animates.

Two referees decide whether a tower stands (rules.md 2.6):

- :func:`static_stands`: exact static equilibrium of rigid blocks under gravity (rules.md 2.6.1
  and its reading). Every horizontal contact face, shrunk by a margin, carries at its corners
  forces in the linearised Coulomb cone (friction 0.5, MuJoCo's); every vertical face where two
  polycubes touch side by side carries a normal push (no friction). The tower stands iff
  forces exist that hold every body in full 3-D equilibrium (forces along three axes, moments
  about three axes through its centre of mass). A linear feasibility problem solved with
  scipy's HiGHS: deterministic and platform-independent.
- :func:`mujoco_verdict`: a MuJoCo simulation of the tower for ``sim_seconds`` with fixed
  settings; fallen if any body moved more than ``fall_distance`` cube edges or turned more than
  ``fall_tilt_deg`` degrees.

A tower is given as ``pieces``: a list of ``(cubes, ox, oy)`` (integer cells of a polycube and
its horizontal tremor offset, in cube edges) and ``balances``: a list of ``(x, y, h)`` (a
balance cube centred on column ``(x, y)``, its bottom at height ``h``). Bodies are numbered
polycubes first, then balance cubes, in that order.

:func:`motion` returns the poses of every body over a simulated run as small JSON::

    {"dt": 0.05, "unit": "cube edge",
     "bodies": [{"piece": "P7", "kind": "polycube", "cells": [[x, y, z], ...],
                 "frames": [[x, y, z, qw, qx, qy, qz], ...]},
                {"piece": "B@2,1", "kind": "balance", "frames": [...]}],
     "moved": [indices of bodies that fell], "fallen": bool}

Positions are the body's origin in cube edges: for a polycube the mean of its cube centres
(``x + 0.5, y + 0.5, z + 0.5``) plus its tremor offset, for a balance cube its centre. The
quaternion turns the body from its start pose; frame ``k`` is at time ``k * dt``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TypedDict

import numpy as np
from scipy.optimize import linprog

from .components import BALANCE_EDGE, BALANCE_INSET, RING

Piece = tuple[Sequence[tuple[int, int, int]], float, float]
Balance = tuple[int, int, int]
Body = tuple[float, float, float, float]
"""A polycube's mass and centre of mass ``(mass, cx, cy, cz)``."""
Rect = tuple[float, float, float, float]
"""A horizontal rectangle ``(x0, x1, y0, y1)``."""
Load = tuple[int, int, Rect | None]
"""A balance cube, the body it rests on (-1: none) and their contact rectangle."""
Faces = dict[tuple[int, int, int], list[tuple[float, float]]]
"""Per ``(upper, lower, height)``: the corners of their contact faces' convex hull."""
System = tuple[Sequence[int] | np.ndarray, Sequence[int] | np.ndarray,
               Sequence[float] | np.ndarray]
"""A matrix in compressed-column form ``(start, index, value)``."""

U = 0.025
"""Unit cube edge in metres **[R8]**."""
BALANCE_MASS = BALANCE_EDGE**3


class MujocoSettings(TypedDict):
    """The fixed settings of every MuJoCo run (rules.md 2.6.2)."""

    timestep: float
    density: int
    friction: str
    solref: str
    solimp: str


MUJOCO_SETTINGS: MujocoSettings = {
    "timestep": 0.002,
    "density": 700,
    "friction": "0.5 0.005 0.0001",
    "solref": "0.004 1",
    "solimp": "0.95 0.99 0.001",
}
_EPS = 1e-9
FALLEN_FOR_SURE = (1.0, 45.0)
"""A body moved more than 1 cube edge or turned more than 45 degrees: a verdict run stops, as
the tower has fallen (a toppled wooden block does not come back to its start pose)."""
STATIC_MARGIN = 0.01
"""The static referee's contact shrink in cube edges (rules.md 2.6.1, option ``static_margin``):
a centre of mass exactly over a support edge, an unstable equilibrium, falls."""
STATIC_FRICTION = 0.5
"""Friction coefficient of the static referee's horizontal faces: MuJoCo's sliding friction of
rules.md 2.6.2 (``friction="0.5 ..."``)."""
SLEEP_CHECK_STEPS = 1
"""Steps between checks whether every body sleeps (then the run stops: nothing can move)."""


# ----------------------------------------------------------------------------- static referee
def _rect_contact(a, b, margin):
    """The overlap of two rectangles ``(x0, x1, y0, y1)`` shrunk by ``margin``, or ``None``.

    Two squares that only meet along an edge or at a corner overlap in nothing (a knife edge
    carries no force); grown (``margin < 0``) they overlap in a thin strip.
    """
    x0 = max(a[0], b[0]) + margin
    x1 = min(a[1], b[1]) - margin
    y0 = max(a[2], b[2]) + margin
    y1 = min(a[3], b[3]) - margin
    if x1 - x0 <= _EPS or y1 - y0 <= _EPS:
        return None
    return x0, x1, y0, y1


_BASE_TOPS = {(x, y): (float(x), x + 1.0, float(y), y + 1.0) for x, y in RING}


def _contacts(pieces: Sequence[Piece], balances: Sequence[Balance], margin: float):
    """Polycube bodies ``(mass, cx, cy, cz)``, horizontal contacts ``(upper, lower or -1, rect,
    height)`` between them and with the base, and balance-cube loads ``(balance, supporting
    body or -1, rect)``.

    A balance cube rests centred on one cube of one polycube (rules.md 2.3), so it is always in
    equilibrium on its own; it enters the equations as a known load on the body below it.
    """
    bodies = []
    occupied: dict[tuple[int, int, int], int] = {}
    any_shift = False
    for i, (cubes, ox, oy) in enumerate(pieces):
        n = len(cubes)
        cx = sum(c[0] for c in cubes) / n + 0.5 + ox
        cy = sum(c[1] for c in cubes) / n + 0.5 + oy
        cz = sum(c[2] for c in cubes) / n + 0.5
        bodies.append((float(n), cx, cy, cz))
        if ox != 0.0 or oy != 0.0:
            any_shift = True
        for c in cubes:
            occupied[(c[0], c[1], c[2])] = i
    contacts = []
    for i, (cubes, ox, oy) in enumerate(pieces):
        for x, y, z in cubes:
            me = (x + ox, x + 1 + ox, y + oy, y + 1 + oy)
            if z == 0:
                if not any_shift:
                    if margin != 0.0:  # shrunk (or, to measure, grown)
                        r = _rect_contact(me, me, margin)
                        if r:
                            contacts.append((i, -1, r, 0))
                    else:
                        contacts.append((i, -1, me, 0))
                    continue
                for (bx, by), rect in _BASE_TOPS.items():
                    if abs(bx - x) <= 1 and abs(by - y) <= 1:
                        r = _rect_contact(me, rect, margin)
                        if r:
                            contacts.append((i, -1, r, 0))
                continue
            if not any_shift and margin >= 0.0:  # only the cell below can touch
                below = occupied.get((x, y, z - 1), i)
                if below != i:
                    r = _rect_contact(me, me, margin) if margin else me
                    if r:
                        contacts.append((i, below, r, z))
                continue
            for nx in (x - 1, x, x + 1):  # shifted, or grown to measure: the 3 x 3 cells below
                for ny in (y - 1, y, y + 1):
                    j = occupied.get((nx, ny, z - 1))
                    if j is None or j == i:
                        continue
                    _, jx, jy = pieces[j]
                    other = (nx + jx, nx + 1 + jx, ny + jy, ny + 1 + jy)
                    r = _rect_contact(me, other, margin)
                    if r:
                        contacts.append((i, j, r, z))
    loads = []
    for k, (x, y, h) in enumerate(balances):
        me = (x + BALANCE_INSET, x + 1 - BALANCE_INSET, y + BALANCE_INSET, y + 1 - BALANCE_INSET)
        found = False
        for nx in (x - 1, x, x + 1):
            for ny in (y - 1, y, y + 1):
                j = occupied.get((nx, ny, h - 1))
                if j is None:
                    continue
                _, jx, jy = pieces[j]
                if (nx != x or ny != y) and jx == 0.0 and jy == 0.0:
                    continue  # a neighbouring column's cube in place cannot hold it
                other = (nx + jx, nx + 1 + jx, ny + jy, ny + 1 + jy)
                r = _rect_contact(me, other, margin)
                if r:
                    loads.append((k, j, r))
                    found = True
        if not found:
            loads.append((k, -1, None))
    return bodies, contacts, loads


def _faces(contacts) -> dict[tuple[int, int, int], list[tuple[float, float]]]:
    """Per ``(upper, lower, height)``: the vertices of the convex hull of their contact faces.

    Forces anywhere on the contact faces between two bodies are equivalent to forces at these
    vertices, so only those carry a variable.
    """
    corners: dict[tuple[int, int, int], set[tuple[float, float]]] = {}
    for up, low, (x0, x1, y0, y1), z in contacts:
        corners.setdefault((up, low, z), set()).update(((x0, y0), (x1, y0), (x0, y1), (x1, y1)))
    return {key: _hull(pts) for key, pts in corners.items()}


def _vertical_system(bodies: Sequence[Body], faces: Faces, loads: Sequence[Load],
                     balances: Sequence[Balance]) -> tuple[System, np.ndarray]:
    """The gravity-only equations (3 per polycube: vertical force, moments about the two
    horizontal axes through its centre of mass) over non-negative vertical corner forces, in
    compressed-column form ``(start, index, value)``, and their right-hand side.

    Every solution is also a solution of the full system (:func:`_full_system`), so a tower that
    stands by these equations stands; they are smaller and decide most standing towers faster.
    """
    b = np.zeros(3 * len(bodies))
    for i, (m, *_) in enumerate(bodies):
        b[3 * i] = m
    for k, j, _ in loads:
        _, cx, cy, _ = bodies[j]
        x, y, _ = balances[k]
        b[3 * j] += BALANCE_MASS
        b[3 * j + 1] += BALANCE_MASS * (y + 0.5 - cy)
        b[3 * j + 2] += BALANCE_MASS * (x + 0.5 - cx)
    start = [0]
    index: list[int] = []
    value: list[float] = []
    for (up, low, _), hull in faces.items():
        _, ucx, ucy, _ = bodies[up]
        if low >= 0:
            _, lcx, lcy, _ = bodies[low]
        for px, py in hull:
            ur, uv = [3 * up, 3 * up + 1, 3 * up + 2], [1.0, py - ucy, px - ucx]
            if low < 0:
                index += ur
                value += uv
            else:
                lr, lv = [3 * low, 3 * low + 1, 3 * low + 2], [-1.0, lcy - py, lcx - px]
                if low < up:
                    index += lr + ur
                    value += lv + uv
                else:
                    index += ur + lr
                    value += uv + lv
            start.append(len(index))
    return (start, index, value), b


def _full_system(pieces: Sequence[Piece], bodies: Sequence[Body], faces: Faces,
                 loads: Sequence[Load], balances: Sequence[Balance], margin: float,
                 friction: float) -> tuple[System, np.ndarray]:
    """The equations ``A f = b`` of full 3-D equilibrium (6 per polycube: forces along x, y, z
    and moments about the three axes through its centre of mass) over non-negative contact
    forces ``f``, with ``A`` in compressed-column form ``(start, index, value)``.

    Columns: at every corner of the convex hull of a horizontal contact face, 4 forces along the
    edges of the linearised friction cone ``(±friction, 0, 1)``, ``(0, ±friction, 1)`` (only the
    vertical one when ``friction`` is 0); at every corner of a vertical face where two polycubes
    touch side by side, one horizontal force along the face's normal pushing them apart.
    """
    nb = len(bodies)
    com = np.array([[cx, cy, cz] for _, cx, cy, cz in bodies])
    b = np.zeros(6 * nb)
    for i, (m, *_) in enumerate(bodies):
        b[6 * i + 2] = m
    for k, j, _ in loads:
        x, y, _ = balances[k]
        b[6 * j + 2] += BALANCE_MASS
        b[6 * j + 3] += BALANCE_MASS * (y + 0.5 - com[j, 1])
        b[6 * j + 4] -= BALANCE_MASS * (x + 0.5 - com[j, 0])
    if friction > 0:
        flat = np.array([[friction, 0.0, 1.0], [-friction, 0.0, 1.0], [0.0, friction, 1.0],
                         [0.0, -friction, 1.0]])
    else:
        flat = np.array([[0.0, 0.0, 1.0]])
    pts: list[tuple[float, float, float]] = []
    gens: list[np.ndarray] = []
    ups: list[int] = []
    lows: list[int] = []
    for (upper, lower, z), hull in faces.items():
        for px, py in hull:
            pts.append((px, py, float(z)))
            gens.append(flat)
            ups.append(upper)
            lows.append(lower)
    walls: dict[tuple[int, int, int, float], set[tuple[float, float]]] = {}
    for a, c, axis, corners in side_contacts(pieces, margin):
        walls.setdefault((a, c, axis, corners[0][axis]), set()).update(
            (p[1 - axis], p[2]) for p in corners)
    for (a, c, axis, plane), corners in walls.items():
        normal = _NORMALS[axis]
        for u, w in _hull(corners):
            pts.append((plane, u, w) if axis == 0 else (u, plane, w))
            gens.append(normal)
            ups.append(c)  # pushes c along +axis, and a back
            lows.append(a)
    if not pts:
        return ([0], [], []), b
    counts = [len(g) for g in gens]
    force = np.concatenate(gens)
    point = np.repeat(np.array(pts), counts, axis=0)
    up = np.repeat(ups, counts)
    low = np.repeat(lows, counts)
    six = np.arange(6)
    # Per column: the 6 rows of the upper body (+force) and of the lower one (-force, none for
    # the base), the body with the smaller index first, zeros left out.
    up_rows = 6 * up[:, None] + six
    up_vals = np.hstack([force, np.cross(point - com[up], force)])
    ground = low < 0
    lowc = np.where(ground, 0, low)
    low_rows = 6 * lowc[:, None] + six
    low_vals = -np.hstack([force, np.cross(point - com[lowc], force)])
    low_vals[ground] = 0.0
    low_first = (~ground & (low < up))[:, None]
    rows = np.hstack([np.where(low_first, low_rows, up_rows),
                      np.where(low_first, up_rows, low_rows)])
    vals = np.hstack([np.where(low_first, low_vals, up_vals),
                      np.where(low_first, up_vals, low_vals)])
    keep = vals != 0.0
    start = np.concatenate([[0], np.cumsum(keep.sum(axis=1))])
    return (start, rows[keep], vals[keep]), b


_NORMALS = (np.array([[1.0, 0.0, 0.0]]), np.array([[0.0, 1.0, 0.0]]))


def _balances_held(balances, loads) -> bool:
    """Whether every balance cube rests on a polycube with its centre over its contact face."""
    return all(j >= 0 and _balance_held(balances[k], rect) for k, j, rect in loads)


def side_contacts(pieces: Sequence[Piece], margin: float = 0.0):
    """Vertical faces where two polycubes touch side by side, shrunk by ``margin``:
    ``(a, b, axis, corners)`` with the face's normal along ``axis`` (0: x, 1: y) pointing from
    body ``a`` to body ``b``.

    The static referee lets these faces push the two bodies apart (no friction), so a body
    that leans on a neighbour's side is held there (rules.md 2.6.1, reading).
    """
    occupied: dict[tuple[int, int, int], int] = {}
    for i, (cubes, _, _) in enumerate(pieces):
        for c in cubes:
            occupied[(c[0], c[1], c[2])] = i
    out = []
    for i, (cubes, ox, oy) in enumerate(pieces):
        off = (ox, oy)
        for x, y, z in cubes:
            for axis in (0, 1):
                for side in (-1, 0, 1):  # neighbours across the +axis face (side: tremor)
                    cell = (x + 1, y + side, z) if axis == 0 else (x + side, y + 1, z)
                    j = occupied.get(cell)
                    if j is None or j == i:
                        continue
                    joff = (pieces[j][1], pieces[j][2])
                    if side and off == joff:
                        continue
                    plane_i = (x if axis == 0 else y) + 1 + off[axis]
                    plane_j = cell[axis] + joff[axis]
                    if abs(plane_i - plane_j) > _EPS:
                        continue
                    other = 1 - axis
                    lo = max((x, y)[other] + off[other], cell[other] + joff[other]) + margin
                    hi = min((x, y)[other] + 1 + off[other], cell[other] + 1 + joff[other])
                    hi -= margin
                    z0, z1 = z + margin, z + 1 - margin
                    if hi - lo <= _EPS or z1 - z0 <= _EPS:
                        continue
                    if axis == 0:
                        corners = [(plane_i, lo, z0), (plane_i, hi, z0), (plane_i, lo, z1),
                                   (plane_i, hi, z1)]
                    else:
                        corners = [(lo, plane_i, z0), (hi, plane_i, z0), (lo, plane_i, z1),
                                   (hi, plane_i, z1)]
                    out.append((i, j, axis, corners))
    return out


def _balance_held(balance, rect) -> bool:
    """Whether a balance cube's centre lies over its contact face (then it cannot tip)."""
    x, y, _ = balance
    return rect[0] <= x + 0.5 <= rect[1] and rect[2] <= y + 0.5 <= rect[3]


def _hull(points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """Vertices of the convex hull of a few points (monotone chain), in a fixed order."""
    pts = sorted(points)
    if len(pts) <= 2:
        return pts
    if (len(pts) == 4 and pts[0][0] == pts[1][0] and pts[2][0] == pts[3][0]
            and pts[0][1] == pts[2][1] and pts[1][1] == pts[3][1]):
        return [pts[0], pts[2], pts[3], pts[1]]  # a rectangle, in the order built below

    def half(seq: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while len(out) >= 2 and (
                (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
            ) <= 1e-12:
                out.pop()
            out.append(p)
        return out

    lower = half(pts)
    upper = half(reversed(pts))
    return lower[:-1] + upper[:-1]


def _dense(system, rows: int) -> np.ndarray:
    """A matrix in compressed-column form ``(start, index, value)`` as a dense array."""
    start, index, value = system
    a = np.zeros((rows, len(start) - 1))
    cols = np.repeat(np.arange(len(start) - 1), np.diff(start))
    a[np.asarray(index, dtype=int), cols] = value
    return a


def _feasible_csc(system, b: np.ndarray) -> bool:
    """Whether ``A f = b, f >= 0`` has a solution, ``A`` in compressed-column form ``(start,
    index, value)``: scipy's HiGHS, serial dual simplex."""
    start, index, value = system
    n = len(start) - 1
    if _HIGHS is None:  # the public interface (slower, same solver)
        res = linprog(np.zeros(n), A_eq=_dense(system, len(b)), b_eq=b, bounds=(0, None),
                      method="highs-ds", options={"presolve": False})
        return res.status == 0
    h = _HIGHS
    lp = h.HighsLp()
    m = len(b)
    lp.num_col_ = n
    lp.num_row_ = m
    lp.a_matrix_.num_col_ = n
    lp.a_matrix_.num_row_ = m
    lp.a_matrix_.format_ = h.MatrixFormat.kColwise
    lp.col_cost_ = np.zeros(n)
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.full(n, np.inf)
    lp.row_lower_ = b
    lp.row_upper_ = b
    lp.a_matrix_.start_ = np.asarray(start, dtype=np.int32)
    lp.a_matrix_.index_ = np.asarray(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.asarray(value, dtype=float)
    solver = getattr(_SOLVERS, "highs", None)
    if solver is None:  # one solver per thread, set up once
        solver = _SOLVERS.highs = h._Highs()
        opts = h.HighsOptions()
        opts.output_flag = False
        opts.threads = 1
        opts.presolve = "off"
        opts.simplex_strategy = 1
        solver.passOptions(opts)
    solver.passModel(lp)  # a new model: no basis or solution is carried over
    solver.run()
    status = solver.getModelStatus()
    if status == h.HighsModelStatus.kOptimal:
        return True
    if status == h.HighsModelStatus.kInfeasible:
        return False
    res = linprog(np.zeros(n), A_eq=_dense(system, len(b)), b_eq=b, bounds=(0, None),
                  method="highs")
    return res.status == 0


_SOLVERS = threading.local()

try:  # scipy's own HiGHS binding, called directly to skip linprog's per-call overhead
    import scipy.optimize._highspy._core as _HIGHS
except ImportError:  # pragma: no cover
    _HIGHS = None


def static_stands(
    pieces: Sequence[Piece], balances: Sequence[Balance] = (), margin: float = STATIC_MARGIN,
    friction: float | None = STATIC_FRICTION,
) -> bool:
    """Whether the tower stands by exact rigid-block static equilibrium (rules.md 2.6.1).

    ``friction`` is the friction coefficient of horizontal faces; side faces push but do not
    rub. ``friction=None`` is the literal spec model: vertical forces only, side faces carry
    nothing (more towers fall).
    """
    if not pieces:
        return True
    bodies, contacts, loads = _contacts(pieces, balances, margin)
    if not _balances_held(balances, loads):
        return False
    supported = {c[0] for c in contacts}
    if len(supported) < len(pieces):  # a body with no contact below cannot stand
        return False
    faces = _faces(contacts)
    system, b = _vertical_system(bodies, faces, loads, balances)
    if _feasible_csc(system, b):
        return True
    if friction is None:
        return False
    system, b = _full_system(pieces, bodies, faces, loads, balances, margin, friction)
    return _feasible_csc(system, b)


def static_unbalanced(
    pieces: Sequence[Piece], balances: Sequence[Balance] = (), margin: float = STATIC_MARGIN,
    friction: float = STATIC_FRICTION,
) -> list[int]:
    """Bodies that fall by the static referee (rules.md 2.6.1, "What fell").

    The least total outside help that balances every body (an L1 linear program) names the
    suspects. The bodies that fell are then the fewest suspects, higher ones first, whose
    removal, with every body left without support and the balance cubes they carry, leaves a
    tower that stands: a body that only props a falling neighbour is not named. If no such
    choice of up to three suspects exists, the suspects and everything resting on them fell.
    """
    if not pieces:
        return []
    bodies, contacts, loads = _contacts(pieces, balances, margin)
    npieces = len(pieces)
    if not _balances_held(balances, loads):  # a balance cube off its support
        return [npieces + k for k, j, rect in loads
                if j < 0 or not _balance_held(balances[k], rect)]
    system, b = _full_system(pieces, bodies, _faces(contacts), loads, balances, margin,
                             friction)
    a = _dense(system, len(b))
    nb = len(bodies)
    nv = a.shape[1]
    # f >= 0, plus free help terms s+ - s- per equation, minimised in L1.
    eye = np.eye(6 * nb)
    a_full = np.hstack([a, eye, -eye])
    c = np.concatenate([np.zeros(nv), np.ones(12 * nb)])
    res = linprog(c, A_eq=a_full, b_eq=b, bounds=(0, None), method="highs")
    if res.status != 0:
        return list(range(nb))
    help_ = res.x[nv:nv + 6 * nb] + res.x[nv + 6 * nb:]
    suspects = sorted((i for i in range(nb) if help_[6 * i: 6 * i + 6].sum() > 1e-7),
                      key=lambda i: (-bodies[i][3], i))
    below: dict[int, set[int]] = {}
    for up, low, *_ in contacts:
        below.setdefault(up, set()).add(low)
    for size in range(1, min(3, len(suspects)) + 1):
        for chosen in combinations(suspects, size):
            fell = _with_unsupported(set(chosen), below)
            kept = [i for i in range(npieces) if i not in fell]
            kept_balances = [balances[k] for k, j, _ in loads if j not in fell]
            if static_stands([pieces[i] for i in kept], kept_balances, margin, friction):
                return sorted(fell) + [npieces + k for k, j, _ in loads if j in fell]
    bad = set(suspects)
    changed = True
    while changed:
        changed = False
        for up, low, *_ in contacts:
            if low in bad and up not in bad:
                bad.add(up)
                changed = True
    bad.update(npieces + k for k, j, _ in loads if j in bad)
    return sorted(bad)


def _with_unsupported(fell: set[int], below: dict[int, set[int]]) -> set[int]:
    """``fell`` and every body whose supports below (``below``: body -> the bodies or base
    ``-1`` it rests on) have all fallen, directly or not."""
    changed = True
    while changed:
        changed = False
        for up, lows in below.items():
            if up not in fell and lows <= fell:
                fell.add(up)
                changed = True
    return fell


def static_critical_margin(
    pieces: Sequence[Piece], balances: Sequence[Balance] = (), lo: float = -0.3,
    hi: float = 0.3, steps: int = 12, friction: float | None = STATIC_FRICTION,
) -> float:
    """The largest contact shrink (negative: growth) at which the tower still stands, found by
    bisection in ``[lo, hi]``: a measure of how far a tower is from the static threshold.

    Every contact polygon shrinks (or grows) by the margin, horizontal and side faces alike;
    grown, squares that only meet along an edge or at a corner come to touch.
    """
    if not static_stands(pieces, balances, lo, friction):
        return lo
    if static_stands(pieces, balances, hi, friction):
        return hi
    for _ in range(steps):
        mid = (lo + hi) / 2
        if static_stands(pieces, balances, mid, friction):
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# ----------------------------------------------------------------------------- MuJoCo referee
def balance_supports(pieces: Sequence[Piece], balances: Sequence[Balance]) -> list[int]:
    """Per balance cube: the polycube it rests on (the one filling the cell under its column's
    top, rules.md 4.7), or -1 if none does."""
    occupied: dict[tuple[int, int, int], int] = {}
    for i, (cubes, _, _) in enumerate(pieces):
        for c in cubes:
            occupied[(c[0], c[1], c[2])] = i
    return [occupied.get((x, y, h - 1), -1) for x, y, h in balances]


def scene_xml(pieces: Sequence[Piece], balances: Sequence[Balance], refine: int = 1,
              carried: bool = False) -> str:
    """The MJCF model of a tower with the fixed settings of rules.md 2.6.2.

    ``refine`` > 1 divides the timestep and the contacts' time constant by it: stiffer contacts,
    closer to rigid wood, for tests that ask whether a verdict depends on the contacts'
    softness. The referee itself always runs with ``refine=1``.

    ``carried``: every balance cube is a geom of the polycube it rests on instead of a body of
    its own (measured, not the referee's scene: rules.md 2.6.2, "Speed of a verdict run"); the
    bodies are then the polycubes only.
    """
    s = MUJOCO_SETTINGS
    h = 0.5 * U
    solref = s["solref"]
    timestep = s["timestep"]
    if refine != 1:
        timeconst, damping = (float(v) for v in solref.split())
        solref = f"{timeconst / refine:g} {damping:g}"
        timestep = timestep / refine
    out = [
        '<mujoco model="kozo">',
        f'<option timestep="{timestep}" gravity="0 0 -9.81" cone="elliptic" impratio="10"'
        ' integrator="implicitfast"><flag sleep="enable"/></option>',
        f'<default><geom density="{s["density"]}" friction="{s["friction"]}"'
        f' solref="{solref}" solimp="{s["solimp"]}" condim="4"/></default>',
        "<worldbody>",
        f'<geom name="floor" type="plane" size="1 1 0.01" pos="0 0 {-0.5 * U:.6f}"/>',
    ]
    for x, y in RING:
        out.append(
            f'<geom name="base_{x}_{y}" type="box" size="{h:.6f} {h:.6f} {0.25 * U:.6f}"'
            f' pos="{(x + 0.5) * U:.6f} {(y + 0.5) * U:.6f} {-0.25 * U:.6f}"/>'
        )
    hb = BALANCE_EDGE / 2 * U
    on = balance_supports(pieces, balances) if carried else [-1] * len(balances)
    for i, (cubes, ox, oy) in enumerate(pieces):
        cx, cy, cz = _centroid(cubes, ox, oy)
        out.append(f'<body name="p{i}" pos="{cx * U:.6f} {cy * U:.6f} {cz * U:.6f}"><freejoint/>')
        for x, y, z in cubes:
            px, py, pz = (x + 0.5 + ox - cx) * U, (y + 0.5 + oy - cy) * U, (z + 0.5 - cz) * U
            out.append(
                f'<geom type="box" size="{h:.6f} {h:.6f} {h:.6f}"'
                f' pos="{px:.6f} {py:.6f} {pz:.6f}"/>'
            )
        for k, (x, y, hh) in enumerate(balances):
            if on[k] == i:
                out.append(
                    f'<geom type="box" size="{hb:.6f} {hb:.6f} {hb:.6f}"'
                    f' pos="{(x + 0.5 - cx) * U:.6f} {(y + 0.5 - cy) * U:.6f}'
                    f' {(hh + BALANCE_EDGE / 2 - cz) * U:.6f}"/>'
                )
        out.append("</body>")
    for k, (x, y, hh) in enumerate(balances):
        if on[k] >= 0:
            continue
        out.append(
            f'<body name="b{k}" pos="{(x + 0.5) * U:.6f} {(y + 0.5) * U:.6f}'
            f' {(hh + BALANCE_EDGE / 2) * U:.6f}"><freejoint/>'
            f'<geom type="box" size="{hb:.6f} {hb:.6f} {hb:.6f}"/></body>'
        )
    out.append("</worldbody></mujoco>")
    return "\n".join(out)


def _centroid(cubes, ox=0.0, oy=0.0):
    n = len(cubes)
    return (
        sum(c[0] for c in cubes) / n + 0.5 + ox,
        sum(c[1] for c in cubes) / n + 0.5 + oy,
        sum(c[2] for c in cubes) / n + 0.5,
    )


def _rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Vectors ``v`` (rows) turned by unit quaternions ``q`` (rows ``[w, x, y, z]``)."""
    w = q[:, :1]
    u = q[:, 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


class _Poses:
    """Reads every body's pose ``[x, y, z, qw, qx, qy, qz]`` (metres) from a MuJoCo run, the
    carried balance cubes' poses worked out from the polycube each rides on."""

    def __init__(self, pieces, balances, carried: bool):
        self.npieces = len(pieces)
        self.nbody = len(pieces) + len(balances)
        on = balance_supports(pieces, balances) if carried else [-1] * len(balances)
        self.carried = [k for k in range(len(balances)) if on[k] >= 0]
        self.free = [k for k in range(len(balances)) if on[k] < 0]
        self.support = np.array([on[k] for k in self.carried], dtype=int)
        self.offset = np.zeros((len(self.carried), 3))
        for row, k in enumerate(self.carried):
            x, y, hh = balances[k]
            cx, cy, cz = _centroid(*pieces[on[k]])
            self.offset[row] = ((x + 0.5 - cx) * U, (y + 0.5 - cy) * U,
                                (hh + BALANCE_EDGE / 2 - cz) * U)

    def read(self, qpos) -> np.ndarray:
        sim = np.array(qpos, dtype=float).reshape(-1, 7)
        if not self.carried:
            return sim
        out = np.zeros((self.nbody, 7))
        out[: self.npieces] = sim[: self.npieces]
        for row, k in enumerate(self.free):
            out[self.npieces + k] = sim[self.npieces + row]
        base = sim[self.support]
        idx = self.npieces + np.array(self.carried, dtype=int)
        out[idx, :3] = base[:, :3] + _rotate(base[:, 3:], self.offset)
        out[idx, 3:] = base[:, 3:]
        return out


def simulate(
    pieces: Sequence[Piece],
    balances: Sequence[Balance] = (),
    sim_seconds: float = 3.0,
    frame_every: int = 0,
    stop_when_fallen: bool = False,
    refine: int = 1,
    carried: bool = False,
):
    """Run the MuJoCo scene; return ``(start poses, end poses, frames)``.

    Poses are arrays of ``[x, y, z, qw, qx, qy, qz]`` per body (polycubes, then balance cubes)
    in metres; ``frames`` holds the poses every ``frame_every`` steps (empty when 0). The run
    stops early once every body sleeps (nothing can move any more) and, with
    ``stop_when_fallen``, once a body has clearly fallen (:data:`FALLEN_FOR_SURE`).
    ``carried``: see :func:`scene_xml` (a carried balance cube's pose is that of its support).
    """
    import mujoco

    model = mujoco.MjModel.from_xml_string(scene_xml(pieces, balances, refine, carried))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    poses = _Poses(pieces, balances, carried)
    start = poses.read(data.qpos)
    steps = int(round(sim_seconds * refine / MUJOCO_SETTINGS["timestep"]))
    frames = [start.copy()] if frame_every else []
    done = 0
    while done < steps:
        mujoco.mj_step(model, data, SLEEP_CHECK_STEPS)
        done += SLEEP_CHECK_STEPS
        if frame_every and done % frame_every == 0:
            frames.append(poses.read(data.qpos))
        if data.ntree_awake == 0:
            # Every body sleeps: nothing can move any more, so the rest of the run would
            # leave every pose exactly as it is.
            if frame_every and done % frame_every:
                frames.append(poses.read(data.qpos))
            break
        if stop_when_fallen and done % (25 * refine) == 0:
            disp, tilt = movements(start, poses.read(data.qpos))
            if disp.max() > FALLEN_FOR_SURE[0] or tilt.max() > FALLEN_FOR_SURE[1]:
                break
    end = poses.read(data.qpos)
    return start, end, frames


def movements(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per body: displacement in cube edges and turn in degrees between two pose arrays."""
    if len(start) == 0:
        return np.zeros(0), np.zeros(0)
    disp = np.linalg.norm(end[:, :3] - start[:, :3], axis=1) / U
    dots = np.abs(np.sum(start[:, 3:] * end[:, 3:], axis=1))
    tilt = np.degrees(2 * np.arccos(np.minimum(1.0, dots)))
    return disp, tilt


def mujoco_verdict(
    pieces: Sequence[Piece],
    balances: Sequence[Balance] = (),
    sim_seconds: float = 3.0,
    fall_distance: float = 0.25,
    fall_tilt_deg: float = 10.0,
    refine: int = 1,
    carried: bool = False,
) -> tuple[bool, list[int], float, float]:
    """Simulate the tower; return ``(stands, moved bodies, largest move, largest turn)``.

    ``refine``: see :func:`scene_xml` (1, the referee's own settings, unless testing).
    ``carried``: each balance cube rides as a geom of the polycube under it instead of a body
    of its own, a smaller scene measured for speed and not used by the referee (rules.md 2.6.2,
    "Speed of a verdict run").
    """
    if not pieces:
        return True, [], 0.0, 0.0
    start, end, _ = simulate(pieces, balances, sim_seconds, stop_when_fallen=True,
                             refine=refine, carried=carried)
    disp, tilt = movements(start, end)
    moved = [i for i in range(len(disp)) if disp[i] > fall_distance or tilt[i] > fall_tilt_deg]
    return not moved, moved, float(disp.max()), float(tilt.max())


def motion(
    scene: dict,
    sim_seconds: float = 3.0,
    fps: int = 20,
    fall_distance: float = 0.25,
    fall_tilt_deg: float = 10.0,
) -> dict:
    """The MuJoCo motion of a tower scene as small JSON (format in the module docstring).

    ``scene`` is the ``last_check`` entry of a Kozo observation, or any dict with
    ``pieces`` (``[{"piece": p, "cells": [[x, y, z], ...], "tremor": [ox, oy]}]``, the
    tremor offset optional) and ``balances`` (``[{"column": [x, y], "height": h}]``).
    """
    pieces = []
    for p in scene.get("pieces", []):
        ox, oy = p.get("tremor") or (0.0, 0.0)
        pieces.append(([tuple(c) for c in p["cells"]], float(ox), float(oy)))
    balances = [(b["column"][0], b["column"][1], int(b["height"])) for b in scene.get(
        "balances", [])]
    every = max(1, int(round(1.0 / fps / MUJOCO_SETTINGS["timestep"])))
    start, end, frames = simulate(pieces, balances, sim_seconds, frame_every=every)
    disp, tilt = movements(start, end)
    moved = [i for i in range(len(disp)) if disp[i] > fall_distance or tilt[i] > fall_tilt_deg]
    bodies = []
    for p in scene.get("pieces", []):
        bodies.append({"piece": f"P{p['piece']}", "kind": "polycube",
                       "cells": [list(c) for c in p["cells"]]})
    for b in scene.get("balances", []):
        bodies.append({"piece": f"B@{b['column'][0]},{b['column'][1]}", "kind": "balance"})
    for i, body in enumerate(bodies):
        body["frames"] = [
            [round(float(f[i, 0]) / U, 4), round(float(f[i, 1]) / U, 4),
             round(float(f[i, 2]) / U, 4)] + [round(float(q), 5) for q in f[i, 3:]]
            for f in frames
        ]
    return {
        "dt": every * MUJOCO_SETTINGS["timestep"],
        "unit": "cube edge",
        "bodies": bodies,
        "moved": moved,
        "fallen": bool(moved),
        "largest_move": round(float(disp.max()) if len(disp) else 0.0, 4),
        "largest_turn_deg": round(float(tilt.max()) if len(tilt) else 0.0, 3),
    }


def tilt_angle(q0: Sequence[float], q1: Sequence[float]) -> float:
    """Angle in degrees between two unit quaternions."""
    d = abs(sum(a * b for a, b in zip(q0, q1, strict=True)))
    return math.degrees(2 * math.acos(min(1.0, d)))
