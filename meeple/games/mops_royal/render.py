"""Pictures of a Mops Royal observation: SVG for the browser, rich text for the terminal.

Both draw only from the observation dict. Every cell of every layout (tile or empty slot)
carries the id ``cell-P-R-C`` (seat P, window row R = y + 4, column C = x + 4), the ids that
``describe_action`` names as targets and previews.
"""

from __future__ import annotations

from html import escape
from typing import Any

from meeple.engine.scores import score_lines, score_table_text

from .components import (
    BACK_COLOURS,
    CODE_INDEX,
    COLOUR_LETTERS,
    COLOURS,
    CROWNS,
    OBJECT_LETTERS,
    OBJECTS,
)

FILL = {
    "blue": "#2f6fd6",
    "green": "#2e9b48",
    "orange": "#ee8420",
    "pink": "#ef79b3",
    "purple": "#8b4fc4",
    "yellow": "#f1d02e",
}
INK = {c: ("#1b1b1b" if c in ("yellow", "pink", "orange") else "#ffffff") for c in COLOURS}
CELL = 44
GAP = 4
PANEL = 9 * CELL + 2 * GAP


def _code(tile: str) -> str:
    colour, obj = tile.split("-")
    return COLOUR_LETTERS[COLOURS.index(colour)] + OBJECT_LETTERS[OBJECTS.index(obj)]


def _symbol(obj: str, cx: float, cy: float, ink: str) -> str:
    """A distinct drawing per object, so tiles read without their colour."""
    s = f'fill="{ink}" stroke="none"'
    if obj == "pillow":
        return (
            f'<rect x="{cx - 11}" y="{cy - 8}" width="22" height="16" rx="6" {s}/>'
            f'<circle cx="{cx - 11}" cy="{cy - 8}" r="2.5" {s}/>'
            f'<circle cx="{cx + 11}" cy="{cy - 8}" r="2.5" {s}/>'
            f'<circle cx="{cx - 11}" cy="{cy + 8}" r="2.5" {s}/>'
            f'<circle cx="{cx + 11}" cy="{cy + 8}" r="2.5" {s}/>'
        )
    if obj == "bone":
        return (
            f'<rect x="{cx - 9}" y="{cy - 3}" width="18" height="6" {s}/>'
            f'<circle cx="{cx - 10}" cy="{cy - 4}" r="4" {s}/>'
            f'<circle cx="{cx - 10}" cy="{cy + 4}" r="4" {s}/>'
            f'<circle cx="{cx + 10}" cy="{cy - 4}" r="4" {s}/>'
            f'<circle cx="{cx + 10}" cy="{cy + 4}" r="4" {s}/>'
        )
    if obj == "bowl":
        return (
            f'<path d="M{cx - 13},{cy - 3} h26 a13,11 0 0 1 -26,0 z" {s}/>'
            f'<rect x="{cx - 6}" y="{cy + 7}" width="12" height="3" {s}/>'
        )
    if obj == "can":
        return (
            f'<rect x="{cx - 8}" y="{cy - 9}" width="16" height="19" {s}/>'
            f'<ellipse cx="{cx}" cy="{cy - 9}" rx="8" ry="3" fill="none" stroke="{ink}" '
            'stroke-width="1.5"/>'
            f'<line x1="{cx - 8}" y1="{cy - 3}" x2="{cx + 8}" y2="{cy - 3}" stroke="#888" '
            'stroke-width="1"/>'
        )
    if obj == "poop":
        return (
            f'<ellipse cx="{cx}" cy="{cy + 7}" rx="12" ry="4" {s}/>'
            f'<ellipse cx="{cx}" cy="{cy + 1}" rx="9" ry="4" {s}/>'
            f'<ellipse cx="{cx}" cy="{cy - 5}" rx="6" ry="3.5" {s}/>'
            f'<path d="M{cx},{cy - 12} l3,4 h-6 z" {s}/>'
        )
    # pug: a round face with folded ears and a dark muzzle
    return (
        f'<path d="M{cx - 11},{cy - 6} l-3,-6 l8,2 z" {s}/>'
        f'<path d="M{cx + 11},{cy - 6} l3,-6 l-8,2 z" {s}/>'
        f'<circle cx="{cx}" cy="{cy}" r="10" fill="none" stroke="{ink}" stroke-width="2.5"/>'
        f'<circle cx="{cx - 4}" cy="{cy - 2}" r="1.8" {s}/>'
        f'<circle cx="{cx + 4}" cy="{cy - 2}" r="1.8" {s}/>'
        f'<ellipse cx="{cx}" cy="{cy + 4}" rx="4" ry="3" {s}/>'
    )


