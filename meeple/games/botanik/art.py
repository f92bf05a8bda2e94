"""Botanik's pieces drawn in SVG: machine tiles with brass pipes, flowers, plants, vegetables,
the Source pump and the Mecha-Botanist's face.

Every function returns SVG markup for one piece drawn in the square ``x, y, size`` (or around a
centre), scaled from the size, so the same drawing serves the registry, the arrival and the
machines. Pipes leave a tile through the middle of its edges; a pipe that turns bends round the
corner between its two exits; every exit ends in a flange (the joint with the next tile).
"""

from __future__ import annotations

from meeple.engine import svg as draw
from meeple.engine.look import INK

TILE_FILL = {"R": "#d9473a", "Y": "#eec12f", "G": "#4f9f45", "B": "#3f78c0", "K": "#4a4a4a"}
"""The five tile colours (the tiles', not the players')."""
TILE_EDGE = {"R": "#8c2a21", "Y": "#9a7a12", "G": "#2d6428", "B": "#244d80", "K": "#1e1e1e"}
"""A darker shade of each tile colour, for the tile's rim."""
COLOUR_WORD = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "black"}
SYMBOL = {"R": "○", "Y": "△", "G": "□", "B": "◇", "K": "✕"}
"""The shape drawn on each tile colour (in the SVG and in the terminal), so colour is never the
only cue."""

BRASS = "#d1a64a"
BRASS_DARK = "#5a3d12"
BRASS_LIGHT = "#f6e2a6"
STEEL = "#c3cad2"
STEEL_DARK = "#4b545e"
PETAL = "#fbe3f0"
PETAL_EDGE = "#b0407a"
HEART = "#f5b71a"
LEAF = "#3f8f3a"
LEAF_DARK = "#1f5520"
POT = "#b8643a"
POT_DARK = "#6e3419"

# edge midpoints as fractions of the tile, by direction N, E, S, W
_MID = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
_ORDER = "NESW"


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _pipe(d: str, size: float) -> str:
    """A pipe path drawn three times: dark outline, brass body, a thin shine."""
    w = size * 0.2
    return (draw.path(d, stroke=BRASS_DARK, stroke_width=_f(w + 2.2), stroke_linecap="butt")
            + draw.path(d, stroke=BRASS, stroke_width=_f(w), stroke_linecap="butt")
            + draw.path(d, stroke=BRASS_LIGHT, stroke_width=_f(w * 0.28),
                        stroke_linecap="butt", opacity="0.8"))


def _flange(e: str, x: float, y: float, size: float) -> str:
    """The joint where a pipe leaves the tile through edge ``e``."""
    w = size * 0.2
    fx, fy = _MID[e]
    px, py = x + fx * size, y + fy * size
    t = max(2.0, size * 0.07)
    ln = w + size * 0.12
    if e in "NS":
        rx, ry, rw, rh = px - ln / 2, (py if e == "N" else py - t), ln, t
    else:
        rx, ry, rw, rh = (px if e == "W" else px - t), py - ln / 2, t, ln
    return draw.rect(rx, ry, rw, rh, fill=BRASS, stroke=BRASS_DARK, stroke_width="0.8")


def pipes(exits: list[str] | tuple[str, ...], x: float, y: float, size: float,
          hub: bool = True) -> str:
    """The pipes of a tile with these exits: a straight run, a bend round the corner between two
    neighbouring exits, a tee or cross with a joint in the middle, or (one exit) a pipe to the
    centre; each exit with its flange."""
    ex = [d for d in _ORDER if d in exits]
    cx, cy = x + size / 2, y + size / 2
    out = []

    def mid(d: str) -> tuple[float, float]:
        fx, fy = _MID[d]
        return x + fx * size, y + fy * size

    if len(ex) == 2 and _OPPOSITE[ex[0]] != ex[1]:
        (ax, ay), (bx, by) = mid(ex[0]), mid(ex[1])
        r = size / 2
        # the bend turns round the corner the two exits share
        sweep = 1 if ex == ["N", "W"] else 0
        out.append(_pipe(f"M{_f(ax)} {_f(ay)}A{_f(r)} {_f(r)} 0 0 {sweep} {_f(bx)} {_f(by)}",
                         size))
    else:
        done: set[str] = set()
        for d in ex:
            if d in done:
                continue
            o = _OPPOSITE[d]
            ax, ay = mid(d)
            if o in ex:
                bx, by = mid(o)
                done.add(o)
            else:
                bx, by = cx, cy
            done.add(d)
            out.append(_pipe(f"M{_f(ax)} {_f(ay)}L{_f(bx)} {_f(by)}", size))
        if hub and len(ex) >= 3:
            out.append(draw.circle(cx, cy, size * 0.15, fill=BRASS, stroke=BRASS_DARK,
                                   stroke_width="1"))
            out.append(draw.circle(cx, cy, size * 0.05, fill=BRASS_DARK))
    out.extend(_flange(d, x, y, size) for d in ex)
    return "".join(out)


