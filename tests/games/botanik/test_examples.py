"""The worked examples B1-B8 of the Botanik rules, one test each (plus the notation table)."""

from __future__ import annotations

import pytest

import meeple
from meeple.games.botanik.rules import ADD, SWAP, SWAP_BASE, TAKE, add_action

from .helpers import adds_text, build, fresh, set_registry, tid


def texts(s, player=None):
    return sorted(s.action_to_string(a, player) for a in s.legal_actions(player))


# ---------------------------------------------------------------- 2.2 / 2.7 encoding
def test_tile_indices_and_action_ids():
    s = fresh()
    assert tid(s, "R-EL1") == 3 and tid(s, "B-CR") == 48 and tid(s, "K-MB") == 64
    assert tid(s, "SRC0") == 65 and tid(s, "SRC1") == 66
    assert s.game.num_distinct_actions == 59219
    assert add_action(0, 1, 3) == 650 + 4 * (60 * 121 + 61) + 3
    assert s.ts.matches(tid(s, "R-ST1"), tid(s, "R-PL"))
    assert s.ts.matches(tid(s, "R-ST1"), tid(s, "G-ST3"))
    assert not s.ts.matches(tid(s, "R-ST1"), tid(s, "G-EL2"))


def test_tile_set_counts():
    s = fresh()
    ts = s.ts
    kinds = [ts.type[t] for t in range(65)]
    assert [kinds.count(k) for k in range(7)] == [15, 15, 15, 5, 5, 5, 5]
    assert sum(ts.flowers[:65]) == 45
    assert [len(ts.rotations[tid(s, n)]) for n in ("R-ST1", "R-EL1", "R-TE1", "R-CR", "R-PL")] \
        == [2, 4, 4, 1, 4]


# ---------------------------------------------------------------- B1
def test_b1_taking_and_placing():
    s = set_registry(
        fresh(),
        tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"],
        rows={0: {1: "Y-ST3"}},
        arrival=["R-EL1", "G-ST1", "B-CR"],
    )
    legal = s.legal_actions(0)
    own = sorted(s.action_to_string(a, 0) for a in legal if a % 10 < 5)
    assert own == ["own B-CR@3", "own G-ST1@0", "own G-ST1@2", "own R-EL1@0"]
    assert len(legal) == 19
    assert s.string_to_action("own R-EL1@0", 0) == 30
    assert s.string_to_action("pile B-CR@4", 0) == 489
    for bad in ("own R-EL1@1", "own B-CR@4", "own R-EL1@2"):
        with pytest.raises(meeple.IllegalAction):
            s.apply(s.string_to_action(bad, 0), 0)
    assert len(s.legal_actions(0)) == 19


# ---------------------------------------------------------------- B2
def b2(move):
    s = set_registry(
        fresh(),
        tops=["R-ST2", "Y-EL2", "G-PL", "B-TE2", "K-CR"],
        rows={0: {2: "G-EL2"}, 1: {2: "R-PL"}},
        arrival=["Y-ST2", "G-ST3", "B-ST1"],
    )
    s.apply(s.string_to_action(move, 0), 0)
    return s


def test_b2_two_releases_active_first():
    s = b2("pile Y-ST2@2")
    assert s.rows[2] == -1 and s.rows[7] == -1
    assert s.phase == ADD and s.pend_player == 0 and s.pend_tile == tid(s, "G-EL2")
    s.apply(s.legal_actions(0)[0], 0)
    assert s.phase == ADD and s.pend_player == 1 and s.pend_tile == tid(s, "R-PL")
    s.apply(s.legal_actions(1)[0], 1)
    assert s.phase == TAKE and s.current_player == 1  # step B: the other player


def test_b2_one_release():
    s = b2("pile G-ST3@2")
    assert s.rows[2] == tid(s, "G-EL2") and s.rows[7] == -1
    assert s.phase == ADD and s.pend_player == 1 and s.pend_tile == tid(s, "R-PL")


