"""Kozo pictures: an isometric SVG of the tower and a layer-by-layer terminal view.

Both draw only from the observation. The SVG carries a top-down map of the ring whose squares
have ids ``col-X-Y`` (the targets of placements and balance cubes) beside the isometric tower,
the players with their points (and who placed which piece this round); the results table is
the clients' own. The pieces are drawn in their own colours (they belong to no player); the
players in theirs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.look import INK, seat_name

from .components import LETTERS, PIECE_FILLS, PIECE_RICH, SEAT_COLOURS

BALANCE_FILL = "#202020"
"""Balance cubes are black."""
BASE_FILL = "#d9c7a0"
BASE_EDGE = "#8a7550"
MAP_FILL = "#efe3c8"
CHIMNEY_FILL = "#555555"
FALL_INK = "#b00000"
"""The words saying the tower fell."""

_A = math.cos(math.pi / 6)
_B = 0.5
S = 40.0
"""Cube edge of the isometric view, in pixels."""
CS = 50.0
"""Side of a square of the ring map, in pixels."""
ROW = 22.0
"""Height of a line of the players' list."""


def _shade(hex_colour: str, f: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"#{int(r * f):02x}{int(g * f):02x}{int(b * f):02x}"


def _ink_on(hex_colour: str) -> str:
    """Dark or white letters, whichever reads better on ``hex_colour``."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def _proj(x: float, y: float, z: float, ox: float, oy: float) -> tuple[float, float]:
    return ox + (x - y) * _A * S, oy + (x + y) * _B * S - z * S


def _polygon(corners: Sequence[tuple[float, float, float]], ox: float, oy: float,
             **extra: object) -> str:
    pts = " ".join("{:.1f},{:.1f}".format(*_proj(cx, cy, cz, ox, oy)) for cx, cy, cz in corners)
    return f"<polygon{draw.attrs(points=pts, **extra)}/>"


def _box(x0: float, y0: float, z0: float, e: float, colour: str, ox: float, oy: float,
         cls: str, piece: str | None) -> str:
    """Three visible faces of an axis-aligned cube of edge ``e`` (top, east, north-facing)."""
    x1, y1, z1 = x0 + e, y0 + e, z0 + e
    top = [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    east = [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)]
    north = [(x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1)]
    return draw.group(
        [_polygon(top, ox, oy, fill=_shade(colour, 1.0)),
         _polygon(east, ox, oy, fill=_shade(colour, 0.75)),
         _polygon(north, ox, oy, fill=_shade(colour, 0.55))],
        class_=cls, data_piece=piece,
    )


def placers(observation: dict[str, Any]) -> list[int]:
    """The seat that placed each piece of the current tower: turns follow the seats from the
    round's first player, and every piece in the tower is one successful turn."""
    n = observation.get("players") or 1
    first = observation.get("first_player") or 0
    count = len(observation.get("tower", {}).get("pieces", []))
    return [(first + i) % n for i in range(count)]


def _name(seat: int | None, names: Sequence[str] | None) -> str:
    return seat_name(seat, names) if seat is not None else ""


def status_line(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """What happens now, in a sentence: who acts and what they do (or who won)."""
    if observation.get("terminal"):
        return draw.game_over(observation.get("winners"), names)
    lead = f"Round {observation.get('round')} of {observation.get('rounds')}: "
    active = _name(observation.get("active"), names)
    phase = observation.get("phase")
    size = observation.get("required_size")
    piece = observation.get("required_piece")
    if phase == "place":
        what = "a polycube"
        if piece:
            what = f"piece P{piece}"
        elif size:
            what = f"a polycube of size {size}"
        return lead + f"{active} places {what}"
    if phase == "balance":
        return lead + f"{active} places a balance cube"
    if phase == "choose_size":
        chooser = _name(observation.get("chooser"), names)
        return lead + f"{chooser} chooses the size {active} must play"
    if phase == "choose_piece":
        chooser = _name(observation.get("chooser"), names)
        return lead + f"{chooser} chooses the piece of size {size} {active} must play"
    if phase == "draw":
        return lead + f"a scoring tile is drawn for {active}"
    if phase == "tremor":
        return lead + f"the tower trembles under {active}'s piece"
    return lead.rstrip(": ")


def _fall_sentence(lc: dict[str, Any], names: Sequence[str] | None) -> str:
    what = "balance cube" if lc.get("after") == "balance" else "polycube"
    fell = ", ".join(lc.get("fell") or []) or "the tower"
    return f"The tower fell after {seat_name(lc['player'], names)}'s {what}: fell {fell}."


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """An isometric view of the tower (cubes shaded per piece, balance cubes black), a
    clickable map of the ring and the players with their points and the pieces they placed
    this round (the clients draw the results table)."""
    colours = SEAT_COLOURS
    n = observation.get("players") or 0
    viewer = observation.get("viewer")
    tower = observation.get("tower", {"pieces": [], "balances": []})
    pieces = tower.get("pieces", [])
    balances = tower.get("balances", [])
    zmax = 1
    for p in pieces:
        for c in p["cells"]:
            zmax = max(zmax, c[2] + 1)
    for b in balances:
        zmax = max(zmax, b["height"] + 1)
    head, top_y = draw.header(12, 4, "Kozo", status_line(observation, names))
    ox = 3 * _A * S + 20
    oy = top_y + zmax * S + 20
    tower_w = 6 * _A * S + 40
    tower_h = oy + 3 * S + 30
    body = [
        "<style>.kozo-column{cursor:pointer}.kozo-column:hover{stroke:#000;stroke-width:3}"
        "</style>",
        head,
    ]
    # base squares (top faces at z = 0), chimney left open
    for x, y in observation.get("base", {}).get("ring", []):
        corners = [(x, y, 0), (x + 1, y, 0), (x + 1, y + 1, 0), (x, y + 1, 0)]
        body.append(_polygon(corners, ox, oy, class_="kozo-base", fill=BASE_FILL,
                             stroke=BASE_EDGE))
    # painter's order: farther cubes (smaller x + y, lower z) first
    items: list[tuple[float, int, float, float, int, float, str, str, str | None]] = []
    for p in pieces:
        fill = PIECE_FILLS[p["colour"] % len(PIECE_FILLS)]
        tx, ty = p.get("tremor", [0.0, 0.0])
        for x, y, z in p["cells"]:
            items.append((x + y + z + 0.0, z, x + tx, y + ty, z, 1.0, fill,
                          f"kozo-cube piece-P{p['piece']}", f"P{p['piece']}"))
    for b in balances:
        x, y = b["column"]
        h = b["height"]
        items.append((x + y + h + 0.01, h, x + 0.215, y + 0.215, h, 0.57, BALANCE_FILL,
                      "kozo-balance", None))
    items.sort(key=lambda t: (t[0], t[1]))
    for _, _, x, y, z, e, fill, cls, piece in items:
        body.append(_box(x, y, z, e, fill, ox, oy, cls, piece))
    # the top-down map of the ring, north up
    mx, my = tower_w + 20, top_y + 30
    body.append(draw.text(mx, my - 10, "Ring (north up)", size=13))
    cols = {tuple(c["column"]): c for c in observation.get("columns", [])}
    for y in range(3):
        for x in range(3):
            rx, ry = mx + x * CS, my + (2 - y) * CS
            if (x, y) == (1, 1):
                body.append(draw.rect(rx, ry, CS, CS, fill=CHIMNEY_FILL, class_="kozo-chimney"))
                continue
            c = cols.get((x, y), {"top": 0, "balance": False})
            body.append(draw.rect(rx, ry, CS, CS, fill=MAP_FILL, stroke=BASE_EDGE,
                                  id=f"col-{x}-{y}", class_="kozo-column"))
            body.append(draw.text(rx + 5, ry + 16, f"{x},{y}", size=12,
                                  pointer_events="none"))
            body.append(draw.text(rx + CS / 2, ry + CS - 8, c["top"], size=16,
                                  anchor="middle", pointer_events="none"))
            if c["balance"]:
                body.append(draw.rect(rx + CS - 16, ry + 6, 10, 10, fill=BALANCE_FILL,
                                      pointer_events="none"))
    y = my + 3 * CS + 24
    right_w = 3 * CS
    lc = observation.get("last_check")
    if lc and lc.get("result") == "fallen":
        sentence = _fall_sentence(lc, names)
        body.append(draw.text(mx, y, sentence, size=13, fill=FALL_INK, class_="kozo-fall"))
        right_w = max(right_w, 7.2 * len(sentence))
        y += 22
    # the players: points (game total and this round) and the pieces they placed this round
    if n:
        final = bool(observation.get("terminal"))
        totals = observation.get("totals") or [0] * n
        rounds = observation.get("round_points") or [0] * n
        placed: dict[int, list[dict[str, Any]]] = {}
        for chip, seat in zip(pieces, placers(observation), strict=True):
            placed.setdefault(seat, []).append(chip)
        acting = None if final else observation.get("chooser")
        if acting is None and not final:
            acting = observation.get("active")
        name_w = max(len(draw.player_name(p, names, viewer)) for p in range(n)) * 8 + 34
        for p in range(n):
            y += ROW
            score = totals[p]
            info = "" if final else f"{rounds[p]} this round"
            line_w = name_w + (70 if final else 170)
            body.append(draw.player_line(p, colours, names, mx, y, line_w, score,
                                         viewer=viewer, current=p == acting, info=info))
            px = mx + line_w + 8
            for chip in placed.get(p, []):
                fill = PIECE_FILLS[chip["colour"] % len(PIECE_FILLS)]
                body.append(draw.group(
                    [draw.rect(px, y - 13, 16, 16, fill=fill, stroke=INK, stroke_width="0.6"),
                     draw.text(px + 8, y - 1, chip["letter"], size=11, anchor="middle",
                               fill=_ink_on(fill))],
                    class_="kozo-placed", data_piece=f"P{chip['piece']}",
                    data_seat=p))
                px += 19
            right_w = max(right_w, px - mx)
        y += 10
    width = max(tower_w + 20 + right_w + 20, 420.0)
    height = max(tower_h, y + 10, 260.0)
    return draw.document(width, height, body, cls="kozo-board", label="Kozo tower")


def _layers(tower: dict[str, Any]) -> list[list[list[str]]]:
    grid: dict[tuple[int, int, int], str] = {}
    zmax = 0
    for p in tower.get("pieces", []):
        letter = p.get("letter") or LETTERS[p["piece"] - 1]
        rich = PIECE_RICH[p["colour"] % len(PIECE_RICH)]
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


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The tower layer by layer (piece letters, ``o`` a balance cube, ``#`` the chimney, north
    up), the pieces left, the players' points and what happened last."""
    lines = []
    n = observation.get("players", 0)
    viewer = observation.get("viewer")
    lines.append(f"[bold]Kozo[/]  {draw.plain(status_line(observation, names))}")
    lc = observation.get("last_check")
    if lc and lc.get("result") == "fallen":
        lines.append(f"[bold red]{draw.plain(_fall_sentence(lc, names))}[/]")
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
            f"[{PIECE_RICH[p['colour'] % len(PIECE_RICH)]}]{p['letter']}[/]=P{p['piece']} "
            f"{p['name']} ({p['size']}, {p['orientations']} turns)" for p in left))
    if observation.get("phase") == "place":
        lines.append("[dim]Type a piece alone (e.g. P7) to see its orientations.[/]")
    if observation.get("tiles_face_down") is not None:
        lines.append("Face-down tiles: " + " ".join(map(str, observation["tiles_face_down"])))
    if observation.get("terminal"):  # the clients draw the results table
        return "\n".join(lines)
    rp = observation.get("round_points", [0] * n)
    tot = observation.get("totals", [0] * n)
    placed: dict[int, list[str]] = {}
    built_now = observation.get("tower", {}).get("pieces", [])
    for piece, seat in zip(built_now, placers(observation), strict=True):
        placed.setdefault(seat, []).append(f"P{piece['piece']}")
    acting = observation.get("chooser")
    if acting is None:
        acting = observation.get("active")
    width = draw.who_width(n, names, viewer)
    lines.append("Points:")
    for p in range(len(tot)):
        mine = placed.get(p)
        built = f"; placed {', '.join(mine)} this round" if mine else ""
        who = draw.who(p, SEAT_COLOURS, names, viewer, current=p == acting, width=width)
        lines.append(f"  {who}  {draw.points(tot[p])} in the game, {rp[p]} this round{built}")
    return "\n".join(lines)
