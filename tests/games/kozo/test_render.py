"""Kozo's final breakdown as score lines, and the players' names and colours in the pictures."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from rich.text import Text

import meeple
from meeple.engine import svg as draw
from meeple.engine.look import PALETTE, seat_names
from meeple.engine.scores import ScoreLine, score_lines, score_table_text
from meeple.games.kozo import Kozo, render

NAMES = ["Ann & Co", "Bartholomew", "Chiara", "Dev", "Eli", "Fay"]
NS = "{http://www.w3.org/2000/svg}"


def play(state, *moves):
    for m in moves:
        state.apply(state.string_to_action(m))
    return state


def finished(players: int, seed: int, **options):
    game = meeple.load("kozo", players=players, **options)
    return meeple.play_out(game.new_initial_state(), seed)


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


@pytest.mark.parametrize("players,seed,options", [
    (2, 1, {}), (3, 2, {"rounds": 2}), (4, 3, {"random_size": True}),
    (3, 4, {"tie_break_turn": "last_taken"}), (6, 5, {"rounds": 1}),
])
def test_final_breakdown_is_score_lines_that_add_up_to_the_scores(players, seed, options):
    s = finished(players, seed, **options)
    fb = s.observation(None)["final_breakdown"]
    lines = [ScoreLine.from_json(row) for row in fb]
    assert [ln.to_json() for ln in lines] == fb
    assert [ln.player for ln in lines] == list(range(players))
    assert [ln.total for ln in lines] == s.scores()
    rounds = s.game.options["rounds"]
    for ln in lines:
        assert [label for label, _ in ln.parts] == [f"Round {r + 1}" for r in range(rounds)]
        assert sum(v for _, v in ln.parts) == ln.total  # a game total is its rounds' points
        assert [v for _, v in ln.parts] == [r["points"][ln.player] for r in s.round_log]
        assert "Total" not in [label for label, _ in ln.parts]
    # a note exactly where the tie-break turn tells level totals apart
    key = s.last_taken if options.get("tie_break_turn") == "last_taken" else s.last_success
    for ln in lines:
        level = [q for q in range(players) if s.scores()[q] == ln.total]
        decides = len({key[q] for q in level}) > 1
        assert bool(ln.note) == decides, (ln, level)


def test_the_tie_break_note_names_the_turn_that_decides():
    game = meeple.load("kozo", players=3, rounds=1)
    s = play(game.new_initial_state(), "P7.3@0,2", "B@1,2", "P6.1@1,0", "B@1,0", "P3.1@2,0")
    assert s.is_terminal() and s.scores() == [4.0, 4.0, 0.0] and s.ranks() == [2, 1, 3]
    lines = score_lines(s.observation(None))
    assert lines[0].note.endswith("last successful turn ranks higher: game turn 1")
    assert lines[1].note.endswith("last successful turn ranks higher: game turn 2")
    assert lines[2].note == ""
    shown = plain(render.text(s.observation(None), NAMES[:3]))
    assert "Tied on points" not in shown  # the board text holds no results table or notes
    table = plain(str(s))
    assert table.count("Player 2: Tied on points") == 1
    assert table.count(lines[0].note) == 1 and table.count(lines[1].note) == 1


def test_svg_names_players_and_uses_only_their_seat_colours():
    game = meeple.load("kozo", players=2)
    s = play(game.new_initial_state(), "P12.5@0,0", "B@0,0", "P3.10@0,0", "B@1,0")
    picture = render.svg(s.observation(1), NAMES[:2])
    assert "Ann &amp; Co" in picture and "Bartholomew (you)" in picture
    assert "Ann & Co" not in picture
    assert "P0" not in picture  # players are named, never numbered like the pieces
    assert not re.search(r"Player \d", picture) and "Seat" not in picture
    marks = re.findall(r'<g class="player[^"]*" data-seat="(\d)">(?:<circle[^>]*/>)?'
                       r'<g class="player-mark"><circle[^>]*fill="([^"]+)"', picture)
    assert sorted(marks) == [("0", Kozo.colours[0].fill), ("1", Kozo.colours[1].fill)]
    for other in PALETTE[2:]:
        assert other.fill not in picture
    # who placed what: P12 by the first player, P3 by the second, each beside their name
    placed = dict(re.findall(r'class="kozo-placed" data-piece="(P\d+)" data-seat="(\d)"',
                             picture))
    assert placed == {"P12": "0", "P3": "1"}
    assert '<text x="348" y="26" font-size="13" text-anchor="end" fill="#8a8578" ' \
        'class="detail">Round 1 of 3</text>' in picture  # the round beside the name
    assert re.search(r'class="status">Ann &amp; Co places a polycube</text>', picture)


def test_svg_without_names_counts_players_from_one():
    s = meeple.load("kozo", players=4).new_initial_state()
    picture = render.svg(s.observation(None))
    for p in range(4):
        assert f"Player {p + 1}<" in picture
        assert Kozo.colours[p].fill in picture
    assert "Player 0" not in picture and "Player 5" not in picture
    for other in PALETTE[4:]:
        assert other.fill not in picture


def test_svg_of_a_finished_game_has_no_results_table_and_each_total_once():
    s = finished(3, 7, rounds=2)
    obs = s.observation(None)
    picture = render.svg(obs, NAMES[:3])
    assert 'class="score-table"' not in picture and "Final scores" not in picture
    assert picture.count("<svg") == 1 and picture.count("<text") == picture.count("</text>")
    root = ET.fromstring(picture)
    texts = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    assert "Total" not in texts and not [t for t in texts if "Round 1" == t]
    for line in score_lines(obs):
        assert not line.note or all(line.note not in t for t in texts)
    totals = [draw.points(t) for t in s.scores()]
    for total in set(totals):  # each total once, beside the player's name
        assert texts.count(total) == totals.count(total)
    for p in range(3):
        assert Kozo.colours[p].fill in picture
        label = [g for g in root.iter(f"{NS}g") if g.get("data-seat") == str(p)
                 and g.get("class") == "player"]
        assert len(label) == 1  # not ringed: nobody is to act
    for other in PALETTE[3:]:
        assert other.fill not in picture
    winners = " and ".join(NAMES[w] for w in s.winners()).replace("&", "&amp;")
    assert f"Game over: {winners}" in picture


def test_terminal_text_of_a_finished_game_holds_no_table_and_the_state_text_one():
    s = finished(4, 8, rounds=2)
    obs = s.observation(None)
    shown = plain(render.text(obs, NAMES[:4]))
    assert "{" not in shown and "[" not in shown and "]" not in shown
    assert "Total" not in shown and "Rank" not in shown and "Final" not in shown
    assert "Points" not in shown and "game total" not in shown  # no running totals either
    for p in range(4):
        assert f"{int(s.scores()[p])} points" not in shown
    assert not re.search(r"Player \d", shown) and "P0" not in shown
    whole = plain(str(s))
    table = score_table_text(score_lines(obs), seat_names(4), obs["ranks"])
    assert whole.count(table) == 1 and whole.count("Total") == 1
    head, tail = whole.split(table)
    assert "Points" not in head and tail == ""
    for p in range(4):
        rows = [ln for ln in table.splitlines() if f"Player {p + 1}" in ln and ln[:1] == " "]
        assert len(rows) == 1
        assert rows[0].split()[-1] == str(int(s.scores()[p]))


def test_terminal_text_names_the_players_in_play():
    game = meeple.load("kozo", players=3, opponent_choice=True)
    s = game.new_initial_state()
    shown = plain(render.text(s.observation(0), NAMES[:3]))
    assert "Bartholomew chooses the size Ann & Co must play" in shown
    rows = [re.split(r"\s{2,}", ln.strip()) for ln in shown.splitlines() if "this round" in ln]
    assert rows == [["●", "Ann & Co (you)", "0 points in the game, 0 this round"],
                    ["▲", "Bartholomew ◀", "0 points in the game, 0 this round"],
                    ["■", "Chiara", "0 points in the game, 0 this round"]]
    s = play(meeple.load("kozo", players=2).new_initial_state(), "P12.5@0,0", "B@0,0",
             "P2.1@2,0")
    shown = plain(render.text(s.observation(None), NAMES[:2]))
    assert "Bartholomew toppled the tower with a polycube. Fallen: I-tricube (B)." in shown


def test_the_plan_and_the_text_name_the_columns_as_the_log_does():
    """The plan's squares and the terminal's column heights say "north-west", as the moves in
    the log do (the text also gives the coordinates a typed move uses)."""
    s = play(meeple.load("kozo", players=2).new_initial_state(), "P12.5@0,0")
    obs = s.observation(None)
    root = ET.fromstring(render.svg(obs, NAMES[:2]))
    names = {"".join(t.itertext()) for t in root.iter(f"{NS}text")
             if "kozo-square-name" in (t.get("class") or "")}
    assert names == {"north-west", "north", "north-east", "west", "east", "south-west",
                     "south", "south-east"}
    tips = ["".join(t.itertext()) for t in root.iter(f"{NS}title")]
    assert any(t.startswith("Column north-west:") for t in tips)
    assert not any(re.search(r"\b\d,\d\b", t) for t in tips)
    assert [c["name"] for c in obs["columns"]][:3] == ["south-west", "south", "south-east"]
    shown = plain(render.text(obs, NAMES[:2]))
    assert "south-west (0,0): 1" in shown and "north-west (0,2): 1" in shown
