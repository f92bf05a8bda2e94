"""Mops Royal notation: actions as strings (rules 4.4), as dicts, and their labels."""

from __future__ import annotations

import re
from typing import Any, Protocol

from meeple.engine import CHANCE, NotationError
from meeple.engine.i18n import N_, words
from meeple.engine.words import number_word, said_of_others

from .components import (
    CELL_COL,
    CELL_ROW,
    CODE_INDEX,
    MASK_TO_PL,
    NCELLS,
    NOSCORE,
    NUM_ACTIONS,
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
    TILE_COLOUR,
    TILE_INDEX,
    TILE_OBJECT,
    TILES,
    cell_index,
    cell_xy,
    the_tile_words,
)

_CELL_RE = re.compile(r"\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?")
_PREFIX_RE = re.compile(r"^p\s*(\d+)\s*:\s*", re.I)

_, _n = words(__file__)


class Position(Protocol):
    """What the notation reads of a position (``rules.MopsRoyalState`` is one): the rules
    import this module, never the other way round."""

    board: list[int]
    phase: int
    rej: list[int]
    tile: int

    def combination_points(self, p: int, k: int) -> int: ...

    def string_to_action(self, text: str, player: int | None = None) -> int: ...


def _cell_form() -> str:
    """How a cell is written, for a refusal."""
    return _("(x,y) with -4 ≤ x, y ≤ 4, e.g. (1,-1)")


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
    raise NotationError(_(
        "{word} is not a tile: write <colour>-<object> (e.g. yellow-pug) or a short code "
        "(e.g. Ym)", word=repr(word)))


def _parse_cells(text: str) -> list[int]:
    """Window indices of cells written ``(x,y) (x,y) ...``."""
    out = []
    rest = text.strip()
    while rest:
        m = _CELL_RE.match(rest)
        if not m:
            raise NotationError(_("cannot read a cell in {text}: write cells as {form}",
                                  text=repr(text), form=_cell_form()))
        x, y = int(m.group(1)), int(m.group(2))
        if not (-4 <= x <= 4 and -4 <= y <= 4):
            where = f"({x},{y})"
            raise NotationError(_("cell {cell} is outside every layout: cells are {form}",
                                  cell=where, form=_cell_form()))
        out.append(cell_index(x, y))
        rest = rest[m.end() :].strip()
    return out


def action_to_string(state: Position, action: int, player: int) -> str:
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

def string_to_action(state: Position, text: str, player: int) -> int:
    """Read the string form of an action; :class:`NotationError` says what is wrong."""
    t = text.strip()
    m = _PREFIX_RE.match(t)
    if m:
        if int(m.group(1)) != player:
            raise NotationError(_("{text} names player {named}, not player {player}",
                                  text=repr(text), named=m.group(1), player=str(player)))
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
            raise NotationError(_("expected {form} at this chance node, got {text}",
                                  form=repr(form), text=repr(text)))
        if want == "caller":
            num = words[1].lstrip("p").strip()
            if not num.isdigit():
                raise NotationError(_("expected {form} at this chance node, got {text}",
                                      form="'caller P<seat>'", text=repr(text)))
            return int(num)
        return _parse_tile(words[1])
    compact = low.replace(" ", "")
    if compact in ("noscore", "no-score", "no_score", "decline"):
        return NOSCORE
    if compact == "pass":
        return PASS
    if compact == "sitout":
        raise NotationError(_("sitting out is automatic: there is nothing to choose"))
    for word, base in (("place", PLACE), ("reject", REJECT)):
        if low.startswith(word):
            cells = _parse_cells(low[len(word) :])
            if len(cells) != 1:
                form = repr(word + " (x,y)")
                raise NotationError(_("expected {form}, got {text}", form=form,
                                      text=repr(text)))
            return base + cells[0]
    if low.startswith("score"):
        return _parse_score(low[5:], text)
    raise NotationError(_(
        "cannot read {text}: expected 'place (x,y)', 'reject (x,y)', "
        "'score <shape> (x,y) ... flip (x,y)', 'noscore' or 'pass'", text=repr(text)))

