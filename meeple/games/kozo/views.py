"""Kozo views: the observation dict (with the tower as a scene and the last stability check),
the observation tensor and the final breakdown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from meeple.engine import CHANCE, Game
from meeple.engine.grid import iter_bits
from meeple.engine.i18n import words
from meeple.engine.scores import ScoreLine

from . import notation, physics
from .components import (
    ALL_PIECES,
    BALANCE,
    BASE,
    CHIMNEY,
    CHOOSE,
    LETTERS,
    MAX_Z,
    NUM_PIECES,
    ORIENTATIONS,
    OVER,
    PHASE_NAMES,
    PIECE_NAMES,
    PIECES,
    RING,
    RING_COLUMNS,
    SIZES,
    TREMOR,
    TowerEntry,
)

_, _n = words(__file__)


class Position(notation.Position, Protocol):
    """What the views read of a position (``rules.KozoState`` is one): the rules import this
    module, never the other way round."""

    active: int
    bal: list[int]
    balances: list[tuple[int, int, int]]
    events: list[str]
    first: int
    game_turn: int
    last_check: dict[str, Any] | None
    last_success: list[int]
    last_taken: list[int]
    occ: dict[tuple[int, int, int], int]
    placed: int
    required_piece: int
    required_size: int
    round: int
    round_log: list[dict[str, Any]]
    round_points: list[int]
    totals: list[int]
    tower: list[TowerEntry]
    tremor: tuple[float, float]

    @property
    def game(self) -> Game: ...

    def chooser(self) -> int: ...

    def position_after(self, player: int, action: int) -> Position: ...


def scene(tower: Sequence[TowerEntry], balances: Sequence[tuple[int, int, int]],
          tremor: tuple[float, float]) -> dict[str, Any]:
    """A tower as JSON (pieces with cells, balance cubes) for the 3D view and motion."""
    pieces = []
    last = len(tower) - 1
    for i, (p, o, dx, dy, z0, cells) in enumerate(tower):
        pieces.append({
            "piece": p + 1,
            "letter": LETTERS[p],
            "colour": p,
            "name": _(PIECE_NAMES[p]),
            "orient": o,
            "offset": [dx, dy],
            "z0": z0,
            "cells": [list(c) for c in cells],
            "tremor": list(tremor) if i == last and tremor != (0.0, 0.0) else [0.0, 0.0],
        })
    return {
        "pieces": pieces,
        "balances": [{"column": [x, y], "height": h} for x, y, h in balances],
    }


def last_check_json(state: Position) -> dict[str, Any] | None:
    """The last stability check as JSON: what was checked, the verdict, which bodies fell
    and the tower that was judged (``None`` before the first check)."""
    lc = state.last_check
    if lc is None:
        return None
    tower, balances, tremor = lc["tower"]
    shown = scene(tower, balances, tremor)
    names = [f"P{p['piece']}" for p in shown["pieces"]] + [
        f"B@{b['column'][0]},{b['column'][1]}" for b in shown["balances"]
    ]
    fell: list[str] = []
    if lc["result"] == "fallen":
        moved = lc["moved"]
        if moved is None:  # computed once, then kept with the check
            pieces = [(c, 0.0, 0.0) for *_, c in tower]
            if pieces and tremor != (0.0, 0.0):
                pieces[-1] = (pieces[-1][0], tremor[0], tremor[1])
            moved = lc["moved"] = physics.static_unbalanced(
                pieces, list(balances), state.game.options["static_margin"])
        fell = [names[i] for i in moved]
    return {
        "after": lc["after"],
        "player": lc["player"],
        "result": lc["result"],
        "referee": lc["referee"],
        "fell": fell,
        "scene": shown,
        "motion_available": True,
    }


def observation(state: Position, player: int | None) -> dict[str, Any]:
    """The game's part of the JSON view (perfect information: the same for every viewer)."""
    opts = state.game.options
    ph = state.phase
    phase = PHASE_NAMES[ph]
    if ph == CHOOSE:
        phase = "choose_piece" if opts["random_size"] else "choose_size"
    free = ALL_PIECES & ~state.placed
    columns = []
    for (x, y), c in zip(RING, RING_COLUMNS, strict=True):
        columns.append({"column": [x, y], "name": notation.column((x, y)), "top": state.top[c],
                        "balance": bool(state.bal[c])})
    obs: dict[str, Any] = {
        "round": min(state.round + 1, opts["rounds"]),
        "rounds": opts["rounds"],
        "phase": phase,
        "active": state.active if ph != OVER else None,
        "chooser": state.chooser() if ph == CHOOSE else None,
        "first_player": state.first,
        "required_size": state.required_size or None,
        "required_piece": state.required_piece + 1 if state.required_piece >= 0 else None,
        "pieces_left": [
            {"piece": p + 1, "letter": LETTERS[p], "name": _(PIECE_NAMES[p]), "size": SIZES[p],
             "points": SIZES[p], "colour": p, "orientations": len(ORIENTATIONS[p]),
             "cubes": [list(c) for c in PIECES[p][1]]}
            for p in iter_bits(free)
        ],
        "tiles_face_down": (
            sorted(SIZES[p] for p in iter_bits(free))
            if opts["random_size"] else None
        ),
        "base": {"ring": [list(c) for c in RING], "chimney": list(CHIMNEY),
                 "balance_edge": 0.57},
        "tower": scene(state.tower, state.balances,
                       state.tremor if ph in (TREMOR, BALANCE) else (0.0, 0.0)),
        "columns": columns,
        "round_points": list(state.round_points),
        "totals": list(state.totals),
        "round_log": [dict(r) for r in state.round_log],
        "last_check": last_check_json(state),
        "events": state.events[-12:],
        "options": {"stability": opts["stability"], "tremor": opts["tremor"],
                    "random_size": opts["random_size"],
                    "opponent_choice": opts["opponent_choice"]},
        "turn": state.game_turn,
    }
    if ph == OVER:
        obs["final_breakdown"] = [line.to_json() for line in final_breakdown(state)]
    return obs


