"""Pictures of a Botanik observation: an SVG board for the browser and rich text for terminals.

Both draw only from the observation dict, with the engine's SVG toolkit and palette; each player
has one name (``look.seat_name``) and one colour (``Botanik.colours``, from ``components``): their
Source, their side of the registry, their machine's frame and their marks. The tile colours (red,
yellow, green, blue, black) belong to the tiles, not to the players; each has its shape
(``art.SYMBOL``), drawn on the tile in the SVG and written before it in the terminal.

The SVG is laid out like the table, for a phone first (360 units wide, so a 12-unit text is 12
CSS pixels at a 390-pixel screen): the other player's machine at the top, the registry (their
side, the central piles, the viewer's side), the arrival and the Meca pawn, then the viewer's
machine.

SVG ids: ``row-P-J`` (player P's space J), ``pile-J`` (central pile J), ``arrival-ID`` (an
arrival tile), ``mP-cell-R-C`` (cell R,C of player P's machine, empty cells next to the machine
included), ``mP-ghost-R-C-K`` (the released tile previewed there) — the ids ``describe_action``
names. The web client gives the places a player may choose the class ``target``; the picture's
style rings them in the shared highlight colour.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.i18n import N_, words
from meeple.engine.look import HIGHLIGHT, INK, MUTED, Colour, seat_name

from . import art
from .components import DIRS, SEAT_COLOURS, TYPES, exits_text, the_tile, tile_set, tile_words

_, _n = words(__file__)

COLOUR_RICH = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "bright_black"}
DIRBIT = {d: 1 << i for i, d in enumerate(DIRS)}
GLYPH = {
    0: "·", 1: "╵", 2: "╶", 3: "└", 4: "╷", 5: "│", 6: "┌", 7: "├",
    8: "╴", 9: "┘", 10: "─", 11: "┴", 12: "┐", 13: "┤", 14: "┬", 15: "┼",
}
"""The terminal's pipe glyph by exit mask (bit 0 N, 1 E, 2 S, 3 W)."""
MARK = {"plant": "P", "vegetable": "V"}
MECA = "☻"
FLOWER = "✿"

W = 360
"""Width of the SVG (a phone screen's width in CSS pixels)."""
M = 8
"""Margin of the SVG."""
TILE = 56
"""Side of a registry or arrival tile."""
TGAP = (W - 2 * M - 5 * TILE) / 4
MAX_CELL = 44
"""Largest side of a machine cell (cells shrink, down to ``MIN_CELL``, for wide machines)."""
MIN_CELL = 16
LABEL = 21
"""The size of a player's label: the symbol in their mark is then at least 12 units high."""
MARK_R = 10.5
"""The radius of a player's mark beside a smaller name (its symbol is 12 units high)."""
SLOT = "#f1ece0"
STYLE = (
    "<style>"
    ".ghost{opacity:0;pointer-events:none}.ghost.preview{opacity:.92}"
    ".bk-hit{fill:none;stroke:none}"
    ".target>.bk-hit{stroke:" + HIGHLIGHT + ";stroke-width:3.5}"
    ".slot.target{fill:#fff0bf;stroke:" + HIGHLIGHT + ";stroke-width:2.5;stroke-dasharray:none}"
    "</style>"
)
"""The picture's own styles: previews of the released tile, and the client's ``target`` places
ringed in the shared highlight colour."""


# ------------------------------------------------------------------------------ tile words
def _kind(tile_id: str) -> str:
    """The type of a tile (``straight`` ... ``meca``, ``source``)."""
    ts = tile_set()
    t = ts.index.get(tile_id)
    return TYPES[ts.type[t]] if t is not None else "source"


def _exits0(tile_id: str) -> list[str]:
    """A tile's exits as it lies in the registry (rotation 0)."""
    ts = tile_set()
    t = ts.index.get(tile_id)
    return exits_text(ts.exits[t]) if t is not None else []


def _flowers(tile_id: str) -> int:
    ts = tile_set()
    t = ts.index.get(tile_id)
    return ts.flowers[t] if t is not None else 0


def _letter(tile_id: str | None) -> str | None:
    """The colour letter of a coloured tile (``None`` for a Source)."""
    if not tile_id or tile_id.startswith("SRC"):
        return None
    return tile_id[0]


def _source_seat(tile_id: str) -> int:
    """The seat whose Source this is (``SRC0`` is seat 0's)."""
    return int(tile_id[3:])


