"""Kontor's cards and pieces drawn in SVG: harbour, water and special cards with their number,
bar, goods and symbols; warehouses, keepers, the patrol ship and the players' symbols.

Every drawing takes its place and size in picture units, so the same art serves the field,
the hand and the player panels at any scale."""

from __future__ import annotations

from dataclasses import dataclass, field

from meeple.engine import svg as draw
from meeple.engine.i18n import words
from meeple.engine.look import INK, Colour

from .components import (
    ANCHOR,
    BAR_RANK,
    BRIDGE,
    CARD_COIN,
    CARD_COLOUR,
    CARD_GOODS,
    CARD_ID,
    CARD_KIND,
    CARD_NUMBER,
    CARD_SHIP,
    CRANE,
    CUSTOMS,
    FLOOD,
    GOODS,
    GOODS_CARD,
    TAVERN,
    WATER,
)
from .notation import GOODS_WORDS

_, _n = words(__file__)

GOODS_FILL = {"tea": "#d8b96a", "wine": "#7b3f00", "spice": "#5f8f2a"}
"""The goods' own colours (rules 2.1: tea beige, wine brown, spice green), never a player's."""
WATER_FILL = "#3f8fc4"
WAVE = "#a9d3ee"
ANCHOR_FILL = "#1f5f8b"
FLOOD_FILL = "#2b6f9f"
NEUTRAL_FILL = "#b39d74"
"""Land that belongs to nobody: bridges and customs houses."""
PLATE = "#f7efdc"
"""The light plate on a harbour card that the goods stand on."""
COIN_FILL = "#f1c40f"
COIN_EDGE = "#8a6d00"
WOOD = "#8b5a2b"
SAIL = "#fbf6ea"
MIN_FONT = 24.0
"""The smallest font in picture units: 12 CSS px on a phone (the pictures are 720 wide)."""


@dataclass(frozen=True)
class Card:
    """What a picture shows of one card: kind, number, goods and symbols, and on the field the
    warehouses stored on it and a crane's goods type."""

    kind: int
    number: int
    owner: int | None
    goods: tuple[str, ...] = ()
    coin: bool = False
    ship: bool = False
    stored: frozenset[str] = field(default_factory=frozenset)
    crane: str | None = None
    crane_active: bool = True


KINDS = {"water": WATER, "anchor": ANCHOR, "tavern": TAVERN, "goods": GOODS_CARD, "crane": CRANE,
         "flood": FLOOD, "bridge": BRIDGE, "customs": CUSTOMS}
"""The observation's word for each card kind."""


def card_of_name(name: str) -> Card:
    """A card in a hand or a pile, known by its name only (its goods drawn as printed)."""
    c = CARD_ID[name]
    owner = CARD_COLOUR[c]
    goods = tuple(GOODS[t] for t in CARD_GOODS[c])
    return Card(CARD_KIND[c], CARD_NUMBER[c], owner if owner >= 0 else None, goods,
                CARD_COIN[c], CARD_SHIP[c], frozenset(goods))


def card_of_field(d: dict[str, object]) -> Card:
    """A card lying on the field, from the observation's entry for it."""
    stored = set(d.get("stored") or ()) | set(d.get("valued") or ())  # type: ignore[call-overload]
    crane = d.get("crane")
    return Card(KINDS[str(d["kind"])], int(d["number"]),  # type: ignore[call-overload]
                d["owner"] if isinstance(d["owner"], int) else None,
                tuple(d["goods"]),  # type: ignore[arg-type]
                bool(d["coin"]), bool(d["ship"]), frozenset(stored),
                str(crane) if crane else None, bool(d.get("crane_active", True)))


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def symbol_shape(symbol: str, cx: float, cy: float, r: float, fill: str,
                 stroke: str | None = None) -> str:
    """A player's symbol (``Colour.symbol``) drawn as a shape, so it stays sharp at any size."""
    extra = {"stroke": stroke, "stroke_width": _f(r * 0.25) if stroke else None}
    if symbol == "●":
        return draw.circle(round(cx, 1), round(cy, 1), round(r * 0.85, 1), fill=fill, **extra)
    if symbol == "■":
        s = r * 0.78
        return draw.rect(round(cx - s, 1), round(cy - s, 1), round(2 * s, 1), round(2 * s, 1),
                         fill=fill, **extra)
    if symbol == "▲":
        d = f"M{_f(cx)},{_f(cy - r)}L{_f(cx + r * 0.98)},{_f(cy + r * 0.75)}" \
            f"H{_f(cx - r * 0.98)}Z"
        return draw.path(d, fill=fill, **extra)
    if symbol == "◆":
        d = f"M{_f(cx)},{_f(cy - r)}L{_f(cx + r * 0.8)},{_f(cy)}L{_f(cx)},{_f(cy + r)}" \
            f"L{_f(cx - r * 0.8)},{_f(cy)}Z"
        return draw.path(d, fill=fill, **extra)
    return draw.text(cx, cy + r * 0.4, symbol, size=max(MIN_FONT, r * 1.6), anchor="middle",
                     fill=fill)


