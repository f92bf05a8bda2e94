"""Pictures of a Kontor observation: an SVG for the browser and rich text for the terminal.

Both draw only from the observation dict, with the engine's SVG toolkit and palette; each
player is drawn in the colour of their cards (``Kontor.colours``). Cell elements carry ids
``cell-<row>-<col>`` (the padded grid of the observation's ``grid``) and hand cards
``hand-<card>``, matching the ``target`` of ``describe_action``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from meeple.engine import svg as draw
from meeple.engine.look import INK, Colour, seat_name

from .components import COLOURS, GOODS, SEAT_COLOURS

GOODS_FILL = {"tea": "#ead9a8", "wine": "#7b3f00", "spice": "#6b8e23"}
"""The goods' own colours (not the players')."""
GOODS_INK = {"tea": INK, "wine": "#ffffff", "spice": "#ffffff"}
GOODS_LETTER = {"tea": "T", "wine": "W", "spice": "S"}
SEA = "#d9e8f0"
WATER_FILL = "#3f8fc4"
ANCHOR_FILL = "#1f5f8b"
NEUTRAL_FILL = "#9a8f7a"
"""Land that belongs to no player: bridges and customs houses."""
EMPTY_FILL = "#eef4f7"
OUTSIDE_FILL = "#c7d7e0"
OPEN_AREA = "#ffd84d"
CELL = 58
PANEL_W = 285
PANEL_H = 100
PANELS_Y = 70
MODE_WORDS = {"basic": "basic game", "advanced": "advanced game", "expansion": "expansion"}
END_WORDS = {"end E1": "the game ends: the field is complete",
             "end E2": "the game ends at the start of the round"}
_COLOUR_WORD = re.compile(r"\b(" + "|".join(COLOURS) + r")\b(?!-)")


def _cell_id(obs: dict[str, Any], x: int, y: int) -> str:
    pad = obs["grid"]["pad"]
    return f"cell-{y + pad}-{x + pad}"


def _outside(obs: dict[str, Any], x: int, y: int) -> bool:
    n = obs["field_size"]
    minx, maxx, miny, maxy = obs["frame"]
    return max(maxx, x) - min(minx, x) + 1 > n or max(maxy, y) - min(miny, y) + 1 > n


def _card_colour(card: str) -> Colour | None:
    """The player colour of a harbour card by its name (``red-15``), else ``None``."""
    word = card.split("-")[0]
    return SEAT_COLOURS[COLOURS.index(word)] if word in COLOURS else None


def _named(line: str, names: Sequence[str] | None) -> str:
    """A log line with each player's colour word (not a card's) replaced by their name."""
    return _COLOUR_WORD.sub(lambda m: seat_name(COLOURS.index(m.group(1)), names), line)


def _log_line(line: str, names: Sequence[str] | None) -> str:
    """A log line for people: players by name, the end of the game in words."""
    return END_WORDS.get(line) or _named(line, names)


def _end_reason(obs: dict[str, Any], names: Sequence[str] | None) -> str:
    """Why the game ended, in words (rules 6.1)."""
    if obs.get("ended") == "E1":
        return "the field is complete"
    for line in reversed(obs["log"]):
        if line.endswith("has only water cards left"):
            return _named(line, names)
    return "the last round has been played"


def _scoring_words(obs: dict[str, Any]) -> str:
    """Which closed areas scored (rules 6.2), in words."""
    rule = obs["final_scoring"]["scored_areas"]
    if rule == "all":
        return "every closed area scores"
    return f"the {rule.removeprefix('largest_')} largest closed areas score (ties included)"


def _phase_line(obs: dict[str, Any], names: Sequence[str] | None) -> str:
    """Who does what now, in words."""
    if obs.get("terminal"):
        return draw.game_over(obs.get("winners"), names)
    if obs["phase"] == "choose":
        waiting = [seat_name(p, names) for p in obs.get("pending", [])]
        return "Everyone chooses a card" + (f" (waiting for {', '.join(waiting)})"
                                             if waiting else "")
    if obs.get("acting") is not None and obs.get("step"):
        who = seat_name(obs["acting"], names)
        what = {"place": f"places {obs['acting_card']}", "ship": "may move the ship",
                "buy": "may buy a special card", "remove": "may remove a card"}[obs["step"]]
        return f"{who} {what}"
    return {"draw": "Cards are drawn", "round start": "A new round starts"}.get(
        obs["phase"], obs["phase"])


def _chits_words(chits: dict[str, int]) -> str:
    return ", ".join(f"{g} {chits[g]}" for g in GOODS)


def _tile(c: dict[str, Any], colours: Sequence[Colour], X: int, Y: int) -> list[str]:
    """The marks on a card of the field: number, symbols, goods, crane or tavern."""
    owner = c["owner"]
    colour = colours[owner] if owner is not None else None
    ink = colour.ink if colour is not None else "#ffffff"
    out = []
    label = "⚓" if c["id"] == "anchor" else str(c["number"])
    if c["kind"] in ("flood", "bridge", "customs"):
        label = c["kind"][0].upper() + str(c["number"])
    if colour is not None:
        label += " " + colour.symbol
    out.append(draw.text(X + 5, Y + 15, label, size=12, fill=ink, pointer_events="none"))
    if c["coin"]:
        out.append(draw.group([draw.circle(X + CELL - 11, Y + 11, 6, fill="#f1c40f",
                                           stroke="#8a6d00", stroke_width="1.5"),
                               draw.title("coin")],
                           class_="coin-symbol", pointer_events="none"))
    if c["ship"]:
        sx0 = X + CELL - 18
        out.append(draw.path(f"M{sx0},{Y + 15} h14 l-3,4 h-8 z M{X + CELL - 11},{Y + 4} v11 "
                          f"M{X + CELL - 11},{Y + 5} l6,8 h-6 z", fill=ink, stroke=ink,
                          stroke_width="1", class_="ship-symbol", pointer_events="none"))
    if c["kind"] == "goods":
        for k, g in enumerate(c["goods"]):
            gx = X + 6 + k * 16
            filled = g in c["stored"] or g in c.get("valued", ())
            box = [draw.rect(gx, Y + CELL - 20, 13, 13, fill=GOODS_FILL[g] if filled else "none",
                          stroke=ink if filled else GOODS_FILL[g], stroke_width="1.5",
                          stroke_dasharray=None if filled else "2 2"),
                   draw.title(g if filled else f"{g}: none stored")]
            if filled:
                box.append(draw.text(gx + 6.5, Y + CELL - 10, GOODS_LETTER[g], size=9,
                                  anchor="middle", fill=GOODS_INK[g]))
            out.append(draw.group(box, class_=f"warehouse {g}" + ("" if filled else " lost"),
                               pointer_events="none"))
    elif c["kind"] == "crane":
        g = c.get("crane", "")
        active = c.get("crane_active", True)
        label = f"crane {GOODS_LETTER[g]}{'' if active else '×'}" if g else "crane"
        out.append(draw.group([draw.text(X + 5, Y + CELL - 9, label, size=11, fill=ink),
                            draw.title(f"crane counting as {g}" + ("" if active else
                                                                ", not counting") if g
                                    else "crane")],
                           pointer_events="none"))
    elif c["kind"] == "tavern":
        out.append(draw.text(X + 5, Y + CELL - 9, "tavern", size=11, fill=ink,
                          pointer_events="none"))
    return out


def _board(obs: dict[str, Any], colours: Sequence[Colour],
           names: Sequence[str] | None) -> list[str]:
    """The field: cells, cards, area outlines with their keepers, and the ship."""
    lo, hi = obs["grid"]["min"], obs["grid"]["max"]
    span = hi - lo + 1
    cards = {tuple(c["cell"]): c for c in obs["field"]}
    legal = {tuple(c) for c in obs.get("legal_cells", [])}
    out = [draw.rect(0, 0, span * CELL, span * CELL, fill=SEA)]

    def px(x: int, y: int) -> tuple[int, int]:
        return (x - lo) * CELL, (y - lo) * CELL

    for y in range(lo, hi + 1):
        for x in range(lo, hi + 1):
            X, Y = px(x, y)
            c = cards.get((x, y))
            cls = ["cell"]
            if c is None:
                outside = _outside(obs, x, y)
                cls.append("outside" if outside else "empty")
                if (x, y) in legal:
                    cls.append("legal")
                fill = OUTSIDE_FILL if outside else EMPTY_FILL
            elif c["water"]:
                cls.append("water")
                fill = ANCHOR_FILL if c["id"] == "anchor" else WATER_FILL
            else:
                cls.append("land")
                fill = colours[c["owner"]].fill if c["owner"] is not None else NEUTRAL_FILL
            a = draw.attrs(id=_cell_id(obs, x, y), class_=" ".join(cls), x=X + 1, y=Y + 1,
                        width=CELL - 2, height=CELL - 2, rx=4, fill=fill, stroke="#ffffff",
                        stroke_width=1)
            out.append(f"<rect{a}>{draw.title(f'({x},{y})')}</rect>")
            if c is not None:
                out += _tile(c, colours, X, Y)
    for a in obs["areas"]:
        cells = {tuple(c) for c in a["cells"]}
        owner = a["owner"]
        stroke = colours[owner].fill if owner is not None else (
            "#555555" if a["closed"] else OPEN_AREA)
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
        out.append(draw.path("".join(segs), stroke=stroke, stroke_width=4,
                          stroke_dasharray=None if a["closed"] else "5,3",
                          class_="area closed" if a["closed"] else "area open",
                          pointer_events="none"))
        if a["closed"] and owner is not None:
            x, y = min(cells, key=lambda c: (c[1], c[0]))
            X, Y = px(x, y)
            cx, cy = X + CELL - 11, Y + 31
            out.append(draw.group(
                [draw.circle(cx, cy, 9, fill="#ffffff"),
                 draw.player_mark(colours[owner], cx, cy, 7),
                 draw.title(f"keeper of {seat_name(owner, names)}")],
                class_="keeper", pointer_events="none"))
    if obs.get("ship"):
        x, y = obs["ship"]
        X, Y = px(x, y)
        out.append(draw.path(f"M{X + 12},{Y + 34} h34 l-6,10 h-22 z M{X + 28},{Y + 14} v20 "
                          f"M{X + 28},{Y + 16} l12,14 h-12 z", fill="#f4e1c1", stroke="#3b2a1a",
                          stroke_width=2, class_="ship", pointer_events="none"))
    return out


def _panel(obs: dict[str, Any], p: int, colours: Sequence[Colour],
           names: Sequence[str] | None, sx: float, Y: float) -> list[str]:
    """One player's box: name, coins, keepers, areas won, hand, score, chits, choice."""
    out = [draw.rect(sx, Y, PANEL_W - 15, PANEL_H, fill="#ffffff", stroke=colours[p].fill,
                     stroke_width=3, rx=6, class_="player-panel"),
           draw.player_line(p, colours, names, sx + 8, Y + 20, PANEL_W - 31, obs["scores"][p],
                            viewer=obs.get("viewer"), current=obs.get("acting") == p)]
    lines = [
        f"coins {obs['coins'][p]} · keepers {obs['keepers'][p]} · areas {obs['areas_won'][p]}",
        f"hand {obs['hand_sizes'][p]}",
        "chits: " + _chits_words(obs["chits"][p]),
    ]
    rev = obs["revealed"][p]
    if rev:
        lines.append(f"revealed {rev}")
    elif obs.get("has_chosen") and obs["has_chosen"][p]:
        lines.append("has chosen")
    for k, line in enumerate(lines):
        out.append(draw.text(sx + 8, Y + 38 + 16 * k, line, size=11))
    return out


