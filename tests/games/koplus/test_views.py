"""KoPlus views: the final breakdown as score lines, the players' names and colours in the
pictures, and one results table in the terminal."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from rich.text import Text

import meeple
from meeple.engine import svg as draw
from meeple.engine.look import PALETTE, seat_name, seat_names
from meeple.engine.scores import ScoreLine, score_lines, score_table_text
from meeple.games.koplus import KoPlus, render, views

from .test_examples import k5

LABELS = ["Aliens caught", "Largest group", "Isolated tiles", "Tiles in smaller groups"]
NAMES = ["Ann", "Bob", "Cleo", "Dov"]
NS = "{http://www.w3.org/2000/svg}"


def finished(players: int, seed: int):
    return meeple.play_out(meeple.load("koplus", players=players).new_initial_state(), seed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_final_breakdown_is_score_lines_that_add_up_to_the_final_scores(players):
    for seed in range(3):
        state = finished(players, seed)
        obs = state.observation(None)
        rules = state.final_result()
        breakdown = obs["final_breakdown"]
        assert [b["player"] for b in breakdown] == list(range(players))
        for b, r in zip(breakdown, rules, strict=True):
            assert set(b) <= {"player", "parts", "total", "note"}
            line = ScoreLine.from_json(b)
            assert line.to_json() == b
            assert [label for label, _ in line.parts] == LABELS
            parts = dict(line.parts)
            # rules 6.2: final = running score + 5 (largest group) - 5 each isolated tile
            # - 3 each tile in a smaller group
            assert sum(parts.values()) == line.total
            assert parts["Aliens caught"] == obs["running_scores"][line.player]
            assert parts["Largest group"] in (0, 5)
            assert parts["Isolated tiles"] == -5 * r["isolated_tiles"]
            assert parts["Tiles in smaller groups"] == -3 * r["non_maximal_tiles"]
        assert [b["total"] for b in breakdown] == state.scores()
        assert state.ranks() == obs["ranks"]


def test_there_is_no_breakdown_before_the_end():
    game = meeple.load("koplus", players=3)
    state = game.new_initial_state()
    assert state.observation(None)["final_breakdown"] is None
    state = meeple.play_out(state, 4, max_actions=20)
    assert not state.is_terminal()
    assert state.observation(0)["final_breakdown"] is None
    assert "score-table" not in render.svg(state.observation(0))
    assert "Final scoring" not in render.text(state.observation(0))


def test_the_note_names_the_tiles_in_hand_only_where_they_break_a_tie():
    lines = views.score_lines(k5())  # P0 and P2 level on 30; P2 holds 8 tiles, P0 5
    assert [ln.total for ln in lines] == [30, 35, 30]
    assert "5 tiles in hand" in lines[0].note and "8 tiles in hand" in lines[2].note
    assert lines[1].note == ""


def _colour_values(element: ET.Element) -> set[str]:
    found = set()
    for el in element.iter():
        for key in ("fill", "stroke"):
            value = el.get(key)
            if value and value.startswith("#"):
                found.add(value.lower())
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_the_svg_names_the_players_and_draws_each_in_their_one_colour(players):
    names = NAMES[:players]
    for state in (meeple.play_out(meeple.load("koplus", players=players).new_initial_state(),
                                  3, max_actions=9 + 16 + 3 * players),
                  finished(players, 3)):
        picture = render.svg(state.observation(1), names)
        root = ET.fromstring(picture)
        words = " ".join(t for t in root.itertext())
        for name in names:
            assert name in words
        assert f"{names[1]} (you)" in words
        for generic in ("Player 1", "P0", "P1", "Seat"):
            assert generic not in words
        seat_fills = {c.fill.lower() for c in KoPlus.colours[:players]}
        others = {c.fill.lower() for c in PALETTE} - seat_fills
        # no colour of an absent seat, and none of a second player colour table
        for old in ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"):
            assert old not in picture.lower()
        assert not others & _colour_values(root)
        tiles = [g for g in root.iter() if "tile" in (g.get("class") or "").split()]
        assert len(tiles) == len(state.observation(None)["tiles"])
        for g in tiles:
            p = int(g.get("data-seat"))
            colours = _colour_values(g) & (seat_fills | others)
            assert colours == {KoPlus.colours[p].fill.lower()}
        for p in range(players):
            labels = [g for g in root.iter() if g.get("data-seat") == str(p)
                      and (g.get("class") or "").split()[:1] == ["player"]]
            assert len(labels) == 1  # one label per player: no second one in a results table
            assert KoPlus.colours[p].fill.lower() in _colour_values(labels[0])
            to_act = "to-act" in labels[0].get("class").split()
            assert to_act == (not state.is_terminal() and p == state.current_player)


def test_the_finished_pictures_hold_no_results_table_and_the_state_text_holds_one():
    for players in (2, 4):
        state = finished(players, 6)
        names = NAMES[:players]
        obs = state.observation(0)
        lines = score_lines(obs)
        plain = Text.from_markup(render.text(obs, names)).plain
        assert "{" not in plain and "[" not in plain
        assert "Total" not in plain and "Rank" not in plain and "Final" not in plain
        for name in names:
            seat_line = next(line for line in plain.splitlines()
                             if name in line and "tiles left" in line)
            assert "score" not in seat_line  # the totals are in the clients' table only
        for line in lines:
            assert not line.note or line.note not in plain
        assert "P0" not in plain and seat_name(0) not in plain
        picture = render.svg(obs, names)
        texts = ["".join(t.itertext()) for t in ET.fromstring(picture).iter(f"{NS}text")]
        assert "score-table" not in picture and "Total" not in texts
        assert not [t for t in texts if t.startswith("Final")]
        for line in lines:
            assert not line.note or all(line.note not in t for t in texts)
        totals = [draw.points(t) for t in state.scores()]
        for total in set(totals):  # each player's total once, beside their name
            assert texts.count(total) == totals.count(total)
        assert "Game over: " in texts[texts.index("KoPlus") + 1]
        # the state's own text: the board, then the one table
        shown = Text.from_markup(str(state)).plain
        table = score_table_text(lines, seat_names(players), state.ranks())
        assert shown.count(table) == 1 and shown.count("Total") == 1
        rows = table.splitlines()
        assert rows[0].split()[:2] == ["Rank", "Player"] and rows[0].split()[-1] == "Total"
        for p in range(players):
            row = [r for r in rows if re.search(rf"\bPlayer {p + 1}\b", r)]
            assert len(row) == 1 and row[0].split()[-1] == f"{state.scores()[p]:g}"


def test_the_terminal_text_mid_game_shows_the_running_scores():
    state = meeple.play_out(meeple.load("koplus", players=2).new_initial_state(), 8,
                            max_actions=20)
    plain = Text.from_markup(render.text(state.observation(0))).plain
    for p in range(2):
        line = next(line for line in plain.splitlines() if f"Player {p + 1}" in line
                    and "tiles left" in line)
        assert f"score {state.scores()[p]:g}" in line
