"""Kontor's notation (rules 4.8): actions as text and as dicts, both ways, and the labels of
``describe_action``. Plain functions of the state; the State's hooks call them."""

from __future__ import annotations

import re
from typing import Any, Protocol

from meeple.engine import CHANCE, NotationError
from meeple.engine.i18n import N_, words

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

_, _n = words(__file__)


class Setup(Protocol):
    """What the notation reads of the game (``rules.Kontor`` is one): the field's size and
    where each kind of action's ids start."""

    O: int
    BUY: int
    PLACE: int
    REMOVE: int
    SHIP: int
    SKIP: int

    def cell_id(self, i: int) -> str: ...

    def idx(self, x: int, y: int) -> int: ...

    def on_grid(self, x: int, y: int) -> bool: ...

    def xy(self, i: int) -> tuple[int, int]: ...

    def xy_text(self, i: int) -> str: ...


class Position(Protocol):
    """What the notation reads of a position (``rules.KontorState`` is one): the rules
    import this module, never the other way round."""

    card: int
    cell: list[int]
    phase: int
    step: int
    tasks: list[tuple[int, int, int]]

    @property
    def game(self) -> Setup: ...


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


def action_to_string(state: Position, action: int, player: int) -> str:
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


def _cell_of(state: Position, xs: str, ys: str) -> int:
    x, y = int(xs), int(ys)
    if not state.game.on_grid(x, y):
        o = state.game.O
        where, low, high = f"({x},{y})", str(-o), str(o)
        raise NotationError(_("cell {cell} is off the field: x and y go from {low} to {high}",
                              cell=where, low=low, high=high))
    return state.game.idx(x, y)


def string_to_action(state: Position, text: str, player: int) -> int:
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
        raise NotationError(_("{text}: a chance outcome is a card, e.g. 'water-63'",
                              text=repr(text)))
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
        raise NotationError(_("{text}: expected 'choose <card>', e.g. 'choose red-15'",
                              text=repr(text)))
    m = _RE_PLACE.fullmatch(t)
    if m:
        if m.group(1):
            name = re.sub(r"\s+", "", m.group(1))
            if name not in CARD_ID:
                raise NotationError(_("{text}: no card named {name}", text=repr(text),
                                      name=repr(name)))
            if state.card >= 0 and CARD_ID[name] != state.card:
                raise NotationError(_("{text}: the card being played is {card}, not {name}",
                                      text=repr(text), card=CARD_NAME[state.card], name=name))
        i = _cell_of(state, m.group(2), m.group(3))
        v = 0
        if m.group(4):
            v = GOODS.index(m.group(5)) + (1 if m.group(4) == "crane" else 4)
        return g.PLACE + i * NV + v
    m = _RE_CELL.fullmatch(t)
    if m:
        i = _cell_of(state, m.group(2), m.group(3))
        return (g.SHIP if m.group(1) == "ship" else g.REMOVE) + i
    raise NotationError(_("{text} is not a Kontor move; expected one of: {forms}",
                          text=repr(text), forms=FORMS))


def chance_type(state: Position) -> str:
    """The dict type of the chance node now: a card dealt to the cross, drawn into a hand
    (also a bought special card) or turned up as a pile's visible top."""
    return _CHANCE_TYPES[state.tasks[0][0]] if state.tasks else "draw"


def action_to_dict(state: Position, action: int, player: int) -> dict[str, Any]:
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