def svg(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The harbour as a standalone SVG: field, areas with owners, warehouses, ship, the
    players with their points and the hand (the clients draw the results table)."""
    obs = observation
    colours = SEAT_COLOURS
    span = obs["grid"]["max"] - obs["grid"]["min"] + 1
    board = span * CELL
    players = obs["players"]
    top = max(board, PANELS_Y + (PANEL_H + 10) * players)
    body = _board(obs, colours, names)
    sx = board + 15
    mode = MODE_WORDS.get(obs["mode"], obs["mode"])
    n = obs["field_size"]
    head, _ = draw.header(sx, 0, f"Kontor · round {obs['round']}", _phase_line(obs, names),
                          f"{mode[:1].upper()}{mode[1:]}, a {n}×{n} field")
    body.append(head)
    for p in range(players):
        body += _panel(obs, p, colours, names, sx, PANELS_Y + (PANEL_H + 10) * p)
    hand = obs.get("hand") or []
    hy = top + 10
    body.append(draw.text(8, hy + 32, "Your hand", size=12))
    for k, name in enumerate(hand):
        X = 80 + k * 74
        colour = _card_colour(name)
        fill = colour.fill if colour is not None else (
            WATER_FILL if name.startswith("water") else NEUTRAL_FILL)
        label = name + (" " + colour.symbol if colour is not None else "")
        body.append(draw.rect(X, hy, 68, 56, fill=fill, id=f"hand-{name}", class_="hand-card",
                           rx=5, stroke="#ffffff"))
        body.append(draw.text(X + 34, hy + 32, label, size=11, anchor="middle",
                           fill=colour.ink if colour is not None else "#ffffff",
                           pointer_events="none"))
    width = float(board + PANEL_W + 10)
    height = float(hy + 66)
    if obs.get("terminal"):  # why the game ended and which areas scored, in words
        why = _end_reason(obs, names)
        body.append(draw.text(8, height + 4, f"{why[:1].upper()}{why[1:]}; "
                              f"{_scoring_words(obs)}.", size=12, class_="end-reason"))
        height += 20
    return draw.document(width, height, body, cls="kontor", label="Kontor harbour")


def _mark(colour: Colour, content: str) -> str:
    """Rich markup: ``content`` in the player's ink on the player's colour."""
    return f"[{colour.ink} on {colour.fill}]{content}[/]"


def text(observation: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The harbour for the terminal: a grid of cells (rich markup), then areas and players."""
    obs = observation
    players = obs["players"]
    cards = {tuple(c["cell"]): c for c in obs["field"]}
    legal = {tuple(c) for c in obs.get("legal_cells", [])}
    minx, maxx, miny, maxy = obs["frame"]
    n = obs["field_size"]
    xs = range(max(maxx - n + 1, obs["grid"]["min"]), min(minx + n - 1, obs["grid"]["max"]) + 1)
    ys = range(max(maxy - n + 1, obs["grid"]["min"]), min(miny + n - 1, obs["grid"]["max"]) + 1)
    ship = tuple(obs["ship"]) if obs.get("ship") else None
    mode = MODE_WORDS.get(obs["mode"], obs["mode"])
    lines = [f"[bold]Kontor[/bold] ({mode}, {n}×{n}) round {obs['round']}: "
             f"{draw.plain(_phase_line(obs, names))}"]
    lines.append("      " + "".join(f"{x:^7}" for x in xs))
    for y in ys:
        row = [f"{y:>4}  "]
        for x in xs:
            c = cards.get((x, y))
            mark = "⛵" if ship == (x, y) else " "
            if c is None:
                row.append("  ·    " if (x, y) in legal else "[dim]       [/dim]")
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
                col = COLOURS[owner]
                g = "".join(GOODS_LETTER[t] for t in c["stored"]).lower()
                if c["kind"] == "crane":
                    g = "c" + GOODS_LETTER.get(c.get("crane", ""), "").lower()
                elif c["kind"] == "tavern":
                    g = "inn"
                tok = f"{col[0]}{c['number']}{mark.strip()}{g}"
                row.append(_mark(SEAT_COLOURS[owner], f"{tok:<7}"))
        lines.append("".join(row))
    lines.append("legend: ~ water, @ anchor, r/b/g/p card colour and number, t/w/s stored "
                 "tea/wine/spice, cX crane, inn tavern, · free cell, ⛵ ship")
    for a in obs["areas"]:
        if a["closed"] and a["owner"] is None and a["size"] <= 1:
            continue
        counts = "; ".join(
            draw.plain(seat_name(p, names)) + " "
            + ", ".join(f"{g} {v}" for g, v in zip(GOODS, cnt, strict=True) if v)
            for p, cnt in enumerate(a["counts"]) if any(cnt))
        first = a["cells"][0]
        state = ("closed, won by " + (draw.plain(seat_name(a["owner"], names))
                                      if a["owner"] is not None else "nobody")
                 if a["closed"] else "open")
        lines.append(f"area at ({first[0]},{first[1]}), size {a['size']}, {state}: "
                     f"{counts or 'no goods'}")
    viewer = obs.get("viewer")
    width = draw.who_width(players, names, viewer)
    for p in range(players):
        rev = obs["revealed"][p]
        who = draw.who(p, SEAT_COLOURS, names, viewer, current=obs.get("acting") == p,
                       width=width)
        lines.append(
            f"{who}  coins {obs['coins'][p]}, keepers "
            f"{obs['keepers'][p]}, areas {obs['areas_won'][p]}, hand {obs['hand_sizes'][p]}, "
            f"chits {_chits_words(obs['chits'][p])}" + (f", revealed {rev}" if rev else ""))
    if obs.get("hand") is not None:
        lines.append("your hand: " + ", ".join(obs["hand"]))
    piles = []
    for k, v in obs["piles"].items():
        what = f"{seat_name(COLOURS.index(k), names)}'s pile" if k in COLOURS else f"{k} pile"
        piles.append(draw.plain(what) + f" {v['size']}"
                     + (f" (top {v['top']})" if v["top"] else ""))
    lines.append("piles: " + ", ".join(piles))
    for entry in obs["log"][-6:]:
        lines.append(f"[dim]{draw.plain(_log_line(entry, names))}[/dim]")
    if obs.get("terminal"):
        why = _end_reason(obs, names)
        lines.append(draw.plain(f"{why[:1].upper()}{why[1:]}; {_scoring_words(obs)}."))
    return "\n".join(lines)