def test_b2_own_space_never_releases():
    s = b2("own Y-ST2@1")
    assert s.rows[2] == tid(s, "G-EL2") and s.rows[7] == tid(s, "R-PL")
    assert s.phase == TAKE and s.current_player == 1


# ---------------------------------------------------------------- B3
@pytest.mark.parametrize(
    "name,count", [("R-ST1", 4), ("R-EL1", 8), ("R-TE1", 12), ("R-CR", 4), ("R-PL", 4),
                   ("R-VE", 4)]
)
def test_b3_first_additions(name, count):
    assert len(adds_text(fresh(), 0, name)) == count


def test_b3_straights_and_tee():
    s = fresh()
    assert adds_text(s, 0, "R-ST1") == [(-1, 0, 0), (0, -1, 1), (0, 1, 1), (1, 0, 0)]
    tee = [k for r, c, k in adds_text(s, 0, "R-TE1") if (r, c) == (0, 1)]
    assert tee == [1, 2, 3]


# ---------------------------------------------------------------- B4
def b4_machine():
    return build(fresh(), 0, [("R-PL", -1, 0, 2), ("G-PL", 0, 1, 3), ("Y-PL", 1, 0, 0)])


def test_b4_main_network_stays_open():
    s = b4_machine()
    assert s.open_ends(0) == 1
    adds = adds_text(s, 0, "B-PL")
    assert (0, -1, 1) not in adds
    assert adds == sorted([
        (-2, 0, 0), (-2, 0, 1), (-2, 0, 3), (-1, -1, 0), (-1, -1, 2), (-1, -1, 3),
        (-1, 1, 0), (-1, 1, 1), (0, 2, 0), (0, 2, 1), (0, 2, 2), (1, -1, 0), (1, -1, 2),
        (1, -1, 3), (1, 1, 1), (1, 1, 2), (2, 0, 1), (2, 0, 2), (2, 0, 3),
    ])
    assert len(adds) == 19
    assert (0, -1, 1) in adds_text(s, 0, "B-ST2")
    build(s, 0, [("B-PL", -2, 0, 0)])
    assert s.main_tiles(0) == 3  # the new plant is outside the main network


# ---------------------------------------------------------------- B5
def b5_machine(**options):
    return build(fresh(**options), 0, [("R-EL1", 0, 1, 3), ("R-EL2", -1, 0, 1)])


def test_b5_loops_allowed_by_default():
    s = b5_machine()
    assert s.open_ends(0) == 4
    assert (-1, 1, 2) in adds_text(s, 0, "R-EL3")
    build(s, 0, [("R-EL3", -1, 1, 2)])
    assert s.open_ends(0) == 2
    b = s.breakdown(0)
    assert (b["group_points"], b["flower_points"], b["total"]) == (3, 1, 4)


def test_b5_forbid_loops():
    s = b5_machine(forbid_loops=True)
    assert not [a for a in adds_text(s, 0, "R-EL3") if a[:2] == (-1, 1)]


# ---------------------------------------------------------------- B6
def b6_machine():
    s = fresh()
    build(s, 0, [("R-PL", -1, 0, 2), ("G-PL", 0, 1, 3), ("Y-PL", 1, 0, 0)])
    # the separate closed loop in the NW, built one tile at a time
    build(s, 0, [("B-EL1", -1, -1, 3), ("B-EL2", -2, -1, 2), ("B-EL3", -2, -2, 1),
                 ("K-EL1", -1, -2, 0)])
    return s


