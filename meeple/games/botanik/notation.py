"""Botanik notation: actions as text and as dicts, both ways, and their labels.

Plain functions of the state, called by the hooks of :class:`~.rules.BotanikState`.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from meeple.engine import CHANCE, NotationError
from meeple.engine.i18n import N_, words
from meeple.engine.words import place_from

from .components import (
    ADD_BASE,
    COLUMNS,
    DEAL,
    MAX_REACH,
    NUM_COLOURED,
    SWAP_BASE,
    TileSet,
    add_action,
    add_parts,
    exits_text,
    rotate,
    the_tile,
)

_, _n = words(__file__)


class Position(Protocol):
    """What the notation reads of a position (``rules.BotanikState`` is one): the rules
    import this module, never the other way round."""

    pend_tile: int
    phase: int
    piles: list[list[int]]
    rows: list[int]
    ts: TileSet

    def legal_actions(self, player: int | None = None) -> list[int]: ...

    def releases(self, q: int, j: int, t: int) -> bool: ...


def action_to_string(state: Position, action: int, player: int) -> str:
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


FORMS = N_(
    "expected one of: 'own R-EL1@0', 'pile R-EL1@3', 'add Y-EL2@0,1/3' "
    "(cell row,column / quarter turns clockwise), 'swap 1'"
)


def parse_tile(state: Position, text: str) -> int:
    """The id of a coloured tile written as text (``R-EL1``)."""
    t = state.ts.index.get(text.strip().upper())
    if t is None or t >= NUM_COLOURED:
        raise NotationError(_(
            "{text} is not a tile: tiles are written colour-type, e.g. R-EL1, "
            "G-PL, K-MB (colours R Y G B K; types ST1-3 EL1-3 TE1-3 CR PL VE MB)",
            text=repr(text.strip())))
    return t


def string_to_action(state: Position, text: str, player: int) -> int:
    """The id of an action written in the text notation; :class:`NotationError` says the
    expected forms."""
    s = " ".join(text.lower().split())
    if player == CHANCE:
        m = re.fullmatch(r"(deal|reveal)\s*([a-z0-9]+(?:\s*-\s*[a-z0-9]+)?)", s)
        if not m:
            raise NotationError(_("expected 'deal R-ST2' or 'reveal R-EL1', got {text}",
                                  text=repr(text)))
        return parse_tile(state, m.group(2).replace(" ", ""))
    m = re.fullmatch(r"(own|pile)\s*([a-z0-9]+(?:\s*-\s*[a-z0-9]+)?)\s*@\s*(\d+)", s)
    if m:
        t = parse_tile(state, m.group(2).replace(" ", ""))
        j = int(m.group(3))
        if j >= COLUMNS:
            raise NotationError(_("column {column} does not exist: columns are 0 to 4",
                                  column=str(j)))
        return 10 * t + (0 if m.group(1) == "own" else 5) + j
    m = re.fullmatch(r"swap\s*(\d+)", s)
    if m:
        j = int(m.group(1))
        if j >= COLUMNS:
            raise NotationError(_("pile {pile} does not exist: piles are 0 to 4", pile=str(j)))
        return SWAP_BASE + j
    m = re.fullmatch(
        r"add\s*([a-z][a-z0-9]*(?:\s*-\s*[a-z0-9]+)?)?\s*@?\s*(-?\d+)\s*,\s*(-?\d+)"
        r"\s*(?:/\s*(\d+))?",
        s,
    )
    if m:
        r, c = int(m.group(2)), int(m.group(3))
        if abs(r) > 60 or abs(c) > 60:
            cell = f"{r},{c}"
            raise NotationError(_("cell {cell} is out of reach: rows and columns are -60..60",
                                  cell=cell))
        tile = state.pend_tile
        if m.group(1):
            named = parse_tile(state, m.group(1).replace(" ", ""))
            if tile >= 0 and named != tile:
                raise NotationError(_("the tile being added is {tile}, not {named}",
                                      tile=state.ts.ids[tile], named=state.ts.ids[named]))
            if tile < 0:
                tile = named
        if m.group(4) is None:
            ks = [a for a in state.legal_actions(player) if ADD_BASE <= a < SWAP_BASE
                  and add_parts(a)[:2] == (r, c)]
            if len(ks) != 1:
                form = f"add @{r},{c}/k"
                raise NotationError(_("say the rotation: '{form}' with k quarter turns "
                                      "clockwise (0-3)", form=form))
            return ks[0]
        k = int(m.group(4))
        if k > 3:
            raise NotationError(_("rotation {k} does not exist: k is 0 to 3 quarter turns",
                                  k=str(k)))
        if tile >= 0:
            k = state.ts.canonical(tile, k)
        return add_action(r, c, k)
    raise NotationError(_("cannot read {text}: {forms}", text=repr(text), forms=_(FORMS)))


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


def action_to_dict(state: Position, action: int, player: int) -> dict[str, Any]:
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


def dict_to_action(state: Position, move: dict[str, Any], player: int) -> int:
    """The id of a dict-form action, read through the text parser; :class:`NotationError`
    names the problem and the expected form."""
    kinds: tuple[str, ...]
    if player == CHANCE:
        kinds = ("deal",) if state.phase == DEAL else ("reveal",)
    else:
        kinds = ("own", "pile", "add", "swap")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        forms = _(" or ").join(DICT_FORMS[k] for k in kinds)
        if player == CHANCE:
            raise NotationError(_("{move} is not a chance outcome here: expected {forms}",
                                  move=repr(move), forms=forms))
        raise NotationError(_("{move} is not an action here: expected {forms}",
                              move=repr(move), forms=forms))
    form = DICT_FORMS[kind]

    def bad(problem: str) -> NotationError:
        return NotationError(_("{problem} in {move}: expected {form}", problem=problem,
                               move=repr(move), form=form))

    keys = DICT_KEYS[kind]
    missing = [k for k in keys if k not in move]
    if missing:
        raise bad(_("missing {keys}", keys=", ".join(f'"{k}"' for k in missing)))
    extra = sorted(str(k) for k in move if k != "type" and k not in keys)
    if extra:
        raise bad(_("unexpected {keys}", keys=", ".join(f'"{k}"' for k in extra)))

    def integer(v: Any, what: str, lo: int, hi: int) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise bad(_("{what} must be an integer from {lo} to {hi}, got {value}", what=what,
                        lo=str(lo), hi=str(hi), value=repr(v)))
        return v

    def tile_name(v: Any) -> str:
        if not isinstance(v, str) or not re.fullmatch(r"\s*[A-Za-z]+-[A-Za-z0-9]+\s*", v):
            raise bad(_('"tile" must be a tile id such as "R-EL1", got {value}', value=repr(v)))
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
            raise bad(_('"cell" must be a pair [row, column], got {value}', value=repr(cell)))
        r = integer(cell[0], _("the cell's row"), -MAX_REACH, MAX_REACH)
        c = integer(cell[1], _("the cell's column"), -MAX_REACH, MAX_REACH)
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


ON_SPACE = (N_("Put {tile} on your first space"), N_("Put {tile} on your second space"),
            N_("Put {tile} on your third space"), N_("Put {tile} on your fourth space"),
            N_("Put {tile} on your fifth space"))
"""A move's label for a tile put on one of the mover's spaces, counted from the left."""
ON_PILE = (N_("Put {tile} on the first central pile"),
           N_("Put {tile} on the second central pile"),
           N_("Put {tile} on the third central pile"),
           N_("Put {tile} on the fourth central pile"),
           N_("Put {tile} on the fifth central pile"))
"""A move's label for a tile put on a central pile, counted from the left."""
ON_PILE_RELEASING = (N_("Put {tile} on the first central pile, releasing {released}"),
                     N_("Put {tile} on the second central pile, releasing {released}"),
                     N_("Put {tile} on the third central pile, releasing {released}"),
                     N_("Put {tile} on the fourth central pile, releasing {released}"),
                     N_("Put {tile} on the fifth central pile, releasing {released}"))
