"""Kozo pictures: the tower of wooden pieces seen from the south-west, the ring seen from
above (its squares, ids ``col-X-Y``, are the targets of placements and balance cubes), the
players and the pieces left; and the same in the terminal, layer by layer.

Both draw only from the observation. The pieces belong to no player: each is wood stained in
its own colour and carries its letter; the players have their own colours and symbols. The
results table is the clients' own.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.i18n import words
from meeple.engine.look import HIGHLIGHT, MUTED, seat_name

from . import art
from .components import (
    LETTERS,
    PIECE_NAMES,
    PIECE_RICH,
    PIECES,
    SEAT_COLOURS,
    piece_name,
    piece_object,
)
from .notation import column

_, _n = words(__file__)

BALANCE_FILL = art.BALANCE_FILL
"""Balance cubes are black."""
FALL_INK = "#b00000"
"""The words saying the tower fell."""
W = 360.0
"""Width of the picture: a phone shows it at about its own size."""
M = 12.0
"""Margin."""
CS = 52.0
"""Side of a square of the ring seen from above."""
TOWER_W = 176.0
"""Width of the tower's drawing, left of the ring."""
TOWER_H = 330.0
"""Greatest height of the tower's drawing."""
ROW = 32.0
"""Height of a line of the players' list."""
LABEL = 21.0
"""Size of a player's name and mark: the symbol on the mark (0.575 of it) reads on a phone."""
CELL_W, CELL_H = 84.0, 58.0
"""One piece of the pieces left."""
STYLE = (
    "<style>"
    ".kozo-column{cursor:pointer;fill:#fff;fill-opacity:0;stroke:none}"
    ".kozo-column.target{stroke:" + HIGHLIGHT + ";stroke-width:4;fill:" + HIGHLIGHT
    + ";fill-opacity:.14}"
    ".kozo-column.target:hover,.kozo-column.preview-target{fill-opacity:.38}"
    ".kozo-fell polygon{stroke:" + FALL_INK + ";stroke-width:1.8;stroke-dasharray:4 2}"
    "</style>"
)
"""The ring's squares: invisible until the client marks them as legal places (``target``)."""


def placers(observation: dict[str, Any]) -> list[int]:
    """The seat that placed each piece of the current tower: turns follow the seats from the
    round's first player, and every piece in the tower is one successful turn."""
    n = observation.get("players") or 1
    first = observation.get("first_player") or 0
    count = len(observation.get("tower", {}).get("pieces", []))
    return [(first + i) % n for i in range(count)]


def _name(seat: int | None, names: Sequence[str] | None) -> str:
    return seat_name(seat, names) if seat is not None else ""


def _round_words(observation: dict[str, Any]) -> str:
    return _("Round {round} of {rounds}", round=observation.get("round") or 0,
             rounds=observation.get("rounds") or 0)


def _doing(observation: dict[str, Any], names: Sequence[str] | None) -> str:
    """Who acts now and what they do, or "" between the phases."""
    active = _name(observation.get("active"), names)
    phase = observation.get("phase")
    size = observation.get("required_size")
    piece = observation.get("required_piece")
    if phase == "place":
        if piece:
            return _("{player} places {piece}", player=active, piece=piece_object(piece))
        if size:
            return _("{player} places a polycube of size {size}", player=active, size=size)
        return _("{player} places a polycube", player=active)
    if phase == "balance":
        return _("{player} places a balance cube", player=active)
    chooser = _name(observation.get("chooser"), names)
    if phase == "choose_size":
        return _("{chooser} chooses the size {player} must play", chooser=chooser,
                 player=active)
    if phase == "choose_piece":
        return _("{chooser} chooses the piece of size {size} {player} must play",
                 chooser=chooser, size=size, player=active)
    if phase == "draw":
        return _("a scoring tile is drawn for {player}", player=active)
    if phase == "tremor":
        return _("the tower trembles under {player}'s piece", player=active)
    return ""