def player_disc(colour: Colour, cx: float, cy: float, r: float, **extra: object) -> str:
    """A player's mark with the symbol as a shape: a disc in their colour."""
    return draw.group([draw.circle(round(cx, 1), round(cy, 1), round(r, 1), fill=colour.fill,
                                   stroke="#ffffff", stroke_width=_f(max(1.5, r * 0.18))),
                       symbol_shape(colour.symbol, cx, cy, r * 0.55, colour.ink)], **extra)


def goods_icon(goods: str, x: float, y: float, s: float, *, stored: bool = True) -> str:
    """One good in a box ``s`` wide at (x, y): a tea chest, a wine barrel or a spice sack;
    filled in the goods' colour as a warehouse where one is stored, else a dashed outline."""
    fill = GOODS_FILL[goods] if stored else "none"
    stroke = INK if stored else GOODS_FILL[goods]
    sw = _f(max(1.2, s * 0.08))
    dash = None if stored else _f(max(2.0, s * 0.15))
    line = "#ffffff" if goods != "tea" else INK
    if goods == "tea":  # a chest with its lid
        body = [draw.rect(round(x + s * 0.08, 1), round(y + s * 0.22, 1), round(s * 0.84, 1),
                          round(s * 0.7, 1), fill=fill, stroke=stroke, stroke_width=sw,
                          stroke_dasharray=dash, rx=_f(s * 0.08))]
        if stored:
            body.append(draw.path(f"M{_f(x + s * 0.08)},{_f(y + s * 0.44)}h{_f(s * 0.84)}",
                                  stroke=line, stroke_width=sw))
    elif goods == "wine":  # a barrel with two hoops
        body = [draw.path(f"M{_f(x + s * 0.25)},{_f(y + s * 0.1)}h{_f(s * 0.5)}"
                          f"q{_f(s * 0.22)},{_f(s * 0.4)} 0,{_f(s * 0.8)}h{_f(-s * 0.5)}"
                          f"q{_f(-s * 0.22)},{_f(-s * 0.4)} 0,{_f(-s * 0.8)}z",
                          fill=fill, stroke=stroke, stroke_width=sw, stroke_dasharray=dash)]
        if stored:
            body.append(draw.path(f"M{_f(x + s * 0.12)},{_f(y + s * 0.34)}h{_f(s * 0.76)}"
                                  f"M{_f(x + s * 0.12)},{_f(y + s * 0.66)}h{_f(s * 0.76)}",
                                  stroke=line, stroke_width=sw))
    else:  # a sack tied at the top
        body = [draw.path(f"M{_f(x + s * 0.36)},{_f(y + s * 0.12)}h{_f(s * 0.28)}"
                          f"l{_f(-s * 0.06)},{_f(s * 0.16)}"
                          f"c{_f(s * 0.4)},{_f(s * 0.1)} {_f(s * 0.42)},{_f(s * 0.62)} "
                          f"{_f(s * 0.2)},{_f(s * 0.64)}h{_f(-s * 0.6)}"
                          f"c{_f(-s * 0.22)},{_f(-s * 0.02)} {_f(-s * 0.2)},{_f(-s * 0.54)} "
                          f"{_f(s * 0.2)},{_f(-s * 0.64)}z",
                          fill=fill, stroke=stroke, stroke_width=sw, stroke_dasharray=dash)]
    return "".join(body)


def coin(cx: float, cy: float, r: float) -> str:
    """A gold coin (the coin symbol of a card, and the players' money)."""
    return (draw.circle(round(cx, 1), round(cy, 1), round(r, 1), fill=COIN_FILL, stroke=COIN_EDGE,
                        stroke_width=_f(max(1.2, r * 0.2)))
            + draw.circle(round(cx, 1), round(cy, 1), round(r * 0.55, 1), stroke=COIN_EDGE,
                          stroke_width=_f(max(0.8, r * 0.1))))


