"""Pictures of a Mops Royal observation: SVG for the browser, rich text for the terminal.

Both draw only from the observation dict. Every cell of every layout (tile or empty slot)
carries the id ``cell-P-R-C`` (seat P, window row R = y + 4, column C = x + 4), the ids that
``describe_action`` names as targets and previews. Each player has one colour
(``SEAT_COLOURS``, the game's ``colours``): the frame of his layout, the backs of his tiles and
his mark; the six tile colours are the tiles' own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.look import PAPER, Colour, seat_name

from .components import (
    CODE_INDEX,
    COLOUR_LETTERS,
    COLOURS,
    CROWNS,
    OBJECT_LETTERS,
    OBJECTS,
    SEAT_COLOURS,
)

FILL = {
    "blue": "#2f6fd6",
    "green": "#2e9b48",
    "orange": "#ee8420",
    "pink": "#ef79b3",
    "purple": "#8b4fc4",
    "yellow": "#f1d02e",
}
"""The tiles' own colours."""
TILE_INK = {c: ("#1b1b1b" if c in ("yellow", "pink", "orange") else "#ffffff") for c in COLOURS}
"""What is drawn on a tile of each colour."""
LEGAL = "#2f7a3c"
"""The outline of a cell where the viewer may place the called tile."""
CELL = 44
GAP = 4
PANEL = 9 * CELL + 2 * GAP
PANEL_HEAD = 28
HEAD = 70


def _code(tile: str) -> str:
    colour, obj = tile.split("-")
    return COLOUR_LETTERS[COLOURS.index(colour)] + OBJECT_LETTERS[OBJECTS.index(obj)]


def _ellipse(cx: float, cy: float, rx: float, ry: float, **extra: object) -> str:
    return f"<ellipse{draw.attrs(cx=f'{cx:g}', cy=f'{cy:g}', rx=rx, ry=ry, **extra)}/>"


def _symbol(obj: str, cx: float, cy: float, ink: str) -> str:
    """A distinct drawing per object, so tiles read without their colour."""
    if obj == "pillow":
        return draw.rect(cx - 11, cy - 8, 22, 16, fill=ink, rx=6) + "".join(
            draw.circle(cx + dx, cy + dy, 2.5, fill=ink) for dx in (-11, 11) for dy in (-8, 8)
        )
    if obj == "bone":
        return draw.rect(cx - 9, cy - 3, 18, 6, fill=ink) + "".join(
            draw.circle(cx + dx, cy + dy, 4, fill=ink) for dx in (-10, 10) for dy in (-4, 4)
        )
    if obj == "bowl":
        return (draw.path(f"M{cx - 13:g},{cy - 3:g} h26 a13,11 0 0 1 -26,0 z", fill=ink)
                + draw.rect(cx - 6, cy + 7, 12, 3, fill=ink))
    if obj == "can":
        return (
            draw.rect(cx - 8, cy - 9, 16, 19, fill=ink)
            + _ellipse(cx, cy - 9, 8, 3, fill="none", stroke=ink, stroke_width=1.5)
            + draw.path(f"M{cx - 8:g},{cy - 3:g} h16", stroke="#888", stroke_width=1)
        )
    if obj == "poop":
        return (
            _ellipse(cx, cy + 7, 12, 4, fill=ink)
            + _ellipse(cx, cy + 1, 9, 4, fill=ink)
            + _ellipse(cx, cy - 5, 6, 3.5, fill=ink)
            + draw.path(f"M{cx:g},{cy - 12:g} l3,4 h-6 z", fill=ink)
        )
    # pug: a round face with folded ears and a dark muzzle
    return (
        draw.path(f"M{cx - 11:g},{cy - 6:g} l-3,-6 l8,2 z", fill=ink)
        + draw.path(f"M{cx + 11:g},{cy - 6:g} l3,-6 l-8,2 z", fill=ink)
        + draw.circle(cx, cy, 10, stroke=ink, stroke_width=2.5)
        + draw.circle(cx - 4, cy - 2, 1.8, fill=ink)
        + draw.circle(cx + 4, cy - 2, 1.8, fill=ink)
        + _ellipse(cx, cy + 4, 4, 3, fill=ink)
    )