def _status_line(obs: dict[str, Any], names: Sequence[str] | None) -> str:
    """What happens now, in player words."""
    if obs.get("terminal"):
        return draw.game_over(obs.get("winners"), names)
    phase = obs["phase"]
    if phase in ("deal", "reveal"):
        return _("Tiles are being revealed")
    rel = obs.get("released")
    if rel:
        who = seat_name(rel["player"], names)
        if rel["kind"] == "add":
            return _("{player} adds the released tile, {tile}, to their machine", player=who,
                     tile=the_tile(rel["tile"]))
        return _("{player} swaps the released tile, {tile}, with the top of a pile",
                 player=who, tile=the_tile(rel["tile"]))
    return _("{player} takes a tile from the arrival",
             player=seat_name(obs["active_player"], names))


def _detail(obs: dict[str, Any]) -> str:
    """The round, the step and the supply, in words."""
    supply = _n("{n} tile left in the supply", "{n} tiles left in the supply", obs["tiles_left"])
    if obs.get("step") and not obs.get("terminal"):
        head = _("Round {round} of {rounds}, step {step}", round=obs["round"],
                 rounds=obs["rounds"], step=obs["step"])
    else:
        head = _("Round {round} of {rounds}", round=obs["round"], rounds=obs["rounds"])
    return f"{head} · {supply}"


_LOG = (
    (re.compile(r"release P(\d+) (\S+)@(\d+)"),
     lambda m, names: _("{player}'s tile, {tile}, is released from column {column}",
                        player=seat_name(int(m[1]), names), tile=the_tile(m[2]), column=m[3])),
    (re.compile(r"swap P(\d+) (\S+) for (\S+)@(\d+)"),
     lambda m, names: _("{player} swaps {tile} for {other} on pile {pile}",
                        player=seat_name(int(m[1]), names), tile=the_tile(m[2]),
                        other=the_tile(m[3]), pile=m[4])),
    (re.compile(r"discard (\S+)"),
     lambda m, names: _("{tile} fits nowhere and is removed", tile=the_tile(m[1]))),
    (re.compile(r"end"), lambda m, names: _("the last tile is placed")),
)


def log_line(entry: str, names: Sequence[str] | None = None) -> str:
    """One entry of the observation's log in player words."""
    for pattern, say in _LOG:
        m = pattern.fullmatch(entry)
        if m:
            return say(m, names)
    return entry


def _machine_facts(obs: dict[str, Any], p: int) -> str:
    """Tiles joined to the Source and open ends of ``p``'s machine."""
    return _("{tiles} joined to the Source, {ends}",
             tiles=_n("{n} tile", "{n} tiles", obs["main_tiles"][p]),
             ends=_n("{n} open end", "{n} open ends", obs["open_ends"][p]))


def _loose(machine: list[dict[str, Any]]) -> int:
    """How many tiles of a machine are not joined to its Source (they score nothing)."""
    return sum(1 for t in machine if not t["main"])


def _loose_note(n: int) -> str:
    if n == 1:
        return _("1 tile not joined to the Source scores nothing")
    return _("{n} tiles not joined to the Source score nothing", n=n)


def _short(words: str, x: float, size: float = 12) -> str:
    """``words`` written by :func:`_mark_and` at ``x``, shortened (with an ellipsis) only where
    they would otherwise run past the picture's right margin."""
    return draw.fit(words, W - M - (x + 2 * MARK_R + 5), size)


# ------------------------------------------------------------------------------------- SVG
@lru_cache(maxsize=4096)
def _tile_art(tile_id: str, exits: tuple[str, ...] | None, size: float,
              source_fill: str | None) -> str:
    """The drawing of a tile at the origin (drawn once, then placed where it lies)."""
    kind = _kind(tile_id)
    return art.tile(_letter(tile_id), kind, exits if exits is not None else _exits0(tile_id),
                    _flowers(tile_id), 0, 0, size, source_fill)


def _tile_svg(tile_id: str, x: float, y: float, size: float, exits: list[str] | None,
              colours: Sequence[Colour], names: Sequence[str] | None,
              elem_id: str | None = None, classes: str = "tile") -> str:
    """One tile as a group: the drawing (``exits`` as placed, else as it lies in the
    registry) and its name in words as the tooltip."""
    fill = None
    if tile_id.startswith("SRC"):
        seat = _source_seat(tile_id)
        fill = colours[seat].fill if 0 <= seat < len(colours) else None
    body = _tile_art(tile_id, tuple(exits) if exits is not None else None, size, fill)
    return draw.group([body, draw.title(tile_words(tile_id, names, flowers=True))],
                      id=elem_id, class_=classes, data_tile=tile_id,
                      transform=f"translate({x:g} {y:g})")


