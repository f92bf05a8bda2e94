"""The dict form of actions (rules 4.8): the table's examples, round trips, malformed dicts."""

from __future__ import annotations

import json
import random

import pytest

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS, sample_chance
from meeple.games.kontor.components import CARD_ID, GOODS
from meeple.games.kontor.rules import NV

from .helpers import act_with, choosing, do, fresh, lay

CONFIGS = meeple.engine.game_class("kontor").configurations()
IDS = [f"{p}p-{'-'.join(f'{k}={v}' for k, v in o.items())}" for p, o in CONFIGS]


def same(s, move, text, player=None):
    """``move`` (through JSON) and ``text`` name the same action, and it is written as ``move``."""
    p = s.current_player if player is None else player
    a = s.dict_to_action(json.loads(json.dumps(move)), p)
    assert a == s.string_to_action(text, p)
    assert s.action_to_dict(a, p) == move
    return a


# ---------------------------------------------------------------- the table of 4.8
def test_choose():
    s = choosing(fresh(), {0: ["red-15", "water-48"], 1: ["black-16", "water-50"]})
    a = same(s, {"type": "choose", "card": "red-15"}, "choose red-15", 0)
    assert a == CARD_ID["red-15"] and a in s.legal_actions(0)
    assert same(s, {"type": "choose", "card": "water-50"}, "choose water-50", 1) in \
        s.legal_actions(1)
    assert s.describe_action(a, 0)["move"] == {"type": "choose", "card": "red-15"}


def test_place_water_harbour_customs():
    s = act_with(lay(fresh(), {}), 0, "red-15")
    a = same(s, {"type": "place", "card": "red-15", "cell": [2, -1]}, "place red-15 (2,-1)")
    assert a == s.game.PLACE + s.game.idx(2, -1) * NV and a in s.legal_actions()
    s.apply(a)
    assert s.cell[s.game.idx(2, -1)] == CARD_ID["red-15"]
    w = act_with(lay(fresh(), {}), 1, "water-45")
    assert same(w, {"type": "place", "card": "water-45", "cell": [3, 0]},
                "place water-45 (3,0)") in w.legal_actions()
    c = choosing(fresh(3, mode="expansion"), {0: ["customs-92", "red-19"],
                                              1: ["black-18", "water-45"],
                                              2: ["green-17", "water-47"]})
    for p, card in enumerate(("customs-92", "black-18", "green-17")):
        c.apply(c.dict_to_action({"type": "choose", "card": card}, p), p)
    assert same(c, {"type": "place", "card": "customs-92", "cell": [1, 1]},
                "place customs-92 (1,1)") in c.legal_actions()


@pytest.mark.parametrize("crane", ["tea", "wine", "spice"])
def test_place_crane(crane):
    s = act_with(lay(fresh(mode="advanced"), {}), 0, "red-11")
    a = same(s, {"type": "place", "card": "red-11", "cell": [2, -1], "crane": crane},
             f"place red-11 (2,-1) crane={crane}")
    assert a == s.game.PLACE + s.game.idx(2, -1) * NV + 1 + GOODS.index(crane)
    assert a in s.legal_actions()


def test_place_with_export():
    s = act_with(lay(fresh(mode="advanced", export_warehouse=True), {}), 1, "black-8")
    a = same(s, {"type": "place", "card": "black-8", "cell": [1, 2], "export": "tea"},
             "place black-8 (1,2) export=tea")
    assert a == s.game.PLACE + s.game.idx(1, 2) * NV + 4 + GOODS.index("tea")
    assert a in s.legal_actions()
    plain = same(s, {"type": "place", "card": "black-8", "cell": [1, 2]}, "place black-8 (1,2)")
    assert plain in s.legal_actions() and plain != a


def test_flood_and_bridge_name_the_target_cell():
    s = lay(fresh(mode="advanced", special_cards=True), {(1, -1): "red-19", (2, -1): "red-25"})
    act_with(s, 1, "flood-88")
    a = same(s, {"type": "place", "card": "flood-88", "cell": [1, -1]},
             "place flood-88 (1,-1)")
    assert a == s.game.PLACE + s.game.idx(1, -1) * NV and a in s.legal_actions()
    s.apply(a)
    assert s.cell[s.game.idx(1, -1)] == CARD_ID["flood-88"]
    b = lay(fresh(mode="advanced", special_cards=True), {(1, 1): "red-19", (1, -1): "black-20"})
    act_with(b, 0, "bridge-90")
    assert same(b, {"type": "place", "card": "bridge-90", "cell": [1, 0]},
                "place bridge-90 (1,0)") in b.legal_actions()


def test_ship_remove_and_skip():
    # K8 (F1): red places water-54, moves the ship to (-1,0) and removes black-24 at (-1,-1)
    s = lay(fresh(mode="advanced"), {(-2, -2): "water-51", (-1, -2): "black-18",
                                     (-2, -1): "red-19", (-1, -1): "black-24"})
    act_with(s, 0, "water-54")
    s.coins = [4, 4]
    do(s, "place water-54 (-1,1)")
    assert same(s, {"type": "skip"}, "skip") == s.game.SKIP
    a = same(s, {"type": "ship", "cell": [-1, 0]}, "ship (-1,0)")
    assert a == s.game.SHIP + s.game.idx(-1, 0) and a in s.legal_actions()
    s.apply(a)
    assert same(s, {"type": "skip"}, "skip") in s.legal_actions()
    r = same(s, {"type": "remove", "cell": [-1, -1]}, "remove (-1,-1)")
    assert r == s.game.REMOVE + s.game.idx(-1, -1) and r in s.legal_actions()
    s.apply(r)
    assert s.cell[s.game.idx(-1, -1)] < 0


