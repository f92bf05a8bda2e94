"""Pictures of a Kontor observation: an SVG for the browser and rich text for the terminal.

Both draw only from the observation dict, with the engine's SVG toolkit and the players' card
colours (``Kontor.colours``), and show the harbour as a player knows it: the cards with their
numbers, bars, goods and symbols, warehouses, keepers and the patrol ship, each area outlined
with who leads it. Cell elements carry ids ``cell-<row>-<col>`` (the padded grid of the
observation's ``grid``) and hand cards ``hand-<card>``, matching the ``target`` of
``describe_action``; the SVG is 720 units wide, so its smallest text (24 units) is 12 CSS px on a
phone, and the panels lie below the board.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.i18n import N_, words
from meeple.engine.look import HIGHLIGHT, INK, MUTED, Colour, seat_name

from . import art
from .components import COLOURS, GOODS, SEAT_COLOURS
from .notation import and_list, field_place

_, _n = words(__file__)

WIDTH = 720.0
"""The picture's width in units; a phone shows it about 360 CSS px wide."""
MARGIN = 12.0
INNER = WIDTH - 2 * MARGIN
FONT = 26.0
"""Panel text (13 CSS px on a phone)."""
LABEL = 42.0
"""The players' names: their symbols on the shared mark are then 12 CSS px too."""
MAX_CELL = 110.0
HAND_CARD = 80.0
MIN_HAND_CARD = 60.0
MINI = 52.0
TABLE = "#e9dfc8"
"""The table between the cards."""
EMPTY = "#f3ecdb"
LEGAL_FILL = "#fff3bf"
EDGE = "#5b4a2e"
"""The field's edge, once the field has reached its full size on that side."""
STYLE = (
    "<style>"
    ".kontor .slot{stroke:none}"
    ".kontor .legal>.slot{stroke:" + MUTED + ";stroke-width:2;stroke-dasharray:4 6}"
    ".kontor.placing .legal>.slot{stroke:" + HIGHLIGHT + ";stroke-width:4;stroke-dasharray:7 4}"
    ".kontor.placing .legal>.card{fill:" + LEGAL_FILL + "}"
    ".kontor .target>.slot{stroke:" + HIGHLIGHT + ";stroke-width:5;stroke-dasharray:none}"
    ".kontor .last-move{stroke-width:5;stroke-dasharray:10 5}"
    "</style>"
)
"""Kontor's frames: free places dashed (in the highlight colour while a card is being placed),
the client's targets and the last move ringed."""
MODE_WORDS = {"basic": N_("basic game"), "advanced": N_("advanced game"),
              "expansion": N_("expansion")}
SHORT_MODE = {"basic": N_("basic"), "advanced": N_("advanced"), "expansion": N_("expansion")}
_ACTION = re.compile(r"^(red|black|green|purple): (place|ship|remove)\b(?: (\S+))? ?"
                     r"\((-?\d+),(-?\d+)\)")


# -- what the observation says, in words ---------------------------------------------------------
def _end_reason(obs: dict[str, Any], names: Sequence[str] | None) -> str:
    """Why the game ended, in words (rules 6.1)."""
    if obs.get("ended") == "E1":
        return _("the field is complete")
    for line in reversed(obs["log"]):
        colour = line.split()[0] if line.split() else ""
        if line.endswith("has only water cards left") and colour in COLOURS:
            return _("{player} has only water cards left",
                     player=seat_name(COLOURS.index(colour), names))
    return _("the last round has been played")


def _scoring_words(obs: dict[str, Any]) -> str:
    """Which closed areas scored (rules 6.2), in words."""
    rule = obs["final_scoring"]["scored_areas"]
    if rule == "all":
        return _("every closed area scores")
    k = int(rule.removeprefix("largest_"))
    return _n("the {n} largest closed area scores (ties included)",
              "the {n} largest closed areas score (ties included)", k)


def _end_words(obs: dict[str, Any], names: Sequence[str] | None) -> str:
    """Why the game ended and which areas scored, as one sentence."""
    why = _end_reason(obs, names)
    said = _("{why}; {scoring}.", why=why, scoring=_scoring_words(obs))
    return said[:1].upper() + said[1:]


def _marked(p: int, names: Sequence[str] | None) -> str:
    """A player's name and symbol: "Alice ▲"."""
    return f"{seat_name(p, names)} {SEAT_COLOURS[p].symbol}"


def _pile_name(k: str, names: Sequence[str] | None) -> str:
    """A draw pile in words: a player's harbour pile, the water pile, the special pile."""
    if k in COLOURS:
        return _("{player}'s pile", player=seat_name(COLOURS.index(k), names))
    if k == "water":
        return _("water pile")
    if k == "special":
        return _("special pile")
    return k


