"""Mops Royal's final breakdown as score lines, and the pictures: names, one colour per player,
no results table in the pictures and one in the state's text."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from rich.text import Text

import meeple
from meeple.engine import SIMULTANEOUS
from meeple.engine import svg as draw
from meeple.engine.look import PALETTE
from meeple.engine.scores import score_lines
from meeple.games.mops_royal import MopsRoyal, render
from meeple.games.mops_royal.components import SEAT_COLOURS

from .helpers import enter_scoring, make_state
from .test_examples import M5

NAMES = ["Alice", "Bartholomew", "Carol", "Dmitri"]
NS = "{http://www.w3.org/2000/svg}"
OLD_BACKS = ("#7a4b2a", "#2f5d50", "#4b3f72", "#8a2f3c")
"""The frame and tile-back colours the pictures used before each seat had one colour."""


def finished(players=2, seed=0, **options):
    game = MopsRoyal(players, **options)
    return meeple.play_out(game.new_initial_state(), random.Random(seed))


def mid_round(players=2, rounds=12, seed=4, **options):
    s = MopsRoyal(players, **options).new_initial_state()
    rng = random.Random(seed)
    while s.round < rounds or s.current_player != SIMULTANEOUS:
        meeple.play_out(s, rng, max_actions=1)
    return s


# ---------------------------------------------------------------------------- score lines
@pytest.mark.parametrize("players,options", MopsRoyal.configurations())
def test_the_final_breakdown_is_score_lines_that_add_up(players, options):
    for seed in range(3):
        s = finished(players, seed, **options)
        obs = s.observation(None)
        raw = obs["final_breakdown"]
        lines = score_lines(obs)
        assert [ln.to_json() for ln in lines] == raw
        assert [ln.player for ln in lines] == list(range(players))
        assert [ln.total for ln in lines] == s.scores() == [float(x) for x in s.pub]
        for line in lines:
            parts = dict(line.parts)
            assert "Total" not in parts and "Score" not in parts
            assert parts["Combinations"] == sum(pts for *_, pts in s.log[line.player])
            assert parts["Combinations"] == sum(
                c["points"] for c in obs["scored_combinations"][line.player])
            if options.get("replacement_tiles"):
                assert parts["Rejections"] == -s.rejcost[line.player] <= 0
            else:
                assert set(parts) == {"Combinations"}
            assert sum(parts.values()) == line.total


def test_no_breakdown_before_the_end():
    s = mid_round()
    assert "final_breakdown" not in s.observation(0)
    assert score_lines(s.observation(0)) == []


def test_a_tie_on_points_is_noted_and_broken_by_fewer_face_down_tiles():
    s = finished(2, 5)  # 7 points each, 3 and 2 face-down tiles
    assert s.pub == [7, 7] and [s.face_down_count(p) for p in range(2)] == [3, 2]
    lines = score_lines(s.observation(None))
    assert s.ranks() == [2, 1]
    assert lines[0].note == (
        "level on points with 3 face-down tiles; fewer face-down tiles win the tie")
    assert lines[1].note.startswith("level on points with 2 face-down tiles")


def test_a_tie_on_points_and_face_down_tiles_shares_the_rank():
    s = finished(2, 14)  # 7 points each, 3 face-down tiles each
    assert s.pub == [7, 7] and s.ranks() == [1, 1]
    for line in score_lines(s.observation(None)):
        assert line.note == "level on points and on 3 face-down tiles: the rank is shared"


def test_no_note_without_a_tie():
    for seed in range(10):
        s = finished(3, seed)
        for line in score_lines(s.observation(None)):
            level = [q for q in range(3) if q != line.player and s.pub[q] == s.pub[line.player]]
            assert bool(line.note) == bool(level)


# ---------------------------------------------------------------------------- colours
def test_each_seat_has_the_palette_colour():
    assert MopsRoyal.colours is SEAT_COLOURS
    assert SEAT_COLOURS[:4] == PALETTE[:4]
    assert [c["fill"] for c in MopsRoyal.describe()["colours"]] == [c.fill for c in PALETTE]
    fills = [c.fill for c in SEAT_COLOURS[:4]]
    assert len(set(fills)) == 4 and len({c.symbol for c in SEAT_COLOURS[:4]}) == 4
    assert not set(fills) & set(render.FILL.values())  # players never look like tiles


def _colours_in(element: ET.Element) -> set[str]:
    """Every fill and stroke colour used inside ``element``."""
    out = set()
    for e in element.iter():
        for key in ("fill", "stroke"):
            if e.get(key, "").startswith("#"):
                out.add(e.get(key).lower())
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_the_svg_draws_each_seat_in_its_own_colour_and_name(players):
    s = finished(players, 3, replacement_tiles=players == 4)
    assert all(s.down[p] for p in range(players))
    picture = render.svg(s.observation(1), NAMES[:players])
    for old in OLD_BACKS:
        assert old not in picture.lower()
    root = ET.fromstring(picture)
    seat_fills = [c.fill.lower() for c in MopsRoyal.colours[:players]]
    for q in range(players):
        layout = root.find(f".//{NS}g[@id='layout-{q}']")
        assert layout is not None
        own = seat_fills[q]
        used = _colours_in(layout)
        assert own in used
        assert not used & (set(seat_fills) - {own}), f"seat {q} shows another seat's colour"
        assert not used & {c.fill.lower() for c in PALETTE} - {own}
        frame = layout.find(f"{NS}rect")
        assert frame is not None and frame.get("stroke").lower() == own
        backs = layout.findall(f".//{NS}g[@class='cell tile facedown']")
        assert len(backs) == s.face_down_count(q)
        for back in backs:
            assert back.find(f"{NS}rect").get("stroke").lower() == own
            assert SEAT_COLOURS[q].symbol in "".join(back.itertext())
        label = "".join(layout.find(f".//{NS}g[@class='player']").itertext())
        assert NAMES[q] in label
        assert (" (you)" in label) == (q == 1)
    # every player mark is in its seat's colour, one per player: no results table repeats them
    marks = [g for g in root.iter(f"{NS}g")
             if g.get("data-seat") and g.get("class", "").split()[0] == "player"]
    assert sorted(int(m.get("data-seat")) for m in marks) == list(range(players))
    for mark in marks:
        seat = int(mark.get("data-seat"))
        assert {e.get("fill").lower() for e in mark.iter(f"{NS}circle")} == {seat_fills[seat]}
    text = "".join(root.itertext())
    for q in range(players):
        assert NAMES[q] in text
    assert not re.search(r"\bP\d\b|Player \d|Seat \d|player \d", text)
    texts = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    assert "Final scores" not in text and "Total" not in texts
    assert 'class="score-table"' not in picture
    for line in score_lines(s.observation(1)):
        assert not line.note or line.note not in text
    for q in range(players):  # each total once, beside the player's name
        line = root.find(f".//{NS}g[@class='player-line'][@data-seat='{q}']")
        assert line is not None
        assert "".join(line.itertext()).endswith(draw.points(s.scores()[q]))


def test_the_svg_without_names_counts_seats_from_one():
    s = mid_round(players=3)
    text = "".join(ET.fromstring(render.svg(s.observation(None))).itertext())
    assert "Player 1" in text and "Player 3" in text and "Player 0" not in text


def test_the_svg_keeps_the_ids_the_actions_point_at():
    s = mid_round(players=3, replacement_tiles=True)
    for p in s.pending_players():
        picture = render.svg(s.observation(p), NAMES[:3])
        for a in s.legal_actions(p):
            d = s.describe_action(a, p)
            for cid in d.get("cells", []):
                assert f'id="{cid}"' in picture
    assert 'id="called-tile"' in picture


# ---------------------------------------------------------------------------- terminal
def _plain(markup: str) -> str:
    return Text.from_markup(markup).plain


@pytest.mark.parametrize("players,options", [(2, {}), (3, {"replacement_tiles": True}),
                                             (4, {})])
def test_the_terminal_result_is_one_table_with_each_total_once(players, options):
    s = finished(players, 2, **options)
    obs = s.observation(0)
    plain = _plain(render.text(obs, NAMES[:players]))
    assert "{" not in plain and "[" not in plain and "'" not in plain
    # the board text: each player by name, no totals and no table (the clients draw that)
    assert "Final scores" not in plain and "Total" not in plain and "Rank" not in plain
    for line in score_lines(obs):
        assert not line.note or line.note not in plain
    heads = [re.split(r"\s{2,}", ln.strip()) for ln in plain.splitlines()
             if ln.strip()[:1] in {c.symbol for c in SEAT_COLOURS}]
    assert [h[1].removesuffix(" (you)") for h in heads] == NAMES[:players]
    assert not [h for h in heads if "point" in " ".join(h)]
    # the state's text: the board, then the one table with each total once
    whole = _plain(str(s))
    table = whole[whole.index("Rank"):].splitlines()
    head = table[0].split()
    assert head[:2] == ["Rank", "Player"] and head[-1] == "Total" and head.count("Total") == 1
    assert whole.count("Rank") == 1 and whole.count("Total") == 1
    rows = {" ".join(line.split()[1:3]): line for line in table[1:players + 1]}
    assert set(rows) == {f"Player {p + 1}" for p in range(players)}
    for line in score_lines(obs):
        row = rows[f"Player {line.player + 1}"].split()
        assert row[0] == str(obs["ranks"][line.player])
        assert row[-1] == str(line.total if not float(line.total).is_integer()
                              else int(line.total))
        assert len(row) == 3 + len(line.parts) + 1  # rank, name, the parts, the total once
        if line.note:
            assert whole.count(f"Player {line.player + 1}: {line.note}") == 1


def test_the_terminal_names_players_and_escapes_their_names():
    s = mid_round(players=2)
    names = ["[red]Eve", "Bob"]
    plain = _plain(render.text(s.observation(0), names))
    assert "[red]Eve (you)" in plain and "Bob" in plain
    assert not re.search(r"\bP\d\b|Player \d|player \d", plain)
    caller = names[s.caller]
    assert f"Caller:  {SEAT_COLOURS[s.caller].symbol}  {caller}" in plain


def test_the_terminal_lists_your_combinations_in_words():
    s = enter_scoring(make_state([M5, {(0, 0): "Gl"}]))
    plain = _plain(render.text(s.observation(0), ["Ann", "Ben"]))
    assert "Your combinations:" in plain
    assert re.search(r"D5 \(0,0\) \(1,1\) \(2,2\) \(3,3\) \(4,4\): \d+ points, turning \(2,2\) "
                     r"face down", plain)
    assert "[" not in plain and "{" not in plain
