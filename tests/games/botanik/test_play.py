"""Botanik notation, descriptions, observations, pictures and the greedy bot."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rich.text import Text

import meeple
from meeple.bots import make_bot, view_for
from meeple.engine import CHANCE, sample_chance
from meeple.games.botanik import render
from meeple.games.botanik.rules import SWAP_BASE, add_action

from .helpers import fresh, set_registry
from .test_examples import b7


def mid_game(seed=5, moves=90):
    return meeple.play_out(meeple.load("botanik").new_initial_state(), seed, max_actions=moves)


def test_notation_is_forgiving_and_errors_say_the_form():
    s = set_registry(fresh(), tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"],
                     arrival=["R-EL1", "G-ST1", "B-CR"])
    assert s.string_to_action("  OWN r-el1 @ 0 ", 0) == 30
    assert s.string_to_action("pile b-cr@4", 0) == 489
    for bad, words in [
        ("own R-EL1@7", "columns are 0 to 4"),
        ("own X-EL1@0", "not a tile"),
        ("take R-EL1", "expected one of"),
        ("own SRC0@0", "not a tile"),
    ]:
        with pytest.raises(meeple.NotationError, match=words):
            s.string_to_action(bad, 0)


def test_add_notation_normalises_rotation_and_checks_the_tile():
    s = b7()
    s.apply(SWAP_BASE + 1, 0)  # P0 now adds Y-EL2
    a = s.string_to_action("add Y-EL2@0,1/3", 0)
    assert a == add_action(0, 1, 3)
    assert s.action_to_string(a, 0) == "add Y-EL2@0,1/3"
    assert s.string_to_action("add y-el2 @ 0 , 1 / 3", 0) == a
    with pytest.raises(meeple.NotationError, match="the tile being added is Y-EL2"):
        s.string_to_action("add R-EL2@0,1/3", 0)
    with pytest.raises(meeple.NotationError, match="rotation"):
        s.string_to_action("add Y-EL2@0,1", 0)  # two rotations fit there
    with pytest.raises(meeple.NotationError, match="out of reach"):
        s.string_to_action("add Y-EL2@70,1/0", 0)
    # a straight: k = 2 means the same exits as k = 0
    t = fresh()
    t.pend_tile = t.ts.index["R-ST1"]
    assert t.string_to_action("add R-ST1@1,0/2", 0) == add_action(1, 0, 0)


def test_illegal_actions_say_why():
    s = set_registry(fresh(), tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"],
                     rows={0: {1: "Y-ST3"}}, arrival=["R-EL1", "G-ST1", "B-CR"])
    with pytest.raises(meeple.IllegalAction, match="O1"):
        s.apply(31, 0)
    with pytest.raises(meeple.IllegalAction, match="O2"):
        s.apply(10 * 48 + 4, 0)
    s2 = b7()
    s2.apply(SWAP_BASE + 1, 0)
    with pytest.raises(meeple.IllegalAction, match="M2"):
        s2.apply(add_action(5, 5, 0), 0)
    with pytest.raises(meeple.IllegalAction, match="M3"):
        s2.apply(add_action(0, 1, 0), 0)


def test_describe_action_names_svg_elements():
    s = mid_game()
    while s.current_player == CHANCE:
        s.apply(sample_chance(s, random.Random(1)))
    seen_kinds = set()
    rng = random.Random(3)
    for _ in range(200):
        if s.is_terminal():
            break
        if s.current_player == CHANCE:
            s.apply(sample_chance(s, rng))
            continue
        p = s.current_player
        picture = render.svg(s.observation(p))
        ids = set(re.findall(r' id="([^"]+)"', picture))
        for a in s.legal_actions(p):
            d = s.describe_action(a, p)
            seen_kinds.add(d["kind"])
            assert d["label"] and d["target"] in ids, d
            assert all(c in ids for c in d["cells"]), d
        s.apply(rng.choice(s.legal_actions(p)), p)
    assert {"own", "pile", "add"} <= seen_kinds


def test_observation_shows_what_players_see():
    s = b7()
    obs = s.observation(1)
    assert obs["phase"] == "swap" and obs["released"] == {"player": 0, "tile": "B-MB",
                                                          "kind": "swap"}
    assert obs["pile_tops"][3] == "K-ST1" and obs["pile_heights"][3] == 2
    assert obs["rows"][0] == [None, "R-EL3", None, None, None]
    assert obs["meca_player"] == 0 and obs["active_player"] == 1
    assert obs["machines"][0] == [{"cell": [0, 0], "tile": "SRC0", "rot": 0,
                                   "exits": ["N", "E", "S", "W"], "colour": None,
                                   "type": "source", "flowers": 0, "main": True}]
    assert "release P0 B-MB@3" in obs["log"]


def test_text_and_svg_pictures():
    s = meeple.play_out(meeple.load("botanik").new_initial_state(), 11)
    obs = s.observation(None)
    t = Text.from_markup(render.text(obs)).plain
    assert "Final scores" not in t and "Total" not in t  # the clients draw the results table
    assert re.search(r"Player 1\s+machine: ", t) and "┼" in t
    svg = render.svg(obs)
    assert svg.startswith("<svg") and 'viewBox="' in svg and "href" not in svg
    assert 'id="m0-cell-0-0"' in svg and 'class="score-table"' not in svg
    start = render.svg(meeple.load("botanik").new_initial_state().observation(None))
    assert 'id="pile-0"' in start


def test_rulebook_and_specification_mark_reconstructed_rules():
    md = meeple.load("botanik").rules_markdown()
    assert "meeple's choice" in md and "No closed rings of pipes" in md
    spec = (Path(__file__).parents[3] / "docs" / "rules" / "botanik.md").read_text("utf-8")
    assert "[R4]" in spec and "forbid_loops" in spec and "B8" in spec


def play(bots, seed):
    game = bots[0][1]
    rng = random.Random(seed)
    s = game.new_initial_state()
    players = [make_bot(kind, game, seed=seed + i) for i, (kind, _) in enumerate(bots)]
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s.apply(sample_chance(s, rng))
        else:
            p = s.current_player
            s.apply(players[p].act(view_for(s, p)), p)
    return s


def test_greedy_beats_random():
    game = meeple.load("botanik")
    wins = 0
    for seed in range(6):
        order = [("greedy", game), ("random", game)]
        g = seed % 2
        if g:
            order.reverse()
        s = play(order, seed)
        wins += s.winners() == [g]
    assert wins >= 5


def test_static_evaluation_is_bounded():
    from meeple.games.botanik.heuristics import evaluate

    for seed in range(5):
        s = mid_game(seed, 150)
        for p in range(2):
            v = evaluate(s, p)
            assert -1.0 <= v <= 1.0
            assert v == pytest.approx(-evaluate(s, 1 - p))


def test_placement_refusals_name_the_rule():
    from .test_examples import b4_machine, b5_machine

    s = b4_machine()
    s.phase, s.pend_player, s.pend_tile = 3, 0, s.ts.index["B-PL"]
    s.pend_adds = s.legal_adds(0, s.pend_tile)
    s._sync()
    with pytest.raises(meeple.IllegalAction, match="M4"):
        s.apply(add_action(0, -1, 1), 0)
    t = b5_machine(forbid_loops=True)
    t.phase, t.pend_player, t.pend_tile = 3, 0, t.ts.index["R-EL3"]
    t.pend_adds = t.legal_adds(0, t.pend_tile)
    t._sync()
    with pytest.raises(meeple.IllegalAction, match="M5"):
        t.apply(add_action(-1, 1, 2), 0)
    with pytest.raises(meeple.IllegalAction, match="M3"):
        t.apply(add_action(-1, 1, 0), 0)


def test_rollout_policy_plays_legal_moves():
    from meeple.games.botanik.heuristics import rollout_action

    rng = random.Random(2)
    s = meeple.load("botanik").new_initial_state()
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s.apply(sample_chance(s, rng))
        else:
            p = s.current_player
            a = rollout_action(s, p, rng)
            assert a in s.legal_actions(p)
            s.apply(a, p)
    assert max(s.scores()) > 0


def test_the_evaluation_fit_reproduces_a_model_of_the_same_shape():
    """``scripts/fit_botanik_evaluation.py`` refits ``MARGIN_MODEL`` from search bots' games."""
    import importlib.util
    from pathlib import Path

    import numpy as np

    from meeple.games.botanik.heuristics import MARGIN_MODEL

    path = Path(__file__).parents[3] / "scripts" / "fit_botanik_evaluation.py"
    spec = importlib.util.spec_from_file_location("fit_botanik_evaluation", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    data = np.array([row for seed in range(6) for row in script.positions(seed, iterations=8)])
    assert data.shape[1] == 1 + len(MARGIN_MODEL[0][1]) + 1
    model = script.fit(data)
    assert len(model) == len(MARGIN_MODEL)
    for (left, weights, spread), (_, shipped, _) in zip(model, MARGIN_MODEL, strict=True):
        assert 0.0 <= left <= 1.0 and spread > 0.0 and len(weights) == len(shipped)
    assert [m[0] for m in model] == sorted((m[0] for m in model), reverse=True)
