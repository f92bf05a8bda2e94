"""KoPlus pictures drawn from an observation: an SVG board with a score panel, and terminal text.

SVG ids: every board cell is ``cell-R-C`` (class ``cell``), the elements the web client points
at and highlights; tiles, aliens and outlines ignore the pointer so cells stay reachable.
Each player is drawn in their one seat colour (:data:`.components.SEAT_COLOURS`, the colours
of ``KoPlus.colours``) with its symbol, and named as everywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as s
from meeple.engine.look import MUTED, PAPER, Colour, seat_name
from meeple.engine.scores import score_lines, score_table_text

from .components import SEAT_COLOURS, SHAPE_TARGET

CELL = 30
MARGIN = 22
PANEL = 270
ROW = 46
"""The height of one player's lines in the panel."""
ALIEN_COLOURS = {1: "#8bc34a", 2: "#26a69a", 3: "#7e57c2", 4: "#ec407a", 5: "#ff7043"}
"""The aliens' own colours by value (game things, not players)."""
INNER_FILL = "#efe4c6"
"""The first-tile (inner) area of the board."""
LINES = "#d8cfb8"
SECTION_EDGE = "#5d4a2e"
INNER_EDGE = "#b8860b"


def _colours(obs: dict[str, Any]) -> Sequence[Colour]:
    return SEAT_COLOURS[: obs["players"]]