def _hit(x: float, y: float, size: float) -> str:
    """The ring a place shows when the client offers it (class ``target``)."""
    return draw.rect(x - 3, y - 3, size + 6, size + 6, rx=8, class_="bk-hit")


def _slot(x: float, y: float, size: float) -> str:
    return draw.rect(x, y, size, size, rx=round(size * 0.1), fill=SLOT, stroke=MUTED,
                     stroke_dasharray="4 3")


def _machine_svg(p: int, obs: dict[str, Any], top: float, names: Sequence[str] | None,
                 colours: Sequence[Colour]) -> tuple[str, float]:
    """Player ``p``'s machine with its heading: the SVG and the height it takes."""
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
    ncols = cmax - cmin + 1
    cell = max(MIN_CELL, min(MAX_CELL, int((W - 2 * M - 8) / ncols)))
    w = ncols * cell
    h = (rmax - rmin + 1) * cell
    current = obs.get("current_player") == p and not obs.get("terminal")
    parts = [
        draw.player_line(p, colours, names, M, top + 26, W - 2 * M, obs["scores"][p],
                         size=LABEL, viewer=obs.get("viewer"), current=current),
    ]
    y = top + 46
    parts.append(draw.text(M, y, _machine_facts(obs, p), size=12, fill=INK, class_="facts"))
    loose = _loose(machine)
    if loose:
        y += 16
        parts.append(draw.text(M, y, _loose_note(loose), size=12, fill=MUTED,
                               class_="facts"))
    gy = y + 12
    ox = (W - w) / 2
    parts.append(draw.rect(ox - 4, gy - 4, w + 8, h + 8, rx=6, stroke=colours[p].fill,
                           stroke_width=3, class_="machine-frame"))

    def at(r: int, c: int) -> tuple[float, float]:
        return ox + (c - cmin) * cell + 1, gy + (r - rmin) * cell + 1

    for r, c in sorted(empty):
        x, yy = at(r, c)
        parts.append(draw.rect(x, yy, cell - 2, cell - 2, rx=round(cell * 0.1),
                               id=f"m{p}-cell-{r}-{c}", class_="slot", fill=SLOT, stroke="#cfc6b4",
                               stroke_dasharray="3 2"))
    for (r, c), t in sorted(cells.items()):
        x, yy = at(r, c)
        joined = t["main"]
        parts.append(_tile_svg(t["tile"], x, yy, cell - 2, t["exits"], colours, names,
                               f"m{p}-cell-{r}-{c}", "tile placed" + ("" if joined
                                                                     else " off-main")))
        if not joined:  # a veil: this tile is not joined to the Source
            parts.append(draw.rect(x, yy, cell - 2, cell - 2, rx=round(cell * 0.1),
                                   fill="#ffffff", opacity="0.5", stroke=INK,
                                   stroke_dasharray="3 3", pointer_events="none"))
    if released and released.get("player") == p:
        # the released tile at each legal cell and rotation, shown while that action is previewed
        for r, c, k, exits in released.get("placements", []):
            x, yy = at(r, c)
            parts.append(_tile_svg(released["tile"], x, yy, cell - 2, exits, colours, names,
                                   f"m{p}-ghost-{r}-{c}-{k}", "ghost"))
    return draw.group(parts, id=f"machine-{p}", class_="machine"), gy + h + 14 - top


def _side_label(p: int, colours: Sequence[Colour], names: Sequence[str] | None,
                viewer: int | None, x: float, y: float) -> str:
    """"<name>'s side" with the player's mark, over their row of the registry."""
    who = _("Your side") if p == viewer else _("{player}'s side", player=seat_name(p, names))
    return _mark_and(p, colours, who, x, y)


def _mark_and(p: int, colours: Sequence[Colour], words: str, x: float, y: float,
              cls: str = "player") -> str:
    """A player's mark (their colour and symbol) followed by ``words`` at size 12."""
    return draw.group(
        [draw.player_mark(colours[p], x + MARK_R, y - 4.5, MARK_R),
         draw.text(x + 2 * MARK_R + 5, y, words, size=12)],
        class_=cls, data_seat=p,
    )


