"""Building Mops Royal positions from the spec's layout grids, and independent checks."""

from __future__ import annotations

import meeple
from meeple.engine import CHANCE
from meeple.games.mops_royal.components import (
    ACTIVE,
    CODE_INDEX,
    FULL,
    REVEAL,
    ROUND,
    STEP_DONE,
    STEP_PLACE,
    STEP_SCORE,
    TILE_INDEX,
    TILES,
    cell_index,
)

# Appendix A of the rules, copied as text: the test's own source of truth for the shapes.
APPENDIX_A = {
    "I3": "oXo · o/X/o",
    "V3": "oX/.o · .o/oX · o./Xo · Xo/o.",
    "D3": "o../.X./..o · ..o/.X./o..",
    "I4": "oXXo · o/X/X/o",
    "L4": "Xo/X./o. · oXX/..o · .o/.X/oX · o../XXo · oX/.X/.o · o./X./Xo · XXo/o.. · ..o/oXX",
    "D4": "...o/..X./.X../o... · o.../.X../..X./...o",
    "S4": ".Xo/oX. · o./XX/.o · oX./.Xo · .o/XX/o.",
    "T4": "oXo/.o. · .o/oX/.o · .o./oXo · o./Xo/o.",
    "I5": "ooXoo · o/o/X/o/o",
    "D5": "....o/...o./..X../.o.../o.... · o..../.o.../..X../...o./....o",
    "V5": "Xoo/o../o.. · ooX/..o/..o · ..o/..o/ooX · o../o../Xoo",
    "L5": "oo/X./o./o. · ooXo/...o · .o/.o/.X/oo · o.../oXoo · oo/.X/.o/.o · o./o./X./oo · "
    "oXoo/o... · ...o/ooXo",
    "N5": ".o/Xo/o./o. · ooX./..oo · .o/.o/oX/o. · oo../.Xoo · o./oX/.o/.o · o./o./Xo/.o · "
    ".Xoo/oo.. · ..oo/ooX.",
    "F5": "..o/oXo/.o. · .o./oX./.oo · .o./oXo/o.. · oo./.Xo/.o. · o../oXo/.o. · .o./oXo/..o · "
    ".o./.Xo/oo. · .oo/oX./.o.",
    "U5": "oo/.X/oo · o.o/oXo · oo/X./oo · oXo/o.o",
    "X5": ".o./oXo/.o.",
    "Y5": ".o../oXoo · o./Xo/o./o. · ooXo/..o. · .o/.o/oX/.o · ..o./ooXo · oXoo/.o.. · "
    ".o/oX/.o/.o · o./o./Xo/o.",
}
POINTS = {3: 2, 4: 4, 5: 7}
CROWN_TILES = {"Bl", "Gm", "Ow", "Kc", "Ub", "Yp"}


def _diagram(rows: str):
    cells, marks = set(), set()
    for y, row in enumerate(rows.split("/")):
        for x, ch in enumerate(row):
            if ch in "oX":
                cells.add((x, y))
            if ch == "X":
                marks.add((x, y))
    return frozenset(cells), frozenset(marks)


SHAPE_TABLE: dict[frozenset, tuple[str, frozenset]] = {}
"""Normalized cell set -> (shape id, normalized marks), from Appendix A."""
for _sid, _text in APPENDIX_A.items():
    for _o in _text.split(" · "):
        _c, _m = _diagram(_o)
        SHAPE_TABLE[_c] = (_sid, _m)


def normalize(cells):
    """Shift (x, y) cells so the minimum x and y are 0; return the offset too."""
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return frozenset((x - x0, y - y0) for x, y in cells), (x0, y0)


def classify(cells):
    """(shape id, marks in layout coordinates) of a cell set, or None if it is no shape."""
    norm, (x0, y0) = normalize(cells)
    hit = SHAPE_TABLE.get(norm)
    if hit is None:
        return None
    sid, marks = hit
    return sid, {(x + x0, y + y0) for x, y in marks}