"""The same, where the new top releases waiting tiles."""
SWAP_WITH = (
    N_("Swap the Meca-Botanist with the top of the first central pile and take {tile}"),
    N_("Swap the Meca-Botanist with the top of the second central pile and take {tile}"),
    N_("Swap the Meca-Botanist with the top of the third central pile and take {tile}"),
    N_("Swap the Meca-Botanist with the top of the fourth central pile and take {tile}"),
    N_("Swap the Meca-Botanist with the top of the fifth central pile and take {tile}"),
)
"""A move's label for a Meca-Botanist swapped with the top of a pile."""
TURNS = ("", N_("turned a quarter to the right"), N_("turned half around"),
         N_("turned a quarter to the left"))
"""A rotation of ``k`` quarter turns clockwise, in words."""
SIDES = {"N": N_("top"), "E": N_("right"), "S": N_("bottom"), "W": N_("left")}
"""A pipe's edge, as the machine is drawn (north up)."""


def and_list(items: list[str]) -> str:
    """``["a", "b", "c"]`` as "a, b and c"."""
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def machine_place(r: int, c: int, *, theirs: bool = False) -> str:
    """Cell ``(r, c)`` of a machine said from its Source: "next to your Source, on the left",
    "one to the right and two above your Source" (``theirs``: of the player who moved, "their
    Source")."""
    # TRANSLATORS: the landmark of a place in a machine, in the form that follows a
    # preposition ("next to your Source"; German: the dative)
    landmark = _("their Source") if theirs else _("your Source")
    return place_from(c, r, landmark)


