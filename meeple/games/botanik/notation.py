"""Botanik notation: actions as text and as dicts, both ways, and their labels.

Plain functions of the state, called by the hooks of :class:`~.rules.BotanikState`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from meeple.engine import CHANCE, NotationError
from meeple.engine.words import place_from

from .components import (
    ADD_BASE,
    COLUMNS,
    DEAL,
    MAX_REACH,
    NUM_COLOURED,
    SWAP_BASE,
    add_action,
    add_parts,
    exits_text,
    rotate,
    tile_words,
)

if TYPE_CHECKING:
    from .rules import BotanikState


def action_to_string(state: BotanikState, action: int, player: int) -> str:
    """An action in the text notation (rules.md §2.7)."""
    ids = state.ts.ids
    if player == CHANCE:
        word = "deal" if state.phase == DEAL else "reveal"
        return f"{word} {ids[action]}"
    if action < ADD_BASE:
        t, rest = divmod(action, 10)
        if rest < 5:
            return f"own {ids[t]}@{rest}"
        return f"pile {ids[t]}@{rest - 5}"
    if action < SWAP_BASE:
        r, c, k = add_parts(action)
        tile = ids[state.pend_tile] if state.pend_tile >= 0 else ""
        return f"add {tile}@{r},{c}/{k}"
    return f"swap {action - SWAP_BASE}"


FORMS = (
    "expected one of: 'own R-EL1@0', 'pile R-EL1@3', 'add Y-EL2@0,1/3' "
    "(cell row,column / quarter turns clockwise), 'swap 1'"
)


def parse_tile(state: BotanikState, text: str) -> int:
    """The id of a coloured tile written as text (``R-EL1``)."""
    t = state.ts.index.get(text.strip().upper())
    if t is None or t >= NUM_COLOURED:
        raise NotationError(
            f"{text.strip()!r} is not a tile: tiles are written colour-type, e.g. R-EL1, "
            "G-PL, K-MB (colours R Y G B K; types ST1-3 EL1-3 TE1-3 CR PL VE MB)"
        )
    return t


def string_to_action(state: BotanikState, text: str, player: int) -> int:
    """The id of an action written in the text notation; :class:`NotationError` says the
    expected forms."""
    s = " ".join(text.lower().split())
    if player == CHANCE:
        m = re.fullmatch(r"(deal|reveal)\s*([a-z0-9]+(?:\s*-\s*[a-z0-9]+)?)", s)
        if not m:
            raise NotationError(f"expected 'deal R-ST2' or 'reveal R-EL1', got {text!r}")
        return parse_tile(state, m.group(2).replace(" ", ""))
    m = re.fullmatch(r"(own|pile)\s*([a-z0-9]+(?:\s*-\s*[a-z0-9]+)?)\s*@\s*(\d+)", s)
    if m:
        t = parse_tile(state, m.group(2).replace(" ", ""))
        j = int(m.group(3))
        if j >= COLUMNS:
            raise NotationError(f"column {j} does not exist: columns are 0 to 4")
        return 10 * t + (0 if m.group(1) == "own" else 5) + j
    m = re.fullmatch(r"swap\s*(\d+)", s)
    if m:
        j = int(m.group(1))
        if j >= COLUMNS:
            raise NotationError(f"pile {j} does not exist: piles are 0 to 4")
        return SWAP_BASE + j
    m = re.fullmatch(
        r"add\s*([a-z][a-z0-9]*(?:\s*-\s*[a-z0-9]+)?)?\s*@?\s*(-?\d+)\s*,\s*(-?\d+)"
        r"\s*(?:/\s*(\d+))?",
        s,
    )
    if m:
        r, c = int(m.group(2)), int(m.group(3))
        if abs(r) > 60 or abs(c) > 60:
            raise NotationError(f"cell {r},{c} is out of reach: rows and columns are -60..60")
        tile = state.pend_tile
        if m.group(1):
            named = parse_tile(state, m.group(1).replace(" ", ""))
            if tile >= 0 and named != tile:
                raise NotationError(
                    f"the tile being added is {state.ts.ids[tile]}, not {state.ts.ids[named]}"
                )
            if tile < 0:
                tile = named
        if m.group(4) is None:
            ks = [a for a in state.legal_actions(player) if ADD_BASE <= a < SWAP_BASE
                  and add_parts(a)[:2] == (r, c)]
            if len(ks) != 1:
                raise NotationError(
                    f"say the rotation: 'add @{r},{c}/k' with k quarter turns clockwise (0-3)"
                )
            return ks[0]
        k = int(m.group(4))
        if k > 3:
            raise NotationError(f"rotation {k} does not exist: k is 0 to 3 quarter turns")
        if tile >= 0:
            k = state.ts.canonical(tile, k)
        return add_action(r, c, k)
    raise NotationError(f"cannot read {text!r}: {FORMS}")


# dict form (rules.md §2.7); chance outcomes are {"type": "deal" | "reveal", "tile": id}

DICT_FORMS = {
    "own": '{"type": "own", "tile": "R-EL1", "column": 0}',
    "pile": '{"type": "pile", "tile": "R-EL1", "column": 3}',
    "add": '{"type": "add", "tile": "Y-EL2", "cell": [0, 1], "rot": 3}',
    "swap": '{"type": "swap", "column": 1}',
    "deal": '{"type": "deal", "tile": "R-ST2"}',
    "reveal": '{"type": "reveal", "tile": "R-EL1"}',
}

DICT_KEYS = {
    "own": ("tile", "column"),
    "pile": ("tile", "column"),
    "add": ("tile", "cell", "rot"),
    "swap": ("column",),
    "deal": ("tile",),
    "reveal": ("tile",),
}


def action_to_dict(state: BotanikState, action: int, player: int) -> dict[str, Any]:
    """An action in the dict form (rules.md §2.7)."""
    ids = state.ts.ids
    if player == CHANCE:
        return {"type": "deal" if state.phase == DEAL else "reveal", "tile": ids[action]}
    if action < ADD_BASE:
        t, rest = divmod(action, 10)
        if rest < 5:
            return {"type": "own", "tile": ids[t], "column": rest}
        return {"type": "pile", "tile": ids[t], "column": rest - 5}
    if action < SWAP_BASE:
        r, c, k = add_parts(action)
        tile = ids[state.pend_tile] if state.pend_tile >= 0 else None
        return {"type": "add", "tile": tile, "cell": [r, c], "rot": k}
    return {"type": "swap", "column": action - SWAP_BASE}


def dict_to_action(state: BotanikState, move: dict[str, Any], player: int) -> int:
    """The id of a dict-form action, read through the text parser; :class:`NotationError`
    names the problem and the expected form."""
    kinds: tuple[str, ...]
    if player == CHANCE:
        kinds = ("deal",) if state.phase == DEAL else ("reveal",)
    else:
        kinds = ("own", "pile", "add", "swap")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        forms = " or ".join(DICT_FORMS[k] for k in kinds)
        what = "a chance outcome" if player == CHANCE else "an action"
        raise NotationError(f"{move!r} is not {what} here: expected {forms}")
    form = DICT_FORMS[kind]

    def bad(problem: str) -> NotationError:
        return NotationError(f"{problem} in {move!r}: expected {form}")

    keys = DICT_KEYS[kind]
    missing = [k for k in keys if k not in move]
    if missing:
        raise bad("missing " + ", ".join(f'"{k}"' for k in missing))
    extra = sorted(str(k) for k in move if k != "type" and k not in keys)
    if extra:
        raise bad("unexpected " + ", ".join(f'"{k}"' for k in extra))

    def integer(v: Any, what: str, lo: int, hi: int) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise bad(f"{what} must be an integer from {lo} to {hi}, got {v!r}")
        return v

    def tile_name(v: Any) -> str:
        if not isinstance(v, str) or not re.fullmatch(r"\s*[A-Za-z]+-[A-Za-z0-9]+\s*", v):
            raise bad(f'"tile" must be a tile id such as "R-EL1", got {v!r}')
        return v.strip()

    if kind == "swap":
        j = integer(move["column"], '"column"', 0, COLUMNS - 1)
        text = f"swap {j}"
    elif kind in ("own", "pile"):
        j = integer(move["column"], '"column"', 0, COLUMNS - 1)
        text = f"{kind} {tile_name(move['tile'])}@{j}"
    elif kind == "add":
        cell = move["cell"]
        if not isinstance(cell, (list, tuple)) or len(cell) != 2:
            raise bad(f'"cell" must be a pair [row, column], got {cell!r}')
        r = integer(cell[0], "the cell's row", -MAX_REACH, MAX_REACH)
        c = integer(cell[1], "the cell's column", -MAX_REACH, MAX_REACH)
        k = integer(move["rot"], '"rot"', 0, 3)
        if move["tile"] is None and state.pend_tile < 0:  # no tile is being added now
            tile = ""
        else:
            tile = tile_name(move["tile"])
        text = f"add {tile}@{r},{c}/{k}"
    else:
        text = f"{kind} {tile_name(move['tile'])}"
    try:
        return string_to_action(state, text, player)
    except NotationError as e:
        raise bad(str(e)) from None


ORDINALS = ("first", "second", "third", "fourth", "fifth")
"""Spaces and piles counted from the left, as the registry shows them."""
TURNS = ("", "turned a quarter to the right", "turned half around",
         "turned a quarter to the left")
"""A rotation of ``k`` quarter turns clockwise, in words."""
SIDES = {"N": "top", "E": "right", "S": "bottom", "W": "left"}
"""A pipe's edge, as the machine is drawn (north up)."""


