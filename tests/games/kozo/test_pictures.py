"""Kozo's pictures as a player reads them, on random positions of every configuration: text
readable on a phone, targets big enough to touch, every targeted square drawn, the players'
colours with their symbols, the player to act and the last move marked, no internal codes;
and the terminal picture within 80 columns with a key of only the marks it uses."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from rich.text import Text

import meeple
from meeple.engine import CHANCE
from meeple.games.kozo import Kozo, art, render
from meeple.games.kozo.components import PIECE_FILLS, PIECES

NS = "{http://www.w3.org/2000/svg}"
NAMES = ["Ada", "Bartholomew Longname", "Cleo", "Dev", "Eli", "Fay"]
PHONE = 360
"""CSS pixels the board gets on a 390 px wide phone."""
MIN_FONT = 12
"""The smallest text a phone shows, in CSS pixels."""
MIN_TARGET = 28
"""The smallest square a finger can hit, in CSS pixels."""
CONFIGURATIONS = Kozo.configurations()
CODES = {
    "a piece number such as P7": r"\bP\d+\b",
    "a placement in notation": r"P\d+\.\d+@",
    "a balance cube in notation": r"\bB@",
    "a seat number": r"\bPlayer 0\b|\bSeat\b",
    "an identifier with underscores": r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b",
    "a Python dict or list": r"[{}\[\]]",
    "a Python None, True or False": r"\b(?:None|True|False)\b",
    "an option choice": r"\b(?:derived_v1|static|mujoco|last_taken|last_success)\b",
}
"""What no picture shows as text, each with what it would be."""


def positions(players: int, options: dict[str, Any], seed: int, count: int = 4) -> list:
    """``count`` positions of one random game where a player (not chance) is to act, and
    its end."""
    game = meeple.load("kozo", players=players, **options)
    rng = random.Random(seed)
    end = meeple.play_out(game.new_initial_state(), random.Random(seed))
    length = len(end.history())
    chosen = set(rng.sample(range(length), min(count, length)))
    kept: list = []

    def keep(state, player, action) -> None:
        if len(state.history()) - 1 in chosen and state.current_player != CHANCE:
            kept.append(state.clone())

    meeple.play_out(game.new_initial_state(), random.Random(seed), on_move=keep)
    return [game.new_initial_state(), *kept, end]


def cases():
    for players, options in CONFIGURATIONS:
        seed = players * 31 + len(options) * 7 + sum(map(len, options))
        yield from positions(players, options, seed)


@pytest.fixture(scope="module")
def states():
    return list(cases())


def visible(root: ET.Element) -> list[str]:
    """What a person reads: texts and tooltips."""
    out = []
    for el in root.iter():
        if el.tag in (f"{NS}text", f"{NS}title"):
            words = " ".join("".join(el.itertext()).split())
            if words:
                out.append(words)
    return out


def picture(state, viewer):
    names = None if viewer is None else NAMES[: state.game.num_players]
    obs = state.observation(viewer)
    svg = render.svg(obs, names)
    return obs, svg, ET.fromstring(svg)


def test_every_configuration_is_covered(states):
    seen = {(s.game.num_players, tuple(sorted(s.game.options.items()))) for s in states}
    assert len(states) >= 4 * len(CONFIGURATIONS)
    for players, options in CONFIGURATIONS:
        assert any(p == players and dict(o).items() >= options.items() for p, o in seen)
    assert any(s.is_terminal() for s in states)
    assert any(s.observation(None)["tower"]["pieces"] for s in states)


def test_text_is_readable_and_targets_big_enough_on_a_phone(states):
    for state in states:
        for viewer in (None, 0):
            _, _, root = picture(state, viewer)
            width = float(root.get("viewBox").split()[2])
            assert width <= 400  # the picture is about as wide as the phone's board
            for el in root.iter(f"{NS}text"):
                size = float(el.get("font-size"))
                assert size * PHONE / width >= MIN_FONT, ("".join(el.itertext()), size)
            squares = [el for el in root.iter(f"{NS}rect")
                       if (el.get("id") or "").startswith("col-")]
            assert len(squares) == 8
            for el in squares:
                assert float(el.get("width")) * PHONE / width >= MIN_TARGET
                assert float(el.get("height")) * PHONE / width >= MIN_TARGET


def test_every_target_of_every_legal_action_is_drawn(states):
    for state in states:
        if state.is_terminal() or state.current_player == CHANCE:
            continue
        _, svg, root = picture(state, state.current_player)
        ids = {el.get("id") for el in root.iter() if el.get("id")}
        for a in state.legal_actions():
            d = state.describe_action(a)
            if d.get("target"):
                assert d["target"] in ids and set(d["cells"]) <= ids, d
        # the targets are the squares the client marks: styled for its marking
        assert ".kozo-column.target{" in svg
        for el in root.iter(f"{NS}rect"):
            if (el.get("id") or "").startswith("col-"):
                assert el.get("class") == "kozo-column"


def test_players_have_colour_and_symbol_and_the_one_to_act_is_ringed(states):
    for state in states:
        n = state.game.num_players
        obs, _, root = picture(state, 0)
        labels = [g for g in root.iter(f"{NS}g") if (g.get("class") or "").startswith("player")
                  and g.get("data-seat") is not None and g.get("class") != "player-line"]
        assert sorted(int(g.get("data-seat")) for g in labels) == list(range(n))
        for g in labels:
            seat = int(g.get("data-seat"))
            colour = Kozo.colours[seat]
            mark = next(m for m in g.iter(f"{NS}g") if m.get("class") == "player-mark")
            assert mark.find(f"{NS}circle").get("fill") == colour.fill
            assert "".join(mark.find(f"{NS}text").itertext()) == colour.symbol
        ringed = [int(g.get("data-seat")) for g in labels if "to-act" in g.get("class")]
        acting = None if state.is_terminal() else (obs["chooser"] if obs["chooser"] is not None
                                                   else obs["active"])
        assert ringed == ([] if acting is None else [acting])
        for g in labels:
            circles = [c for c in g.findall(f"{NS}circle") if c.get("class") == "current"]
            assert len(circles) == (1 if int(g.get("data-seat")) == acting else 0)


def test_the_last_move_is_marked_in_the_tower_and_on_the_ring():
    s = meeple.load("kozo", players=2).new_initial_state()
    for move in ("P12.5@0,0", "B@0,0", "P3.10@0,0"):
        s.apply(s.string_to_action(move))
        root = ET.fromstring(render.svg(s.observation(None)))
        marked_cubes = [g for g in root.iter(f"{NS}g")
                        if any("last-move" in (p.get("class") or "")
                               for p in g.findall(f"{NS}polygon"))]
        marked_squares = [r for r in root.iter(f"{NS}rect") if r.get("class") == "last-move"]
        if move.startswith("B"):
            assert [g.get("class") for g in marked_cubes] == ["kozo-balance"]
            assert len(marked_squares) == 1
        else:
            piece = move.split(".")[0]
            assert {g.get("data-piece") for g in marked_cubes} == {piece}
            cubes = len(PIECES[int(piece[1:]) - 1][1])
            assert len(marked_cubes) == cubes
            columns = {(x, y) for x, y, _ in s.observation(None)["tower"]["pieces"][-1]["cells"]}
            assert len(marked_squares) == len(columns)
    # no move yet: nothing marked
    fresh = render.svg(meeple.load("kozo", players=2).new_initial_state().observation(None))
    assert "last-move\"" not in fresh.split("</style>", 1)[1]


def test_who_placed_and_who_toppled_are_shown():
    s = meeple.load("kozo", players=2).new_initial_state()
    for move in ("P12.5@0,0", "B@0,0", "P2.1@2,0"):  # rules example Z4 B: the bar falls
        s.apply(s.string_to_action(move))
    obs = s.observation(None)
    root = ET.fromstring(render.svg(obs, ["Ada", "Ben"]))
    words = visible(root)
    assert "Ben toppled the tower with a polycube. Fallen: I-tricube (B)." in " ".join(words)
    assert "toppled the tower in round 1" in words
    # the tower that fell is drawn, the fallen piece set apart
    fell = [g for g in root.iter(f"{NS}g") if "kozo-fell" in (g.get("class") or "")]
    assert {g.get("data-piece") for g in fell} == {"P2"} and len(fell) == 3
    assert "I-tricube (B), placed by Ben" not in words  # seats of a fallen tower are not guessed
    s2 = meeple.load("kozo", players=2).new_initial_state()
    for move in ("P12.5@0,0", "B@0,0"):
        s2.apply(s2.string_to_action(move))
    words = visible(ET.fromstring(render.svg(s2.observation(None), ["Ada", "Ben"])))
    assert "V-pentacube (L), placed by Ada" in words
    assert "Ada placed the brown V-pentacube (L)" in words


def test_no_internal_codes_and_no_results_table_in_the_pictures(states):
    for state in states:
        for viewer in (None, 0):
            _, svg, root = picture(state, viewer)
            for words in visible(root):
                for what, pattern in CODES.items():
                    assert not re.search(pattern, words), (what, words)
            assert 'class="score-table"' not in svg and "Total" not in svg


def plain_lines(markup: str) -> list[str]:
    return Text.from_markup(markup).plain.splitlines()


def test_terminal_picture_fits_80_columns_and_keys_only_the_marks_it_uses(states):
    for state in states:
        for viewer in (None, 0):
            names = None if viewer is None else NAMES[: state.game.num_players]
            lines = plain_lines(render.text(state.observation(viewer), names))
            for line in lines:
                assert len(line) <= render.TEXT_WIDTH, line
            start = next(i for i, ln in enumerate(lines) if ln.startswith("Key: "))
            key = " ".join(lines[start:])[len("Key: "):]
            shown = "\n".join(lines[:start])
            marks = [item.split(" ", 1)[0] for item in re.split(r"\s{2,}", key.strip())]
            assert marks and len(marks) == len(set(marks))
            board = [ln for ln in lines[:start] if re.fullmatch(r"[A-L.#o ]+", ln)]
            for mark in marks:
                assert any(mark in ln.split() for ln in board), (mark, shown)
            for ln in board:  # and every mark drawn is in the key
                assert set(ln.split()) <= set(marks), (ln, marks)


def test_terminal_picture_shows_no_codes_but_how_to_type_a_piece(states):
    for state in states:
        shown = Text.from_markup(render.text(state.observation(0), NAMES)).plain
        typing = re.sub(r"type P\d+\)|\(e\.g\. P7\)", "", shown)
        for what, pattern in CODES.items():
            assert not re.search(pattern, typing), (what, typing)
        assert "Total" not in shown


def test_piece_colours_stay_apart_as_wood():
    def rgb(c: str) -> tuple[int, ...]:
        return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))

    tints = [art.tint(c) for c in range(len(PIECES))]
    for i, t in enumerate(tints):  # stained wood: the piece's colour warmed by the wood
        assert t != PIECE_FILLS[i] and t != art.WOOD
        for u in tints[:i]:
            assert sum(abs(a - b) for a, b in zip(rgb(t), rgb(u), strict=True)) > 40, (t, u)


def test_the_size_chosen_for_a_player_stands_out_among_the_pieces_left():
    s = meeple.load("kozo", players=3, opponent_choice=True).new_initial_state()
    s.apply(s.string_to_action("size 4"))
    obs = s.observation(None)
    root = ET.fromstring(render.svg(obs, NAMES[:3]))
    assert "Ada places a polycube of size 4" in visible(root)
    cells = [g for g in root.iter(f"{NS}g") if (g.get("class") or "").startswith("kozo-left")]
    assert len(cells) == len(PIECES)
    for g in cells:
        size = len(PIECES[int(g.get("data-piece")[1:]) - 1][1])
        assert ("kozo-required" in g.get("class")) == (size == 4)
        assert (g.get("opacity") is None) == (size == 4)


def test_a_finished_game_shows_no_pieces_left_and_no_next_round():
    end = meeple.play_out(meeple.load("kozo", players=2, rounds=1).new_initial_state(),
                          random.Random(3))
    obs = end.observation(None)
    words = visible(ET.fromstring(render.svg(obs)))
    assert "Pieces left" not in words and not any("new round" in w for w in words)
    assert not any(w.startswith("Round ") for w in words)
    shown = Text.from_markup(render.text(obs)).plain
    assert "Pieces left" not in shown and "Game over" in shown
