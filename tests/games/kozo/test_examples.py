"""The worked examples of the Kozo rules (rules.md section 9), one test each."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine import CHANCE
from meeple.games.kozo import physics
from meeple.games.kozo.components import ORIENTATIONS, PLACEMENTS_BY_PIECE, RING

APPENDIX_A_P7 = (
    "000 001 002 010|000 001 002 012|000 001 002 100|000 001 002 102|000 001 010 020|"
    "000 001 011 021|000 001 100 200|000 001 101 201|000 010 011 012|000 010 020 021|"
    "000 010 020 100|000 010 020 120|000 010 100 200|000 010 110 210|000 100 101 102|"
    "000 100 110 120|000 100 200 201|000 100 200 210|001 011 020 021|001 101 200 201|"
    "002 010 011 012|002 100 101 102|010 110 200 210|020 100 110 120"
)
APPENDIX_A_SCREWS = {
    10: "000 001 010 110|000 001 011 100|000 001 101 111|000 010 011 111|000 010 100 101|"
        "000 100 110 111|001 010 011 101|001 011 110 111|001 100 101 110|010 011 100 110|"
        "010 101 110 111|011 100 101 111",
    11: "000 001 010 101|000 001 011 111|000 001 100 110|000 010 011 100|000 010 110 111|"
        "000 100 101 111|001 010 011 110|001 011 100 101|001 101 110 111|010 011 101 111|"
        "010 100 101 110|011 100 110 111",
}


def cubes(text: str):
    return [tuple(tuple(int(ch) for ch in c) for c in o.split()) for o in text.split("|")]


def play(state, *moves):
    for m in moves:
        state.apply(state.string_to_action(m))
    return state


def cells(state, i=-1):
    return sorted(state.tower[i][5])


# ------------------------------------------------------------------------------ Z1
def test_z1_orientation_counts_and_first_move():
    assert [len(o) for o in ORIENTATIONS] == [3, 3, 12, 3, 3, 12, 24, 12, 8, 12, 12, 12]
    assert [len(p) for p in PLACEMENTS_BY_PIECE] == [16, 12, 36, 8, 8, 24, 56, 24, 8, 12, 12,
                                                      20]
    state = meeple.load("kozo", players=2).new_initial_state()
    assert len(state.legal_actions()) == 236


def test_z1_appendix_a_orientations():
    assert list(ORIENTATIONS[6]) == cubes(APPENDIX_A_P7)
    for p, text in APPENDIX_A_SCREWS.items():
        assert list(ORIENTATIONS[p - 1]) == cubes(text)


def test_z1_encoding():
    s = meeple.load("kozo", players=2).new_initial_state()
    assert ORIENTATIONS[11][5] == ((0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 0, 0), (2, 0, 0))
    assert s.string_to_action("P12.5@0,0") == 2421
    assert ORIENTATIONS[2][10] == ((0, 0, 1), (1, 0, 0), (1, 0, 1))
    assert ORIENTATIONS[0][0] == ((0, 0, 0), (0, 0, 1))
    assert s.string_to_action("P1.0@2,1") == 5
    assert s.string_to_action("B@2,1") == 2596
    assert s.action_to_string(2596, 0) == "B@2,1"
    assert s.string_to_action(" p12 . 5 @ 0 , 0 ") == 2421  # forgiving of spacing and case
    with pytest.raises(meeple.NotationError, match="Pp.o@dx,dy"):
        s.string_to_action("P12-5")
    with pytest.raises(meeple.NotationError, match="orientations 0..2"):
        s.string_to_action("P1.3@0,0")


# ------------------------------------------------------------------------------ Z2
@pytest.mark.parametrize("text,ident,legal", [
    ("P5.2@0,0", 882, False), ("P2.2@0,1", 237, False), ("P2.1@1,0", 226, False),
    ("P4.2@0,0", 666, False), ("P5.0@0,0", 864, True), ("P5.0@1,0", 865, False),
])
def test_z2_footprint(text, ident, legal):
    s = meeple.load("kozo", players=2).new_initial_state()
    assert s.string_to_action(text) == ident
    assert (ident in s.legal_actions()) is legal
    if not legal:
        with pytest.raises(meeple.IllegalAction, match="chimney or outside"):
            s.apply(ident)
    assert not any(PLACEMENTS_BY_PIECE[3][k][3] for k in range(0))  # no lying I fits


# ------------------------------------------------------------------------------ Z3
def test_z3_balance_resting_overhang():
    s = meeple.load("kozo", players=2).new_initial_state()
    play(s, "P12.5@0,0")
    legal = [s.action_to_string(a) for a in s.legal_actions()]
    assert legal == ["B@0,0", "B@1,0", "B@2,0", "B@0,1", "B@0,2"]
    play(s, "B@0,0")
    assert s.surface(0) == 157
    bad = s.string_to_action("P1.2@0,0")
    assert bad not in s.legal_actions()
    with pytest.raises(meeple.IllegalAction, match="balance cube"):
        s.apply(bad)
    ok = s.string_to_action("P1.2@1,0")
    assert ok in s.legal_actions() and s.resting_cubes(ok)[0] == 1
    play(s, "P3.10@0,0")
    assert cells(s) == [(0, 0, 2), (1, 0, 1), (1, 0, 2)]
    assert s.top[0] == 3 and not s.bal[0] and s.top[1] == 3
    assert [s.action_to_string(a) for a in s.legal_actions()] == [
        "B@0,0", "B@1,0", "B@2,0", "B@0,1", "B@0,2"]
    assert s.last_check["result"] == "stable"
    pieces, balances = s.physics_tower()
    assert physics.mujoco_verdict(pieces, balances)[0]


# ------------------------------------------------------------------------------ Z4
Z4 = {
    "A": (["P12.5@0,0", "P1.1@2,1", "P2.1@2,0"], True),
    "B": (["P12.5@0,0", "P2.1@2,0"], False),
    "C": (["P2.0@0,0", "P7.12@0,0"], False),
}


def z4_tower(moves):
    s = meeple.load("kozo", players=2).new_initial_state()
    pieces = []
    for m in moves:
        _, cs = s.resting_cubes(s.string_to_action(m))
        pieces.append(([tuple(int(v) for v in c) for c in cs], 0.0, 0.0))
        s._place(s.string_to_action(m))
    return pieces


@pytest.mark.parametrize("scene", sorted(Z4))
def test_z4_both_referees(scene):
    moves, stands = Z4[scene]
    pieces = z4_tower(moves)
    assert physics.static_stands(pieces) is stands
    ok, moved, disp, tilt = physics.mujoco_verdict(pieces)
    assert ok is stands
    if scene == "A":
        assert sorted(pieces[-1][0]) == [(2, 0, 1), (2, 1, 1), (2, 2, 1)]
    if scene == "B":
        assert moved == [1] and 0.3 < disp < 0.5 and 20 < tilt < 40
    if scene == "C":
        assert sorted(pieces[-1][0]) == [(0, 0, 3), (0, 1, 3), (1, 0, 3), (2, 0, 3)]


# ------------------------------------------------------------------------------ Z5
Z5 = [
    # round 1
    ("P12.5@0,0", "B@0,0"), ("P7.2@1,2", "B@2,2"), ("P6.7@0,0", "B@2,0"),
    ("P1.0@2,1", "B@2,1"), ("P2.2@0,0", None),
    # round 2
    ("P12.8@0,0", "B@2,2"), ("P4.0@0,1", "B@0,1"), ("P2.2@0,0", "B@1,0"),
    ("P3.2@0,2", "B@1,2"), ("P6.2@2,0", None),
    # round 3
    ("P12.6@0,0", "B@0,1"), ("P3.8@1,0", "B@1,0"), ("P7.23@1,0", "B@2,2"),
    ("P9.4@0,1", "B@0,1"), ("P1.1@2,0", "B@0,2"), ("P2.1@2,0", "B@2,0"),
    ("P8.1@0,0", "B@2,2"), ("P6.1@0,0", "B@0,0"), ("P11.8@1,0", "B@2,1"),
    ("P4.0@1,2", "B@1,2"), ("P5.1@1,0", "B@1,0"), ("P10.8@1,0", "B@2,1"),
]
Z5_CELLS = {
    2: [(1, 2, 0), (1, 2, 1), (1, 2, 2), (2, 2, 0)],
    3: [(0, 0, 2), (0, 1, 1), (0, 1, 2), (0, 2, 2)],
    5: [(0, 0, 3), (1, 0, 3), (2, 0, 3)],
    10: [(2, 0, 2), (2, 1, 2), (2, 1, 3), (2, 2, 2)],
    19: [(1, 0, 5), (2, 0, 5), (2, 1, 4), (2, 1, 5)],
    22: [(1, 0, 9), (2, 0, 8), (2, 0, 9), (2, 1, 8)],
}


def run_z5(game):
    s = game.new_initial_state()
    order = [0, 1, 2, 0, 1, 1, 2, 0, 1, 2] + [2, 0, 1] * 4
    for turn, (poly, bal) in enumerate(Z5, start=1):
        assert s.current_player == order[turn - 1], turn
        play(s, poly)
        if turn in Z5_CELLS:
            snap = s.last_check["tower"][0][-1][5]
            assert sorted(snap) == Z5_CELLS[turn], turn
        if bal is None:
            assert s.last_check["result"] == "fallen", turn
            continue
        assert s.last_check["result"] == "stable", turn
        if turn == 22:
            assert [s.action_to_string(a) for a in s.legal_actions()] == [
                "B@1,0", "B@2,0", "B@2,1"]
        play(s, bal)
        if turn < 22:
            assert s.last_check["result"] == "stable", turn
    return s


@pytest.mark.parametrize("tie_break", ["last_successful", "last_taken"])
def test_z5_full_game_static(tie_break):
    s = run_z5(meeple.load("kozo", players=3, tie_break_turn=tie_break))
    assert s.is_terminal()
    assert [r["points"] for r in s.round_log] == [[7, 0, 4], [3, 8, 0], [13, 15, 17]]
    assert [r["end"] for r in s.round_log] == ["fall", "fall", "complete"]
    assert s.scores() == [23.0, 23.0, 21.0]
    assert s.ranks() == [2, 1, 3] and s.winners() == [1]
    assert s.last_success == [21, 22, 20]
    fb = s.observation(None)["final_breakdown"]
    assert [row["player"] for row in fb] == [0, 1, 2]
    assert [[(p["label"], p["value"]) for p in row["parts"]] for row in fb] == [
        [("Round 1", 7), ("Round 2", 3), ("Round 3", 13)],
        [("Round 1", 0), ("Round 2", 8), ("Round 3", 15)],
        [("Round 1", 4), ("Round 2", 0), ("Round 3", 17)],
    ]
    assert [row["total"] for row in fb] == [23, 23, 21]
    # the tie-break turns decide between the level P0 and P1; P2 is not level with anyone
    assert "game turn 21" in fb[0]["note"] and "game turn 22" in fb[1]["note"]
    assert "note" not in fb[2]


@pytest.mark.slow
def test_z5_full_game_mujoco():
    s = run_z5(meeple.load("kozo", players=3, stability="mujoco"))
    assert s.scores() == [23.0, 23.0, 21.0] and s.winners() == [1]


def test_z5_round_one_falls_by_mujoco_too():
    g = meeple.load("kozo", players=3, stability="mujoco", rounds=1)
    s = g.new_initial_state()
    for poly, bal in Z5[:5]:
        play(s, poly)
        if bal:
            play(s, bal)
    assert s.is_terminal() and s.scores() == [7.0, 0.0, 4.0]
    assert s.observation(None)["last_check"]["fell"]


# ------------------------------------------------------------------------------ Z6
def test_z6_tremor_offsets_and_checks():
    g = meeple.load("kozo", players=2, tremor=0.1)
    s = g.new_initial_state()
    play(s, "P12.5@0,0")
    assert s.current_player == CHANCE
    s.apply(s.string_to_action("tremor 0,0"))
    play(s, "B@0,0", "P1.1@2,1")
    assert s.current_player == CHANCE
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(9))
    assert all(p == pytest.approx(1 / 9) for _, p in outcomes)
    expected = [(-0.1, 0), (-0.1, 0), (-0.1, 0.1), (0, 0), (0, 0), (0, 0.1), (0.1, 0),
                (0.1, 0), (0.1, 0.1)]
    for k in range(9):
        assert s._tremor_offset(k) == pytest.approx(expected[k]), k
    for k in (2, 6, 8):  # a few outcomes through both MuJoCo checks (all stand)
        t = s.clone()
        t.apply(k)
        assert t.last_check["result"] == "stable" and t.last_check["referee"] == "mujoco"
        play(t, "B@2,2")
        assert t.last_check["result"] == "stable"
        assert t.physics_tower()[0][-1][1:] == (0.0, 0.0)  # next turn: nominal pose
    assert s.string_to_action("tremor -1,1") == 2


# ------------------------------------------------------------------------------ Z7
def z7_position(**options):
    g = meeple.load("kozo", players=2, **options)
    s = g.new_initial_state()
    rs, oc = options.get("random_size"), options.get("opponent_choice")
    if rs:
        assert dict(s.chance_outcomes())[2] == pytest.approx(8 / 12)
        play(s, "draw 4")
    if oc:
        play(s, "piece P9" if rs else "size 4")
    play(s, "P9.2@0,1", "B@0,2")
    if rs:
        assert dict(s.chance_outcomes())[1] == pytest.approx(2 / 11)
        play(s, "draw 3")
    if oc:
        play(s, "piece P3" if rs else "size 3")
    play(s, "P3.9@2,0", "B@2,0")
    return s


def test_z7_random_size_position_and_blocked_round():
    s = z7_position(random_size=True)
    assert [s.top[y * 3 + x] for x, y in RING] == [0, 0, 2, 1, 2, 2, 1, 0]
    assert [s.bal[y * 3 + x] for x, y in RING] == [0, 0, 1, 0, 0, 1, 0, 0]
    assert s.observation(None)["tiles_face_down"] == [2, 3] + [4] * 7 + [5]
    assert dict(s.chance_outcomes()) == pytest.approx({0: 0.1, 1: 0.1, 2: 0.7, 3: 0.1})
    counts = {p: len(list(s._legal_placements(1 << (p - 1)))) for p in
              (1, 2, 4, 5, 6, 7, 8, 10, 11, 12)}
    assert counts == {1: 10, 2: 6, 4: 6, 5: 4, 6: 10, 7: 19, 8: 10, 10: 6, 11: 7, 12: 0}
    play(s, "draw 5")  # the V cannot be placed: the round ends blocked
    assert s.round == 1 and s.current_player == CHANCE and s.active == 1
    assert s.round_log[0]["end"] == "blocked" and s.round_log[0]["points"] == [4, 3]
    assert s.scores() == [4.0, 3.0]


def test_z7_opponent_choice():
    s = z7_position(opponent_choice=True)
    assert s.current_player == 1
    assert s.legal_actions() == [2600, 2601, 2602]
    with pytest.raises(meeple.IllegalAction):
        s.apply(2603)


def test_z7_both_variants():
    s = z7_position(random_size=True, opponent_choice=True)
    play(s, "draw 4")
    assert s.current_player == 1
    assert [s.action_to_string(a) for a in s.legal_actions()] == [
        "piece P4", "piece P5", "piece P6", "piece P7", "piece P8", "piece P10", "piece P11"]
    play(s, "piece P7")
    assert len(s.legal_actions()) == 19 and s.current_player == 0


def test_mujoco_version_is_the_pinned_one():
    """The golden MuJoCo outcomes above were recorded with MuJoCo 4.0.x (rules.md 2.6.2)."""
    import mujoco

    assert mujoco.__version__.startswith("4.0.")