def _goods_counts(counts: dict[str, int]) -> str:
    """A count per goods type: "tea 2, wine 0, spice 1"."""
    return _(", ").join(f"{_(art.GOODS_WORDS[t])} {counts[g]}" for t, g in enumerate(GOODS))


def _phase_line(obs: dict[str, Any], names: Sequence[str] | None) -> str:
    """Who does what now, in words."""
    if obs.get("terminal"):
        return draw.game_over(obs.get("winners"), names)
    if obs["phase"] == "choose":
        waiting = [seat_name(p, names) for p in obs.get("pending", [])]
        if waiting:
            return _("Everyone chooses a card: waiting for {players}",
                     players=and_list(waiting))
        return _("Everyone chooses a card")
    if obs.get("acting") is not None and obs.get("step"):
        who = seat_name(obs["acting"], names)
        step = obs["step"]
        if step == "place":
            card = art.card_words(obs["acting_card"]) if obs.get("acting_card") else _("a card")
            return _("{player} places {card}", player=who, card=card)
        if step == "ship":
            return _("{player} may move the ship", player=who)
        if step == "buy":
            return _("{player} may buy a special card", player=who)
        return _("{player} may remove a card", player=who)
    if obs["phase"] == "round start":
        return _("A new round starts")
    return _("Cards are drawn")


def _last_move(obs: dict[str, Any], names: Sequence[str] | None) \
        -> tuple[tuple[int, int] | None, str]:
    """The cell of the last move on the field (a card placed, the ship moved or a card
    removed) from the log, and the move in words."""
    for line in reversed(obs["log"]):
        m = _ACTION.match(line)
        if not m:
            continue
        colour, verb, card, x, y = m.groups()
        who = seat_name(COLOURS.index(colour), names)
        cell = (int(x), int(y))
        at = field_place(*cell)  # the field's place in words, as the log says it
        if verb == "place" and card in art.CARD_ID:
            said = _("{player} placed {card} {place}", player=who, card=art.card_words(card),
                     place=at)
        elif verb == "place":
            said = _("{player} placed a card {place}", player=who, place=at)
        elif verb == "ship":
            said = _("{player} moved the ship {place}", player=who, place=at)
        else:
            said = _("{player} removed the card {place}", player=who, place=at)
        return cell, said
    return None, ""


def _wrap(line: str, width: int, indent: str = "") -> list[str]:
    return textwrap.wrap(line, width=width, subsequent_indent=indent, break_on_hyphens=False) \
        or [""]


# -- the SVG ---------------------------------------------------------------------------------------
def _span(obs: dict[str, Any]) -> tuple[range, range]:
    """The cells drawn: every card and legal cell (rows and columns of the padded grid)."""
    cells = [tuple(c["cell"]) for c in obs["field"]] + [tuple(c) for c in obs["legal_cells"]]
    minx, maxx, miny, maxy = obs["frame"]
    xs = [x for x, _ in cells] + [minx, maxx]
    ys = [y for _, y in cells] + [miny, maxy]
    return range(min(xs), max(xs) + 1), range(min(ys), max(ys) + 1)


def _cell_id(obs: dict[str, Any], x: int, y: int) -> str:
    pad = obs["grid"]["pad"]
    return f"cell-{y + pad}-{x + pad}"


