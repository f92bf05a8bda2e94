"""Pictures of a Botanik observation: an SVG board for the browser and rich text for terminals.

Both draw only from the observation dict. SVG ids: ``row-P-J`` (player P's space J), ``pile-J``
(central pile J), ``arrival-ID`` (an arrival tile), ``mP-cell-R-C`` (cell R,C of player P's
machine, empty cells next to the machine included) — the ids ``describe_action`` names.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .components import tile_set

COLOUR_FILL = {"R": "#e05a47", "Y": "#f2c53d", "G": "#5fae4f", "B": "#4a86c8", "K": "#555555"}
COLOUR_RICH = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "bright_black"}
SYMBOL_TEXT = {"R": "●", "Y": "▲", "G": "■", "B": "◆", "K": "✚"}
TYPE_LETTER = {"PL": "P", "VE": "V", "MB": "M", "CR": "+"}
# pipe glyph by exit mask (bit 0 N, 1 E, 2 S, 3 W)
GLYPH = {
    0: "·", 1: "╵", 2: "╶", 3: "└", 4: "╷", 5: "│", 6: "┌", 7: "├",
    8: "╴", 9: "┘", 10: "─", 11: "┴", 12: "┐", 13: "┤", 14: "┬", 15: "┼",
}
DIRBIT = {"N": 1, "E": 2, "S": 4, "W": 8}
CELL = 40


def _mask(exits: list[str]) -> int:
    return sum(DIRBIT[d] for d in exits)


def _colour(tile_id: str | None) -> str | None:
    if not tile_id or tile_id.startswith("SRC"):
        return None
    return tile_id[0]


def _flowers(tile_id: str) -> int:
    ts = tile_set()
    t = ts.index.get(tile_id)
    return ts.flowers[t] if t is not None else 0


# ------------------------------------------------------------------------------------- SVG
def _symbol(letter: str, cx: float, cy: float, r: float) -> str:
    fill = 'fill="#fff" stroke="#222" stroke-width="0.8"'
    if letter == "R":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {fill}/>'
    if letter == "Y":
        pts = f"{cx:.1f},{cy - r:.1f} {cx + r:.1f},{cy + r:.1f} {cx - r:.1f},{cy + r:.1f}"
        return f'<polygon points="{pts}" {fill}/>'
    if letter == "G":
        return (f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" '
                f'height="{2 * r:.1f}" {fill}/>')
    if letter == "B":
        pts = (f"{cx:.1f},{cy - r:.1f} {cx + r:.1f},{cy:.1f} "
               f"{cx:.1f},{cy + r:.1f} {cx - r:.1f},{cy:.1f}")
        return f'<polygon points="{pts}" {fill}/>'
    w = r / 2.5
    return (
        f'<rect x="{cx - r:.1f}" y="{cy - w:.1f}" width="{2 * r:.1f}" height="{2 * w:.1f}" {fill}/>'
        f'<rect x="{cx - w:.1f}" y="{cy - r:.1f}" width="{2 * w:.1f}" height="{2 * r:.1f}" {fill}/>'
    )


def _tile_svg(tile_id: str, x: float, y: float, size: float, exits: list[str] | None,
              elem_id: str | None = None, classes: str = "tile") -> str:
    """One tile: coloured square, its pipes (when placed), colour symbol, type mark, flowers."""
    letter = _colour(tile_id)
    fill = COLOUR_FILL.get(letter or "", "#b9b9b9")
    id_attr = f' id="{escape(elem_id)}"' if elem_id else ""
    parts = [f'<g{id_attr} class="{classes}" data-tile="{escape(tile_id)}">',
             f'<rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" rx="3" '
             f'fill="{fill}" stroke="#222" stroke-width="1"/>']
    cx, cy = x + size / 2, y + size / 2
    if exits is not None:
        w = size * 0.22
        for d in exits:
            if d == "N":
                parts.append(f'<rect class="pipe" x="{cx - w / 2:.1f}" y="{y:.1f}" width="{w:.1f}" '
                             f'height="{size / 2:.1f}" fill="#2b2b2b"/>')
            elif d == "S":
                parts.append(f'<rect class="pipe" x="{cx - w / 2:.1f}" y="{cy:.1f}" '
                             f'width="{w:.1f}" height="{size / 2:.1f}" fill="#2b2b2b"/>')
            elif d == "E":
                parts.append(f'<rect class="pipe" x="{cx:.1f}" y="{cy - w / 2:.1f}" '
                             f'width="{size / 2:.1f}" height="{w:.1f}" fill="#2b2b2b"/>')
            else:
                parts.append(f'<rect class="pipe" x="{x:.1f}" y="{cy - w / 2:.1f}" '
                             f'width="{size / 2:.1f}" height="{w:.1f}" fill="#2b2b2b"/>')
        if exits:
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{w * 0.75:.1f}" fill="#2b2b2b"/>')
    if tile_id.startswith("SRC"):
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.22:.1f}" fill="#8fd3ff" '
                     'stroke="#222"/>')
        parts.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="{size * 0.28:.0f}" '
                     'text-anchor="middle" font-family="sans-serif">S</text>')
    if letter:
        parts.append(_symbol(letter, x + size * 0.17, y + size * 0.17, size * 0.1))
        suffix = tile_id.split("-", 1)[1]
        mark = TYPE_LETTER.get(suffix)
        if exits is None:
            mark = suffix
        if mark:
            parts.append(f'<text x="{x + size * 0.83:.1f}" y="{y + size * 0.3:.1f}" '
                         f'font-size="{size * 0.24:.0f}" text-anchor="middle" font-weight="bold" '
                         f'font-family="sans-serif" fill="#111">{escape(mark)}</text>')
        for i in range(_flowers(tile_id)):
            fx = x + size * (0.2 + 0.2 * i)
            fy = y + size * 0.85
            parts.append(f'<circle class="flower" cx="{fx:.1f}" cy="{fy:.1f}" '
                         f'r="{size * 0.07:.1f}" fill="#ff8fd0" stroke="#7a0050" '
                         'stroke-width="0.6"/>')
    parts.append(f"<title>{escape(tile_id)}</title></g>")
    return "".join(parts)


def _machine_svg(p: int, machine: list[dict[str, Any]], ox: float, oy: float,
                 title: list[str], released: dict[str, Any] | None = None
                 ) -> tuple[str, float, float]:
    cells = {(t["cell"][0], t["cell"][1]): t for t in machine}
    empty = set()
    for r, c in cells:
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            if (r + dr, c + dc) not in cells:
                empty.add((r + dr, c + dc))
    allc = set(cells) | empty
    rmin = min(r for r, _ in allc)
    rmax = max(r for r, _ in allc)
    cmin = min(c for _, c in allc)
    cmax = max(c for _, c in allc)
    w = (cmax - cmin + 1) * CELL
    h = (rmax - rmin + 1) * CELL
    parts = [f'<g id="machine-{p}" class="machine">',
             f'<text x="{ox:.0f}" y="{oy + 14:.0f}" font-size="14" font-family="sans-serif" '
             f'font-weight="bold">{escape(title[0])}</text>',
             f'<text x="{ox:.0f}" y="{oy + 30:.0f}" font-size="12" font-family="sans-serif">'
             f'{escape(title[1])}</text>']
    top = oy + 40
    for r, c in sorted(empty):
        x = ox + (c - cmin) * CELL
        y = top + (r - rmin) * CELL
        parts.append(f'<rect id="m{p}-cell-{r}-{c}" class="slot" x="{x + 1:.0f}" y="{y + 1:.0f}" '
                     f'width="{CELL - 2}" height="{CELL - 2}" fill="#f4f1ea" stroke="#ccc" '
                     'stroke-dasharray="3 2"/>')
    for (r, c), t in sorted(cells.items()):
        x = ox + (c - cmin) * CELL
        y = top + (r - rmin) * CELL
        cls = "tile placed" + ("" if t["main"] else " off-main")
        parts.append(_tile_svg(t["tile"], x + 1, y + 1, CELL - 2, t["exits"],
                               f"m{p}-cell-{r}-{c}", cls))
        if not t["main"]:
            parts.append(f'<rect x="{x + 1:.0f}" y="{y + 1:.0f}" width="{CELL - 2}" '
                         f'height="{CELL - 2}" fill="#fff" opacity="0.45" pointer-events="none"/>')
    if released and released.get("player") == p:
        # the released tile at each legal cell and rotation, shown while that action is previewed
        for r, c, k, exits in released.get("placements", []):
            x = ox + (c - cmin) * CELL
            y = top + (r - rmin) * CELL
            parts.append(_tile_svg(released["tile"], x + 1, y + 1, CELL - 2, exits,
                                   f"m{p}-ghost-{r}-{c}-{k}", "ghost"))
    parts.append("</g>")
    return "".join(parts), w, h + 40


def svg(observation: dict[str, Any]) -> str:
    """The board as a standalone SVG: registry, arrival, both machines, scores."""
    obs = observation
    T = 44  # registry tile size
    gap = 6
    parts: list[str] = []
    names = [f"Player {q}" for q in range(2)]
    # registry: player 1's row, the piles, player 0's row
    rx, ry = 20, 40
    status = _status_line(obs)
    parts.append(f'<text x="20" y="24" font-size="16" font-family="sans-serif" '
                 f'font-weight="bold" class="status">{escape(status)}</text>')
    for i, row_kind in enumerate(("row1", "piles", "row0")):
        y = ry + i * (T + gap + 14)
        label = {"row1": f"{names[1]}'s side", "piles": "Central piles",
                 "row0": f"{names[0]}'s side"}[row_kind]
        parts.append(f'<text x="{rx}" y="{y + 10}" font-size="11" font-family="sans-serif">'
                     f"{escape(label)}</text>")
        for j in range(5):
            x = rx + j * (T + gap)
            yy = y + 14
            if row_kind == "piles":
                top = obs["pile_tops"][j]
                height = obs["pile_heights"][j]
                if top:
                    parts.append(f'<g id="pile-{j}" class="pile">'
                                 + _tile_svg(top, x, yy, T, None)
                                 + f'<text x="{x + T - 3}" y="{yy + T - 3}" font-size="10" '
                                 f'text-anchor="end" font-family="sans-serif">×{height}</text></g>')
                else:
                    parts.append(f'<rect id="pile-{j}" class="pile" x="{x}" y="{yy}" width="{T}" '
                                 f'height="{T}" fill="#eee" stroke="#999"/>')
            else:
                q = 1 if row_kind == "row1" else 0
                t = obs["rows"][q][j]
                if t:
                    parts.append(f'<g id="row-{q}-{j}" class="space full">'
                                 + _tile_svg(t, x, yy, T, None) + "</g>")
                else:
                    parts.append(f'<rect id="row-{q}-{j}" class="space empty" x="{x}" y="{yy}" '
                                 f'width="{T}" height="{T}" rx="3" fill="#f4f1ea" stroke="#aaa" '
                                 'stroke-dasharray="4 3"/>')
    # arrival and the released tile
    ax = rx + 5 * (T + gap) + 30
    parts.append(f'<text x="{ax}" y="{ry + 10}" font-size="11" font-family="sans-serif">'
                 f"Arrival (round {obs['round']}/{obs['rounds']}, {obs['tiles_left']} tiles left)"
                 "</text>")
    for i, t in enumerate(obs["arrival"]):
        parts.append(_tile_svg(t, ax + i * (T + gap), ry + 14, T, None, f"arrival-{t}",
                               "tile arrival"))
    rel = obs.get("released")
    info_y = ry + T + 40
    if rel:
        parts.append(f'<text x="{ax}" y="{info_y}" font-size="12" font-family="sans-serif">'
                     f"Released to player {rel['player']}:</text>")
        parts.append(_tile_svg(rel["tile"], ax, info_y + 6, T, None, "released", "tile released"))
    if obs["meca_player"] is not None:
        parts.append(f'<text x="{ax}" y="{ry + 3 * (T + gap + 14) + 4}" font-size="12" '
                     f'font-family="sans-serif">Meca pawn: player {obs["meca_player"]}</text>')
    reg_h = ry + 3 * (T + gap + 14) + 20
    # machines side by side
    mx = 20
    mh = 0.0
    total_w = ax + 3 * (T + gap) + 20
    scores = obs.get("scores", [0, 0])
    for q in range(2):
        title = [f"{names[q]}'s machine — {scores[q]:g} points",
                 f"{obs['main_tiles'][q]} tiles connected, {obs['open_ends'][q]} open ends"]
        g, w, h = _machine_svg(q, obs["machines"][q], mx, reg_h, title, obs.get("released"))
        parts.append(g)
        mx += max(w, 260) + 30
        mh = max(mh, h)
    total_w = max(total_w, mx)
    total_h = reg_h + mh + 20
    fb = obs.get("final_breakdown")
    if fb:
        y = total_h
        for q, b in enumerate(fb):
            line = (f"{names[q]}: groups {b['group_points']} + flowers {b['flower_points']} = "
                    f"{b['total']} ({b['main_tiles']} tiles connected; removed: "
                    f"{', '.join(b['removed']) or 'none'})")
            parts.append(f'<text x="20" y="{y + 16 * q:.0f}" font-size="13" '
                         f'font-family="sans-serif" class="breakdown">{escape(line)}</text>')
        total_h += 40
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total_w:.0f} {total_h:.0f}" '
            f'width="{total_w:.0f}" height="{total_h:.0f}" class="botanik">')
    style = ("<style>.ghost{opacity:0;pointer-events:none}"
             ".ghost.preview{opacity:0.9}.off-main{opacity:0.75}</style>")
    return (head + style + '<rect width="100%" height="100%" fill="#fffdf7"/>' + "".join(parts)
            + "</svg>")


def _status_line(obs: dict[str, Any]) -> str:
    if obs.get("terminal"):
        w = obs.get("winners") or []
        who = " and ".join(f"player {p}" for p in w)
        return f"Game over — {who} win{'s' if len(w) == 1 else ''}"
    phase = obs["phase"]
    if phase in ("deal", "reveal"):
        return "Tiles are being revealed"
    rel = obs.get("released")
    if rel:
        what = "adds" if rel["kind"] == "add" else "swaps their Meca-Botanist"
        if rel["kind"] == "add":
            return f"Round {obs['round']}, step {obs['step']}: player {rel['player']} {what} " \
                   f"{rel['tile']}"
        return f"Round {obs['round']}, step {obs['step']}: player {rel['player']} {what}"
    return f"Round {obs['round']}, step {obs['step']}: player {obs['active_player']} takes a tile"


# ------------------------------------------------------------------------------------- text
def _tile_text(tile_id: str | None, exits: list[str] | None = None, dim: bool = False) -> str:
    """A tile as 4 characters of rich markup: colour symbol, pipe glyph or type, flowers."""
    if not tile_id:
        return "[dim] ·· [/dim]"
    if tile_id.startswith("SRC"):
        return "[bold white on grey23]S" + GLYPH[15] + "S [/]"
    letter = tile_id[0]
    suffix = tile_id.split("-", 1)[1]
    style = COLOUR_RICH[letter] + (" dim" if dim else " bold")
    if exits is None:
        return f"[{style}]{tile_id:<5}[/]"
    fl = _flowers(tile_id)
    mark = TYPE_LETTER.get(suffix, "")
    glyph = GLYPH[_mask(exits)]
    tail = mark or (str(fl) if fl else " ")
    return f"[{style}]{letter}{glyph}{tail}[/]" + (" " if not dim else "?")


def _machine_text(machine: list[dict[str, Any]]) -> list[str]:
    cells = {(t["cell"][0], t["cell"][1]): t for t in machine}
    rmin = min(r for r, _ in cells)
    rmax = max(r for r, _ in cells)
    cmin = min(c for _, c in cells)
    cmax = max(c for _, c in cells)
    lines = ["      " + "".join(f"{c:>4}" for c in range(cmin, cmax + 1))]
    for r in range(rmin, rmax + 1):
        row = []
        for c in range(cmin, cmax + 1):
            t = cells.get((r, c))
            if t is None:
                row.append("[dim]  · [/dim]")
            else:
                row.append(_tile_text(t["tile"], t["exits"], not t["main"]))
        lines.append(f"  {r:>3} " + "".join(row))
    return lines


def text(observation: dict[str, Any]) -> str:
    """The board for a terminal: rich markup, readable without colour (letters, pipe glyphs)."""
    obs = observation
    out = [f"[bold]Botanik[/bold] — {_status_line(obs)}"]
    if obs["meca_player"] is not None:
        out.append(f"Meca pawn: player {obs['meca_player']}   tiles left in the supply: "
                   f"{obs['tiles_left']}")
    out.append("")
    out.append("Registry (column)  " + "".join(f"{j:<9}" for j in range(5)))

    def row(q: int) -> str:
        return "".join((_tile_text(t) if t else "[dim]-----[/dim]") + "    "
                       for t in obs["rows"][q])

    out.append("  player 1 side    " + row(1))
    piles = [_tile_text(t) + f" ×{h:<2}" for t, h in zip(obs["pile_tops"], obs["pile_heights"],
                                                          strict=True) if t]
    out.append("  central piles    " + "".join(piles))
    out.append("  player 0 side    " + row(0))
    out.append("")
    out.append("Arrival: " + ("  ".join(_tile_text(t) for t in obs["arrival"]) or "empty"))
    rel = obs.get("released")
    if rel:
        out.append(f"Released to player {rel['player']}: {_tile_text(rel['tile'])}"
                   + ("  (choose a pile to swap with)" if rel["kind"] == "swap" else ""))
        places = rel.get("placements")
        if places:
            shown = [f"{r},{c}/{k} {''.join(ex)}" for r, c, k, ex in places[:24]]
            more = f" … and {len(places) - 24} more" if len(places) > 24 else ""
            out.append(f"It fits at (cell/rotation pipes): {', '.join(shown)}{more}")
    if obs.get("waiting"):
        out.append("Still to resolve: " + ", ".join(obs["waiting"]))
    scores = obs.get("scores", [0, 0])
    for q in range(2):
        out.append("")
        out.append(f"[bold]Player {q}'s machine[/bold]: {scores[q]:g} points, "
                   f"{obs['main_tiles'][q]} tiles connected, {obs['open_ends'][q]} open ends "
                   "(a ? marks tiles not connected to the Source)")
        out.extend(_machine_text(obs["machines"][q]))
    if obs.get("log"):
        out.append("")
        out.append("Recent: " + "; ".join(obs["log"][-6:]))
    fb = obs.get("final_breakdown")
    if fb:
        out.append("")
        out.append("[bold]Final scores[/bold]")
        for q, b in enumerate(fb):
            out.append(f"  player {q}: groups {b['group_points']} + flowers "
                       f"{b['flower_points']} = {b['total']}  ({b['main_tiles']} tiles connected; "
                       f"removed: {', '.join(b['removed']) or 'none'})")
    out.append("")
    out.append("Legend: R● red, Y▲ yellow, G■ green, B◆ blue, K✚ black; digit = flowers; "
               "P plant, V vegetable, M Meca-Botanist, + cross; pipes drawn as │─└┌├┼")
    return "\n".join(out)
