"""Pictures of a Kontor observation: an SVG for the browser and rich text for the terminal.

Both draw only from the observation dict. Cell elements carry ids ``cell-<row>-<col>`` (the
padded grid of the observation's ``grid``) and hand cards ``hand-<card>``, matching the
``target`` of ``describe_action``.
"""

from __future__ import annotations

from html import escape
from typing import Any

from meeple.engine.scores import fmt, score_lines, score_table_text

COLOUR_FILL = {"red": "#c0392b", "black": "#2c2c2c", "green": "#2e8b57", "purple": "#7d3c98"}
RICH = {"red": "red", "black": "bright_black", "green": "green", "purple": "magenta"}
GOODS_FILL = {"tea": "#ead9a8", "wine": "#7b3f00", "spice": "#6b8e23"}
GOODS_LETTER = {"tea": "T", "wine": "W", "spice": "S"}
CELL = 58


def _cell_id(obs: dict[str, Any], x: int, y: int) -> str:
    pad = obs["grid"]["pad"]
    return f"cell-{y + pad}-{x + pad}"


def _outside(obs: dict[str, Any], x: int, y: int) -> bool:
    n = obs["field_size"]
    minx, maxx, miny, maxy = obs["frame"]
    return max(maxx, x) - min(minx, x) + 1 > n or max(maxy, y) - min(miny, y) + 1 > n


def _phase_line(obs: dict[str, Any]) -> str:
    """Who does what now, in words."""
    colours = obs["colours"]
    if obs.get("terminal"):
        return "game over"
    if obs["phase"] == "choose":
        waiting = [colours[p] for p in obs.get("pending", [])]
        return "everyone chooses a card" + (f" (waiting for {', '.join(waiting)})"
                                             if waiting else "")
    if obs.get("acting") is not None and obs.get("step"):
        who = colours[obs["acting"]]
        what = {"place": f"places {obs['acting_card']}", "ship": "may move the ship",
                "buy": "may buy a special card", "remove": "may remove a card"}[obs["step"]]
        return f"{who} {what}"
    return obs["phase"]