def _pile_height(x: float, y: float, height: int, worded: bool) -> str:
    """How many tiles a central pile holds, under it: "10 tiles", or "10" with the words as its
    tooltip."""
    said = _n("{n} tile", "{n} tiles", height)
    if worded:
        return draw.text(x + TILE / 2, y + TILE + 19, said, size=12, anchor="middle",
                         class_="pile-height")
    return draw.group([draw.title(said), draw.text(x + TILE / 2, y + TILE + 19, str(height),
                                                     size=14, anchor="middle")],
                      class_="pile-height")


def _registry_svg(obs: dict[str, Any], top: float, order: tuple[int, int],
                  names: Sequence[str] | None, colours: Sequence[Colour]) -> tuple[str, float]:
    """The registry: the first player's side, the central piles, the second player's side."""
    parts: list[str] = []
    viewer = obs.get("viewer")
    y = top
    # each pile's height in words where all of them fit under their piles, else the number
    # alone (the heading says what it counts): "10 Plättchen" ran into its neighbours
    worded = all(draw.text_width(_n("{n} tile", "{n} tiles", h), 12) <= TILE + TGAP - 8
                 for h in obs["pile_heights"])
    for q in (order[0], None, order[1]):
        y += 18
        if q is None:
            parts.append(draw.text(M, y, _("Central piles (tiles in each pile below it)"),
                                   size=12))
        else:
            parts.append(_side_label(q, colours, names, viewer, M, y))
        yy = y + 10
        if q is not None:
            parts.append(draw.rect(M - 4, yy - 5, W - 2 * M + 8, TILE + 10, rx=8,
                                   stroke=colours[q].fill, stroke_width=3,
                                   class_="side-frame"))
        for j in range(5):
            x = M + j * (TILE + TGAP)
            if q is None:
                tile_id = obs["pile_tops"][j]
                height = obs["pile_heights"][j]
                inner = [_hit(x, yy, TILE)]
                for k in range(min(height - 1, 2), 0, -1):  # the tiles under the top
                    inner.append(draw.rect(x + 2.5 * k, yy + 2.5 * k, TILE, TILE, rx=6,
                                           fill="#d8cfbd", stroke="#8a7f6a"))
                if tile_id:
                    inner.append(_tile_svg(tile_id, x, yy, TILE, None, colours, names))
                else:
                    inner.append(_slot(x, yy, TILE))
                inner.append(_pile_height(x, yy, height, worded))
                parts.append(draw.group(inner, id=f"pile-{j}", class_="pile"))
            else:
                tile_id = obs["rows"][q][j]
                inner = [_hit(x, yy, TILE)]
                inner.append(_tile_svg(tile_id, x, yy, TILE, None, colours, names)
                             if tile_id else _slot(x, yy, TILE))
                parts.append(draw.group(inner, id=f"row-{q}-{j}",
                                        class_="space full" if tile_id else "space empty"))
        y = yy + TILE + (24 if q is None else 10)
    return draw.group(parts, class_="registry"), y - top