def _crown(x: float, y: float) -> str:
    return (
        f'<path class="crown" d="M{x},{y} v-7 l3,3 l3,-5 l3,5 l3,-3 v7 z" fill="#ffd700" '
        'stroke="#5a4500" stroke-width="1"/>'
    )


def tile_svg(tile: str, x: float, y: float, size: float = CELL - 4, crown: bool = False) -> str:
    """One face-up tile: its colour, its object symbol, its code and its crown badge."""
    colour, obj = tile.split("-")
    ink = INK[colour]
    cx, cy = x + size / 2, y + size / 2 - 1
    parts = [
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="5" fill="{FILL[colour]}" '
        'stroke="#333" stroke-width="1"/>',
        _symbol(obj, cx, cy, ink),
        f'<text x="{x + size - 3}" y="{y + 10}" font-size="9" text-anchor="end" '
        f'font-family="sans-serif" fill="{ink}">{_code(tile)}</text>',
    ]
    if crown:
        parts.append(_crown(x + 3, y + size - 3))
    return "".join(parts)


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
        return obs["my_score"]
    return obs["scores"][q] if obs.get("scores") else 0


def _panel(obs: dict[str, Any], q: int, ox: float, oy: float) -> str:
    cells = obs["layouts"][q]
    by = {(c["x"], c["y"]): c for c in cells}
    x0, x1, y0, y1 = _layout_window(cells)
    legal = {tuple(c) for c in obs.get("my_legal_cells") or []} if obs.get("viewer") == q else set()
    me = obs.get("viewer") == q
    caller = obs.get("caller") == q
    score = _own_score(obs, q)
    title = f"Player {q}" + (" (you)" if me else "") + (" · caller" if caller else "")
    status = (obs.get("status") or [None] * obs["players"])[q]
    extra = ""
    if status == "sitout":
        extra = " · sits out"
    elif status == "full":
        extra = " · complete"
    if q in (obs.get("pending") or []):
        extra += " · choosing"
    out = [
        f'<g class="layout{" mine" if me else ""}" id="layout-{q}">',
        f'<rect x="{ox}" y="{oy}" width="{PANEL}" height="{PANEL + 28}" rx="8" '
        f'fill="{"#fbf6e9" if me else "#f3f1ec"}" stroke="{BACK_COLOURS[q]}" stroke-width="3"/>',
        f'<text x="{ox + 10}" y="{oy + 19}" font-size="15" font-family="sans-serif" '
        f'font-weight="bold" fill="#222">{escape(title)}: {score:g} points{escape(extra)}</text>',
    ]
    # centre the cells the layout can still use inside the panel
    gx = ox + GAP + (8 - (x1 - x0)) * CELL / 2 - (x0 + 4) * CELL
    gy = oy + 28 + GAP + (8 - (y1 - y0)) * CELL / 2 - (y0 + 4) * CELL
    for y in range(-4, 5):
        for x in range(-4, 5):
            r, c = y + 4, x + 4
            px, py = gx + c * CELL + 2, gy + r * CELL + 2
            cid = f"cell-{q}-{r}-{c}"
            cell = by.get((x, y))
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                continue
            if cell is None:
                cls = "cell empty" + (" legal" if (x, y) in legal else "")
                ok = (x, y) in legal
                stroke = "#2f7a3c" if ok else "#c9c3b5"
                fill = "#d9f0d5" if ok else "#fffdf7"
                out.append(
                    f'<rect id="{cid}" class="{cls}" data-x="{x}" data-y="{y}" x="{px}" '
                    f'y="{py}" width="{CELL - 4}" height="{CELL - 4}" rx="5" fill="{fill}" '
                    f'stroke="{stroke}" stroke-width="{2 if ok else 1}" stroke-dasharray="4 3"/>'
                )
                continue
            if cell["face_up"]:
                out.append(
                    f'<g id="{cid}" class="cell tile" data-x="{x}" data-y="{y}" '
                    f'data-tile="{cell["tile"]}">'
                    + tile_svg(cell["tile"], px, py, crown=cell["crown"])
                    + "</g>"
                )
            else:
                back = BACK_COLOURS[q]
                cov = cell.get("covers", 0)
                out.append(
                    f'<g id="{cid}" class="cell tile facedown" data-x="{x}" data-y="{y}">'
                    f'<rect x="{px}" y="{py}" width="{CELL - 4}" height="{CELL - 4}" rx="5" '
                    f'fill="{back}" stroke="#222"/>'
                    f'<path d="M{px + 6},{py + 6} L{px + CELL - 10},{py + CELL - 10} '
                    f'M{px + CELL - 10},{py + 6} L{px + 6},{py + CELL - 10}" stroke="#ffffff" '
                    'stroke-opacity="0.45" stroke-width="3"/>'
                    + (
                        f'<text x="{px + CELL - 7}" y="{py + CELL - 8}" font-size="11" '
                        'text-anchor="end" font-family="sans-serif" fill="#fff">'
                        f"+{cov}</text>"
                        if cov
                        else ""
                    )
                    + "</g>"
                )
    out.append("</g>")
    return "".join(out)