def _crown(x: float, y: float) -> str:
    return draw.path(f"M{x:g},{y:g} v-7 l3,3 l3,-5 l3,5 l3,-3 v7 z", fill="#ffd700",
                  stroke="#5a4500", stroke_width=1, class_="crown")


def tile_svg(tile: str, x: float, y: float, size: float = CELL - 4, crown: bool = False) -> str:
    """One face-up tile: its colour, its object symbol, its code and its crown badge."""
    colour, obj = tile.split("-")
    ink = TILE_INK[colour]
    cx, cy = x + size / 2, y + size / 2 - 1
    parts = [
        draw.rect(x, y, size, size, fill=FILL[colour], rx=5, stroke="#333", stroke_width=1),
        _symbol(obj, cx, cy, ink),
        draw.text(x + size - 3, y + 10, _code(tile), size=9, anchor="end", fill=ink),
    ]
    if crown:
        parts.append(_crown(x + 3, y + size - 3))
    return "".join(parts)


BACK = "#3d3a36"
"""The dark face of a tile turned over, framed and marked in its owner's colour."""


def back_svg(colour: Colour, x: float, y: float, covers: int = 0) -> str:
    """A face-down tile: the back of its owner's set, with his colour and symbol."""
    size = CELL - 4
    out = [
        draw.rect(x + 1.5, y + 1.5, size - 3, size - 3, fill=BACK, rx=4, stroke=colour.fill,
               stroke_width=3),
        draw.text(x + size / 2, y + size / 2 + 6, colour.symbol, size=18, anchor="middle",
               fill=colour.fill),
    ]
    if covers:
        out.append(draw.text(x + size - 4, y + size - 5, f"+{covers}", size=11, anchor="end",
                          weight="bold", fill="#ffffff"))
    return "".join(out)


def _layout_window(cells: list[dict[str, Any]]) -> tuple[int, int, int, int]:
    """The cells a layout may still grow into: x from max−4 to min+4 (same for y)."""
    xs = [c["x"] for c in cells] or [0]
    ys = [c["y"] for c in cells] or [0]
    return (
        max(-4, max(xs) - 4),
        min(4, min(xs) + 4),
        max(-4, max(ys) - 4),
        min(4, min(ys) + 4),
    )


def _own_score(obs: dict[str, Any], q: int) -> float:
    """The score shown for seat ``q``: the viewer sees his own choices of this round at once."""
    if obs.get("viewer") == q and obs.get("my_score") is not None:
        return float(obs["my_score"])
    return float(obs["scores"][q]) if obs.get("scores") else 0.0


def _tags(obs: dict[str, Any], q: int) -> list[str]:
    """What a seat is doing this round, in words: caller, sits out, complete, choosing."""
    tags = []
    if obs.get("caller") == q:
        tags.append("caller")
    status = (obs.get("status") or [None] * obs["players"])[q]
    if status == "sitout":
        tags.append("sits out")
    elif status == "full":
        tags.append("complete")
    if q in (obs.get("pending") or []) and obs.get("phase") == "round":
        tags.append("choosing")
    return tags


def _current(obs: dict[str, Any], q: int) -> bool:
    """Whether seat ``q`` has something to do now."""
    if obs.get("phase") == "end_scoring":
        return obs.get("turn") == q
    return obs.get("phase") == "round" and q in (obs.get("pending") or [])


