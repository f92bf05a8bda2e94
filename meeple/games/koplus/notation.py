"""KoPlus notation (rules page 2.6): actions as text (``U2@6,5``, ``pass``, ``deal S05/1 @4``),
as dicts, and the labels and pointer targets the clients show for them."""

from __future__ import annotations

import re
from typing import Any, Protocol

from meeple.engine import CHANCE, NotationError
from meeple.engine.grid import Grid
from meeple.engine.i18n import N_, memo, words

from .components import SHAPE_NAMES, SHAPE_TARGET

_, _n = words(__file__)


class Board(Protocol):
    """What the notation reads of the board's geometry (``rules.Geometry`` is one)."""

    size: int
    rows: int
    cols: int
    grid: Grid
    pass_id: int
    mask: list[int]

    def cells_of(self, action: int) -> list[tuple[int, int]]: ...


class Setup(Protocol):
    """What the notation reads of the game (``rules.KoPlus`` is one)."""

    section_count: int


class Position(Protocol):
    """What the notation reads of a position (``rules.KoPlusState`` is one): the rules
    import this module, never the other way round."""

    layout: tuple[tuple[int, int], ...]
    psum: bytes | None

    @property
    def game(self) -> Setup: ...

    @property
    def geo(self) -> Board: ...


PLACE = re.compile(r"^(X|U\s*([0-3]))\s*@?\s*(\d+)\s*[,;\s]\s*(\d+)$", re.IGNORECASE)
DEAL = re.compile(r"^(?:deal\s*)?S?\s*(\d{1,2})\s*/\s*(\d)\s*(?:@\s*(\d+))?$", re.IGNORECASE)
PLACE_FORM = N_("expected 'X@r,c', 'Uk@r,c' (k = 0..3, e.g. 'U2@6,5') or 'pass'")
DICT_FORM = N_('expected {"type": "place", "shape": "X" or "U0".."U3", "cell": [r, c]} or '
               '{"type": "pass"}')


def section_name(section: int) -> str:
    """A section's printed name: ``S01`` ... ``S16``."""
    return f"S{section + 1:02d}"


def placement(state: Position, action: int) -> tuple[int, int, int]:
    """A placement's orientation index (0 = X, 1..4 = U0..U3) and anchor row and column."""
    geo = state.geo
    k, rest = divmod(action, geo.size)
    r, c = geo.grid.cell(rest)
    return k, r, c


def action_to_string(state: Position, action: int, player: int) -> str:
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


def parse_place(state: Position, text: str) -> int:
    """The action id of a placement written ``X@r,c`` or ``Uk@r,c``."""
    m = PLACE.match(text.strip())
    if not m:
        raise NotationError(_("cannot read {text}: {form}", text=repr(text), form=_(PLACE_FORM)))
    k = 0 if m.group(2) is None else 1 + int(m.group(2))
    r, c = int(m.group(3)), int(m.group(4))
    geo = state.geo
    if not geo.grid.inside(r, c):
        raise NotationError(_(
            "{text}: the anchor (top-left of the shape's box) must be a cell of the "
            "board, rows 0..{last_row}, columns 0..{last_col}",
            text=repr(text), last_row=str(geo.rows - 1), last_col=str(geo.cols - 1)))
    return k * geo.size + geo.grid.index(r, c)


def string_to_action(state: Position, text: str, player: int) -> int:
    """The action id of a text form (see :func:`action_to_string`)."""
    if player == CHANCE:
        m = DEAL.match(text)
        count = state.game.section_count
        last = f"{count:02d}"
        form = _("expected 'deal Snn/q @pos' (nn = 01..{count}, q = 0..3), e.g. "
                 "'deal S05/1 @4'", count=last)
        if not m:
            raise NotationError(_("cannot read {text}: {form}", text=repr(text), form=form))
        n, q = int(m.group(1)), int(m.group(2))
        if not (1 <= n <= count and 0 <= q <= 3):
            raise NotationError(_("{text}: {form}", text=repr(text), form=form))
        if m.group(3) is not None and int(m.group(3)) != len(state.layout):
            raise NotationError(_("{text}: the next section goes to position {position}",
                                  text=repr(text), position=str(len(state.layout))))
        return 4 * (n - 1) + q
    if text.strip().lower() == "pass":
        return state.geo.pass_id
    return parse_place(state, text)


