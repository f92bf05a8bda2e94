"""Each of the 17 shapes is found in all its orientations, and nothing else is."""

from __future__ import annotations

from itertools import combinations

import pytest

from meeple.games.mops_royal.components import MASK_TO_PL, PL_SHAPE, SHAPE_IDS, cell_index

from .helpers import (
    APPENDIX_A,
    SHAPE_TABLE,
    _diagram,
    classify,
    enter_scoring,
    make_state,
    score_combos,
)

BLUES = ["Bb", "Bl", "Bw", "Bc", "Bp", "Bm"]
PUGS = ["Bm", "Gm", "Om", "Km", "Um", "Ym"]

CHECKSUMS = {
    "I3": (2, 30), "V3": (4, 64), "D3": (2, 18), "I4": (2, 20), "L4": (8, 96), "D4": (2, 8),
    "S4": (4, 48), "T4": (4, 48), "I5": (2, 10), "D5": (2, 2), "V5": (4, 36), "L5": (8, 64),
    "N5": (8, 64), "F5": (8, 72), "U5": (4, 48), "X5": (1, 9), "Y5": (8, 64),
}


def layout_with(cells, codes):
    """A layout holding ``codes`` on ``cells``; the start tile (0,0) is one of the cells."""
    return dict(zip(cells, codes, strict=False))


def place_shape(cells, dx, dy):
    return [(x + dx, y + dy) for x, y in cells]


def expected_subsets(cells):
    """Every sub-combination of a set of matching tiles, by the test's own classifier."""
    out = {}
    for size in (3, 4, 5):
        for sub in combinations(cells, size):
            hit = classify(sub)
            if hit is not None:
                out[frozenset(sub)] = hit
    return out


ORIENTATION_CASES = [
    pytest.param(sid, o, id=f"{sid}-{i}")
    for sid, text in APPENDIX_A.items()
    for i, o in enumerate(text.split(" · "))
]


@pytest.mark.parametrize("sid,orientation", ORIENTATION_CASES)
@pytest.mark.parametrize("codes", [BLUES, PUGS], ids=["colour", "object"])
def test_every_orientation_is_found(sid, orientation, codes):
    cells, marks = _diagram(orientation)
    cells = sorted(cells)
    # put the first cell of the shape on the start tile, at each of two positions
    for anchor in (0, len(cells) - 1):
        ax, ay = cells[anchor]
        moved = place_shape(cells, -ax, -ay)
        lay = layout_with([(0, 0)] + [c for c in moved if c != (0, 0)], codes)
        s = enter_scoring(make_state([lay, {(0, 0): "Gl"}]))
        got = score_combos(s, 0)
        want = expected_subsets(list(lay))
        assert set(got) == set(want)
        full = frozenset(lay)
        shape, flips, pts = got[full]
        assert shape == sid
        assert flips == {(x - ax, y - ay) for x, y in marks}
        crown = any(code in ("Bl", "Gm") for code in lay.values())
        assert pts == {3: 2, 4: 4, 5: 7}[len(cells)] + crown


NON_SHAPES = {
    "square": "oo/oo",
    "P": "oo/oo/o.",
    "T": "ooo/.o./.o.",
    "W": "o../oo./.oo",
    "Z": "oo./.o./.oo",
}


def all_orientations(rows):
    cells, _ = _diagram(rows)
    out = set()
    for f in (
        lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
        lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (y, x), lambda x, y: (-y, -x),
    ):
        t = [f(x, y) for x, y in cells]
        x0 = min(x for x, _ in t)
        y0 = min(y for _, y in t)
        out.add(tuple(sorted((x - x0, y - y0) for x, y in t)))
    return sorted(out)


@pytest.mark.parametrize("name", list(NON_SHAPES))
def test_non_shapes_are_not_combinations(name):
    for cells in all_orientations(NON_SHAPES[name]):
        ax, ay = cells[0]
        moved = place_shape(cells, -ax, -ay)
        lay = layout_with([(0, 0)] + [c for c in moved if c != (0, 0)], BLUES)
        s = enter_scoring(make_state([lay, {(0, 0): "Gl"}]))
        got = score_combos(s, 0)
        assert frozenset(lay) not in got
        assert set(got) == set(expected_subsets(list(lay)))
        # and the notation refuses the whole cell set
        text = "score " + " ".join(f"({x},{y})" for x, y in lay) + " flip (0,0)"
        with pytest.raises(Exception, match="none of the 17"):
            s.string_to_action(text, 0)


def test_appendix_counts_and_checksums():
    assert sum(len(t.split(" · ")) for t in APPENDIX_A.values()) == 73
    assert len(SHAPE_TABLE) == 73
    square = [cell_index(x, y) for x in range(5) for y in range(5)]
    sq = 0
    for i in square:
        sq |= 1 << i
    counts: dict[str, int] = {}
    for mask, k in MASK_TO_PL.items():
        if mask & sq == mask:
            sid = SHAPE_IDS[PL_SHAPE[k]]
            counts[sid] = counts.get(sid, 0) + 1
    assert sum(counts.values()) == 701
    for sid, (n_orient, placements) in CHECKSUMS.items():
        assert len(APPENDIX_A[sid].split(" · ")) == n_orient
        assert counts[sid] == placements