def final_breakdown(state: Position) -> list[ScoreLine]:
    """One score line per player: the points kept in each round and the game total; a note
    where the tie-break turn (rules.md 6.2) decides between level totals."""
    last_taken = state.game.options["tie_break_turn"] == "last_taken"
    last = state.last_taken if last_taken else state.last_success
    n = state.game.num_players
    lines = []
    for p in range(n):
        level = [q for q in range(n) if state.totals[q] == state.totals[p]]
        note = ""
        if len({last[q] for q in level}) > 1:
            when = _("game turn {turn}", turn=last[p]) if last[p] else _("none")
            if last_taken:
                note = _("Tied on points; the later last turn taken ranks higher: {when}",
                         when=when)
            else:
                note = _("Tied on points; the later last successful turn ranks higher: {when}",
                         when=when)
        lines.append(ScoreLine(
            p,
            tuple((_("Round {round}", round=r["round"]), r["points"][p])
                  for r in state.round_log),
            state.totals[p],
            note,
        ))
    return lines


def observation_tensor(state: Position, player: int) -> np.ndarray:
    """The position as a flat vector of ``Kozo.observation_shape``, seats relative to
    ``player``."""
    n = state.game.num_players
    t = np.zeros(state.game.observation_shape, dtype=np.float32)
    for (x, y, z) in state.occ:
        if z < MAX_Z:
            t[z * BASE.size + BASE.index(y, x)] = 1.0
    k = BASE.size * MAX_Z
    for c in range(BASE.size):
        t[k + c] = state.top[c] / 10.0
        t[k + 9 + c] = state.bal[c]
    k += 18
    for p in range(NUM_PIECES):
        t[k + p] = (state.placed >> p) & 1
    k += NUM_PIECES
    t[k + state.phase] = 1.0
    k += 6
    if state.required_size:
        t[k + state.required_size - 2] = 1.0
    k += 4
    if state.required_piece >= 0:
        t[k + state.required_piece] = 1.0
    k += NUM_PIECES
    for i in range(n):
        p = (player + i) % n  # seats relative to the viewer
        t[k + i] = state.round_points[p] / 45.0
        t[k + n + i] = state.totals[p] / 45.0
        t[k + 2 * n + i] = 1.0 if p == state.active else 0.0
    k += 3 * n
    t[k] = state.round / max(1, state.game.options["rounds"])
    t[k + 1] = len(state.balances) / 12.0
    return t


