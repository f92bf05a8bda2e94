"""Pictures of a Botanik observation: an SVG board for the browser and rich text for terminals.

Both draw only from the observation dict, with the engine's SVG toolkit and palette; each player
has one name (``look.seat_name``) and one colour (``Botanik.colours``, from ``components``): their
Source, their side of the registry, their machine's frame and their marks. The tile colours (red,
yellow, green, blue, black) belong to the tiles, not to the players.

SVG ids: ``row-P-J`` (player P's space J), ``pile-J`` (central pile J), ``arrival-ID`` (an
arrival tile), ``mP-cell-R-C`` (cell R,C of player P's machine, empty cells next to the machine
included), ``mP-ghost-R-C-K`` (the released tile previewed there) — the ids ``describe_action``
names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.look import INK, MUTED, PAPER, Colour, seat_name

from .components import SEAT_COLOURS, tile_set

COLOUR_FILL = {"R": "#e05a47", "Y": "#f2c53d", "G": "#5fae4f", "B": "#4a86c8", "K": "#555555"}
"""The tile colours (not players' colours)."""
COLOUR_RICH = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "bright_black"}
TYPE_LETTER = {"PL": "P", "VE": "V", "MB": "M", "CR": "+"}
# pipe glyph by exit mask (bit 0 N, 1 E, 2 S, 3 W)
GLYPH = {
    0: "·", 1: "╵", 2: "╶", 3: "└", 4: "╷", 5: "│", 6: "┌", 7: "├",
    8: "╴", 9: "┘", 10: "─", 11: "┴", 12: "┐", 13: "┤", 14: "┬", 15: "┼",
}
DIRBIT = {"N": 1, "E": 2, "S": 4, "W": 8}
CELL = 40
"""Side of a machine cell in the picture."""
T = 44
"""Side of a registry tile in the picture."""
GAP = 6
PIPE = "#2b2b2b"
SLOT = "#f4f1ea"
STYLE = ("<style>.ghost{opacity:0;pointer-events:none}"
         ".ghost.preview{opacity:0.9}.off-main{opacity:0.75}</style>")


def _mask(exits: list[str]) -> int:
    return sum(DIRBIT[d] for d in exits)


def _colour(tile_id: str | None) -> str | None:
    """The colour letter of a coloured tile (``None`` for a Source)."""
    if not tile_id or tile_id.startswith("SRC"):
        return None
    return tile_id[0]


def _flowers(tile_id: str) -> int:
    ts = tile_set()
    t = ts.index.get(tile_id)
    return ts.flowers[t] if t is not None else 0


def _source_seat(tile_id: str) -> int:
    """The seat whose Source this is (``SRC0`` is seat 0's)."""
    return int(tile_id[3:])


def _status_line(obs: dict[str, Any], names: Sequence[str] | None) -> str:
    """What happens now, in player words."""
    if obs.get("terminal"):
        return draw.game_over(obs.get("winners"), names)
    phase = obs["phase"]
    if phase in ("deal", "reveal"):
        return "Tiles are being revealed"
    head = f"Round {obs['round']}, step {obs['step']}: "
    rel = obs.get("released")
    if rel:
        who = seat_name(rel["player"], names)
        if rel["kind"] == "add":
            return f"{head}{who} adds {rel['tile']}"
        return f"{head}{who} swaps their Meca-Botanist"
    return f"{head}{seat_name(obs['active_player'], names)} takes a tile"


_LOG = (
    (re.compile(r"release P(\d+) (\S+)@(\d+)"),
     lambda m, names: f"{seat_name(int(m[1]), names)}'s {m[2]} is released from column {m[3]}"),
    (re.compile(r"swap P(\d+) (\S+) for (\S+)@(\d+)"),
     lambda m, names: f"{seat_name(int(m[1]), names)} swaps {m[2]} for {m[3]} on pile {m[4]}"),
    (re.compile(r"discard (\S+)"), lambda m, names: f"{m[1]} fits nowhere and is removed"),
    (re.compile(r"end"), lambda m, names: "the last tile is placed"),
)