def _parse_score(body: str, text: str) -> int:
    """Read the part of a ``score`` action after the word."""
    form = (
        "'score <shape> (x,y) (x,y) (x,y) ... flip (x,y)', "
        "e.g. score V3 (0,0) (1,0) (1,1) flip (1,0)"
    )
    if "flip" not in body:
        raise NotationError(_("{text} names no tile to turn: expected {form}",
                              text=repr(text), form=form))
    head, _sep, tail = body.partition("flip")
    head = head.strip()
    tag = None
    m = re.match(r"^([a-z]\d)\b", head)
    if m:
        tag = m.group(1).upper()
        head = head[m.end() :]
        if tag not in SHAPE_INDEX:
            raise NotationError(_("{tag} is not a shape; the shapes are {shapes}",
                                  tag=tag, shapes=", ".join(SHAPE_IDS)))
    cells = _parse_cells(head)
    flip = _parse_cells(tail)
    if len(flip) != 1:
        raise NotationError(_("expected exactly one cell after 'flip' in {text}",
                              text=repr(text)))
    if len(set(cells)) != len(cells) or not 3 <= len(cells) <= 5:
        raise NotationError(_("a combination is 3 to 5 distinct cells: expected {form}",
                              form=form))
    mask = 0
    for c in cells:
        mask |= 1 << c
    k = MASK_TO_PL.get(mask)
    if k is None:
        raise NotationError(_(
            "the cells of {text} form none of the 17 combination shapes "
            "(the 2 × 2 square and the P, T, W and Z pentominoes are not combinations)",
            text=repr(text)))
    shape = SHAPE_IDS[PL_SHAPE[k]]
    if tag is not None and tag != shape:
        raise NotationError(_("those cells form {shape}, not {tag}", shape=shape, tag=tag))
    f = flip[0]
    if f not in PL_MARKS[k]:
        marks = [_fmt_cell(i) for i in PL_MARKS[k]]
        raise NotationError(_("the tile to turn must be on a marked cell: here {cells}",
                              cells=marks[0] if len(marks) == 1 else
                              _("{first} or {last}", first=marks[0], last=marks[1])))
    return PL_SCORE_IDS[k][PL_MARKS[k].index(f)]

def action_to_dict(state: Position, action: int, player: int) -> dict[str, Any]:
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

def dict_to_action(state: Position, d: dict[str, Any], player: int) -> int:
    """Read the dict form of an action; :class:`NotationError` says what is wrong."""
    if "type" not in d:
        raise NotationError(_('an action dict needs a "type", e.g. {example}',
                              example='{"type": "noscore"}'))

    def cell(v: Any) -> str:
        if not (isinstance(v, (list, tuple)) and len(v) == 2
                and all(isinstance(c, int) for c in v)):
            raise NotationError(_("a cell is a pair of ints [x, y], got {value}",
                                  value=repr(v)))
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
            raise NotationError(_('a score dict lists its "cells" as [[x, y], ...]'))
        shape = d.get("shape", "")
        text = f"score {shape} " + " ".join(cell(c) for c in cells)
        return state.string_to_action(text + f" flip {cell(d.get('flip'))}", player)
    raise NotationError(_(
        "unknown action type {kind}: place, reject, score, noscore, pass "
        "(chance: start, caller, reveal)", kind=repr(kind)))

# ------------------------------------------------------------------ words
A_SHAPE: dict[str, str] = {
    "I3": N_("a short line"), "V3": N_("a small corner"), "D3": N_("a short diagonal"),
    "I4": N_("a line of four"), "L4": N_("an L of four"), "D4": N_("a diagonal of four"),
    "S4": N_("a skew of four"), "T4": N_("a T of four"), "I5": N_("a line of five"),
    "D5": N_("a long diagonal"), "V5": N_("a big corner"), "L5": N_("an L of five"),
    "N5": N_("an N of five"), "F5": N_("an F of five"), "U5": N_("a U of five"),
    "X5": N_("a plus"), "Y5": N_("a Y of five"),
}
"""Each shape with its article, said inside a sentence ("scores a small corner of ...")."""

# TRANSLATORS: what the tiles of a combination share, in "a small corner of blue tiles"
COLOUR_TILES: tuple[str, ...] = (N_("blue tiles"), N_("green tiles"), N_("orange tiles"),
                                 N_("pink tiles"), N_("purple tiles"), N_("yellow tiles"))
"""Tiles of one colour, in index order, as in "a small corner of blue tiles"."""
# TRANSLATORS: what the tiles of a combination share, in "a small corner of bones"
OBJECT_TILES: tuple[str, ...] = (N_("pillows"), N_("bones"), N_("bowls"), N_("cans"),
                                 N_("poops"), N_("pugs"))
"""Tiles of one object, in index order, as in "a small corner of bones"."""
# TRANSLATORS: the order of the players around the table
ORDINALS: tuple[str, ...] = (N_("first"), N_("second"), N_("third"), N_("fourth"))
"""The seats in words, in "the second player in seat order"."""


def the_tile(tile: int) -> str:
    """A tile with its article and crown: "the blue bone", "the pink pug with a crown"."""
    return the_tile_words(tile)