def _arrival_svg(obs: dict[str, Any], top: float, names: Sequence[str] | None,
                 colours: Sequence[Colour]) -> tuple[str, float]:
    """The arrival's tiles, the Meca pawn and its holder, the released tile being resolved."""
    parts = [draw.text(M, top + 14, _("Arrival"), size=12)]
    ty = top + 22
    for i, t in enumerate(obs["arrival"]):
        x = M + i * (TILE + TGAP)
        parts.append(draw.group([_hit(x, ty, TILE),
                                 _tile_svg(t, x, ty, TILE, None, colours, names)],
                                id=f"arrival-{t}", class_="tile arrival"))
    if not obs["arrival"]:
        parts.append(draw.text(M, ty + TILE / 2, _("empty"), size=12, fill=MUTED))
    meca = obs.get("meca_player")
    if meca is not None:
        px = M + 3 * (TILE + TGAP)
        parts.append(draw.group(
            [art.meca_face(px + 20, ty + 24, 40),
             draw.text(px + 44, ty + 18, _("Meca pawn"), size=12),
             _mark_and(meca, colours, _short(seat_name(meca, names), px + 44),
                       px + 44, ty + 42),
             draw.title(_("The Meca pawn: its holder takes first this round"))],
            class_="meca-pawn", data_seat=meca))
    y = ty + TILE + 8
    rel = obs.get("released")
    if rel:
        y += 6
        parts.append(_tile_svg(rel["tile"], M, y, TILE, None, colours, names, "released",
                               "tile released"))
        who = _short(_("Released to {player}", player=draw.player_name(rel["player"], names,
                                                                      obs.get("viewer"))),
                     M + TILE + 12)
        parts.append(_mark_and(rel["player"], colours, who, M + TILE + 12, y + 14))
        say = (_("Add it at a highlighted place of the machine") if rel["kind"] == "add"
               else _("Swap it with the top of a highlighted pile"))
        for i, line in enumerate(draw.wrap(say, W - 2 * M - TILE - 12, 12)):
            parts.append(draw.text(M + TILE + 12, y + 32 + 15 * i, line, size=12))
        y += TILE + 6
    waiting = obs.get("waiting") or []
    if waiting:
        say = _("Still to resolve: {tiles}", tiles=", ".join(tile_words(t) for t in waiting))
        for line in draw.wrap(say, W - 2 * M, 12):
            y += 16
            parts.append(draw.text(M, y, line, size=12, fill=INK))
        y += 6
    return draw.group(parts, class_="arrival"), y - top


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as a standalone SVG, laid out like the table: the other player's machine, the
    registry, the arrival with the Meca pawn, the viewer's machine (the clients draw the
    results table)."""
    obs = observation
    colours = SEAT_COLOURS
    viewer = obs.get("viewer")
    near = viewer if viewer in (0, 1) else 0
    far = 1 - near
    head = [draw.text(M, 22, "Botanik", size=17, weight="bold", class_="title"),
            draw.text(M, 40, _detail(obs), size=12, fill=MUTED, class_="detail")]
    y = 40.0
    for line in draw.wrap(_status_line(obs, names), W - 2 * M, 14, bold=True):
        y += 19
        head.append(draw.status(M, y, line))
    y += 6
    head_h = y
    theirs, h = _machine_svg(far, obs, y, names, colours)
    theirs_box = (y, h)
    y += h
    board_y = y
    g, h = _registry_svg(obs, y, (far, near), names, colours)
    y += h
    g2, h = _arrival_svg(obs, y, names, colours)
    y += h
    board = [g, g2]
    board_h = y - board_y
    mine, h = _machine_svg(near, obs, y, names, colours)
    parts = [STYLE, draw.region("board", 0, board_y, W, board_h, board),
             draw.region("head", 0, 0, W, head_h, head),
             draw.region(f"player-{near}", 0, y, W, h + 4, [mine]),
             draw.region(f"player-{far}", 0, theirs_box[0], W, theirs_box[1], [theirs])]
    y += h
    return draw.document(W, round(y + 4), parts, cls="botanik", label=_("Botanik board"))


# ------------------------------------------------------------------------------------- text
def _mask(exits: list[str]) -> int:
    return sum(DIRBIT[d] for d in exits)


_KEYS = {**{sym: "colour:" + letter for letter, sym in art.SYMBOL.items()},
         **{g: "pipe:" + g for g in GLYPH.values()}, MECA: "meca", FLOWER: "flower",
         "P": "plant", "V": "vegetable", "S": "S"}
"""The legend's key of each character a tile is written with."""


def _tile_chars(tile_id: str, exits: list[str] | None, colours: Sequence[Colour],
                used: set[str], width: int = 3) -> str:
    """A tile as ``width`` (1 to 3) characters of rich markup: its colour's shape, its pipes,
    then what sits on it (plant, vegetable, a flower); ``used`` collects the legend's keys of
    the characters written."""
    kind = _kind(tile_id)
    ex = exits if exits is not None else _exits0(tile_id)
    if kind == "source":
        seat = _source_seat(tile_id)
        c = colours[seat] if 0 <= seat < len(colours) else None
        chars = ("S" + GLYPH[15] + "S")[:width]
        style = f"bold {c.ink} on {c.fill}" if c else "bold"
    else:
        letter = _letter(tile_id) or ""
        sym = art.SYMBOL[letter]
        glyph = MECA if kind == "meca" else GLYPH[_mask(ex)]
        mark = MARK.get(kind, "")
        if not mark and kind != "meca" and _flowers(tile_id):
            mark = FLOWER
        if width >= 3:
            chars = sym + glyph + (mark or " ")
        elif width == 2:
            chars = sym + (mark or glyph)
        else:
            chars = mark or glyph
        style = COLOUR_RICH[letter] + " bold"
    used.update(_KEYS[ch] for ch in chars if ch in _KEYS)
    return f"[{style}]{draw.plain(chars)}[/]"