def brute_force_combinations(layout: dict, face_down: set):
    """Every legal combination of a layout (dict (x,y) -> short code), found by trying every
    subset of 3-5 face-up tiles of one colour or one object: {(frozenset cells): (shape,
    marks, points)}."""
    from itertools import combinations

    up = {c: t for c, t in layout.items() if c not in face_down}
    groups = {}
    for c, t in up.items():
        groups.setdefault(("colour", t[0]), []).append(c)
        groups.setdefault(("object", t[1]), []).append(c)
    out = {}
    for members in groups.values():
        for size in (3, 4, 5):
            for sub in combinations(members, size):
                hit = classify(sub)
                if hit is None:
                    continue
                crown = any(up[c] in CROWN_TILES for c in sub)
                out[frozenset(sub)] = (hit[0], hit[1], POINTS[size] + crown)
    return out


def grid(text: str, top_left=(0, 0)) -> dict:
    """A layout from rows of short codes: {(x, y): code}."""
    out = {}
    x0, y0 = top_left
    for dy, row in enumerate(text.strip().splitlines()):
        for dx, code in enumerate(row.split()):
            if code != "..":
                out[(x0 + dx, y0 + dy)] = code
    return out


def tile_of(code: str) -> int:
    return CODE_INDEX[code] if code in CODE_INDEX else TILE_INDEX[code]


def make_state(layouts: list[dict], starts=None, caller=0, players=None, down=None, **options):
    """A state in a round's placement/scoring step with the given layouts (short codes).

    Each layout's start tile is its tile at (0,0) unless ``starts`` says otherwise. The state
    is put at the start of a round's scoring step for every seat (``step``), with the
    caller's stock holding every tile not yet in his layout.
    """
    n = players or len(layouts)
    game = meeple.load("mops_royal", players=n, **options)
    s = game.new_initial_state()
    for p in range(n):
        lay = layouts[p] if p < len(layouts) else {(0, 0): "Bb"}
        start = tile_of(starts[p]) if starts else tile_of(lay[(0, 0)])
        s.apply(start, CHANCE)
    s.apply(caller, CHANCE)
    assert s.phase == REVEAL
    for p in range(n):
        lay = layouts[p] if p < len(layouts) else {(0, 0): "Bb"}
        for (x, y), code in lay.items():
            if (x, y) == (0, 0):
                continue
            t = tile_of(code)
            s.put_tile(p, cell_index(x, y), t)
            s.stock[p] &= ~(1 << t)
        for x, y in (down or {}).get(p, ()):
            s.turn_down(p, cell_index(x, y))
    s.stock[caller] = sum(1 << t for t in range(36) if s.stock[caller] >> t & 1)
    return s


def enter_scoring(s, tile: str | None = None):
    """Put ``s`` in a round where every seat is at its scoring step (no tile to place)."""
    s.phase = ROUND
    s.round = max(s.round, 2)
    s.tile = tile_of(tile) if tile else -1
    for p in range(s.n):
        s.status[p] = FULL if s.occ[p].bit_count() == 25 else ACTIVE
        s.mayscore[p] = True
        s.step[p] = STEP_SCORE
    s._legal_cache = {}
    return s


def enter_placement(s, tile: str):
    """Put ``s`` in a round where every seat must place ``tile`` (taken from the stocks)."""
    t = tile_of(tile)
    s.phase = ROUND
    s.tile = t
    s.stock[s.caller] &= ~(1 << t)
    for p in range(s.n):
        s.status[p] = ACTIVE
        s.mayscore[p] = True
        s.step[p] = STEP_PLACE
    s._legal_cache = {}
    return s


def score_combos(s, p):
    """{frozenset of (x,y) cells: (shape, {flips}, points)} from the legal score actions."""
    out = {}
    for a in s.legal_actions(p):
        d = s.describe_action(a, p)
        if d["kind"] != "score":
            continue
        key = frozenset(tuple(c) for c in d["combination"])
        shape, flips, pts = out.get(key, (d["shape"], set(), d["points"]))
        flips.add(tuple(d["flip"]))
        out[key] = (shape, flips, pts)
    return out


__all__ = [
    "STEP_DONE",
    "TILES",
    "brute_force_combinations",
    "classify",
    "enter_placement",
    "enter_scoring",
    "grid",
    "make_state",
    "score_combos",
    "tile_of",
]
