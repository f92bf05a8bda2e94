"""The worked examples of the KoPlus rules (K1–K6 and fixture F2), one test each."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine import CHANCE, TERMINAL, IllegalAction, NotationError
from meeple.games.koplus import KoPlusState

F2_DEALS = [0, 5, 10, 15, 16, 21, 26, 31, 32]
F2_GRID = """
2 . 4 . 2 . . . 3 . . .
. . 1 5 . . 3 . 1 5 . 4
. . 3 . . 1 5 . . . . 1
. . . 1 1 . . 4 . . 2 .
2 . 1 . . 1 . 2 2 5 . 1
. 3 . . . . 3 . . . 1 .
. . . 5 1 5 . . . 4 . .
. 4 1 . . . . 4 3 . . .
. . . 1 . 1 . . 2 1 4 .
3 1 2 . 2 . . 4 3 . . .
. . . 5 . 5 . . 5 . 1 .
. . 4 . 1 . 3 . . . . .
"""


def f2(**options) -> KoPlusState:
    """The 2-player fixture F2, dealt by its chance outcomes."""
    state = meeple.load("koplus", players=2, **options).new_initial_state()
    for a in F2_DEALS:
        state.apply(a)
    assert isinstance(state, KoPlusState)
    return state


def play(state, *moves: str) -> None:
    for text in moves:
        state.apply(state.string_to_action(text))


def refused(state, text: str) -> str:
    """Apply ``text`` expecting a refusal; return the reason; check nothing changed."""
    before = (state.history(), state.observation(None))
    with pytest.raises(IllegalAction) as err:
        state.apply(state.string_to_action(text))
    assert (state.history(), state.observation(None)) == before
    return err.value.reason


def test_f2_board_and_inner_area():
    state = f2()
    grid = [[0 if x == "." else int(x) for x in line.split()] for line in F2_GRID.split("\n")
            if line.strip()]
    obs = state.observation(0)
    assert obs["aliens"] == grid
    assert (grid[6][5], grid[7][7], grid[1][3], grid[9][7], grid[0][8]) == (5, 4, 5, 4, 3)
    assert obs["inner_area"] == {"rows": [4, 7], "cols": [4, 7]}
    assert obs["phase"] == "play" and state.current_player == 0


def test_section_rotation_example():
    """S02 turned once clockwise reads 2... / ..3. / .15. / 1..4."""
    state = meeple.load("koplus", players=2).new_initial_state()
    state.apply(4 * 1 + 1)
    top_left = [row[:4] for row in state.observation(None)["aliens"][:4]]
    assert top_left == [[2, 0, 0, 0], [0, 0, 3, 0], [0, 1, 5, 0], [1, 0, 0, 4]]


def test_k1_first_move():
    state = f2()
    legal = state.legal_actions()
    assert len(legal) == 24
    texts = {state.action_to_string(a) for a in legal}
    assert texts == {f"U{k}@{r},{c}" for k in range(4)
                     for r in range(4, 8 - (3 if k % 2 else 2) + 1)
                     for c in range(4, 8 - (2 if k % 2 else 3) + 1)}
    assert state.string_to_action("U2@6,5") == 509
    assert state.describe_action(509)["points"] == 9
    assert state.describe_action(state.string_to_action("U0@4,4"))["points"] == 3
    assert "inner area" in refused(state, "U1@4,7")
    assert "top tile is U" in refused(state, "X@5,5")
    assert "only when" in refused(state, "pass")
    play(state, "U2@6,5")
    assert state.scores() == [9.0, 0.0]


def test_k2_contact_and_catch_limit():
    state = f2()
    play(state, "U2@6,5")
    assert state.current_player == 1
    assert len(state.legal_actions()) == 14
    x75 = state.string_to_action("X@7,5")
    assert x75 in state.legal_actions()
    assert state.describe_action(x75)["points"] == 1
    assert "share an edge" in refused(state, "X@8,5")
    assert "cover a tile" in refused(state, "X@5,4")
    assert "out of the board" in refused(state, "X@10,10")
    play(state, "X@3,4", "X@7,3")
    assert state.current_player == 1
    assert "sum to 10" in refused(state, "U0@6,1")


K3_MOVES = ["U2@6,5", "X@3,4", "X@7,3", "U1@3,3", "U2@8,7", "X@2,0", "U0@10,4"]


def test_k3_bonus_chain():
    state = f2()
    play(state, *K3_MOVES[:4])
    assert state.scores() == [13.0, 3.0]
    play(state, K3_MOVES[4])
    assert state.scores()[0] == 20 and state.current_player == 0
    assert state.bonus_left == [1, 3]
    assert state.observation(0)["bonus_turn"] is True
    play(state, K3_MOVES[5])  # worth 0: still on 20, bonus again
    assert state.scores()[0] == 20 and state.current_player == 0
    assert state.bonus_left == [0, 3]
    play(state, K3_MOVES[6])
    obs = state.observation(None)
    assert obs["scores"] == [24.0, 3.0]
    assert obs["bonus_left"] == [0, 3]
    assert state.current_player == 1
    assert obs["tiles_left"] == [7, 10]
    assert obs["next_shape"] == ["X", "X"]
    assert [p for p, _ in state.history()[9:]] == [0, 1, 0, 1, 0, 0, 0]


def test_k3_bonus_needs_points():
    state = f2(bonus_needs_points=True)
    play(state, *K3_MOVES[:6])
    assert state.scores() == [20.0, 3.0]
    assert state.current_player == 1
    assert state.bonus_left == [1, 3]


K4_ALIENS = [[0] * 14 for _ in range(3)]
K4_ALIENS[0][4], K4_ALIENS[2][5], K4_ALIENS[1][11], K4_ALIENS[1][12] = 2, 3, 5, 5


def k4() -> KoPlusState:
    return KoPlusState.from_position(
        meeple.load("koplus", players=2),
        aliens=K4_ALIENS,
        inner_area=(0, 2, 0, 13),
        tiles=[(0, "U1@0,0"), (0, "X@0,1"), (1, "X@0,7")],
        stacks=["UXUXUXUXUX", "UXUXUXUXUXU"],
        scores=[15, 8],
        bonus_left=[2, 3],
        to_move=0,
    )


def test_k4_bonus_without_placement_and_the_end():
    state = k4()
    obs = state.observation(None)
    assert obs["owner"][1] == [0, 0, 0, 0, -1, -1, -1, 1, 1, 1, -1, -1, -1, -1]
    assert obs["tiles_left"] == [10, 11] and obs["next_shape"] == ["U", "U"]
    play(state, "U1@0,4")
    assert state.scores() == [20.0, 8.0]
    p1 = sorted(state.action_to_string(a, 1) for a in state.geo.ids_of(
        state.cand & state.geo.shape_ids[1]))
    assert p1 == ["U0@1,10", "U1@0,10", "U1@0,6", "U2@0,10", "U3@0,9"]
    assert state.current_player == 0 and state.bonus_left == [1, 3]
    assert state.legal_actions() == [state.geo.pass_id]
    assert "sum to 10" in refused(state, "X@0,10")
    # X@0,11 also sums to 10; besides, none of its cells touches a tile (column 10 is empty)
    assert "share an edge" in refused(state, "X@0,11")
    assert state.describe_action(state.string_to_action("X@0,11"))["points"] == 10
    play(state, "pass")
    assert state.current_player == 1 and state.bonus_left == [1, 3]
    play(state, "U1@0,6")
    assert state.current_player == TERMINAL
    final = state.final_result()
    assert [b["largest_group"] for b in final] == [3, 2]
    assert [b["largest_group_bonus"] for b in final] == [5, 0]
    assert [b["isolated_tiles"] + b["non_maximal_tiles"] for b in final] == [0, 0]
    assert state.scores() == [25.0, 8.0]
    assert state.winners() == [0]


def k5() -> KoPlusState:
    tiles = {
        0: ["U0@0,0", "X@0,3", "U0@0,6", "X@1,12", "U0@0,10", "X@9,0", "U2@4,12"],
        1: ["X@4,0", "U1@4,3", "X@4,4", "U0@8,6", "X@8,9"],
        2: ["U2@10,3", "X@5,9", "U0@9,12", "X@7,12"],
    }
    return KoPlusState.from_position(
        meeple.load("koplus", players=3),
        aliens=[[0] * 16 for _ in range(12)],
        inner_area=(4, 7, 4, 11),
        tiles=[(p, t) for p, ts in tiles.items() for t in ts],
        scores=[30, 36, 40],
        bonus_left=[1, 2, 2],
        to_move=0,
    )


K5_PICTURE = """
A.A.A.A.A.A.A...
AAAAAAAAA.AAAA..
....A.......AAA.
.............A..
.B.BBB......AAA.
BBBBBBB...C.A.A.
.B.BBB...CCC....
..........C..C..
......B.B.B.CCC.
.A....BBBBBBCCC.
AAACCC....B.CCC.
.A.C.C..........
"""


def test_k5_final_scoring_with_ties():
    state = k5()
    letters = {-1: ".", 0: "A", 1: "B", 2: "C"}
    owner = state.observation(None)["owner"]
    assert ["".join(letters[v] for v in row) for row in owner] == K5_PICTURE.split()
    assert sorted(state.group_sizes(0)) == [1, 3, 3]
    assert sorted(state.group_sizes(1)) == [2, 3]
    assert sorted(state.group_sizes(2)) == [1, 1, 2]
    final = state.final_scoring()
    assert [b["largest_group"] for b in final] == [3, 3, 2]
    assert [b["largest_group_bonus"] for b in final] == [5, 5, 0]
    assert [b["isolated_penalty"] for b in final] == [-5, 0, -10]
    assert [b["non_maximal_penalty"] for b in final] == [0, -6, 0]
    assert [b["final"] for b in final] == [30, 35, 30]
    assert [b["tiles_in_hand"] for b in final] == [5, 7, 8]
    keys = [(b["final"], b["tiles_in_hand"]) for b in final]
    order = sorted(range(3), key=lambda p: keys[p], reverse=True)
    assert order == [1, 2, 0]


def test_k6_board_building_from_chance():
    game = meeple.load("koplus", players=2)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 64 and all(p == pytest.approx(1 / 64) for _, p in outcomes)
    for i, a in enumerate(F2_DEALS):
        text = state.action_to_string(a, CHANCE)
        n, q = divmod(a, 4)
        assert text == f"deal S{n + 1:02d}/{q} @{i}"
        assert state.string_to_action(text, CHANCE) == a
        if i == 8:
            assert all(p == pytest.approx(1 / 32) for _, p in state.chance_outcomes())
            assert len(state.chance_outcomes()) == 32
        state.apply(a)
    assert state.current_player == 0
    unturned = meeple.load("koplus", players=2, random_rotation=False).new_initial_state()
    for i in range(9):
        outcomes = unturned.chance_outcomes()
        assert all(a % 4 == 0 for a, _ in outcomes)
        assert all(p == pytest.approx(1 / (16 - i)) for _, p in outcomes)
        with pytest.raises(IllegalAction):
            unturned.apply(outcomes[0][0] + 1)
        unturned.apply(outcomes[0][0])
    with pytest.raises(IllegalAction):  # F2 cannot arise: it uses rotations 1–3
        f2(random_rotation=False)


def test_action_ids_and_sizes():
    for n, size in ((2, 721), (3, 961), (4, 1281)):
        assert meeple.load("koplus", players=n).num_distinct_actions == size
    state = f2()
    assert state.string_to_action("pass") == 720
    assert state.action_to_string(720) == "pass"
    assert state.string_to_action(" u2 @ 6 , 5 ") == 509
    assert state.string_to_action("U2@6,5") == 3 * 144 + 6 * 12 + 5


def test_dict_form_of_actions():
    state = f2()
    move = {"type": "place", "shape": "U2", "cell": [6, 5]}
    assert state.dict_to_action(move) == 509
    assert state.describe_action(509)["move"] == move
    assert state.dict_to_action({"type": "pass"}) == 720
    assert state.describe_action(720)["move"] == {"type": "pass"}
    for bad in ({"type": "place", "shape": "U5", "cell": [1, 1]}, {"type": "jump"},
                {"type": "place", "shape": "X", "cell": [1]}, "X@1,1",
                {"type": "place", "shape": "X", "cell": [12, 0]}):
        with pytest.raises(NotationError):
            state.dict_to_action(bad)


def test_notation_errors_name_the_form():
    state = f2()
    for bad in ("Y@1,1", "U4@1,1", "X@12,0", "U2@6", "deal S05/1"):
        with pytest.raises(NotationError) as err:
            state.string_to_action(bad)
        assert "expected" in str(err.value) or "rows 0..11" in str(err.value)
    fresh = meeple.load("koplus", players=2).new_initial_state()
    with pytest.raises(NotationError):
        fresh.string_to_action("deal S17/0 @0", CHANCE)
    with pytest.raises(NotationError):
        fresh.string_to_action("deal S01/0 @3", CHANCE)
    assert fresh.string_to_action("Deal s05 / 1 @ 0", CHANCE) == 17


def test_describe_action_targets():
    state = f2()
    d = state.describe_action(509)
    assert d["kind"] == "place" and d["target"] == "cell-6-6"
    assert d["label"] == ("Lay a U opening down, the middle of its top side on row 7, "
                          "column 7: catches 9 points")
    assert d["cells"] == ["cell-6-5", "cell-6-6", "cell-6-7", "cell-7-5", "cell-7-7"]
    targets = {}
    for a in range(720):
        if state.geo.mask[a]:
            t = state.describe_action(a, 0)["target"]
            assert t in state.describe_action(a, 0)["cells"]
            targets.setdefault(t, []).append(a // 144)
    assert all(sorted(v) == sorted(set(v)) for v in targets.values())
    play(state, "U2@6,5", "X@3,4")
    dp = state.describe_action(720, 0)
    assert dp["target"] is None and dp["label"] == "Pass: no place left for your tile"


def test_from_position_refuses_bad_data():
    game = meeple.load("koplus", players=2)
    ok = dict(aliens=K4_ALIENS, inner_area=(0, 2, 0, 13), tiles=[], scores=[0, 0],
              bonus_left=[2, 3], to_move=0)
    KoPlusState.from_position(game, **ok)
    for change in (
        {"tiles": [(0, "X@0,0"), (1, "X@0,1")]},
        {"tiles": [(0, "X@1,12")]},
        {"tiles": [(2, "X@0,0")]},
        {"scores": [0]},
        {"to_move": 2},
        {"aliens": [[0, 6]]},
        {"tiles": [(0, "U1@0,0")], "stacks": ["UXUXUXUXUXU", "XUXUXUXUXUXU"]},
    ):
        with pytest.raises((ValueError, NotationError)):
            KoPlusState.from_position(game, **{**ok, **change})


def test_is_legal_agrees_with_the_legal_list():
    import numpy as np

    state = f2()
    legal = set(state.legal_actions())
    for a in range(-2, 725):
        assert state.is_legal(a) == (a in legal)
    assert state.is_legal(np.int64(509)) and not state.is_legal(True)
    assert not state.is_legal(509, player=1)
    fresh = meeple.load("koplus", players=2).new_initial_state()
    outcomes = {a for a, _ in fresh.chance_outcomes()}
    assert all(fresh.is_legal(a) == (a in outcomes) for a in range(-1, 70))


def test_observation_tensor_is_relative_to_the_viewer():
    state = f2()
    play(state, "U2@6,5")
    game = state.game
    size = game.rows * game.cols
    for viewer in (0, 1):
        t = state.observation_tensor(viewer)
        assert t.shape == game.observation_shape and t.dtype.name == "float32"
        own = t[size : 2 * size].reshape(12, 12)
        other = t[2 * size : 3 * size].reshape(12, 12)
        mine = own if viewer == 0 else other
        assert mine[6, 5] == 1 and mine.sum() == 5
        assert t[0 : size].reshape(12, 12)[6, 5] == 1.0  # the alien worth 5, scaled by 1/5


def last_tile_position(cols: int, **options) -> KoPlusState:
    """P0 on 17 with one tile (an X) left; placing X@0,36 catches 3 and reaches 20."""
    aliens = [[0] * cols for _ in range(3)]
    aliens[1][37] = 3
    tiles = [(0, f"X@0,{c}") for c in range(0, 33, 3)] + [(1, "X@0,33")]
    return KoPlusState.from_position(
        meeple.load("koplus", players=2, **options), aliens=aliens, inner_area=(0, 2, 0, 5),
        tiles=tiles, scores=[17, 0], bonus_left=[2, 3], to_move=0,
    )


def test_bonus_turn_with_an_empty_stack_is_a_pass():
    """Rules 5.6: the 12th tile lands on 20, the bonus is granted and is at once a pass."""
    state = last_tile_position(44)
    assert state.observation(None)["tiles_left"] == [1, 11]
    play(state, "X@0,36")
    assert state.scores()[0] == 20 and state.current_player == 0
    assert state.bonus_left == [1, 3]
    assert state.legal_actions() == [state.geo.pass_id]
    play(state, "pass")
    assert state.current_player == 1 and state.bonus_left == [1, 3]
    blocked = last_tile_position(44, end_when_any_blocked=True)
    play(blocked, "X@0,36")
    assert blocked.is_terminal()


def test_game_ends_on_a_threshold_without_the_bonus():
    """Rules 5.7 / R12: the placement reaching 20 leaves nobody able to place: the game ends."""
    state = last_tile_position(39)
    play(state, "X@0,36")
    assert state.is_terminal()
    assert state.bonus_left == [2, 3]
    final = state.final_result()
    # P0: a group of 11 (+5) and X@0,36 isolated behind P1's tile (−5); P1: one isolated (−5)
    assert [(b["largest_group"], b["isolated_tiles"]) for b in final] == [(11, 1), (0, 1)]
    assert [b["final"] for b in final] == [20, -5]
