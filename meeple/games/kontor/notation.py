"""Kontor's notation (rules 4.8): actions as text and as dicts, both ways, and the labels of
``describe_action``. Plain functions of the state; the State's hooks call them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from meeple.engine import CHANCE, NotationError
from meeple.engine.words import place_from

from .components import (
    ANCHOR,
    ANCHOR_ID,
    BRIDGE,
    CARD_COIN,
    CARD_COLOUR,
    CARD_GOODS,
    CARD_ID,
    CARD_KIND,
    CARD_NAME,
    CARD_NUMBER,
    CARD_SHIP,
    COLOURS,
    CRANE,
    CUSTOMS,
    FLOOD,
    GOODS,
    GOODS_CARD,
    NV,
    P_CHOOSE,
    S_BUY,
    S_REMOVE,
    S_SHIP,
    T_CROSS,
    T_HAND,
    T_TOP,
    TAVERN,
    WATER,
)

if TYPE_CHECKING:
    from .rules import KontorState

_CELL = r"\(\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)"
_RE_PLACE = re.compile(
    r"place\s*(?:([a-z]+\s*-\s*\d+)\s*)?" + _CELL
    + r"\s*(?:(crane|export)\s*=\s*(tea|wine|spice))?")
_RE_CELL = re.compile(r"(ship|remove)\s*" + _CELL)
_RE_CARD = re.compile(r"(?:choose\s+)?([a-z]+)\s*-\s*(\d+)")
FORMS = ("choose red-15 | place red-15 (2,-1) [crane=wine | export=tea] | ship (-1,0) | "
         "buy | remove (-1,-1) | skip")
"""The text forms of every action, for error messages."""

DICT_FORMS = ('{"type": "choose", "card": "red-15"} | {"type": "place", "card": "red-15", '
              '"cell": [2, -1]} (+ "crane": "wine" or "export": "tea") | '
              '{"type": "ship", "cell": [-1, 0]} | {"type": "buy"} | '
              '{"type": "remove", "cell": [-1, -1]} | {"type": "skip"}')
"""The dict forms (rules 4.8); chance outcomes (10.2) are ``{"type": "deal"|"draw"|"turn",
"card": ...}``."""
_CHANCE_TYPES = {T_CROSS: "deal", T_HAND: "draw", T_TOP: "turn"}


def action_to_string(state: KontorState, action: int, player: int) -> str:
    """An action in the rules' notation, e.g. ``place red-15 (2,-1) crane=wine``."""
    g = state.game
    if player == CHANCE:
        return CARD_NAME[action]
    if action < g.PLACE:
        return f"choose {CARD_NAME[action]}"
    if action < g.SHIP:
        i, v = divmod(action - g.PLACE, NV)
        card = CARD_NAME[state.card] + " " if state.card >= 0 else ""
        text = f"place {card}{g.xy_text(i)}"
        if v:
            text += f" {'crane' if v < 4 else 'export'}={GOODS[(v - 1) % 3]}"
        return text
    if action < g.REMOVE:
        return f"ship {g.xy_text(action - g.SHIP)}"
    if action < g.BUY:
        return f"remove {g.xy_text(action - g.REMOVE)}"
    return "buy" if action == g.BUY else "skip"


def _cell_of(state: KontorState, xs: str, ys: str) -> int:
    x, y = int(xs), int(ys)
    if not state.game.on_grid(x, y):
        o = state.game.O
        raise NotationError(f"cell ({x},{y}) is off the field: x and y go from {-o} to {o}")
    return state.game.idx(x, y)


