"""Botanik views: what a player sees, as the JSON observation and as a tensor, and the final
breakdown.

Plain functions of the state, called by the hooks of :class:`~.rules.BotanikState`.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from meeple.engine import CHANCE, Game
from meeple.engine.i18n import N_, words
from meeple.engine.scores import ScoreLine
from meeple.engine.words import number_word

from . import notation
from .components import (
    ADD,
    ADD_BASE,
    COLOUR_NAMES,
    COLUMNS,
    DEAL,
    END,
    PHASE_NAMES,
    ROUNDS,
    SOURCE_CELL,
    STEP_NAMES,
    SWAP,
    SWAP_BASE,
    TAKE,
    TYPES,
    add_parts,
    cell_rc,
    exits_text,
    rotate,
    the_tile,
)

_, _n = words(__file__)


class Position(notation.Position, Protocol):
    """What the views read of a position (``rules.BotanikState`` is one): the rules import
    this module, never the other way round."""

    arrival: list[int]
    discarded: list[int]
    log: list[str]
    mcomp: list[dict[int, int]]
    mpipe: list[dict[int, int]]
    mtile: list[dict[int, int]]
    pend_adds: list[int]
    pend_player: int
    round: int
    step: int
    supply: list[int]
    work: list[tuple[int, int, int]]

    @property
    def active_player(self) -> int: ...

    @property
    def g(self) -> Game: ...

    @property
    def meca_player(self) -> int: ...

    def breakdown(self, p: int) -> dict[str, Any]: ...

    def is_terminal(self) -> bool: ...

    def main_tiles(self, p: int) -> int: ...

    def open_ends(self, p: int) -> int: ...

    def position_after(self, player: int, action: int) -> Position: ...


COLOUR_GROUPS = N_("Colour groups")
FLOWERS = N_("Flowers")
"""The labels of the final breakdown's parts (rules.md §6.2)."""

# observation tensor: for each seat (the viewer first) a 21x21 window of the machine around the
# Source (5 colour planes, 4 pipe planes, in-main-network plane), then the registry and round.
WINDOW = 10
WSIZE = 2 * WINDOW + 1
MACHINE_PLANES = 10
OBS_SIZE = 2 * MACHINE_PLANES * WSIZE * WSIZE + 2 * COLUMNS * 67 + COLUMNS * 67 + COLUMNS + 67 + 8

def machine_json(state: Position, p: int) -> list[dict[str, Any]]:
    """Every tile of ``p``'s machine: cell, tile id, rotation, exits, in the main network."""
    ts = state.ts
    comp = state.mcomp[p]
    main = comp[SOURCE_CELL]
    out = []
    for x in sorted(state.mtile[p]):
        t = state.mtile[p][x]
        e = state.mpipe[p][x]
        k = next(k for k in range(4) if rotate(ts.exits[t], k) == e)
        out.append(
            {
                "cell": list(cell_rc(x)),
                "tile": ts.ids[t],
                "rot": k,
                "exits": exits_text(e),
                "colour": "RYGBK"[ts.colour[t]] if ts.colour[t] < 5 else None,
                "type": TYPES[ts.type[t]],
                "flowers": ts.flowers[t],
                "main": comp[x] == main,
            }
        )
    return out


def observation(state: Position, player: int | None) -> dict[str, Any]:
    """The game's part of the JSON view (Botanik hides nothing: every viewer sees the same)."""
    ids = state.ts.ids
    ph = state.phase
    out: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "step": STEP_NAMES[state.step] if ph in (TAKE, ADD, SWAP) else None,
        "phase": PHASE_NAMES[ph],
        "meca_player": state.meca_player if ph != END else None,
        "active_player": state.active_player if ph in (TAKE, ADD, SWAP) else None,
        "piles": [[ids[t] for t in p] for p in state.piles],
        "pile_tops": [ids[p[-1]] if p else None for p in state.piles],
        "pile_heights": [len(p) for p in state.piles],
        "rows": [
            [ids[t] if t >= 0 else None for t in state.rows[q * COLUMNS:(q + 1) * COLUMNS]]
            for q in range(2)
        ],
        "arrival": [ids[t] for t in sorted(state.arrival)],
        "tiles_left": len(state.supply),
        "machines": [machine_json(state, q) for q in range(2)],
        "main_tiles": [state.main_tiles(q) for q in range(2)],
        "open_ends": [state.open_ends(q) for q in range(2)],
        "released": None,
        "waiting": [ids[w[2]] for w in reversed(state.work) if w[0] == 1],
        "discarded": [ids[t] for t in state.discarded],
        "log": state.log[-12:],
        "options": dict(state.g.options),
    }
    if ph in (ADD, SWAP):
        out["released"] = {
            "player": state.pend_player,
            "tile": ids[state.pend_tile],
            "kind": "add" if ph == ADD else "swap",
        }
    if ph == ADD:
        exits = state.ts.exits[state.pend_tile]
        out["released"]["placements"] = [
            [r, c, k, exits_text(rotate(exits, k))]
            for r, c, k in map(add_parts, state.pend_adds)
        ]
    if ph == END:
        out["final_breakdown"] = final_breakdown(state)
    return out


