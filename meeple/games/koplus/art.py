"""KoPlus piece drawings: the aliens as little monsters whose points are the dots on their
bellies (as on the printed board), and the NET tiles as plus- and U-shaped pentominoes in a
player's colour with the player's symbol. Everything is drawn in code."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from meeple.engine import svg as draw
from meeple.engine.i18n import words
from meeple.engine.look import Colour

from .components import SHAPE_TARGET, SHAPES

_, _n = words(__file__)

ALIEN_COLOURS = {1: "#a5c93b", 2: "#3cb7a6", 3: "#9a7bd6", 4: "#e4609b", 5: "#b0302f"}
"""The aliens' own body colours by value (creatures, not players)."""
ALIEN_INK = "#2b2340"
"""The aliens' outlines, pupils and dots."""

PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((50, 67),),
    2: ((36, 67), (64, 67)),
    3: ((32, 67), (50, 67), (68, 67)),
    4: ((38, 59), (62, 59), (38, 75), (62, 75)),
    5: ((34, 59), (66, 59), (50, 67), (34, 75), (66, 75)),
}
"""Where an alien's dots sit on its belly, by value (in a 100-unit box)."""


def _discs(centres: Iterable[tuple[float, float]], r: float) -> str:
    """Path data of discs of radius ``r`` (several circles as one path)."""
    return "".join(f"M{x - r:g},{y:g}a{r:g},{r:g} 0 1,0 {2 * r:g},0a{r:g},{r:g} 0 1,0 "
                   f"{-2 * r:g},0Z" for x, y in centres)


@cache
def _alien_body(value: int) -> str:
    """The inside of one alien in a 100 × 100 box: feelers, body, eyes and its dots."""
    fill = ALIEN_COLOURS.get(value, "#9e9e9e")
    feet = "q-6,11 -12,0" * 6
    parts = [
        draw.path("M39,24Q33,10 24,8M61,24Q67,10 76,8", stroke=ALIEN_INK, stroke_width=5,
                  stroke_linecap="round"),
        draw.path(_discs(((24, 8), (76, 8)), 6), fill=fill, stroke=ALIEN_INK, stroke_width=3),
        draw.path(f"M14,52C14,28 30,18 50,18C70,18 86,28 86,52L86,84{feet}Z", fill=fill,
                  stroke=ALIEN_INK, stroke_width=4, stroke_linejoin="round"),
        draw.path(_discs(((37, 36), (63, 36)), 8.5), fill="#ffffff", stroke=ALIEN_INK,
                  stroke_width=2.5, class_="eyes"),
        draw.path(_discs(((38.5, 37.5), (64.5, 37.5)), 4), fill=ALIEN_INK),
        '<ellipse cx="50" cy="67" rx="29" ry="15.5" fill="#ffffff" fill-opacity="0.9"/>',
        *(draw.circle(x, y, 6.2, fill=ALIEN_INK) for x, y in PIPS.get(value, ())),
    ]
    return "".join(parts)


def alien_id(value: int) -> str:
    """The id of the drawing of an alien worth ``value`` (drawn once in the picture's defs)."""
    return f"koplus-alien-{value}"


@cache
def alien_image(value: int) -> str:
    """The drawing of an alien worth ``value`` as a picture of its own (an SVG data URL): a
    browser lays each alien on the board out as one element, not as the dozen of its parts."""
    doc = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
           f"{_alien_body(value)}</svg>")
    return "data:image/svg+xml;base64," + base64.b64encode(doc.encode()).decode()


def alien_defs(values: Iterable[int]) -> str:
    """The drawings of the aliens of these values, once each, for :func:`alien` to use."""
    return "<defs>" + "".join(f'<image id="{alien_id(v)}" width="100" height="100" '
                              f'href="{alien_image(v)}"/>'
                              for v in sorted(set(values))) + "</defs>"


@draw.memo(maxsize=8192)
def alien(value: int, x: float, y: float, size: float, *, caught: bool = False) -> str:
    """An alien worth ``value`` in the ``size`` square cell whose top-left corner is (x, y):
    the drawing of its value (:func:`alien_defs`) placed there."""
    k = size / 100
    cls = f"alien value-{value}" + (" caught" if caught else "")
    what = (_n("Alien worth {n} point, caught", "Alien worth {n} points, caught", value)
            if caught else _n("Alien worth {n} point", "Alien worth {n} points", value))
    return (f'<use class="{cls}" transform="translate({x:g},{y:g}) scale({k:g})" '
            f'href="#{alien_id(value)}">{draw.title(what)}</use>')