TURNS = (N_("Board section {section} is laid in place {place}, as printed"),
         N_("Board section {section} is laid in place {place}, turned a quarter to the right"),
         N_("Board section {section} is laid in place {place}, turned half around"),
         N_("Board section {section} is laid in place {place}, turned a quarter to the left"))
"""A section's rotation (quarter turns clockwise) in words."""


U_LOG = (
    N_("places a U opening up with the middle of its bottom side on {where}"),
    N_("places a U opening right with the middle of its left side on {where}"),
    N_("places a U opening down with the middle of its top side on {where}"),
    N_("places a U opening left with the middle of its right side on {where}"),
)
"""The move log's words for a U laid in orientation U0..U3."""
U_LABEL = (
    N_("Lay a U opening up, the middle of its bottom side on {where}"),
    N_("Lay a U opening right, the middle of its left side on {where}"),
    N_("Lay a U opening down, the middle of its top side on {where}"),
    N_("Lay a U opening left, the middle of its right side on {where}"),
)
"""A move's label for a U laid in orientation U0..U3."""


def u_words(k: int, where: str) -> str:
    """The log's words for a U of orientation index ``k`` (1..4) laid at ``where``."""
    return _(U_LOG[k - 1], where=where)


def place_words(r: int, c: int) -> str:
    """A cell as the board's rows and columns count it, from 1: "row 7, column 6"."""
    return _("row {row}, column {column}", row=r + 1, column=c + 1)


def describe_action(state: Position, action: int, player: int) -> dict[str, Any]:
    """A label in player words, and the cell ids the client points at and highlights."""
    if player == CHANCE:
        section, q = divmod(action, 4)
        return {
            "kind": "deal",
            "label": _(TURNS[q], section=section + 1, place=len(state.layout) + 1),
        }
    geo = state.geo
    if action == geo.pass_id:
        return {
            "kind": "pass",
            "label": _("Pass: no place left for your tile"),
            "target": None,
        }
    points = state.psum[action] if state.psum is not None and geo.mask[action] else None
    said = _placement_words(geo, action, points)
    return {**said, "anchor": list(said["anchor"]), "cells": list(said["cells"])}


@memo(maxsize=16384)
def _placement_words(geo: Board, action: int, points: int | None) -> dict[str, Any]:
    """:func:`describe_action` of a placement on a board of ``geo``'s size catching
    ``points`` (the same on every table: kept once per language)."""
    k, rest = divmod(action, geo.size)
    r, c = geo.grid.cell(rest)
    name = SHAPE_NAMES[k]
    tr, tc = SHAPE_TARGET[name]
    where = place_words(r + tr, c + tc)
    if k == 0:
        label = _("Lay a plus centred on {where}", where=where)
    else:
        label = _(U_LABEL[k - 1], where=where)
    if points is not None:
        label = _n("{label}: catches {n} point", "{label}: catches {n} points", points,
                   label=label)
    return {
        "kind": "place",
        "label": label,
        "shape": name,
        "anchor": (r, c),
        "points": points,
        "target": f"cell-{r + tr}-{c + tc}",
        "cells": tuple(f"cell-{rr}-{cc}" for rr, cc in geo.cells_of(action)),
    }


def action_to_dict(state: Position, action: int, player: int) -> dict[str, Any]:
    """The rules' dict form of an action."""
    if player == CHANCE:
        n, q = divmod(action, 4)
        return {"type": "deal", "section": section_name(n), "rotation": q,
                "position": len(state.layout)}
    if action == state.geo.pass_id:
        return {"type": "pass"}
    k, r, c = placement(state, action)
    return {"type": "place", "shape": SHAPE_NAMES[k], "cell": [r, c]}


def dict_to_action(state: Position, move: dict[str, Any], player: int) -> int:
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
        raise NotationError(_("{move}: {form}", move=repr(move), form=_(DICT_FORM)))
    return parse_place(state, f"{shape}@{cell[0]},{cell[1]}")