def ship_symbol(cx: float, cy: float, s: float, fill: str) -> str:
    """The ship symbol printed on a card: a small sailing boat ``s`` wide."""
    h = s * 0.5
    return draw.path(
        f"M{_f(cx - h)},{_f(cy + s * 0.12)}h{_f(s)}l{_f(-s * 0.18)},{_f(s * 0.26)}"
        f"h{_f(-s * 0.64)}z"
        f"M{_f(cx - s * 0.02)},{_f(cy - s * 0.5)}v{_f(s * 0.56)}h{_f(-s * 0.4)}z"
        f"M{_f(cx + s * 0.06)},{_f(cy - s * 0.42)}v{_f(s * 0.48)}h{_f(s * 0.34)}z",
        fill=fill)


def patrol_ship(cx: float, cy: float, s: float) -> str:
    """The patrol ship piece, ``s`` wide: a wooden hull with a mast and a sail."""
    sw = _f(max(1.5, s * 0.04))
    return draw.group([
        draw.path(f"M{_f(cx - s * 0.5)},{_f(cy + s * 0.08)}h{_f(s)}"
                  f"l{_f(-s * 0.16)},{_f(s * 0.28)}h{_f(-s * 0.68)}z",
                  fill=WOOD, stroke=INK, stroke_width=sw),
        draw.path(f"M{_f(cx)},{_f(cy + s * 0.08)}V{_f(cy - s * 0.6)}", stroke=INK,
                  stroke_width=sw),
        draw.path(f"M{_f(cx + s * 0.04)},{_f(cy - s * 0.56)}q{_f(s * 0.46)},{_f(s * 0.3)} "
                  f"{_f(s * 0.34)},{_f(s * 0.56)}h{_f(-s * 0.34)}z",
                  fill=SAIL, stroke=INK, stroke_width=sw),
        draw.path(f"M{_f(cx - s * 0.04)},{_f(cy - s * 0.44)}q{_f(-s * 0.3)},{_f(s * 0.24)} "
                  f"{_f(-s * 0.26)},{_f(s * 0.44)}h{_f(s * 0.26)}z",
                  fill=SAIL, stroke=INK, stroke_width=sw),
        draw.title(_("the patrol ship")),
    ], class_="ship", pointer_events="none")


def keeper(colour: Colour, cx: float, cy: float, h: float, **extra: object) -> str:
    """A warehouse keeper, ``h`` tall, in the player's colour with their symbol on it."""
    r = h * 0.2
    body = (f"M{_f(cx - h * 0.34)},{_f(cy + h * 0.5)}h{_f(h * 0.68)}"
            f"l{_f(-h * 0.12)},{_f(-h * 0.5)}q{_f(-h * 0.22)},{_f(-h * 0.12)} "
            f"{_f(-h * 0.44)},0z")
    return draw.group([
        draw.path(body, fill=colour.fill, stroke="#ffffff", stroke_width=_f(max(1.5, h * 0.05))),
        draw.circle(round(cx, 1), round(cy - h * 0.22, 1), round(r, 1), fill=colour.fill,
                    stroke="#ffffff", stroke_width=_f(max(1.5, h * 0.05))),
        symbol_shape(colour.symbol, cx, cy + h * 0.26, h * 0.14, colour.ink),
    ], **extra)


def _waves(x: float, y: float, w: float, h: float, rows: int, width: float) -> str:
    d = []
    for k in range(rows):
        yy = y + h * (k + 1) / (rows + 1)
        step = w / 4
        d.append(f"M{_f(x)},{_f(yy)}" + "".join(
            f"q{_f(step / 2)},{_f(-h * 0.07)} {_f(step)},0" if i % 2 == 0 else
            f"q{_f(step / 2)},{_f(h * 0.07)} {_f(step)},0" for i in range(4)))
    return draw.path("".join(d), stroke=WAVE, stroke_width=_f(width), stroke_linecap="round")


def _anchor(cx: float, cy: float, s: float) -> str:
    sw = _f(s * 0.08)
    return draw.path(
        f"M{_f(cx)},{_f(cy - s * 0.32)}V{_f(cy + s * 0.4)}"
        f"M{_f(cx - s * 0.2)},{_f(cy - s * 0.16)}h{_f(s * 0.4)}"
        f"M{_f(cx - s * 0.36)},{_f(cy + s * 0.12)}q0,{_f(s * 0.28)} {_f(s * 0.36)},{_f(s * 0.28)}"
        f"q{_f(s * 0.36)},0 {_f(s * 0.36)},{_f(-s * 0.28)}",
        stroke="#ffffff", stroke_width=sw, stroke_linecap="round") + draw.circle(
        round(cx, 1), round(cy - s * 0.4, 1), round(s * 0.08, 1), stroke="#ffffff",
        stroke_width=sw)


