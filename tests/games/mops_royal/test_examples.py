"""The worked examples M1-M9 of the Mops Royal rules, one test each (or more)."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.games.mops_royal.components import NOSCORE, PASS, cell_xy

from .helpers import (
    brute_force_combinations,
    enter_placement,
    enter_scoring,
    grid,
    make_state,
    score_combos,
    tile_of,
)


def place_cells(s, p):
    out = set()
    for a in s.legal_actions(p):
        d = s.describe_action(a, p)
        if d["kind"] == "place":
            out.add(tuple(d["cell"]))
    return out


def layout_of(cells, code="Bb"):
    """A layout with the given cells, all holding distinct filler tiles (no combinations)."""
    fillers = ["Bb", "Gl", "Ow", "Kc", "Up", "Ym", "Bw", "Gc", "Op", "Km", "Ul", "Yb", "Bc", "Gp",
               "Om", "Kl", "Ub", "Yw", "Bp", "Gm", "Ol", "Kb", "Uw", "Yc", "Bm"]
    # a Latin-square like fill so that no three share a colour or object in a shape is not
    # needed here: only placement is tested
    cells = sorted(cells, key=lambda c: c != (0, 0))
    return {c: fillers[i] for i, c in enumerate(cells)}


# ------------------------------------------------------------------------------------- M1
def test_m1a_row_of_five():
    lay = layout_of([(x, 0) for x in range(5)])
    s = enter_placement(make_state([lay, {(0, 0): "Gl"}]), "Yp")
    expected = {(x, -1) for x in range(5)} | {(x, 1) for x in range(5)}
    assert place_cells(s, 0) == expected
    for bad in ("(-1,0)", "(5,0)", "(0,2)", "(5,1)"):
        if bad in ("(5,0)", "(5,1)"):
            with pytest.raises(meeple.NotationError):
                s.string_to_action(f"place {bad}", 0)
            continue
        a = s.string_to_action(f"place {bad}", 0)
        with pytest.raises(meeple.IllegalAction):
            s.apply(a, 0)


def test_m1b_l_of_nine():
    lay = layout_of([(0, y) for y in range(5)] + [(x, 0) for x in range(1, 5)])
    s = enter_placement(make_state([lay, {(0, 0): "Gl"}]), "Yp")
    assert place_cells(s, 0) == {(1, 1), (2, 1), (3, 1), (4, 1), (1, 2), (1, 3), (1, 4)}
    for bad in ("(2,2)", "(-1,0)"):
        with pytest.raises(meeple.IllegalAction):
            s.apply(s.string_to_action(f"place {bad}", 0), 0)


def test_m1c_block_three_by_five():
    lay = layout_of([(x, y) for x in (-1, 0, 1) for y in range(-2, 3)])
    s = enter_placement(make_state([lay, {(0, 0): "Gl"}]), "Yp")
    assert place_cells(s, 0) == {(x, y) for x in (-2, 2) for y in range(-2, 3)}
    for x in (-1, 0, 1):
        for y in (-3, 3):
            with pytest.raises(meeple.IllegalAction):
                s.apply(s.string_to_action(f"place ({x},{y})", 0), 0)


# ------------------------------------------------------------------------------------- M2
M2 = grid(
    """
    Bl Bb Yb
    Bc Bw Gw
    Kc Ub Ow
    """,
    (-1, -1),
)
M2_COMBOS = {
    frozenset({(-1, -1), (0, -1), (-1, 0)}): ("V3", {(-1, -1)}, 3),
    frozenset({(-1, -1), (0, -1), (0, 0)}): ("V3", {(0, -1)}, 3),
    frozenset({(-1, -1), (-1, 0), (0, 0)}): ("V3", {(-1, 0)}, 3),
    frozenset({(0, -1), (-1, 0), (0, 0)}): ("V3", {(0, 0)}, 2),
    frozenset({(0, 0), (1, 0), (1, 1)}): ("V3", {(1, 0)}, 3),
}


def test_m2_all_combinations_of_a_three_by_three():
    s = enter_scoring(make_state([M2, {(0, 0): "Gl"}]))
    assert score_combos(s, 0) == M2_COMBOS
    for bad in (
        "score (-1,-1) (0,-1) (-1,0) (0,0) flip (0,0)",
        "score (0,-1) (1,-1) (0,1) flip (0,1)",
        "score (-1,0) (-1,1) flip (-1,0)",
    ):
        with pytest.raises(meeple.NotationError):
            s.string_to_action(bad, 0)


def test_m2_placement_ring():
    s = enter_placement(make_state([M2, {(0, 0): "Gl"}]), "Yp")
    assert place_cells(s, 0) == {
        (-1, -2), (0, -2), (1, -2), (-2, -1), (2, -1), (-2, 0),
        (2, 0), (-2, 1), (2, 1), (-1, 2), (0, 2), (1, 2),
    }


def test_m2_no_bone_combination_and_unmatched_line_is_illegal():
    s = enter_scoring(make_state([M2, {(0, 0): "Gl"}]))
    # the row Bl Bb Yb is a shape but shares nothing: the action exists but is not legal
    a = s.string_to_action("score I3 (-1,-1) (0,-1) (1,-1) flip (0,-1)", 0)
    with pytest.raises(meeple.IllegalAction):
        s.apply(a, 0)


# ------------------------------------------------------------------------------------- M3
def test_m3_turning_over_removes_combinations():
    s = enter_scoring(make_state([M2, {(0, 0): "Gl"}]))
    before = s.score[0]
    s.apply(s.string_to_action("score V3 (-1,-1) (0,-1) (0,0) flip (0,-1)", 0), 0)
    assert s.score[0] == before + 3
    board, down, _ = s.visible_layout(0, 0)
    assert [cell_xy(i) for i in range(81) if down >> i & 1] == [(0, -1)]
    # one scoring per round: player 0 has nothing more to choose this round
    assert 0 not in s.pending_players()
    with pytest.raises(meeple.IllegalAction):
        s.apply(s.string_to_action("score V3 (-1,-1) (-1,0) (0,0) flip (-1,0)", 0), 0)
    enter_scoring(s)
    assert score_combos(s, 0) == {
        frozenset({(-1, -1), (-1, 0), (0, 0)}): ("V3", {(-1, 0)}, 3),
        frozenset({(0, 0), (1, 0), (1, 1)}): ("V3", {(1, 0)}, 3),
    }


# ------------------------------------------------------------------------------------- M4
M4 = grid(
    """
    Ym Km Yc Bw
    Gm Yl Uc Bp
    Om Gl Gp Ob
    Kl Kp Kw Kb
    """
)
M4_COMBOS = {
    frozenset({(0, 0), (1, 0), (0, 1), (0, 2)}): ("L4", {(0, 0), (0, 1)}, 5),
    frozenset({(0, 0), (1, 0), (0, 1)}): ("V3", {(0, 0)}, 3),
    frozenset({(0, 0), (0, 1), (0, 2)}): ("I3", {(0, 1)}, 3),
    frozenset({(3, 1), (2, 2), (1, 3)}): ("D3", {(2, 2)}, 2),
    frozenset({(0, 3), (1, 3), (2, 3), (3, 3)}): ("I4", {(1, 3), (2, 3)}, 4),
    frozenset({(0, 3), (1, 3), (2, 3)}): ("I3", {(1, 3)}, 2),
    frozenset({(1, 3), (2, 3), (3, 3)}): ("I3", {(2, 3)}, 2),
}


def test_m4_two_marks_and_subsets():
    s = enter_scoring(make_state([M4, {(0, 0): "Gl"}]))
    assert score_combos(s, 0) == M4_COMBOS
    for bad in (
        "score (0,0) (1,1) (2,0) flip (1,1)",
        "score (0,1) (1,2) (2,2) flip (1,2)",
        "score (1,0) (0,1) (0,2) flip (0,1)",
        "score L4 (0,0) (1,0) (0,1) (0,2) flip (1,0)",
        "score L4 (0,0) (1,0) (0,1) (0,2) flip (0,2)",
    ):
        with pytest.raises(meeple.NotationError):
            s.string_to_action(bad, 0)


@pytest.mark.parametrize("flip", ["(0,1)", "(0,0)"])
def test_m4_after_the_l(flip):
    s = enter_scoring(make_state([M4, {(0, 0): "Gl"}]))
    s.apply(s.string_to_action(f"score L4 (0,0) (1,0) (0,1) (0,2) flip {flip}", 0), 0)
    enter_scoring(s)
    left = score_combos(s, 0)
    assert set(left) == {
        frozenset({(3, 1), (2, 2), (1, 3)}),
        frozenset({(0, 3), (1, 3), (2, 3), (3, 3)}),
        frozenset({(0, 3), (1, 3), (2, 3)}),
        frozenset({(1, 3), (2, 3), (3, 3)}),
    }


# ------------------------------------------------------------------------------------- M5
M5 = grid(
    """
    Bb Yl Km Bw Gc
    Kw Gb Ol Yc Bm
    Gp Ow Ob Oc Yw
    Bc Ym Op Kb Kl
    Ul Uw Uc Up Ub
    """
)


def diag(a, b):
    return frozenset((i, i) for i in range(a, b + 1))


def test_m5_complete_layout():
    s = enter_scoring(make_state([M5, {(0, 0): "Gl"}]))
    combos = score_combos(s, 0)
    sizes = [len(c) for c in combos]
    assert len(combos) == 23
    assert (sizes.count(3), sizes.count(4), sizes.count(5)) == (12, 8, 3)
    plus = frozenset({(2, 1), (1, 2), (2, 2), (3, 2), (2, 3)})
    row = frozenset((x, 4) for x in range(5))
    assert combos[diag(0, 4)] == ("D5", {(2, 2)}, 8)
    assert combos[plus] == ("X5", {(2, 2)}, 8)
    assert combos[row] == ("I5", {(2, 4)}, 8)
    assert combos[diag(0, 3)] == ("D4", {(1, 1), (2, 2)}, 4)
    assert combos[diag(1, 4)] == ("D4", {(2, 2), (3, 3)}, 5)
    for arm, pts in (((2, 3), 5), ((3, 2), 5), ((1, 2), 4), ((2, 1), 5)):
        assert combos[plus - {arm}] == ("T4", {(2, 2)}, pts)
    assert combos[frozenset((x, 4) for x in range(4))] == ("I4", {(1, 4), (2, 4)}, 4)
    assert combos[frozenset((x, 4) for x in range(1, 5))] == ("I4", {(2, 4), (3, 4)}, 5)
    # no placement: the layout is complete
    enter_placement(s, "Yp")
    assert place_cells(s, 0) == set()


@pytest.mark.parametrize("shape", ["D5", "X5"])
def test_m5_after_the_centre_is_turned(shape):
    s = enter_scoring(make_state([M5, {(0, 0): "Gl"}]))
    cells = {"D5": "(0,0) (1,1) (2,2) (3,3) (4,4)", "X5": "(2,1) (1,2) (2,2) (3,2) (2,3)"}
    s.apply(s.string_to_action(f"score {shape} {cells[shape]} flip (2,2)", 0), 0)
    enter_scoring(s)
    left = {c: v[2] for c, v in score_combos(s, 0).items()}
    assert left == {
        frozenset({(0, 4), (1, 4), (2, 4)}): 2,
        frozenset({(1, 4), (2, 4), (3, 4)}): 2,
        frozenset({(2, 4), (3, 4), (4, 4)}): 3,
        frozenset((x, 4) for x in range(4)): 4,
        frozenset((x, 4) for x in range(1, 5)): 5,
        frozenset((x, 4) for x in range(5)): 8,
    }


def test_m5_brute_force_agrees():
    s = enter_scoring(make_state([M5, {(0, 0): "Gl"}]))
    brute = brute_force_combinations(M5, set())
    got = score_combos(s, 0)
    assert set(got) == set(brute)
    for cells, (shape, marks, pts) in brute.items():
        assert got[cells] == (shape, marks, pts)


# ------------------------------------------------------------------------------------- M6
def play_round(s, reveal, moves):
    """Reveal ``reveal``; each seat then plays its listed moves (or its first legal action)."""
    s.apply(s.string_to_action(f"reveal {reveal}", CHANCE), CHANCE)
    assert s.current_player == SIMULTANEOUS
    for p in list(s.pending_players()):
        for text in moves.get(p, []):
            s.apply(s.string_to_action(text, p), p)
        while p in s.pending_players():
            legal = s.legal_actions(p)
            s.apply(NOSCORE if NOSCORE in legal else legal[0], p)


def test_m6_sit_out_and_complete_layouts():
    for when_full in (True, False):
        g = meeple.load("mops_royal", players=2, score_when_full=when_full)
        s = g.new_initial_state()
        s.apply(s.string_to_action("start pink-bone", CHANCE), CHANCE)
        s.apply(s.string_to_action("start green-poop", CHANCE), CHANCE)
        s.apply(s.string_to_action("caller P0", CHANCE), CHANCE)
        order = [t for t in range(36) if t not in (tile_of("Kb"), tile_of("Gp"))]
        # rounds 1-6, then green-poop, then the rest
        reveals = order[:6] + [tile_of("Gp")] + order[6:]
        from meeple.games.mops_royal.components import TILES

        for r, t in enumerate(reveals[:24], start=1):
            s.apply(t, CHANCE)
            if r == 7:
                assert s.pending_players() == [0]
                assert s.status[1] == 1  # SITOUT
                a = s.legal_actions(0)[0]
                with pytest.raises(meeple.IllegalAction):
                    s.apply(a, 1)
            for p in list(s.pending_players()):
                while p in s.pending_players():
                    legal = s.legal_actions(p)
                    s.apply(NOSCORE if NOSCORE in legal else legal[0], p)
        assert s.occ[0].bit_count() == 25 and s.occ[1].bit_count() == 24
        assert not s.is_terminal()
        s.apply(s.string_to_action(f"reveal {TILES[reveals[24]]}", CHANCE), CHANCE)
        assert s.status[0] == 2  # FULL
        if when_full and s.combos[0]:
            assert 0 in s.pending_players()
        if not when_full:
            assert 0 not in s.pending_players()
        assert 1 in s.pending_players()
        for p in list(s.pending_players()):
            while p in s.pending_players():
                legal = s.legal_actions(p)
                s.apply(NOSCORE if NOSCORE in legal else legal[0], p)
        assert s.is_terminal()


def test_m6_game_ends_after_24_rounds_without_sitting_out():
    g = meeple.load("mops_royal", players=2)
    s = g.new_initial_state()
    s.apply(tile_of("Kb"), CHANCE)
    s.apply(tile_of("Gl"), CHANCE)
    s.apply(0, CHANCE)
    order = [t for t in range(36) if t not in (tile_of("Kb"), tile_of("Gl"))]
    for t in order[:24]:
        assert not s.is_terminal()
        s.apply(t, CHANCE)
        for p in list(s.pending_players()):
            while p in s.pending_players():
                legal = s.legal_actions(p)
                s.apply(NOSCORE if NOSCORE in legal else legal[0], p)
    assert s.is_terminal()
    assert s.round == 24


# ------------------------------------------------------------------------------------- M7
def m7_state(score=6, count=0, empty=15, caller_left=None, start_in_stock=True):
    """P1 (not the caller) with one face-down cell (1,0) and ``25 - empty`` tiles."""
    codes = ["Bb", "Yl", "Km", "Bw", "Gc", "Kw", "Gb", "Ol", "Yc", "Bm", "Gp", "Ow", "Ob", "Oc",
             "Yw", "Bc", "Ym", "Op", "Kb", "Kl", "Ul", "Uw", "Uc", "Up", "Ub"]
    cells = [(x, y) for y in range(5) for x in range(5)][: 25 - empty]
    lay = {c: codes[i] for i, c in enumerate(cells)}
    s = make_state([{(0, 0): "Yl"}, lay], down={1: [(1, 0)]}, replacement_tiles=True)
    s.score[1] = s.pub[1] = score
    s.rej[1] = count
    if caller_left is not None:
        s.stock[0] = sum(1 << tile_of(c) for c in caller_left)
    return s


def test_m7a_first_rejection():
    s = m7_state()
    s.stock[0] = sum(1 << t for t in range(26)) & ~(1 << tile_of("Yl"))
    enter_placement(s, "Gw")
    a = s.string_to_action("reject (1,0)", 1)
    assert a in s.legal_actions(1)
    s.apply(a, 1)
    assert s.score[1] == 4 and s.covers[1] == {s.rreject[1]: 1} and s.rej[1] == 1
    # others do not see it before the round is over
    assert s.observation(0)["rejections"][1] == 0
    assert s.observation(1)["rejections"][1] == 1


@pytest.mark.parametrize("count,score,after", [(1, 6, 3), (2, 3, 0), (3, 0, 0)])
def test_m7b_rising_costs_and_clamp(count, score, after):
    s = m7_state(score=score, count=count)
    s.stock[0] = (1 << 36) - 1 - (1 << tile_of("Yl"))
    enter_placement(s, "Gw")
    s.apply(s.string_to_action("reject (1,0)", 1), 1)
    assert s.score[1] == after
    assert s.rej[1] == count + 1


def test_m7c_cost_paid_before_scoring():
    lay = grid("Bb Bw Bc", (0, 0))
    lay[(0, 1)] = "Gl"
    s = make_state([{(0, 0): "Yl"}, lay], down={1: [(0, 1)]}, replacement_tiles=True)
    s.score[1] = s.pub[1] = 1
    s.rej[1] = 1
    s.stock[0] = (1 << 36) - 1 - (1 << tile_of("Yl"))
    enter_placement(s, "Gw")
    s.apply(s.string_to_action("reject (0,1)", 1), 1)
    assert s.score[1] == 0
    s.apply(s.string_to_action("score I3 (0,0) (1,0) (2,0) flip (1,0)", 1), 1)
    assert s.score[1] == 2  # 0 + 2 (no crown in Bb Bw Bc)


def test_m7c_with_three_points():
    lay = grid("Bl Bw Bc", (0, 0))
    lay[(0, 0)] = "Bb"
    lay[(3, 0)] = "Bl"
    lay[(0, 1)] = "Gl"
    s = make_state([{(0, 0): "Yl"}, lay], down={1: [(0, 1)]}, replacement_tiles=True)
    s.score[1] = s.pub[1] = 1
    s.rej[1] = 1
    s.stock[0] = (1 << 36) - 1 - (1 << tile_of("Yl"))
    enter_placement(s, "Gw")
    s.apply(s.string_to_action("reject (0,1)", 1), 1)
    s.apply(s.string_to_action("score I3 (1,0) (2,0) (3,0) flip (2,0)", 1), 1)
    assert s.score[1] == 3


def test_m7d_no_face_down_cell_means_place():
    s = make_state([{(0, 0): "Yl"}, grid("Bb Bw Bc")], replacement_tiles=True)
    enter_placement(s, "Gw")
    assert all(s.describe_action(a, 1)["kind"] == "place" for a in s.legal_actions(1))
    with pytest.raises(meeple.IllegalAction):
        s.apply(s.string_to_action("reject (1,0)", 1), 1)


@pytest.mark.parametrize("with_start,legal", [(True, False), (False, True)])
def test_m7e_feasibility(with_start, legal):
    s = m7_state(empty=3)
    left = ["Yb", "Ym", "Kp"] if not with_start else ["Yb", "Ym", "Bb"]
    # after the reveal of Gw the caller's stock holds exactly `left`
    s.stock[0] = sum(1 << tile_of(c) for c in left + ["Gw"])
    s.start[1] = tile_of("Bb")
    enter_placement(s, "Gw")
    a = s.string_to_action("reject (1,0)", 1)
    assert (a in s.legal_actions(1)) is legal


# ------------------------------------------------------------------------------------- M8
M8_P1 = grid(
    """
    Gl Ym Gb Up Oc
    Gc Kl Ub Op Ol
    Ob Gp Km Yl Kw
    Ul Yc Ow Uc Bw
    Kb Yw Bm Uw Bc
    """
)


def test_m8_end_scoring():
    s = make_state([M5, M8_P1], end_scoring=True)
    enter_scoring(s)
    assert set(score_combos(s, 1)) == {frozenset({(4, 0), (3, 1), (4, 1)})}
    # the round ends with nobody choosing: go straight to the scoring phase
    s.step = [2, 2]
    s._end_round()
    assert s.current_player == 0
    seq = [
        (0, "score D5 (0,0) (1,1) (2,2) (3,3) (4,4) flip (2,2)", [8, 0]),
        (1, "score V3 (4,0) (3,1) (4,1) flip (4,1)", [8, 2]),
        (0, "score I5 (0,4) (1,4) (2,4) (3,4) (4,4) flip (2,4)", [16, 2]),
        (1, "pass", [16, 2]),
        (0, "pass", [16, 2]),
    ]
    for i, (p, text, after) in enumerate(seq):
        assert s.current_player == p
        if i == 2:
            assert len(score_combos(s, 0)) == 6
            assert PASS not in s.legal_actions(0)
        s.apply(s.string_to_action(text, p), p)
        assert s.scores() == after
    assert s.is_terminal()
    assert s.winners() == [0]


def best_total(s, p):
    """Best total a player can still score alone in the end-scoring phase (search)."""
    best = 0
    for a in s.legal_actions(p):
        if a == PASS:
            continue
        t = s.clone()
        before = t.score[p]
        t.apply(a, p)
        gain = t.score[p] - before
        t.turn = p
        best = max(best, gain + best_total(t, p))
    return best


def test_m8_solver_check():
    s = make_state([M5, {(0, 0): "Gl"}], end_scoring=True)
    s.phase = 4  # END_SCORING
    s.turn = 0
    s.passes = 0
    assert best_total(s, 0) == 23


def test_m8_must_score_if_able():
    s = make_state([M5, M8_P1], end_scoring=True)
    s.step = [2, 2]
    s._end_round()
    with pytest.raises(meeple.IllegalAction):
        s.apply(PASS, 0)


# ------------------------------------------------------------------------------------- M9
def test_m9_tie_break():
    s = make_state([{(0, 0): "Bb"}, {(0, 0): "Gl"}, {(0, 0): "Yw"}])
    s.phase = 5  # OVER
    s.pub = [31, 31, 29]
    s.down = [0b1111111, 0b111111, 0b1111]
    assert s.ranks() == [2, 1, 3]
    assert s.winners() == [1]
    s.down[1] = 0b1111111
    assert s.ranks() == [1, 1, 3]
    assert s.winners() == [0, 1]
    s.covers[0] = {0: 2}
    assert s.face_down_count(0) == 7