def planes(game: Any) -> list[dict[str, Any]]:
    """The layout of :func:`observation_tensor`, in order: each part's ``name``, ``shape``,
    value range (``low``, ``high``) and ``meaning``. Seats count from the viewer."""
    n = game.num_players
    rows, cols = BASE.rows, BASE.cols
    return [
        {"name": "cubes", "shape": (MAX_Z, rows, cols), "low": 0.0, "high": 1.0,
         "meaning": "1 where a cube fills the cell at each level, from the base up"},
        {"name": "column_tops", "shape": (rows, cols), "low": 0.0,
         "high": sum(SIZES) / 10.0, "meaning": "height of each column's top / 10"},
        {"name": "balance_cubes", "shape": (rows, cols), "low": 0.0, "high": 1.0,
         "meaning": "1 where a balance cube sits on the column"},
        {"name": "placed", "shape": (NUM_PIECES,), "low": 0.0, "high": 1.0,
         "meaning": "1 for each piece already in the tower"},
        {"name": "phase", "shape": (len(PHASE_NAMES),), "low": 0.0, "high": 1.0,
         "meaning": "one-hot: " + ", ".join(PHASE_NAMES)},
        {"name": "required_size", "shape": (4,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot size to play, 2 to 5 (all 0: none set)"},
        {"name": "required_piece", "shape": (NUM_PIECES,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot piece to play (all 0: none set)"},
        {"name": "round_points", "shape": (n,), "low": 0.0, "high": 1.0,
         "meaning": "points of each seat this round / 45, seats from the viewer"},
        {"name": "totals", "shape": (n,), "low": 0.0, "high": float(game.options["rounds"]),
         "meaning": "points kept by each seat / 45, seats from the viewer"},
        {"name": "active", "shape": (n,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot seat to place, seats from the viewer"},
        {"name": "round", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "round / rounds"},
        {"name": "balances", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "balance cubes placed / 12"},
    ]


# ------------------------------------------------------------------ the move log in words

def _round_end(before: Position, after: Position, chance: bool = False) -> list[str]:
    """How the round ended with the move, if it did (nothing otherwise); points lost in a
    fall are said of the player who moved ("they"), after a chance event of the tower's
    builder. The first clause is "the tower falls" where it fell."""
    if len(after.round_log) <= len(before.round_log):
        return []
    r = after.round_log[len(before.round_log)]
    over = _("round {round} is over", round=r["round"])
    if r["end"] == "fall":
        lost = r["lost"]
        out = [_("the tower falls"), over]
        if lost:
            out.append(_n("its builder loses this round's {n} point",
                          "its builder loses this round's {n} points", lost) if chance else
                       _n("they lose this round's {n} point",
                          "they lose this round's {n} points", lost))
        return out
    if r["end"] == "complete":
        return [_("all twelve pieces are in the tower"), over]
    return [_("the next piece has nowhere to go"), over]


def _said(head: str, before: Position, after: Position, stands: list[str],
          chance: bool = False) -> str:
    """``head``, then what followed: ``stands`` unless the tower fell, and the round's end."""
    end = _round_end(before, after, chance)
    fell = len(after.round_log) > len(before.round_log) and \
        after.round_log[len(before.round_log)]["end"] == "fall"
    then = end if fell else stands + end
    if after.phase == OVER:
        then.append(_("the game is over"))
    if not then:
        return _("{what}.", what=head)
    return _("{what}: {then}.", what=head, then=notation.and_list(then))


def describe(state: Position, player: int, action: int) -> str:
    """A move of the log in the game's words, from the state before it: the piece placed and
    where it rests, the balance cube and the scoring tile taken, the tremor, the draw, and
    whether the tower stood or fell."""
    after = state.position_after(player, action)
    stands = _("the tower stands")
    if player == CHANCE:
        if state.phase == TREMOR:
            step = (action // 3 - 1, action % 3 - 1)
            return _said(notation.tremor_words(step), state, after, [stands], chance=True)
        size = action + 2
        return _said(_n("The scoring tile drawn is a {n}, so the next piece must have {count} "
                        "cube", "The scoring tile drawn is a {n}, so the next piece must have "
                        "{count} cubes", size, count=notation.count_word(size)),
                     state, after, [], chance=True)
    d = notation.describe_action(state, action, player)
    kind = d["kind"]
    if kind == "place":
        z0, cubes = state.resting_cubes(action)
        head = _("places {piece} {where}, resting {rests}",
                 piece=notation.piece_words(d["piece"]), where=notation._where(cubes),
                 rests=notation.rests_words(z0))
        return _said(head, state, after, [] if after.phase == TREMOR else [stands])
    if kind == "balance":
        column = notation.column((d["column"][0], d["column"][1]))
        head = _("puts a balance cube on top of the {column} column, at height {height}",
                 column=column, height=notation._height(d["height"]))
        gained = (after.totals[player] + after.round_points[player]
                  - state.totals[player] - state.round_points[player])
        return _said(head, state, after,
                     [stands, _("they take the scoring tile worth {points}", points=gained)])
    if kind == "size":
        return _said(_n("chooses the size of the next piece: {count} cube",
                        "chooses the size of the next piece: {count} cubes", d["size"],
                        count=notation.count_word(d["size"])), state, after, [])
    return _said(_("chooses the next piece: {piece}", piece=notation.piece_words(d["piece"])),
                 state, after, [])