def _crane(x: float, y: float, s: float, goods: str | None, active: bool) -> list[str]:
    """A crane on the plate (``s`` wide), its named goods hanging from the hook."""
    sw = _f(max(1.5, s * 0.05))
    out = [draw.path(f"M{_f(x + s * 0.2)},{_f(y + s * 0.34)}V{_f(y)}H{_f(x + s * 0.8)}"
                     f"M{_f(x + s * 0.2)},{_f(y + s * 0.14)}L{_f(x + s * 0.36)},{_f(y)}"
                     f"M{_f(x + s * 0.7)},{_f(y)}v{_f(s * 0.06)}"
                     f"M{_f(x + s * 0.06)},{_f(y + s * 0.34)}h{_f(s * 0.3)}",
                     stroke=INK, stroke_width=sw, stroke_linecap="round")]
    if goods:
        g = s * 0.28
        out.append(goods_icon(goods, x + s * 0.7 - g / 2, y + s * 0.06, g, stored=active))
    return out


def _tavern(x: float, y: float, s: float) -> str:
    """A tankard on the plate: the tavern."""
    sw = _f(max(1.5, s * 0.05))
    return draw.path(f"M{_f(x + s * 0.36)},{_f(y + s * 0.04)}h{_f(s * 0.24)}v{_f(s * 0.3)}"
                     f"h{_f(-s * 0.24)}z", fill="#e0a526", stroke=INK, stroke_width=sw) + \
        draw.path(f"M{_f(x + s * 0.6)},{_f(y + s * 0.1)}h{_f(s * 0.08)}v{_f(s * 0.16)}"
                  f"h{_f(-s * 0.08)}", stroke=INK, stroke_width=sw) + \
        draw.path(f"M{_f(x + s * 0.34)},{_f(y + s * 0.06)}q{_f(s * 0.14)},{_f(-s * 0.1)} "
                  f"{_f(s * 0.28)},0", fill="#ffffff", stroke=INK, stroke_width=sw)


def _bridge(x: float, y: float, s: float) -> str:
    sw = _f(max(2.0, s * 0.06))
    return draw.path(f"M{_f(x + s * 0.12)},{_f(y + s * 0.72)}q{_f(s * 0.38)},{_f(-s * 0.42)} "
                     f"{_f(s * 0.76)},0M{_f(x + s * 0.1)},{_f(y + s * 0.5)}h{_f(s * 0.8)}",
                     stroke="#4a3a22", stroke_width=sw, stroke_linecap="round")


def _customs(x: float, y: float, s: float) -> str:
    sw = _f(max(1.5, s * 0.04))
    return draw.path(f"M{_f(x + s * 0.28)},{_f(y + s * 0.86)}v{_f(-s * 0.28)}"
                     f"l{_f(s * 0.22)},{_f(-s * 0.16)}l{_f(s * 0.22)},{_f(s * 0.16)}"
                     f"v{_f(s * 0.28)}z", fill="#efe3c8", stroke="#4a3a22", stroke_width=sw) + \
        draw.path(f"M{_f(x + s * 0.1)},{_f(y + s * 0.9)}h{_f(s * 0.8)}", stroke="#4a3a22",
                  stroke_width=sw)


