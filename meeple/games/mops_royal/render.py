"""Pictures of a Mops Royal observation: SVG for the browser, rich text for the terminal.

Both draw only from the observation dict. The SVG is one column, sized for a phone: the
round, what happens now and the called tile drawn large; the viewer's layout large, the other
layouts below it two by two; then the combination chart of the board, with the shapes the
viewer can score now picked out.

A layout is drawn as far as it can grow next: its tiles and the ring of empty cells around
them (never wider or taller than the 5 x 5 square allows). Every cell drawn carries the id
``cell-P-R-C`` (seat P, window row R = y + 4, column C = x + 4), the ids ``describe_action``
names as targets and previews; the cells the viewer may click now also carry the class
``target`` the web client gives them. Each player has one colour (``SEAT_COLOURS``): the frame
of his layout, the backs of his tiles and his mark, always with his symbol; the six tile
colours are the tiles' own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.i18n import words
from meeple.engine.look import HIGHLIGHT, INK, PAPER, Colour, seat_name

from . import art
from .art import FILL
from .components import (
    COLOUR_LETTERS,
    COLOUR_WORDS,
    COLOURS,
    CROWNS,
    OBJECT_LETTERS,
    OBJECT_WORDS,
    OBJECTS,
    SEAT_COLOURS,
    SHAPE_NAMES,
    SHAPES,
    TILE_INDEX,
)
from .components import tile_words as _words

__all__ = ["FILL", "svg", "text"]

_, _n = words(__file__)

WIDTH = 360
"""The picture's width: a phone shows it about 360 CSS px wide, so a unit is about a CSS px
(text at least 13, a cell of the viewer's layout 54)."""
MARGIN = 10
BIG = 54
"""A cell of the viewer's layout (the one with cells to click)."""
MEDIUM = 40
"""A cell of another player's layout where there is room for it (up to three layouts)."""
SMALL = 26
"""A cell of another player's layout where four share the picture (two by two)."""
SPAN = 6
"""A layout and the ring around it never span more than 6 cells."""
FONT = 13
"""The smallest text: 13 px on a phone."""
LABEL = 21
"""A player's name beside his mark (the symbol on the mark is 0.575 of it: 12 px)."""
CALLED = 80
"""The side of the called tile."""
LEGAL_FILL = "#fff2c2"
"""An empty cell where the viewer may place the called tile (ringed in ``HIGHLIGHT``)."""


def _own_score(obs: dict[str, Any], q: int) -> float:
    """The score shown for seat ``q``: the viewer sees his own choices of this round at once."""
    if obs.get("viewer") == q and obs.get("my_score") is not None:
        return float(obs["my_score"])
    return float(obs["scores"][q]) if obs.get("scores") else 0.0


def _tags(obs: dict[str, Any], q: int) -> list[str]:
    """What a seat is doing this round, in words: caller, sits out, complete, choosing."""
    tags = []
    if obs.get("caller") == q:
        tags.append(_("caller"))
    status = (obs.get("status") or [None] * obs["players"])[q]
    if status == "sitout":
        tags.append(_("sits out"))
    elif status == "full":
        tags.append(_("complete"))
    if q in (obs.get("pending") or []) and obs.get("phase") == "round":
        tags.append(_("choosing"))
    return tags


def _points(value: float) -> str:
    """A number of points in words: "1 point", "12 points"."""
    return _n("{n} point", "{n} points", int(value))


def _and_list(items: Sequence[str]) -> str:
    """Names joined as people list them: "A", "A and B", "A, B and C"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{first} and {last}", first=_(", ").join(items[:-1]), last=items[-1])


def _with_crown(name: str, crown: bool) -> str:
    """A tile's name, and its crown where it has one: "blue pillow, with a crown"."""
    return _("{tile}, with a crown", tile=name) if crown else name


def _current(obs: dict[str, Any], q: int) -> bool:
    """Whether seat ``q`` has something to do now."""
    if obs.get("phase") == "end_scoring":
        return obs.get("turn") == q
    return obs.get("phase") == "round" and q in (obs.get("pending") or [])


def _status(obs: dict[str, Any], names: Sequence[str] | None, clicks: bool = True) -> str:
    """The line saying what happens now, to the viewer where he has a choice (how to make it
    in the picture where ``clicks``; the terminal gives its own prompt)."""
    phase = obs.get("phase")
    viewer = obs.get("viewer")
    if phase == "over":
        return draw.game_over(obs.get("winners"), names)
    if phase == "end_scoring":
        if viewer is not None and viewer == obs.get("turn"):
            if clicks:
                return _("Your turn: score a combination (choose its marked tile), or pass.")
            return _("Your turn: score a combination, or pass.")
        return _("End scoring: {player} scores or passes.",
                 player=seat_name(obs.get("turn") or 0, names))
    step = obs.get("my_step")
    if clicks and step == "place":
        return _("Your move: place the tile on a highlighted cell.")
    if clicks and step == "score":
        return _("Score a combination (choose its marked tile) or score nothing.")
    if clicks and step == "done":
        return _("You have finished this round; waiting for the others.")
    if phase == "round":
        waiting = [seat_name(p, names) for p in obs.get("pending") or []]
        return _("Waiting for {players}.", players=_and_list(waiting)) if waiting else ""
    if phase == "reveal" and obs.get("caller") is not None:
        return _("{player} reveals the next tile.", player=seat_name(obs["caller"], names))
    if phase == "setup":
        return _("Everyone draws a start tile.")
    return ""


def _title(obs: dict[str, Any]) -> str:
    """The picture's head: the game and its round (or the scoring at the end)."""
    if obs.get("phase") == "end_scoring":
        return _("Mops Royal · end scoring")
    return _("Mops Royal · round {round}", round=obs.get("round", 0))


def _wrap(words: str, size: float, width: float, sep: str = " ") -> list[str]:
    """``words`` broken into lines that fit ``width`` at font ``size`` (a bold sans face is
    about 0.6 em a letter), only at ``sep``."""
    per_line = max(8, int(width / (size * 0.6)))
    lines: list[str] = []
    for word in words.split(sep):
        if lines and len(lines[-1]) + len(sep) + len(word) <= per_line:
            lines[-1] += sep + word
        else:
            lines.append(word)
    return lines


# ---------------------------------------------------------------------------- layouts
Cell = tuple[int, int]


def _span(xs: Sequence[int]) -> tuple[int, int]:
    """The columns (or rows) drawn for a layout using ``xs``: its own and one more on each
    side while the layout is narrower than 5."""
    lo, hi = min(xs), max(xs)
    if hi - lo < 4:
        lo, hi = max(-4, lo - 1), min(4, hi + 1)
    return lo, hi


def _window(cells: list[dict[str, Any]]) -> tuple[int, int, int, int]:
    """The cells drawn for a layout: x0, x1, y0, y1 (before the start tile: just (0, 0))."""
    if not cells:
        return 0, 0, 0, 0
    x0, x1 = _span([c["x"] for c in cells])
    y0, y1 = _span([c["y"] for c in cells])
    return x0, x1, y0, y1


def _reject_cells(obs: dict[str, Any], q: int) -> set[Cell]:
    """The face-down cells the viewer ``q`` may reject the called tile onto (variant): only
    while the caller's stock still holds enough other tiles to complete his layout."""
    if not (obs.get("options") or {}).get("replacement_tiles") or obs.get("my_step") != "place":
        return set()
    cells = obs["layouts"][q]
    left = obs.get("caller_stock_left") or []
    start = (obs.get("start_tiles") or [None] * obs["players"])[q]
    if sum(1 for t in left if t != start) < 25 - len(cells):
        return set()
    return {(c["x"], c["y"]) for c in cells if not c["face_up"]}


def _last(obs: dict[str, Any], q: int) -> set[Cell]:
    """The cells seat ``q`` placed, rejected onto or turned over in the last round."""
    rounds = obs.get("last_round") or []
    if q >= len(rounds):
        return set()
    r = rounds[q]
    return {(c[0], c[1]) for c in (r.get("placed"), r.get("rejected"), r.get("flipped")) if c}


def _rows(obs: dict[str, Any], q: int) -> int:
    """How many rows of cells seat ``q``'s layout is drawn with."""
    _x0, _x1, y0, y1 = _window(obs["layouts"][q])
    return y1 - y0 + 1


def _layout(obs: dict[str, Any], q: int, ox: float, oy: float, size: float,
            rows: int = SPAN) -> list[str]:
    """The cells of seat ``q``'s layout, centred in the ``SPAN`` x ``rows`` area of
    ``size``-unit cells at ``(ox, oy)``."""
    colour = SEAT_COLOURS[q]
    cells = obs["layouts"][q]
    by = {(c["x"], c["y"]): c for c in cells}
    x0, x1, y0, y1 = _window(cells)
    me = obs.get("viewer") == q
    legal = {(c[0], c[1]) for c in obs.get("my_legal_cells") or []} if me else set()
    reject = _reject_cells(obs, q) if me else set()
    flips: set[Cell] = set()
    if me and (obs.get("my_step") == "score" or obs.get("turn") == q):
        flips = {(m[0], m[1]) for c in obs.get("my_combinations") or [] for m in c["marks"]}
    last = _last(obs, q)
    gx = ox + (SPAN - (x1 - x0 + 1)) * size / 2 - x0 * size
    gy = oy + (rows - (y1 - y0 + 1)) * size / 2 - y0 * size
    pad = max(1.5, size * 0.05)
    inner = size - 2 * pad
    out: list[str] = []
    rings: list[str] = []
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            px, py = gx + x * size + pad, gy + y * size + pad
            cid = f"cell-{q}-{y + 4}-{x + 4}"
            cell = by.get((x, y))
            where = {"id": cid, "data_x": x, "data_y": y}
            if cell is None:
                ok = (x, y) in legal
                body = [draw.rect(px, py, inner, inner, fill=LEGAL_FILL if ok else PAPER,
                                  rx=f"{size * 0.12:.1f}", stroke=HIGHLIGHT if ok else "#d6cfbf",
                                  stroke_width=3 if ok else 1,
                                  stroke_dasharray=None if ok else "4 3")]
                if ok:
                    c = size / 2
                    arm = size * 0.16
                    body.append(draw.path(
                        f"M{px + c - pad - arm:.1f},{py + c - pad:.1f}h{2 * arm:.1f}"
                        f"M{px + c - pad:.1f},{py + c - pad - arm:.1f}v{2 * arm:.1f}",
                        stroke="#b88a00", stroke_width=3, stroke_linecap="round"))
                out.append(draw.group(body, class_="cell empty legal target" if ok
                                      else "cell empty", **where))
                continue
            if cell["face_up"]:
                colour_name, obj = cell["tile"].split("-")
                body = [draw.title(_with_crown(_words(cell["tile"]), cell["crown"])),
                        art.tile_face(colour_name, obj, px, py, inner, cell["crown"])]
                cls = "cell tile"
                if (x, y) in flips:
                    cls += " target"
                    body.append(draw.rect(px + 1.5, py + 1.5, inner - 3, inner - 3, fill="none",
                                          rx=f"{size * 0.1:.1f}", stroke=HIGHLIGHT,
                                          stroke_width=3.5, class_="flip-spot"))
                out.append(draw.group(body, class_=cls, data_tile=cell["tile"], **where))
            else:
                covers = cell.get("covers", 0)
                body = [draw.title(
                            _n("a tile turned face down with {n} rejected tile under it",
                               "a tile turned face down with {n} rejected tiles under it",
                               covers) if covers else _("a tile turned face down")),
                        art.tile_back(colour, px, py, inner, covers)]
                cls = "cell tile facedown" + (" target" if (x, y) in reject else "")
                if (x, y) in reject:
                    body.append(draw.rect(px - 1, py - 1, inner + 2, inner + 2, fill="none",
                                          rx=f"{size * 0.12:.1f}", stroke=HIGHLIGHT,
                                          stroke_width=3.5, class_="flip-spot"))
                out.append(draw.group(body, class_=cls, **where))
            if (x, y) in last:
                rings.append(draw.rect(px - 2, py - 2, inner + 4, inner + 4, fill="none",
                                       rx=f"{size * 0.14:.1f}", class_="last-move",
                                       pointer_events="none"))
    return out + rings


def _panel(obs: dict[str, Any], q: int, ox: float, oy: float, width: float, size: float,
           names: Sequence[str] | None, fact_lines: int = 1, rows: int = SPAN) -> \
        tuple[str, float]:
    """Seat ``q``'s panel: his mark and name, what he is doing and his points (in up to
    ``fact_lines`` lines), and his layout in ``rows`` rows of cells; the SVG and its
    height."""
    colour = SEAT_COLOURS[q]
    viewer = obs.get("viewer")
    me = viewer == q
    grid = SPAN * size
    facts = [t for t in _tags(obs, q) if t != _("choosing")]  # the ring says who is choosing
    rej = (obs.get("rejections") or [0] * obs["players"])[q]
    if rej:
        facts.append(_n("{n} rejected", "{n} rejected", rej))
    facts.append(_points(_own_score(obs, q)))
    lines = _wrap(" · ".join(facts), FONT * 0.95, width - 20, sep=" · ")
    top = 34 + 17 * max(fact_lines, len(lines))
    height = top + rows * size + 10
    out = [
        draw.rect(ox, oy, width, height, fill="#fbf6e9" if me else "#f4f1ea", rx=8,
                  stroke=colour.fill, stroke_width=3),
    ]
    # a name too long for the panel is shortened, the whole name its tooltip
    label = [draw.player_label(q, SEAT_COLOURS, names, ox + 10, oy + 25, size=LABEL,
                               viewer=viewer, current=_current(obs, q), room=width - 20)]
    for i, line in enumerate(lines):
        label.append(draw.text(ox + 10, oy + 45 + 17 * i, line, size=FONT, fill=INK,
                               class_="score"))
    out.append(draw.group(label, class_="player-line", data_seat=q))
    out.extend(_layout(obs, q, ox + (width - grid) / 2, oy + top, size, rows))
    return draw.group(out, class_="layout mine" if me else "layout", id=f"layout-{q}",
                      data_seat=q), height


# ---------------------------------------------------------------------------- the chart
CHART: tuple[tuple[int, tuple[tuple[str, str], ...]], ...] = (
    (3, (("I3", "oXo"), ("V3", "oX/.o"), ("D3", "o../.X./..o"))),
    (4, (("I4", "oXXo"), ("L4", "XXo/o.."), ("S4", ".Xo/oX."), ("T4", "oXo/.o."),
         ("D4", "...o/..X./.X../o..."))),
    (5, (("I5", "ooXoo"), ("V5", "Xoo/o../o.."), ("L5", "oXoo/o..."), ("N5", ".Xoo/oo.."),
         ("Y5", "oXoo/.o.."), ("F5", "..o/oXo/.o."), ("U5", "oXo/o.o"), ("X5", ".o./oXo/.o."),
         ("D5", "....o/...o./..X../.o.../o...."))),
)
"""The combination chart as the board shows it: the shapes of 3, 4 and 5 tiles, each in a
compact orientation (``X`` a marked cell, ``o`` another cell of the shape)."""
POINTS = {3: 2, 4: 4, 5: 7}
MINI = 12
"""A cell of the chart."""
assert {s for _, row in CHART for s, _ in row} == {s[0] for s in SHAPES}


def _chart(obs: dict[str, Any], ox: float, oy: float, width: float) -> tuple[str, float]:
    """The board's combination chart: every shape with its points, the marked cells (one of
    which is turned face down after scoring) dark, and the shapes the viewer can score now
    ringed, with how many such combinations he has; the SVG and its height."""
    can: dict[str, int] = {}
    for c in obs.get("my_combinations") or []:
        can[c["shape"]] = can.get(c["shape"], 0) + 1
    out = [draw.text(ox, oy + 16, _("Combinations"), size=16, weight="bold")]
    y = oy + 18
    for line in _wrap(_("3 to 5 tiles of one colour or of one object, in one of these shapes. "
                        "After scoring, turn one of its dark tiles face down."), FONT * 0.95,
                      width):
        y += 18
        out.append(draw.text(ox, y, line, size=FONT, fill=INK))
    y += 4
    for size, shapes in CHART:
        y += 20
        out.append(draw.text(ox, y, _n("{n} tiles: {points} (+1 with a crown)",
                                       "{n} tiles: {points} (+1 with a crown)", size,
                                       points=_points(POINTS[size])),
                             size=FONT, weight="bold"))
        y += 8
        x = ox
        row_h = 0.0
        for sid, rows in shapes:
            lines = rows.split("/")
            w, h = len(lines[0]) * MINI + 8, len(lines) * MINI + 8
            if x + w > ox + width:
                x, y, row_h = ox, y + row_h + 6, 0.0
            n = can.get(sid, 0)
            name = SHAPE_NAMES[sid]
            tip = (_n("{shape}: {points}; you can score {n} now",
                      "{shape}: {points}; you can score {n} now", n, shape=_(name),
                      points=_points(POINTS[size])) if n
                   else _("{shape}: {points}", shape=_(name), points=_points(POINTS[size])))
            body = [draw.title(tip)]
            if n:
                body.append(draw.rect(x - 1, y - 1, w + 2, h + 2, fill="#fff2c2", rx=5,
                                      stroke=HIGHLIGHT, stroke_width=2.5))
            for r, line in enumerate(lines):
                for c, ch in enumerate(line):
                    if ch == ".":
                        continue
                    body.append(draw.rect(x + 4 + c * MINI + 0.5, y + 4 + r * MINI + 0.5,
                                          MINI - 1, MINI - 1, rx=1.5,
                                          fill="#5b5348" if ch == "X" else "#e2d7c2",
                                          stroke="#5b5348", stroke_width=0.8))
            out.append(draw.group(body, class_="shape scorable" if n else "shape",
                                  data_shape=name))
            x += w + 8
            row_h = max(row_h, h)
        y += row_h
    return draw.group(out, class_="chart"), y - oy + 4


# ---------------------------------------------------------------------------- still to come
STOCK = 24
"""A tile of the grid of the tiles still to come."""


def _to_come(obs: dict[str, Any], ox: float, oy: float, width: float, words: bool = True) -> \
        tuple[str, float]:
    """The tiles the caller can still reveal, as the others' face-up stocks show them: a
    grid of the 36 tiles by colour and object, the ones already gone left as empty places,
    and (with ``words``) a line on how they come; the SVG and its height (nothing before the
    caller is known)."""
    left = obs.get("caller_stock_left")
    if left is None or obs.get("phase") in ("over", "end_scoring", "setup"):
        return "", 0.0
    have = set(left)
    head = (_n("Still to come: {n} tile", "Still to come: {n} tiles", len(have)) if words
            else _n("To come: {n} tile", "To come: {n} tiles", len(have)))
    out = [draw.text(ox, oy + 15, head, size=FONT + 1, weight="bold")]
    gy = oy + 24
    for r, colour in enumerate(COLOURS):
        for c, obj in enumerate(OBJECTS):
            tile = f"{colour}-{obj}"
            x, y = ox + c * STOCK, gy + r * STOCK
            if tile in have:
                out.append(art.tile_face(colour, obj, x + 1, y + 1, STOCK - 2,
                                         TILE_INDEX[tile] in CROWNS))
            else:
                out.append(draw.rect(x + 1.5, y + 1.5, STOCK - 3, STOCK - 3, fill="none",
                                     rx=3, stroke="#d6cfbf", stroke_dasharray="3 2"))
    tx = ox + 6 * STOCK + 12
    about = _("The caller reveals one of these each round, at random; every other player "
              "takes the same tile from their own stock.")
    for i, line in enumerate(_wrap(about, FONT * 0.95, ox + width - tx) if words else []):
        out.append(draw.text(tx, gy + 14 + 17 * i, line, size=FONT, fill=INK))
    return draw.group(out, class_="to-come"), 24 + 6 * STOCK + 6


# ---------------------------------------------------------------------------- the picture
def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The whole table: the round, what happens now and the called tile; the viewer's layout
    large and the others below it; the combination chart (the clients draw the results)."""
    obs = observation
    n = obs["players"]
    viewer = obs.get("viewer")
    me = viewer if viewer is not None and 0 <= viewer < n else None
    inner = WIDTH - 2 * MARGIN
    top = [draw.text(MARGIN, 28, _title(obs), size=18, weight="bold", class_="title")]
    called = obs.get("called_tile") if obs.get("phase") == "round" else None
    text_w = inner - (CALLED + 16 if called else 0)
    lines = _wrap(_status(obs, names), 15, text_w)
    y = 52.0
    for line in lines:
        top.append(draw.status(MARGIN, y, line, size=15))
        y += 20
    head = y
    if called:
        colour, obj = called.split("-")
        tx, ty = WIDTH - MARGIN - CALLED, 10
        crown = TILE_INDEX[called] in CROWNS
        top.append(draw.group(
            [draw.title(_("The called tile: {tile}", tile=_with_crown(_words(called), crown))),
             art.tile_face(colour, obj, tx, ty, CALLED, crown)],
            id="called-tile", class_="called"))
        # its name under it, on two lines where it is wider than the tile ("paarse voerbak"
        # ran off the picture's edge), each line kept inside the picture
        label = _wrap(_words(called), FONT, CALLED + MARGIN)
        for i, line in enumerate(label):
            half = draw.text_width(line, FONT, bold=True) / 2
            top.append(draw.text(min(tx + CALLED / 2, WIDTH - MARGIN / 2 - half),
                                 ty + CALLED + 18 + 16 * i, line, size=FONT, anchor="middle",
                                 weight="bold"))
        head = max(head + 10, ty + CALLED + 30 + 16 * (len(label) - 1))
    y = head + 4
    regions = [draw.region("head", 0, 0, WIDTH, y, top)]
    others = [q for q in range(n) if q != me]
    if me is not None:
        panel, h = _panel(obs, me, MARGIN, y, inner, BIG, names, rows=max(3, _rows(obs, me)))
        regions.insert(0, draw.region("board", 0, y, WIDTH, h + 10, [panel]))
        y += h + 10
    out, start = [], y
    come_done = False
    if len(others) <= (1 if me is not None else 2):  # one under the other
        for q in others:
            panel, h = _panel(obs, q, MARGIN, y, inner, MEDIUM, names,
                              rows=max(3, _rows(obs, q)))
            out.append(panel)
            y += h + 10
    else:  # two by two, the tiles still to come beside the last one where it is alone
        half = (inner - 10) / 2
        for i, q in enumerate(others):
            px = MARGIN + (i % 2) * (half + 10)
            pair = others[i - i % 2:i - i % 2 + 2]
            rows = max(_rows(obs, r) for r in pair)
            panel, h = _panel(obs, q, px, y, half, SMALL, names, fact_lines=2, rows=rows)
            out.append(panel)
            if i % 2 == 0 and i == len(others) - 1:
                come, come_h = _to_come(obs, px + half + 10 + (half - 6 * STOCK) / 2, y + 6,
                                        half, words=False)
                out.append(come)
                come_done = True
                h = max(h, come_h + 6)  # the row holds the tiles still to come as well
            if i % 2 == 1 or i == len(others) - 1:
                y += h + 10
    if out:  # the others' layouts: the board itself for a spectator
        where = 0 if me is None else len(regions)
        regions.insert(where, draw.region("board" if me is None else "others", 0, start, WIDTH,
                                          y - start, out))
    if not come_done:
        come, h = _to_come(obs, MARGIN, y, inner)
        if come:
            regions.append(draw.region("to-come", 0, y, WIDTH, h + 10, [come]))
            y += h + 10
    chart, h = _chart(obs, MARGIN, y, inner)
    regions.append(draw.region("chart", 0, y, WIDTH, h + MARGIN, [chart]))
    y += h + MARGIN
    return draw.document(WIDTH, round(y), [art.defs(), *regions], cls="mops-royal",
                         label=_("Mops Royal table"))


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
LAST = "›"
"""The mark before a cell placed, rejected onto or turned over in the last round."""


def _code(tile: str) -> str:
    colour, obj = tile.split("-")
    return COLOUR_LETTERS[COLOURS.index(colour)] + OBJECT_LETTERS[OBJECTS.index(obj)]


def _text_tile(cell: dict[str, Any] | None, legal: bool, colour: Colour, last: bool) -> str:
    """One cell, four characters: the last-round mark, then the tile's colour letter and
    object letter and ``*`` for a crown, or the owner's symbol and ``##`` face down, or
    ``+`` where the viewer may place, or ``·`` empty."""
    lead = LAST if last else " "
    if cell is None:
        return "[bold]  + [/]" if legal else "[dim]  · [/]"
    if not cell["face_up"]:
        cov = cell.get("covers", 0)
        back = f"bold {colour.ink} on {colour.fill}"
        inside = f"{colour.symbol}##" if not cov else f"{colour.symbol}#{min(cov, 9)}"
        return f"{lead}[{back}]{inside}[/]"
    colour_name = cell["tile"].split("-")[0]
    mark = "*" if cell["crown"] else " "
    return f"{lead}[{RICH[colour_name]}]{_code(cell['tile'])}{mark}[/]"


def _text_layout(obs: dict[str, Any], q: int, used: set[str]) -> list[str]:
    """Seat ``q``'s layout as rows of cells under the x coordinates, each row after its y;
    ``used`` collects the legend's keys of what it shows."""
    cells = obs["layouts"][q]
    if not cells:
        return ["     " + _("(no start tile yet)")]
    by = {(c["x"], c["y"]): c for c in cells}
    me = obs.get("viewer") == q
    legal = {(c[0], c[1]) for c in obs.get("my_legal_cells") or []} if me else set()
    last = _last(obs, q)
    x0, x1, y0, y1 = _window(cells)
    lines = ["    " + "".join(f"{x:>3} " for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        row = []
        for x in range(x0, x1 + 1):
            cell = by.get((x, y))
            row.append(_text_tile(cell, (x, y) in legal, SEAT_COLOURS[q], (x, y) in last))
            if (x, y) in last:
                used.add("last")
            if cell is None:
                used.add("legal" if (x, y) in legal else "empty")
            elif not cell["face_up"]:
                if cell.get("covers"):
                    used.add(f"covers:{min(cell['covers'], 9)}")
                else:
                    used.add("back")
            else:
                colour, obj = cell["tile"].split("-")
                used.update({f"colour:{colour}", f"object:{obj}"})
                if cell["crown"]:
                    used.add("crown")
        lines.append(f" {y:>2} " + "".join(row))
    return lines


def _legend(used: set[str]) -> list[str]:
    """The key to the symbols the picture uses, and only those."""
    colours = [f"{COLOUR_LETTERS[i]} {_(COLOUR_WORDS[i])}" for i, c in enumerate(COLOURS)
               if f"colour:{c}" in used]
    objects = [f"{OBJECT_LETTERS[i]} {_(OBJECT_WORDS[i])}" for i, o in enumerate(OBJECTS)
               if f"object:{o}" in used]
    marks = []
    if "crown" in used:
        marks.append("* " + _("crown"))
    if "back" in used:
        marks.append("## " + _("face down, after the symbol of its owner"))
    for k in sorted(int(u[7:]) for u in used if u.startswith("covers:")):
        marks.append(f"#{k} " + _n("face down, {n} rejected tile under it",
                                   "face down, {n} rejected tiles under it", k))
    if "legal" in used:
        marks.append("+ " + _("you may place here"))
    if "empty" in used:
        marks.append("· " + _("empty"))
    if "last" in used:
        marks.append(f"{LAST} " + _("last round"))
    out = []
    for label, items in ((_("Colours"), colours), (_("Objects"), objects), (_("Marks"), marks)):
        line = f"{label}:"
        for item in items:
            if len(line) + 2 + len(item) > 78:
                out.append(line)
                line = " " * (len(label) + 1)
            line += ("  " if line.strip() else " ") + item
        if items:
            out.append(line)
    return out


def _cells(cells: list[list[int]]) -> str:
    return " ".join(f"({x},{y})" for x, y in cells)


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The table for the terminal: each layout as a grid of short codes (colour letter +
    object letter, * for a crown, the owner's symbol and ## face down, + a cell where you may
    place, › last round), the key to what it shows, and the viewer's combinations."""
    obs = observation
    n = obs["players"]
    viewer = obs.get("viewer")
    out = [f"[bold]{draw.plain(_title(obs))}[/]"]
    if obs.get("caller") is not None:
        out.append(_("Caller: {player}", player=draw.who(obs["caller"], SEAT_COLOURS, names)))
    used: set[str] = set()
    if obs.get("called_tile") and obs.get("phase") == "round":
        called = obs["called_tile"]
        colour, obj = called.split("-")
        crown = TILE_INDEX[called] in CROWNS
        code = f"[{RICH[colour]}]{_code(called)}{'*' if crown else ' '}[/]"
        out.append(_("Called tile: {code} {tile}", code=code,
                     tile=_with_crown(_words(called), crown)))
        used.update({f"colour:{colour}", f"object:{obj}"} | ({"crown"} if crown else set()))
    status = _status(obs, names, clicks=False)
    if status:
        out.append(draw.plain(status))
    final = bool(obs.get("final_breakdown"))
    width = draw.who_width(n, names, viewer)
    for q in range(n):
        tags = _tags(obs, q)
        rej = obs.get("rejections", [0] * n)[q]
        # at the end the totals are in the clients' results table, once
        facts = ([] if final else [_points(_own_score(obs, q))]) + (
            [_n("{n} tile rejected", "{n} tiles rejected", rej)] if rej else []) + tags
        out.append("")
        who = draw.who(q, SEAT_COLOURS, names, viewer, current=_current(obs, q), width=width)
        out.append(f"{who}  {_(', ').join(facts)}".rstrip())
        out.extend(_text_layout(obs, q, used))
    legend = _legend(used)
    if legend:
        out.append("")
        out.extend(legend)
    if viewer is not None and obs.get("my_combinations"):
        out.append("")
        out.append("[bold]" + _("Your combinations") + "[/]:")
        for c in obs["my_combinations"]:
            spots = [f"({x},{y})" for x, y in c["marks"]]
            marks = spots[0] if len(spots) == 1 else _("{first} or {last}", first=spots[0],
                                                       last=spots[-1])
            out.append("  " + _("{shape} {cells}: {points}, turning {marks} face down",
                                shape=c["shape"], cells=_cells(c["cells"]),
                                points=_points(c["points"]), marks=marks))
    step = obs.get("my_step")
    if step == "place":
        if obs["options"].get("replacement_tiles"):
            out.append(_("Place the called tile: place (x,y), or reject (x,y) onto a face-down "
                         "tile"))
        else:
            out.append(_("Place the called tile: place (x,y)"))
    elif step == "score":
        out.append(_("Score: score <shape> (x,y) ... flip (x,y), or noscore"))
    return "\n".join(out)
