"""The dict form of Botanik actions (rules 2.7): worked examples, round trips, malformed dicts."""

from __future__ import annotations

import json
import random
import re

import pytest

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.games.botanik.notation import DICT_FORMS
from meeple.games.botanik.rules import ADD, DEAL, REVEAL, SWAP, SWAP_BASE, Botanik, add_action

from .helpers import fresh, set_registry, tid
from .test_examples import b2, b4_machine, b5_machine, b6_machine, b7


def releasing(s, player, name):
    """Put ``s`` in the add phase with ``name`` released to ``player``."""
    t = tid(s, name)
    s.phase = ADD
    s.pend_player, s.pend_tile, s.pend_adds = player, t, s.legal_adds(player, t)
    s._sync()
    s._legal_cache = {}
    return s


def both_forms(s, player, text, move):
    """The dict and the text name the same action, and the dict is what the engine writes."""
    a = s.dict_to_action(move, player)
    assert a == s.string_to_action(text, player)
    assert s.action_to_dict(a, player) == move
    assert s.describe_action(a, player)["move"] == move
    return a


# ---------------------------------------------------------------- the table of 2.7
def test_notation_table():
    s = set_registry(fresh(), tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"],
                     arrival=["R-EL1", "G-ST1", "B-CR"])
    assert s.dict_to_action({"type": "own", "tile": "R-EL1", "column": 0}, 0) == 30
    assert s.dict_to_action({"type": "pile", "tile": "R-EL1", "column": 3}, 0) == 10 * 3 + 5 + 3
    assert s.dict_to_action({"type": "swap", "column": 1}, 0) == 59215
    s = releasing(fresh(), 0, "Y-EL2")
    assert both_forms(s, 0, "add Y-EL2@0,1/3",
                      {"type": "add", "tile": "Y-EL2", "cell": [0, 1], "rot": 3}) \
        == 650 + 4 * (60 * 121 + 61) + 3


# ---------------------------------------------------------------- B1
def test_b1_dicts():
    s = set_registry(
        fresh(),
        tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"],
        rows={0: {1: "Y-ST3"}},
        arrival=["R-EL1", "G-ST1", "B-CR"],
    )
    legal = s.legal_actions(0)
    own = sorted((d["tile"], d["column"]) for d in (s.action_to_dict(a, 0) for a in legal)
                 if d["type"] == "own")
    assert own == [("B-CR", 3), ("G-ST1", 0), ("G-ST1", 2), ("R-EL1", 0)]
    assert sum(s.action_to_dict(a, 0)["type"] == "pile" for a in legal) == 15
    assert both_forms(s, 0, "own R-EL1@0", {"type": "own", "tile": "R-EL1", "column": 0}) == 30
    assert both_forms(s, 0, "pile B-CR@4", {"type": "pile", "tile": "B-CR", "column": 4}) == 489
    # the illegal own-side moves of B1 are read, then refused by the rules
    for tile, j in (("R-EL1", 1), ("B-CR", 4), ("R-EL1", 2)):
        a = s.dict_to_action({"type": "own", "tile": tile, "column": j}, 0)
        assert a == 10 * tid(s, tile) + j and a not in legal
        with pytest.raises(meeple.IllegalAction):
            s.apply(a, 0)


# ---------------------------------------------------------------- B2
@pytest.mark.parametrize("tile", ["Y-ST2", "G-ST3"])
def test_b2_dicts(tile):
    s = set_registry(
        fresh(),
        tops=["R-ST2", "Y-EL2", "G-PL", "B-TE2", "K-CR"],
        rows={0: {2: "G-EL2"}, 1: {2: "R-PL"}},
        arrival=["Y-ST2", "G-ST3", "B-ST1"],
    )
    a = both_forms(s, 0, f"pile {tile}@2", {"type": "pile", "tile": tile, "column": 2})
    assert a == 10 * tid(s, tile) + 7 and a in s.legal_actions(0)
    s.apply(a, 0)
    assert s.observation(None) == b2(f"pile {tile}@2").observation(None)