def log_line(entry: str, names: Sequence[str] | None = None) -> str:
    """One entry of the observation's log in player words."""
    for pattern, say in _LOG:
        m = pattern.fullmatch(entry)
        if m:
            return say(m, names)
    return entry


def _machine_facts(obs: dict[str, Any], p: int) -> str:
    """Tiles connected and open ends of ``p``'s machine."""
    return (f"{draw.count(obs['main_tiles'][p], 'tile')} connected, "
            f"{draw.count(obs['open_ends'][p], 'open end')}")


def _removed(machine: list[dict[str, Any]]) -> list[str]:
    """The tiles of a machine not joined to its Source (they score nothing at the end)."""
    return [t["tile"] for t in machine if not t["main"]]


def _removed_note(p: int, removed: list[str], names: Sequence[str] | None) -> str:
    """The sentence naming the tiles of ``p``'s machine that score nothing at the end."""
    return f"{seat_name(p, names)}: not joined to the Source, no points: {', '.join(removed)}"


# ------------------------------------------------------------------------------------- SVG
def _symbol(letter: str, cx: float, cy: float, r: float) -> str:
    """The tile colour's shape, so colour is never the only cue."""
    if letter == "R":
        return draw.circle(cx, cy, r, fill="#fff", stroke=INK, stroke_width="0.8")
    if letter == "Y":
        return draw.path(f"M{cx:.1f} {cy - r:.1f}L{cx + r:.1f} {cy + r:.1f}"
                         f"L{cx - r:.1f} {cy + r:.1f}Z", fill="#fff", stroke=INK,
                         stroke_width="0.8")
    if letter == "G":
        return draw.rect(cx - r, cy - r, 2 * r, 2 * r, fill="#fff", stroke=INK,
                         stroke_width="0.8")
    if letter == "B":
        return draw.path(f"M{cx:.1f} {cy - r:.1f}L{cx + r:.1f} {cy:.1f}L{cx:.1f} {cy + r:.1f}"
                         f"L{cx - r:.1f} {cy:.1f}Z", fill="#fff", stroke=INK,
                         stroke_width="0.8")
    w = r / 2.5
    return (draw.rect(cx - r, cy - w, 2 * r, 2 * w, fill="#fff", stroke=INK, stroke_width="0.8")
            + draw.rect(cx - w, cy - r, 2 * w, 2 * r, fill="#fff", stroke=INK,
                        stroke_width="0.8"))


def _tile_svg(tile_id: str, x: float, y: float, size: float, exits: list[str] | None,
              colours: Sequence[Colour], elem_id: str | None = None,
              classes: str = "tile") -> str:
    """One tile: coloured square (a Source in its player's colour), its pipes (when placed),
    colour symbol, type mark, flowers."""
    letter = _colour(tile_id)
    source = tile_id.startswith("SRC")
    seat = _source_seat(tile_id) if source else -1
    if source and 0 <= seat < len(colours):
        fill = colours[seat].fill
    else:
        fill = COLOUR_FILL.get(letter or "", "#b9b9b9")
    parts = [draw.rect(x, y, size, size, rx=3, fill=fill, stroke=INK, stroke_width=1)]
    cx, cy = x + size / 2, y + size / 2
    if exits is not None:
        w = size * 0.22
        for d in exits:
            if d == "N":
                parts.append(draw.rect(cx - w / 2, y, w, size / 2, fill=PIPE, class_="pipe"))
            elif d == "S":
                parts.append(draw.rect(cx - w / 2, cy, w, size / 2, fill=PIPE, class_="pipe"))
            elif d == "E":
                parts.append(draw.rect(cx, cy - w / 2, size / 2, w, fill=PIPE, class_="pipe"))
            else:
                parts.append(draw.rect(x, cy - w / 2, size / 2, w, fill=PIPE, class_="pipe"))
        if exits:
            parts.append(draw.circle(cx, cy, w * 0.75, fill=PIPE))
    if source:
        parts.append(draw.circle(cx, cy, size * 0.22, fill=PAPER, stroke=INK))
        parts.append(draw.text(cx, cy + size * 0.1, "S", size=round(size * 0.28),
                               anchor="middle", weight="bold"))
    if letter:
        parts.append(_symbol(letter, x + size * 0.17, y + size * 0.17, size * 0.1))
        suffix = tile_id.split("-", 1)[1]
        mark = suffix if exits is None else TYPE_LETTER.get(suffix)
        if mark:
            parts.append(draw.text(x + size * 0.83, y + size * 0.3, mark,
                                   size=round(size * 0.24), anchor="middle", weight="bold",
                                   fill="#111"))
        for i in range(_flowers(tile_id)):
            parts.append(draw.circle(x + size * (0.2 + 0.2 * i), y + size * 0.85, size * 0.07,
                                     fill="#ff8fd0", stroke="#7a0050", stroke_width="0.6",
                                     class_="flower"))
    parts.append(draw.title(tile_id))
    return draw.group(parts, id=elem_id, class_=classes, data_tile=tile_id)


