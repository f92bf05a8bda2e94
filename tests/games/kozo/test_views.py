"""Kozo views, notation, errors and the greedy bot."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

import meeple
from meeple.bots import make_bot, view_for
from meeple.games.kozo import art, physics, render

NS = "{http://www.w3.org/2000/svg}"


def play(state, *moves):
    for m in moves:
        state.apply(state.string_to_action(m))
    return state


def test_svg_has_column_targets_for_every_action():
    s = meeple.load("kozo", players=2).new_initial_state()
    play(s, "P12.5@0,0")
    svg = render.svg(s.observation(0))
    assert svg.startswith("<svg") and "viewBox" in svg and "href" not in svg
    ids = set(re.findall(r'id="([^"]+)"', svg))
    for state in (meeple.load("kozo", players=2).new_initial_state(), s):
        for a in state.legal_actions():
            d = state.describe_action(a)
            assert d["target"] in ids and set(d["cells"]) <= ids
            json.dumps(d)
    assert svg.count('class="kozo-cube piece-P12"') == 5


def test_balance_cubes_are_black_and_pieces_shaded():
    s = play(meeple.load("kozo", players=2).new_initial_state(), "P12.5@0,0", "B@0,0")
    svg = render.svg(s.observation(None))
    root = ET.fromstring(svg)
    balances = [g for g in root.iter(f"{NS}g") if g.get("class") == "kozo-balance"]
    assert len(balances) == 1
    faces = {p.get("fill") for p in balances[0].iter(f"{NS}polygon")}
    assert faces == {art.shade(render.BALANCE_FILL, f) for f in art.FACE_SHADE.values()}
    # the V-pentacube: its own wood on every cube, each face lit differently
    tint = art.tint(11)
    cubes = [g for g in root.iter(f"{NS}g") if g.get("class") == "kozo-cube piece-P12"]
    assert len(cubes) == 5
    fills = {p.get("fill") for g in cubes for p in g.iter(f"{NS}polygon")}
    assert {art.shade(tint, f) for f in art.FACE_SHADE.values()} <= fills
    assert len({art.shade(tint, f) for f in art.FACE_SHADE.values()}) == 3


def test_describe_place_gives_the_resting_cubes():
    s = play(meeple.load("kozo", players=2).new_initial_state(), "P12.5@0,0", "B@0,0")
    d = s.describe_action(s.string_to_action("P3.10@0,0"))
    assert d["piece"] == 3 and d["rotation"] == 10 and d["offset"] == [0, 0]
    assert sorted(map(tuple, d["cubes"])) == [(0, 0, 2), (1, 0, 1), (1, 0, 2)]
    assert d["label"] == ("Place the yellow L-tricube (C) across the south-west and south "
                          "columns, two cubes high on the south: it rests at height 1")
    b = s.describe_action(s.string_to_action("B@1,0"))
    assert b["kind"] == "balance" and b["column"] == [1, 0] and b["height"] == 1
    assert b["label"] == "Put a balance cube on top of the south column, at height 1"


def test_text_shows_layers_letters_and_the_fall():
    s = meeple.load("kozo", players=2).new_initial_state()
    play(s, "P12.5@0,0", "B@0,0", "P2.1@2,0")  # rules example Z4 B: the bar falls
    obs = s.observation(None)
    assert obs["last_check"]["result"] == "fallen" and obs["last_check"]["fell"] == ["P2"]
    text = render.text(obs)
    assert "toppled the tower" in text and "Fallen: I-tricube (B)" in text
    assert "level 1" in text and "L" in text and "o" in text
    assert "Pieces left" in text


def test_motion_of_a_fall_is_small_json():
    s = meeple.load("kozo", players=2).new_initial_state()
    play(s, "P12.5@0,0", "B@0,0", "P2.1@2,0")
    m = physics.motion(s.observation(None)["last_check"]["scene"])
    assert m["fallen"] and m["dt"] == pytest.approx(0.05)
    assert [b["piece"] for b in m["bodies"]] == ["P12", "P2", "B@0,0"]
    assert m["moved"] == [1]
    frames = m["bodies"][1]["frames"]
    assert 2 < len(frames) <= 61 and len(frames[0]) == 7
    assert frames[0][:3] == pytest.approx([2.5, 1.5, 1.5])
    assert len(json.dumps(m)) < 20000


@pytest.mark.parametrize("text,message", [
    ("P13.0@0,0", "P1..P12"), ("P1.0@3,0", "0, 1 or 2"), ("B@1,1", "chimney"),
    ("size 6", "2, 3, 4 and 5"), ("hello", "Pp.o@dx,dy"),
])
def test_notation_errors_say_the_expected_form(text, message):
    s = meeple.load("kozo", players=2).new_initial_state()
    with pytest.raises(meeple.NotationError, match=re.escape(message)):
        s.string_to_action(text)


def test_illegal_actions_say_why_and_change_nothing():
    s = play(meeple.load("kozo", players=2).new_initial_state(), "P12.5@0,0")
    before = json.dumps(s.observation(None), sort_keys=True)
    with pytest.raises(meeple.IllegalAction, match="balance cube"):
        s.apply(s.string_to_action("P1.0@0,0"))
    with pytest.raises(meeple.IllegalAction, match="on a polycube"):
        s.apply(s.string_to_action("B@2,2"))
    play(s, "B@0,0")
    with pytest.raises(meeple.IllegalAction, match="already in the tower"):
        s.apply(s.string_to_action("P12.0@0,0"))
    s2 = play(meeple.load("kozo", players=2).new_initial_state(), "P12.5@0,0")
    assert json.dumps(s2.observation(None), sort_keys=True) == before


def test_bad_options_are_refused():
    with pytest.raises(meeple.OptionError):
        meeple.load("kozo", players=2, tremor=0.3)
    with pytest.raises(meeple.OptionError):
        meeple.load("kozo", players=7)
    with pytest.raises(meeple.OptionError):
        meeple.load("kozo", players=2, stability="bullet")


def test_greedy_bot_plays_big_pieces_and_avoids_falls():
    game = meeple.load("kozo", players=2, rounds=1)
    bot = make_bot("greedy", game, seed=1)
    s = game.new_initial_state()
    first = bot.act(view_for(s, 0))
    assert s.action_to_string(first).startswith("P12.")
    rng = random.Random(2)
    falls_by_greedy = 0
    for seed in range(3):
        s = game.new_initial_state()
        bot = make_bot("greedy", game, seed=seed)
        while not s.is_terminal():
            p = s.current_player
            if p == 0:
                s.apply(bot.act(view_for(s, 0)))
            else:
                s.apply(rng.choice(s.legal_actions()))
        falls_by_greedy += s.round_log[0]["faller"] == 0
    assert falls_by_greedy == 0


def test_observation_tensor_shape_and_final_breakdown():
    game = meeple.load("kozo", players=3, rounds=1)
    s = meeple.play_out(game.new_initial_state(), 4)
    assert s.observation_tensor(1).shape == game.observation_shape
    fb = s.observation(2)["final_breakdown"]
    assert [row["player"] for row in fb] == [0, 1, 2]
    assert [row["total"] for row in fb] == [int(v) for v in s.scores()]


def test_motion_starts_from_the_tremor_offset():
    s = meeple.load("kozo", players=2, tremor=0.1, rounds=1).new_initial_state()
    play(s, "P12.5@0,0", "tremor 0,0", "B@0,0", "P1.1@2,1", "tremor 1,1")
    scene = s.observation(None)["last_check"]["scene"]
    assert scene["pieces"][-1]["tremor"] == pytest.approx([0.1, 0.1])
    assert scene["pieces"][-1]["offset"] == [2, 1]
    m = physics.motion(scene)
    assert not m["fallen"]
    assert m["bodies"][1]["frames"][0][:2] == pytest.approx([2.6, 2.1])


def test_typing_a_piece_shows_its_orientations():
    s = play(meeple.load("kozo", players=2).new_initial_state(), "P12.5@0,0", "B@0,0")
    with pytest.raises(meeple.NotationError) as info:
        s.string_to_action("p3?")
    text = str(info.value)
    assert "P3 L-tricube" in text and "10: 001 100 101" in text
    assert "legal at 0,0" in text.splitlines()[11]  # P3.10@0,0 of example Z3
    assert "Type a piece alone" in render.text(s.observation(1))
