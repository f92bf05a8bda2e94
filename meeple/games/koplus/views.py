"""KoPlus views: the JSON observation (everything is public once the board is built), the
observation tensor and the final breakdown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from meeple.engine import CHANCE, TERMINAL
from meeple.engine.i18n import N_, words
from meeple.engine.scores import ScoreLine

from . import notation
from .components import SECTION_SIZE, SHAPE_NAMES, SHAPE_TARGET, TILES_PER_PLAYER

_, _n = words(__file__)


class Board(notation.Board, Protocol):
    """What the views read of the board's geometry (``rules.Geometry`` is one)."""

    cells: list[tuple[int, ...]]
    shape_ids: tuple[int, int]

    def ids_of(self, ids: int) -> list[int]: ...


class Setup(notation.Setup, Protocol):
    """What the views read of the game (``rules.KoPlus`` is one)."""

    rows: int
    cols: int
    rotations: int
    section_grid: tuple[int, int]
    sections: tuple[tuple[tuple[int, ...], ...], ...]


class Position(notation.Position, Protocol):
    """What the views read of a position (``rules.KoPlusState`` is one): the rules import
    this module, never the other way round."""

    aliens: bytes | None
    bonus_left: list[int]
    bonus_turn: bool
    cand: int
    current_player: int
    inner: tuple[int, int, int, int]
    nplayers: int
    placed: list[tuple[int, int]]
    running: list[int]
    taken: list[int]

    @property
    def game(self) -> Setup: ...

    @property
    def geo(self) -> Board: ...

    def can_place(self, player: int) -> bool: ...

    def cells_of(self, action: int) -> list[tuple[int, int]]: ...

    def final_result(self) -> list[dict[str, Any]] | None: ...

    def final_scoring(self) -> list[dict[str, Any]]: ...

    def position_after(self, player: int, action: int) -> Position: ...

    def top_shape(self, player: int) -> int: ...


ALIENS_CAUGHT = N_("Aliens caught")
LARGEST_GROUP = N_("Largest group")
ISOLATED_TILES = N_("Isolated tiles")
SMALLER_GROUPS = N_("Tiles in smaller groups")
"""The labels of the final breakdown's parts (rules 6.2: the points caught during play, +5
for the largest group, −5 per isolated tile, −3 per tile in a group smaller than the
player's largest)."""

SHAPE_LETTERS = {0: "X", 1: "U", -1: None}
"""A top tile's shape as the observation names it (``None``: the stack is empty)."""