def _machine_svg(p: int, obs: dict[str, Any], ox: float, oy: float,
                 names: Sequence[str] | None, colours: Sequence[Colour]
                 ) -> tuple[str, float, float]:
    """Player ``p``'s machine with its heading: the SVG, its width and its height."""
    machine = obs["machines"][p]
    released = obs.get("released")
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
    current = obs.get("current_player") == p and not obs.get("terminal")
    parts = [
        draw.player_line(p, colours, names, ox, oy + 14, max(w, 260), obs["scores"][p],
                         size=14, viewer=obs.get("viewer"), current=current),
        draw.text(ox, oy + 31, _machine_facts(obs, p), size=12, fill=INK),
    ]
    top = oy + 42
    parts.append(draw.rect(ox - 3, top - 3, w + 6, h + 6, rx=5, stroke=colours[p].fill,
                           stroke_width=2.5, class_="machine-frame"))
    for r, c in sorted(empty):
        x = ox + (c - cmin) * CELL
        y = top + (r - rmin) * CELL
        parts.append(draw.rect(x + 1, y + 1, CELL - 2, CELL - 2, id=f"m{p}-cell-{r}-{c}",
                               class_="slot", fill=SLOT, stroke="#ccc", stroke_dasharray="3 2"))
    for (r, c), t in sorted(cells.items()):
        x = ox + (c - cmin) * CELL
        y = top + (r - rmin) * CELL
        cls = "tile placed" + ("" if t["main"] else " off-main")
        parts.append(_tile_svg(t["tile"], x + 1, y + 1, CELL - 2, t["exits"], colours,
                               f"m{p}-cell-{r}-{c}", cls))
        if not t["main"]:
            parts.append(draw.rect(x + 1, y + 1, CELL - 2, CELL - 2, fill="#fff", opacity="0.45",
                                   pointer_events="none"))
    if released and released.get("player") == p:
        # the released tile at each legal cell and rotation, shown while that action is previewed
        for r, c, k, exits in released.get("placements", []):
            x = ox + (c - cmin) * CELL
            y = top + (r - rmin) * CELL
            parts.append(_tile_svg(released["tile"], x + 1, y + 1, CELL - 2, exits, colours,
                                   f"m{p}-ghost-{r}-{c}-{k}", "ghost"))
    return draw.group(parts, id=f"machine-{p}", class_="machine"), w, h + 48