def _machine_text(machine: list[dict[str, Any]], colours: Sequence[Colour],
                  used: set[str]) -> list[str]:
    """A machine as a grid with its row and column numbers, each cell as wide as 80 columns
    allow (4 characters, down to 1 for a very long machine)."""
    cells = {(t["cell"][0], t["cell"][1]): t for t in machine}
    rmin = min(r for r, _ in cells)
    rmax = max(r for r, _ in cells)
    cmin = min(c for _, c in cells)
    cmax = max(c for _, c in cells)
    n = cmax - cmin + 1
    cw = next((w for w in (4, 3, 2, 1) if 6 + w * n <= 80), 1)
    if cw >= 3:
        lines = ["      " + "".join(f"{c:>{cw - 1}} " for c in range(cmin, cmax + 1))]
    else:
        lines = ["      " + _("columns {first} to {last}", first=cmin, last=cmax)]
    for r in range(rmin, rmax + 1):
        row = []
        for c in range(cmin, cmax + 1):
            t = cells.get((r, c))
            if t is None:
                row.append("[dim]" + "·".rjust(max(1, cw - 2)).ljust(cw) + "[/dim]")
                used.add("empty")
                continue
            loose = not t["main"]
            tw = min(3, cw - 1) if loose or cw == 4 else min(3, cw)
            body = _tile_chars(t["tile"], t["exits"], colours, used, tw) if tw else ""
            if loose:
                used.add("loose")
                body += "?"
            if cw == 4 and not loose:
                body += " "
            row.append(body)
        lines.append(f"  {r:>3} " + "".join(row))
    return lines


def _wrap_text(head: str, items: Sequence[str], sep: str = ", ", width: int = 80) -> list[str]:
    """Plain words laid out in lines of at most ``width`` characters, the first starting with
    ``head``, the others indented."""
    lines: list[str] = []
    line = head
    for i, item in enumerate(items):
        piece = item + (sep if i < len(items) - 1 else "")
        if len(line) + len(piece.rstrip()) > width and line.strip():
            lines.append(line.rstrip())
            line = "  "
        line += piece
    lines.append(line.rstrip())
    return [draw.plain(x) for x in lines]


_LEGEND = (
    ("colour:R", "○", N_("red")), ("colour:Y", "△", N_("yellow")),
    ("colour:G", "□", N_("green")), ("colour:B", "◇", N_("blue")),
    ("colour:K", "✕", N_("black")),
    ("flower", FLOWER, N_("a flower")), ("plant", "P", N_("plant (3 flowers)")),
    ("vegetable", "V", N_("vegetable (3 flowers)")), ("meca", MECA, N_("Meca-Botanist")),
    ("S", "S", N_("Source")), ("loose", "?", N_("not joined to the Source")),
    ("empty", "·", N_("empty")),
)