def _board(obs: dict[str, Any], colours: Sequence[Colour], names: Sequence[str] | None,
           top: float, last: tuple[int, int] | None) -> tuple[list[str], float]:
    """The field: the table, every card, the area outlines with their keepers or leaders, the
    field's edges and the ship; the SVG and its height."""
    xs, ys = _span(obs)
    cols, rows = len(xs), len(ys)
    cell = min(MAX_CELL, INNER / max(cols, rows))
    left = MARGIN + (INNER - cell * cols) / 2
    cards = {tuple(c["cell"]): c for c in obs["field"]}
    legal = {tuple(c) for c in obs.get("legal_cells", [])}

    def px(x: int, y: int) -> tuple[float, float]:
        return left + (x - xs.start) * cell, top + (y - ys.start) * cell

    out = [draw.rect(round(left - 4, 1), round(top - 4, 1), round(cell * cols + 8, 1),
                     round(cell * rows + 8, 1), fill=TABLE, rx=8, class_="table")]
    for y in ys:
        for x in xs:
            X, Y = px(x, y)
            c = cards.get((x, y))
            slot = "slot"
            cid = _cell_id(obs, x, y)
            where = f"({x},{y})"
            if c is None:
                ok = (x, y) in legal
                body = [draw.rect(round(X + cell * 0.035, 1), round(Y + cell * 0.035, 1),
                                  round(cell * 0.93, 1), round(cell * 0.93, 1),
                                  fill=EMPTY, rx=f"{cell * 0.08:.1f}",
                                  class_="card"),
                        draw.rect(round(X + cell * 0.035, 1), round(Y + cell * 0.035, 1),
                                  round(cell * 0.93, 1), round(cell * 0.93, 1),
                                  rx=f"{cell * 0.08:.1f}", class_=slot),
                        draw.title(_("free place {cell}", cell=where) if ok else where)]
                out.append(draw.group(body, id=cid, class_="cell legal" if ok else "cell empty"))
                continue
            kind = "water" if c["water"] else "land"
            what = art.card_words(c["id"]) if c["id"] in art.CARD_ID else c["kind"]
            owner = c["owner"]
            at = f"({x},{y})"
            body = art.card(art.card_of_field(c), list(colours), X, Y, cell, slot_cls=slot)
            body.append(draw.title(
                _("{card} of {player} at {cell}", card=what, player=seat_name(owner, names),
                  cell=at) if owner is not None else _("{card} at {cell}", card=what, cell=at)))
            out.append(draw.group(body, id=cid, class_=f"cell {kind}"))
    out += _edges(obs, xs, ys, px, cell)
    out += _areas(obs, colours, names, px, cell)
    if last is not None and last[0] in xs and last[1] in ys:  # ringed above the outlines
        X, Y = px(*last)
        out.append(draw.rect(round(X + cell * 0.09, 1), round(Y + cell * 0.09, 1),
                             round(cell * 0.82, 1), round(cell * 0.82, 1), rx=f"{cell * 0.06:.1f}",
                             class_="last-move", data_cell=_cell_id(obs, *last),
                             pointer_events="none"))
    if obs.get("ship"):
        X, Y = px(*obs["ship"])
        out.append(art.patrol_ship(X + cell * 0.5, Y + cell * 0.6, cell * 0.62))
    return out, cell * rows


def _edges(obs: dict[str, Any], xs: range, ys: range, px: Any, cell: float) -> list[str]:
    """The field's edges where it has reached its full size (rules 2.7)."""
    n = obs["field_size"]
    minx, maxx, miny, maxy = obs["frame"]
    d = []
    if maxx - minx + 1 >= n:
        (x0, y0), (x1, _) = px(minx, ys.start), px(maxx + 1, ys.start)
        d.append(f"M{x0:.1f},{y0:.1f}v{cell * len(ys):.1f}M{x1:.1f},{y0:.1f}"
                 f"v{cell * len(ys):.1f}")
    if maxy - miny + 1 >= n:
        (x0, y0), (_, y1) = px(xs.start, miny), px(xs.start, maxy + 1)
        d.append(f"M{x0:.1f},{y0:.1f}h{cell * len(xs):.1f}M{x0:.1f},{y1:.1f}"
                 f"h{cell * len(xs):.1f}")
    if not d:
        return []
    return [draw.path("".join(d), stroke=EDGE, stroke_width=4, stroke_linecap="round",
                      class_="field-edge", pointer_events="none")]


def _areas(obs: dict[str, Any], colours: Sequence[Colour], names: Sequence[str] | None,
           px: Any, cell: float) -> list[str]:
    """Each area outlined (dashed while open, in its winner's colour once closed) and marked
    with its keeper, or with the player who leads it while it is open."""
    out = []
    marks = []
    for a in obs["areas"]:
        cells = {tuple(c) for c in a["cells"]}
        owner, closed = a["owner"], a["closed"]
        segs = []
        for x, y in cells:
            X, Y = px(x, y)
            if (x, y - 1) not in cells:
                segs.append(f"M{X:.1f},{Y:.1f}h{cell:.1f}")
            if (x, y + 1) not in cells:
                segs.append(f"M{X:.1f},{Y + cell:.1f}h{cell:.1f}")
            if (x - 1, y) not in cells:
                segs.append(f"M{X:.1f},{Y:.1f}v{cell:.1f}")
            if (x + 1, y) not in cells:
                segs.append(f"M{X + cell:.1f},{Y:.1f}v{cell:.1f}")
        d = "".join(segs)
        stroke = colours[owner].fill if owner is not None else ("#555555" if closed else INK)
        out.append(draw.group(
            [draw.path(d, stroke="#ffffff", stroke_width=8, stroke_linecap="round"),
             draw.path(d, stroke=stroke, stroke_width=4.5, stroke_linecap="round",
                       stroke_dasharray=None if closed else "9 6")],
            class_="area closed" if closed else "area open", pointer_events="none"))
        x, y = min(cells, key=lambda c: (c[1], c[0]))
        X, Y = px(x, y)
        cx, cy = X + cell * 0.5, Y + cell * 0.5
        if closed and owner is not None:
            marks.append(draw.group(
                [art.keeper(colours[owner], cx, cy, cell * 0.5),
                 draw.title(_n("{player}'s keeper: area won, {n} card; {goods}",
                               "{player}'s keeper: area won, {n} cards; {goods}", a["size"],
                               player=seat_name(owner, names),
                               goods=_counts_words(a["counts"], names)))],
                class_="keeper", pointer_events="none"))
        elif not closed and a.get("leader") is not None:
            lead = a["leader"]
            marks.append(draw.group(
                [draw.circle(round(cx, 1), round(cy, 1), round(cell * 0.17, 1), fill="#ffffff",
                             stroke=INK, stroke_width=1.5, stroke_dasharray="3 2"),
                 art.player_disc(colours[lead], cx, cy, cell * 0.13),
                 draw.title(_("{player} leads this open area: {goods}",
                              player=seat_name(lead, names),
                              goods=_counts_words(a["counts"], names)))],
                class_="leader", pointer_events="none"))
    return out + marks