def string_to_action(state: KontorState, text: str, player: int) -> int:
    """Read the notation (case and spaces are free; a leading ``red:`` is allowed)."""
    g = state.game
    t = text.strip().lower()
    m = re.match(r"^[a-z]+\s*:\s*", t)
    if m and not t.startswith(("place", "ship", "remove", "choose")):
        t = t[m.end():]
    if player == CHANCE:
        m = _RE_CARD.fullmatch(t.replace("draw ", "").replace("deal ", "").strip())
        if m:
            name = f"{m.group(1)}-{int(m.group(2))}"
            if name in CARD_ID:
                return CARD_ID[name]
        if t == "anchor":
            return ANCHOR_ID
        raise NotationError(f"{text!r}: a chance outcome is a card, e.g. 'water-63'")
    if t == "buy":
        return g.BUY
    if t in ("skip", "pass"):
        return g.SKIP
    if t.startswith("choose") or (state.phase == P_CHOOSE and _RE_CARD.fullmatch(t)):
        m = _RE_CARD.fullmatch(t)
        if m:
            name = f"{m.group(1)}-{int(m.group(2))}"
            if name in CARD_ID and name != "anchor":
                return CARD_ID[name]
        raise NotationError(f"{text!r}: expected 'choose <card>', e.g. 'choose red-15'")
    m = _RE_PLACE.fullmatch(t)
    if m:
        if m.group(1):
            name = re.sub(r"\s+", "", m.group(1))
            if name not in CARD_ID:
                raise NotationError(f"{text!r}: no card named {name!r}")
            if state.card >= 0 and CARD_ID[name] != state.card:
                raise NotationError(
                    f"{text!r}: the card being played is {CARD_NAME[state.card]}, not {name}")
        i = _cell_of(state, m.group(2), m.group(3))
        v = 0
        if m.group(4):
            v = GOODS.index(m.group(5)) + (1 if m.group(4) == "crane" else 4)
        return g.PLACE + i * NV + v
    m = _RE_CELL.fullmatch(t)
    if m:
        i = _cell_of(state, m.group(2), m.group(3))
        return (g.SHIP if m.group(1) == "ship" else g.REMOVE) + i
    raise NotationError(f"{text!r} is not a Kontor move; expected one of: {FORMS}")


def chance_type(state: KontorState) -> str:
    """The dict type of the chance node now: a card dealt to the cross, drawn into a hand
    (also a bought special card) or turned up as a pile's visible top."""
    return _CHANCE_TYPES[state.tasks[0][0]] if state.tasks else "draw"


def action_to_dict(state: KontorState, action: int, player: int) -> dict[str, Any]:
    """The dict form of an action (rules 4.8), e.g. ``{"type": "ship", "cell": [-1, 0]}``."""
    g = state.game
    if player == CHANCE:
        return {"type": chance_type(state), "card": CARD_NAME[action]}
    if action < g.PLACE:
        return {"type": "choose", "card": CARD_NAME[action]}
    if action < g.SHIP:
        i, v = divmod(action - g.PLACE, NV)
        out: dict[str, Any] = {"type": "place"}
        if state.card >= 0:
            out["card"] = CARD_NAME[state.card]
        out["cell"] = list(g.xy(i))
        if v:
            out["crane" if v < 4 else "export"] = GOODS[(v - 1) % 3]
        return out
    if action < g.REMOVE:
        return {"type": "ship", "cell": list(g.xy(action - g.SHIP))}
    if action < g.BUY:
        return {"type": "remove", "cell": list(g.xy(action - g.REMOVE))}
    return {"type": "buy" if action == g.BUY else "skip"}


def dict_to_action(state: KontorState, move: dict[str, Any], player: int) -> int:
    """Read the dict form (rules 4.8) through the text parser; :class:`NotationError`
    names the expected form for anything malformed."""

    def bad(why: str, form: str | None = None) -> NotationError:
        return NotationError(f"{move!r}: {why}; expected {form or DICT_FORMS}")

    def card_of(form: str) -> str:
        c = move.get("card")
        if not isinstance(c, str) or c.strip().lower() not in CARD_ID:
            raise bad(f"'card' must name a card such as 'red-15', got {c!r}", form)
        return c.strip().lower()

    def cell_of(form: str) -> str:
        v = move.get("cell")
        if not (isinstance(v, (list, tuple)) and len(v) == 2
                and all(isinstance(c, int) and not isinstance(c, bool) for c in v)):
            raise bad(f"'cell' must be a pair of ints [x, y], got {v!r}", form)
        return f"({v[0]},{v[1]})"

    def parse(text: str, form: str) -> int:
        try:
            return string_to_action(state, text, player)
        except NotationError as e:
            raise bad(str(e).replace(repr(text) + ": ", ""), form) from None

    kind = move.get("type")
    if player == CHANCE:
        want = chance_type(state)
        form = f'{{"type": "{want}", "card": "water-63"}}'
        if kind != want:
            raise bad(f"a chance outcome here has type {want!r}, got {kind!r}", form)
        return parse(card_of(form), form)
    if kind == "choose":
        form = '{"type": "choose", "card": "red-15"}'
        return parse(f"choose {card_of(form)}", form)
    if kind == "place":
        form = ('{"type": "place", "card": "red-15", "cell": [2, -1]} '
                '(+ "crane": "wine" or "export": "tea")')
        text = f"place {card_of(form)} {cell_of(form)}"
        extras = [k for k in ("crane", "export") if k in move]
        if len(extras) > 1:
            raise bad("a place has 'crane' or 'export', not both", form)
        for k in extras:
            t = move[k]
            if t not in GOODS:
                raise bad(f"{k!r} must be one of {', '.join(GOODS)}, got {t!r}", form)
            text += f" {k}={t}"
        return parse(text, form)
    if kind in ("ship", "remove"):
        form = f'{{"type": "{kind}", "cell": [-1, 0]}}'
        return parse(f"{kind} {cell_of(form)}", form)
    if kind in ("buy", "skip"):
        return parse(kind, f'{{"type": "{kind}"}}')
    raise bad(f"unknown action type {kind!r}")