def dict_to_action(state: Position, move: dict[str, Any], player: int) -> int:
    """Read the dict form (rules 4.8) through the text parser; :class:`NotationError`
    names the expected form for anything malformed."""

    def bad(why: str, form: str | None = None) -> NotationError:
        return NotationError(_("{move}: {why}; expected {form}", move=repr(move), why=why,
                               form=form or DICT_FORMS))

    def card_of(form: str) -> str:
        c = move.get("card")
        if not isinstance(c, str) or c.strip().lower() not in CARD_ID:
            raise bad(_("'card' must name a card such as 'red-15', got {value}",
                        value=repr(c)), form)
        return c.strip().lower()

    def cell_of(form: str) -> str:
        v = move.get("cell")
        if not (isinstance(v, (list, tuple)) and len(v) == 2
                and all(isinstance(c, int) and not isinstance(c, bool) for c in v)):
            raise bad(_("'cell' must be a pair of ints [x, y], got {value}", value=repr(v)),
                      form)
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
            raise bad(_("a chance outcome here has type {want}, got {kind}", want=repr(want),
                        kind=repr(kind)), form)
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
            raise bad(_("a place has 'crane' or 'export', not both"), form)
        for k in extras:
            t = move[k]
            if t not in GOODS:
                raise bad(_("{key} must be one of {goods}, got {value}", key=repr(k),
                            goods=", ".join(GOODS), value=repr(t)), form)
            text += f" {k}={t}"
        return parse(text, form)
    if kind in ("ship", "remove"):
        form = f'{{"type": "{kind}", "cell": [-1, 0]}}'
        return parse(f"{kind} {cell_of(form)}", form)
    if kind in ("buy", "skip"):
        return parse(kind, f'{{"type": "{kind}"}}')
    raise bad(_("unknown action type {kind}", kind=repr(kind)))


# ------------------------------------------------------------------ words
GOODS_WORDS: tuple[str, ...] = (N_("tea"), N_("wine"), N_("spice"))
"""The goods types as a person reads them, in the order of ``GOODS`` (said with ``_``)."""
COLOUR_WORDS: tuple[str, ...] = (N_("red"), N_("black"), N_("green"), N_("purple"))
"""The players' colours as a person reads them, in the order of ``COLOURS``."""
PLAYER_WORDS: tuple[str, ...] = (N_("the red player"), N_("the black player"),
                                 N_("the green player"), N_("the purple player"))
"""Each seat named by its colour, in a sentence of the log ("the red player wins")."""
HAND_WORDS: tuple[str, ...] = (N_("the red player's hand"), N_("the black player's hand"),
                               N_("the green player's hand"), N_("the purple player's hand"))
"""Each seat's hand, named by its colour ("goes back to the red player's hand")."""
HARBOUR_CARD_WORDS: tuple[str, ...] = (
    N_("the red harbour card {number}"), N_("the black harbour card {number}"),
    N_("the green harbour card {number}"), N_("the purple harbour card {number}"))
"""A harbour card by its colour and number."""
NUMBER_WORDS: tuple[str, ...] = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"),
                                 N_("five"), N_("six"), N_("seven"), N_("eight"), N_("nine"))
"""Numbers up to nine in words."""


def number_word(n: int) -> str:
    """``n`` in words up to nine, else in digits, in the language in use."""
    return _(NUMBER_WORDS[n]) if 0 <= n < len(NUMBER_WORDS) else str(n)


def goods_word(t: int) -> str:
    """A goods type (its index) in words: "tea"."""
    return _(GOODS_WORDS[t])


def and_list(words: list[str]) -> str:
    """``["a", "b", "c"]`` as "a, b and c"."""
    if len(words) == 1:
        return words[0]
    return _("{first} and {last}", first=_(", ").join(words[:-1]), last=words[-1])