def svg(obs: dict[str, Any]) -> str:
    """The whole table: header with the called tile, then every layout (yours first)."""
    n = obs["players"]
    viewer = obs.get("viewer")
    order = list(range(n))
    if viewer is not None and 0 <= viewer < n:
        order = [viewer] + [q for q in order if q != viewer]
    cols = 2 if n > 2 else n
    rows = (n + cols - 1) // cols
    head = 70
    width = cols * (PANEL + 12) + 12
    final = obs.get("final_breakdown")
    foot = 30 + 22 * (n + 1 + sum(1 for r in final if r.get("note"))) if final else 0
    height = head + rows * (PANEL + 40) + foot
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="mops-royal">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#efe9dc"/>',
    ]
    phase = obs.get("phase")
    called = obs.get("called_tile")
    line = f"Mops Royal · round {obs.get('round', 0)}"
    if phase == "end_scoring":
        line += f" · end scoring: player {obs.get('turn')} to score or pass"
    elif phase == "over":
        line += " · game over"
    out.append(
        f'<text x="14" y="28" font-size="20" font-family="sans-serif" font-weight="bold" '
        f'fill="#222">{escape(line)}</text>'
    )
    if called and phase == "round":
        crown = CODE_INDEX.get(_code(called)) in CROWNS
        tx = width - 190
        out.append(
            f'<text x="{tx - 8}" y="30" font-size="14" font-family="sans-serif" '
            f'text-anchor="end" fill="#222">called tile</text>'
        )
        out.append(f'<g id="called-tile" class="called">{tile_svg(called, tx, 8, 44, crown)}</g>')
        out.append(
            f'<text x="{tx + 52}" y="30" font-size="14" font-family="sans-serif" fill="#222">'
            f"{escape(called)}</text>"
        )
    step = obs.get("my_step")
    hint = {
        "place": "Your move: click a highlighted cell to place the tile.",
        "score": "Score a combination (click its marked tile) or score nothing.",
        "done": "You have finished this round; waiting for the others.",
    }.get(step or "", "")
    if phase == "end_scoring" and viewer == obs.get("turn"):
        hint = "Your turn: score a combination (click its marked tile), or pass."
    if hint:
        out.append(
            f'<text x="14" y="54" font-size="14" font-family="sans-serif" fill="#444">'
            f"{escape(hint)}</text>"
        )
    for i, q in enumerate(order):
        ox = 12 + (i % cols) * (PANEL + 12)
        oy = head + (i // cols) * (PANEL + 40)
        out.append(_panel(obs, q, ox, oy))
    if final:
        y = head + rows * (PANEL + 40) + 10
        out.append(
            f'<text x="14" y="{y + 10}" font-size="15" font-family="sans-serif" '
            'font-weight="bold" fill="#222">Final scores</text>'
        )
        table = score_table_text(score_lines(obs), None, obs.get("ranks"))
        for j, row in enumerate(table.split("\n")):
            out.append(
                f'<text class="final" x="14" y="{y + 32 + 22 * j}" font-size="14" '
                f'font-family="monospace" fill="#222" xml:space="preserve">{escape(row)}</text>'
            )
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------------------- terminal
RICH = {
    "blue": "bold white on blue",
    "green": "bold white on green4",
    "orange": "bold black on dark_orange",
    "pink": "bold black on hot_pink",
    "purple": "bold white on purple4",
    "yellow": "bold black on yellow",
}


def _text_tile(cell: dict[str, Any] | None, legal: bool) -> str:
    if cell is None:
        return "[green] +  [/]" if legal else "[dim] ·  [/]"
    if not cell["face_up"]:
        cov = cell.get("covers", 0)
        return "[reverse] ## [/]" if not cov else f"[reverse] #{min(cov, 9)} [/]"
    colour = cell["tile"].split("-")[0]
    mark = "*" if cell["crown"] else " "
    return f"[{RICH[colour]}] {_code(cell['tile'])}{mark}[/]"


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
        row = "".join(_text_tile(by.get((x, y)), (x, y) in legal) for x in range(x0, x1 + 1))
        lines.append(f" {y:>3} {row}")
    return lines


def text(obs: dict[str, Any]) -> str:
    """The table for the terminal: each layout as a grid of short codes (colour letter +
    object letter, * for a crown, ## face down, + a cell where you may place)."""
    n = obs["players"]
    viewer = obs.get("viewer")
    out = [f"[bold]Mops Royal[/] · round {obs.get('round', 0)} · phase {obs.get('phase')}"]
    if obs.get("caller") is not None:
        out.append(f"Caller: player {obs['caller']}")
    if obs.get("called_tile") and obs.get("phase") == "round":
        called = obs["called_tile"]
        colour = called.split("-")[0]
        out.append(f"Called tile: [{RICH[colour]}] {_code(called)} [/] {called}")
    status = obs.get("status")
    for q in range(n):
        who = f"Player {q}" + (" (you)" if viewer == q else "")
        tags = []
        if obs.get("caller") == q:
            tags.append("caller")
        if status:
            tags.append(status[q])
        if q in (obs.get("pending") or []):
            tags.append("choosing")
        score = _own_score(obs, q)
        rej = obs.get("rejections", [0] * n)[q]
        out.append("")
        out.append(
            f"[bold]{who}[/]: {score:g} points"
            + (f", {rej} rejections" if rej else "")
            + (f" ({', '.join(tags)})" if tags else "")
        )
        out.extend(_text_layout(obs, q))
    if viewer is not None and obs.get("my_combinations"):
        out.append("")
        out.append("[bold]Your combinations[/] (marked tiles in brackets):")
        for c in obs["my_combinations"]:
            cells = " ".join(f"({x},{y})" for x, y in c["cells"])
            marks = " ".join(f"({x},{y})" for x, y in c["marks"])
            out.append(f"  {c['shape']} {cells}  \\[{marks}]  {c['points']} points")
    step = obs.get("my_step")
    if step == "place":
        out.append("Place the called tile: place (x,y)" + (
            ", or reject (x,y) onto a face-down tile" if obs["options"].get("replacement_tiles")
            else ""
        ))
    elif step == "score":
        out.append("Score: score <shape> (x,y) ... flip (x,y), or noscore")
    if obs.get("final_breakdown"):
        out.append("")
        out.append("[bold]Final scores[/]")
        out.append(score_table_text(score_lines(obs), None, obs.get("ranks")))
    return "\n".join(out)