def _side_label(p: int, colours: Sequence[Colour], names: Sequence[str] | None, x: float,
                y: float) -> str:
    """"<name>'s side" with the player's mark, over their row of the registry."""
    return draw.group(
        [draw.player_mark(colours[p], x + 6, y - 4, 6),
         draw.text(x + 16, y, f"{seat_name(p, names)}'s side", size=11)],
        class_="player", data_seat=p,
    )


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as a standalone SVG: registry, arrival and both machines with their players'
    points (the clients draw the results table)."""
    obs = observation
    colours = SEAT_COLOURS
    head, head_h = draw.header(20, 4, "Botanik", _status_line(obs, names))
    parts: list[str] = [STYLE, head]
    # registry: player 2's row, the piles, player 1's row
    rx, ry = 20, round(head_h + 10)
    row_w = 5 * (T + GAP) - GAP
    for i, q in enumerate((1, None, 0)):
        y = ry + i * (T + GAP + 18)
        yy = y + 16
        if q is None:
            parts.append(draw.text(rx, y + 10, "Central piles", size=11))
        else:
            parts.append(_side_label(q, colours, names, rx, y + 10))
            parts.append(draw.rect(rx - 3, yy - 3, row_w + 6, T + 6, rx=5,
                                   stroke=colours[q].fill, stroke_width=2.5,
                                   class_="side-frame"))
        for j in range(5):
            x = rx + j * (T + GAP)
            if q is None:
                top = obs["pile_tops"][j]
                height = obs["pile_heights"][j]
                if top:
                    parts.append(draw.group(
                        [_tile_svg(top, x, yy, T, None, colours),
                         draw.text(x + T - 3, yy + T - 3, f"×{height}", size=10, anchor="end")],
                        id=f"pile-{j}", class_="pile"))
                else:
                    parts.append(draw.rect(x, yy, T, T, id=f"pile-{j}", class_="pile",
                                           fill="#eee", stroke="#999"))
            else:
                t = obs["rows"][q][j]
                if t:
                    parts.append(draw.group([_tile_svg(t, x, yy, T, None, colours)],
                                            id=f"row-{q}-{j}", class_="space full"))
                else:
                    parts.append(draw.rect(x, yy, T, T, id=f"row-{q}-{j}", class_="space empty",
                                           rx=3, fill=SLOT, stroke=MUTED,
                                           stroke_dasharray="4 3"))
    reg_h = ry + 3 * (T + GAP + 18) + 14
    # arrival, the released tile and the Meca pawn
    ax = rx + row_w + 36
    parts.append(draw.text(ax, ry + 10, f"Arrival (round {obs['round']}/{obs['rounds']}, "
                           f"{obs['tiles_left']} tiles left)", size=11))
    for i, t in enumerate(obs["arrival"]):
        parts.append(_tile_svg(t, ax + i * (T + GAP), ry + 16, T, None, colours, f"arrival-{t}",
                               "tile arrival"))
    rel = obs.get("released")
    info_y = ry + T + 42
    if rel:
        parts.append(draw.text(ax, info_y, "Released to", size=12))
        parts.append(draw.player_label(rel["player"], colours, names, ax + 74, info_y, size=12,
                                       viewer=obs.get("viewer")))
        parts.append(_tile_svg(rel["tile"], ax, info_y + 8, T, None, colours, "released",
                               "tile released"))
    if obs["meca_player"] is not None:
        my = reg_h - 24
        parts.append(draw.text(ax, my, "Meca pawn:", size=12))
        parts.append(draw.player_label(obs["meca_player"], colours, names, ax + 76, my,
                                       viewer=obs.get("viewer"),
                                       size=12))
    # machines side by side
    mx = 20.0
    mh = 0.0
    total_w: float = ax + 3 * (T + GAP) + 120
    for q in range(2):
        g, w, h = _machine_svg(q, obs, mx, reg_h, names, colours)
        parts.append(g)
        mx += max(w, 260) + 40
        mh = max(mh, h)
    total_w = max(total_w, mx)
    total_h: float = reg_h + mh + 20
    if obs.get("terminal"):  # what scores nothing, below the machines
        for q in range(2):
            removed = _removed(obs["machines"][q])
            if removed:
                note = _removed_note(q, removed, names)
                total_h += 16
                parts.append(draw.text(20, total_h, note, size=12, class_="breakdown-note"))
                total_w = max(total_w, 40 + 7 * len(note))
        total_h += 16
    return draw.document(total_w, total_h, parts, cls="botanik", label="Botanik board")


# ------------------------------------------------------------------------------------- text
def _tile_text(tile_id: str | None, colours: Sequence[Colour], exits: list[str] | None = None,
               dim: bool = False) -> str:
    """A tile as 4 characters of rich markup: colour symbol, pipe glyph or type, flowers."""
    if not tile_id:
        return "[dim] ·· [/dim]"
    if tile_id.startswith("SRC"):
        seat = _source_seat(tile_id)
        c = colours[seat] if 0 <= seat < len(colours) else None
        style = f"bold {c.ink} on {c.fill}" if c else "bold white on grey23"
        return f"[{style}]S" + GLYPH[15] + "S[/] "
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


def _machine_text(machine: list[dict[str, Any]], colours: Sequence[Colour]) -> list[str]:
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
                row.append(_tile_text(t["tile"], colours, t["exits"], not t["main"]))
        lines.append(f"  {r:>3} " + "".join(row))
    return lines


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board for a terminal: rich markup, readable without colour (letters, pipe glyphs)."""
    obs = observation
    colours = SEAT_COLOURS
    out = [f"[bold]Botanik[/bold] — {draw.plain(_status_line(obs, names))}"]
    if obs["meca_player"] is not None:
        out.append(f"Meca pawn: {draw.who(obs['meca_player'], colours, names)}   "
                   f"tiles left in the supply: {obs['tiles_left']}")
    out.append("")
    sides = [f"{seat_name(q, names)}'s side" for q in range(2)]
    width = max(17, *(len(s) for s in sides)) + 2
    out.append("Registry (column)".ljust(width + 1) + "".join(f"{j:<9}" for j in range(5)))

    def row(q: int) -> str:
        return "".join((_tile_text(t, colours) if t else "[dim]-----[/dim]") + "    "
                       for t in obs["rows"][q])

    def label(q: int) -> str:
        c = colours[q]
        return f"[{c.fill}]{c.symbol}[/] " + draw.plain(sides[q].ljust(width - 1))

    out.append(label(1) + row(1))
    piles = [_tile_text(t, colours) + f" ×{h:<2}"
             for t, h in zip(obs["pile_tops"], obs["pile_heights"], strict=True) if t]
    out.append("  " + "central piles".ljust(width - 1) + "".join(piles))
    out.append(label(0) + row(0))
    out.append("")
    out.append("Arrival: " + ("  ".join(_tile_text(t, colours) for t in obs["arrival"])
                              or "empty"))
    rel = obs.get("released")
    if rel:
        out.append(f"Released to {draw.who(rel['player'], colours, names)}: "
                   f"{_tile_text(rel['tile'], colours)}"
                   + ("  (choose a pile to swap with)" if rel["kind"] == "swap" else ""))
        places = rel.get("placements")
        if places:
            shown = [f"{r},{c}/{k} {''.join(ex)}" for r, c, k, ex in places[:24]]
            more = f" … and {len(places) - 24} more" if len(places) > 24 else ""
            out.append(f"It fits at (cell/rotation pipes): {', '.join(shown)}{more}")
    if obs.get("waiting"):
        out.append("Still to resolve: " + ", ".join(obs["waiting"]))
    final = bool(obs.get("terminal"))
    viewer = obs.get("viewer")
    width = draw.who_width(2, names, viewer)
    for q in range(2):
        # at the end the totals are in the clients' results table, once
        points = "" if final else draw.points(obs["scores"][q]) + ", "
        current = obs.get("current_player") == q and not final
        out.append("")
        out.append(f"{draw.who(q, colours, names, viewer, current=current, width=width)}  "
                   f"machine: {points}{_machine_facts(obs, q)} "
                   "(a ? marks tiles not connected to the Source)")
        out.extend(_machine_text(obs["machines"][q], colours))
    if obs.get("log"):
        out.append("")
        out.append("Recent: " + draw.plain("; ".join(log_line(e, names)
                                                     for e in obs["log"][-6:])))
    if final:
        for q in range(2):
            removed = _removed(obs["machines"][q])
            if removed:
                out.append(draw.plain(_removed_note(q, removed, names)))
    out.append("")
    out.append("Legend: R● red, Y▲ yellow, G■ green, B◆ blue, K✚ black; digit = flowers; "
               "P plant, V vegetable, M Meca-Botanist, + cross; pipes drawn as │─└┌├┼")
    return "\n".join(out)