def shade(fill: str, factor: float = 0.55) -> str:
    """A darker shade of a ``#rrggbb`` colour (a tile's edge)."""
    value = fill.lstrip("#")
    rgb = [int(value[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(v * factor):02x}" for v in rgb)


def outline(cells: Iterable[Sequence[int]], x0: float, y0: float, size: float) -> str:
    """SVG path data of the outer edges of a set of cells (``size`` per cell, the board's
    top-left corner at (x0, y0))."""
    own = {(r, c) for r, c in cells}
    parts = []
    for r, c in sorted(own):
        x, y = x0 + c * size, y0 + r * size
        if (r - 1, c) not in own:
            parts.append(f"M{x:g},{y:g}h{size:g}")
        if (r + 1, c) not in own:
            parts.append(f"M{x:g},{y + size:g}h{size:g}")
        if (r, c - 1) not in own:
            parts.append(f"M{x:g},{y:g}v{size:g}")
        if (r, c + 1) not in own:
            parts.append(f"M{x + size:g},{y:g}v{size:g}")
    return "".join(parts)


def net(cells: Sequence[Sequence[int]], colour: Colour, x0: float, y0: float,
        size: float, *, symbol_at: tuple[int, int] | None = None, edge: float = 2.0) -> str:
    """A NET tile covering ``cells``: a solid pentomino in the player's colour with a net
    drawn on it, a darker edge and (at ``symbol_at``) the player's symbol. Returns the
    tile's inner parts (the caller wraps them in a group). A laid tile is drawn once: the
    same tile in the next picture is taken from a cache."""
    return _net(tuple((r, c) for r, c in cells), colour, x0, y0, size, symbol_at, edge)


@lru_cache(maxsize=4096)
def _net(cells: tuple[tuple[int, int], ...], colour: Colour, x0: float, y0: float,
         size: float, symbol_at: tuple[int, int] | None, edge: float) -> str:
    body = []
    mesh = []
    third = size / 3
    for r, c in cells:
        x, y = x0 + c * size, y0 + r * size
        body.append(f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" '
                    f'fill="{colour.fill}"/>')
        mesh.append(f"M{x + third:g},{y:g}v{size:g}M{x + 2 * third:g},{y:g}v{size:g}"
                    f"M{x:g},{y + third:g}h{size:g}M{x:g},{y + 2 * third:g}h{size:g}")
    edges = outline(cells, x0, y0, size)
    solid = [*body, draw.path("".join(mesh), stroke="#ffffff", stroke_opacity="0.3",
                              stroke_width=f"{max(0.6, size / 30):g}"),
             draw.path(edges, stroke=shade(colour.fill), stroke_width=f"{edge:g}",
                       stroke_linecap="square")]
    out = [draw.group(solid, opacity="0.84")]
    if symbol_at is not None:
        r, c = symbol_at
        out.append(draw.text(x0 + (c + 0.5) * size, y0 + (r + 0.5) * size + size * 0.26,
                             colour.symbol, size=round(size * 0.72, 1), anchor="middle",
                             weight="bold", fill=colour.ink, class_="symbol"))
    return "".join(out)


def shape_cells(shape: str, top: int = 0, left: int = 0) -> list[tuple[int, int]]:
    """The cells of a shape (``X``, ``U0``..``U3``) laid with its box's corner at (top, left)."""
    return [(top + dr, left + dc) for dr, dc in SHAPES[shape]]


def symbol_cell(shape: str, cells: Sequence[Sequence[int]]) -> tuple[int, int]:
    """The cell of a laid tile that carries the player's symbol (the cell a player points at
    to lay that shape)."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    tr, tc = SHAPE_TARGET[shape]
    return top + tr, left + tc


@lru_cache(maxsize=1024)
def hand_tile(letter: str, colour: Colour, x: float, y: float, size: float) -> str:
    """A tile still in hand, by its shape (``X`` a plus, ``U`` a U opening up), ``size`` per
    cell, its box's top-left corner at (x, y)."""
    shape = "X" if letter == "X" else "U0"
    return draw.path(polygon(shape_cells(shape), x, y, size), fill=colour.fill,
                     stroke=shade(colour.fill), stroke_width="1",
                     class_=f"hand-tile shape-{letter}")


def polygon(cells: Iterable[Sequence[int]], x0: float, y0: float, size: float) -> str:
    """SVG path data of the outline of a set of edge-joined cells without holes, as one
    closed shape (``size`` per cell, the top-left corner of cell (0, 0) at (x0, y0))."""
    own = {(r, c) for r, c in cells}
    # each cell's edges clockwise, corner to corner (row, column); the shared ones cancel
    sides: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for r, c in own:
        corners = [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            if (b, a) in sides:
                sides.remove((b, a))
            else:
                sides.add((a, b))
    edges = dict(sides)
    start = min(edges)
    points = [start]
    at = edges[start]
    while at != start:
        points.append(at)
        at = edges[at]
    # only the corners where the outline turns
    turns = [p for i, p in enumerate(points)
             if (points[i - 1][0] != points[(i + 1) % len(points)][0]
                 and points[i - 1][1] != points[(i + 1) % len(points)][1])]
    return "M" + "L".join(f"{x0 + c * size:g},{y0 + r * size:g}" for r, c in turns) + "Z"
