"""KoPlus pictures drawn from an observation: an SVG board with a score panel, and terminal text.

SVG ids: every board cell is ``cell-R-C`` (class ``cell``), the elements the web client points
at and highlights; tiles, aliens and outlines ignore the pointer so cells stay reachable.
Each player is drawn in their one seat colour (:data:`.components.SEAT_COLOURS`, the colours
of ``KoPlus.colours``) with its symbol, and named as everywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.look import MUTED, PAPER, Colour, seat_name
from meeple.engine.scores import fmt

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


def status(obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """One line saying what happens now, in player words."""
    phase = obs.get("phase")
    if phase == "setup":
        total = obs["section_grid"][0] * obs["section_grid"][1]
        return f"Setting up: {obs['sections_dealt']} of {total} sections laid"
    if phase == "end":
        return draw.game_over(obs.get("winners"), names)
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
        draw.rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, fill=colour.fill,
               fill_opacity="0.45")
        for r, c in tile["cells"]
    ]
    outline = _outline(tile["cells"])
    body.append(draw.path(outline, stroke=colour.fill, stroke_width="3.5",
                       stroke_linecap="square"))
    if last:
        body.append(draw.path(outline, class_="last-move"))
    # the mark sits in the corner of the cell a player points at to lay this shape
    top = min(r for r, _ in tile["cells"])
    left = min(c for _, c in tile["cells"])
    tr, tc = SHAPE_TARGET[tile["shape"]]
    body.append(draw.player_mark(colour, MARGIN + (left + tc) * CELL + 7,
                              MARGIN + (top + tr) * CELL + 7, 6))
    return draw.group(body, class_=f"tile player-{p}" + (" last" if last else ""),
                   data_tile=tile["notation"], data_seat=p)


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as seen by ``observation['viewer']``: sections, aliens, tiles and the players
    with their points (the clients draw the results table)."""
    obs = observation
    rows, cols = obs["rows"], obs["cols"]
    colours = SEAT_COLOURS
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
            cells.append(draw.rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL,
                                fill=INNER_FILL if inner else PAPER, id=f"cell-{r}-{c}",
                                class_=cls, stroke=LINES, stroke_width="0.6", data_row=r,
                                data_col=c))
    out.append(draw.group(cells, class_="cells"))
    # tiles in their players' colours
    last = len(obs["tiles"]) - 1
    out.append(draw.group(
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
            aliens.append(draw.group(
                [draw.circle(cx, cy, 10, fill=ALIEN_COLOURS.get(v, MUTED),
                          fill_opacity="0.55" if caught else "1", stroke="#333",
                          stroke_width="0.8"),
                 draw.text(cx, cy + 4.5, v, size=13, anchor="middle", weight="bold",
                        fill="#fff")],
                class_=f"alien value-{v}" + (" caught" if caught else ""),
            ))
    out.append(draw.group(aliens, class_="aliens", pointer_events="none"))
    # section borders and the first-tile area
    size = obs["section_size"]
    frames = []
    for sec in obs["sections"]:
        frame = draw.attrs(class_="section", x=MARGIN + sec["col"] * CELL,
                        y=MARGIN + sec["row"] * CELL, width=size * CELL, height=size * CELL,
                        stroke=SECTION_EDGE, stroke_width=2)
        frames.append(f"<rect{frame}>{draw.title(_section_title(sec))}</rect>")
    frames.append(draw.rect(MARGIN + c0 * CELL, MARGIN + r0 * CELL, (c1 - c0 + 1) * CELL,
                         (r1 - r0 + 1) * CELL, class_="inner-area", stroke=INNER_EDGE,
                         stroke_width="1.5", stroke_dasharray="6 4"))
    out.append(draw.group(frames, class_="sections", pointer_events="none", fill="none"))
    # coordinates
    coords = [draw.text(MARGIN + c * CELL + CELL / 2, MARGIN - 7, c, size=10, anchor="middle",
                     fill=MUTED) for c in range(cols)]
    coords += [draw.text(MARGIN - 5, MARGIN + r * CELL + CELL / 2 + 3, r, size=10, anchor="end",
                      fill=MUTED) for r in range(rows)]
    out.append(draw.group(coords, class_="coords", pointer_events="none"))
    board_w = MARGIN * 2 + cols * CELL
    panel, panel_h = _panel(obs, names, board_w)
    out.append(panel)
    width = board_w + PANEL
    height = max(MARGIN * 2 + rows * CELL, MARGIN + panel_h + 10)
    return draw.document(width, height, out, cls="koplus-board", label="KoPlus board")


def _section_title(sec: dict[str, Any]) -> str:
    turns = sec["rotation"]
    if not turns:
        return f"Section {sec['section']}, not turned"
    return f"Section {sec['section']}, turned {draw.count(turns, 'quarter')} clockwise"


def _panel(obs: dict[str, Any], names: Sequence[str] | None, x0: int) -> tuple[str, float]:
    """The title, what happens now and a row per player; the SVG and its height."""
    viewer = obs.get("viewer")
    cp = obs["current_player"] if obs.get("phase") == "play" else None
    head, y = draw.header(0, 0, "KoPlus", status(obs, names))
    out = [head]
    y += 16
    for p in range(obs["players"]):
        shape = obs["next_shape"][p] or "none"
        tiles = obs["tiles_left"][p]
        bonus = obs["bonus_left"][p]
        row = [
            draw.player_line(p, SEAT_COLOURS, names, 0, 0, PANEL - 38, obs["scores"][p],
                             viewer=viewer, current=p == cp),
            draw.text(18, 17, f"{draw.count(tiles, 'tile')} left, next {shape}, "
                      f"{draw.count(bonus, 'bonus turn')}",
                      size=11, fill=MUTED),
        ]
        cls = f"seat player-{p}" + (" viewer" if p == viewer else "") + (
            " to-move" if p == cp else "")
        out.append(draw.group(row, class_=cls, transform=f"translate(0,{y:g})"))
        y += ROW
    return draw.group(out, class_="panel", transform=f"translate({x0},{MARGIN})"), y


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as rich markup: each player's symbol in their colour for their tiles (reversed
    where the tile caught an alien), digits for the aliens still free."""
    obs = observation
    rows, cols = obs["rows"], obs["cols"]
    size = obs["section_size"]
    owner, aliens = obs["owner"], obs["aliens"]
    colours = SEAT_COLOURS
    ir = obs["inner_area"]
    r0, r1 = ir["rows"]
    c0, c1 = ir["cols"]
    lines = [f"[bold]KoPlus[/bold]  {draw.plain(status(obs, names))}"]
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
    cp = obs["current_player"] if obs.get("phase") == "play" else None
    width = draw.who_width(obs["players"], names, viewer)
    final = bool(obs.get("final_breakdown"))
    for p in range(obs["players"]):
        shape = obs["next_shape"][p] or "none"
        # at the end the totals are in the clients' results table, once
        score = "" if final else f"score [bold]{fmt(obs['scores'][p])}[/bold]  "
        lines.append(
            f"{draw.who(p, SEAT_COLOURS, names, viewer, current=p == cp, width=width)}  "
            f"{score}tiles left {obs['tiles_left'][p]:>2}  next {shape}  "
            f"bonus turns {obs['bonus_left'][p]}"
        )
    return "\n".join(lines)
