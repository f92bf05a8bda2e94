"""Kozo notation (rules.md 2.7): actions as text (``P7.23@1,0``, ``B@2,1``, ``size 4``,
``piece P3``, ``tremor -1,1``, ``draw 4``) and as dicts, their parsing, and the labels of
``describe_action``."""

from __future__ import annotations

import re
from typing import Any, Protocol

from meeple.engine import CHANCE, NotationError
from meeple.engine.i18n import N_, number, words

from .components import (
    BALANCE_BASE,
    BASE,
    DRAW,
    LETTERS,
    NUM_ACTIONS,
    NUM_PIECES,
    ORIENTATIONS,
    PIECE_BASE,
    PIECE_NAMES,
    PLACE,
    PLACEMENTS,
    RING,
    RING_COLUMNS,
    RING_INDEX,
    SIZE_BASE,
    SIZE_VALUES,
    SIZES,
    TREMOR,
    piece_object,
    place_id,
)

_, _n = words(__file__)


class Position(Protocol):
    """What the notation reads of a position (``rules.KozoState`` is one): the rules import
    this module, never the other way round."""

    phase: int
    top: list[int]

    def placements(self) -> list[int]: ...

    def resting_cubes(self, action: int) -> tuple[float, list[tuple[int, int, float]]]: ...


_PLACE_RE = re.compile(r"^p\s*(\d+)\s*\.\s*(\d+)\s*@\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?$")
_ASK_RE = re.compile(r"^p\s*(\d+)\s*\??$")
_BAL_RE = re.compile(r"^b\s*@\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?$")
_SIZE_RE = re.compile(r"^size\s*(\d+)$")
_PIECE_RE = re.compile(r"^piece\s*p?\s*(\d+)$")
_TREMOR_RE = re.compile(r"^tremor\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?$")
_DRAW_RE = re.compile(r"^draw\s*(\d+)$")
FORMS = N_(
    "expected a placement 'Pp.o@dx,dy' (e.g. P7.23@1,0), a balance cube 'B@x,y' "
    "(e.g. B@2,1), 'size s' or 'piece Pp'; type a piece alone (e.g. P7) to see its orientations"
)
DICT_FORMS = {
    "place": '{"type": "place", "piece": p, "orient": o, "offset": [dx, dy]}',
    "balance": '{"type": "balance", "column": [x, y]}',
    "size": '{"type": "size", "size": s}',
    "piece": '{"type": "piece", "piece": p}',
}
"""The dict forms of the players' actions, by ``type``."""
CHANCE_DICT_FORMS = {
    "tremor": '{"type": "tremor", "step": [i, j]} (i, j in -1, 0, 1)',
    "draw": '{"type": "draw", "size": s}',
}
"""The dict forms of the chance outcomes, by ``type``."""


def action_to_string(state: Position, action: int, player: int) -> str:
    if player == CHANCE:
        if state.phase == DRAW:
            return f"draw {action + 2}"
        return f"tremor {action // 3 - 1},{action % 3 - 1}"
    if 0 <= action < BALANCE_BASE:
        rest, d = divmod(action, 9)
        p, o = divmod(rest, 24)
        dy, dx = BASE.cell(d)
        return f"P{p + 1}.{o}@{dx},{dy}"
    if action < SIZE_BASE:
        x, y = RING[action - BALANCE_BASE]
        return f"B@{x},{y}"
    if action < PIECE_BASE:
        return f"size {action - SIZE_BASE + 2}"
    if action < NUM_ACTIONS:
        return f"piece P{action - PIECE_BASE + 1}"
    raise ValueError(f"no Kozo action has id {action}")