def add_extras(k: int, exits_mask: int | None) -> list[str]:
    """The turn and the pipes of a tile added with ``k`` quarter turns, in words."""
    extras = [_(TURNS[k])] if k else []
    if exits_mask is not None:
        sides = [_(SIDES[d]) for d in exits_text(exits_mask)]
        if sides:
            extras.append(_n("pipe at the {sides}", "pipes at the {sides}", len(sides),
                             sides=and_list(sides)))
    return extras


def released_words(state: Position, player: int, j: int, t: int, *,
                   theirs: bool = False) -> list[str]:
    """The waiting tiles in front of pile ``j`` that tile ``t`` put on it releases, each with
    its side: "the red elbow on your side" (``theirs``: said of the player who moved)."""
    ids = state.ts.ids
    out = []
    for q in (player, 1 - player):
        if state.releases(q, j, t):
            tile = the_tile(ids[state.rows[q * COLUMNS + j]])
            if q == player:
                out.append(_("{tile} on their side", tile=tile) if theirs
                           else _("{tile} on your side", tile=tile))
            else:
                out.append(_("{tile} on their opponent's side", tile=tile) if theirs
                           else _("{tile} on your opponent's side", tile=tile))
    return out


def capital(text: str) -> str:
    """``text`` with its first letter a capital (a sentence that opens with a tile)."""
    return text[:1].upper() + text[1:]


def describe_action(state: Position, action: int, player: int) -> dict[str, Any]:
    """The label of an action and the SVG elements it concerns (``target``, ``cells``)."""
    ids = state.ts.ids
    if player == CHANCE:
        tile = the_tile(ids[action], flowers=True)
        if state.phase == DEAL:
            return {"kind": "chance",
                    "label": capital(_("{tile} is dealt onto a central pile", tile=tile))}
        return {"kind": "chance", "label": capital(_("{tile} is revealed", tile=tile))}
    if action < ADD_BASE:
        t, rest = divmod(action, 10)
        tid = ids[t]
        tile = the_tile(tid, flowers=True)
        if rest < 5:
            target = f"row-{player}-{rest}"
            return {
                "kind": "own",
                "label": _(ON_SPACE[rest], tile=tile),
                "target": target,
                "cells": [target, f"arrival-{tid}"],
                "tile": tid,
                "column": rest,
            }
        j = rest - 5
        target = f"pile-{j}"
        freed = released_words(state, player, j, t)
        return {
            "kind": "pile",
            "label": (_(ON_PILE_RELEASING[j], tile=tile, released=and_list(freed)) if freed
                      else _(ON_PILE[j], tile=tile)),
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
        what = the_tile(ids[t], flowers=True) if t >= 0 else _("the tile")
        head = _("Add {tile} {place}", tile=what, place=machine_place(r, c))
        extras = add_extras(k, rotate(state.ts.exits[t], k) if t >= 0 else None)
        return {
            "kind": "add",
            "label": ", ".join([head, *extras]),
            "target": target,
            "cells": [target, ghost],
            "tile": ids[t] if t >= 0 else None,
            "cell": [r, c],
            "rot": k,
            "exits": exits,
        }
    j = action - SWAP_BASE
    top = state.piles[j][-1] if state.piles[j] else -1
    took = the_tile(ids[top], flowers=True) if top >= 0 else _("its top tile")
    return {
        "kind": "swap",
        "label": _(SWAP_WITH[j], tile=took),
        "target": f"pile-{j}",
        "cells": [f"pile-{j}"],
        "column": j,
    }