def colour_symbol(letter: str, cx: float, cy: float, r: float) -> str:
    """The shape of a tile colour, white on a dark rim, in a corner of the tile."""
    style = {"fill": "#ffffff", "stroke": INK, "stroke_width": "1"}
    if letter == "R":
        return draw.circle(cx, cy, r, **style)
    if letter == "Y":
        return draw.path(f"M{_f(cx)} {_f(cy - r)}L{_f(cx + r)} {_f(cy + r * 0.8)}"
                         f"L{_f(cx - r)} {_f(cy + r * 0.8)}Z", **style)
    if letter == "G":
        return draw.rect(cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7, **style)
    if letter == "B":
        return draw.path(f"M{_f(cx)} {_f(cy - r)}L{_f(cx + r)} {_f(cy)}L{_f(cx)} {_f(cy + r)}"
                         f"L{_f(cx - r)} {_f(cy)}Z", **style)
    a, b = r, r * 0.38
    return draw.path(
        f"M{_f(cx - a)} {_f(cy - a + b)}L{_f(cx - a + b)} {_f(cy - a)}L{_f(cx)} {_f(cy - b)}"
        f"L{_f(cx + a - b)} {_f(cy - a)}L{_f(cx + a)} {_f(cy - a + b)}L{_f(cx + b)} {_f(cy)}"
        f"L{_f(cx + a)} {_f(cy + a - b)}L{_f(cx + a - b)} {_f(cy + a)}L{_f(cx)} {_f(cy + b)}"
        f"L{_f(cx - a + b)} {_f(cy + a)}L{_f(cx - a)} {_f(cy + a - b)}L{_f(cx - b)} {_f(cy)}Z",
        **style)


def flower(cx: float, cy: float, r: float) -> str:
    """A flower: five petals round a golden heart."""
    p = r * 0.45
    petals = []
    for dx, dy in ((0.0, -1.0), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31)):
        petals.append(draw.circle(cx + dx * r * 0.55, cy + dy * r * 0.55, p, fill=PETAL,
                                  stroke=PETAL_EDGE, stroke_width="0.7"))
    petals.append(draw.circle(cx, cy, r * 0.3, fill=HEART, stroke=PETAL_EDGE,
                              stroke_width="0.5"))
    return draw.group(petals, class_="flower")


def _pot(cx: float, top: float, s: float) -> str:
    """A clay pot whose rim is at ``top``."""
    w1, w2, h = s * 0.36, s * 0.26, s * 0.2
    return (draw.path(f"M{_f(cx - w1 / 2)} {_f(top)}L{_f(cx + w1 / 2)} {_f(top)}"
                      f"L{_f(cx + w2 / 2)} {_f(top + h)}L{_f(cx - w2 / 2)} {_f(top + h)}Z",
                      fill=POT, stroke=POT_DARK, stroke_width="1")
            + draw.rect(cx - w1 / 2 - 1, top - s * 0.04, w1 + 2, s * 0.07, fill=POT,
                        stroke=POT_DARK, stroke_width="0.8"))


def _leaf(x1: float, y1: float, x2: float, y2: float, bulge: float) -> str:
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    nx, ny = -(y2 - y1), x2 - x1
    return draw.path(f"M{_f(x1)} {_f(y1)}Q{_f(mx + nx * bulge)} {_f(my + ny * bulge)} "
                     f"{_f(x2)} {_f(y2)}Q{_f(mx - nx * bulge)} {_f(my - ny * bulge)} "
                     f"{_f(x1)} {_f(y1)}Z", fill=LEAF, stroke=LEAF_DARK, stroke_width="0.8")


