"""KoPlus notation (rules page 2.6): actions as text (``U2@6,5``, ``pass``, ``deal S05/1 @4``),
as dicts, and the labels and pointer targets the clients show for them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from meeple.engine import CHANCE, NotationError

from .components import SHAPE_NAMES, SHAPE_TARGET

if TYPE_CHECKING:
    from .rules import KoPlusState

PLACE = re.compile(r"^(X|U\s*([0-3]))\s*@?\s*(\d+)\s*[,;\s]\s*(\d+)$", re.IGNORECASE)
DEAL = re.compile(r"^(?:deal\s*)?S?\s*(\d{1,2})\s*/\s*(\d)\s*(?:@\s*(\d+))?$", re.IGNORECASE)
PLACE_FORM = "expected 'X@r,c', 'Uk@r,c' (k = 0..3, e.g. 'U2@6,5') or 'pass'"
DICT_FORM = ('expected {"type": "place", "shape": "X" or "U0".."U3", "cell": [r, c]} or '
             '{"type": "pass"}')
OPENINGS = ("up", "right", "down", "left")
"""Where the U of orientation U0..U3 opens."""


def section_name(section: int) -> str:
    """A section's printed name: ``S01`` ... ``S16``."""
    return f"S{section + 1:02d}"


def placement(state: KoPlusState, action: int) -> tuple[int, int, int]:
    """A placement's orientation index (0 = X, 1..4 = U0..U3) and anchor row and column."""
    geo = state.geo
    k, rest = divmod(action, geo.size)
    r, c = geo.grid.cell(rest)
    return k, r, c


def action_to_string(state: KoPlusState, action: int, player: int) -> str:
    """``X@r,c``, ``Uk@r,c`` or ``pass``; a chance outcome is ``deal Snn/q @pos``."""
    if player == CHANCE:
        section, q = divmod(action, 4)
        return f"deal {section_name(section)}/{q} @{len(state.layout)}"
    geo = state.geo
    if action == geo.pass_id:
        return "pass"
    if not 0 <= action < geo.pass_id:
        raise ValueError(f"no KoPlus action has id {action}")
    k, r, c = placement(state, action)
    return f"{SHAPE_NAMES[k]}@{r},{c}"


def parse_place(state: KoPlusState, text: str) -> int:
    """The action id of a placement written ``X@r,c`` or ``Uk@r,c``."""
    m = PLACE.match(text.strip())
    if not m:
        raise NotationError(f"cannot read {text!r}: {PLACE_FORM}")
    k = 0 if m.group(2) is None else 1 + int(m.group(2))
    r, c = int(m.group(3)), int(m.group(4))
    geo = state.geo
    if not geo.grid.inside(r, c):
        raise NotationError(
            f"{text!r}: the anchor (top-left of the shape's box) must be a cell of the "
            f"board, rows 0..{geo.rows - 1}, columns 0..{geo.cols - 1}"
        )
    return k * geo.size + geo.grid.index(r, c)


def string_to_action(state: KoPlusState, text: str, player: int) -> int:
    """The action id of a text form (see :func:`action_to_string`)."""
    if player == CHANCE:
        m = DEAL.match(text)
        count = state.game.section_count
        form = f"expected 'deal Snn/q @pos' (nn = 01..{count}, q = 0..3), e.g. 'deal S05/1 @4'"
        if not m:
            raise NotationError(f"cannot read {text!r}: {form}")
        n, q = int(m.group(1)), int(m.group(2))
        if not (1 <= n <= count and 0 <= q <= 3):
            raise NotationError(f"{text!r}: {form}")
        if m.group(3) is not None and int(m.group(3)) != len(state.layout):
            raise NotationError(
                f"{text!r}: the next section goes to position {len(state.layout)}"
            )
        return 4 * (n - 1) + q
    if text.strip().lower() == "pass":
        return state.geo.pass_id
    return parse_place(state, text)


TURNS = ("as printed", "turned a quarter to the right", "turned half around",
         "turned a quarter to the left")
"""A section's rotation (quarter turns clockwise) in words."""
BASES = ("bottom", "left", "top", "right")
"""Where the base (the side opposite the opening) of U0..U3 is."""


def place_words(r: int, c: int) -> str:
    """A cell as the board's rows and columns count it, from 1: "row 7, column 6"."""
    return f"row {r + 1}, column {c + 1}"


def describe_action(state: KoPlusState, action: int, player: int) -> dict[str, Any]:
    """A label in player words, and the cell ids the client points at and highlights."""
    if player == CHANCE:
        section, q = divmod(action, 4)
        return {
            "kind": "deal",
            "label": f"Board section {section + 1} is laid in place {len(state.layout) + 1}, "
            f"{TURNS[q]}",
        }
    geo = state.geo
    if action == geo.pass_id:
        return {
            "kind": "pass",
            "label": "Pass: no place left for your tile",
            "target": None,
        }
    k, r, c = placement(state, action)
    name = SHAPE_NAMES[k]
    cells = state.cells_of(action)
    tr, tc = SHAPE_TARGET[name]
    points = state.psum[action] if state.psum is not None and geo.mask[action] else None
    where = place_words(r + tr, c + tc)
    if k == 0:
        label = f"Lay a plus centred on {where}"
    else:
        label = (f"Lay a U opening {OPENINGS[k - 1]}, the middle of its {BASES[k - 1]} "
                 f"side on {where}")
    if points is not None:
        label += f": catches {points} point{'s' if points != 1 else ''}"
    return {
        "kind": "place",
        "label": label,
        "shape": name,
        "anchor": [r, c],
        "points": points,
        "target": f"cell-{r + tr}-{c + tc}",
        "cells": [f"cell-{rr}-{cc}" for rr, cc in cells],
    }


def action_to_dict(state: KoPlusState, action: int, player: int) -> dict[str, Any]:
    """The rules' dict form of an action."""
    if player == CHANCE:
        n, q = divmod(action, 4)
        return {"type": "deal", "section": section_name(n), "rotation": q,
                "position": len(state.layout)}
    if action == state.geo.pass_id:
        return {"type": "pass"}
    k, r, c = placement(state, action)
    return {"type": "place", "shape": SHAPE_NAMES[k], "cell": [r, c]}


def dict_to_action(state: KoPlusState, move: dict[str, Any], player: int) -> int:
    """The action id of the rules' dict form: ``{"type": "place", "shape": "U2", "cell":
    [6, 5]}``, ``{"type": "pass"}`` or (chance) ``{"type": "deal", "section": "S05",
    "rotation": 1, "position": 4}``; :class:`NotationError` on anything else."""
    if player == CHANCE:
        text = f"deal {move.get('section')}/{move.get('rotation')} @{move.get('position')}"
        return string_to_action(state, text, player)
    if move.get("type") == "pass":
        return state.geo.pass_id
    cell = move.get("cell")
    shape = move.get("shape")
    if (
        move.get("type") != "place"
        or shape not in SHAPE_NAMES
        or not isinstance(cell, (list, tuple))
        or len(cell) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
    ):
        raise NotationError(f"{move!r}: {DICT_FORM}")
    return parse_place(state, f"{shape}@{cell[0]},{cell[1]}")