def observation_tensor(state: Position, player: int) -> np.ndarray:
    """The observation as a flat float32 array of ``OBS_SIZE`` (layout above)."""
    ts = state.ts
    t = np.zeros(OBS_SIZE, dtype=np.float32)
    plane = WSIZE * WSIZE
    for i, q in enumerate((player, 1 - player)):
        base = i * MACHINE_PLANES * plane
        comp = state.mcomp[q]
        main = comp[SOURCE_CELL]
        for x, tile in state.mtile[q].items():
            r, c = cell_rc(x)
            if abs(r) > WINDOW or abs(c) > WINDOW:
                continue
            pos = (r + WINDOW) * WSIZE + (c + WINDOW)
            col = ts.colour[tile]
            if col < 5:
                t[base + col * plane + pos] = 1
            e = state.mpipe[q][x]
            for d in range(4):
                if e >> d & 1:
                    t[base + (5 + d) * plane + pos] = 1
            if comp[x] == main:
                t[base + 9 * plane + pos] = 1
    off = 2 * MACHINE_PLANES * plane
    for i, q in enumerate((player, 1 - player)):
        for j in range(COLUMNS):
            s = state.rows[q * COLUMNS + j]
            if s >= 0:
                t[off + (i * COLUMNS + j) * 67 + s] = 1
    off += 2 * COLUMNS * 67
    for j in range(COLUMNS):
        if state.piles[j]:
            t[off + j * 67 + state.piles[j][-1]] = 1
    off += COLUMNS * 67
    for j in range(COLUMNS):
        t[off + j] = len(state.piles[j]) / 10.0
    off += COLUMNS
    for a in state.arrival:
        t[off + a] = 1
    off += 67
    t[off] = state.round / ROUNDS
    t[off + 1 + state.step] = 1
    t[off + 4] = state.meca_player == player
    t[off + 5] = len(state.supply) / 65.0
    t[off + 6] = state.phase == ADD
    t[off + 7] = state.phase == SWAP
    return t


def final_breakdown(state: Position) -> list[dict[str, Any]]:
    """Each player's final score as a :class:`ScoreLine` (rules.md §6.2): colour groups plus
    flowers; where the points are level, the note gives the tiles in the main network that
    break the tie (§6.3)."""
    counts = [state.breakdown(q) for q in range(2)]
    out = []
    for q, b in enumerate(counts):
        other = counts[1 - q]
        note = ""
        if other["total"] == b["total"] and other["main_tiles"] != b["main_tiles"]:
            note = _("tie on points broken by tiles in the main network, {mine} against "
                     "{theirs}", mine=b["main_tiles"], theirs=other["main_tiles"])
        line = ScoreLine(
            q,
            ((_(COLOUR_GROUPS), b["group_points"]), (_(FLOWERS), b["flower_points"])),
            b["total"],
            note,
        )
        out.append(line.to_json())
    return out