def _legend(used: set[str]) -> list[str]:
    """The legend of the symbols this picture uses, and only those."""
    items = [f"{mark} {_(meaning)}" for key, mark, meaning in _LEGEND if key in used]
    glyphs = "".join(g for g in GLYPH.values() if g != "·" and "pipe:" + g in used)
    if glyphs:
        # TRANSLATORS: terminal legend entry; {glyphs} are the pipe symbols (└│├┼).
        items.insert(5, _("{glyphs} pipes", glyphs=glyphs))
    return _wrap_text(_("Legend: "), items, sep="; ")


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The board for a terminal: rich markup, readable without colour (the colours' shapes,
    pipe glyphs, letters), at most 80 columns, with a legend of the symbols it uses."""
    obs = observation
    colours = SEAT_COLOURS
    used: set[str] = set()
    viewer = obs.get("viewer")
    near = viewer if viewer in (0, 1) else 0
    far = 1 - near
    final = bool(obs.get("terminal"))
    out = _wrap_text("", [f"Botanik: {_detail(obs)}"])
    out += _wrap_text("", _status_line(obs, names).split(), sep=" ")
    width = draw.who_width(2, names, viewer)

    def machine(q: int) -> list[str]:
        # at the end the totals are in the clients' results table, once
        points = "" if final else _n("{n} point", "{n} points", obs["scores"][q]) + ", "
        current = obs.get("current_player") == q and not final
        if current:
            used.add("to act")
        lines = ["", f"{draw.who(q, colours, names, viewer, current=current, width=width)}  "
                     + draw.plain(_("machine: {facts}", facts=points + _machine_facts(obs, q)))]
        loose = _loose(obs["machines"][q])
        if loose:
            lines.append("  " + _loose_note(loose))
        return lines + _machine_text(obs["machines"][q], colours, used)

    out += machine(far)
    out.append("")
    labels = {q: (_("Your side") if q == viewer
                  else _("{player}'s side", player=seat_name(q, names)))[:22] for q in (0, 1)}
    lw = max(16, *(len(v) for v in labels.values())) + 3
    out.append(_("Registry").ljust(lw) + "".join(f"{j:<7}" for j in range(5)).rstrip())

    def row(q: int) -> str:
        c = colours[q]
        cells = []
        for t in obs["rows"][q]:
            if t:
                cells.append(_tile_chars(t, None, colours, used) + "    ")
            else:
                used.add("empty")
                cells.append("[dim]·[/dim]      ")
        return (f"[{c.fill}]{c.symbol}[/] " + draw.plain(labels[q].ljust(lw - 2))
                + "".join(cells)).rstrip()

    out.append(row(far))
    piles = [(_tile_chars(t, None, colours, used) if t else "[dim]·  [/dim]") + f"{h:>3} "
             for t, h in zip(obs["pile_tops"], obs["pile_heights"], strict=True)]
    out.append("  " + _("piles (tiles)").ljust(lw - 2) + "".join(piles).rstrip())
    out.append(row(near))
    out.append("")
    arrival = "  ".join(_tile_chars(t, None, colours, used) for t in obs["arrival"]) or _("empty")
    line = _("Arrival: {tiles}", tiles=arrival)
    if obs["meca_player"] is not None:
        line += "      " + _("Meca pawn: {player}",
                             player=draw.who(obs["meca_player"], colours, names))
    out.append(line)
    rel = obs.get("released")
    if rel:
        said = (draw.plain(tile_words(rel["tile"], names, flowers=True))
                + ("; " + _("choose a pile to swap with") if rel["kind"] == "swap" else ""))
        out.append(_("Released to {player}:", player=draw.who(rel["player"], colours, names))
                   + f" {_tile_chars(rel['tile'], None, colours, used)} " + said)
        places = rel.get("placements")
        if places:
            cells = sorted({(r, c) for r, c, _, _ in places})
            out += _wrap_text(_("It fits at row,column: "), [f"{r},{c}" for r, c in cells],
                              sep="  ")
    if obs.get("waiting"):
        out += _wrap_text(_("Still to resolve: "), [tile_words(t) for t in obs["waiting"]])
    out += machine(near)
    if obs.get("log"):
        out.append("")
        out += _wrap_text(_("Recent: "), [log_line(e, names) for e in obs["log"][-6:]],
                          sep="; ")
    out.append("")
    out += _legend(used)
    if "to act" in used:
        more = "; " + _("◀ to play")
        out[-1] += more if len(out[-1]) + len(more) <= 80 else ""
    return "\n".join(out)


def legend() -> list[dict[str, str]]:
    """Each symbol the board's picture draws, as a small picture and what it means: the shape
    of each tile colour, what sits on a tile, the Meca-Botanist and the Source."""
    out = [{"icon": draw.icon([draw.rect(2, 2, 28, 28, fill=art.TILE_FILL[key[7:]], rx="4"),
                               art.colour_symbol(key[7:], 16, 16, 10)]),
            "meaning": _(meaning)} for key, _mark, meaning in _LEGEND if key.startswith("colour:")]
    out += [
        {"icon": draw.icon([art.flower(16, 16, 9)]), "meaning": _("a flower")},
        {"icon": draw.icon([art.plant(0, 0, 32)]), "meaning": _("plant (3 flowers)")},
        {"icon": draw.icon([art.vegetable(0, 0, 32)]), "meaning": _("vegetable (3 flowers)")},
        {"icon": draw.icon([art.meca_face(16, 16, 26)]), "meaning": _("Meca-Botanist")},
        {"icon": draw.icon([art.source(0, 0, 32, SEAT_COLOURS[0].fill)]),
         "meaning": _("Source")},
    ]
    return out