def board_aliens(state: Position) -> Sequence[int]:
    """The alien value of every cell, row-major; while dealing, of the sections laid so far."""
    if state.aliens is not None:
        return state.aliens
    geo = state.geo
    cols = geo.cols
    aliens = [0] * geo.size
    _, sc = state.game.section_grid
    for pos, (sec, rot) in enumerate(state.layout):
        values = state.game.sections[sec][rot]
        base = geo.grid.index((pos // sc) * SECTION_SIZE, (pos % sc) * SECTION_SIZE)
        for i in range(SECTION_SIZE):
            for j in range(SECTION_SIZE):
                aliens[base + i * cols + j] = values[i * SECTION_SIZE + j]
    return aliens


def observation(state: Position, player: int | None) -> dict[str, Any]:
    """The board, the tiles, the stacks, scores and bonus turns left, and the phase."""
    geo = state.geo
    game = state.game
    rows, cols = geo.rows, geo.cols
    aliens = board_aliens(state)
    owner = [-1] * geo.size
    tiles = []
    for p, a in state.placed:
        for i in geo.cells[a]:
            owner[i] = p
        tiles.append(
            {
                "player": p,
                "notation": notation.action_to_string(state, a, p),
                "shape": SHAPE_NAMES[a // geo.size],
                "cells": [list(rc) for rc in state.cells_of(a)],
                "points": state.psum[a] if state.psum is not None else 0,
            }
        )
    sr, sc = game.section_grid if state.layout else (0, 0)
    sections = []
    for pos, (sec, rot) in enumerate(state.layout):
        sections.append(
            {
                "position": pos,
                "section": notation.section_name(sec),
                "rotation": rot,
                "row": (pos // sc) * SECTION_SIZE,
                "col": (pos % sc) * SECTION_SIZE,
            }
        )
    n = state.nplayers
    if state.current_player == TERMINAL:
        phase = "end"
    elif state.current_player == CHANCE:
        phase = "setup"
    else:
        phase = "play"
    r0, r1, c0, c1 = state.inner
    return {
        "phase": phase,
        "rows": rows,
        "cols": cols,
        "section_size": SECTION_SIZE,
        "section_grid": list(game.section_grid),
        "sections": sections,
        "sections_dealt": len(state.layout),
        "aliens": [list(aliens[r * cols : (r + 1) * cols]) for r in range(rows)],
        "owner": [owner[r * cols : (r + 1) * cols] for r in range(rows)],
        "tiles": tiles,
        "inner_area": {"rows": [r0, r1], "cols": [c0, c1]},
        "running_scores": list(state.running),
        "tiles_left": [TILES_PER_PLAYER - t for t in state.taken],
        "next_shape": [SHAPE_LETTERS[state.top_shape(p)] for p in range(n)],
        "bonus_left": list(state.bonus_left),
        "bonus_turn": state.bonus_turn,
        "can_place": [state.can_place(p) for p in range(n)] if state.aliens else [False] * n,
        "last_tile": tiles[-1] if tiles else None,
        "final_breakdown": final_breakdown(state),
    }


def score_lines(state: Position) -> list[ScoreLine]:
    """One score line per player for the end-of-game scoring (rules 6.2), as if the game
    ended now: the aliens caught, the largest-group bonus and the two penalties, adding up to
    the final score; where the tiles in hand break a tie on points, the note gives them
    (rules 6.3)."""
    scoring = state.final_result() or state.final_scoring()
    lines = []
    for b in scoring:
        hand = b["tiles_in_hand"]
        decides = any(o["final"] == b["final"] and o["tiles_in_hand"] != hand for o in scoring)
        note = _n("{n} tile in hand (on level points, more tiles in hand ranks higher)",
                  "{n} tiles in hand (on level points, more tiles in hand ranks higher)",
                  hand) if decides else ""
        lines.append(ScoreLine(
            b["player"],
            (
                (_(ALIENS_CAUGHT), b["running_score"]),
                (_(LARGEST_GROUP), b["largest_group_bonus"]),
                (_(ISOLATED_TILES), b["isolated_penalty"]),
                (_(SMALLER_GROUPS), b["non_maximal_penalty"]),
            ),
            b["final"],
            note,
        ))
    return lines


def final_breakdown(state: Position) -> list[dict[str, Any]] | None:
    """The observation's final breakdown: the score lines once the game is over, else
    ``None``."""
    if state.final_result() is None:
        return None
    return [line.to_json() for line in score_lines(state)]


def observation_tensor(state: Position, player: int) -> np.ndarray:
    """Planes (rows × cols each): aliens/5, owner per seat counted from ``player``, empty,
    inner area, then ``player``'s legal-by-board anchors per orientation (X, U0..U3);
    then per seat from ``player``: score/100, tiles left/12, top tile is U, bonus left/3;
    then whether ``player`` is to act and whether the board is complete."""
    geo = state.geo
    game = state.game
    rows, cols, size = game.rows, game.cols, game.rows * game.cols
    n = state.nplayers
    planes = np.zeros((8 + n, size), dtype=np.float32)
    if geo.size == size:
        if state.aliens is not None:
            planes[0] = np.frombuffer(state.aliens, dtype=np.uint8) / 5.0
        for p, a in state.placed:
            planes[1 + (p - player) % n, list(geo.cells[a])] = 1.0
        planes[1 + n] = 1.0 - planes[1 : 1 + n].sum(axis=0)
        r0, r1, c0, c1 = state.inner
        planes[2 + n].reshape(rows, cols)[r0 : r1 + 1, c0 : c1 + 1] = 1.0
        shape = state.top_shape(player)
        if shape >= 0 and state.aliens is not None:
            for a in geo.ids_of(state.cand & geo.shape_ids[shape]):
                k, rest = divmod(a, size)
                planes[3 + n + k, rest] = 1.0
    scalars = np.zeros(4 * n + 2, dtype=np.float32)
    for i in range(n):
        p = (player + i) % n
        scalars[4 * i] = state.running[p] / 100.0
        scalars[4 * i + 1] = (TILES_PER_PLAYER - state.taken[p]) / TILES_PER_PLAYER
        scalars[4 * i + 2] = 1.0 if state.top_shape(p) == 1 else 0.0
        scalars[4 * i + 3] = state.bonus_left[p] / 3.0
    scalars[4 * n] = 1.0 if state.current_player == player else 0.0
    scalars[4 * n + 1] = 1.0 if state.aliens is not None else 0.0
    return np.concatenate([planes.reshape(-1), scalars])


def planes(game: Any) -> list[dict[str, Any]]:
    """The layout of :func:`observation_tensor`, in order: each part's ``name``, ``shape``,
    value range (``low``, ``high``) and ``meaning``. Seats count from the viewer (seat 0 of a
    part is the player the tensor is for)."""
    n, rows, cols = game.num_players, game.rows, game.cols
    cells = (rows, cols)
    return [
        {"name": "aliens", "shape": cells, "low": 0.0, "high": 1.0,
         "meaning": "alien value of each cell / 5 (0 while the board is being dealt)"},
        {"name": "tiles", "shape": (n, rows, cols), "low": 0.0, "high": 1.0,
         "meaning": "1 where a tile of each seat covers the cell, seats from the viewer"},
        {"name": "empty", "shape": cells, "low": 0.0, "high": 1.0,
         "meaning": "1 where no tile lies"},
        {"name": "inner_area", "shape": cells, "low": 0.0, "high": 1.0,
         "meaning": "1 on the inner area"},
        {"name": "placements", "shape": (5, rows, cols), "low": 0.0, "high": 1.0,
         "meaning": "the viewer's next tile: 1 at the anchor of each placement the board "
                    "allows, per orientation (X, then U turned 0 to 3 times)"},
        {"name": "seats", "shape": (n, 4), "low": 0.0, "high": (3.0, 1.0, 1.0, 1.0),
         "meaning": "per seat from the viewer: points caught / 100, tiles left / 12, the "
                    "next tile is a U, bonus turns left / 3"},
        {"name": "to_act", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "1 when the viewer is to act"},
        {"name": "board_complete", "shape": (1,), "low": 0.0, "high": 1.0,
         "meaning": "1 once every section is laid"},
    ]


# ------------------------------------------------------------------ the move log in words

def describe(state: Position, player: int, action: int) -> str:
    """A move of the log in the game's words, from the state before it: a board section laid
    (chance), or a tile laid with the aliens it catches, a bonus turn, the end of the game."""
    if player == CHANCE:
        return _("{what}.", what=notation.describe_action(state, action, player)["label"])
    after = state.position_after(player, action)
    over = after.current_player == TERMINAL
    if action == state.geo.pass_id:
        if over:
            return _("passes: there is no place left for their tile, and the game is over.")
        return _("passes: there is no place left for their tile.")
    k, r, c = notation.placement(state, action)
    tr, tc = SHAPE_TARGET[SHAPE_NAMES[k]]
    where = notation.place_words(r + tr, c + tc)
    if k == 0:
        placed = _("places a plus centred on {where}", where=where)
    else:
        placed = notation.u_words(k, where)
    aliens = board_aliens(state)
    cols = state.geo.cols
    caught = [aliens[rr * cols + cc] for rr, cc in state.cells_of(action)
              if aliens[rr * cols + cc]]
    if caught:
        points = sum(caught)
        # TRANSLATORS: {aliens} is e.g. "2 aliens", {points} e.g. "7 points"
        catch = _("catches {aliens} worth {points}",
                  aliens=_n("{n} alien", "{n} aliens", len(caught)),
                  points=_n("{n} point", "{n} points", points))
    else:
        catch = _("catches no aliens")
    if over:
        return _("{placed}, {caught} and the game is over.", placed=placed, caught=catch)
    if after.current_player == player and after.bonus_turn:
        score = after.running[player]
        if caught:
            return _("{placed}, {caught} and reaches {score} points, which earns a bonus turn.",
                     placed=placed, caught=catch, score=score)
        return _("{placed}, {caught} and stays on {score} points, which earns a bonus turn.",
                 placed=placed, caught=catch, score=score)
    return _("{placed} and {caught}.", placed=placed, caught=catch)


def describe_setup(state: Position) -> str:
    """The board built by its chance events, in one line."""
    laid = len(state.layout)
    rows, cols = state.game.section_grid
    if state.game.rotations > 1:
        return _("The board is built from {laid} sections drawn at random, {rows} by {cols}, "
                 "each turned at random.", laid=laid, rows=rows, cols=cols)
    return _("The board is built from {laid} sections drawn at random, {rows} by {cols}, "
             "none of them turned.", laid=laid, rows=rows, cols=cols)
