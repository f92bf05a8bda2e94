"""Botanik's final breakdown as score lines, and the pictures: names, seat colours, and no
results table (the state's text and the clients hold the one table)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from rich.text import Text

import meeple
from meeple.bots import make_bot, view_for
from meeple.engine import CHANCE, sample_chance
from meeple.engine import svg as draw
from meeple.engine.look import PALETTE
from meeple.engine.scores import ScoreLine, score_lines
from meeple.games.botanik import Botanik, components, render

from .helpers import build, fresh
from .test_examples import P0_B8, P1_B8

NAMES = ["Alice", "Bob"]
NS = "{http://www.w3.org/2000/svg}"


def b8_final(**options):
    """The worked example B8 (16 points each, 10 tiles against 8 in the main network), over."""
    s = fresh(**options)
    build(s, 0, P0_B8)
    build(s, 1, P1_B8)
    s.phase = 5  # the end
    s._sync()
    s.log.append("end")
    return s


def greedy_game(seed=3):
    game = meeple.load("botanik")
    rng = random.Random(seed)
    bots = [make_bot("greedy", game, seed=seed), make_bot("greedy", game, seed=seed + 1)]
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s.apply(sample_chance(s, rng))
        else:
            p = s.current_player
            s.apply(bots[p].act(view_for(s, p)), p)
    return s


@pytest.mark.parametrize("group_needs_pipe", [False, True])
def test_b8_breakdown_is_one_score_line_per_player(group_needs_pipe):
    s = b8_final(group_needs_pipe=group_needs_pipe)
    obs = s.observation(None)
    lines = score_lines(obs)
    assert [ln.to_json() for ln in lines] == obs["final_breakdown"]
    assert lines == [
        ScoreLine(0, (("Colour groups", 7), ("Flowers", 9)), 16,
                  "tie on points broken by tiles in the main network, 10 against 8"),
        ScoreLine(1, (("Colour groups", 7), ("Flowers", 9)), 16,
                  "tie on points broken by tiles in the main network, 8 against 10"),
    ]
    # the parts add up to the total (rules 6.2: score = group points + flower points)
    for line in lines:
        assert sum(v for _, v in line.parts) == line.total
    assert [ln.total for ln in lines] == s.scores()
    assert s.winners() == [0] and obs["ranks"] == [1, 2]


def test_breakdown_of_a_played_game_matches_the_scores():
    s = greedy_game()
    obs = s.observation(None)
    lines = score_lines(obs)
    assert [ln.player for ln in lines] == [0, 1]
    for q, line in enumerate(lines):
        b = s.breakdown(q)
        assert line.parts == (("Colour groups", b["group_points"]),
                              ("Flowers", b["flower_points"]))
        assert line.total == s.scores()[q] == b["group_points"] + b["flower_points"]
        assert "Total" not in dict(line.parts)
    if lines[0].total != lines[1].total:
        assert not any(ln.note for ln in lines)


def test_no_breakdown_before_the_end():
    s = meeple.play_out(meeple.load("botanik").new_initial_state(), 2, max_actions=80)
    assert not s.is_terminal()
    assert "final_breakdown" not in s.observation(None)
    assert score_lines(s.observation(None)) == []


def _fills(picture: str) -> set[str]:
    return {f.lower() for f in re.findall(r'(?:fill|stroke)="(#[0-9a-fA-F]{6})"', picture)}


def _element(picture: str, elem_id: str) -> str:
    """The text of the group with this id (up to its closing tag)."""
    start = picture.index(f'id="{elem_id}"')
    return picture[start:picture.index("</g>", start)]


@pytest.mark.parametrize("final", [False, True])
def test_svg_names_the_players_and_uses_their_seat_colours(final):
    s = greedy_game() if final else meeple.play_out(
        meeple.load("botanik").new_initial_state(), 5, max_actions=120)
    assert Botanik.colours is components.SEAT_COLOURS
    colours = Botanik.colours
    picture = render.svg(s.observation(None), NAMES)
    assert "Alice" in picture and "Bob" in picture
    assert not re.search(r"Player \d|P[01]\b|Seat \d|player [01]", picture)
    fills = _fills(picture)
    for p in range(2):
        fill = colours[p].fill.lower()
        # the Source, the frames of the side and the machine, the marks: the seat's colour
        assert f'fill="{colours[p].fill}"' in _element(picture, f"m{p}-cell-0-0")
        assert picture.count(f'stroke="{colours[p].fill}"') >= 2
        assert fill in fills
    others = {c.fill.lower() for c in PALETTE[2:]}
    assert not fills & others, "a colour of a seat that is not playing"
    texts = re.findall(r">([^<>]+)</text>", picture)
    assert 'class="score-table"' not in picture and "Total" not in texts
    root = ET.fromstring(picture)
    for p in range(2):  # each player's points once, beside their name
        line = root.find(f".//{NS}g[@id='machine-{p}']/{NS}g[@class='player-line']")
        assert line is not None and line.get("data-seat") == str(p)
        assert "".join(line.itertext()).endswith(draw.points(s.scores()[p]))
    if final:
        totals = [draw.points(t) for t in s.scores()]
        for total in set(totals):
            assert texts.count(total) == totals.count(total)


def test_svg_without_names_counts_players_from_one():
    picture = render.svg(meeple.load("botanik").new_initial_state().observation(None))
    assert "Player 1" in picture and "Player 2" in picture and "Player 0" not in picture


def test_terminal_text_holds_no_table_and_the_state_text_one_with_each_total_once():
    s = greedy_game()
    obs = s.observation(None)
    plain = Text.from_markup(render.text(obs, NAMES)).plain
    assert "{" not in plain and "[" not in plain
    assert not re.search(r"P[01]\b|Player \d|player [01]", plain)
    assert "Final scores" not in plain and "Total" not in plain and "Rank" not in plain
    for name in NAMES:  # the machines' headings do not give the final points
        heading = next(row for row in plain.splitlines() if name in row and "machine:" in row)
        assert not re.search(r"\d+ points?\b", heading)
    whole = Text.from_markup(str(s)).plain
    assert whole.count("Total") == 1 and whole.count("Rank") == 1
    for line in score_lines(obs):
        name = f"Player {line.player + 1}"
        rows = [row for row in whole.splitlines()
                if re.fullmatch(rf"\s*\d+\s+{name}(\s+\d+)+", row)]
        assert len(rows) == 1
        assert rows[0].split()[-1] == str(line.total)
        assert rows[0].split()[3:] == [str(v) for _, v in line.parts] + [str(line.total)]


def test_a_tie_on_points_gives_the_tie_break_once():
    s = b8_final()
    plain = Text.from_markup(render.text(s.observation(None), NAMES)).plain
    assert "Game over: Alice wins" in plain
    picture = render.svg(s.observation(None), NAMES)
    assert "Game over: Alice wins" in picture
    whole = Text.from_markup(str(s)).plain
    for note in ("tie on points broken by tiles in the main network, 10 against 8",
                 "tie on points broken by tiles in the main network, 8 against 10"):
        assert note not in plain and note not in picture  # the clients' table gives it
    assert whole.count("Player 1: tie on points broken by tiles in the main network, "
                       "10 against 8") == 1
    assert whole.count("Player 2: tie on points broken by tiles in the main network, "
                       "8 against 10") == 1


def test_names_with_markup_are_shown_as_they_are():
    s = greedy_game()
    names = ["[red]Eve", "Bob"]
    plain = Text.from_markup(render.text(s.observation(None), names)).plain
    assert re.search(r"\[red\]Eve\s+machine: ", plain)
    picture = render.svg(s.observation(None), ["<b>", "Bob"])
    assert "&lt;b&gt;" in picture and "<b>" not in picture


def test_log_in_player_words():
    assert render.log_line("release P0 B-MB@3", NAMES) == \
        "Alice's tile, the blue Meca-Botanist, is released from column 3"
    assert render.log_line("swap P1 B-MB for K-ST1@3", NAMES) == \
        "Bob swaps the blue Meca-Botanist for the black straight pipe on pile 3"
    assert render.log_line("discard G-PL") == "the green plant fits nowhere and is removed"
    assert render.log_line("release P1 Y-TE2@0") == \
        "Player 2's tile, the yellow tee, is released from column 0"
    assert render.log_line("end") == "the last tile is placed"