def test_buy_and_the_bought_card():
    # K11: red moves the ship onto the anchor and buys; the card bought is a chance outcome
    s = lay(fresh(mode="advanced", special_cards=True), {})
    s.ship = s.game.idx(-1, 0)
    s.coins = [4, 4]
    act_with(s, 0, "water-50")
    do(s, "place water-50 (1,1)")
    s.apply(s.dict_to_action({"type": "ship", "cell": [0, 0]}))
    a = same(s, {"type": "buy"}, "buy")
    assert a == s.game.BUY and a in s.legal_actions()
    s.apply(a)
    assert s.current_player == CHANCE
    c = same(s, {"type": "draw", "card": "flood-89"}, "flood-89", CHANCE)
    assert c == CARD_ID["flood-89"] and c in s.legal_actions(CHANCE)
    s.apply(c)
    assert CARD_ID["flood-89"] in s.hands[0]


def test_chance_outcomes_at_setup():
    s = meeple.load("kontor").new_initial_state()
    a = s.legal_actions(CHANCE)[0]
    move = s.action_to_dict(a, CHANCE)
    assert move["type"] == "deal" and s.dict_to_action(move, CHANCE) == a
    seen = set()
    rng = random.Random(1)
    while s.current_player == CHANCE:
        a = sample_chance(s, rng)
        move = s.action_to_dict(a, CHANCE)
        seen.add(move["type"])
        assert s.dict_to_action(move, CHANCE) == a
        s.apply(a)
    assert seen == {"deal", "draw", "turn"}


# ---------------------------------------------------------------- round trips
def round_trip(s, p, kinds):
    for a in s.legal_actions(p):
        move = s.action_to_dict(a, p)
        kinds.add(move["type"])
        assert s.dict_to_action(json.loads(json.dumps(move)), p) == a, (move, a)


@pytest.mark.parametrize("players,options", CONFIGS, ids=IDS)
def test_round_trip_over_random_games(players, options):
    game = meeple.load("kontor", players=players, **options)
    kinds: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            cp = s.current_player
            if cp == CHANCE:
                round_trip(s, CHANCE, kinds)
                s.apply(sample_chance(s, rng))
                continue
            actors = s.pending_players() if cp == SIMULTANEOUS else [cp]
            for p in actors:
                round_trip(s, p, kinds)
            p = rng.choice(actors)
            s.apply(rng.choice(s.legal_actions(p)), p)
    assert {"deal", "draw", "turn", "choose", "place"} <= kinds
    if options["mode"] != "basic":
        assert {"ship", "remove", "skip"} <= kinds


# ---------------------------------------------------------------- malformed dicts
@pytest.fixture
def acting():
    return act_with(lay(fresh(mode="advanced"), {}), 0, "red-11")


@pytest.mark.parametrize("move,expected", [
    ({}, '{"type": "choose", "card": "red-15"}'),
    ({"type": "fly"}, '{"type": "ship", "cell": [-1, 0]}'),
    ({"type": 3}, '{"type": "skip"}'),
    ({"type": "place", "cell": [2, -1], "crane": "wine"}, '"card": "red-15"'),
    ({"type": "place", "card": "red-99", "cell": [2, -1]}, '"card": "red-15"'),
    ({"type": "place", "card": "red-11"}, '"cell": [2, -1]'),
    ({"type": "place", "card": "red-11", "cell": "(2,-1)"}, '"cell": [2, -1]'),
    ({"type": "place", "card": "red-11", "cell": [2]}, '"cell": [2, -1]'),
    ({"type": "place", "card": "red-11", "cell": [2.0, -1]}, '"cell": [2, -1]'),
    ({"type": "place", "card": "red-11", "cell": [True, -1]}, '"cell": [2, -1]'),
    ({"type": "place", "card": "red-11", "cell": [50, 0]}, '"cell": [2, -1]'),
    ({"type": "place", "card": "red-11", "cell": [2, -1], "crane": "beer"}, '"crane": "wine"'),
    ({"type": "place", "card": "red-11", "cell": [2, -1], "crane": "wine", "export": "tea"},
     '"export": "tea"'),
    ({"type": "place", "card": "red-13", "cell": [2, -1], "crane": "wine"}, '"card": "red-15"'),
    ({"type": "ship"}, '{"type": "ship", "cell": [-1, 0]}'),
    ({"type": "remove", "cell": None}, '{"type": "remove", "cell": [-1, 0]}'),
    ({"type": "choose"}, '{"type": "choose", "card": "red-15"}'),
    ({"type": "choose", "card": 15}, '{"type": "choose", "card": "red-15"}'),
    ({"type": "choose", "card": "anchor"}, '{"type": "choose", "card": "red-15"}'),
])
def test_malformed_dicts_say_the_expected_form(acting, move, expected):
    with pytest.raises(meeple.NotationError, match="expected") as e:
        acting.dict_to_action(move)
    assert expected in str(e.value)


@pytest.mark.parametrize("move", [[{"type": "skip"}], "skip", None, 3])
def test_a_move_that_is_no_dict_is_refused(acting, move):
    with pytest.raises(meeple.NotationError, match="JSON object"):
        acting.dict_to_action(move)


@pytest.mark.parametrize("move", [
    {"type": "draw", "card": "water-45"},  # at set-up the cross is dealt
    {"type": "deal"},
    {"type": "deal", "card": "purple-99"},
    {"type": "deal", "card": ["water-45"]},
    {"card": "water-45"},
])
def test_malformed_chance_outcomes(move):
    s = meeple.load("kontor").new_initial_state()
    with pytest.raises(meeple.NotationError, match=r'expected \{"type": "deal", "card": '):
        s.dict_to_action(move, CHANCE)