# ---------------------------------------------------------------- B3
def test_b3_dicts():
    s = releasing(fresh(), 0, "R-ST1")
    for r, c, k in ((-1, 0, 0), (0, -1, 1), (0, 1, 1), (1, 0, 0)):
        move = {"type": "add", "tile": "R-ST1", "cell": [r, c], "rot": k}
        a = both_forms(s, 0, f"add R-ST1@{r},{c}/{k}", move)
        assert a == add_action(r, c, k) and a in s.legal_actions(0)
    s = releasing(fresh(), 0, "R-TE1")
    for k in (1, 2, 3):
        move = {"type": "add", "tile": "R-TE1", "cell": [0, 1], "rot": k}
        assert both_forms(s, 0, f"add R-TE1@0,1/{k}", move) in s.legal_actions(0)
    a = s.dict_to_action({"type": "add", "tile": "R-TE1", "cell": [0, 1], "rot": 0}, 0)
    assert a == add_action(0, 1, 0) and a not in s.legal_actions(0)


# ---------------------------------------------------------------- B4, B5, B6
def test_b4_dicts():
    s = releasing(b4_machine(), 0, "B-PL")
    a = s.dict_to_action({"type": "add", "tile": "B-PL", "cell": [0, -1], "rot": 1}, 0)
    assert a == add_action(0, -1, 1) and a not in s.legal_actions(0)
    assert len(s.legal_actions(0)) == 19
    s = releasing(b4_machine(), 0, "B-ST2")
    move = {"type": "add", "tile": "B-ST2", "cell": [0, -1], "rot": 1}
    a = both_forms(s, 0, "add B-ST2@0,-1/1", move)
    assert a == add_action(0, -1, 1) and a in s.legal_actions(0)


@pytest.mark.parametrize("forbid_loops", [False, True])
def test_b5_dicts(forbid_loops):
    s = releasing(b5_machine(forbid_loops=forbid_loops), 0, "R-EL3")
    move = {"type": "add", "tile": "R-EL3", "cell": [-1, 1], "rot": 2}
    a = both_forms(s, 0, "add R-EL3@-1,1/2", move)
    assert a == add_action(-1, 1, 2)
    assert (a in s.legal_actions(0)) is not forbid_loops


def test_b6_dicts():
    s = releasing(b6_machine(), 0, "K-TE2")
    move = {"type": "add", "tile": "K-TE2", "cell": [0, -1], "rot": 1}
    a = both_forms(s, 0, "add K-TE2@0,-1/1", move)
    assert a == add_action(0, -1, 1) and a in s.legal_actions(0)
    assert len(s.legal_actions(0)) == 9


# ---------------------------------------------------------------- B7, played in dict form
def test_b7_played_in_dict_form():
    s = set_registry(
        fresh(),
        tops=["R-ST2", "Y-EL2", "G-PL", "B-TE2", "K-CR"],
        rows={0: {1: "R-EL3", 3: "B-MB"}, 1: {1: "Y-ST3", 2: "G-TE3"}},
        arrival=["K-ST1", "R-TE1", "Y-PL"],
        active=1,
    )
    s.apply(both_forms(s, 1, "pile K-ST1@3", {"type": "pile", "tile": "K-ST1", "column": 3}), 1)
    assert s.observation(None) == b7().observation(None)
    assert s.phase == SWAP and s.current_player == 0
    assert [s.action_to_dict(a) for a in s.legal_actions()] == [
        {"type": "swap", "column": j} for j in range(5)]
    a = both_forms(s, 0, "swap 1", {"type": "swap", "column": 1})
    assert a == SWAP_BASE + 1
    s.apply(a, 0)
    move = {"type": "add", "tile": "Y-EL2", "cell": [0, 1], "rot": 3}
    s.apply(both_forms(s, 0, "add Y-EL2@0,1/3", move), 0)
    assert s.phase == ADD and s.current_player == 1 and s.pend_tile == tid(s, "Y-ST3")
    assert {s.action_to_dict(a)["tile"] for a in s.legal_actions()} == {"Y-ST3"}