def plant(x: float, y: float, size: float) -> str:
    """A potted plant in the middle of the tile, three flowers on its stems."""
    cx, s = x + size / 2, size
    top = y + s * 0.6
    out = [draw.path(f"M{_f(cx)} {_f(top)}L{_f(cx)} {_f(y + s * 0.3)}", stroke=LEAF_DARK,
                     stroke_width=_f(s * 0.04)),
           _leaf(cx, top - s * 0.05, cx - s * 0.2, top - s * 0.2, 0.35),
           _leaf(cx, top - s * 0.1, cx + s * 0.2, top - s * 0.24, -0.35),
           _pot(cx, top, s)]
    fr = s * 0.11
    out += [flower(cx + s * 0.02, y + s * 0.25, fr), flower(cx - s * 0.16, y + s * 0.41, fr),
            flower(cx + s * 0.2, y + s * 0.37, fr)]
    return "".join(out)


def vegetable(x: float, y: float, size: float) -> str:
    """A vegetable patch in the middle of the tile: a round turnip with its leaves in a crate,
    three flowers beside it."""
    cx, s = x + size / 2, size
    by = y + s * 0.55
    out = [_leaf(cx, by - s * 0.1, cx - s * 0.14, by - s * 0.3, 0.3),
           _leaf(cx, by - s * 0.1, cx + s * 0.14, by - s * 0.3, -0.3),
           draw.circle(cx, by, s * 0.14, fill="#f1e6f0", stroke="#5b2a55", stroke_width="1"),
           draw.path(f"M{_f(cx - s * 0.135)} {_f(by - s * 0.02)}A{_f(s * 0.14)} {_f(s * 0.14)} "
                     f"0 0 1 {_f(cx + s * 0.135)} {_f(by - s * 0.02)}Z", fill="#9b3f8e"),
           draw.rect(cx - s * 0.22, by + s * 0.1, s * 0.44, s * 0.12, fill="#a87a44",
                     stroke="#5e3e18", stroke_width="1")]
    fr = s * 0.1
    out += [flower(cx - s * 0.15, by + s * 0.16, fr), flower(cx, by + s * 0.17, fr),
            flower(cx + s * 0.15, by + s * 0.16, fr)]
    return "".join(out)


def meca_face(cx: float, cy: float, size: float) -> str:
    """The Mecha-Botanist: a steel head with an antenna, round lamp eyes, bolts for ears and a
    grille for a mouth; ``size`` is the width of the head with its ears."""
    s = size
    hw, hh = s * 0.62, s * 0.52
    hx, hy = cx - hw / 2, cy - hh / 2 + s * 0.06
    eye = s * 0.11
    out = [
        draw.path(f"M{_f(cx)} {_f(hy)}L{_f(cx)} {_f(hy - s * 0.16)}", stroke=STEEL_DARK,
                  stroke_width=_f(max(1.2, s * 0.04))),
        draw.circle(cx, hy - s * 0.19, s * 0.06, fill="#e8503a", stroke=STEEL_DARK,
                    stroke_width="0.8"),
        draw.rect(hx - s * 0.1, cy - s * 0.02, s * 0.1, s * 0.18, rx=_f(s * 0.03), fill=STEEL,
                  stroke=STEEL_DARK, stroke_width="0.8"),
        draw.rect(hx + hw, cy - s * 0.02, s * 0.1, s * 0.18, rx=_f(s * 0.03), fill=STEEL,
                  stroke=STEEL_DARK, stroke_width="0.8"),
        draw.rect(hx, hy, hw, hh, rx=_f(s * 0.1), fill=STEEL, stroke=STEEL_DARK,
                  stroke_width="1.2"),
        draw.circle(cx - hw * 0.24, hy + hh * 0.36, eye, fill="#1d2a33", stroke=STEEL_DARK,
                    stroke_width="0.8"),
        draw.circle(cx + hw * 0.24, hy + hh * 0.36, eye, fill="#1d2a33", stroke=STEEL_DARK,
                    stroke_width="0.8"),
        draw.circle(cx - hw * 0.24, hy + hh * 0.36, eye * 0.5, fill="#7fe3ff"),
        draw.circle(cx + hw * 0.24, hy + hh * 0.36, eye * 0.5, fill="#7fe3ff"),
        draw.rect(cx - hw * 0.28, hy + hh * 0.66, hw * 0.56, hh * 0.2, rx="1", fill="#2d343b"),
    ]
    for i in (1, 2, 3):
        gx = cx - hw * 0.28 + hw * 0.56 * i / 4
        out.append(draw.path(f"M{_f(gx)} {_f(hy + hh * 0.66)}L{_f(gx)} {_f(hy + hh * 0.86)}",
                             stroke=STEEL, stroke_width="0.8"))
    return draw.group(out, class_="meca-face")