def test_b6_tile_that_fits_nowhere_is_discarded():
    s = b6_machine()
    assert s.open_ends(0) == 1
    assert adds_text(s, 0, "K-CR") == []
    tee = adds_text(s, 0, "K-TE2")
    assert len(tee) == 9 and (0, -1, 1) in tee
    # released through the registry, the cross is discarded automatically
    set_registry(s, tops=["R-ST2", "Y-EL2", "G-PL", "B-TE2", "Y-ST1"],
                 rows={0: {4: "K-CR"}}, arrival=["R-EL2", "G-ST3", "B-ST2"])
    s.apply(s.string_to_action("pile R-EL2@4", 0), 0)
    assert s.discarded == [tid(s, "K-CR")] and "discard K-CR" in s.log
    assert s.phase == TAKE and s.current_player == 1


# ---------------------------------------------------------------- B7
def b7():
    s = set_registry(
        fresh(),
        tops=["R-ST2", "Y-EL2", "G-PL", "B-TE2", "K-CR"],
        rows={0: {1: "R-EL3", 3: "B-MB"}, 1: {1: "Y-ST3", 2: "G-TE3"}},
        arrival=["K-ST1", "R-TE1", "Y-PL"],
        active=1,
    )
    s.apply(s.string_to_action("pile K-ST1@3", 1), 1)
    return s


def test_b7_meca_swap_and_chain():
    s = b7()
    assert s.phase == SWAP and s.current_player == 0 and s.pend_tile == tid(s, "B-MB")
    assert texts(s, 0) == [f"swap {j}" for j in range(5)]
    s.apply(s.string_to_action("swap 1", 0), 0)
    assert s.piles[1][-1] == tid(s, "B-MB") and len(s.piles[1]) == 1
    assert s.phase == ADD and s.current_player == 0 and s.pend_tile == tid(s, "Y-EL2")
    assert len(s.legal_actions(0)) == 8
    s.apply(s.string_to_action("add Y-EL2@0,1/3", 0), 0)
    # chain check on column 1, the active player (P1) first
    assert s.phase == ADD and s.current_player == 1 and s.pend_tile == tid(s, "Y-ST3")
    assert len(s.legal_actions(1)) == 4
    s.apply(s.legal_actions(1)[0], 1)
    assert s.phase == ADD and s.current_player == 0 and s.pend_tile == tid(s, "R-EL3")
    assert len(s.legal_actions(0)) == 12
    s.apply(s.legal_actions(0)[0], 0)
    assert s.phase == TAKE
    assert s.rows[:5] == [-1] * 5
    assert s.rows[5:] == [-1, -1, tid(s, "G-TE3"), -1, -1]
    assert s.piles[1][-1] == tid(s, "B-MB") and s.piles[3][-1] == tid(s, "K-ST1")
    assert sorted(s.ts.ids[t] for t in s.mtile[0].values()) == ["R-EL3", "SRC0", "Y-EL2"]
    assert sorted(s.ts.ids[t] for t in s.mtile[1].values()) == ["SRC1", "Y-ST3"]


def test_b7_other_swap():
    s = b7()
    s.apply(SWAP_BASE + 2, 0)
    assert s.pend_tile == tid(s, "G-PL")
    s.apply(s.legal_actions(0)[0], 0)
    assert s.phase == ADD and s.current_player == 1 and s.pend_tile == tid(s, "G-TE3")
    s.apply(s.legal_actions(1)[0], 1)
    assert s.rows[1] == tid(s, "R-EL3")  # P0's space 1 stays


def test_meca_discarded_when_every_top_is_meca():
    s = set_registry(
        fresh(),
        tops=["R-MB", "Y-MB", "G-MB", "B-MB", "R-ST1"],
        rows={0: {4: "K-MB"}},
        arrival=["K-MB", "R-TE1", "Y-PL"],
    )
    # a Meca on pile 4 keeps K-MB (same type): nothing released
    s.apply(s.string_to_action("pile K-MB@4", 0), 0)
    assert s.rows[4] == tid(s, "K-MB") and s.phase == TAKE
    s2 = set_registry(
        fresh(),
        tops=["R-MB", "Y-MB", "G-MB", "B-MB", "R-ST1"],
        rows={0: {4: "K-MB"}},
        arrival=["Y-PL", "R-TE1", "Y-EL1"],
    )
    s2.apply(s2.string_to_action("pile Y-PL@4", 0), 0)  # releases K-MB; tops: 4 Mecas + Y-PL
    assert s2.phase == SWAP and s2.legal_actions(0) == [SWAP_BASE + 4]