def svg(obs: dict[str, Any]) -> str:
    """The harbour as a standalone SVG: field, areas with owners, warehouses, ship, hand."""
    lo, hi = obs["grid"]["min"], obs["grid"]["max"]
    span = hi - lo + 1
    colours = obs["colours"]
    board = span * CELL
    width = board + 260
    hand = obs.get("hand") or []
    height = max(board, 40 + 110 * len(colours)) + 90
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="sans-serif" class="kontor">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#d9e8f0"/>',
    ]
    cards = {tuple(c["cell"]): c for c in obs["field"]}
    legal = {tuple(c) for c in obs.get("legal_cells", [])}

    def px(x: int, y: int) -> tuple[int, int]:
        return (x - lo) * CELL, (y - lo) * CELL

    for y in range(lo, hi + 1):
        for x in range(lo, hi + 1):
            X, Y = px(x, y)
            cid = _cell_id(obs, x, y)
            c = cards.get((x, y))
            cls = ["cell"]
            if c is None:
                cls.append("outside" if _outside(obs, x, y) else "empty")
                if (x, y) in legal:
                    cls.append("legal")
                fill = "#c7d7e0" if _outside(obs, x, y) else "#eef4f7"
            elif c["water"]:
                cls.append("water")
                fill = "#1f5f8b" if c["id"] == "anchor" else "#3f8fc4"
            else:
                cls.append("land")
                owner = c["owner"]
                fill = COLOUR_FILL[colours[owner]] if owner is not None else "#9a8f7a"
            out.append(
                f'<rect id="{cid}" class="{" ".join(cls)}" x="{X + 1}" y="{Y + 1}" '
                f'width="{CELL - 2}" height="{CELL - 2}" rx="4" fill="{fill}" '
                f'stroke="#ffffff" stroke-width="1"><title>({x},{y})</title></rect>'
            )
            if c is None:
                continue
            label = "⚓" if c["id"] == "anchor" else str(c["number"])
            if c["kind"] in ("flood", "bridge", "customs"):
                label = c["kind"][0].upper() + str(c["number"])
            out.append(f'<text x="{X + 5}" y="{Y + 15}" font-size="12" fill="#fff" '
                       f'pointer-events="none">{escape(label)}</text>')
            if c["coin"]:
                out.append(f'<circle class="coin-symbol" cx="{X + CELL - 11}" cy="{Y + 11}" r="6" '
                           f'fill="#f1c40f" stroke="#8a6d00" stroke-width="1.5" '
                           f'pointer-events="none"><title>coin</title></circle>')
            if c["ship"]:
                sx0 = X + CELL - 18
                out.append(f'<path class="ship-symbol" d="M{sx0},{Y + 15} h14 l-3,4 h-8 z '
                           f'M{X + CELL - 11},{Y + 4} v11 M{X + CELL - 11},{Y + 5} l6,8 h-6 z" '
                           f'fill="#fff" stroke="#fff" stroke-width="1" pointer-events="none">'
                           f'<title>ship</title></path>')
            if c["kind"] == "goods":
                for k, g in enumerate(c["goods"]):
                    gx = X + 6 + k * 16
                    filled = g in c["stored"] or g in c.get("valued", ())
                    out.append(
                        f'<rect class="warehouse {g}{"" if filled else " lost"}" x="{gx}" '
                        f'y="{Y + CELL - 20}" width="13" height="13" '
                        f'fill="{GOODS_FILL[g] if filled else "none"}" stroke="{GOODS_FILL[g]}" '
                        f'stroke-width="2" pointer-events="none"/>')
            elif c["kind"] == "crane":
                g = c.get("crane", "")
                out.append(f'<text x="{X + 5}" y="{Y + CELL - 9}" font-size="11" fill="#fff" '
                           f'pointer-events="none">crane {GOODS_LETTER.get(g, "")}'
                           f'{"" if c.get("crane_active", True) else "×"}</text>')
            elif c["kind"] == "tavern":
                out.append(f'<text x="{X + 5}" y="{Y + CELL - 9}" font-size="11" fill="#fff" '
                           f'pointer-events="none">tavern</text>')
    # area outlines
    for a in obs["areas"]:
        cells = {tuple(c) for c in a["cells"]}
        owner = a["owner"]
        stroke = COLOUR_FILL[colours[owner]] if owner is not None else (
            "#555" if a["closed"] else "#f5b041")
        dash = "" if a["closed"] else ' stroke-dasharray="5,3"'
        cls = "area closed" if a["closed"] else "area open"
        segs = []
        for x, y in cells:
            X, Y = px(x, y)
            if (x, y - 1) not in cells:
                segs.append(f"M{X},{Y}h{CELL}")
            if (x, y + 1) not in cells:
                segs.append(f"M{X},{Y + CELL}h{CELL}")
            if (x - 1, y) not in cells:
                segs.append(f"M{X},{Y}v{CELL}")
            if (x + 1, y) not in cells:
                segs.append(f"M{X + CELL},{Y}v{CELL}")
        out.append(f'<path class="{cls}" d="{"".join(segs)}" fill="none" stroke="{stroke}" '
                   f'stroke-width="4"{dash} pointer-events="none"/>')
        if a["closed"] and owner is not None:
            x, y = min(cells, key=lambda c: (c[1], c[0]))
            X, Y = px(x, y)
            out.append(f'<path class="keeper" d="M{X + CELL - 20},{Y + CELL - 4} v-10 l8,-7 l8,7 '
                       f'v10 z" fill="#fff" stroke="{COLOUR_FILL[colours[owner]]}" '
                       f'stroke-width="3" pointer-events="none"><title>keeper of '
                       f'{colours[owner]}</title></path>')
    if obs.get("ship"):
        x, y = obs["ship"]
        X, Y = px(x, y)
        out.append(
            f'<path class="ship" d="M{X + 12},{Y + 34} h34 l-6,10 h-22 z M{X + 28},{Y + 14} '
            f'v20 M{X + 28},{Y + 16} l12,14 h-12 z" fill="#f4e1c1" stroke="#3b2a1a" '
            f'stroke-width="2" pointer-events="none"/>')
    # side panel
    sx = board + 15
    title = f'Kontor · {obs["mode"]} · round {obs["round"]}'
    out.append(f'<text x="{sx}" y="22" font-size="15" font-weight="bold">{escape(title)}</text>')
    phase = _phase_line(obs)
    out.append(f'<text x="{sx}" y="40" font-size="12">{escape(phase)}</text>')
    for p, col in enumerate(colours):
        Y = 60 + 110 * p
        out.append(f'<rect class="player-panel" x="{sx}" y="{Y}" width="235" height="100" rx="6" '
                   f'fill="#fff" stroke="{COLOUR_FILL[col]}" stroke-width="3"/>')
        turn = " ◀" if obs.get("acting") == p else ""
        out.append(f'<text x="{sx + 8}" y="{Y + 18}" font-size="13" font-weight="bold" '
                   f'fill="{COLOUR_FILL[col]}">{col}{turn}</text>')
        ch = obs["chits"][p]
        lines = [
            f"coins {obs['coins'][p]} · keepers {obs['keepers'][p]} · areas {obs['areas_won'][p]}",
            f"hand {obs['hand_sizes'][p]} · score {obs['scores'][p]:g}",
            "chits " + " ".join(f"{GOODS_LETTER[g]}{v}" for g, v in ch.items()),
        ]
        rev = obs["revealed"][p]
        if rev:
            lines.append(f"revealed {rev}")
        elif obs.get("has_chosen") and obs["has_chosen"][p]:
            lines.append("has chosen")
        for k, line in enumerate(lines):
            out.append(f'<text x="{sx + 8}" y="{Y + 36 + 16 * k}" font-size="11">'
                       f'{escape(line)}</text>')
    # hand
    hy = max(board, 40 + 110 * len(colours)) + 10
    out.append(f'<text x="8" y="{hy + 14}" font-size="12">Your hand</text>')
    for k, name in enumerate(hand):
        X = 80 + k * 74
        colour = name.split("-")[0]
        fill = COLOUR_FILL.get(colour, "#3f8fc4" if colour == "water" else "#9a8f7a")
        out.append(f'<rect id="hand-{escape(name)}" class="hand-card" x="{X}" y="{hy}" '
                   f'width="68" height="56" rx="5" fill="{fill}" stroke="#fff"/>')
        out.append(f'<text x="{X + 34}" y="{hy + 32}" font-size="12" text-anchor="middle" '
                   f'fill="#fff" pointer-events="none">{escape(name)}</text>')
    fb = score_lines(obs)
    if fb:
        totals = ", ".join(f"{colours[x.player]} {fmt(x.total)}" for x in fb)
        out.append(f'<text x="8" y="{height - 8}" font-size="13" font-weight="bold">'
                   f'Final: {escape(totals)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def text(obs: dict[str, Any]) -> str:
    """The harbour for the terminal: a grid of cells (rich markup), then areas and players."""
    colours = obs["colours"]
    cards = {tuple(c["cell"]): c for c in obs["field"]}
    legal = {tuple(c) for c in obs.get("legal_cells", [])}
    minx, maxx, miny, maxy = obs["frame"]
    n = obs["field_size"]
    xs = range(max(maxx - n + 1, obs["grid"]["min"]), min(minx + n - 1, obs["grid"]["max"]) + 1)
    ys = range(max(maxy - n + 1, obs["grid"]["min"]), min(miny + n - 1, obs["grid"]["max"]) + 1)
    ship = tuple(obs["ship"]) if obs.get("ship") else None
    lines = [f"[bold]Kontor[/bold] ({obs['mode']}, {n}×{n}) round {obs['round']}: "
             f"{_phase_line(obs)}"]
    lines.append("      " + "".join(f"{x:^7}" for x in xs))
    for y in ys:
        row = [f"{y:>4}  "]
        for x in xs:
            c = cards.get((x, y))
            mark = "⛵" if ship == (x, y) else " "
            if c is None:
                tok = "  ·    " if (x, y) in legal else "       "
                row.append(f"[dim]{tok}[/dim]" if (x, y) not in legal else tok)
            elif c["id"] == "anchor":
                row.append(f"[blue] @{mark}    [/blue]")
            elif c["water"]:
                w = "F" if c["kind"] == "flood" else "~"
                row.append(f"[blue]{w}{c['number']:<2}{mark}   [/blue]")
            else:
                owner = c["owner"]
                if owner is None:
                    tok = f"{c['kind'][0].upper()}{c['number']:<2}"
                    row.append(f"[yellow]{tok:<7}[/yellow]")
                    continue
                col = colours[owner]
                g = "".join(GOODS_LETTER[s] for s in c["stored"]).lower()
                if c["kind"] == "crane":
                    g = "c" + GOODS_LETTER.get(c.get("crane", ""), "").lower()
                elif c["kind"] == "tavern":
                    g = "inn"
                tok = f"{col[0]}{c['number']}{mark.strip()}{g}"
                row.append(f"[{RICH[col]}]{tok:<7}[/{RICH[col]}]")
        lines.append("".join(row))
    lines.append("legend: ~ water, @ anchor, r/b/g/p colour+number, t/w/s stored tea/wine/spice,"
                 " cX crane, inn tavern, · free cell, ⛵ ship")
    for a in obs["areas"]:
        if a["closed"] and a["owner"] is None and a["size"] <= 1:
            continue
        counts = "; ".join(
            f"{colours[p]} " + ",".join(f"{GOODS_LETTER[g]}{v}" for g, v in
                                        zip(("tea", "wine", "spice"), cnt, strict=True) if v)
            for p, cnt in enumerate(a["counts"]) if any(cnt))
        first = a["cells"][0]
        state = ("closed -> " + (colours[a["owner"]] if a["owner"] is not None else "nobody")
                 if a["closed"] else "open")
        lines.append(f"area at ({first[0]},{first[1]}) size {a['size']} {state}: {counts or '-'}")
    for p, col in enumerate(colours):
        ch = obs["chits"][p]
        mark = " ◀" if obs.get("acting") == p else ""
        rev = obs["revealed"][p]
        lines.append(
            f"[{RICH[col]}]{col}[/{RICH[col]}]{mark}: coins {obs['coins'][p]}, keepers "
            f"{obs['keepers'][p]}, areas {obs['areas_won'][p]}, hand {obs['hand_sizes'][p]}, "
            f"chits " + " ".join(f"{GOODS_LETTER[g]}{v}" for g, v in ch.items())
            + (f", revealed {rev}" if rev else ""))
    if obs.get("hand") is not None:
        lines.append("your hand: " + ", ".join(obs["hand"]))
    piles = ", ".join(f"{k} {v['size']}" + (f" (top {v['top']})" if v["top"] else "")
                      for k, v in obs["piles"].items())
    lines.append(f"piles: {piles}")
    for entry in obs["log"][-6:]:
        lines.append(f"[dim]{entry}[/dim]")
    if obs.get("final_breakdown"):
        lines.append(score_table_text(score_lines(obs), colours, obs["ranks"]))
    return "\n".join(lines)
