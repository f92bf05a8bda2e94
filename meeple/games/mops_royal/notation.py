"""Mops Royal notation: actions as strings (rules 4.4), as dicts, and their labels."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from meeple.engine import CHANCE, NotationError
from meeple.engine.words import place_from

from .components import (
    CELL_COL,
    CELL_ROW,
    CODE_INDEX,
    COLOURS,
    IS_CROWN,
    MASK_TO_PL,
    NCELLS,
    NOSCORE,
    NUM_ACTIONS,
    OBJECTS,
    PASS,
    PL_CELLS,
    PL_MARKS,
    PL_SCORE_IDS,
    PL_SHAPE,
    PLACE,
    REJECT,
    SCORE,
    SCORE_ACTIONS,
    SETUP_CALLER,
    SETUP_START,
    SHAPE_IDS,
    SHAPE_INDEX,
    SHAPE_NAMES,
    TILE_COLOUR,
    TILE_INDEX,
    TILE_OBJECT,
    TILES,
    cell_index,
    cell_xy,
    tile_words,
)

if TYPE_CHECKING:
    from .rules import MopsRoyalState

_CELL_RE = re.compile(r"\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?")
_PREFIX_RE = re.compile(r"^p\s*(\d+)\s*:\s*", re.I)
CELL_FORM = "(x,y) with -4 ≤ x, y ≤ 4, e.g. (1,-1)"


def _fmt_cell(i: int) -> str:
    """A window index as ``(x,y)``."""
    x, y = cell_xy(i)
    return f"({x},{y})"


def _parse_tile(word: str) -> int:
    """A tile named by its id or its short code."""
    w = word.strip().lower()
    if w in TILE_INDEX:
        return TILE_INDEX[w]
    for code, i in CODE_INDEX.items():
        if code.lower() == w:
            return i
    raise NotationError(
        f"{word!r} is not a tile: write <colour>-<object> (e.g. yellow-pug) or a short code "
        "(e.g. Ym)"
    )


def _parse_cells(text: str) -> list[int]:
    """Window indices of cells written ``(x,y) (x,y) ...``."""
    out = []
    rest = text.strip()
    while rest:
        m = _CELL_RE.match(rest)
        if not m:
            raise NotationError(f"cannot read a cell in {text!r}: write cells as {CELL_FORM}")
        x, y = int(m.group(1)), int(m.group(2))
        if not (-4 <= x <= 4 and -4 <= y <= 4):
            raise NotationError(
                f"cell ({x},{y}) is outside every layout: cells are {CELL_FORM}"
            )
        out.append(cell_index(x, y))
        rest = rest[m.end() :].strip()
    return out


def action_to_string(state: MopsRoyalState, action: int, player: int) -> str:
    """The string form of an action (rules 4.4), e.g. ``place (1,-1)``."""
    if player == CHANCE:
        ph = state.phase
        if ph == SETUP_START:
            return f"start {TILES[action]}"
        if ph == SETUP_CALLER:
            return f"caller P{action}"
        return f"reveal {TILES[action]}"
    if action < REJECT:
        return f"place {_fmt_cell(action)}"
    if action < NOSCORE:
        return f"reject {_fmt_cell(action - REJECT)}"
    if action == NOSCORE:
        return "noscore"
    if action == PASS:
        return "pass"
    if not SCORE <= action < NUM_ACTIONS:
        raise ValueError(f"no action has id {action}")
    k, f = SCORE_ACTIONS[action - SCORE]
    cells = sorted(PL_CELLS[k], key=lambda i: (CELL_ROW[i], CELL_COL[i]))
    return (
        f"score {SHAPE_IDS[PL_SHAPE[k]]} "
        + " ".join(_fmt_cell(i) for i in cells)
        + f" flip {_fmt_cell(f)}"
    )

def string_to_action(state: MopsRoyalState, text: str, player: int) -> int:
    """Read the string form of an action; :class:`NotationError` says what is wrong."""
    t = text.strip()
    m = _PREFIX_RE.match(t)
    if m:
        if int(m.group(1)) != player:
            raise NotationError(f"{text!r} names player {m.group(1)}, not player {player}")
        t = t[m.end() :]
    low = t.lower().strip()
    if player == CHANCE:
        words = low.split(None, 1)
        ph = state.phase
        want = {SETUP_START: "start", SETUP_CALLER: "caller"}.get(ph, "reveal")
        if len(words) != 2 or words[0] != want:
            form = {
                "start": "start <tile>",
                "caller": "caller P<seat>",
                "reveal": "reveal <tile>",
            }[want]
            raise NotationError(f"expected '{form}' at this chance node, got {text!r}")
        if want == "caller":
            num = words[1].lstrip("p").strip()
            if not num.isdigit():
                raise NotationError(f"expected 'caller P<seat>', got {text!r}")
            return int(num)
        return _parse_tile(words[1])
    compact = low.replace(" ", "")
    if compact in ("noscore", "no-score", "no_score", "decline"):
        return NOSCORE
    if compact == "pass":
        return PASS
    if compact == "sitout":
        raise NotationError("sitting out is automatic: there is nothing to choose")
    for word, base in (("place", PLACE), ("reject", REJECT)):
        if low.startswith(word):
            cells = _parse_cells(low[len(word) :])
            if len(cells) != 1:
                raise NotationError(f"expected '{word} (x,y)', got {text!r}")
            return base + cells[0]
    if low.startswith("score"):
        return _parse_score(low[5:], text)
    raise NotationError(
        f"cannot read {text!r}: expected 'place (x,y)', 'reject (x,y)', "
        "'score <shape> (x,y) ... flip (x,y)', 'noscore' or 'pass'"
    )

def _parse_score(body: str, text: str) -> int:
    """Read the part of a ``score`` action after the word."""
    form = (
        "'score <shape> (x,y) (x,y) (x,y) ... flip (x,y)', "
        "e.g. score V3 (0,0) (1,0) (1,1) flip (1,0)"
    )
    if "flip" not in body:
        raise NotationError(f"{text!r} names no tile to turn: expected {form}")
    head, _, tail = body.partition("flip")
    head = head.strip()
    tag = None
    m = re.match(r"^([a-z]\d)\b", head)
    if m:
        tag = m.group(1).upper()
        head = head[m.end() :]
        if tag not in SHAPE_INDEX:
            raise NotationError(
                f"{tag} is not a shape; the shapes are {', '.join(SHAPE_IDS)}"
            )
    cells = _parse_cells(head)
    flip = _parse_cells(tail)
    if len(flip) != 1:
        raise NotationError(f"expected exactly one cell after 'flip' in {text!r}")
    if len(set(cells)) != len(cells) or not 3 <= len(cells) <= 5:
        raise NotationError(f"a combination is 3 to 5 distinct cells: expected {form}")
    mask = 0
    for c in cells:
        mask |= 1 << c
    k = MASK_TO_PL.get(mask)
    if k is None:
        raise NotationError(
            f"the cells of {text!r} form none of the 17 combination shapes "
            "(the 2 × 2 square and the P, T, W and Z pentominoes are not combinations)"
        )
    shape = SHAPE_IDS[PL_SHAPE[k]]
    if tag is not None and tag != shape:
        raise NotationError(f"those cells form {shape}, not {tag}")
    f = flip[0]
    if f not in PL_MARKS[k]:
        marks = " or ".join(_fmt_cell(i) for i in PL_MARKS[k])
        raise NotationError(f"the tile to turn must be on a marked cell: here {marks}")
    return PL_SCORE_IDS[k][PL_MARKS[k].index(f)]

def action_to_dict(state: MopsRoyalState, action: int, player: int) -> dict[str, Any]:
    """The dict form of an action (rules 4.4), e.g. ``{"type": "place", "cell": [1, -1]}``."""
    if player == CHANCE:
        if state.phase == SETUP_START:
            return {"type": "start", "tile": TILES[action]}
        if state.phase == SETUP_CALLER:
            return {"type": "caller", "seat": action}
        return {"type": "reveal", "tile": TILES[action]}
    if action < REJECT:
        return {"type": "place", "cell": list(cell_xy(action))}
    if action < NOSCORE:
        return {"type": "reject", "cell": list(cell_xy(action - REJECT))}
    if action == NOSCORE:
        return {"type": "noscore"}
    if action == PASS:
        return {"type": "pass"}
    k, f = SCORE_ACTIONS[action - SCORE]
    cells = sorted(PL_CELLS[k], key=lambda i: (CELL_ROW[i], CELL_COL[i]))
    return {
        "type": "score",
        "shape": SHAPE_IDS[PL_SHAPE[k]],
        "cells": [list(cell_xy(i)) for i in cells],
        "flip": list(cell_xy(f)),
    }

def dict_to_action(state: MopsRoyalState, d: dict[str, Any], player: int) -> int:
    """Read the dict form of an action; :class:`NotationError` says what is wrong."""
    if "type" not in d:
        raise NotationError('an action dict needs a "type", e.g. {"type": "noscore"}')

    def cell(v: Any) -> str:
        if not (isinstance(v, (list, tuple)) and len(v) == 2
                and all(isinstance(c, int) for c in v)):
            raise NotationError(f"a cell is a pair of ints [x, y], got {v!r}")
        return f"({v[0]},{v[1]})"

    kind = d["type"]
    if kind in ("start", "reveal"):
        return state.string_to_action(f"{kind} {d.get('tile')}", player)
    if kind == "caller":
        return state.string_to_action(f"caller P{d.get('seat')}", player)
    if kind in ("place", "reject"):
        return state.string_to_action(f"{kind} {cell(d.get('cell'))}", player)
    if kind in ("noscore", "pass"):
        return state.string_to_action(kind, player)
    if kind == "score":
        cells = d.get("cells")
        if not isinstance(cells, list):
            raise NotationError('a score dict lists its "cells" as [[x, y], ...]')
        shape = d.get("shape", "")
        text = f"score {shape} " + " ".join(cell(c) for c in cells)
        return state.string_to_action(text + f" flip {cell(d.get('flip'))}", player)
    raise NotationError(
        f"unknown action type {kind!r}: place, reject, score, noscore, pass "
        "(chance: start, caller, reveal)"
    )

PLURALS = {"pillow": "pillows", "bone": "bones", "bowl": "bowls", "can": "cans",
           "poop": "poops", "pug": "pugs"}
"""Each object's plural, for a combination of one object."""