# ---------------------------------------------------------------- B8
P0_B8 = [
    ("R-ST2", 0, 1, 1), ("R-TE2", 0, 2, 1), ("R-PL", 0, 3, 3), ("R-EL1", 1, 2, 3),
    ("G-ST1", 1, 1, 1), ("G-EL2", 1, 0, 0), ("G-PL", 2, 1, 1), ("B-ST2", 2, 2, 1),
    ("Y-VE", -1, 0, 2), ("Y-ST1", 0, -1, 1), ("Y-TE2", 0, -2, 0), ("Y-PL", 1, -2, 0),
]
P1_B8 = [
    ("B-ST1", 0, 1, 1), ("B-ST3", 0, 2, 1), ("B-EL1", 0, 3, 2), ("B-PL", 1, 3, 0),
    ("K-TE1", -1, 0, 2), ("K-ST2", -2, 0, 0), ("K-VE", -1, -1, 1), ("G-ST2", 1, 0, 0),
]


@pytest.mark.parametrize("group_needs_pipe", [False, True])
def test_b8_final_scoring_and_tie_break(group_needs_pipe):
    s = fresh(group_needs_pipe=group_needs_pipe)
    build(s, 0, P0_B8)
    build(s, 1, P1_B8)
    b0, b1 = s.breakdown(0), s.breakdown(1)
    assert sorted(b0["removed"]) == ["B-ST2", "G-PL"]
    assert (b0["group_points"], b0["flower_points"], b0["total"], b0["main_tiles"]) == (7, 9, 16,
                                                                                       10)
    assert (b1["group_points"], b1["flower_points"], b1["total"], b1["main_tiles"]) == (7, 9, 16, 8)
    assert s.open_ends(0) == 1
    s.phase = 5  # the end
    s._sync()
    s.log.append("end")
    assert s.is_terminal() and s.winners() == [0] and s.returns() == [1.0, -1.0]
    obs = s.observation(None)
    assert [b["total"] for b in obs["final_breakdown"]] == [16, 16]


# ---------------------------------------------------------------- option group_needs_pipe
@pytest.mark.parametrize("group_needs_pipe,groups", [(False, 4), (True, 0)])
def test_groups_by_adjacency_or_by_pipes(group_needs_pipe, groups):
    s = fresh(group_needs_pipe=group_needs_pipe)
    # R-PL touches R-ST1 through a blank edge: adjacent, but not pipe-linked
    build(s, 0, [("R-ST1", 0, 1, 1), ("R-ST2", 0, 2, 1), ("R-EL2", -1, 0, 1), ("R-PL", -1, 1, 3)])
    b = s.breakdown(0)
    assert b["group_points"] == groups
    assert b["flower_points"] == 4  # R-ST1 1 + R-PL 3 (piped to the red elbow)
    assert b["main_tiles"] == 4


def test_plant_piped_into_the_source_scores_no_flowers():
    s = build(fresh(), 0, [("G-PL", 0, 1, 3), ("G-VE", 1, 0, 0), ("G-EL1", 0, -1, 1)])
    b = s.breakdown(0)
    # green group of 3 (G-PL at (0,1) is not adjacent to the others: only 2 touch) -> 0
    assert b["flower_points"] == 1 and b["group_points"] == 0


def test_tiles_left_in_rows_score_nothing():
    s = set_registry(fresh(), tops=["R-ST2", "Y-EL2", "G-PL", "B-TE2", "K-CR"],
                     rows={0: {0: "R-PL"}}, arrival=["R-EL1", "G-ST1", "B-CR"])
    assert s.scores() == [0.0, 0.0]