def layout_place(cell: int, theirs: bool | None = None) -> str:
    """A cell of a layout said from the start tile (x to the right, y down): "just above your
    start tile", "two to the left and one below your start tile"; with ``theirs``, of the
    player who moved, for the log ("their start tile"); by default "their" only where the
    engine says a move of someone else (inside :func:`meeple.engine.words.of_them`)."""
    if theirs is None:
        theirs = said_of_others()
    x, y = cell_xy(cell)
    if x == 0 and y == 0:
        return _("on their start tile") if theirs else _("on your start tile")
    if abs(x) + abs(y) == 1:
        if y == -1:
            return _("just above their start tile") if theirs else _("just above your start tile")
        if y == 1:
            return _("just below their start tile") if theirs else _("just below your start tile")
        if x == -1:
            return (_("next to their start tile, on the left") if theirs
                    else _("next to your start tile, on the left"))
        return (_("next to their start tile, on the right") if theirs
                else _("next to your start tile, on the right"))
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
        return (_("{across} of their start tile", across=across) if theirs
                else _("{across} of your start tile", across=across))
    if not across:
        return (_("{down} their start tile", down=down) if theirs
                else _("{down} your start tile", down=down))
    return (_("{across} and {down} their start tile", across=across, down=down) if theirs
            else _("{across} and {down} your start tile", across=across, down=down))


def _shared(state: Position, player: int, cells: tuple[int, ...] | list[int]) -> str:
    """What the tiles on ``cells`` of ``player``'s layout share: "blue tiles" or "bones"."""
    tiles = [state.board[player * NCELLS + i] for i in cells]
    if any(t < 0 for t in tiles):
        return _("tiles")
    colours = {TILE_COLOUR[t] for t in tiles}
    if len(colours) == 1:
        return _(COLOUR_TILES[colours.pop()])
    objects = {TILE_OBJECT[t] for t in tiles}
    if len(objects) == 1:
        return _(OBJECT_TILES[objects.pop()])
    return _("tiles")


def ordinal(seat: int) -> str:
    """A seat's place in the seat order in words: "first", "second"."""
    return _(ORDINALS[seat])


def score_words(state: Position, action: int, player: int, log: bool = False) -> str:
    """What a scoring action does in words: the label ("Score a small corner of bowls for 3
    points, turning face down ...") or, with ``log``, the log's sentence of it ("scores
    ...")."""
    k, f = SCORE_ACTIONS[action - SCORE]
    shape = SHAPE_IDS[PL_SHAPE[k]]
    pts = state.combination_points(player, k)
    flip = state.board[player * NCELLS + f]
    params = {"shape": _(A_SHAPE[shape]), "tiles": _shared(state, player, PL_CELLS[k]),
              "tile": the_tile(flip) if flip >= 0 else _("the tile"),
              "place": layout_place(f, theirs=True if log else None)}
    if log:
        return _n("scores {shape} of {tiles} for {n} point, turning face down {tile} {place}.",
                  "scores {shape} of {tiles} for {n} points, turning face down {tile} {place}.",
                  pts, **params)
    return _n("Score {shape} of {tiles} for {n} point, turning face down {tile} {place}",
              "Score {shape} of {tiles} for {n} points, turning face down {tile} {place}",
              pts, **params)


def describe_action(state: Position, action: int, player: int) -> dict[str, Any]:
    """The label of an action and the ids of the cells it points at in the picture."""
    if player == CHANCE:
        if state.phase == SETUP_START:
            label = _("A start tile: {tile}", tile=the_tile(action))
        elif state.phase == SETUP_CALLER:
            label = _("The first caller: the {ordinal} player in seat order",
                      ordinal=ordinal(action))
        else:
            label = _("The caller reveals {tile}", tile=the_tile(action))
        return {"kind": "chance", "label": label}
    if action < REJECT:
        x, y = cell_xy(action)
        tid = f"cell-{player}-{CELL_ROW[action]}-{CELL_COL[action]}"
        return {
            "kind": "place",
            "label": _("Place {tile} {place}", tile=the_tile(state.tile),
                       place=layout_place(action)),
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
            "label": _n("Reject {tile} for {n} point: stack it face down {place}",
                        "Reject {tile} for {n} points: stack it face down {place}", cost,
                        tile=the_tile(state.tile), place=layout_place(c)),
            "target": tid,
            "cells": [tid],
            "cell": [x, y],
            "cost": cost,
        }
    if action == NOSCORE:
        return {"kind": "noscore", "label": _("Score nothing this round")}
    if action == PASS:
        return {"kind": "pass", "label": _("Pass: no combination left")}
    k, f = SCORE_ACTIONS[action - SCORE]
    shape = SHAPE_IDS[PL_SHAPE[k]]
    pts = state.combination_points(player, k)
    ids = [f"cell-{player}-{CELL_ROW[i]}-{CELL_COL[i]}" for i in PL_CELLS[k]]
    fx, fy = cell_xy(f)
    return {
        "kind": "score",
        "label": score_words(state, action, player),
        "target": f"cell-{player}-{CELL_ROW[f]}-{CELL_COL[f]}",
        "cells": ids,
        "shape": shape,
        "points": pts,
        "combination": [list(cell_xy(i)) for i in PL_CELLS[k]],
        "flip": [fx, fy],
    }