def _panel(obs: dict[str, Any], q: int, ox: float, oy: float,
           names: Sequence[str] | None) -> str:
    colour = SEAT_COLOURS[q]
    cells = obs["layouts"][q]
    by = {(c["x"], c["y"]): c for c in cells}
    x0, x1, y0, y1 = _layout_window(cells)
    viewer = obs.get("viewer")
    me = viewer == q
    legal = {tuple(c) for c in obs.get("my_legal_cells") or []} if me else set()
    out = [
        draw.rect(ox, oy, PANEL, PANEL + PANEL_HEAD, fill="#fbf6e9" if me else "#f3f1ec", rx=8,
                  stroke=colour.fill, stroke_width=3),
        draw.player_line(q, SEAT_COLOURS, names, ox + 10, oy + 20, PANEL - 20,
                         _own_score(obs, q), size=15, viewer=viewer, current=_current(obs, q),
                         info=" · ".join(_tags(obs, q))),
    ]
    # centre the cells the layout can still use inside the panel
    gx = ox + GAP + (8 - (x1 - x0)) * CELL / 2 - (x0 + 4) * CELL
    gy = oy + PANEL_HEAD + GAP + (8 - (y1 - y0)) * CELL / 2 - (y0 + 4) * CELL
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            r, c = y + 4, x + 4
            px, py = gx + c * CELL + 2, gy + r * CELL + 2
            cid = f"cell-{q}-{r}-{c}"
            cell = by.get((x, y))
            if cell is None:
                ok = (x, y) in legal
                out.append(draw.rect(
                    px, py, CELL - 4, CELL - 4, fill="#d9f0d5" if ok else PAPER, rx=5,
                    stroke=LEGAL if ok else "#c9c3b5", stroke_width=2 if ok else 1,
                    stroke_dasharray="4 3", id=cid, class_="cell empty" + (" legal" if ok else ""),
                    data_x=x, data_y=y,
                ))
            elif cell["face_up"]:
                out.append(draw.group([tile_svg(cell["tile"], px, py, crown=cell["crown"])],
                                   id=cid, class_="cell tile", data_x=x, data_y=y,
                                   data_tile=cell["tile"]))
            else:
                out.append(draw.group([back_svg(colour, px, py, cell.get("covers", 0))], id=cid,
                                   class_="cell tile facedown", data_x=x, data_y=y))
    return draw.group(out, class_="layout mine" if me else "layout", id=f"layout-{q}",
                   data_seat=q)


def _status(obs: dict[str, Any], names: Sequence[str] | None, clicks: bool = True) -> str:
    """The line saying what happens now, to the viewer where he has a choice (how to make it
    in the picture where ``clicks``; the terminal gives its own prompt)."""
    phase = obs.get("phase")
    viewer = obs.get("viewer")
    if phase == "over":
        return draw.game_over(obs.get("winners"), names)
    if phase == "end_scoring":
        if viewer is not None and viewer == obs.get("turn"):
            how = " (click its marked tile)" if clicks else ""
            return f"Your turn: score a combination{how}, or pass."
        return f"End scoring: {seat_name(obs.get('turn') or 0, names)} scores or passes."
    step = obs.get("my_step")
    hint = {
        "place": "Your move: click a highlighted cell to place the tile.",
        "score": "Score a combination (click its marked tile) or score nothing.",
        "done": "You have finished this round; waiting for the others.",
    }.get(step or "", "")
    if hint and clicks:
        return hint
    if phase == "round":
        waiting = [seat_name(p, names) for p in obs.get("pending") or []]
        return "Waiting for " + ", ".join(waiting) + "." if waiting else ""
    if phase == "reveal" and obs.get("caller") is not None:
        return f"{seat_name(obs['caller'], names)} reveals the next tile."
    return ""