def planes(game: Any) -> list[dict[str, Any]]:
    """The layout of :func:`observation_tensor`, in order: each part's ``name``, ``shape``,
    value range (``low``, ``high``) and ``meaning``. Seat 0 of a part is the viewer, seat 1
    the other player; a machine is seen through a 21 x 21 window centred on its Source."""
    window = (WSIZE, WSIZE)
    out: list[dict[str, Any]] = []
    for who, whose in (("viewer", "the viewer's"), ("other", "the other player's")):
        out += [
            {"name": f"{who}_colours", "shape": (5, *window), "low": 0.0, "high": 1.0,
             "meaning": f"{whose} machine: one plane per colour ("
                        f"{', '.join(COLOUR_NAMES)}), 1 where a tile of that colour lies"},
            {"name": f"{who}_pipes", "shape": (4, *window), "low": 0.0, "high": 1.0,
             "meaning": f"{whose} machine: one plane per side of a tile (N, E, S, W), 1 "
                        "where a pipe leaves the tile that way"},
            {"name": f"{who}_main_network", "shape": window, "low": 0.0, "high": 1.0,
             "meaning": f"{whose} machine: 1 where the tile is in the main network"},
        ]
    out += [
        {"name": "registry_rows", "shape": (2, COLUMNS, 67), "low": 0.0, "high": 1.0,
         "meaning": "one-hot tile in each registry space, the viewer's row first"},
        {"name": "pile_tops", "shape": (COLUMNS, 67), "low": 0.0, "high": 1.0,
         "meaning": "one-hot top tile of each pile"},
        {"name": "pile_heights", "shape": (COLUMNS,), "low": 0.0, "high": 6.7,
         "meaning": "tiles in each pile / 10"},
        {"name": "arrival", "shape": (67,), "low": 0.0, "high": 1.0,
         "meaning": "1 for each tile in the arrival area"},
        {"name": "round", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "round / 20"},
        {"name": "step", "shape": (3,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot step of the turn (A, B, C)"},
        {"name": "viewer_is_meca_player", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "1 when the viewer holds the Meca pawn"},
        {"name": "supply", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "tiles left in the supply / 65"},
        {"name": "adding", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "1 while a released tile waits to be added"},
        {"name": "swapping", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "1 while a released tile waits for a swap"},
    ]
    return out


# ------------------------------------------------------------------ the move log in words

DEALT_ONTO = (N_("{tile} is dealt face up onto the first central pile."),
              N_("{tile} is dealt face up onto the second central pile."),
              N_("{tile} is dealt face up onto the third central pile."),
              N_("{tile} is dealt face up onto the fourth central pile."),
              N_("{tile} is dealt face up onto the fifth central pile."))
"""The log's sentence for a tile dealt onto a central pile at the set-up."""
PUTS_ON_SPACE = (N_("puts {tile} on their first space"), N_("puts {tile} on their second space"),
                 N_("puts {tile} on their third space"), N_("puts {tile} on their fourth space"),
                 N_("puts {tile} on their fifth space"))
"""The log's words for a tile put on one of the mover's spaces."""
PUTS_ON_PILE = (N_("puts {tile} on the first central pile"),
                N_("puts {tile} on the second central pile"),
                N_("puts {tile} on the third central pile"),
                N_("puts {tile} on the fourth central pile"),
                N_("puts {tile} on the fifth central pile"))
"""The log's words for a tile put on a central pile."""
PUTS_ON_PILE_RELEASING = (
    N_("puts {tile} on the first central pile, releasing {released}"),
    N_("puts {tile} on the second central pile, releasing {released}"),
    N_("puts {tile} on the third central pile, releasing {released}"),
    N_("puts {tile} on the fourth central pile, releasing {released}"),
    N_("puts {tile} on the fifth central pile, releasing {released}"),
)
"""The same, where the new top releases waiting tiles."""
SWAPS_WITH = (
    N_("swaps the Meca-Botanist with the top of the first central pile and takes {tile}"),
    N_("swaps the Meca-Botanist with the top of the second central pile and takes {tile}"),
    N_("swaps the Meca-Botanist with the top of the third central pile and takes {tile}"),
    N_("swaps the Meca-Botanist with the top of the fourth central pile and takes {tile}"),
    N_("swaps the Meca-Botanist with the top of the fifth central pile and takes {tile}"),
)
"""The log's words for a Meca-Botanist swapped with the top of a pile."""


def describe(state: Position, player: int, action: int) -> str:
    """A move of the log in the game's words, from the state before it: a tile dealt or
    revealed; a tile put on a space or a central pile and the tiles it releases; a released
    tile added to the machine; a Meca-Botanist swap; tiles that fit nowhere; the end."""
    ids = state.ts.ids
    if player == CHANCE:
        tile = the_tile(ids[action], flowers=True)
        if state.phase == DEAL:
            pile = sum(1 for p in state.piles if p)
            return notation.capital(_(DEALT_ONTO[pile], tile=tile))
        return notation.capital(_("{tile} is revealed from the supply.", tile=tile))
    after = state.position_after(player, action)
    if action < ADD_BASE:
        t, rest = divmod(action, 10)
        tile = the_tile(ids[t], flowers=True)
        if rest < 5:
            out = _(PUTS_ON_SPACE[rest], tile=tile)
        else:
            j = rest - 5
            freed = notation.released_words(state, player, j, t, theirs=True)
            out = (_(PUTS_ON_PILE_RELEASING[j], tile=tile, released=notation.and_list(freed))
                   if freed else _(PUTS_ON_PILE[j], tile=tile))
    elif action < SWAP_BASE:
        r, c, k = add_parts(action)
        t = state.pend_tile
        what = the_tile(ids[t], flowers=True) if t >= 0 else _("the tile")
        head = _("adds {tile} to their machine {place}", tile=what,
                 place=notation.machine_place(r, c, theirs=True))
        extras = notation.add_extras(k, rotate(state.ts.exits[t], k) if t >= 0 else None)
        out = ", ".join([head, *extras])
    else:
        j = action - SWAP_BASE
        top = state.piles[j][-1] if state.piles[j] else -1
        took = the_tile(ids[top], flowers=True) if top >= 0 else _("its top tile")
        out = _(SWAPS_WITH[j], tile=took)
    then = [_("{tile} fits nowhere and is discarded", tile=the_tile(ids[t], flowers=True))
            for t in after.discarded[len(state.discarded):]]
    if after.is_terminal():
        then.append(_("the game is over"))
    return _("{what}.", what="; ".join([out, *then]))


def describe_setup(state: Position) -> str:
    """The set-up in one line: the tiles dealt onto the central piles and the first tiles
    revealed into the arrival (all face up)."""
    dealt = sum(len(p) for p in state.piles)
    shown = len(state.arrival)
    return _("The tiles are shuffled into the supply, {dealt} are dealt face up, one onto each "
             "central pile, and {shown} are revealed into the arrival.",
             dealt=number_word(dealt), shown=number_word(shown))
