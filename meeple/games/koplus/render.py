"""KoPlus pictures drawn from an observation: an SVG board with a score panel, and terminal text.

SVG ids: every board cell is ``cell-R-C`` (class ``cell``), the elements the web client points
at and highlights; tiles, aliens and outlines ignore the pointer so cells stay reachable.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .components import PLAYER_COLOUR_NAMES, PLAYER_COLOURS, PLAYER_LETTERS

CELL = 30
MARGIN = 22
PANEL = 250
ALIEN_COLOURS = {1: "#8bc34a", 2: "#26a69a", 3: "#7e57c2", 4: "#ec407a", 5: "#ff7043"}


def _player_name(p: int, viewer: int | None) -> str:
    return f"P{p}" + (" (you)" if p == viewer else "")


def _status(obs: dict[str, Any]) -> str:
    """One line saying what happens now."""
    phase = obs.get("phase")
    if phase == "setup":
        total = obs["section_grid"][0] * obs["section_grid"][1]
        return f"Setting up: {obs['sections_dealt']} of {total} sections laid"
    if phase == "end":
        winners = obs.get("winners") or []
        names = ", ".join(f"P{p}" for p in winners)
        return f"Game over: {'winner' if len(winners) == 1 else 'winners'} {names}"
    cp = obs["current_player"]
    shape = obs["next_shape"][cp]
    what = f"places {shape}" if obs["can_place"][cp] else "must pass"
    bonus = " (bonus turn)" if obs.get("bonus_turn") else ""
    return f"P{cp} {what}{bonus}"


def _outline(cells: list[list[int]]) -> str:
    """SVG path data of the outer edges of a set of cells."""
    own = {(r, c) for r, c in cells}
    parts = []
    for r, c in cells:
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        if (r - 1, c) not in own:
            parts.append(f"M{x},{y}h{CELL}")
        if (r + 1, c) not in own:
            parts.append(f"M{x},{y + CELL}h{CELL}")
        if (r, c - 1) not in own:
            parts.append(f"M{x},{y}v{CELL}")
        if (r, c + 1) not in own:
            parts.append(f"M{x + CELL},{y}v{CELL}")
    return "".join(parts)


def svg(observation: dict[str, Any]) -> str:
    """The board as seen by ``observation['viewer']``: sections, aliens, tiles, scores."""
    obs = observation
    rows, cols = obs["rows"], obs["cols"]
    viewer = obs.get("viewer")
    n = obs["players"]
    width = MARGIN * 2 + cols * CELL + PANEL
    height = max(MARGIN * 2 + rows * CELL, 200 + 30 * n + (40 + 20 * n if obs["final_breakdown"]
                                                           else 0))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="koplus-board" '
        'font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#faf7ef"/>',
    ]
    ir = obs["inner_area"]
    r0, r1 = ir["rows"]
    c0, c1 = ir["cols"]
    owner = obs["owner"]
    # cells: the pointer targets
    out.append('<g class="cells">')
    for r in range(rows):
        for c in range(cols):
            inner = r0 <= r <= r1 and c0 <= c <= c1
            cls = "cell" + (" inner" if inner else "") + (" occupied" if owner[r][c] >= 0 else "")
            fill = "#efe4c6" if inner else "#fffdf6"
            out.append(
                f'<rect id="cell-{r}-{c}" class="{cls}" x="{MARGIN + c * CELL}" '
                f'y="{MARGIN + r * CELL}" width="{CELL}" height="{CELL}" fill="{fill}" '
                f'stroke="#d8cfb8" stroke-width="0.6" data-row="{r}" data-col="{c}"/>'
            )
    out.append("</g>")
    # tiles in player colours
    out.append('<g class="tiles" pointer-events="none">')
    last = len(obs["tiles"]) - 1
    for i, tile in enumerate(obs["tiles"]):
        p = tile["player"]
        colour = PLAYER_COLOURS[p]
        cls = f"tile player-{p}" + (" last" if i == last else "")
        out.append(f'<g class="{cls}" data-tile="{escape(tile["notation"])}">')
        for r, c in tile["cells"]:
            out.append(
                f'<rect x="{MARGIN + c * CELL}" y="{MARGIN + r * CELL}" width="{CELL}" '
                f'height="{CELL}" fill="{colour}" fill-opacity="0.45"/>'
            )
        out.append(
            f'<path d="{_outline(tile["cells"])}" stroke="{colour}" stroke-width="3.5" '
            'stroke-linecap="square" fill="none"/>'
        )
        if i == last:
            out.append(
                f'<path d="{_outline(tile["cells"])}" stroke="#fff" stroke-width="1.2" '
                'stroke-dasharray="3 3" fill="none"/>'
            )
        out.append("</g>")
    out.append("</g>")
    # aliens with their values
    out.append('<g class="aliens" pointer-events="none">')
    for r in range(rows):
        for c in range(cols):
            v = obs["aliens"][r][c]
            if not v:
                continue
            cx, cy = MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2
            caught = owner[r][c] >= 0
            out.append(
                f'<g class="alien value-{v}{" caught" if caught else ""}">'
                f'<circle cx="{cx}" cy="{cy}" r="10" fill="{ALIEN_COLOURS.get(v, "#999")}" '
                f'fill-opacity="{0.55 if caught else 1}" stroke="#333" stroke-width="0.8"/>'
                f'<text x="{cx}" y="{cy + 4.5}" text-anchor="middle" font-size="13" '
                f'font-weight="bold" fill="#fff">{v}</text></g>'
            )
    out.append("</g>")
    # section borders and the first-tile area
    out.append('<g class="sections" pointer-events="none" fill="none">')
    size = obs["section_size"]
    for sec in obs["sections"]:
        out.append(
            f'<rect class="section" x="{MARGIN + sec["col"] * CELL}" '
            f'y="{MARGIN + sec["row"] * CELL}" width="{size * CELL}" height="{size * CELL}" '
            f'stroke="#5d4a2e" stroke-width="2"><title>{sec["section"]} turned '
            f'{sec["rotation"]}</title></rect>'
        )
    out.append(
        f'<rect class="inner-area" x="{MARGIN + c0 * CELL}" y="{MARGIN + r0 * CELL}" '
        f'width="{(c1 - c0 + 1) * CELL}" height="{(r1 - r0 + 1) * CELL}" stroke="#b8860b" '
        'stroke-width="1.5" stroke-dasharray="6 4"/>'
    )
    out.append("</g>")
    # coordinates
    out.append('<g class="coords" font-size="10" fill="#777" pointer-events="none">')
    for c in range(cols):
        out.append(
            f'<text x="{MARGIN + c * CELL + CELL / 2}" y="{MARGIN - 7}" '
            f'text-anchor="middle">{c}</text>'
        )
    for r in range(rows):
        out.append(
            f'<text x="{MARGIN - 5}" y="{MARGIN + r * CELL + CELL / 2 + 3}" '
            f'text-anchor="end">{r}</text>'
        )
    out.append("</g>")
    out.append(_panel(obs, MARGIN * 2 + cols * CELL, viewer, n))
    out.append("</svg>")
    return "".join(out)


def _panel(obs: dict[str, Any], x0: int, viewer: int | None, n: int) -> str:
    out = [f'<g class="panel" transform="translate({x0},{MARGIN})">']
    out.append('<text x="0" y="14" font-size="17" font-weight="bold" fill="#333">KoPlus</text>')
    out.append(
        f'<text class="status" x="0" y="36" font-size="12" fill="#333">'
        f"{escape(_status(obs))}</text>"
    )
    y = 56
    cp = obs["current_player"]
    for p in range(n):
        colour = PLAYER_COLOURS[p]
        me = p == viewer
        cls = f"player player-{p}" + (" viewer" if me else "") + (" to-move" if p == cp else "")
        out.append(f'<g class="{cls}" transform="translate(0,{y})">')
        if me:
            out.append(
                '<rect x="-4" y="-2" width="238" height="40" rx="5" fill="#fff3c4" '
                'stroke="#b8860b"/>'
            )
        out.append(f'<rect x="0" y="3" width="14" height="14" fill="{colour}"/>')
        marker = "▶ " if p == cp else ""
        weight = "bold" if me else "normal"
        out.append(
            f'<text x="20" y="15" font-size="13" font-weight="{weight}" fill="#222">'
            f"{marker}{escape(_player_name(p, viewer))}</text>"
        )
        out.append(
            f'<text class="score" x="225" y="15" font-size="15" font-weight="bold" '
            f'text-anchor="end" fill="#222">{_num(obs["scores"][p])}</text>'
        )
        shape = obs["next_shape"][p] or "–"
        out.append(
            f'<text x="20" y="32" font-size="11" fill="#555">{obs["tiles_left"][p]} tiles, '
            f'next {shape}, bonus turns {obs["bonus_left"][p]}</text>'
        )
        out.append("</g>")
        y += 44
    final = obs.get("final_breakdown")
    if final:
        y += 6
        out.append(
            f'<g class="final" font-size="11" fill="#222" transform="translate(0,{y})">'
            '<text x="0" y="0" font-weight="bold">Final scoring</text>'
            '<text x="0" y="16" fill="#666" font-family="monospace">'
            "seat  run  +5  isol  grp final</text>"
        )
        for i, b in enumerate(final):
            yy = 32 + 16 * i
            v = [part["value"] for part in b["parts"]]
            out.append(
                f'<text x="0" y="{yy}" fill="{PLAYER_COLOURS[i]}" font-family="monospace">'
                f'P{i}  {v[0]:>4} {v[1]:>+3} {v[2]:>+5} {v[3]:>+4} {b["total"]:>5}</text>'
            )
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def text(observation: dict[str, Any]) -> str:
    """The board as rich markup: letters for tiles (A–D, coloured), digits for aliens."""
    obs = observation
    rows, cols = obs["rows"], obs["cols"]
    size = obs["section_size"]
    owner, aliens = obs["owner"], obs["aliens"]
    ir = obs["inner_area"]
    r0, r1 = ir["rows"]
    c0, c1 = ir["cols"]
    lines = [f"[bold]KoPlus[/bold]  {_status(obs)}"]
    head = "    "
    for c in range(cols):
        if c and c % size == 0:
            head += " "
        head += f"{c:>3}"
    lines.append(f"[dim]{head}[/dim]")
    for r in range(rows):
        if r and r % size == 0:
            lines.append("")
        row = f"[dim]{r:>3}[/dim] "
        for c in range(cols):
            if c and c % size == 0:
                row += " "
            p = owner[r][c]
            v = aliens[r][c]
            if p >= 0:
                letter = PLAYER_LETTERS[p] if not v else PLAYER_LETTERS[p].lower()
                row += f"  [bold {PLAYER_COLOUR_NAMES[p]}]{letter}[/]"
            elif v:
                row += f"  [bold]{v}[/bold]"
            elif r0 <= r <= r1 and c0 <= c <= c1:
                row += "  [yellow]·[/yellow]"
            else:
                row += "  [dim]·[/dim]"
        lines.append(row)
    lines.append("[dim](capital letter: a tile; small letter: a tile over a caught alien; "
                 "yellow dots: first-tile area)[/dim]")
    viewer = obs.get("viewer")
    cp = obs["current_player"]
    for p in range(obs["players"]):
        colour = PLAYER_COLOUR_NAMES[p]
        mark = "▶" if p == cp else " "
        shape = obs["next_shape"][p] or "-"
        lines.append(
            f"{mark} [bold {colour}]{PLAYER_LETTERS[p]}[/] {_player_name(p, viewer):<9} "
            f"score [bold]{_num(obs['scores'][p])}[/bold]  tiles {obs['tiles_left'][p]:>2}  "
            f"next {shape}  bonus turns {obs['bonus_left'][p]}"
        )
    final = obs.get("final_breakdown")
    if final:
        lines.append("[bold]Final scoring[/bold]  (running, largest group +5, isolated −5 each, "
                     "non-maximal −3 each)")
        for b in final:
            p = b["player"]
            v = [part["value"] for part in b["parts"]]
            lines.append(
                f"  [{PLAYER_COLOUR_NAMES[p]}]P{p}[/]: {v[0]} {v[1]:+d} {v[2]:+d} {v[3]:+d} "
                f"= [bold]{b['total']}[/bold]"
            )
    return "\n".join(lines)