def the_tile(tile: int) -> str:
    """A tile with its article and crown: "the blue bone", "the pink pug with a crown"."""
    return f"the {tile_words(TILES[tile])}" + (" with a crown" if IS_CROWN[tile] else "")


def layout_place(cell: int) -> str:
    """A cell of a layout said from the start tile (x to the right, y down): "just above your
    start tile", "two to the left and one below your start tile"."""
    x, y = cell_xy(cell)
    return place_from(x, y, "your start tile")


def article(name: str) -> str:
    """A shape's name after "a" or "an": "a short line", "an L of four"."""
    return ("an " if name[:2] in ("L ", "N ", "F ") else "a ") + name


def _shared(state: MopsRoyalState, player: int, cells: tuple[int, ...] | list[int]) -> str:
    """What the tiles on ``cells`` of ``player``'s layout share: "blue tiles" or "bones"."""
    tiles = [state.board[player * NCELLS + i] for i in cells]
    if any(t < 0 for t in tiles):
        return "tiles"
    colours = {TILE_COLOUR[t] for t in tiles}
    if len(colours) == 1:
        return f"{COLOURS[colours.pop()]} tiles"
    objects = {TILE_OBJECT[t] for t in tiles}
    if len(objects) == 1:
        return PLURALS[OBJECTS[objects.pop()]]
    return "tiles"


