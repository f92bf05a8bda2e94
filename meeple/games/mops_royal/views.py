"""Mops Royal views: the observation dict, the observation tensor and the final breakdown."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from meeple.engine import CHANCE, Game
from meeple.engine.grid import bits
from meeple.engine.i18n import words
from meeple.engine.scores import ScoreLine

from . import notation
from .components import (
    COLOURS,
    END_SCORING,
    IS_CROWN,
    NCELLS,
    NUM_TILES,
    OBJECTS,
    OVER,
    PHASE_NAMES,
    PL_CELLS,
    PL_MARKS,
    PL_SHAPE,
    REJECT,
    ROUND,
    SETUP_CALLER,
    SETUP_START,
    SHAPE_IDS,
    SHAPE_NAMES,
    STATUS_NAMES,
    STEP_NAMES,
    STEP_PLACE,
    STEP_SCORE,
    TILE_COLOUR,
    TILE_OBJECT,
    TILES,
    W,
    cell_xy,
)

_, _n = words(__file__)


class Position(notation.Position, Protocol):
    """What the views read of a position (``rules.MopsRoyalState`` is one): the rules import
    this module, never the other way round."""

    caller: int
    combos: list[list[int]]
    last: list[tuple[int, int, int, int, int]] | None
    log: list[list[tuple[int, int, int, int]]]
    n: int
    occ: list[int]
    pub: list[int]
    rejcost: list[int]
    round: int
    score: list[int]
    start: list[int]
    status: list[int]
    step: list[int]
    stock: list[int]
    turn: int

    @property
    def game(self) -> Game: ...

    def face_down_count(self, p: int) -> int: ...

    def history(self) -> list[tuple[int, int]]: ...

    def place_cells(self, p: int) -> int: ...

    def visible_layout(self, q: int, viewer: int | None
                       ) -> tuple[list[int], int, dict[int, int]]: ...

    def visible_rejections(self, q: int, viewer: int | None) -> int: ...

    def visible_stock(self, q: int, viewer: int | None) -> int: ...


def observation(state: Position, player: int | None) -> dict[str, Any]:
    """The game's part of the JSON view for ``player`` (``None``: spectators), holding only
    what that player may see."""
    n = state.n
    layouts = []
    for q in range(n):
        board, down, covers = state.visible_layout(q, player)
        cells = []
        for i in range(NCELLS):
            t = board[i]
            if t >= 0:
                x, y = cell_xy(i)
                cells.append(
                    {
                        "x": x,
                        "y": y,
                        "tile": TILES[t],
                        "face_up": not (down >> i) & 1,
                        "covers": covers.get(i, 0),
                        "crown": IS_CROWN[t],
                    }
                )
        layouts.append(cells)
    stocks: list[list[str] | None] = []
    for q in range(n):
        if q == state.caller:
            stocks.append(None)
        else:
            stocks.append([TILES[t] for t in bits(state.visible_stock(q, player))])
    stock_counts = [state.visible_stock(q, player).bit_count() for q in range(n)]
    out: dict[str, Any] = {
        "phase": PHASE_NAMES[state.phase],
        "round": state.round,
        "caller": state.caller if state.caller >= 0 else None,
        "start_tiles": [TILES[t] for t in state.start],
        "called_tile": TILES[state.tile] if state.tile >= 0 else None,
        "layouts": layouts,
        "stocks": stocks,
        "stock_counts": stock_counts,
        "caller_stock_left": (
            sorted(TILES[t] for t in bits(state.stock[state.caller]))
            if state.caller >= 0
            else None
        ),
        "rejections": [state.visible_rejections(q, player) for q in range(n)],
        "face_down": [bin(state.visible_layout(q, player)[1]).count("1") for q in range(n)],
        "status": [STATUS_NAMES[s] for s in state.status] if state.phase == ROUND else None,
        "turn": state.turn if state.phase == END_SCORING else None,
        "options": dict(state.game.options),
    }
    if state.last is not None:
        out["last_round"] = [
            {
                "status": STATUS_NAMES[st],
                "placed": list(cell_xy(pl)) if pl >= 0 else None,
                "rejected": list(cell_xy(rj)) if rj >= 0 else None,
                "flipped": list(cell_xy(fl)) if fl >= 0 else None,
                "points": pts,
            }
            for st, pl, rj, fl, pts in state.last
        ]
    if player is not None and 0 <= player < n:
        out["my_step"] = STEP_NAMES[state.step[player]] if state.phase == ROUND else None
        out["my_score"] = state.score[player]
        out["my_combinations"] = [
            {
                "shape": SHAPE_IDS[PL_SHAPE[k]],
                "cells": [list(cell_xy(i)) for i in PL_CELLS[k]],
                "marks": [list(cell_xy(i)) for i in PL_MARKS[k]],
                "points": state.combination_points(player, k),
            }
            for k in sorted(state.combos[player])
        ]
        out["my_legal_cells"] = (
            [list(cell_xy(i)) for i in bits(state.place_cells(player))]
            if state.phase == ROUND and state.step[player] == STEP_PLACE
            else []
        )
    if state.phase == OVER:
        out["final_breakdown"] = final_breakdown(state)
        out["scored_combinations"] = [
            [
                {"round": r, "shape": SHAPE_IDS[PL_SHAPE[k]], "points": pts}
                for r, k, _f, pts in state.log[q]
            ]
            for q in range(n)
        ]
    return out


def hidden_entries(state: Position, viewer: int | None) -> set[int]:
    """The history entries ``viewer`` may not know yet (rules 4.5): while a round is open,
    every choice another player has made in it, finished or not (his placement stays hidden
    while he is still choosing his scoring). Everything else is public: the start tiles (each
    lies face up in its layout), the caller and every tile the caller reveals."""
    history = state.history()
    out: set[int] = set()
    if state.phase == ROUND:
        for i in range(len(history) - 1, -1, -1):
            p = history[i][0]
            if p == CHANCE:
                break
            if p != viewer:
                out.add(i)
    return out


def final_breakdown(state: Position) -> list[dict[str, Any]]:
    """One score line per player: the points of his combinations, what his rejections cost
    (in the variant) and his score; where players are level on points, the face-down tiles
    that break the tie."""
    n = state.n
    variant = state.game.options["replacement_tiles"]
    at_end = bool(state.game.options.get("end_scoring"))
    lines = []
    for q in range(n):
        parts: list[tuple[str, int]] = [(_("Combinations"), sum(e[3] for e in state.log[q]))]
        # each combination scored, with its shape and when: its round, or the scoring phase
        # at the end in the "Wertung" variant (rules 7.3)
        items: list[tuple[str, int]] = []
        for r, k, _f, pts in state.log[q]:
            shape = _(SHAPE_NAMES[SHAPE_IDS[PL_SHAPE[k]]])
            items.append((_("End scoring: {shape}", shape=shape) if at_end
                          else _("Round {round}: {shape}", round=r, shape=shape), pts))
        if variant:
            parts.append((_("Rejections"), -state.rejcost[q]))
            if state.rejcost[q]:
                items.append((_("Rejections"), -state.rejcost[q]))
        note = ""
        level = [r for r in range(n) if r != q and state.pub[r] == state.pub[q]]
        if level:
            down = state.face_down_count(q)
            if all(state.face_down_count(r) == down for r in level):
                note = _n("level on points and on {n} face-down tile: the rank is shared",
                          "level on points and on {n} face-down tiles: the rank is shared", down)
            else:
                note = _n("level on points with {n} face-down tile; fewer face-down tiles win "
                          "the tie", "level on points with {n} face-down tiles; fewer face-down "
                          "tiles win the tie", down)
        lines.append(ScoreLine(q, tuple(parts), state.pub[q], note, tuple(items)).to_json())
    return lines


def observation_tensor(state: Position, player: int) -> np.ndarray:
    """The fixed-shape array of what ``player`` sees: per seat 13 planes of the window
    (6 colours, 6 objects, face down), the stock, score, rejections, caller and status."""
    n = state.n
    t = np.zeros(state.game.observation_shape, dtype=np.float32)
    off = 0
    per = 13 * NCELLS + NUM_TILES + 6
    for q in range(n):
        board, down, _cov = state.visible_layout(q, player)
        planes = t[off : off + 13 * NCELLS].reshape(13, NCELLS)
        for i in range(NCELLS):
            tile = board[i]
            if tile < 0:
                continue
            if (down >> i) & 1:
                planes[12, i] = 1
            else:
                planes[TILE_COLOUR[tile], i] = 1
                planes[6 + TILE_OBJECT[tile], i] = 1
        o = off + 13 * NCELLS
        for tile in bits(state.visible_stock(q, player)):
            t[o + tile] = 1
        o += NUM_TILES
        t[o] = state.pub[q] / 50
        t[o + 1] = state.visible_rejections(q, player)
        t[o + 2] = q == state.caller
        if state.phase == ROUND:
            t[o + 3 + state.status[q]] = 1
        off += per
    if state.tile >= 0:
        t[off + state.tile] = 1
    off += NUM_TILES
    if 0 <= player < n:
        t[off + player] = 1
    off += n
    t[off] = state.round / 25
    t[off + 1] = state.phase == END_SCORING
    if state.phase == ROUND and 0 <= player < n:
        t[off + 2] = state.step[player] == STEP_SCORE
    return t


def planes(game: Any) -> list[dict[str, Any]]:
    """The layout of :func:`observation_tensor`, in order: each part's ``name``, ``shape``,
    value range (``low``, ``high``) and ``meaning``. Seats are the table's own (seat 0 first);
    ``viewer`` says which one the tensor is for. Scores and rejections are bounded by the 36
    tiles: at most one scoring of 8 points and one rejection per called tile (a rejection
    never costs more than the score)."""
    n = game.num_players
    window = (W, W)
    out: list[dict[str, Any]] = []
    for q in range(n):
        seat = f"seat {q}"
        out += [
            {"name": f"seat{q}_colours", "shape": (6, *window), "low": 0.0, "high": 1.0,
             "meaning": f"{seat}: one plane per colour ({', '.join(COLOURS)}), 1 where a "
                        "face-up tile of that colour lies, as the viewer sees it"},
            {"name": f"seat{q}_objects", "shape": (6, *window), "low": 0.0, "high": 1.0,
             "meaning": f"{seat}: one plane per object ({', '.join(OBJECTS)})"},
            {"name": f"seat{q}_face_down", "shape": window, "low": 0.0, "high": 1.0,
             "meaning": f"{seat}: 1 where a tile lies face down"},
            {"name": f"seat{q}_stock", "shape": (NUM_TILES,), "low": 0.0, "high": 1.0,
             "meaning": f"{seat}: 1 for each tile still in the stock, as far as the viewer "
                        "knows"},
            {"name": f"seat{q}_score", "shape": (1,), "low": 0.0,
             "high": 8 * NUM_TILES / 50, "meaning": f"{seat}: public score / 50"},
            {"name": f"seat{q}_rejections", "shape": (1,), "low": 0.0,
             "high": float(NUM_TILES), "meaning": f"{seat}: rejections the viewer knows of"},
            {"name": f"seat{q}_caller", "shape": (1,), "low": 0.0, "high": 1.0,
             "meaning": f"1 when {seat} is the caller"},
            {"name": f"seat{q}_status", "shape": (len(STATUS_NAMES),), "low": 0.0,
             "high": 1.0, "meaning": f"{seat}: one-hot status during a round ("
                                     f"{', '.join(STATUS_NAMES)})"},
        ]
    out += [
        {"name": "called_tile", "shape": (NUM_TILES,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot tile called this round (all 0: none)"},
        {"name": "viewer", "shape": (n,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot seat of the viewer"},
        {"name": "round", "shape": (1,), "low": 0.0, "high": (NUM_TILES + 1) / 25,
         "meaning": "round number / 25"},
        {"name": "end_scoring", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "1 in the scoring phase of the end-scoring variant"},
        {"name": "scoring_step", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "1 when the viewer is choosing his scoring this round"},
    ]
    return out


# ------------------------------------------------------------------ the move log in words

def describe(state: Position, player: int, action: int) -> str:
    """A move of the log in the game's words, from the state before it: the start tiles, the
    caller, the tile the caller reveals; where a player puts it, what they score and which
    tile they turn face down."""
    if player == CHANCE:
        if state.phase == SETUP_START:
            return _("The start tile of the {ordinal} player in seat order is drawn and laid "
                     "face up: {tile}.", ordinal=notation.ordinal(len(state.start)),
                     tile=notation.the_tile(action))
        if state.phase == SETUP_CALLER:
            return _("The caller is chosen at random: the {ordinal} player in seat order; the "
                     "caller's stock is face down.", ordinal=notation.ordinal(action))
        return _("The caller reveals {tile}.", tile=notation.the_tile(action))
    kind = notation.describe_action(state, action, player)["kind"]
    if kind == "place":
        params = {"tile": notation.the_tile(state.tile),
                  "place": notation.layout_place(action, theirs=True)}
        if state.occ[player].bit_count() == 24:
            return _("places {tile} {place}, which completes their layout.", **params)
        return _("places {tile} {place}.", **params)
    if kind == "reject":
        return _n("rejects {tile} at a cost of {n} point, stacking it face down {place}.",
                  "rejects {tile} at a cost of {n} points, stacking it face down {place}.",
                  state.rej[player] + 2, tile=notation.the_tile(state.tile),
                  place=notation.layout_place(action - REJECT, theirs=True))
    if kind == "noscore":
        return _("scores nothing this round.")
    if kind == "pass":
        return _("passes: they have no combination left.")
    return notation.score_words(state, action, player, log=True)


def describe_unseen(state: Position, player: int) -> str:
    """A move the viewer may not know yet: what it was for, not where or what."""
    if player == CHANCE:
        if state.phase == SETUP_START:
            return _("A start tile is drawn.")
        if state.phase == SETUP_CALLER:
            return _("The caller is chosen at random.")
        return _("The caller reveals the next tile.")
    if state.phase == END_SCORING:
        return _("chooses a combination to score.")
    if state.step[player] == STEP_SCORE:
        return _("decides in secret whether to score.")
    return _("decides in secret where the revealed tile goes.")


def describe_setup(state: Position) -> str:
    """The set-up in one line: start tiles, the caller, the first tile revealed (all public)."""
    if state.phase == ROUND and state.tile >= 0:
        return _("Each player's start tile is drawn and laid face up, the caller is chosen at "
                 "random and the caller reveals {tile}.", tile=notation.the_tile(state.tile))
    return _("Each player's start tile is drawn and laid face up and the caller is chosen at "
             "random.")