# ---------------------------------------------------------------- chance outcomes
def test_chance_outcomes_in_dict_form():
    s = meeple.load("botanik").new_initial_state()
    assert s.phase == DEAL and s.current_player == CHANCE
    move = {"type": "deal", "tile": "R-ST2"}
    assert both_forms(s, CHANCE, "deal R-ST2", move) == tid(s, "R-ST2")
    assert s.dict_to_action(move) == tid(s, "R-ST2")  # the player defaults to chance
    for t in ("R-ST2", "Y-EL2", "G-PL", "B-TE2", "K-CR"):
        s.apply(s.dict_to_action({"type": "deal", "tile": t}))
    assert s.phase == REVEAL and [p[-1] for p in s.piles] == [
        tid(s, t) for t in ("R-ST2", "Y-EL2", "G-PL", "B-TE2", "K-CR")]
    move = {"type": "reveal", "tile": "R-EL1"}
    assert both_forms(s, CHANCE, "reveal R-EL1", move) == tid(s, "R-EL1")


# ---------------------------------------------------------------- round trips
def round_trip(s, a, p):
    move = s.action_to_dict(a, p)
    assert move["type"] == s.action_to_string(a, p).split()[0]
    assert s.dict_to_action(json.loads(json.dumps(move)), p) == a, move


@pytest.mark.parametrize("players,options", Botanik.configurations())
@pytest.mark.parametrize("seed", [1, 2])
def test_round_trip_over_random_games(players, options, seed):
    rng = random.Random(seed)
    s = meeple.load("botanik", players, **options).new_initial_state()
    kinds = set()
    while not s.is_terminal():
        cp = s.current_player
        actors = s.pending_players() if cp == SIMULTANEOUS else [cp]
        for p in actors:
            for a in s.legal_actions(p):
                round_trip(s, a, p)
                kinds.add(s.action_to_dict(a, p)["type"])
        if cp == SIMULTANEOUS:  # pragma: no cover - Botanik has no simultaneous nodes
            for p in actors:
                s.apply(rng.choice(s.legal_actions(p)), p)
        else:
            s.apply(rng.choice(s.legal_actions(cp)), cp)
    assert {"deal", "reveal", "own", "pile", "add"} <= kinds


def test_round_trip_through_swaps():
    s = b7()
    for a in s.legal_actions():
        round_trip(s, a, 0)
    s.apply(SWAP_BASE + 2, 0)
    while s.phase == ADD:
        p = s.current_player
        for a in s.legal_actions(p):
            round_trip(s, a, p)
        s.apply(s.legal_actions(p)[0], p)


# ---------------------------------------------------------------- malformed dicts
TAKE_FORMS = [
    ({"type": "own", "tile": "R-EL1"}, '"column"'),
    ({"type": "own", "column": 0}, '"tile"'),
    ({"type": "own", "tile": "R-EL1", "column": 5}, "0 to 4"),
    ({"type": "own", "tile": "R-EL1", "column": "0"}, "integer"),
    ({"type": "own", "tile": "R-EL1", "column": True}, "integer"),
    ({"type": "own", "tile": "R-EL1", "column": 0.0}, "integer"),
    ({"type": "own", "tile": "X-EL1", "column": 0}, "not a tile"),
    ({"type": "own", "tile": "SRC0", "column": 0}, "tile id"),
    ({"type": "own", "tile": "R-EL1@2", "column": 0}, "tile id"),
    ({"type": "own", "tile": 3, "column": 0}, "tile id"),
    ({"type": "own", "tile": "R-EL1", "column": 0, "col": 1}, "unexpected"),
    ({"type": "pile", "tile": "R-EL1", "column": -1}, "0 to 4"),
    ({"type": "swap"}, '"column"'),
    ({"type": "swap", "column": [1]}, "integer"),
    ({"type": "add", "tile": "R-EL1", "cell": [0, 1]}, '"rot"'),
    ({"type": "add", "tile": "R-EL1", "cell": [0], "rot": 0}, "pair"),
    ({"type": "add", "tile": "R-EL1", "cell": "0,1", "rot": 0}, "pair"),
    ({"type": "add", "tile": "R-EL1", "cell": [0, 70], "rot": 0}, "-60 to 60"),
    ({"type": "add", "tile": "R-EL1", "cell": [0, 1], "rot": 4}, "0 to 3"),
]