def source(x: float, y: float, size: float, fill: str) -> str:
    """The Source: a steel pump with a pipe on every side and a valve wheel in the middle,
    ringed in its player's colour."""
    cx, cy = x + size / 2, y + size / 2
    r = size * 0.3
    out = [pipes(("N", "E", "S", "W"), x, y, size, hub=False),
           draw.circle(cx, cy, r, fill=fill, stroke=INK, stroke_width="1"),
           draw.circle(cx, cy, r * 0.72, fill=STEEL, stroke=STEEL_DARK, stroke_width="1"),
           draw.circle(cx, cy, r * 0.52, fill="none", stroke=STEEL_DARK,
                       stroke_width=_f(max(1.2, size * 0.045)))]
    for dx, dy in ((1, 0), (0, 1), (0.7, 0.7), (0.7, -0.7)):
        out.append(draw.path(f"M{_f(cx - dx * r * 0.52)} {_f(cy - dy * r * 0.52)}"
                             f"L{_f(cx + dx * r * 0.52)} {_f(cy + dy * r * 0.52)}",
                             stroke=STEEL_DARK, stroke_width=_f(max(1, size * 0.03))))
    out.append(draw.circle(cx, cy, r * 0.2, fill=fill, stroke=INK, stroke_width="0.8"))
    return "".join(out)


def flower_corner(exits: list[str] | tuple[str, ...]) -> tuple[float, float]:
    """Where a pipe tile's flower grows: the corner (not the colour symbol's, top left) beside
    the fewest pipes, bottom right when several are as free."""
    corners = (((0.8, 0.8), "SE"), ((0.8, 0.2), "NE"), ((0.2, 0.8), "SW"))
    return min(corners, key=lambda c: sum(d in exits for d in c[1]))[0]


def tile(letter: str | None, kind: str, exits: list[str] | tuple[str, ...], flowers: int,
         x: float, y: float, size: float, source_fill: str | None = None) -> str:
    """One whole tile: its base in the tile colour (a Source in ``source_fill``), rivets, its
    pipes, what sits on it (plant, vegetable, Mecha-Botanist), its flowers and its colour
    symbol. ``kind`` is the tile type (``straight`` ... ``meca``, ``source``)."""
    s = size
    if kind == "source":
        base = "#8d969f"
        edge = source_fill or INK
    else:
        base = TILE_FILL.get(letter or "", STEEL)
        edge = TILE_EDGE.get(letter or "", INK)
    out = [draw.rect(x, y, s, s, rx=_f(s * 0.1), fill=base, stroke=edge,
                     stroke_width=_f(max(1.0, s * 0.035)), class_="tile-base")]
    if s >= 30:  # rivets in the corners a pipe never crosses
        rv = s * 0.035
        for fx, fy in ((0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9)):
            out.append(draw.circle(x + fx * s, y + fy * s, rv, fill=edge, opacity="0.55"))
    if kind == "source":
        out.append(source(x, y, s, source_fill or STEEL))
        return "".join(out)
    if kind == "meca":
        out.append(meca_face(x + s / 2, y + s * 0.52, s * 0.78))
    else:
        out.append(pipes(exits, x, y, s))
        if kind == "plant":
            out.append(plant(x, y, s))
        elif kind == "vegetable":
            out.append(vegetable(x, y, s))
        elif flowers:
            fx, fy = flower_corner(exits)
            out.append(flower(x + fx * s, y + fy * s, s * 0.13))
    if letter:
        out.append(colour_symbol(letter, x + s * 0.2, y + s * 0.2, s * 0.1))
    return "".join(out)