def and_list(words: list[str]) -> str:
    """``["a", "b", "c"]`` as "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def card_words(card: int) -> str:
    """A card as the players name it: "the black harbour card 14 with wine", "the red harbour
    card 11 with a crane", "the water card 48 with a coin symbol", "the flood card 88"."""
    kind = CARD_KIND[card]
    if kind == ANCHOR:
        return "the anchor"
    number = CARD_NUMBER[card]
    if kind == WATER:
        head = f"the water card {number}"
    elif kind in (FLOOD, BRIDGE, CUSTOMS):
        head = {FLOOD: "the flood card", BRIDGE: "the bridge card",
                CUSTOMS: "the customs house card"}[kind] + f" {number}"
    else:
        head = f"the {COLOURS[CARD_COLOUR[card]]} harbour card {number}"
    has: list[str] = []
    if kind == GOODS_CARD:
        has.append(and_list([GOODS[t] for t in CARD_GOODS[card]]))
    elif kind == CRANE:
        has.append("a crane")
    elif kind == TAVERN:
        has.append("a tavern")
    if CARD_COIN[card]:
        has.append("a coin symbol")
    if CARD_SHIP[card]:
        has.append("a ship symbol")
    if not has:
        return head
    if len(has) > 2 and " and " in has[0]:
        return f"{head} with {has[0]}, " + ", ".join(has[1:-1]) + f" and {has[-1]}"
    if len(has) == 2 and " and " in has[0]:
        return f"{head} with {has[0]}, and {has[1]}"
    return f"{head} with {and_list(has)}"


def field_place(x: int, y: int) -> str:
    """Cell ``(x, y)`` of the field said from the anchor (x to the right, y down): "on the
    anchor", "just above the anchor", "two to the right and one below the anchor"."""
    return place_from(x, y, "the anchor")


def _sentence(words: str) -> str:
    """``words`` with its first letter a capital."""
    return words[:1].upper() + words[1:]


def describe_action(state: KontorState, action: int, player: int) -> dict[str, Any]:
    """The label of an action and the picture's elements it points at (``cell-R-C`` on the
    padded grid, ``hand-<card>``)."""
    g = state.game
    if player == CHANCE:
        how = {"deal": "is dealt to the starting cross", "draw": "is drawn",
               "turn": "is turned up on its pile"}[chance_type(state)]
        return {"label": _sentence(f"{card_words(action)} {how}"), "kind": "chance"}
    if action < g.PLACE:
        return {"label": f"Choose {card_words(action)}", "kind": "choose",
                "target": f"hand-{CARD_NAME[action]}",
                "cells": [f"hand-{CARD_NAME[action]}"], "card": CARD_NAME[action]}
    if action < g.SHIP:
        i, v = divmod(action - g.PLACE, NV)
        cid = g.cell_id(i)
        extra = ""
        if 1 <= v <= 3:
            extra = f", its crane counting as {GOODS[v - 1]}"
        elif v >= 4:
            extra = f", exporting one {GOODS[v - 4]}"
        name = card_words(state.card) if state.card >= 0 else "the card"
        x, y = g.xy(i)
        return {"label": f"Place {name}, {field_place(x, y)}{extra}", "kind": "place",
                "target": cid, "cells": [cid], "cell": [x, y]}
    if action < g.REMOVE:
        i = action - g.SHIP
        x, y = g.xy(i)
        where = "onto the anchor" if x == y == 0 else field_place(x, y)
        return {"label": f"Move the patrol ship {where}", "kind": "ship",
                "target": g.cell_id(i), "cells": [g.cell_id(i)], "cell": [x, y]}
    if action < g.BUY:
        i = action - g.REMOVE
        x, y = g.xy(i)
        name = card_words(state.cell[i]) if state.cell[i] >= 0 else "the card"
        return {"label": f"Remove {name}, {field_place(x, y)}", "kind": "remove",
                "target": g.cell_id(i), "cells": [g.cell_id(i)], "cell": [x, y]}
    if action == g.BUY:
        return {"label": "Buy a special card for 2 coins", "kind": "buy"}
    labels = {S_SHIP: "Leave the patrol ship where it is", S_BUY: "Do not buy a special card",
              S_REMOVE: "Remove no card"}
    return {"label": labels.get(state.step, "Skip"), "kind": "skip"}
