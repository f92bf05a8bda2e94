"""KoPlus pictures drawn from an observation: the board as a player knows it, with the
players below it, and the same board as terminal text.

The SVG fits a phone: it is about 360 units wide (the width a phone gives the board), every
text at least 12 units high. Every board cell is ``cell-R-C`` (class ``cell``), the elements
the web client points at and highlights (``target``, styled here as a warm glow); aliens,
tiles and frames ignore the pointer so the cells stay reachable. The board's sections are
framed blocks, the first-tile area tinted lilac with a dashed edge; the aliens are little monsters
with their points as dots on their bellies; each NET tile is a solid plus or U in its
player's one colour (:data:`.components.SEAT_COLOURS`) with their symbol, the last one laid
edged as ``last-move``. Below the board each player has their name, points, the tiles still
in their hand by shape (the next one first, larger) and the bonus turns left.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.i18n import words
from meeple.engine.look import HIGHLIGHT, INK, MUTED, seat_name
from meeple.engine.scores import fmt

from . import art
from .components import SEAT_COLOURS
from .notation import place_words

WIDTH = 360
"""The picture's width in SVG units (what a phone shows of it at one CSS pixel each)."""
LEFT = 18
"""Room for the row numbers left of the board."""
TOP = 15
"""Room for the column numbers above the board."""
RIGHT = 6
LABEL = 21
"""The size of a player's label: its symbol is then at least 12 units high."""
MINI = 5
"""A tile in hand: one cell of its drawing."""
NEXT = 7
"""The next tile in hand: one cell of its larger drawing."""
ROW = 55
"""The height of one player's lines below the board."""

CELL_FILL = "#f7f1e1"
INNER_FILL = "#e6e0f2"
"""The first-tile (inner) area of the board."""
LINES = "#cbbf9f"
SECTION_EDGE = "#3d3350"
INNER_EDGE = "#6c5a9c"
SLOT = "#d9d3c4"
"""A place on the board where no section is laid yet."""
STYLE = (
    "<style>"
    ".koplus-board .cell.target{fill:#ffe47a;stroke:" + HIGHLIGHT + ";stroke-width:1.2}"
    ".koplus-board .cell.target.active,.koplus-board .cell.preview-target{fill:#ffd23a}"
    ".koplus-board .last-move{stroke-width:3}"
    "</style>"
)
"""Legal places (the client adds ``target`` to them) glow warm over the board's paper."""

_, _n = words(__file__)


def _cell_size(cols: int) -> float:
    """The size of a board cell so that the board fills the picture's width."""
    return (WIDTH - LEFT - RIGHT) / cols