def string_to_action(state: Position, text: str, player: int) -> int:
    t = " ".join(text.lower().split())
    if player == CHANCE:
        m = _TREMOR_RE.match(t)
        if m:
            i, j = int(m.group(1)), int(m.group(2))
            if i in (-1, 0, 1) and j in (-1, 0, 1):
                return 3 * (i + 1) + (j + 1)
            raise NotationError(_("tremor outcomes are 'tremor i,j' with i, j in -1, 0, 1"))
        m = _DRAW_RE.match(t)
        if m and 2 <= int(m.group(1)) <= 5:
            return int(m.group(1)) - 2
        raise NotationError(_("{text}: expected a chance outcome 'tremor i,j' or 'draw s' "
                              "(s in 2..5)", text=repr(text)))
    m = _ASK_RE.match(t)
    if m:
        raise NotationError(orientations_text(state, int(m.group(1))))
    m = _PLACE_RE.match(t)
    if m:
        p, o, dx, dy = (int(g) for g in m.groups())
        if not 1 <= p <= NUM_PIECES:
            raise NotationError(_("{text}: pieces are P1..P{last}", text=repr(text),
                                  last=str(NUM_PIECES)))
        if o >= len(ORIENTATIONS[p - 1]):
            code = f"P{p}"
            raise NotationError(_("{text}: {piece} has orientations 0..{last}",
                                  text=repr(text), piece=code,
                                  last=str(len(ORIENTATIONS[p - 1]) - 1)))
        if dx > 2 or dy > 2:
            raise NotationError(_("{text}: offsets dx, dy are 0, 1 or 2", text=repr(text)))
        return place_id(p, o, dx, dy)
    m = _BAL_RE.match(t)
    if m:
        col = (int(m.group(1)), int(m.group(2)))
        if col not in RING_INDEX:
            raise NotationError(_("{text}: a balance cube goes on a ring column x,y in 0..2, "
                                  "not the chimney 1,1", text=repr(text)))
        return BALANCE_BASE + RING_INDEX[col]
    m = _SIZE_RE.match(t)
    if m:
        s = int(m.group(1))
        if s not in SIZE_VALUES:
            raise NotationError(_("{text}: sizes are 2, 3, 4 and 5", text=repr(text)))
        return SIZE_BASE + s - 2
    m = _PIECE_RE.match(t)
    if m:
        p = int(m.group(1))
        if not 1 <= p <= NUM_PIECES:
            raise NotationError(_("{text}: pieces are P1..P{last}", text=repr(text),
                                  last=str(NUM_PIECES)))
        return PIECE_BASE + p - 1
    raise NotationError(_("{text}: {form}", text=repr(text), form=_(FORMS)))


