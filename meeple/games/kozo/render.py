"""Kozo pictures: an isometric SVG of the tower and a layer-by-layer terminal view.

Both draw only from the observation. The SVG carries a top-down map of the ring whose squares
have ids ``col-X-Y`` (the targets of placements and balance cubes) beside the isometric tower.
"""

from __future__ import annotations

import math
from typing import Any

from meeple.engine import scores

from .components import LETTERS

COLOURS = (
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4",
    "#46f0f0", "#f032e6", "#bcf60c", "#fabebe", "#008080", "#9a6324",
)
"""One colour per piece (colour index = piece number - 1)."""
RICH = (
    "red", "green", "yellow", "blue", "dark_orange", "purple",
    "cyan", "magenta", "bright_green", "pink1", "dark_cyan", "orange4",
)

_A = math.cos(math.pi / 6)
_B = 0.5


def _shade(hex_colour: str, f: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"#{int(r * f):02x}{int(g * f):02x}{int(b * f):02x}"


def _proj(x: float, y: float, z: float, s: float, ox: float, oy: float) -> tuple[float, float]:
    return ox + (x - y) * _A * s, oy + (x + y) * _B * s - z * s


def _box(x0, y0, z0, e, colour, s, ox, oy, cls, extra=""):
    """Three visible faces of an axis-aligned cube of edge ``e`` (top, east, south-facing)."""
    def pts(corners):
        return " ".join(
            "{:.1f},{:.1f}".format(*_proj(cx, cy, cz, s, ox, oy)) for cx, cy, cz in corners
        )

    x1, y1, z1 = x0 + e, y0 + e, z0 + e
    top = [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    east = [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)]
    north = [(x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1)]
    return (
        f'<g class="{cls}"{extra}>'
        f'<polygon points="{pts(top)}" fill="{_shade(colour, 1.0)}"/>'
        f'<polygon points="{pts(east)}" fill="{_shade(colour, 0.75)}"/>'
        f'<polygon points="{pts(north)}" fill="{_shade(colour, 0.55)}"/>'
        "</g>"
    )


def svg(observation: dict[str, Any]) -> str:
    """An isometric view of the tower (cubes shaded per piece, balance cubes black) and a
    clickable map of the ring."""
    tower = observation.get("tower", {"pieces": [], "balances": []})
    pieces = tower.get("pieces", [])
    balances = tower.get("balances", [])
    zmax = 1
    for p in pieces:
        for c in p["cells"]:
            zmax = max(zmax, c[2] + 1)
    for b in balances:
        zmax = max(zmax, b["height"] + 1)
    s = 40.0
    ox = 3 * _A * s + 20
    oy = zmax * s + 20
    width = 6 * _A * s + 40
    height = oy + 3 * s + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width + 200:.0f} '
        f'{max(height, 260):.0f}" class="kozo-board">',
        "<style>.kozo-column{cursor:pointer}.kozo-column:hover{stroke:#000;stroke-width:3}"
        "text{font-family:sans-serif}</style>",
    ]
    # base squares (top faces at z = 0), chimney left open
    for x, y in observation.get("base", {}).get("ring", []):
        corners = [(x, y, 0), (x + 1, y, 0), (x + 1, y + 1, 0), (x, y + 1, 0)]
        pts = " ".join(
            "{:.1f},{:.1f}".format(*_proj(cx, cy, cz, s, ox, oy)) for cx, cy, cz in corners
        )
        parts.append(f'<polygon class="kozo-base" points="{pts}" fill="#d9c7a0" '
                     'stroke="#8a7550"/>')
    # painter's order: farther cubes (smaller x + y, lower z) first
    items = []
    for p in pieces:
        colour = COLOURS[p["colour"] % len(COLOURS)]
        tx, ty = p.get("tremor", [0.0, 0.0])
        for x, y, z in p["cells"]:
            items.append((x + y + z + 0.0, z, x + tx, y + ty, z, 1.0, colour,
                          f"kozo-cube piece-P{p['piece']}", f' data-piece="P{p["piece"]}"'))
    for b in balances:
        x, y = b["column"]
        h = b["height"]
        items.append((x + y + h + 0.01, h, x + 0.215, y + 0.215, h, 0.57, "#202020",
                      "kozo-balance", ""))
    items.sort(key=lambda t: (t[0], t[1]))
    for _, _, x, y, z, e, colour, cls, extra in items:
        parts.append(_box(x, y, z, e, colour, s, ox, oy, cls, extra))
    # the top-down map of the ring, north up
    mx, my, cs = width + 20, 40.0, 50.0
    parts.append(f'<text x="{mx}" y="{my - 10}" font-size="13">ring (north up)</text>')
    cols = {tuple(c["column"]): c for c in observation.get("columns", [])}
    for y in range(3):
        for x in range(3):
            rx, ry = mx + x * cs, my + (2 - y) * cs
            if (x, y) == (1, 1):
                parts.append(f'<rect x="{rx}" y="{ry}" width="{cs}" height="{cs}" '
                             'fill="#555" class="kozo-chimney"/>')
                continue
            c = cols.get((x, y), {"top": 0, "balance": False})
            parts.append(
                f'<rect id="col-{x}-{y}" class="kozo-column" x="{rx}" y="{ry}" width="{cs}" '
                f'height="{cs}" fill="#efe3c8" stroke="#8a7550"/>'
            )
            parts.append(f'<text x="{rx + 5}" y="{ry + 16}" font-size="12" '
                         f'pointer-events="none">{x},{y}</text>')
            parts.append(f'<text x="{rx + cs / 2}" y="{ry + cs - 8}" font-size="16" '
                         f'text-anchor="middle" pointer-events="none">{c["top"]}</text>')
            if c["balance"]:
                parts.append(f'<rect x="{rx + cs - 16}" y="{ry + 6}" width="10" height="10" '
                             'fill="#202020" pointer-events="none"/>')
    lc = observation.get("last_check")
    if lc and lc.get("result") == "fallen":
        parts.append(f'<text x="{mx}" y="{my + 3 * cs + 25}" font-size="13" fill="#b00">'
                     f'fell: {" ".join(lc.get("fell", []))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _layers(tower: dict[str, Any]) -> list[list[list[str]]]:
    grid: dict[tuple[int, int, int], str] = {}
    zmax = 0
    for p in tower.get("pieces", []):
        letter = p.get("letter") or LETTERS[p["piece"] - 1]
        rich = RICH[p["colour"] % len(RICH)]
        for x, y, z in p["cells"]:
            grid[(x, y, z)] = f"[bold {rich}]{letter}[/]"
            zmax = max(zmax, z + 1)
    for b in tower.get("balances", []):
        x, y = b["column"]
        grid[(x, y, b["height"])] = "[bold white on black]o[/]"
        zmax = max(zmax, b["height"] + 1)
    layers = []
    for z in range(zmax):
        rows = []
        for y in (2, 1, 0):
            row = []
            for x in range(3):
                if (x, y) == (1, 1):
                    row.append("[dim]#[/]")
                else:
                    row.append(grid.get((x, y, z), "[dim].[/]"))
            rows.append(row)
        layers.append(rows)
    return layers


def text(observation: dict[str, Any]) -> str:
    """The tower layer by layer (piece letters, ``o`` a balance cube, ``#`` the chimney, north
    up), the pieces left, scores and what happened last."""
    lines = []
    n = observation.get("players", 0)
    lines.append(
        f"[bold]Kozo[/] round {observation.get('round')}/{observation.get('rounds')}  "
        f"phase: {observation.get('phase')}"
    )
    if not observation.get("terminal"):
        act = observation.get("active")
        who = f"P{act} to play" if act is not None else ""
        if observation.get("chooser") is not None:
            who += f"; P{observation['chooser']} chooses for them"
        if observation.get("required_size"):
            who += f"; size {observation['required_size']} required"
        if observation.get("required_piece"):
            who += f"; piece P{observation['required_piece']} required"
        lines.append(who)
    lc = observation.get("last_check")
    if lc and lc.get("result") == "fallen":
        fell = ", ".join(lc.get("fell") or []) or "the tower"
        lines.append(
            f"[bold red]The tower fell[/] after P{lc['player']}'s {lc['after']} "
            f"({lc['referee']} referee): fell {fell}."
        )
    tower = observation.get("tower", {"pieces": [], "balances": []})
    title = "Tower, layer by layer (z = height; north up; o = balance cube):"
    if not tower.get("pieces") and lc and lc.get("result") == "fallen":
        tower = lc["scene"]
        title = "The tower that fell, layer by layer (z = height; north up; o = balance cube):"
    layers = _layers(tower)
    if layers:
        lines.append(title)
        per_row = 6
        for start in range(0, len(layers), per_row):
            chunk = list(range(start, min(start + per_row, len(layers))))
            lines.append("  ".join(f"z={z:<3}" for z in chunk))
            for r in range(3):
                lines.append("  ".join(" ".join(layers[z][r]) + " " for z in chunk))
    else:
        lines.append("The base is empty (# is the chimney).")
    cols = observation.get("columns", [])
    if cols:
        lines.append("Column tops: " + "  ".join(
            f"{c['column'][0]},{c['column'][1]}:{c['top']}{'o' if c['balance'] else ''}"
            for c in cols))
    left = observation.get("pieces_left", [])
    if left:
        lines.append("Pieces left: " + "  ".join(
            f"[{RICH[p['colour'] % len(RICH)]}]{p['letter']}[/]=P{p['piece']} {p['name']} "
            f"({p['size']}, {p['orientations']} turns)" for p in left))
    if observation.get("phase") == "place":
        lines.append("[dim]Type a piece alone (e.g. P7) to see its orientations.[/]")
    if observation.get("tiles_face_down") is not None:
        lines.append("Face-down tiles: " + " ".join(map(str, observation["tiles_face_down"])))
    rp = observation.get("round_points", [0] * n)
    tot = observation.get("totals", [0] * n)
    lines.append("Scores: " + "  ".join(
        f"P{p} {tot[p]}+{rp[p]}" for p in range(len(tot))) + "  (game total + this round)")
    if observation.get("final_breakdown"):
        lines.append("[bold]Final:[/]")
        lines.append(scores.score_table_text(scores.score_lines(observation), None,
                                             observation.get("ranks")))
    return "\n".join(lines)