def status(obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """One line saying what happens now, in player words."""
    phase = obs.get("phase")
    if phase == "setup":
        total = obs["section_grid"][0] * obs["section_grid"][1]
        return _("Setting up: {laid} of {total} sections laid", laid=obs["sections_dealt"],
                 total=total)
    if phase == "end":
        return draw.game_over(obs.get("winners"), names)
    cp = obs["current_player"]
    shape = obs["next_shape"][cp]
    who = seat_name(cp, names)
    if not obs["can_place"][cp]:
        if obs.get("bonus_turn"):
            return _("{player}'s bonus turn: must pass", player=who)
        return _("{player}'s turn: must pass", player=who)
    if obs.get("bonus_turn"):
        if shape == "X":
            return _("{player}'s bonus turn: lay a plus", player=who)
        return _("{player}'s bonus turn: lay a U", player=who)
    if shape == "X":
        return _("{player}'s turn: lay a plus", player=who)
    return _("{player}'s turn: lay a U", player=who)


def last_words(obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The last tile laid, in words ("Ann laid a plus centred on row 3, column 4: 3 points"),
    or ""."""
    tile = obs.get("last_tile")
    if not tile:
        return ""
    rows = sorted({r for r, _ in tile["cells"]})
    cols = sorted({c for _, c in tile["cells"]})
    who = seat_name(tile["player"], names)
    points = _n("{n} point", "{n} points", tile["points"])
    if tile["shape"] == "X":
        return _("{player} laid a plus centred on {where}: {points}", player=who,
                 where=place_words(rows[1], cols[1]), points=points)
    return _("{player} laid a U covering rows {first_row} to {last_row}, columns {first_col} "
             "to {last_col}: {points}", player=who, first_row=rows[0] + 1,
             last_row=rows[-1] + 1, first_col=cols[0] + 1, last_col=cols[-1] + 1,
             points=points)


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as seen by ``observation['viewer']``: sections, aliens, tiles and, below,
    the players with their points and hands (the clients draw the results table)."""
    obs = observation
    rows, cols = obs["rows"], obs["cols"]
    size = _cell_size(cols)
    head, head_h = draw.header(8, 0, "KoPlus", status(obs, names))
    y0 = head_h + TOP
    x0 = LEFT
    board = _board(obs, x0, y0, size)
    y = y0 + rows * size + 8
    for line in draw.wrap(last_words(obs, names), WIDTH - 16, 13):
        board.append(draw.text(8, y + 13, line, size=13, fill=MUTED, class_="last-words"))
        y += 18
    y += 2 if obs.get("last_tile") else 0
    panel, panel_h = _players(obs, names, y)
    out = [STYLE, draw.region("board", 0, head_h, WIDTH, y - head_h, board),
           draw.region("head", 0, 0, WIDTH, head_h, [head]),
           draw.region("players", 0, y, WIDTH, panel_h + 4, [panel])]
    return draw.document(WIDTH, round(y + panel_h + 4, 1), out, cls="koplus-board",
                         label=_("KoPlus board"))


def _board(obs: dict[str, Any], x0: float, y0: float, size: float) -> list[str]:
    """The board's layers: cells, frames, aliens, tiles, coordinates."""
    rows, cols = obs["rows"], obs["cols"]
    ir = obs["inner_area"]
    r0, r1 = ir["rows"]
    c0, c1 = ir["cols"]
    owner, aliens = obs["owner"], obs["aliens"]
    step = obs["section_size"]
    laid = {(s["row"], s["col"]) for s in obs["sections"]}
    out = []
    cells = []
    for r in range(rows):
        for c in range(cols):
            inner = r0 <= r <= r1 and c0 <= c <= c1
            fill = (INNER_FILL if inner else CELL_FILL) if (r - r % step, c - c % step) in laid \
                else SLOT
            cells.append(_cell(r, c, x0, y0, size, fill, inner, owner[r][c] >= 0))
    out.append(draw.group(cells, class_="cells", stroke=LINES, stroke_width="0.6"))
    # the sections as framed blocks, the first-tile area edged in gold
    frames = [_section(sec["row"], sec["col"], sec["rotation"], x0, y0, size, step)
              for sec in obs["sections"]]
    inset = 2.2
    frames.append(draw.rect(x0 + c0 * size + inset, y0 + r0 * size + inset,
                            (c1 - c0 + 1) * size - 2 * inset, (r1 - r0 + 1) * size - 2 * inset,
                            class_="inner-area", stroke=INNER_EDGE, stroke_width="1.6",
                            stroke_dasharray="5 3"))
    frames.append(draw.rect(x0, y0, cols * size, rows * size, stroke=SECTION_EDGE,
                            stroke_width="3", class_="board-edge"))
    out.append(draw.group(frames, class_="sections", pointer_events="none", fill="none"))
    # the aliens, then the tiles over them (the caught ones show faintly through the net)
    creatures = [art.alien(v, x0 + c * size + size * 0.03, y0 + r * size + size * 0.04,
                           size * 0.94, caught=owner[r][c] >= 0)
                 for r in range(rows) for c in range(cols) if (v := aliens[r][c])]
    values = [v for row in aliens for v in row if v]
    out.append(art.alien_defs(values))
    out.append(draw.group(creatures, class_="aliens", pointer_events="none"))
    tiles = obs["tiles"]
    last = len(tiles) - 1
    drawn = [_tile(tuple(map(tuple, t["cells"])), t["player"], t["shape"], t["notation"], x0, y0,
                   size, i == last) for i, t in enumerate(tiles)]
    out.append(draw.group(drawn, class_="tiles", pointer_events="none"))
    out.append(_coords(rows, cols, x0, y0, size))
    return out


@lru_cache(maxsize=8192)
def _tile(cells: tuple[tuple[int, int], ...], player: int, shape: str, notation: str, x0: float,
          y0: float, size: float, last: bool) -> str:
    """A laid tile in its player's colour, the last one laid edged (``last-move``)."""
    body = art.net(cells, SEAT_COLOURS[player], x0, y0, size, edge=max(2.0, size * 0.1),
                   symbol_at=art.symbol_cell(shape, cells))
    if last:
        edges = art.outline(cells, x0, y0, size)
        body += draw.path(edges, stroke=INK, stroke_width="4.5", stroke_linecap="square")
        body += draw.path(edges, class_="last-move", stroke_linecap="square")
    return draw.group([body], class_=f"tile player-{player}" + (" last" if last else ""),
                      data_tile=notation, data_seat=player)


@lru_cache(maxsize=8192)
def _cell(r: int, c: int, x0: float, y0: float, size: float, fill: str, inner: bool,
          occupied: bool) -> str:
    """One board cell, the picture's most numerous element (written out directly: numbers
    and fixed words, nothing to escape)."""
    cls = "cell" + (" inner" if inner else "") + (" occupied" if occupied else "")
    return (f'<rect x="{x0 + c * size:g}" y="{y0 + r * size:g}" width="{size:g}" '
            f'height="{size:g}" fill="{fill}" id="cell-{r}-{c}" class="{cls}"/>')


@draw.memo()
def _section(row: int, col: int, turns: int, x0: float, y0: float, size: float,
             step: int) -> str:
    """A board section's frame, its tooltip saying how it is turned."""
    said = (_("Board section, not turned") if not turns else
            _n("Board section, turned {n} quarter clockwise",
               "Board section, turned {n} quarters clockwise", turns))
    frame = draw.attrs(class_="section", x=f"{x0 + col * size:g}", y=f"{y0 + row * size:g}",
                       width=f"{step * size:g}", height=f"{step * size:g}",
                       stroke=SECTION_EDGE, stroke_width=2.4)
    return f"<rect{frame}>{draw.title(said)}</rect>"


@draw.memo(maxsize=64)
def _coords(rows: int, cols: int, x0: float, y0: float, size: float) -> str:
    """The column numbers above the board and the row numbers left of it (from 1)."""
    coords = [draw.text(x0 + (c + 0.5) * size, y0 - 3, c + 1, size=12, anchor="middle",
                        fill=MUTED) for c in range(cols)]
    coords += [draw.text(x0 - 3, y0 + (r + 0.5) * size + 4, r + 1, size=12, anchor="end",
                         fill=MUTED) for r in range(rows)]
    return draw.group(coords, class_="coords", pointer_events="none")


def hand(next_shape: str | None, count: int) -> list[str]:
    """The letters of the tiles still in a player's hand, the next one first (the stacks
    alternate, rules 2.3)."""
    if not next_shape or count <= 0:
        return []
    other = "U" if next_shape == "X" else "X"
    return [next_shape if i % 2 == 0 else other for i in range(count)]


def _players(obs: dict[str, Any], names: Sequence[str] | None, y0: float) -> tuple[str, float]:
    """A block per player: their label and points, their hand by shape and their bonus
    turns left; the SVG and its height."""
    viewer = obs.get("viewer")
    cp = obs["current_player"] if obs.get("phase") == "play" else None
    out = []
    y = 0.0
    for p in range(obs["players"]):
        colour = SEAT_COLOURS[p]
        row = [draw.player_line(p, SEAT_COLOURS, names, 8, 20, WIDTH - 16, obs["scores"][p],
                                size=LABEL, viewer=viewer, current=p == cp)]
        x = 8.0
        letters = hand(obs["next_shape"][p], obs["tiles_left"][p])
        tiles = []
        for i, letter in enumerate(letters):
            cell = NEXT if i == 0 else MINI
            top = 28 + (3 * NEXT - (3 if letter == "X" else 2) * cell) / 2
            tiles.append(art.hand_tile(letter, colour, x, top, cell))
            x += 3 * cell + (8 if i == 0 else 4)
        if letters:
            row.append(draw.group(tiles, class_="hand"))
        else:
            row.append(draw.text(8, 44, _("no tiles left"), size=13, fill=MUTED,
                                 class_="hand"))
        bonus = _n("{n} bonus turn", "{n} bonus turns", obs["bonus_left"][p])
        row.append(draw.text(WIDTH - 8, 44, bonus,
                             size=13, anchor="end", fill=MUTED, class_="bonus"))
        cls = f"seat player-{p}" + (" viewer" if p == viewer else "") + (
            " to-move" if p == cp else "")
        out.append(draw.group(row, class_=cls, transform=f"translate(0,{y0 + y:g})"))
        y += ROW
    return draw.group(out, class_="players"), y


# -- terminal text ------------------------------------------------------------------------------
EMPTY = "·"
INNER = "∘"


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as rich markup: each tile cell shows its player's symbol (followed by the
    value of the alien it caught), free aliens their value, then a key of the symbols used,
    the last tile and a line per player."""
    obs = observation
    rows, cols = obs["rows"], obs["cols"]
    step = obs["section_size"]
    owner, aliens = obs["owner"], obs["aliens"]
    ir = obs["inner_area"]
    r0, r1 = ir["rows"]
    c0, c1 = ir["cols"]
    last = obs.get("last_tile")
    last_cells = {(r, c) for r, c in last["cells"]} if last else set()
    lines = [f"[bold]KoPlus[/bold]  {draw.plain(status(obs, names))}"]
    head = "   "
    for c in range(cols):
        if c and c % step == 0:
            head += " "
        head += f"{c + 1:>3}"
    lines.append(f"[dim]{head}[/dim]")
    used: dict[str, bool] = {}
    for r in range(rows):
        if r and r % step == 0:
            lines.append("")
        row = f"[dim]{r + 1:>3}[/dim]"
        for c in range(cols):
            if c and c % step == 0:
                row += " "
            p = owner[r][c]
            v = aliens[r][c]
            if p >= 0:
                colour = SEAT_COLOURS[p]
                style = f"bold {colour.fill}" + (" underline" if (r, c) in last_cells else "")
                row += f" [{style}]{colour.symbol}{v or ' '}[/]"
                used["tile"] = True
                if v:
                    used["caught"] = True
            elif v:
                row += f"  [bold]{v}[/bold]"
                used["alien"] = True
            elif r0 <= r <= r1 and c0 <= c <= c1:
                row += f"  [magenta]{INNER}[/magenta]"
                used["inner"] = True
            else:
                row += f"  [dim]{EMPTY}[/dim]"
                used["empty"] = True
        lines.append(row)
    lines.extend(f"[dim]{draw.plain(line)}[/dim]" for line in _key(obs, used))
    said = last_words(obs, names)
    if said:
        lines.append(_("Last tile: {said}", said=draw.plain(said)))
    viewer = obs.get("viewer")
    cp = obs["current_player"] if obs.get("phase") == "play" else None
    width = draw.who_width(obs["players"], names, viewer)
    final = bool(obs.get("final_breakdown"))
    for p in range(obs["players"]):
        letters = "".join(hand(obs["next_shape"][p], obs["tiles_left"][p])) or _("none")
        # at the end the totals are in the clients' results table, once
        bold = f"[bold]{fmt(obs['scores'][p])}[/bold]"
        score = "" if final else _("score {score}", score=bold)
        count = f"{obs['tiles_left'][p]:>2}"
        left = _("tiles left {count}", count=count)
        bonus = _("bonus turns {count}", count=obs["bonus_left"][p])
        lines.append(
            f"{draw.who(p, SEAT_COLOURS, names, viewer, current=p == cp, width=width)}  "
            + (f"{score}  " if score else "") + f"{left} {letters:<12}  {bonus}"
        )
    return "\n".join(lines)


def key_entries(obs: dict[str, Any], used: dict[str, bool]) -> list[tuple[str, str]]:
    """The key's entries, as (symbol, meaning), for the symbols the board shows."""
    entries = []
    if used.get("tile"):
        shown = sorted({t["player"] for t in obs["tiles"]})
        entries.append(("".join(SEAT_COLOURS[p].symbol for p in shown),
                        _("a player's tile (see below)")))
    if used.get("caught"):
        r, c = next((r, c) for t in obs["tiles"] for r, c in t["cells"] if obs["aliens"][r][c])
        sym = SEAT_COLOURS[obs["owner"][r][c]].symbol
        entries.append((f"{sym}{obs['aliens'][r][c]}", _("a tile over the alien it caught")))
    if used.get("alien"):
        v = next(v for row, own in zip(obs["aliens"], obs["owner"], strict=True)
                 for v, p in zip(row, own, strict=True) if v and p < 0)
        entries.append((str(v), _n("a free alien, worth {n} point",
                                   "a free alien, worth {n} points", v)))
    if used.get("empty"):
        entries.append((EMPTY, _("empty")))
    if used.get("inner"):
        entries.append((INNER, _("first-tile area")))
    if obs.get("phase") == "play":
        entries.append(("◀", _("the player to act")))
    letters = {letter for p in range(obs["players"])
               for letter in hand(obs["next_shape"][p], obs["tiles_left"][p])}
    if "X" in letters:
        entries.append(("X", _("a plus in hand")))
    if "U" in letters:
        entries.append(("U", _("a U in hand (hands list the next tile first)")))
    return entries


def _key(obs: dict[str, Any], used: dict[str, bool]) -> list[str]:
    """The key as lines of at most 80 characters."""
    lines: list[str] = []
    line = _("Key:")
    for sym, meaning in key_entries(obs, used):
        item = f"{sym} {meaning}"
        if len(line) + 3 + len(item) > 80:
            lines.append(line)
            line = "    "
        line += ("  " if line.strip() else " ") + item
    lines.append(line)
    return lines