def action_to_dict(state: Position, action: int, player: int) -> dict[str, Any]:
    """The dict form of an action (rules 2.7), e.g. ``{"type": "balance", "column": [2, 1]}``;
    chance outcomes are ``{"type": "draw", "size": s}`` and ``{"type": "tremor", "step":
    [i, j]}``."""
    if player == CHANCE:
        if state.phase == DRAW:
            return {"type": "draw", "size": action + 2}
        return {"type": "tremor", "step": [action // 3 - 1, action % 3 - 1]}
    if 0 <= action < BALANCE_BASE:
        rest, d = divmod(action, 9)
        p, o = divmod(rest, 24)
        dy, dx = BASE.cell(d)
        return {"type": "place", "piece": p + 1, "orient": o, "offset": [dx, dy]}
    if action < SIZE_BASE:
        x, y = RING[action - BALANCE_BASE]
        return {"type": "balance", "column": [x, y]}
    if action < PIECE_BASE:
        return {"type": "size", "size": action - SIZE_BASE + 2}
    if action < NUM_ACTIONS:
        return {"type": "piece", "piece": action - PIECE_BASE + 1}
    raise ValueError(f"no Kozo action has id {action}")


def dict_to_action(state: Position, move: dict[str, Any], player: int) -> int:
    """Read the dict form (rules 2.7) by checking its keys and reading the equivalent text
    form; :class:`NotationError` names the expected form."""
    chance = player == CHANCE
    kinds = CHANCE_DICT_FORMS if chance else DICT_FORMS
    if chance and state.phase == DRAW:
        kinds = {"draw": kinds["draw"]}
    elif chance and state.phase == TREMOR:
        kinds = {"tremor": kinds["tremor"]}
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        if kind in DICT_FORMS or kind in CHANCE_DICT_FORMS:
            why = _("a {kind} action does not fit here", kind=repr(kind))
        elif "type" in move:
            why = _("unknown action type {kind}", kind=repr(kind))
        else:
            why = _('no "type"')
        forms = _(" or ").join(kinds.values())
        if chance:
            raise NotationError(_("{move}: {why}; a chance outcome in dict form is {forms}",
                                  move=repr(move), why=why, forms=forms))
        raise NotationError(_("{move}: {why}; a player's action in dict form is {forms}",
                              move=repr(move), why=why, forms=forms))
    form = kinds[kind]
    if kind == "place":
        p, o = _dict_int(move, "piece", form, 1), _dict_int(move, "orient", form)
        dx, dy = _dict_pair(move, "offset", form)
        text = f"P{p}.{o}@{dx},{dy}"
    elif kind == "balance":
        x, y = _dict_pair(move, "column", form)
        text = f"B@{x},{y}"
    elif kind == "piece":
        text = f"piece P{_dict_int(move, 'piece', form, 1)}"
    elif kind == "tremor":
        i, j = _dict_pair(move, "step", form, -1, 1)
        text = f"tremor {i},{j}"
    else:  # size, draw
        text = f"{kind} {_dict_int(move, 'size', form, 2)}"
    try:
        return string_to_action(state, text, player)
    except NotationError as e:
        raise NotationError(_("{move} names no action ({why}): expected {form}",
                              move=repr(move), why=str(e), form=form)) from None


def orientations_text(state: Position, piece: int) -> str:
    """The orientations of a piece (typed as ``P7`` or ``P7?``): cubes as ``xyz`` digits,
    and how many placements of each are legal now."""
    if not 1 <= piece <= NUM_PIECES:
        return _("pieces are P1..P{last}", last=str(NUM_PIECES))
    p = piece - 1
    legal = set(state.placements()) if state.phase == PLACE else set()
    code = f"P{piece}"
    lines = [_("{code} {name} ({size} cubes), orientations (cubes as xyz, x east, y north, "
               "z up); type {code}.o@dx,dy to place:", code=code,
               name=_(PIECE_NAMES[p]), size=SIZES[p])]
    for o, cubes in enumerate(ORIENTATIONS[p]):
        ids = [place_id(piece, o, dx, dy) for dy in range(3) for dx in range(3)]
        at = [f"{dx},{dy}" for dy, dx in (BASE.cell(i % 9) for i in ids if i in legal)]
        where = (_("legal at {offsets}", offsets=" ".join(at)) if at
                 else _("no legal offset now"))
        lines.append(f"  {o:>2}: {' '.join(f'{x}{y}{z}' for x, y, z in cubes):<20} {where}")
    return "\n".join(lines)


COLUMN_WORDS = {
    (0, 0): N_("south-west"), (1, 0): N_("south"), (2, 0): N_("south-east"), (0, 1): N_("west"),
    (2, 1): N_("east"), (0, 2): N_("north-west"), (1, 2): N_("north"), (2, 2): N_("north-east"),
}
"""The ring's columns by the compass, as the plan shows them (x east, y north)."""
TREMOR_WORDS = {
    (-1, -1): N_("The tremor shifts the piece a little to the south-west"),
    (0, -1): N_("The tremor shifts the piece a little to the south"),
    (1, -1): N_("The tremor shifts the piece a little to the south-east"),
    (-1, 0): N_("The tremor shifts the piece a little to the west"),
    (0, 0): N_("The tremor leaves the piece where it is"),
    (1, 0): N_("The tremor shifts the piece a little to the east"),
    (-1, 1): N_("The tremor shifts the piece a little to the north-west"),
    (0, 1): N_("The tremor shifts the piece a little to the north"),
    (1, 1): N_("The tremor shifts the piece a little to the north-east"),
}
"""A tremor's step (x east, y north) in words."""
COUNT_WORDS = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"))
"""Numbers of cubes in words."""


def count_word(n: int) -> str:
    """A number of cubes (0 to 5) in words: "two"."""
    return _(COUNT_WORDS[n])


def column(col: tuple[int, int]) -> str:
    """A ring column by the compass ("south-west"), in the language in use."""
    return _(COLUMN_WORDS[col])


def tremor_words(step: tuple[int, int]) -> str:
    """What a tremor of ``step`` does, as a sentence without its full stop."""
    return _(TREMOR_WORDS[step])


def piece_words(piece: int) -> str:
    """A piece with its colour, kind and letter: "the red dicube (A)"."""
    return piece_object(piece)


def and_list(items: list[str]) -> str:
    """``["a", "b", "c"]`` as "a, b and c"."""
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def _where(cubes: list[tuple[int, int, float]]) -> str:
    """Where a placed piece stands: "upright on the south column, 3 cubes high", "across
    the west and north-west columns, lying flat", "across the south and south-east columns,
    2 cubes high on the south"."""
    count: dict[tuple[int, int], int] = {}
    for x, y, _z in cubes:
        count[(x, y)] = count.get((x, y), 0) + 1
    cols = sorted(count, key=lambda c: list(COLUMN_WORDS).index(c))
    if len(cols) == 1:
        n = count[cols[0]]
        return _n("upright on the {column} column, {count} cube high",
                  "upright on the {column} column, {count} cubes high", n,
                  column=column(cols[0]), count=count_word(n))
    across = and_list([column(c) for c in cols])
    tall = sorted({n for n in count.values() if n > 1}, reverse=True)
    if not tall:
        return _("across the {columns} columns, lying flat", columns=across)
    heights = ", ".join(
        _n("{count} cube high on the {columns}", "{count} cubes high on the {columns}", n,
           count=count_word(n), columns=and_list([column(c) for c in cols if count[c] == n]))
        for n in tall)
    return _("across the {columns} columns, {heights}", columns=across, heights=heights)


def _height(z: float) -> str:
    """A height in cubes, whole numbers without a point (written the language's way)."""
    return number(int(z)) if z == int(z) else number(z)


def rests_words(z: float) -> str:
    """Where a piece rests: "on the board" or "at height 2"."""
    return _("on the board") if z == 0 else _("at height {height}", height=_height(z))


def describe_action(state: Position, action: int, player: int) -> dict[str, Any]:
    """The label of an action in player words, and the ring's columns it points at."""
    if player == CHANCE:
        if state.phase == DRAW:
            return {"kind": "chance",
                    "label": _n("The scoring tile drawn is a {n}: play a piece of {count} cube",
                                "The scoring tile drawn is a {n}: play a piece of {count} "
                                "cubes", action + 2, count=count_word(action + 2))}
        step = (action // 3 - 1, action % 3 - 1)
        return {"kind": "chance", "label": tremor_words(step)}
    if action < BALANCE_BASE:
        p, o = divmod(action // 9, 24)
        dy, dx = BASE.cell(action % 9)
        entry = PLACEMENTS.get(action)
        if entry is None:
            return {"kind": "place", "label": _("Not a placement inside the ring"),
                    "piece": p + 1, "rotation": o, "offset": [dx, dy]}
        z0, cubes = state.resting_cubes(action)
        cols = sorted({(x, y) for x, y, _z in cubes})
        ax, ay = cubes[0][0], cubes[0][1]
        zt = int(z0) if z0 == int(z0) else z0
        return {
            "kind": "place",
            "label": _("Place {piece} {where}: it rests {rests}", piece=piece_words(p + 1),
                       where=_where(cubes), rests=rests_words(zt)),
            "target": f"col-{ax}-{ay}",
            "cells": [f"col-{x}-{y}" for x, y in cols],
            "piece": p + 1,
            "letter": LETTERS[p],
            "name": _(PIECE_NAMES[p]),
            "size": SIZES[p],
            "colour": p,
            "rotation": o,
            "offset": [dx, dy],
            "z0": zt,
            "cubes": [[x, y, int(z) if z == int(z) else z] for x, y, z in cubes],
        }
    if action < SIZE_BASE:
        x, y = RING[action - BALANCE_BASE]
        h = state.top[RING_COLUMNS[action - BALANCE_BASE]]
        return {
            "kind": "balance",
            "label": _("Put a balance cube on top of the {column} column, at height {height}",
                       column=column((x, y)), height=_height(h)),
            "target": f"col-{x}-{y}",
            "cells": [f"col-{x}-{y}"],
            "column": [x, y],
            "height": h,
        }
    if action < PIECE_BASE:
        s = action - SIZE_BASE + 2
        return {"kind": "size",
                "label": _n("Make them play a piece of {count} cube",
                            "Make them play a piece of {count} cubes", s, count=count_word(s)),
                "size": s}
    p = action - PIECE_BASE
    return {"kind": "piece", "label": _("Make them play {piece}", piece=piece_words(p + 1)),
            "piece": p + 1}


def _dict_int(move: dict[str, Any], key: str, form: str, low: int = 0) -> int:
    """``move[key]``, an int of at least ``low``, else :class:`NotationError` naming ``form``."""
    v = move.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        have = (_("is missing") if key not in move else
                _("must be an int >= {low}, not {value}", low=str(low), value=repr(v)))
        raise NotationError(_("{move}: {key} {have}: expected {form}", move=repr(move),
                              key=repr(key), have=have, form=form))
    return v


def _dict_pair(move: dict[str, Any], key: str, form: str, low: int = 0, high: int = 2
               ) -> tuple[int, int]:
    """``move[key]``, a pair of ints in ``low..high``, else :class:`NotationError`."""
    v = move.get(key)
    if not (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(c, int) and not isinstance(c, bool) and low <= c <= high
                    for c in v)):
        have = (_("is missing") if key not in move else
                _("must be a pair of ints in {low}..{high}, not {value}", low=str(low),
                  high=str(high), value=repr(v)))
        raise NotationError(_("{move}: {key} {have}: expected {form}", move=repr(move),
                              key=repr(key), have=have, form=form))
    return v[0], v[1]