_ORDINALS = ("first", "second", "third", "fourth")


def seat_words(seat: int) -> str:
    """A seat said without a name, for a chance event: "second player in seat order" (the log
    names players only in front of their own moves)."""
    return f"{_ORDINALS[seat]} player in seat order"


def describe_action(state: MopsRoyalState, action: int, player: int) -> dict[str, Any]:
    """The label of an action and the ids of the cells it points at in the picture."""
    if player == CHANCE:
        if state.phase == SETUP_START:
            label = f"A start tile: {the_tile(action)}"
        elif state.phase == SETUP_CALLER:
            label = f"The first caller: the {seat_words(action)}"
        else:
            label = f"The caller reveals {the_tile(action)}"
        return {"kind": "chance", "label": label}
    if action < REJECT:
        x, y = cell_xy(action)
        tid = f"cell-{player}-{CELL_ROW[action]}-{CELL_COL[action]}"
        return {
            "kind": "place",
            "label": f"Place {the_tile(state.tile)} {layout_place(action)}",
            "target": tid,
            "cells": [tid],
            "cell": [x, y],
        }
    if action < NOSCORE:
        c = action - REJECT
        x, y = cell_xy(c)
        tid = f"cell-{player}-{CELL_ROW[c]}-{CELL_COL[c]}"
        cost = state.rej[player] + 2
        return {
            "kind": "reject",
            "label": f"Reject {the_tile(state.tile)} for {cost} points: stack it face down "
            f"{layout_place(c)}",
            "target": tid,
            "cells": [tid],
            "cell": [x, y],
            "cost": cost,
        }
    if action == NOSCORE:
        return {"kind": "noscore", "label": "Score nothing this round"}
    if action == PASS:
        return {"kind": "pass", "label": "Pass: no combination left"}
    k, f = SCORE_ACTIONS[action - SCORE]
    shape = SHAPE_IDS[PL_SHAPE[k]]
    pts = state.combination_points(player, k)
    ids = [f"cell-{player}-{CELL_ROW[i]}-{CELL_COL[i]}" for i in PL_CELLS[k]]
    fx, fy = cell_xy(f)
    flip = state.board[player * NCELLS + f]
    turned = the_tile(flip) if flip >= 0 else "the tile"
    return {
        "kind": "score",
        "label": f"Score {article(SHAPE_NAMES[shape])} of {_shared(state, player, PL_CELLS[k])}"
        f" for {pts} point{'s' if pts != 1 else ''}, turning face down {turned} "
        f"{layout_place(f)}",
        "target": f"cell-{player}-{CELL_ROW[f]}-{CELL_COL[f]}",
        "cells": ids,
        "shape": shape,
        "points": pts,
        "combination": [list(cell_xy(i)) for i in PL_CELLS[k]],
        "flip": [fx, fy],
    }