def _hand(obs: dict[str, Any], colours: Sequence[Colour], top: float) -> tuple[list[str], float]:
    """The viewer's hand as cards (ids ``hand-<card>``), the chosen one ringed."""
    hand = obs.get("hand")
    if hand is None:
        return [], 0.0
    out = [draw.text(MARGIN, top + FONT, _("Your hand") if hand else _("Your hand is empty"),
                     size=FONT, weight="bold", class_="hand-title")]
    y = top + FONT + 10
    # a big hand (special cards bought) in one row of smaller cards while they stay 30 px
    size = max(MIN_HAND_CARD, min(HAND_CARD, (INNER + 10) / max(1, len(hand)) - 10))
    per_row = max(1, int((INNER + 10) // (size + 10)))
    chosen = obs.get("my_choice")
    for k, name in enumerate(hand):
        X = MARGIN + (k % per_row) * (size + 10)
        Y = y + (k // per_row) * (size + 10)
        body = art.card(art.card_of_name(name), list(colours), X, Y, size)
        if name == chosen:
            body.append(draw.rect(X + 1, Y + 1, size - 2, size - 2, rx=10,
                                  stroke=HIGHLIGHT, stroke_width=6, class_="chosen"))
        body.append(draw.title(_("chosen: {card}", card=art.card_words(name))
                               if name == chosen else art.card_words(name)))
        out.append(draw.group(body, id=f"hand-{name}", class_="hand-card"))
    rows = (len(hand) + per_row - 1) // per_row
    return out, FONT + 10 + rows * (size + 10) + 6


def _item(x: float, y: float, icon: str, value: object, tip: str) -> tuple[str, float]:
    """An icon with its number beside it (``y`` the text's baseline); the SVG and its width."""
    words = str(value)
    return draw.group([icon, draw.text(round(x + 32, 1), y, words, size=FONT),
                       draw.title(tip)], class_="count"), 32 + FONT * 0.62 * len(words) + 18


def _hand_icon(x: float, y: float) -> str:
    """Two card backs: the cards in a hand."""
    return draw.rect(x + 4, y - 22, 17, 24, fill="#ffffff", stroke=INK, stroke_width=1.5,
                     rx=2) + draw.rect(x + 9, y - 19, 17, 24, fill="#ffffff", stroke=INK,
                                       stroke_width=1.5, rx=2)


PANEL = 104.0


def _panel(obs: dict[str, Any], p: int, colours: Sequence[Colour],
           names: Sequence[str] | None, top: float) -> tuple[list[str], float]:
    """One player: name and points; coins, keepers left, hand, chits and the card played."""
    colour = colours[p]
    name = seat_name(p, names)
    out = [draw.rect(MARGIN, top, INNER, PANEL, fill="#ffffff", stroke=colour.fill,
                     stroke_width=3, rx=10, class_="player-panel"),
           draw.player_line(p, colours, names, MARGIN + 12, top + 44, INNER - 24,
                            obs["scores"][p], size=LABEL, viewer=obs.get("viewer"),
                            current=obs.get("acting") == p)]
    y = top + 90
    x = MARGIN + 12
    coins, keepers, hand = obs["coins"][p], obs["keepers"][p], obs["hand_sizes"][p]
    items = [
        (lambda x, y: art.coin(x + 13, y - 9, 12), coins,
         _n("{player}: {n} coin", "{player}: {n} coins", coins, player=name)),
        (lambda x, y: art.keeper(colour, x + 13, y - 10, 30), keepers,
         _("{player}: {keepers}, {areas}", player=name,
           keepers=_n("{n} keeper left", "{n} keepers left", keepers),
           areas=_n("{n} area won", "{n} areas won", obs["areas_won"][p]))),
        (_hand_icon, hand, _n("{player}: {n} card in hand", "{player}: {n} cards in hand", hand,
                              player=name)),
    ]
    for icon, value, tip in items:
        svg, w = _item(x, y, icon(x, y), value, tip)
        out.append(svg)
        x += w
    chits = obs["chits"][p]
    if obs["mode"] == "expansion" or any(chits.values()):
        for g in GOODS:
            chit = draw.circle(x + 14, y - 10, 15, fill="#ffffff", stroke=MUTED,
                               stroke_width=2) + art.goods_icon(g, x + 3, y - 21, 22)
            svg, w = _item(x, y, chit, chits[g],
                           _n("{player}: {n} {goods} chit exported",
                              "{player}: {n} {goods} chits exported", chits[g], player=name,
                              goods=_(art.GOODS_WORDS[GOODS.index(g)])))
            out.append(svg)
            x += w - 6
    right = MARGIN + INNER - 12
    rev = obs["revealed"][p]
    if rev:
        size = PANEL - 56
        cx = right - size
        out += art.card(art.card_of_name(rev), list(colours), cx, top + 51, size)
        out.append(draw.text(round(cx - 8, 1), y, _("plays"), size=FONT, anchor="end",
                             fill=MUTED))
    elif obs.get("has_chosen") and obs["has_chosen"][p]:
        out.append(draw.text(right, y, _("has chosen"), size=FONT, anchor="end", fill=MUTED))
    return [draw.group(out, class_="panel", data_seat=p)], PANEL + 8


def _back(x: float, y: float, s: float, colour: Colour | None, water: bool) -> list[str]:
    """The back of a pile's card: the owner's colour and symbol, water, or a special card."""
    fill = colour.fill if colour else (art.WATER_FILL if water else "#6d5a3a")
    out = [draw.rect(round(x + 2, 1), round(y + 2, 1), round(s - 4, 1), round(s - 4, 1),
                     fill=fill, rx=5, stroke="#ffffff", stroke_width=2, class_="card-back")]
    if colour:
        out.append(art.symbol_shape(colour.symbol, x + s / 2, y + s / 2, s * 0.22, colour.ink))
    elif not water:
        out.append(draw.path(f"M{x + s / 2:.1f},{y + s * 0.24:.1f}l{s * 0.08:.1f},"
                             f"{s * 0.18:.1f}h{s * 0.18:.1f}l{-s * 0.14:.1f},{s * 0.12:.1f}"
                             f"l{s * 0.06:.1f},{s * 0.2:.1f}l{-s * 0.18:.1f},{-s * 0.12:.1f}"
                             f"l{-s * 0.18:.1f},{s * 0.12:.1f}l{s * 0.06:.1f},{-s * 0.2:.1f}"
                             f"l{-s * 0.14:.1f},{-s * 0.12:.1f}h{s * 0.18:.1f}z",
                             fill=art.COIN_FILL))
    return out


def _piles(obs: dict[str, Any], colours: Sequence[Colour], names: Sequence[str] | None,
           top: float) -> tuple[list[str], float]:
    """The draw piles: each one's top card where it is face up (else its back in the owner's
    colour), and how many cards it holds."""
    heading = _("Draw piles")
    out = [draw.text(MARGIN, top + FONT, heading, size=FONT, weight="bold")]
    x = MARGIN + INNER
    for g in reversed(GOODS):  # the warehouses left in the supply, at the right
        left = obs["supply"][g]
        w = 32 + FONT * 0.62 * len(str(left)) + 12
        x -= w
        svg, _w = _item(x, top + FONT, art.goods_icon(g, x, top + 1, 28), left,
                       _n("{n} {goods} warehouse left in the supply",
                          "{n} {goods} warehouses left in the supply", left,
                          goods=_(art.GOODS_WORDS[GOODS.index(g)])))
        out.append(svg)
    # the supply's label between the heading and the icons, shortened where they leave no room
    room = x - 4 - MARGIN - draw.text_width(heading, FONT, bold=True) - FONT * 0.6
    # TRANSLATORS: a short label beside the warehouses of each goods left in the supply, at
    # the draw piles ("Vorrat"; or what is left: "Almacenes restantes"); it must fit a phone
    left_words = _("Supply")
    shown = draw.fit(left_words, room, FONT)
    if room > FONT * 2:
        whole = [draw.title(left_words)] if shown != left_words else []
        out.append(draw.group([*whole, draw.text(round(x - 4, 1), top + FONT, shown, size=FONT,
                                                 anchor="end", fill=MUTED)],
                              class_="supply-label"))
    x, y = MARGIN, top + FONT + 10
    for k, v in obs["piles"].items():
        owner = COLOURS.index(k) if k in COLOURS else None
        tip = _pile_name(k, names)
        body = (art.card(art.card_of_name(v["top"]), list(colours), x, y, MINI) if v["top"]
                else _back(x, y, MINI, colours[owner] if owner is not None else None,
                           k == "water"))
        body.append(draw.text(round(x + MINI + 6, 1), round(y + MINI * 0.7, 1),
                              str(v["size"]), size=FONT, class_="pile-size"))
        body.append(draw.title(_n("{pile}: {n} card", "{pile}: {n} cards", v["size"],
                                  pile=tip)))
        out.append(draw.group(body, class_="pile"))
        x += MINI + 6 + FONT * 0.62 * len(str(v["size"])) + 18
    if obs.get("treasury") is not None:
        svg, _w = _item(x, y + MINI * 0.7, art.coin(x + 13, y + MINI * 0.7 - 9, 12),
                       obs["treasury"], _n("{n} coin in the treasury",
                                           "{n} coins in the treasury", obs["treasury"]))
        out.append(svg)
    return out, FONT + 10 + MINI + 12


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The harbour as a standalone SVG: the field with its cards, warehouses, keepers, areas
    and ship, then the viewer's hand, the players and the piles (the clients draw the results
    table)."""
    obs = observation
    colours = SEAT_COLOURS
    n = obs["field_size"]
    mode = _(SHORT_MODE[obs["mode"]]) if obs["mode"] in SHORT_MODE else obs["mode"]
    head = [draw.text(MARGIN, 40, _("Kontor · round {round}", round=obs["round"]), size=34,
                      weight="bold",
                      class_="title"),
            draw.text(MARGIN + INNER, 40, f"{mode[:1].upper()}{mode[1:]} · {n}×{n}",
                      size=FONT, anchor="end", fill=MUTED, class_="detail")]
    y = 40.0
    for line in draw.wrap(_phase_line(obs, names), INNER, 28, bold=True):
        y += 36
        head.append(draw.status(MARGIN, y, line, size=28))
    last, words = _last_move(obs, names)
    for line in draw.wrap(words, INNER, FONT):
        y += 32
        head.append(draw.text(MARGIN, y, line, size=FONT, fill=MUTED, class_="last-words"))
    y += 22
    board, h = _board(obs, colours, names, y, last)
    body = [STYLE, draw.region("board", 0, y - 8, WIDTH, h + 24, board),  # its frame: 4 out
            draw.region("head", 0, 0, WIDTH, y - 8, head)]
    y += h + 16
    part, h = _hand(obs, colours, y)
    if part:
        body.append(draw.region("hand", 0, y, WIDTH, h, part))
    y += h
    for p in range(obs["players"]):
        part, h = _panel(obs, p, colours, names, y)
        body.append(draw.region(f"player-{p}", 0, y, WIDTH, h, part))
        y += h
    start = y
    if obs.get("terminal"):  # why the game ended and which areas scored, in words
        part = []
        for line in draw.wrap(_end_words(obs, names), INNER, FONT):
            y += FONT + 8
            part.append(draw.text(MARGIN, y, line, size=FONT, class_="end-reason"))
        y += 16
        body.append(draw.region("end", 0, start, WIDTH, y - start, part))
    else:
        part, h = _piles(obs, colours, names, y)
        body.append(draw.region("piles", 0, start, WIDTH, h, part))
        y += h
    placing = obs.get("step") == "place" and not obs.get("terminal")
    return draw.document(WIDTH, round(y, 1), body, cls="kontor placing" if placing else "kontor",
                         label=_("Kontor harbour"))


# -- the terminal picture --------------------------------------------------------------------------
TEXT_WIDTH = 80
CELL_W = 7
GOODS_LETTER = {"tea": "t", "wine": "w", "spice": "s"}
LEGEND = {
    "~": N_("water"), "@": N_("anchor"), "≈": N_("flood"), "=": N_("bridge"),
    "#": N_("customs house"), "t": N_("tea without a warehouse"),
    "w": N_("wine without a warehouse"), "s": N_("spice without a warehouse"),
    "T": N_("tea warehouse"), "W": N_("wine warehouse"), "S": N_("spice warehouse"),
    "Γ": N_("crane (and the goods it counts as)"), "&": N_("tavern"), "$": N_("coin symbol"),
    "^": N_("ship symbol"), "<>": N_("the patrol ship"), "+": N_("free place"),
    "·": N_("empty place"), "*": N_("last move"),
}
"""What each symbol of the terminal picture means (the players' symbols are named apart)."""


def _text_card(c: dict[str, Any], used: set[str]) -> str:
    """A card as at most 6 characters: owner's symbol or kind, number, goods, symbols."""
    kind = c["kind"]
    if c["id"] == "anchor":
        used.add("@")
        return "@"
    head = {"water": "~", "flood": "≈", "bridge": "=", "customs": "#"}.get(kind, "")
    if head:
        used.add(head)
    elif c["owner"] is not None:
        head = SEAT_COLOURS[c["owner"]].symbol
    tail = ""
    if kind == "goods":
        kept = set(c["stored"]) | set(c.get("valued", ()))
        for g in c["goods"]:
            ch = GOODS_LETTER[g].upper() if g in kept else GOODS_LETTER[g]
            used.add(ch)
            tail += ch
    elif kind == "crane":
        used.add("Γ")
        tail = "Γ"
        if c.get("crane"):
            ch = GOODS_LETTER[c["crane"]]
            ch = ch.upper() if c.get("crane_active", True) else ch
            used.add(ch)
            tail += ch
    elif kind == "tavern":
        used.add("&")
        tail = "&"
    if c["coin"]:
        used.add("$")
        tail += "$"
    elif c["ship"]:
        used.add("^")
        tail += "^"
    return f"{head}{c['number']}{tail}"


def _text_grid(obs: dict[str, Any], used: set[str], last: tuple[int, int] | None) -> list[str]:
    xs, ys = _span(obs)
    cards = {tuple(c["cell"]): c for c in obs["field"]}
    legal = {tuple(c) for c in obs.get("legal_cells", [])}
    ship = tuple(obs["ship"]) if obs.get("ship") else None
    lines = ["    " + "".join(f"{x:^{CELL_W}}" for x in xs)]
    for y in ys:
        row = [f"{y:>3} "]
        for x in xs:
            c = cards.get((x, y))
            if c is None:
                if (x, y) in legal:
                    used.add("+")
                    row.append(f"{'+':^{CELL_W}}")
                else:
                    used.add("·")
                    row.append(f"[dim]{'·':^{CELL_W}}[/dim]")
                continue
            tok = _text_card(c, used)
            if ship == (x, y):
                used.add("<>")
                tok = f"<{tok}>"
            if last == (x, y):
                used.add("*")
                tok += "*"
            tok = f"{tok:^{CELL_W}}"
            if c["water"]:
                row.append(f"[white on #2f6f9f]{draw.plain(tok)}[/]")
            elif c["owner"] is not None:
                col = SEAT_COLOURS[c["owner"]]
                row.append(f"[{col.ink} on {col.fill}]{draw.plain(tok)}[/]")
            else:
                row.append(f"[black on #b39d74]{draw.plain(tok)}[/]")
        lines.append("".join(row))
    return lines


def _counts_words(counts: list[list[int]], names: Sequence[str] | None) -> str:
    parts = []
    for p, cnt in enumerate(counts):
        got = [f"{_(art.GOODS_WORDS[t])} {v}" for t, v in enumerate(cnt) if v]
        if got:
            parts.append(f"{seat_name(p, names)} {SEAT_COLOURS[p].symbol} {_(', ').join(got)}")
    return "; ".join(parts) or _("no goods")


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The harbour for the terminal (at most 80 columns): the field as a grid of cards with the
    same symbols as the SVG, a legend of the symbols it uses, the areas, the players and the
    viewer's hand."""
    obs = observation
    players = obs["players"]
    n = obs["field_size"]
    mode = _(MODE_WORDS[obs["mode"]]) if obs["mode"] in MODE_WORDS else obs["mode"]
    size = f"{n}×{n}"
    lines = ["[bold]Kontor[/bold] · " + _("round {round} · {mode}, {size} field",
                                          round=obs["round"], mode=mode, size=size)]
    lines += [f"[bold]{draw.plain(s)}[/bold]" for s in _wrap(_phase_line(obs, names), TEXT_WIDTH)]
    last, words = _last_move(obs, names)
    if words:
        lines += [draw.plain(s) for s in _wrap(_("Last move: {move}", move=words), TEXT_WIDTH)]
    used: set[str] = set()
    lines += _text_grid(obs, used, last)
    legend = [f"{s} {_(LEGEND[s])}" for s in LEGEND if s in used]
    lines += [draw.plain(s) for s in _wrap(_("Legend: {items}", items=_(", ").join(legend)),
                                           TEXT_WIDTH, "  ")]
    for a in obs["areas"]:
        if a["owner"] is None and a["size"] <= 1 and (
                a["closed"] or not any(map(any, a["counts"]))):
            continue  # a lone card that scores nothing, or holds no goods yet
        x, y = min((tuple(c) for c in a["cells"]), key=lambda c: (c[1], c[0]))
        cards = _n("{n} card", "{n} cards", a["size"])
        owner, lead, at = a["owner"], a.get("leader"), f"({x},{y})"
        if a["closed"]:
            state = (_("closed, won by {player}", player=_marked(owner, names))
                     if owner is not None else _("closed, won by nobody"))
        else:
            state = (_("open, {player} leads", player=_marked(lead, names))
                     if lead is not None else _("open, nobody leads"))
        line = _("Area at {cell}, {size}, {state}: {goods}", cell=at, size=cards, state=state,
                 goods=_counts_words(a["counts"], names))
        lines += [draw.plain(s) for s in _wrap(line, TEXT_WIDTH, "    ")]
    viewer = obs.get("viewer")
    width = draw.who_width(players, names, viewer)
    for p in range(players):
        who = draw.who(p, SEAT_COLOURS, names, viewer, current=obs.get("acting") == p,
                       width=width)
        score = obs["scores"][p]
        lines.append(f"{who}  " + _n("{n} point", "{n} points", int(score)))
        facts = [_n("{n} coin", "{n} coins", obs["coins"][p]),
                 _n("{n} keeper left", "{n} keepers left", obs["keepers"][p]),
                 _n("{n} area won", "{n} areas won", obs["areas_won"][p]),
                 _n("{n} card in hand", "{n} cards in hand", obs["hand_sizes"][p])]
        chits = obs["chits"][p]
        if obs["mode"] == "expansion" or any(chits.values()):
            facts.append(_("chits {counts}", counts=_goods_counts(chits)))
        rev = obs["revealed"][p]
        if rev:
            facts.append(_("plays {card}", card=art.card_words(rev)))
        elif obs.get("has_chosen") and obs["has_chosen"][p]:
            facts.append(_("has chosen"))
        lines += [draw.plain(s) for s in _wrap("    " + _(", ").join(facts), TEXT_WIDTH,
                                               "    ")]
    if obs.get("hand") is not None:
        hand = _(", ").join(_("{card} (chosen)", card=art.card_words(c))
                            if c == obs.get("my_choice") else art.card_words(c)
                            for c in obs["hand"]) or _("empty")
        lines += [draw.plain(s) for s in _wrap(_("In your hand: {cards}", cards=hand),
                                               TEXT_WIDTH, "  ")]
    if obs.get("terminal"):
        lines += [draw.plain(s) for s in _wrap(_end_words(obs, names), TEXT_WIDTH)]
    else:
        piles = []
        for k, v in obs["piles"].items():
            what = _pile_name(k, names)
            if v["top"]:
                piles.append(_("{pile} {size}, top card {card}", pile=what, size=v["size"],
                               card=art.card_words(v["top"])))
            else:
                piles.append(_("{pile} {size}", pile=what, size=v["size"]))
        lines += [draw.plain(s) for s in _wrap(_("Draw piles: {piles}", piles="; ".join(piles)),
                                               TEXT_WIDTH, "  ")]
        supply = [_("warehouses left {counts}", counts=_goods_counts(obs["supply"]))]
        if obs.get("chit_supply"):
            supply.append(_("chits left {counts}", counts=_goods_counts(obs["chit_supply"])))
        if obs.get("treasury") is not None:
            supply.append(_n("{n} coin in the treasury", "{n} coins in the treasury",
                             obs["treasury"]))
        lines += [draw.plain(s) for s in _wrap(_("Supply: {items}", items="; ".join(supply)),
                                               TEXT_WIDTH, "  ")]
    return "\n".join(lines)


KEEPER = N_("a warehouse keeper: who won the area")
"""The legend's words for a keeper on a closed area."""
LEADER = N_("who leads an open area")
"""The legend's words for a player's disc on an open area."""


def legend() -> list[dict[str, str]]:
    """Each symbol the board's picture draws, as a small picture and what it means: the cards
    that are no one's, the goods with and without a warehouse, the cranes, taverns, coin and
    ship symbols, the patrol ship and the players' pieces on the areas."""
    def card(name: str) -> str:
        return draw.icon(art.card(art.card_of_name(name), list(SEAT_COLOURS), 0, 0, 32))

    out = [{"icon": card(name), "meaning": _(LEGEND[mark])} for name, mark in (
        ("anchor", "@"), ("water-50", "~"), ("flood-88", "≈"), ("bridge-90", "="),
        ("customs-92", "#"))]
    for goods in GOODS:
        mark = goods[0]
        out.append({"icon": draw.icon([art.goods_icon(goods, 3, 3, 26)]),
                    "meaning": _(LEGEND[mark.upper()])})
        out.append({"icon": draw.icon([art.goods_icon(goods, 3, 3, 26, stored=False)]),
                    "meaning": _(LEGEND[mark])})
    out += [
        {"icon": draw.icon(art._crane(0, 4, 32, None, True)), "meaning": _(LEGEND["Γ"])},
        {"icon": draw.icon([art._tavern(0, 6, 40)]), "meaning": _(LEGEND["&"])},
        {"icon": draw.icon([art.coin(16, 16, 11)]), "meaning": _(LEGEND["$"])},
        {"icon": draw.icon([art.ship_symbol(16, 18, 24, INK)]), "meaning": _(LEGEND["^"])},
        {"icon": draw.icon([art.patrol_ship(16, 20, 28)]), "meaning": _(LEGEND["<>"])},
        {"icon": draw.icon([art.keeper(SEAT_COLOURS[0], 16, 16, 28)]), "meaning": _(KEEPER)},
        {"icon": draw.icon([art.player_disc(SEAT_COLOURS[0], 16, 16, 11)]),
         "meaning": _(LEADER)},
    ]
    return out