def status_line(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """What happens now, in a sentence: who acts and what they do (or who won)."""
    if observation.get("terminal"):
        return draw.game_over(observation.get("winners"), names)
    doing = _doing(observation, names)
    if not doing:
        return _round_words(observation)
    return _("{round}: {doing}", round=_round_words(observation), doing=doing)


def _fallen_words(lc: dict[str, Any]) -> list[str]:
    """What fell, in words: "I-tricube (B)", "2 balance cubes"."""
    scene = lc.get("scene") or {}
    by_code = {f"P{p['piece']}": p["piece"] for p in scene.get("pieces", [])}
    fell, cubes = [], 0
    for code in lc.get("fell") or []:
        if code in by_code:
            fell.append(piece_name(by_code[code]))
        else:
            cubes += 1
    if cubes:
        fell.append(_n("a balance cube", "{n} balance cubes", cubes))
    return fell


def fall_sentence(lc: dict[str, Any], names: Sequence[str] | None) -> str:
    """Who toppled the tower, with what, and what fell."""
    who = seat_name(lc["player"], names)
    fell = _fallen_words(lc)
    listed = draw.and_list(fell)
    if lc.get("after") == "balance":
        if fell:
            return _("{player} toppled the tower with a balance cube. Fallen: {fallen}.",
                     player=who, fallen=listed)
        return _("{player} toppled the tower with a balance cube.", player=who)
    if fell:
        return _("{player} toppled the tower with a polycube. Fallen: {fallen}.",
                 player=who, fallen=listed)
    return _("{player} toppled the tower with a polycube.", player=who)


def last_move(observation: dict[str, Any]) -> tuple[str, int] | None:
    """The last placement the observation shows, as ``("piece", i)`` or ``("balance", i)``
    (an index into the tower drawn: the current one, or after a fall the one that fell)."""
    lc = observation.get("last_check")
    if not lc:
        return None
    tower = _shown_tower(observation)
    kind = "balance" if lc.get("after") == "balance" else "piece"
    items = tower.get("balances" if kind == "balance" else "pieces", [])
    return (kind, len(items) - 1) if items else None


def _shown_tower(observation: dict[str, Any]) -> dict[str, Any]:
    """The tower to draw: the current one, or the one that fell while the base is empty."""
    tower = observation.get("tower") or {"pieces": [], "balances": []}
    lc = observation.get("last_check")
    if not tower.get("pieces") and lc and lc.get("result") == "fallen":
        return lc.get("scene") or tower
    return tower


def _lines(x: float, y: float, words: str, size: float, width: float, gap: float,
           **extra: Any) -> tuple[list[str], float]:
    """Wrapped text from baseline ``y``; the SVG and the baseline after the last line."""
    out = []
    for line in draw.wrap(words, width, size):
        out.append(draw.text(x, y, line, size=size, **extra))
        y += gap
    return out, y


# -- the tower ---------------------------------------------------------------------------------
def _tower_view(observation: dict[str, Any], top: float, names: Sequence[str] | None,
                left: float, width: float) -> tuple[list[str], float]:
    """The tower from the south-west on its board, the chimney open, in ``width`` pixels
    from ``left``; its SVG and height."""
    tower = _shown_tower(observation)
    fallen_scene = tower is not observation.get("tower")
    pieces = tower.get("pieces", [])
    balances = tower.get("balances", [])
    zmax = 1.0
    for p in pieces:
        for c in p["cells"]:
            zmax = max(zmax, c[2] + 1)
    for b in balances:
        zmax = max(zmax, b["height"] + 0.6)
    s = min(width / (6 * art.A), TOWER_H / (zmax * art.H + 6 * art.B + 0.35))
    body: list[str] = []
    oy = top + 8 + (zmax * art.H + 6 * art.B) * s
    iso = art.Iso(s, left + width / 2, oy)
    body.append(f"<defs>{iso.grain_defs('kozo-grain')}</defs>")
    body += _board(iso, observation)
    lm = last_move(observation)
    fell = set((observation.get("last_check") or {}).get("fell") or []) if fallen_scene else set()
    placed = placers(observation) if not fallen_scene else []
    occupied: set[tuple[float, float, float]] = set()
    for p in pieces:
        occupied.update((c[0], c[1], c[2]) for c in p["cells"])
    capped = {(b["column"][0], b["column"][1], b["height"] - 1) for b in balances}
    items: list[tuple[float, float, list[str]]] = []
    for i, p in enumerate(pieces):
        fill = art.tint(p["colour"])
        tx, ty = p.get("tremor") or [0.0, 0.0]
        cls = "last-move" if lm == ("piece", i) else None
        tip = draw.title(_("{piece}, placed by {player}", piece=piece_name(p["piece"]),
                           player=seat_name(placed[i], names)) if i < len(placed)
                         else piece_name(p["piece"]))
        group_cls = f"kozo-cube piece-P{p['piece']}" + (" kozo-fell" if
                                                        f"P{p['piece']}" in fell else "")
        label, on = _label_place(p["cells"], occupied, capped)
        for x, y, z in p["cells"]:
            faces = iso.cube(x + tx, y + ty, z, 1.0, fill, grain="kozo-grain", cls=cls,
                             hidden=art.hidden_faces(occupied, x, y, z))
            if (x, y, z) == label:
                if on == "top":
                    px, py = iso.point(x + tx + 0.5, y + ty + 0.5, z + 1)
                    face = fill
                else:
                    px, py = iso.point(x + tx + 0.5, y + ty, z + 0.5)
                    face = art.shade(fill, art.FACE_SHADE["south"])
                size = max(12.0, min(17.0, s * 0.36))
                faces.append(draw.text(px, py + size * 0.36, p["letter"], size=size,
                                       anchor="middle", weight="bold",
                                       fill=art.ink_on(face), pointer_events="none"))
            items.append((z - x - y, z, [draw.group(
                [tip, *faces], class_=group_cls, data_piece=f"P{p['piece']}")]))
    codes = [f"B@{b['column'][0]},{b['column'][1]}" for b in balances]
    for i, b in enumerate(balances):
        x, y = b["column"]
        h = b["height"]
        e = 0.57
        cls = "last-move" if lm == ("balance", i) else None
        faces = iso.cube(x + 0.215, y + 0.215, h, e, BALANCE_FILL, cls=cls)
        items.append((h - x - y + 0.01, h, [draw.group(
            [draw.title(_("Balance cube on column {column}", column=column((x, y)))),
             *faces],
            class_="kozo-balance" + (" kozo-fell" if codes[i] in fell else ""))]))
    items.sort(key=lambda t: (t[0], t[1]))
    for *_rest, svg in items:
        body += svg
    return body, oy + 0.35 * s + 8 - top


def _label_place(cells: Sequence[Sequence[float]], occupied: set[tuple[float, float, float]],
                 capped: set[tuple[float, float, float]]) -> tuple[tuple[float, ...] | None, str]:
    """Where a piece's letter goes: its highest open top face, else (under balance cubes) the
    highest open south face; the cell and the face."""
    tops = [tuple(c) for c in cells if (c[0], c[1], c[2] + 1) not in occupied
            and (c[0], c[1], c[2]) not in capped]
    if tops:
        return max(tops, key=lambda c: (c[2], -c[0] - c[1])), "top"
    south = [tuple(c) for c in cells if (c[0], c[1] - 1, c[2]) not in occupied]
    if south:
        return max(south, key=lambda c: (c[2], -c[1])), "south"
    return None, "top"


def _board(iso: art.Iso, observation: dict[str, Any]) -> list[str]:
    """The wooden base: eight ring squares on a board, the chimney an open hole."""
    t = 0.35
    out = [
        f'<polygon points="{iso.points([(0, 0, 0), (3, 0, 0), (3, 0, -t), (0, 0, -t)])}" '
        f'fill="{art.shade(art.WOOD, 0.72)}" stroke="{art.WOOD_DARK}"/>',
        f'<polygon points="{iso.points([(0, 0, 0), (0, 3, 0), (0, 3, -t), (0, 0, -t)])}" '
        f'fill="{art.shade(art.WOOD, 0.58)}" stroke="{art.WOOD_DARK}"/>',
    ]
    ring = observation.get("base", {}).get("ring") or [
        [x, y] for y in range(3) for x in range(3) if (x, y) != (1, 1)]
    for x, y in ring:
        pts = iso.points([(x, y, 0), (x + 1, y, 0), (x + 1, y + 1, 0), (x, y + 1, 0)])
        out.append(f'<polygon class="kozo-base" points="{pts}" fill="{art.WOOD}" '
                   f'stroke="{art.WOOD_DARK}" stroke-width="1.2"/>')
        out.append(f'<polygon points="{pts}" fill="url(#kozo-grain-top)"/>')
    cx, cy = observation.get("base", {}).get("chimney") or [1, 1]
    out.append(draw.group([
        f'<polygon points="{iso.points([(cx, cy, 0), (cx + 1, cy, 0), (cx + 1, cy + 1, 0), (cx, cy + 1, 0)])}" '  # noqa: E501
        f'fill="{art.HOLE}"/>',
        f'<polygon points="{iso.points([(cx, cy + 1, 0), (cx + 1, cy + 1, 0), (cx + 1, cy + 1, -t), (cx, cy + 1, -t)])}" '  # noqa: E501
        f'fill="{art.shade(art.WOOD, 0.45)}"/>',
        f'<polygon points="{iso.points([(cx + 1, cy, 0), (cx + 1, cy + 1, 0), (cx + 1, cy + 1, -t), (cx + 1, cy, -t)])}" '  # noqa: E501
        f'fill="{art.shade(art.WOOD, 0.34)}"/>',
        draw.title(_("The chimney: the open middle of the ring, never covered")),
    ], class_="kozo-chimney"))
    return out


# -- the ring from above -----------------------------------------------------------------------
def _plan(observation: dict[str, Any], top: float, left: float) -> tuple[list[str], float]:
    """The ring seen from above, north up: per column the piece on top (its wood and letter),
    the height and a balance cube; the squares are the click targets."""
    tower = observation.get("tower") or {"pieces": [], "balances": []}
    tops: dict[tuple[int, int], tuple[float, dict[str, Any]]] = {}
    for p in tower.get("pieces", []):
        for x, y, z in p["cells"]:
            if (x, y) not in tops or z > tops[(x, y)][0]:
                tops[(x, y)] = (z, p)
    cols = {tuple(c["column"]): c for c in observation.get("columns", [])}
    lm = last_move(observation) if observation.get("tower", {}).get("pieces") else None
    marked: set[tuple[int, int]] = set()
    if lm and lm[0] == "piece":
        marked = {(c[0], c[1]) for c in tower["pieces"][lm[1]]["cells"]}
    elif lm:
        x, y = tower["balances"][lm[1]]["column"]
        marked = {(x, y)}
    body = [draw.text(left, top + 14, _("From above, N ↑"), size=13, weight="bold")]
    y0 = top + 22
    squares, targets = [], []
    for row in range(3):
        for x in range(3):
            y = 2 - row
            rx, ry = left + x * CS, y0 + row * CS
            if (x, y) == (1, 1):
                squares.append(draw.group([
                    draw.rect(rx, ry, CS, CS, fill=art.HOLE, stroke=art.WOOD_DARK),
                    draw.rect(rx + 4, ry + 4, CS - 8, CS - 8, fill="#14100b"),
                    draw.text(rx + CS / 2, ry + CS / 2 + 4, _("chimney"), size=12,
                              anchor="middle", fill="#e8dcc8", textLength=f"{CS - 8:g}",
                              lengthAdjust="spacingAndGlyphs"),
                    draw.title(_("The chimney: the open middle of the ring, never covered")),
                ], class_="kozo-chimney"))
                continue
            c = cols.get((x, y), {"top": 0, "balance": False})
            on_top = tops.get((x, y))
            fill = art.tint(on_top[1]["colour"]) if on_top else art.WOOD
            ink = art.ink_on(fill)
            cell = [draw.rect(rx, ry, CS, CS, fill=fill, stroke=art.WOOD_DARK,
                              stroke_width="1.5"),
                    draw.rect(rx, ry, CS, CS, fill="url(#kozo-grain-plan)"),
                    _square_name(rx, ry, column((x, y)), ink)]
            if on_top:
                cell.append(draw.text(rx + 5, ry + CS - 7, on_top[1]["letter"], size=20,
                                      weight="bold", fill=ink))
            if c["top"]:
                cell.append(draw.text(rx + CS - 5, ry + CS - 7, f"↑{c['top']}", size=14,
                                      anchor="end", weight="bold", fill=ink))
            if c["balance"]:
                # in the middle of the square, where the cube sits, clear of the words
                cell.append(draw.rect(rx + CS / 2 - 6, ry + 20, 13, 13, fill=BALANCE_FILL,
                                      stroke="#000", rx="2"))
                cell.append(draw.rect(rx + CS / 2 - 3, ry + 23, 4, 4, fill="#5a524a"))
            if (x, y) in marked:
                cell.append(draw.rect(rx + 3, ry + 3, CS - 6, CS - 6, class_="last-move",
                                      fill="none"))
            squares.append(draw.group(cell, pointer_events="none"))
            if on_top:
                what = _("{piece} on top, height {height}", piece=piece_name(on_top[1]["piece"]),
                         height=c["top"])
            elif c["top"]:
                what = _("height {height}", height=c["top"])
            else:
                what = _("empty")
            if c["balance"]:
                what = _("{what}, with a balance cube", what=what)
            a = draw.attrs(x=f"{rx:g}", y=f"{ry:g}", width=f"{CS:g}", height=f"{CS:g}",
                           id=f"col-{x}-{y}", class_="kozo-column")
            tip = _("Column {column}: {what}", column=column((x, y)), what=what)
            targets.append(f"<rect{a}>{draw.title(tip)}</rect>")
    body += squares + targets
    body.append(draw.text(left, y0 + 3 * CS + 16, _("letter on top · ↑ height"), size=12,
                          fill=MUTED))
    return body, 22 + 3 * CS + 22


def _square_name(rx: float, ry: float, words: str, ink: str) -> str:
    """A ring square's name as the log says it ("north-west"), squeezed to fit the square."""
    room = CS - 5
    fit = {"textLength": f"{room:g}", "lengthAdjust": "spacingAndGlyphs"} \
        if draw.text_width(words, 12) > room else {}
    return draw.text(rx + 2.5, ry + 13, words, size=12, fill=ink, class_="kozo-square-name",
                     **fit)


# -- players and pieces ------------------------------------------------------------------------
def _players(observation: dict[str, Any], names: Sequence[str] | None, top: float
             ) -> tuple[list[str], float]:
    """One line per player (mark, name, points), with the pieces they placed this round and
    the rounds in which they toppled the tower."""
    n = observation.get("players") or 0
    if not n:
        return [], 0.0
    viewer = observation.get("viewer")
    final = bool(observation.get("terminal"))
    totals = observation.get("totals") or [0] * n
    rounds = observation.get("round_points") or [0] * n
    placed: dict[int, list[dict[str, Any]]] = {}
    for chip, seat in zip(observation.get("tower", {}).get("pieces", []),
                          placers(observation), strict=True):
        placed.setdefault(seat, []).append(chip)
    toppled: dict[int, list[int]] = {}
    for r in observation.get("round_log") or []:
        if r.get("end") == "fall" and r.get("faller") is not None:
            toppled.setdefault(r["faller"], []).append(r["round"])
    acting = None if final else observation.get("chooser")
    if acting is None and not final:
        acting = observation.get("active")
    body = []
    y = top
    for p in range(n):
        y += ROW
        right = " · ".join([*([] if final else [_("{points} this round", points=rounds[p])]),
                            _n("{n} point", "{n} points", totals[p])])
        name_w = draw.label_width(p, names, viewer, size=LABEL)
        right_w = draw.text_width(right, 13)
        beside = name_w + right_w + 12 <= W - 2 * M
        room = W - 2 * M - (right_w + 12 if beside else 0)
        name_w = min(name_w, room)
        line = [draw.player_label(p, SEAT_COLOURS, names, M, y, size=LABEL, viewer=viewer,
                                  current=p == acting, room=room)]
        if beside:
            line.append(draw.text(W - M, y - 3, right, size=13, anchor="end", class_="score"))
        else:
            y += 18
            line.append(draw.text(M + 1.3 * LABEL, y, right, size=13, class_="score"))
        body.append(draw.group(line, class_="player-line", data_seat=p))
        extra = []
        mine = placed.get(p, [])
        px = M + name_w + 8
        if not mine or px + 23 * len(mine) + right_w + 8 > W - M:
            px = M + 1.3 * LABEL
            chip_y = y + 6
            below = bool(mine)
        else:
            chip_y, below = y - 16, False
        for chip in mine:
            extra.append(draw.group(
                [*_chip(px, chip_y, chip["colour"], chip["letter"], 20),
                 draw.title(_("{player} placed {piece}", player=seat_name(p, names),
                              piece=piece_object(chip["piece"])))],
                class_="kozo-placed", data_piece=f"P{chip['piece']}", data_seat=p))
            px += 23
        if below:
            y += 26
        if p in toppled:
            rs = toppled[p]
            said = _n("toppled the tower in round {rounds}", "toppled the tower in rounds {rounds}",
                      len(rs), rounds=draw.and_list([str(r) for r in rs]))
            y += 18
            extra.append(draw.text(M + 1.3 * LABEL, y, said, size=12, fill=FALL_INK,
                                   class_="kozo-fall"))
        body += extra
    return body, y - top + 12


def _chip(x: float, y: float, colour: int, letter: str, side: float) -> list[str]:
    """A piece's letter on a square of its wood."""
    fill = art.tint(colour)
    return [draw.rect(x, y, side, side, fill=fill, stroke=art.shade(fill, 0.6), rx="2"),
            draw.text(x + side / 2, y + side / 2 + 4.3, letter, size=12, anchor="middle",
                      weight="bold", fill=art.ink_on(fill))]


def _pieces_left(observation: dict[str, Any], top: float) -> tuple[list[str], float]:
    """The pieces still to place, each drawn in its resting pose with its letter, name and
    size; the piece (or the size) that must be played stands out."""
    left = observation.get("pieces_left") or []
    if not left or observation.get("terminal"):
        return [], 0.0
    size = observation.get("required_size")
    piece = observation.get("required_piece")
    body = [draw.text(M, top + 14, _("Pieces left"), size=13, weight="bold")]
    y0 = top + 22
    for i, p in enumerate(left):
        r, c = divmod(i, 4)
        x, y = M + c * CELL_W, y0 + r * CELL_H
        chosen = p["piece"] == piece or (not piece and size and p["size"] == size)
        dim = bool((piece and p["piece"] != piece) or (size and p["size"] != size))
        cubes = PIECES[p["piece"] - 1][1]
        cell = art.piece_icon(cubes, p["colour"], x + CELL_W / 2, y + 28, 8.5)
        name = _(PIECE_NAMES[p["piece"] - 1])
        cubes_said = _n("{n} cube", "{n} cubes", p["size"])
        cell.append(draw.text(x + CELL_W / 2, y + 41, name, size=12, anchor="middle"))
        cell += _chip(x + 10, y + 43, p["colour"], p["letter"], 14)
        cell.append(draw.text(x + 28, y + 54, cubes_said, size=12, fill=MUTED))
        cell.append(draw.title(_("{piece}: {cubes}", piece=piece_name(p["piece"]),
                                 cubes=cubes_said)))
        if chosen:
            cell.insert(0, draw.rect(x, y, CELL_W - 2, CELL_H - 1, fill=HIGHLIGHT,
                                     fill_opacity=".18", stroke=HIGHLIGHT, stroke_width="2",
                                     rx="6"))
        body.append(draw.group(cell, class_="kozo-left" + (" kozo-required" if chosen else ""),
                               data_piece=f"P{p['piece']}", opacity=".45" if dim else None))
    rows = (len(left) + 3) // 4
    return body, 22 + rows * CELL_H + 6


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The picture of one position: the status, the tower of wooden pieces, the ring from
    above (the click targets), the players and the pieces left."""
    body = [STYLE,
            "<defs><pattern id=\"kozo-grain-plan\" patternUnits=\"userSpaceOnUse\" "
            f"width=\"{CS:g}\" height=\"{CS:g}\">"
            + "".join(f'<path d="M0,{y:g} C{CS * .3:g},{y - 5:g} {CS * .6:g},{y + 6:g} '
                      f'{CS:g},{y:g}" fill="none" stroke="{art.GRAIN}" stroke-opacity=".2" '
                      f'stroke-width="1.3"/>' for y in (9, 23, 38, 53))
            + "</pattern></defs>"]
    head = [draw.text(M, 26, "Kozo", size=18, weight="bold", class_="title")]
    if not observation.get("terminal"):
        head.append(draw.text(W - M, 26, _round_words(observation), size=13, anchor="end",
                              fill=MUTED, class_="detail"))
    status = (status_line(observation, names) if observation.get("terminal")
              else _doing(observation, names))
    y = 50.0
    for line in draw.wrap(status, W - 2 * M, 14, bold=True):
        head.append(draw.status(M, y, line))
        y += 19
    lc = observation.get("last_check")
    if lc and lc.get("result") == "fallen":
        words, y = _lines(M, y + 2, fall_sentence(lc, names), 13, W - 2 * M, 17,
                          fill=FALL_INK, class_="kozo-fall")
        head += words
    if _shown_tower(observation) is not observation.get("tower"):
        caption = _("The tower that fell:") if observation.get("terminal") else _(
            "The tower that fell (the new round starts on an empty base):")
        words, y = _lines(M, y + 2, caption, 12, W - 2 * M, 15, fill=MUTED)
        head += words
    tower, th = _tower_view(observation, y - 12, names, M, TOWER_W)
    plan, ph = _plan(observation, y - 6, W - M - 3 * CS)
    board_h = max(th - 12, ph - 6) + 12
    body += [draw.region("board", 0, y - 12, W, board_h, tower + plan),
             draw.region("head", 0, 0, W, y - 12, head)]
    y += board_h - 12
    players, h = _players(observation, names, y)
    body.append(draw.region("players", 0, y, W, h, players))
    y += h
    left, h = _pieces_left(observation, y)
    if left:
        body.append(draw.region("pieces-left", 0, y, W, h + 6, left))
    y += h
    return draw.document(W, y + 6, body, cls="kozo-board", label=_("Kozo tower"))


# -- the terminal ------------------------------------------------------------------------------
TEXT_WIDTH = 80
"""The widest line of the terminal picture."""
BALANCE_MARK = "o"
CHIMNEY_MARK = "#"
EMPTY_MARK = "."


def _layers(tower: dict[str, Any]) -> list[list[list[str]]]:
    """The tower cut into layers, each three rows (north first) of three marks."""
    grid: dict[tuple[int, int, int], str] = {}
    zmax = 0
    for p in tower.get("pieces", []):
        letter = p.get("letter") or LETTERS[p["piece"] - 1]
        rich = PIECE_RICH[p["colour"] % len(PIECE_RICH)]
        for x, y, z in p["cells"]:
            grid[(x, y, int(z))] = f"[bold {rich}]{letter}[/]"
            zmax = max(zmax, int(z) + 1)
    for b in tower.get("balances", []):
        x, y = b["column"]
        h = int(b["height"])
        grid[(x, y, h)] = f"[bold white on black]{BALANCE_MARK}[/]"
        zmax = max(zmax, h + 1)
    layers = []
    for z in range(zmax):
        rows = []
        for y in (2, 1, 0):
            rows.append([f"[dim]{CHIMNEY_MARK}[/]" if (x, y) == (1, 1)
                         else grid.get((x, y, z), f"[dim]{EMPTY_MARK}[/]") for x in range(3)])
        layers.append(rows)
    return layers


def _wrap_items(head: str, items: Sequence[tuple[str, str]], indent: int = 2) -> list[str]:
    """``head`` then the items (markup, plain) as lines of at most :data:`TEXT_WIDTH`."""
    lines, line, used, fresh = [], head, len(head), True
    for markup, plain in items:
        sep = "" if fresh else "  "
        if used + len(sep) + len(plain) > TEXT_WIDTH and not fresh:
            lines.append(line)
            line, used, sep = " " * indent, indent, ""
        line += sep + markup
        used += len(sep) + len(plain)
        fresh = False
    lines.append(line)
    return lines


def _wrap_plain(words: str, style: str = "") -> list[str]:
    out = textwrap.wrap(words, TEXT_WIDTH) or [""]
    return [f"[{style}]{draw.plain(w)}[/]" if style else draw.plain(w) for w in out]


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The tower layer by layer (the pieces' letters, ``o`` a balance cube, ``#`` the
    chimney, north up), the column tops, the pieces left, the players' points and what
    happened last, with a key of the marks used."""
    lines = []
    n = observation.get("players", 0)
    viewer = observation.get("viewer")
    lines += _wrap_plain("Kozo  " + status_line(observation, names))
    lc = observation.get("last_check")
    if lc and lc.get("result") == "fallen":
        lines += _wrap_plain(fall_sentence(lc, names), "bold red")
    tower = observation.get("tower", {"pieces": [], "balances": []})
    title = _("The tower, layer by layer from the base up, north at the top:")
    if not tower.get("pieces") and lc and lc.get("result") == "fallen":
        tower = lc["scene"]
        title = _("The tower that fell, layer by layer from the base up, north at the top:")
    layers = _layers(tower)
    used: dict[str, str] = {}
    if layers:
        lines.append(title)
        per_row = 8
        for start in range(0, len(layers), per_row):
            chunk = list(range(start, min(start + per_row, len(layers))))
            levels = [_("level {level}", level=z + 1) for z in chunk]
            lines.append("  ".join(f"{level:<8}" for level in levels).rstrip())
            for r in range(3):
                lines.append("  ".join(" ".join(layers[z][r]) + "   " for z in chunk).rstrip())
        for p in tower.get("pieces", []):
            used[p["letter"]] = _(PIECE_NAMES[p["piece"] - 1])
        if tower.get("balances"):
            used[BALANCE_MARK] = _("balance cube")
        used[EMPTY_MARK] = _("empty")
    else:
        lines.append(_("The base is empty."))
        lines.append(f"[dim]{EMPTY_MARK} {EMPTY_MARK} {EMPTY_MARK}[/]")
        lines.append(f"[dim]{EMPTY_MARK} {CHIMNEY_MARK} {EMPTY_MARK}[/]")
        lines.append(f"[dim]{EMPTY_MARK} {EMPTY_MARK} {EMPTY_MARK}[/]")
        used[EMPTY_MARK] = _("empty")
    used[CHIMNEY_MARK] = _("the chimney (never covered)")
    cols = observation.get("columns", [])
    if cols:
        items = []
        for c in cols:
            x, y = c["column"]
            mark = " " + BALANCE_MARK if c["balance"] else ""
            # the column's name as the log says it, and how a move types it
            words = f"{column((x, y))} ({x},{y}): {c['top']}{mark}"
            items.append((draw.plain(words), words))
        lines += _wrap_items(_("Column heights: "), items)
    left = observation.get("pieces_left", [])
    if left and not observation.get("terminal"):
        items = []
        for p in left:
            said = _("{name} ({size} cubes, {turns} turns; type {code})",
                     name=_(PIECE_NAMES[p["piece"] - 1]), size=p["size"],
                     turns=p["orientations"], code=f"P{p['piece']}")
            words = f"{p['letter']} {said}"
            rich = PIECE_RICH[p["colour"] % len(PIECE_RICH)]
            items.append((f"[bold {rich}]{p['letter']}[/] " + draw.plain(words[2:]), words))
        lines += _wrap_items(_("Pieces left: "), items)
    if observation.get("phase") == "place":
        lines.append("[dim]" + _("Type a piece alone (e.g. P7) to see its orientations.")
                     + "[/]")
    if observation.get("tiles_face_down") is not None:
        lines += _wrap_plain(_("Face-down tiles: {tiles}", tiles=" ".join(
            map(str, observation["tiles_face_down"]))))
    if not observation.get("terminal"):  # the clients draw the results table
        rp = observation.get("round_points", [0] * n)
        tot = observation.get("totals", [0] * n)
        placed: dict[int, list[str]] = {}
        built_now = observation.get("tower", {}).get("pieces", [])
        for piece, seat in zip(built_now, placers(observation), strict=True):
            placed.setdefault(seat, []).append(piece["letter"])
        acting = observation.get("chooser")
        if acting is None:
            acting = observation.get("active")
        width = draw.who_width(n, names, viewer)
        lines.append(_("Points:"))
        for p in range(len(tot)):
            mine = placed.get(p)
            placed_now = ", ".join(mine or [])
            who = draw.who(p, SEAT_COLOURS, names, viewer, current=p == acting, width=width)
            lead = 2 + 3 + 1 + width + 2
            game_points = _n("{n} point", "{n} points", tot[p])
            rest = (_("{points} in the game, {round} this round; placed {pieces} this round",
                      points=game_points, round=rp[p], pieces=placed_now) if mine else
                    _("{points} in the game, {round} this round", points=game_points,
                      round=rp[p]))
            wrapped = textwrap.wrap(rest, max(20, TEXT_WIDTH - lead)) or [""]
            lines.append(f"  {who}  {draw.plain(wrapped[0])}")
            lines += [" " * lead + draw.plain(w) for w in wrapped[1:]]
    key = [(draw.plain(f"{mark} {words}"), f"{mark} {words}") for mark, words in used.items()]
    lines += _wrap_items(_("Key: "), key)
    return "\n".join(lines)


def legend() -> list[dict[str, str]]:
    """What each letter on the pieces stands for (each piece stained its own colour, as the
    pictures draw it), and the balance cube."""
    out = [{"icon": draw.icon(_chip(4, 4, p, letter, 24)), "meaning": _(PIECE_NAMES[p])}
           for p, letter in enumerate(LETTERS)]
    out.append({"icon": draw.icon([draw.rect(8, 8, 16, 16, fill=BALANCE_FILL, stroke=MUTED,
                                             rx="2")]),
                "meaning": _n("a balance cube", "{n} balance cubes", 1)})
    return out