def card_words(card: int) -> str:
    """A card as the players name it: "the black harbour card 14 with wine", "the red harbour
    card 11 with a crane", "the water card 48 with a coin symbol", "the flood card 88"."""
    kind = CARD_KIND[card]
    if kind == ANCHOR:
        return _("the anchor")
    number = str(CARD_NUMBER[card])
    if kind == WATER:
        head = _("the water card {number}", number=number)
    elif kind == FLOOD:
        head = _("the flood card {number}", number=number)
    elif kind == BRIDGE:
        head = _("the bridge card {number}", number=number)
    elif kind == CUSTOMS:
        head = _("the customs house card {number}", number=number)
    else:
        head = _(HARBOUR_CARD_WORDS[CARD_COLOUR[card]], number=number)
    goods = ""
    has: list[str] = []
    if kind == GOODS_CARD:
        goods = and_list([goods_word(t) for t in CARD_GOODS[card]])
    elif kind == CRANE:
        # TRANSLATORS: what a card shows, after "with": "the red harbour card 11 with a crane"
        has.append(_("a crane"))
    elif kind == TAVERN:
        # TRANSLATORS: what a card shows, after "with": "the red harbour card 1 with a tavern"
        has.append(_("a tavern"))
    if CARD_COIN[card]:
        # TRANSLATORS: what a card shows, after "with": "the water card 48 with a coin symbol"
        has.append(_("a coin symbol"))
    if CARD_SHIP[card]:
        # TRANSLATORS: what a card shows, after "with": "the water card 46 with a ship symbol"
        has.append(_("a ship symbol"))
    if goods and has and len(CARD_GOODS[card]) > 1:
        return _("{card} with {goods}, and {other}", card=head, goods=goods,
                 other=and_list(has))
    things = [goods, *has] if goods else has
    if not things:
        return head
    return _("{card} with {things}", card=head, things=and_list(things))


def field_place(x: int, y: int) -> str:
    """Cell ``(x, y)`` of the field said from the anchor (x to the right, y down): "on the
    anchor", "just above the anchor", "two to the right and one below the anchor"."""
    if x == 0 and y == 0:
        return _("on the anchor")
    if abs(x) + abs(y) == 1:
        if y == -1:
            return _("just above the anchor")
        if y == 1:
            return _("just below the anchor")
        return _("next to the anchor, on the left") if x == -1 else \
            _("next to the anchor, on the right")
    across = down = ""
    if x < 0:
        across = _n("{word} to the left", "{word} to the left", -x, word=number_word(-x))
    elif x > 0:
        across = _n("{word} to the right", "{word} to the right", x, word=number_word(x))
    if y < 0:
        down = _n("{word} above", "{word} above", -y, word=number_word(-y))
    elif y > 0:
        down = _n("{word} below", "{word} below", y, word=number_word(y))
    if not down:
        return _("{across} of the anchor", across=across)
    if not across:
        return _("{down} the anchor", down=down)
    return _("{across} and {down} the anchor", across=across, down=down)


def ship_place(x: int, y: int) -> str:
    """Where the patrol ship goes, said from the anchor: "onto the anchor", "just above the
    anchor"."""
    return _("onto the anchor") if x == y == 0 else field_place(x, y)


def _sentence(words: str) -> str:
    """``words`` with its first letter a capital."""
    return words[:1].upper() + words[1:]


def describe_action(state: Position, action: int, player: int) -> dict[str, Any]:
    """The label of an action and the picture's elements it points at (``cell-R-C`` on the
    padded grid, ``hand-<card>``)."""
    g = state.game
    if player == CHANCE:
        card = card_words(action)
        kind = chance_type(state)
        if kind == "deal":
            label = _("{card} is dealt to the starting cross", card=card)
        elif kind == "draw":
            label = _("{card} is drawn", card=card)
        else:
            label = _("{card} is turned up on its pile", card=card)
        return {"label": _sentence(label), "kind": "chance"}
    if action < g.PLACE:
        return {"label": _("Choose {card}", card=card_words(action)), "kind": "choose",
                "target": f"hand-{CARD_NAME[action]}",
                "cells": [f"hand-{CARD_NAME[action]}"], "card": CARD_NAME[action]}
    if action < g.SHIP:
        i, v = divmod(action - g.PLACE, NV)
        cid = g.cell_id(i)
        x, y = g.xy(i)
        return {"label": place_words(state, action), "kind": "place",
                "target": cid, "cells": [cid], "cell": [x, y]}
    if action < g.REMOVE:
        i = action - g.SHIP
        x, y = g.xy(i)
        return {"label": _("Move the patrol ship {where}", where=ship_place(x, y)),
                "kind": "ship", "target": g.cell_id(i), "cells": [g.cell_id(i)], "cell": [x, y]}
    if action < g.BUY:
        i = action - g.REMOVE
        x, y = g.xy(i)
        name = card_words(state.cell[i]) if state.cell[i] >= 0 else _("the card")
        return {"label": _("Remove {card}, {place}", card=name, place=field_place(x, y)),
                "kind": "remove", "target": g.cell_id(i), "cells": [g.cell_id(i)],
                "cell": [x, y]}
    if action == g.BUY:
        return {"label": _("Buy a special card for 2 coins"), "kind": "buy"}
    if state.step == S_SHIP:
        label = _("Leave the patrol ship where it is")
    elif state.step == S_BUY:
        label = _("Do not buy a special card")
    elif state.step == S_REMOVE:
        label = _("Remove no card")
    else:
        label = _("Skip")
    return {"label": label, "kind": "skip"}