def and_list(words: list[str]) -> str:
    """``["a", "b", "c"]`` as "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def machine_place(r: int, c: int) -> str:
    """Cell ``(r, c)`` of a machine said from its Source: "next to your Source, on the left",
    "one to the right and two above your Source"."""
    return place_from(c, r, "your Source")


def describe_action(state: BotanikState, action: int, player: int) -> dict[str, Any]:
    """The label of an action and the SVG elements it concerns (``target``, ``cells``)."""
    ids = state.ts.ids
    if player == CHANCE:
        tile = tile_words(ids[action], flowers=True)
        if state.phase == DEAL:
            return {"kind": "chance", "label": f"The {tile} is dealt onto a central pile"}
        return {"kind": "chance", "label": f"The {tile} is revealed"}
    if action < ADD_BASE:
        t, rest = divmod(action, 10)
        tid = ids[t]
        words = tile_words(tid, flowers=True)
        if rest < 5:
            target = f"row-{player}-{rest}"
            return {
                "kind": "own",
                "label": f"Put the {words} on your {ORDINALS[rest]} space",
                "target": target,
                "cells": [target, f"arrival-{tid}"],
                "tile": tid,
                "column": rest,
            }
        j = rest - 5
        target = f"pile-{j}"
        freed = [
            ("your " if q == player else "your opponent's ")
            + tile_words(ids[state.rows[q * COLUMNS + j]])
            for q in (player, 1 - player) if state.releases(q, j, t)
        ]
        return {
            "kind": "pile",
            "label": f"Put the {words} on the {ORDINALS[j]} central pile"
            + (f", releasing {' and '.join(freed)}" if freed else ""),
            "target": target,
            "cells": [target, f"arrival-{tid}"]
            + [f"row-{q}-{j}" for q in range(2) if state.releases(q, j, t)],
            "tile": tid,
            "column": j,
        }
    if action < SWAP_BASE:
        r, c, k = add_parts(action)
        t = state.pend_tile
        exits = exits_text(rotate(state.ts.exits[t], k)) if t >= 0 else []
        target = f"m{player}-cell-{r}-{c}"
        ghost = f"m{player}-ghost-{r}-{c}-{k}"
        what = f"the {tile_words(ids[t], flowers=True)}" if t >= 0 else "the tile"
        turn = f", {TURNS[k]}" if k else ""
        pipes = ""
        if exits:
            sides = [SIDES[d] for d in exits]
            pipes = f", pipe{'s' if len(sides) > 1 else ''} at the {and_list(sides)}"
        return {
            "kind": "add",
            "label": f"Add {what} {machine_place(r, c)}{turn}{pipes}",
            "target": target,
            "cells": [target, ghost],
            "tile": ids[t] if t >= 0 else None,
            "cell": [r, c],
            "rot": k,
            "exits": exits,
        }
    j = action - SWAP_BASE
    top = state.piles[j][-1] if state.piles[j] else -1
    took = f"the {tile_words(ids[top], flowers=True)}" if top >= 0 else "its top tile"
    return {
        "kind": "swap",
        "label": f"Swap the Meca-Botanist with the top of the {ORDINALS[j]} central pile "
        f"and take {took}",
        "target": f"pile-{j}",
        "cells": [f"pile-{j}"],
        "column": j,
    }
