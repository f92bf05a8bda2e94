"""KoPlus pictures (SVG ids match the action descriptions) and the greedy bot's values."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

from rich.text import Text

import meeple
from meeple.bots import make_bot, view_for
from meeple.engine import resolve_chance
from meeple.engine import svg as draw
from meeple.engine.look import seat_name
from meeple.games.koplus import KoPlus, heuristics, render

from .test_examples import f2, play


def test_svg_has_every_cell_and_every_action_target():
    game = meeple.load("koplus", players=3)
    state = meeple.play_out(game.new_initial_state(), 11, max_actions=25)
    obs = state.observation(state.current_player)
    picture = render.svg(obs)
    root = ET.fromstring(picture)  # well-formed, standalone
    assert root.tag.endswith("svg") and root.get("viewBox")
    ids = set(re.findall(r'id="([^"]+)"', picture))
    links = re.findall(r'href="([^"]*)"', picture)
    # nothing outside: links to its own parts, or pictures written out in it
    assert links and all(h.startswith("#") and h[1:] in ids
                         or h.startswith("data:image/svg+xml;base64,") for h in links)
    assert {f"cell-{r}-{c}" for r in range(12) for c in range(16)} <= ids
    for a in state.legal_actions():
        d = state.describe_action(a)
        json.dumps(d)
        if d["target"] is not None:
            assert d["target"] in ids and set(d["cells"]) <= ids
    viewer = state.current_player
    assert f'class="seat player-{viewer} viewer to-move"' in picture
    assert f"{seat_name(viewer)} (you)" in picture


def test_the_finished_pictures_show_the_viewer_and_each_total_beside_the_name_only():
    game = meeple.load("koplus", players=2)
    state = meeple.play_out(game.new_initial_state(), 5)
    obs = state.observation(1)
    names = ["Ann", "Bob"]
    picture = render.svg(obs, names)
    assert "Bob (you)" in picture and 'class="score-table"' not in picture
    assert "Final scoring" not in picture and ">Total<" not in picture
    for b in obs["final_breakdown"]:
        seat = ET.fromstring(picture).find(
            f".//{{http://www.w3.org/2000/svg}}g[@class='player-line'][@data-seat='{b['player']}']")
        assert seat is not None
        assert "".join(seat.itertext()).endswith(draw.points(b["total"]))
    words = render.text(obs, names)
    assert "Bob (you)" in words and "Final scoring" not in words and "Total" not in words


def test_pictures_during_setup():
    state = meeple.load("koplus", players=4).new_initial_state()
    state.apply(0)
    obs = state.observation(None)
    assert obs["phase"] == "setup" and obs["sections_dealt"] == 1
    assert render.svg(obs).startswith("<svg")
    assert "1 of 16 sections" in render.text(obs)


def test_text_marks_tiles_with_the_players_symbol():
    state = f2()
    play(state, "U2@6,5")
    lines = render.text(state.observation(0)).splitlines()
    row6 = next(line for line in lines if line.startswith("[dim]  7[/dim]"))  # rows from 1
    colour = KoPlus.colours[0]
    # (6,5) caught a 5: the symbol and the 5; (6,6) and (6,7) the symbol alone; the last tile
    # laid is underlined
    assert row6.count(f"[bold {colour.fill} underline]{colour.symbol}5[/]") == 1
    assert row6.count(f"[bold {colour.fill} underline]{colour.symbol} [/]") == 2
    assert row6.count(colour.symbol) == 3
    assert KoPlus.colours[1].fill not in row6
    plain = Text.from_markup(render.text(state.observation(0))).plain
    assert ("Last tile: Player 1 laid a U covering rows 7 to 8, columns 6 to 8: 9 points"
            in plain.splitlines())
    play(state, "X@7,5")
    lines = render.text(state.observation(0)).splitlines()
    row6 = next(line for line in lines if line.startswith("[dim]  7[/dim]"))  # rows from 1
    assert row6.count(f"[bold {colour.fill}]{colour.symbol}5[/]") == 1
    assert row6.count(f"[bold {colour.fill}]{colour.symbol} [/]") == 2
    assert "underline" not in row6


def test_greedy_values_points_first():
    state = f2()
    values = {a: heuristics.action_value(state, 0, a) for a in state.legal_actions()}
    best = max(values, key=values.get)
    assert state.describe_action(best)["points"] == 9  # U2@6,5 catches the most
    play(state, "U2@6,5", "X@3,4", "X@7,3", "U1@3,3")
    # P0 on 13 with a bonus left: landing on exactly 20 earns a bonus turn
    seven = state.string_to_action("U2@8,7")
    assert heuristics.action_value(state, 0, seven) > 7 + 1
    assert -1 <= heuristics.evaluate(state, 0) <= 1


def test_evaluate_estimates_the_return():
    for players in (2, 3, 4):
        game = meeple.load("koplus", players=players)
        state = meeple.play_out(game.new_initial_state(), players, max_actions=30)
        assert all(-1 <= heuristics.evaluate(state, p) <= 1 for p in range(players))
        meeple.play_out(state, players)
        assert [heuristics.evaluate(state, p) for p in range(players)] == state.returns()


def test_greedy_beats_random():
    wins = 0
    for seed in range(4):
        game = meeple.load("koplus", players=2)
        bots = [make_bot("greedy", game, seed=seed), make_bot("random", game, seed=seed)]
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            resolve_chance(state, rng)
            if state.is_terminal():
                break
            p = state.current_player
            state.apply(bots[p].act(view_for(state, p)))
        wins += 0 in state.winners()
    assert wins >= 3