def card(c: Card, colours: tuple[Colour, ...] | list[Colour], x: float, y: float, s: float,
         *, slot_cls: str = "slot") -> list[str]:
    """A whole card ``s`` wide at (x, y): its face, number, bar, symbols and goods, and a
    frame (``slot_cls``) drawn on top for the client's marks and the last move."""
    pad = s * 0.035
    cx0, cy0, w = x + pad, y + pad, s - 2 * pad
    colour = colours[c.owner] if c.owner is not None else None
    if c.kind in (WATER, ANCHOR, FLOOD):
        fill = {WATER: WATER_FILL, ANCHOR: ANCHOR_FILL, FLOOD: FLOOD_FILL}[c.kind]
        ink = "#ffffff"
    elif colour is not None:
        fill, ink = colour.fill, colour.ink
    else:
        fill, ink = NEUTRAL_FILL, INK
    out = [draw.rect(round(cx0, 1), round(cy0, 1), round(w, 1), round(w, 1), fill=fill,
                     rx=_f(s * 0.08), class_="card")]
    font = max(MIN_FONT, s * 0.27)
    if c.kind == WATER:
        out.append(_waves(cx0 + w * 0.08, cy0 + w * 0.38, w * 0.84, w * 0.6, 2, max(2.0, s * 0.04)))
    elif c.kind == FLOOD:
        out.append(_waves(cx0 + w * 0.08, cy0 + w * 0.3, w * 0.84, w * 0.7, 3, max(3.0, s * 0.06)))
    elif c.kind == ANCHOR:
        out.append(_anchor(x + s / 2, y + s / 2, s * 0.8))
    elif c.kind == BRIDGE:
        out.append(_bridge(cx0, cy0 + w * 0.1, w))
    elif c.kind == CUSTOMS:
        out.append(_customs(cx0, cy0, w))
    if c.kind != ANCHOR:
        num = str(c.number)
        tx, ty = cx0 + w * 0.07, cy0 + font * 1.02
        out.append(draw.text(round(tx, 1), round(ty, 1), num, size=round(font, 1),
                             weight="bold", fill=ink, class_="number"))
        nw = font * 0.6 * len(num)
        if colour is not None and BAR_RANK[c.owner or 0] != 1:  # green: bar above, purple below
            by = ty - font * 0.92 if BAR_RANK[c.owner or 0] == 2 else ty + font * 0.12
            out.append(draw.rect(round(tx, 1), round(by, 1), round(nw, 1),
                                 round(max(2.0, font * 0.1), 1), fill=ink, class_="bar"))
        if colour is not None:
            r = font * 0.3
            out.append(symbol_shape(colour.symbol, tx + nw + r * 1.5, ty - font * 0.34, r, ink))
    if c.coin:
        out.append(coin(cx0 + w * 0.82, cy0 + w * 0.18, w * 0.12))
    elif c.ship:
        out.append(ship_symbol(cx0 + w * 0.8, cy0 + w * 0.2, w * 0.3, ink))
    if c.kind in (TAVERN, GOODS_CARD, CRANE):
        py = cy0 + w * 0.55
        out.append(draw.rect(round(cx0 + w * 0.05, 1), round(py, 1), round(w * 0.9, 1),
                             round(w * 0.4, 1), fill=PLATE, rx=_f(s * 0.05)))
        if c.kind == CRANE:
            out += _crane(cx0 + w * 0.06, py + w * 0.02, w * 0.88, c.crane, c.crane_active)
        elif c.kind == TAVERN:
            out.append(_tavern(cx0 + w * 0.06, py + w * 0.01, w * 0.88))
        else:
            g = w * 0.3
            left = x + s / 2 - g * len(c.goods) / 2
            for k, goods in enumerate(c.goods):
                out.append(goods_icon(goods, left + k * g, py + w * 0.04, g,
                                      stored=goods in c.stored))
    out.append(draw.rect(round(cx0, 1), round(cy0, 1), round(w, 1), round(w, 1),
                         rx=_f(s * 0.08), class_=slot_cls))
    return out


def card_words(name: str) -> str:
    """A card as a player names it: "35 (spice, coin)", "water 48 (coin)", "flood 88"."""
    c = card_of_name(name)
    if c.kind == ANCHOR:
        return _("the anchor")
    parts: list[str] = []
    if c.kind == GOODS_CARD:
        goods = [_(GOODS_WORDS[GOODS.index(g)]) for g in c.goods]
        parts.append(goods[0] if len(goods) == 1 else
                     _("{first} and {last}", first=_(", ").join(goods[:-1]), last=goods[-1]))
    elif c.kind == CRANE:
        parts.append(_("crane"))
    elif c.kind == TAVERN:
        parts.append(_("tavern"))
    if c.coin:
        parts.append(_("coin"))
    if c.ship:
        parts.append(_("ship"))
    number = str(c.number)
    if c.kind == WATER:
        head = _("water {number}", number=number)
    elif c.kind == FLOOD:
        head = _("flood {number}", number=number)
    elif c.kind == BRIDGE:
        head = _("bridge {number}", number=number)
    elif c.kind == CUSTOMS:
        head = _("customs house {number}", number=number)
    else:
        head = number
    return _("{card} ({things})", card=head, things=_(", ").join(parts)) if parts else head
