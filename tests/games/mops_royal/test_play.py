"""Mops Royal notation, descriptions, observations, pictures and the greedy bot."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.text import Text

import meeple
from meeple.bots import view_for
from meeple.bots.simple import GreedyBot, RandomBot
from meeple.engine import CHANCE, SIMULTANEOUS, sample_chance
from meeple.games.mops_royal import render
from meeple.games.mops_royal.components import NOSCORE, PLACE, REJECT, cell_index

from .helpers import enter_placement, enter_scoring, grid, make_state
from .test_examples import M2, M5


def mid_round(players=3, rounds=10, seed=4, **options):
    g = meeple.load("mops_royal", players=players, **options)
    s = g.new_initial_state()
    rng = random.Random(seed)
    while s.round < rounds or s.current_player != SIMULTANEOUS:
        meeple.play_out(s, rng, max_actions=1)
    return s


def test_notation_is_forgiving_and_errors_say_the_form():
    s = enter_placement(make_state([M2, {(0, 0): "Gl"}]), "Yp")
    a = PLACE + cell_index(-1, -2)
    for text in ("place (-1,-2)", "PLACE(-1, -2)", "  place -1,-2 ", "P0: place (-1,-2)",
                 "p0:place ( -1 , -2 )"):
        assert s.string_to_action(text, 0) == a
    assert s.action_to_string(a, 0) == "place (-1,-2)"
    with pytest.raises(meeple.NotationError, match="names player 1"):
        s.string_to_action("P1: place (-1,-2)", 0)
    enter_scoring(s)
    want = s.string_to_action("score V3 (-1,-1) (0,-1) (0,0) flip (0,-1)", 0)
    for text in (
        "score v3 (0,0) (-1,-1) (0,-1) flip (0,-1)",
        "score (0,-1)(0,0)(-1,-1) flip(0,-1)",
    ):
        assert s.string_to_action(text, 0) == want
    assert s.action_to_string(want, 0) == "score V3 (-1,-1) (0,-1) (0,0) flip (0,-1)"
    for bad, words in [
        ("place (7,0)", "outside every layout"),
        ("place", "expected 'place"),
        ("score I3 (-1,-1) (0,-1) (0,0) flip (0,-1)", "form V3, not I3"),
        ("score Q3 (-1,-1) (0,-1) (0,0) flip (0,-1)", "not a shape"),
        ("score V3 (-1,-1) (0,-1) (0,0)", "names no tile to turn"),
        ("score V3 (-1,-1) (0,-1) (0,0) flip (0,0)", "marked cell"),
        ("score (0,0) (1,0) (0,1) (1,1) flip (0,0)", "2 × 2 square"),
        ("take (0,0)", "expected 'place"),
        ("sitout", "automatic"),
    ]:
        with pytest.raises(meeple.NotationError, match=re.escape(words)):
            s.string_to_action(bad, 0)
    assert s.string_to_action("No Score", 0) == NOSCORE


def test_chance_notation():
    g = meeple.load("mops_royal", players=2)
    s = g.new_initial_state()
    assert s.string_to_action("start Bb", CHANCE) == s.string_to_action("start blue-bone", CHANCE)
    with pytest.raises(meeple.NotationError, match="start <tile>"):
        s.string_to_action("reveal blue-bone", CHANCE)
    with pytest.raises(meeple.IllegalAction):
        s.apply(s.string_to_action("start blue-pillow", CHANCE), CHANCE)  # a crown tile
    s.apply(s.string_to_action("start Bb", CHANCE), CHANCE)
    s.apply(s.string_to_action("start Gl", CHANCE), CHANCE)
    assert s.string_to_action("caller P1", CHANCE) == 1
    s.apply(1, CHANCE)
    assert s.action_to_string(5, CHANCE) == "reveal blue-pug"
    # the caller's stock: 35 tiles, each equally likely, no order held anywhere
    outs = s.chance_outcomes()
    assert len(outs) == 35 and all(p == pytest.approx(1 / 35) for _, p in outs)


def test_illegal_actions_say_why():
    s = enter_placement(make_state([M2, {(0, 0): "Gl"}]), "Yp")
    with pytest.raises(meeple.IllegalAction, match="edge"):
        s.apply(s.string_to_action("place (2,2)", 0), 0)
    with pytest.raises(meeple.IllegalAction, match="Replacement tiles"):
        s.apply(REJECT + cell_index(0, 0), 0)
    with pytest.raises(meeple.IllegalAction, match="place the revealed tile first"):
        s.apply(NOSCORE, 0)


def test_describe_action_names_the_cells_and_the_flip():
    s = enter_scoring(make_state([M2, {(0, 0): "Gl"}]))
    a = s.string_to_action("score V3 (0,0) (1,0) (1,1) flip (1,0)", 0)
    d = s.describe_action(a, 0)
    assert d["kind"] == "score" and d["points"] == 3 and d["shape"] == "V3"
    assert d["target"] == "cell-0-4-5"
    assert sorted(d["cells"]) == ["cell-0-4-4", "cell-0-4-5", "cell-0-5-5"]
    assert d["label"] == ("Score a small corner of bowls for 3 points, turning face down the "
                          "green bowl next to your start tile, on the right")
    assert s.describe_action(NOSCORE, 0)["target"] is None
    svg = render.svg(s.observation(0))
    for cid in d["cells"]:
        assert f'id="{cid}"' in svg
    enter_placement(s, "Yp")
    for a in s.legal_actions(0):
        d = s.describe_action(a, 0)
        assert d["kind"] == "place" and f'id="{d["target"]}"' in render.svg(s.observation(0))


def test_choices_stay_hidden_until_everyone_has_chosen():
    s = mid_round()
    views = {v: json.dumps(s.observation(v)) for v in range(3)}
    public = json.dumps(s.observation(None))
    p = s.pending_players()[0]
    while p in s.pending_players():
        s.apply(s.legal_actions(p)[-1], p)
    assert s.current_player == SIMULTANEOUS
    for v in range(3):
        now = s.observation(v)
        if v != p:
            before = json.loads(views[v])
            assert now["layouts"] == before["layouts"]
            assert now["scores"] == before["scores"]
            assert now["stocks"] == before["stocks"]
            t = s.observation_tensor(v)
            assert t.shape == s.game.observation_shape
    assert json.loads(public)["layouts"] == s.observation(None)["layouts"]
    # the chooser sees his own choice at once
    assert s.observation(p)["layouts"][p] != json.loads(views[p])["layouts"][p]


def test_tensor_hides_the_others_choices():
    s = mid_round()
    before = [s.observation_tensor(v) for v in range(3)]
    p = s.pending_players()[0]
    s.apply(s.legal_actions(p)[0], p)
    for v in range(3):
        if v != p and s.current_player == SIMULTANEOUS:
            assert (s.observation_tensor(v) == before[v]).all()


def test_pictures():
    s = mid_round(players=4, rounds=12, replacement_tiles=True)
    for v in (None, 0, 1):
        obs = s.observation(v)
        svg = render.svg(obs)
        assert svg.startswith("<svg") and "viewBox" in svg and "http://" not in svg.replace(
            'xmlns="http://www.w3.org/2000/svg"', "")
        text = render.text(obs)
        assert "Player 1" in text and "Player 4" in text and "Player 0" not in text
        assert "round 12" in text
    meeple.play_out(s, random.Random(1))
    obs = s.observation(0)
    picture, words = render.svg(obs), render.text(obs)
    assert "Game over: " in picture and "Game over: " in words
    assert "score-table" not in picture and ">Total<" not in picture
    assert "Total" not in words and Text.from_markup(str(s)).plain.count("Total") == 1
    assert len(obs["final_breakdown"]) == 4


def test_text_shows_codes_crowns_and_face_down():
    s = enter_scoring(make_state([M5, {(0, 0): "Gl"}]))
    s.apply(s.string_to_action("score D5 (0,0) (1,1) (2,2) (3,3) (4,4) flip (2,2)", 0), 0)
    text = render.text(s.observation(0))
    assert "Ub*" in text and "##" in text and "Bb" in text
    assert "Your combinations" in text


def play_match(n, seed, options):
    g = meeple.load("mops_royal", players=n, **options)
    bots = [GreedyBot(g, seed)] + [RandomBot(g, seed + i) for i in range(1, n)]
    s = g.new_initial_state()
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s.apply(sample_chance(s, rng))
            continue
        for p in list(s.pending_players()):
            if p in s.pending_players():
                s.apply(bots[p].act(view_for(s, p)), p)
    return s


@pytest.mark.parametrize("options", [{}, {"replacement_tiles": True}, {"end_scoring": True}])
def test_greedy_beats_random(options):
    wins = sum(play_match(2, seed, options).returns()[0] > 0 for seed in range(6))
    assert wins >= 5


def test_greedy_waits_for_a_bigger_combination():
    """Early on, a 2-point line whose flip would break a growing group is worth less than
    waiting; on a complete layout the bot takes the best points."""
    from meeple.games.mops_royal.heuristics import action_value

    lay = grid("Bb Bw Bc", (0, 0))
    s = enter_scoring(make_state([lay, {(0, 0): "Gl"}]))
    (a,) = [x for x in s.legal_actions(0) if x != NOSCORE]
    assert action_value(s, 0, a) > 0
    s = enter_scoring(make_state([M5, {(0, 0): "Gl"}]))
    best = max(s.legal_actions(0), key=lambda x: action_value(s, 0, x))
    assert s.describe_action(best, 0)["points"] == 8


def test_rules_page_and_options():
    g = meeple.load("mops_royal", players=4, replacement_tiles=True)
    assert "Replacement tiles" in g.rules_markdown()
    spec = (Path(__file__).parents[3] / "docs" / "rules" / "mops_royal.md").read_text("utf-8")
    assert "[R13]" in spec and "## 10. How meeple plays it" in spec
    with pytest.raises(meeple.OptionError):
        meeple.load("mops_royal", players=5)
    with pytest.raises(meeple.OptionError):
        meeple.load("mops_royal", players=2, end_scoring="yes")


def test_pictures_at_every_early_move():
    g = meeple.load("mops_royal", players=3)
    s = g.new_initial_state()
    rng = random.Random(2)
    for _ in range(12):
        for v in (None, 0, 1, 2):
            obs = s.observation(v)
            assert render.svg(obs).startswith("<svg")
            assert isinstance(render.text(obs), str)
        meeple.play_out(s, rng, max_actions=1)


def test_set_up_with_caller_seed_and_start_tiles():
    g = meeple.load("mops_royal", players=3)
    s = g.set_up(caller=2, seed=11)
    assert s.caller == 2 and s.is_chance_node() and len(s.start) == 3
    assert g.set_up(caller=2, seed=11).start == s.start
    s = g.set_up(caller=0, start_tiles=["Kb", "green-poop", "Bb"])
    assert s.observation(None)["start_tiles"] == ["pink-bone", "green-poop", "blue-bone"]
    assert s.history()[:3] == [(CHANCE, 19), (CHANCE, 10), (CHANCE, 1)]
    with pytest.raises(meeple.IllegalAction):
        g.set_up(start_tiles=["Bl", "Gl", "Ol"])  # blue-pillow has a crown
    with pytest.raises(ValueError):
        g.set_up(caller=3)


def test_dict_form_round_trips():
    s = mid_round(players=2, rounds=12, replacement_tiles=True)
    rng = random.Random(3)
    seen = set()
    while not s.is_terminal():
        cp = s.current_player
        p = rng.choice(s.pending_players()) if cp == SIMULTANEOUS else cp
        for a in s.legal_actions(p):
            d = s.action_to_dict(a, p)
            seen.add(d["type"])
            assert s.dict_to_action(json.loads(json.dumps(d)), p) == a
        s.apply(rng.choice(s.legal_actions(p)), p)
    assert {"reveal", "place", "noscore"} <= seen
    for bad in ({"type": "hop"}, {"cell": [0, 0]}, {"type": "place", "cell": [0]},
                {"type": "score", "cells": "x", "flip": [0, 0]}):
        with pytest.raises(meeple.NotationError):
            s.dict_to_action(bad, 0)
    t = enter_scoring(make_state([M2, {(0, 0): "Gl"}]))
    d = {"type": "score", "shape": "V3", "cells": [[0, 0], [1, 0], [1, 1]], "flip": [1, 0]}
    assert t.action_to_dict(t.dict_to_action(d, 0), 0) == d


def test_the_history_hides_a_round_until_everyone_has_chosen():
    """A seat that has placed and is still choosing its scoring: the others do not learn the
    placement from the history; the seat itself does; once the round is over, all do."""
    g = meeple.load("mops_royal", players=2)
    s = g.new_initial_state()
    rng = random.Random(1)
    checked = 0
    while not s.is_terminal() and checked < 3:
        if s.current_player != SIMULTANEOUS:
            meeple.play_out(s, rng, max_actions=1)
            continue
        both = s.step[0] == s.step[1] == 0 and s.pending_players() == [0, 1]
        s.apply(s.legal_actions(0)[0], 0)
        if both and 0 in s.pending_players():
            n = s.move_number()
            assert s.visible_history(1)[n - 1] == (0, None)
            assert s.visible_history(0)[n - 1] == s.history()[n - 1]
            assert s.visible_history(None)[n - 1] == (0, None)
            checked += 1
        while s.current_player == SIMULTANEOUS:
            p = s.pending_players()[0]
            s.apply(s.legal_actions(p)[0], p)
        if both:
            assert all(a is not None for p, a in s.visible_history(1) if p != CHANCE)
    assert checked == 3