def place_words(state: Position, action: int, log: bool = False,
                then: list[str] | None = None) -> str:
    """A placement in words: the label ("Place the red harbour card 15 with wine, just above
    the anchor") or, with ``log``, the log's words for it with what the player did besides
    (``then``: "places ... and takes a coin"), one whole text per case so that each language
    can join the clauses its own way."""
    g = state.game
    i, v = divmod(action - g.PLACE, NV)
    x, y = g.xy(i)
    params = {"card": card_words(state.card) if state.card >= 0 else _("the card"),
              "place": field_place(x, y)}
    if log:
        return _placed(v, params, then or [])
    if 1 <= v <= 3:
        return _("Place {card}, {place}, its crane counting as {goods}",
                 goods=goods_word(v - 1), **params)
    if v >= 4:
        return _("Place {card}, {place}, exporting one {goods}", goods=goods_word(v - 4),
                 **params)
    return _("Place {card}, {place}", **params)


def _placed(v: int, params: dict[str, str], then: list[str]) -> str:
    """The log's words for a placement (``v``: plain, crane 1-3, export 4-6) and the clauses
    that follow it: none, one (``{last}``) or more (``{rest}`` and ``{last}``)."""
    more = {"last": then[-1], "rest": _(", ").join(then[:-1])} if then else {}
    if 1 <= v <= 3:
        goods = goods_word(v - 1)
        if not then:
            return _("places {card}, {place}, its crane counting as {goods}", goods=goods,
                     **params)
        if len(then) == 1:
            # TRANSLATORS: {last} is what the player did besides: "takes a coin"
            return _("places {card}, {place}, its crane counting as {goods} and {last}",
                     goods=goods, last=more["last"], **params)
        # TRANSLATORS: {rest} is a list of what the player did besides, {last} the last of it
        return _("places {card}, {place}, its crane counting as {goods}, {rest} and {last}",
                 goods=goods, **more, **params)
    if v >= 4:
        goods = goods_word(v - 4)
        if not then:
            return _("places {card}, {place}, exporting one {goods}", goods=goods, **params)
        if len(then) == 1:
            # TRANSLATORS: {last} is what the player did besides: "takes a coin"
            return _("places {card}, {place}, exporting one {goods} and {last}", goods=goods,
                     last=more["last"], **params)
        # TRANSLATORS: {rest} is a list of what the player did besides, {last} the last of it
        return _("places {card}, {place}, exporting one {goods}, {rest} and {last}",
                 goods=goods, **more, **params)
    if not then:
        return _("places {card}, {place}", **params)
    if len(then) == 1:
        # TRANSLATORS: {last} is what the player did besides: "takes a coin"
        return _("places {card}, {place} and {last}", last=more["last"], **params)
    # TRANSLATORS: {rest} is a list of what the player did besides, {last} the last of it
    return _("places {card}, {place}, {rest} and {last}", **more, **params)