def _title(obs: dict[str, Any]) -> str:
    line = f"Mops Royal · round {obs.get('round', 0)}"
    if obs.get("phase") == "end_scoring":
        line += " · end scoring"
    return line


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The whole table: the called tile and what happens now, then every layout (the
    viewer's first) with its player's points (the clients draw the results table)."""
    obs = observation
    n = obs["players"]
    viewer = obs.get("viewer")
    order = list(range(n))
    if viewer is not None and 0 <= viewer < n:
        order = [viewer] + [q for q in order if q != viewer]
    cols = 2 if n > 2 else n
    rows = (n + cols - 1) // cols
    width = cols * (PANEL + 12) + 12
    height = HEAD + rows * (PANEL + PANEL_HEAD + 12)
    head, _ = draw.header(14, 6, _title(obs), _status(obs, names))
    out = [head]
    called = obs.get("called_tile")
    if called and obs.get("phase") == "round":
        crown = CODE_INDEX.get(_code(called)) in CROWNS
        tx = width - 190
        out.append(draw.text(tx - 8, 30, "called tile", size=14, anchor="end"))
        out.append(draw.group([tile_svg(called, tx, 8, 44, crown)], id="called-tile",
                           class_="called"))
        out.append(draw.text(tx + 52, 30, called, size=14))
    for i, q in enumerate(order):
        ox = 12 + (i % cols) * (PANEL + 12)
        oy = HEAD + (i // cols) * (PANEL + PANEL_HEAD + 12)
        out.append(_panel(obs, q, ox, oy, names))
    return draw.document(width, height, out, cls="mops-royal", label="Mops Royal table")


# ---------------------------------------------------------------------------- terminal
RICH = {
    "blue": "bold white on blue",
    "green": "bold white on green4",
    "orange": "bold black on dark_orange",
    "pink": "bold black on hot_pink",
    "purple": "bold white on purple4",
    "yellow": "bold black on yellow",
}
"""The tiles' own colours on a terminal."""


def _text_tile(cell: dict[str, Any] | None, legal: bool, colour: Colour) -> str:
    if cell is None:
        return "[green] +  [/]" if legal else "[dim] ·  [/]"
    if not cell["face_up"]:
        cov = cell.get("covers", 0)
        back = f"bold {colour.fill} on {BACK}"
        return f"[{back}] ## [/]" if not cov else f"[{back}] #{min(cov, 9)} [/]"
    colour_name = cell["tile"].split("-")[0]
    mark = "*" if cell["crown"] else " "
    return f"[{RICH[colour_name]}] {_code(cell['tile'])}{mark}[/]"


def _text_layout(obs: dict[str, Any], q: int) -> list[str]:
    cells = obs["layouts"][q]
    by = {(c["x"], c["y"]): c for c in cells}
    me = obs.get("viewer") == q
    legal = {tuple(c) for c in obs.get("my_legal_cells") or []} if me else set()
    if not cells:
        return ["     (no start tile yet)"]
    xs = [c["x"] for c in cells] + [x for x, _ in legal]
    ys = [c["y"] for c in cells] + [y for _, y in legal]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    lines = ["     " + "".join(f"{x:^4}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        row = "".join(_text_tile(by.get((x, y)), (x, y) in legal, SEAT_COLOURS[q])
                      for x in range(x0, x1 + 1))
        lines.append(f" {y:>3} {row}")
    return lines


def _cells(cells: list[list[int]]) -> str:
    return " ".join(f"({x},{y})" for x, y in cells)


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The table for the terminal: each layout as a grid of short codes (colour letter +
    object letter, * for a crown, ## face down, + a cell where you may place)."""
    obs = observation
    n = obs["players"]
    viewer = obs.get("viewer")
    out = [f"[bold]{draw.plain(_title(obs))}[/]"]
    if obs.get("caller") is not None:
        out.append(f"Caller: {draw.who(obs['caller'], SEAT_COLOURS, names)}")
    if obs.get("called_tile") and obs.get("phase") == "round":
        called = obs["called_tile"]
        colour = called.split("-")[0]
        out.append(f"Called tile: [{RICH[colour]}] {_code(called)} [/] {called}")
    status = _status(obs, names, clicks=False)
    if status:
        out.append(draw.plain(status))
    final = bool(obs.get("final_breakdown"))
    width = draw.who_width(n, names, viewer)
    for q in range(n):
        tags = _tags(obs, q)
        rej = obs.get("rejections", [0] * n)[q]
        # at the end the totals are in the clients' results table, once
        facts = ([] if final else [draw.points(_own_score(obs, q))]) + (
            [f"{draw.count(rej, 'tile')} rejected"] if rej else []) + tags
        out.append("")
        who = draw.who(q, SEAT_COLOURS, names, viewer, current=_current(obs, q), width=width)
        out.append(f"{who}  {', '.join(facts)}".rstrip())
        out.extend(_text_layout(obs, q))
    if viewer is not None and obs.get("my_combinations"):
        out.append("")
        out.append("[bold]Your combinations[/]:")
        for c in obs["my_combinations"]:
            marks = " or ".join(f"({x},{y})" for x, y in c["marks"])
            out.append(f"  {c['shape']} {_cells(c['cells'])}: {draw.points(c['points'])}, "
                       f"turning {marks} face down")
    step = obs.get("my_step")
    if step == "place":
        out.append("Place the called tile: place (x,y)" + (
            ", or reject (x,y) onto a face-down tile" if obs["options"].get("replacement_tiles")
            else ""
        ))
    elif step == "score":
        out.append("Score: score <shape> (x,y) ... flip (x,y), or noscore")
    return "\n".join(out)
