"""Kozo notation (rules.md 2.7): actions as text (``P7.23@1,0``, ``B@2,1``, ``size 4``,
``piece P3``, ``tremor -1,1``, ``draw 4``) and as dicts, their parsing, and the labels of
``describe_action``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from meeple.engine import CHANCE, NotationError

from .components import (
    BALANCE_BASE,
    BASE,
    DRAW,
    LETTERS,
    NUM_ACTIONS,
    NUM_PIECES,
    ORIENTATIONS,
    PIECE_BASE,
    PIECE_COLOUR_WORDS,
    PIECES,
    PLACE,
    PLACEMENTS,
    RING,
    RING_COLUMNS,
    RING_INDEX,
    SIZE_BASE,
    SIZE_VALUES,
    SIZES,
    TREMOR,
    piece_name,
    place_id,
)

if TYPE_CHECKING:
    from .rules import KozoState

_PLACE_RE = re.compile(r"^p\s*(\d+)\s*\.\s*(\d+)\s*@\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?$")
_ASK_RE = re.compile(r"^p\s*(\d+)\s*\??$")
_BAL_RE = re.compile(r"^b\s*@\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?$")
_SIZE_RE = re.compile(r"^size\s*(\d+)$")
_PIECE_RE = re.compile(r"^piece\s*p?\s*(\d+)$")
_TREMOR_RE = re.compile(r"^tremor\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?$")
_DRAW_RE = re.compile(r"^draw\s*(\d+)$")
FORMS = (
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


def action_to_string(state: KozoState, action: int, player: int) -> str:
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


def string_to_action(state: KozoState, text: str, player: int) -> int:
    t = " ".join(text.lower().split())
    if player == CHANCE:
        m = _TREMOR_RE.match(t)
        if m:
            i, j = int(m.group(1)), int(m.group(2))
            if i in (-1, 0, 1) and j in (-1, 0, 1):
                return 3 * (i + 1) + (j + 1)
            raise NotationError("tremor outcomes are 'tremor i,j' with i, j in -1, 0, 1")
        m = _DRAW_RE.match(t)
        if m and 2 <= int(m.group(1)) <= 5:
            return int(m.group(1)) - 2
        raise NotationError(
            f"{text!r}: expected a chance outcome 'tremor i,j' or 'draw s' (s in 2..5)"
        )
    m = _ASK_RE.match(t)
    if m:
        raise NotationError(orientations_text(state, int(m.group(1))))
    m = _PLACE_RE.match(t)
    if m:
        p, o, dx, dy = (int(g) for g in m.groups())
        if not 1 <= p <= NUM_PIECES:
            raise NotationError(f"{text!r}: pieces are P1..P{NUM_PIECES}")
        if o >= len(ORIENTATIONS[p - 1]):
            raise NotationError(
                f"{text!r}: P{p} has orientations 0..{len(ORIENTATIONS[p - 1]) - 1}"
            )
        if dx > 2 or dy > 2:
            raise NotationError(f"{text!r}: offsets dx, dy are 0, 1 or 2")
        return place_id(p, o, dx, dy)
    m = _BAL_RE.match(t)
    if m:
        col = (int(m.group(1)), int(m.group(2)))
        if col not in RING_INDEX:
            raise NotationError(
                f"{text!r}: a balance cube goes on a ring column x,y in 0..2, not the "
                "chimney 1,1"
            )
        return BALANCE_BASE + RING_INDEX[col]
    m = _SIZE_RE.match(t)
    if m:
        s = int(m.group(1))
        if s not in SIZE_VALUES:
            raise NotationError(f"{text!r}: sizes are 2, 3, 4 and 5")
        return SIZE_BASE + s - 2
    m = _PIECE_RE.match(t)
    if m:
        p = int(m.group(1))
        if not 1 <= p <= NUM_PIECES:
            raise NotationError(f"{text!r}: pieces are P1..P{NUM_PIECES}")
        return PIECE_BASE + p - 1
    raise NotationError(f"{text!r}: {FORMS}")


def action_to_dict(state: KozoState, action: int, player: int) -> dict[str, Any]:
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


def dict_to_action(state: KozoState, move: dict[str, Any], player: int) -> int:
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
            why = f"a {kind!r} action does not fit here"
        else:
            why = f"unknown action type {kind!r}" if "type" in move else 'no "type"'
        what = "a chance outcome" if chance else "a player's action"
        raise NotationError(
            f"{move!r}: {why}; {what} in dict form is " + " or ".join(kinds.values())
        )
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
        raise NotationError(f"{move!r} names no action ({e}): expected {form}") from None


def orientations_text(state: KozoState, piece: int) -> str:
    """The orientations of a piece (typed as ``P7`` or ``P7?``): cubes as ``xyz`` digits,
    and how many placements of each are legal now."""
    if not 1 <= piece <= NUM_PIECES:
        return f"pieces are P1..P{NUM_PIECES}"
    p = piece - 1
    legal = set(state.placements()) if state.phase == PLACE else set()
    lines = [f"P{piece} {PIECES[p][0]} ({SIZES[p]} cubes), orientations "
             f"(cubes as xyz, x east, y north, z up); type P{piece}.o@dx,dy to place:"]
    for o, cubes in enumerate(ORIENTATIONS[p]):
        ids = [place_id(piece, o, dx, dy) for dy in range(3) for dx in range(3)]
        at = [f"{dx},{dy}" for dy, dx in (BASE.cell(i % 9) for i in ids if i in legal)]
        where = f"legal at {' '.join(at)}" if at else "no legal offset now"
        lines.append(f"  {o:>2}: {' '.join(f'{x}{y}{z}' for x, y, z in cubes):<20} {where}")
    return "\n".join(lines)


COLUMN_WORDS = {
    (0, 0): "south-west", (1, 0): "south", (2, 0): "south-east", (0, 1): "west",
    (2, 1): "east", (0, 2): "north-west", (1, 2): "north", (2, 2): "north-east",
}
"""The ring's columns by the compass, as the plan shows them (x east, y north)."""
STEP_WORDS = {
    (-1, -1): "south-west", (0, -1): "south", (1, -1): "south-east", (-1, 0): "west",
    (1, 0): "east", (-1, 1): "north-west", (0, 1): "north", (1, 1): "north-east",
}
"""A tremor's step (x east, y north) by the compass."""
COUNT_WORDS = ("no", "one", "two", "three", "four", "five")