def _name(p: int, names: Sequence[str] | None, viewer: int | None = None) -> str:
    return seat_name(p, names) + (" (you)" if p == viewer else "")


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def status(obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """One line saying what happens now, in player words."""
    phase = obs.get("phase")
    if phase == "setup":
        total = obs["section_grid"][0] * obs["section_grid"][1]
        return f"Setting up: {obs['sections_dealt']} of {total} sections laid"
    if phase == "end":
        winners = [seat_name(p, names) for p in obs.get("winners") or []]
        if not winners:
            return "Game over"
        if len(winners) == 1:
            return f"Game over: {winners[0]} wins"
        return f"Game over: {_and(winners)} share first place"
    cp = obs["current_player"]
    shape = obs["next_shape"][cp]
    what = f"places {shape}" if obs["can_place"][cp] else "must pass"
    bonus = " (bonus turn)" if obs.get("bonus_turn") else ""
    return f"{seat_name(cp, names)} {what}{bonus}"


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


def _tile(tile: dict[str, Any], colour: Colour, last: bool) -> str:
    """One placed tile: its cells in the player's colour, its outline, the player's mark."""
    p = tile["player"]
    body = [
        s.rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, fill=colour.fill,
               fill_opacity="0.45")
        for r, c in tile["cells"]
    ]
    outline = _outline(tile["cells"])
    body.append(s.path(outline, stroke=colour.fill, stroke_width="3.5",
                       stroke_linecap="square"))
    if last:
        body.append(s.path(outline, class_="last-move"))
    # the mark sits in the corner of the cell a player points at to lay this shape
    top = min(r for r, _ in tile["cells"])
    left = min(c for _, c in tile["cells"])
    tr, tc = SHAPE_TARGET[tile["shape"]]
    body.append(s.player_mark(colour, MARGIN + (left + tc) * CELL + 7,
                              MARGIN + (top + tr) * CELL + 7, 6))
    return s.group(body, class_=f"tile player-{p}" + (" last" if last else ""),
                   data_tile=tile["notation"], data_seat=p)


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as seen by ``observation['viewer']``: sections, aliens, tiles, the players
    and, at the end, the final scoring."""
    obs = observation
    rows, cols = obs["rows"], obs["cols"]
    colours = _colours(obs)
    ir = obs["inner_area"]
    r0, r1 = ir["rows"]
    c0, c1 = ir["cols"]
    owner = obs["owner"]
    out = []
    # cells: the pointer targets
    cells = []
    for r in range(rows):
        for c in range(cols):
            inner = r0 <= r <= r1 and c0 <= c <= c1
            cls = "cell" + (" inner" if inner else "") + (" occupied" if owner[r][c] >= 0 else "")
            cells.append(s.rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL,
                                fill=INNER_FILL if inner else PAPER, id=f"cell-{r}-{c}",
                                class_=cls, stroke=LINES, stroke_width="0.6", data_row=r,
                                data_col=c))
    out.append(s.group(cells, class_="cells"))
    # tiles in their players' colours
    last = len(obs["tiles"]) - 1
    out.append(s.group(
        [_tile(t, colours[t["player"]], i == last) for i, t in enumerate(obs["tiles"])],
        class_="tiles", pointer_events="none",
    ))
    # aliens with their values
    aliens = []
    for r in range(rows):
        for c in range(cols):
            v = obs["aliens"][r][c]
            if not v:
                continue
            cx, cy = MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2
            caught = owner[r][c] >= 0
            aliens.append(s.group(
                [s.circle(cx, cy, 10, fill=ALIEN_COLOURS.get(v, MUTED),
                          fill_opacity="0.55" if caught else "1", stroke="#333",
                          stroke_width="0.8"),
                 s.text(cx, cy + 4.5, v, size=13, anchor="middle", weight="bold",
                        fill="#fff")],
                class_=f"alien value-{v}" + (" caught" if caught else ""),
            ))
    out.append(s.group(aliens, class_="aliens", pointer_events="none"))
    # section borders and the first-tile area
    size = obs["section_size"]
    frames = []
    for sec in obs["sections"]:
        frame = s.attrs(class_="section", x=MARGIN + sec["col"] * CELL,
                        y=MARGIN + sec["row"] * CELL, width=size * CELL, height=size * CELL,
                        stroke=SECTION_EDGE, stroke_width=2)
        frames.append(f"<rect{frame}>{s.title(_section_title(sec))}</rect>")
    frames.append(s.rect(MARGIN + c0 * CELL, MARGIN + r0 * CELL, (c1 - c0 + 1) * CELL,
                         (r1 - r0 + 1) * CELL, class_="inner-area", stroke=INNER_EDGE,
                         stroke_width="1.5", stroke_dasharray="6 4"))
    out.append(s.group(frames, class_="sections", pointer_events="none", fill="none"))
    # coordinates
    coords = [s.text(MARGIN + c * CELL + CELL / 2, MARGIN - 7, c, size=10, anchor="middle",
                     fill=MUTED) for c in range(cols)]
    coords += [s.text(MARGIN - 5, MARGIN + r * CELL + CELL / 2 + 3, r, size=10, anchor="end",
                      fill=MUTED) for r in range(rows)]
    out.append(s.group(coords, class_="coords", pointer_events="none"))
    board_w = MARGIN * 2 + cols * CELL
    panel, panel_h = _panel(obs, names, board_w)
    out.append(panel)
    width = board_w + PANEL
    height = max(MARGIN * 2 + rows * CELL, MARGIN + panel_h + 10)
    lines = score_lines(obs)
    if lines:
        table, table_w, table_h = s.score_table(lines, colours, names, MARGIN, height + 24,
                                                obs.get("ranks"))
        out.append(s.group([s.text(MARGIN, height + 12, "Final scoring", size=14,
                                   weight="bold"), table], class_="final"))
        notes = [f"{seat_name(ln.player, names)}: {ln.note}" for ln in lines if ln.note]
        ny = height + 24 + table_h + 10
        for note in notes:
            out.append(s.text(MARGIN, ny, note, size=11, fill=MUTED, class_="note"))
            ny += 16
        width = max(width, MARGIN * 2 + table_w)
        height = ny + 4
    return s.document(width, height, out, cls="koplus-board", label="KoPlus board")


def _section_title(sec: dict[str, Any]) -> str:
    turns = sec["rotation"]
    if not turns:
        return f"Section {sec['section']}, not turned"
    return f"Section {sec['section']}, turned {turns} quarter{'s' if turns > 1 else ''} clockwise"


def _panel(obs: dict[str, Any], names: Sequence[str] | None, x0: int) -> tuple[str, int]:
    """The title, what happens now and a row per player; the SVG and its height."""
    viewer = obs.get("viewer")
    cp = obs["current_player"]
    colours = _colours(obs)
    out = [s.text(0, 14, "KoPlus", size=17, weight="bold"),
           s.status(0, 38, status(obs, names), size=13)]
    y = 58
    final = bool(obs.get("final_breakdown"))
    for p in range(obs["players"]):
        to_move = p == cp
        row = []
        if to_move:
            row.append(s.rect(-5, -3, PANEL - 26, ROW - 6, rx=5, class_="current"))
        # the frame marks the player to act (the label's own mark would stroke the name)
        row.append(s.player_label(p, colours, names, 0, 16, viewer=viewer))
        if not final:  # at the end the totals are in the final scoring, once
            row.append(s.text(PANEL - 38, 16, _num(obs["scores"][p]), size=15, anchor="end",
                              weight="bold", class_="score"))
        shape = obs["next_shape"][p] or "none"
        tiles = obs["tiles_left"][p]
        bonus = obs["bonus_left"][p]
        row.append(s.text(18, 33, f"{tiles} tile{'s' if tiles != 1 else ''} left, next "
                          f"{shape}, {bonus} bonus turn{'s' if bonus != 1 else ''}",
                          size=11, fill=MUTED))
        cls = f"seat player-{p}" + (" viewer" if p == viewer else "") + (
            " to-move" if to_move else "")
        out.append(s.group(row, class_=cls, transform=f"translate(0,{y})"))
        y += ROW
    return s.group(out, class_="panel", transform=f"translate({x0},{MARGIN})"), y


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _plain(words: str) -> str:
    """Text shown as it is in rich markup (brackets escaped)."""
    return words.replace("[", "\\[")


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as rich markup: each player's symbol in their colour for their tiles (reversed
    where the tile caught an alien), digits for the aliens still free."""
    obs = observation
    rows, cols = obs["rows"], obs["cols"]
    size = obs["section_size"]
    owner, aliens = obs["owner"], obs["aliens"]
    colours = _colours(obs)
    ir = obs["inner_area"]
    r0, r1 = ir["rows"]
    c0, c1 = ir["cols"]
    lines = [f"[bold]KoPlus[/bold]  {_plain(status(obs, names))}"]
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
                colour = colours[p]
                style = f"bold {colour.fill}" if not v else f"bold reverse {colour.fill}"
                row += f"  [{style}]{colour.symbol}[/]"
            elif v:
                row += f"  [bold]{v}[/bold]"
            elif r0 <= r <= r1 and c0 <= c <= c1:
                row += "  [yellow]·[/yellow]"
            else:
                row += "  [dim]·[/dim]"
        lines.append(row)
    lines.append("[dim](a player's symbol: their tile, reversed over a caught alien; digits: "
                 "aliens still free; yellow dots: first-tile area)[/dim]")
    viewer = obs.get("viewer")
    cp = obs["current_player"]
    width = max(len(_name(p, names, viewer)) for p in range(obs["players"]))
    final = bool(obs.get("final_breakdown"))
    for p in range(obs["players"]):
        colour = colours[p]
        mark = "▶" if p == cp else " "
        shape = obs["next_shape"][p] or "none"
        # at the end the totals are in the final scoring, once
        score = "" if final else f"score [bold]{_num(obs['scores'][p])}[/bold]  "
        lines.append(
            f"{mark} [bold {colour.fill}]{colour.symbol}[/] "
            f"{_plain(_name(p, names, viewer)):<{width}}  {score}"
            f"tiles left {obs['tiles_left'][p]:>2}  next {shape}  "
            f"bonus turns {obs['bonus_left'][p]}"
        )
    table = score_table_text(score_lines(obs), names, obs.get("ranks"))
    if table:
        lines.append("[bold]Final scoring[/bold]")
        lines.append(_plain(table))
    return "\n".join(lines)
