"""Kozo's wooden pieces drawn in code: wood tints, grain, and cubes seen from the south-west.

The projection puts the south-west corner of the base nearest the viewer, so north is away
(up the page), as on the plan of the ring. Cell ``(x, y, z)`` is the unit box
``[x, x+1] x [y, y+1] x [z, z+1]``; three of its faces can be seen: the top, the south face
(``y`` low) and the west face (``x`` low).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from meeple.engine import svg as draw

from .components import PIECE_FILLS

A = math.cos(math.pi / 6)
"""Horizontal reach of a unit step along x or y, in cube edges."""
B = 0.6
"""Vertical reach of a unit step along x or y, in cube edges (a view a little from above,
so that the chimney shows between the columns)."""
H = 0.9
"""Drawn height of a cube edge standing up, in cube edges."""
WOOD = "#d7b27c"
"""Bare wood: the base board and the grain's ground."""
WOOD_DARK = "#9a7446"
"""The board's edge and the seams between its squares."""
GRAIN = "#4a2f14"
"""The grain lines."""
BALANCE_FILL = "#2a2622"
"""Balance cubes are black (stained wood)."""
HOLE = "#2b241c"
"""The floor of the open chimney."""
FACE_SHADE = {"top": 1.0, "south": 0.8, "west": 0.64}
"""How much light each visible face gets."""


def shade(hex_colour: str, f: float) -> str:
    """``hex_colour`` darkened (``f`` < 1) or lightened toward white (``f`` > 1)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    if f <= 1:
        r, g, b = int(r * f), int(g * f), int(b * f)
    else:
        t = f - 1
        r, g, b = (int(c + (255 - c) * t) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb, strict=True))


def _tint(colour: int) -> str:
    return mix(PIECE_FILLS[colour % len(PIECE_FILLS)], WOOD, 0.3)


TINTS: tuple[str, ...] = tuple(_tint(c) for c in range(len(PIECE_FILLS)))
"""Each piece's wood: its own colour stained into the wood (index = piece number - 1)."""


def tint(colour: int) -> str:
    """The wood of the piece with colour index ``colour``."""
    return TINTS[colour % len(TINTS)]