def piece_words(piece: int) -> str:
    """A piece with its colour, kind and letter: "the red dicube (A)"."""
    return f"the {PIECE_COLOUR_WORDS[piece - 1]} {piece_name(piece)}"


def and_list(words: list[str]) -> str:
    """``["a", "b", "c"]`` as "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _where(cubes: list[tuple[int, int, float]]) -> str:
    """Where a placed piece stands: "upright on the south column, three cubes high", "across
    the west and north-west columns, lying flat", "across the south and south-east columns,
    two cubes high on the south"."""
    count: dict[tuple[int, int], int] = {}
    for x, y, _ in cubes:
        count[(x, y)] = count.get((x, y), 0) + 1
    cols = sorted(count, key=lambda c: list(COLUMN_WORDS).index(c))
    if len(cols) == 1:
        n = count[cols[0]]
        return f"upright on the {COLUMN_WORDS[cols[0]]} column, {COUNT_WORDS[n]} cubes high"
    where = f"across the {and_list([COLUMN_WORDS[c] for c in cols])} columns"
    tall = sorted({n for n in count.values() if n > 1}, reverse=True)
    if not tall:
        return where + ", lying flat"
    return where + "".join(
        f", {COUNT_WORDS[n]} cubes high on the "
        + and_list([COLUMN_WORDS[c] for c in cols if count[c] == n]) for n in tall)


def _height(z: float) -> str:
    """A height in cubes, whole numbers without a point."""
    return str(int(z)) if z == int(z) else f"{z:g}"


def describe_action(state: KozoState, action: int, player: int) -> dict[str, Any]:
    """The label of an action in player words, and the ring's columns it points at."""
    if player == CHANCE:
        if state.phase == DRAW:
            return {"kind": "chance",
                    "label": f"The scoring tile drawn is a {action + 2}: play a piece of "
                             f"{COUNT_WORDS[action + 2]} cubes"}
        step = (action // 3 - 1, action % 3 - 1)
        if step == (0, 0):
            return {"kind": "chance", "label": "The tremor leaves the piece where it is"}
        return {"kind": "chance",
                "label": f"The tremor shifts the piece a little to the {STEP_WORDS[step]}"}
    if action < BALANCE_BASE:
        p, o = divmod(action // 9, 24)
        dy, dx = BASE.cell(action % 9)
        entry = PLACEMENTS.get(action)
        if entry is None:
            return {"kind": "place", "label": "Not a placement inside the ring",
                    "piece": p + 1, "rotation": o, "offset": [dx, dy]}
        z0, cubes = state.resting_cubes(action)
        cols = sorted({(x, y) for x, y, _ in cubes})
        ax, ay = cubes[0][0], cubes[0][1]
        zt = int(z0) if z0 == int(z0) else z0
        rests = "on the board" if zt == 0 else f"at height {_height(z0)}"
        return {
            "kind": "place",
            "label": f"Place {piece_words(p + 1)} {_where(cubes)}: it rests {rests}",
            "target": f"col-{ax}-{ay}",
            "cells": [f"col-{x}-{y}" for x, y in cols],
            "piece": p + 1,
            "letter": LETTERS[p],
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
            "label": f"Put a balance cube on top of the {COLUMN_WORDS[(x, y)]} column, at "
                     f"height {_height(h)}",
            "target": f"col-{x}-{y}",
            "cells": [f"col-{x}-{y}"],
            "column": [x, y],
            "height": h,
        }
    if action < PIECE_BASE:
        s = action - SIZE_BASE + 2
        return {"kind": "size", "label": f"Make them play a piece of {COUNT_WORDS[s]} cubes",
                "size": s}
    p = action - PIECE_BASE
    return {"kind": "piece", "label": f"Make them play {piece_words(p + 1)}",
            "piece": p + 1}


def _dict_int(move: dict[str, Any], key: str, form: str, low: int = 0) -> int:
    """``move[key]``, an int of at least ``low``, else :class:`NotationError` naming ``form``."""
    v = move.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        have = "is missing" if key not in move else f"must be an int >= {low}, not {v!r}"
        raise NotationError(f"{move!r}: {key!r} {have}: expected {form}")
    return v


def _dict_pair(move: dict[str, Any], key: str, form: str, low: int = 0, high: int = 2
               ) -> tuple[int, int]:
    """``move[key]``, a pair of ints in ``low..high``, else :class:`NotationError`."""
    v = move.get(key)
    if not (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(c, int) and not isinstance(c, bool) and low <= c <= high
                    for c in v)):
        have = ("is missing" if key not in move
                else f"must be a pair of ints in {low}..{high}, not {v!r}")
        raise NotationError(f"{move!r}: {key!r} {have}: expected {form}")
    return v[0], v[1]