@pytest.mark.parametrize("move,words", TAKE_FORMS)
def test_malformed_dicts_say_the_form(move, words):
    s = set_registry(fresh(), tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"],
                     arrival=["R-EL1", "G-ST1", "B-CR"])
    with pytest.raises(meeple.NotationError, match=re.escape(words)) as e:
        s.dict_to_action(move, 0)
    form = DICT_FORMS[move["type"]]
    assert f"expected {form}" in str(e.value)


@pytest.mark.parametrize("move", [{}, {"type": "take"}, {"type": None}, {"type": "deal",
                                  "tile": "R-EL1"}, {"tile": "R-EL1", "column": 0}])
def test_unknown_types_list_every_form(move):
    s = set_registry(fresh(), tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"],
                     arrival=["R-EL1", "G-ST1", "B-CR"])
    with pytest.raises(meeple.NotationError, match="expected") as e:
        s.dict_to_action(move, 0)
    for kind in ("own", "pile", "add", "swap"):
        assert DICT_FORMS[kind] in str(e.value)


@pytest.mark.parametrize("move", ["own R-EL1@0", ["own", "R-EL1", 0], None, 30])
def test_a_move_must_be_a_dict(move):
    s = set_registry(fresh(), tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"],
                     arrival=["R-EL1", "G-ST1", "B-CR"])
    with pytest.raises(meeple.NotationError):
        s.dict_to_action(move, 0)


def test_add_dict_must_name_the_released_tile():
    s = releasing(fresh(), 0, "Y-EL2")
    for tile, words in (("R-EL2", "the tile being added is Y-EL2"), (None, "tile id")):
        with pytest.raises(meeple.NotationError, match=words) as e:
            s.dict_to_action({"type": "add", "tile": tile, "cell": [0, 1], "rot": 3}, 0)
        assert 'expected {"type": "add", "tile": "Y-EL2", "cell": [0, 1], "rot": 3}' \
            in str(e.value)
    # a non-canonical rotation is read as the canonical one, as in the text form
    s = releasing(fresh(), 0, "R-ST1")
    assert s.dict_to_action({"type": "add", "tile": "r-st1", "cell": [1, 0], "rot": 2}, 0) \
        == add_action(1, 0, 0)


def test_chance_dicts_must_match_the_node():
    s = meeple.load("botanik").new_initial_state()
    for move, words in [
        ({"type": "reveal", "tile": "R-EL1"}, 'expected {"type": "deal", "tile": "R-ST2"}'),
        ({"type": "own", "tile": "R-EL1", "column": 0}, "not a chance outcome"),
        ({"type": "deal"}, 'missing "tile"'),
        ({"type": "deal", "tile": "K-XX"}, "not a tile"),
    ]:
        with pytest.raises(meeple.NotationError, match=re.escape(words)) as e:
            s.dict_to_action(move)
        assert 'expected {"type": "deal", "tile": "R-ST2"}' in str(e.value)
    s = meeple.play_out(s, 1, max_actions=5)
    assert s.phase == REVEAL
    with pytest.raises(meeple.NotationError, match=re.escape('expected {"type": "reveal"')):
        s.dict_to_action({"type": "deal", "tile": "R-EL1"})