def ink_on(hex_colour: str) -> str:
    """Dark or white letters, whichever reads better on ``hex_colour``."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#1d1409" if 0.299 * r + 0.587 * g + 0.114 * b > 135 else "#ffffff"


_GRAIN_LINES = (
    "M0,.12 C.3,.06 .55,.2 1,.13", "M0,.34 C.25,.4 .6,.27 1,.36",
    "M0,.58 C.35,.52 .7,.66 1,.57", "M0,.8 C.3,.86 .65,.74 1,.82",
)


class Iso:
    """An isometric view from the south-west: cube edge ``s`` pixels, the base's south-west
    corner (0, 0, 0) at ``(ox, oy)``."""

    def __init__(self, s: float, ox: float, oy: float) -> None:
        self.s, self.ox, self.oy = s, ox, oy
        self._ax, self._by, self._hz = A * s, B * s, H * s

    def point(self, x: float, y: float, z: float) -> tuple[float, float]:
        """Where the point ``(x, y, z)`` is drawn."""
        return (self.ox + (x - y) * self._ax, self.oy - (x + y) * self._by - z * self._hz)

    def points(self, corners: Iterable[tuple[float, float, float]]) -> str:
        """The ``points`` attribute of a polygon through ``corners``."""
        ox, oy, ax, by, s = self.ox, self.oy, self._ax, self._by, self._hz
        return " ".join(f"{ox + (x - y) * ax:.1f},{oy - (x + y) * by - z * s:.1f}"
                        for x, y, z in corners)

    def grain_defs(self, prefix: str) -> str:
        """Three grain patterns (``{prefix}-top``, ``-south``, ``-west``) laid on the faces of
        this view, one tile per cube face, so the grain follows every face it is drawn on."""
        ax, by, s, ox, oy = self._ax, self._by, self._hz, self.ox, self.oy
        lines = "".join(f'<path d="{d}" fill="none" stroke="{GRAIN}" stroke-opacity=".28" '
                        f'stroke-width=".03"/>' for d in _GRAIN_LINES)
        faces = {"top": (ax, -by, -ax, -by), "south": (ax, -by, 0, -s),
                 "west": (-ax, -by, 0, -s)}
        out = []
        for face, (a, b, c, d) in faces.items():
            out.append(
                f'<pattern id="{prefix}-{face}" patternUnits="userSpaceOnUse" width="1" '
                f'height="1" patternTransform="matrix({a:.2f} {b:.2f} {c:.2f} {d:.2f} '
                f'{ox:.1f} {oy:.1f})">{lines}</pattern>')
        return "".join(out)

    def cube(self, x: float, y: float, z: float, e: float, fill: str, *,
             hidden: frozenset[str] = frozenset(), grain: str | None = None,
             cls: str | None = None) -> list[str]:
        """The visible faces of the box of edge ``e`` at ``(x, y, z)``: each face shaded, with
        the grain pattern ``grain`` over it where given; faces named in ``hidden`` (touching
        another cube) are left out."""
        x1, y1, z1 = x + e, y + e, z + e
        faces = (
            ("west", ((x, y, z), (x, y1, z), (x, y1, z1), (x, y, z1))),
            ("south", ((x, y, z), (x1, y, z), (x1, y, z1), (x, y, z1))),
            ("top", ((x, y, z1), (x1, y, z1), (x1, y1, z1), (x, y1, z1))),
        )
        out = []
        for face, corners in faces:
            if face in hidden:
                continue
            pts = self.points(corners)
            f = shade(fill, FACE_SHADE[face])
            out.append(f'<polygon points="{pts}" fill="{f}" stroke="{shade(f, 0.7)}" '
                       f'stroke-width="0.8" stroke-linejoin="round"'
                       f'{draw.attrs(class_=cls)}/>')
            if grain:
                out.append(f'<polygon points="{pts}" fill="url(#{grain}-{face})" '
                           f'pointer-events="none"/>')
        return out


def piece_icon(cubes: Sequence[tuple[int, int, int]], colour: int, cx: float, bottom: float,
               s: float, letter: str | None = None, letter_size: float = 12) -> list[str]:
    """A small drawing of a piece in its resting pose, centred on ``cx`` with its lowest point
    at ``bottom``; ``letter`` is written on its nearest top face."""
    xs = [c[0] - c[1] for c in cubes] + [c[0] + 1 - c[1] for c in cubes] + \
        [c[0] - c[1] - 1 for c in cubes]
    mid = (min(xs) + max(xs)) / 2
    low = min(c[0] + c[1] for c in cubes) * B
    iso = Iso(s, cx - mid * A * s, bottom + low * s)
    fill = tint(colour)
    occupied: set[tuple[float, float, float]] = {(c[0], c[1], c[2]) for c in cubes}
    out: list[str] = []
    for x, y, z in sorted(cubes, key=lambda c: (c[2] - c[0] - c[1], c[2])):
        out += iso.cube(x, y, z, 1.0, fill, hidden=hidden_faces(occupied, x, y, z))
    if letter:
        x, y, z = max(cubes, key=lambda c: (c[2], -c[0] - c[1]))
        px, py = iso.point(x + 0.5, y + 0.5, z + 1)
        out.append(draw.text(px, py + letter_size * 0.36, letter, size=letter_size,
                             anchor="middle", weight="bold", fill=ink_on(fill)))
    return out


def hidden_faces(occupied: set[tuple[float, float, float]],
                 x: float, y: float, z: float) -> frozenset[str]:
    """The faces of cell ``(x, y, z)`` that touch another occupied cell."""
    out = []
    if (x, y, z + 1) in occupied:
        out.append("top")
    if (x, y - 1, z) in occupied:
        out.append("south")
    if (x - 1, y, z) in occupied:
        out.append("west")
    return frozenset(out)

