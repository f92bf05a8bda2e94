"""Mops Royal's pictures on a phone and in a terminal: text big enough at 360 px, targets big
enough to touch and marked for the client, the player to act and the last round marked, no
internal codes shown, terminal lines within 80 columns with a key of only what they show,
and the pieces drawn (objects, crowns, tile backs, the called tile, the combination chart)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from rich.text import Text

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.engine.svg import text_width
from meeple.games.mops_royal import MopsRoyal, render
from meeple.games.mops_royal.components import CODES, OBJECTS, SEAT_COLOURS, SHAPE_IDS, TILES

from .helpers import enter_placement, enter_scoring, make_state
from .test_examples import M2, M5

NS = "{http://www.w3.org/2000/svg}"
NAMES = ["Alice", "Bartholomew", "Carol", "Dmitri"]
CONFIGS = MopsRoyal.configurations()
PHONE = 360
"""The CSS px a phone gives the picture's width."""


def _words(ids) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


CODE_PATTERNS = {
    "a tile code": _words(CODES),
    "a tile id": _words(TILES),
    "a shape id": _words(SHAPE_IDS),
    "a seat number": re.compile(r"\bP\d+\b"),
    "an identifier": re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b"),
    "a Python value": re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b"),
}


def positions(players: int, options: dict[str, Any], seed: int, count: int = 4) -> list:
    """A few positions of one random game at random moves (a player to act), and its end."""
    game = MopsRoyal(players, **options)
    length = len(meeple.play_out(game.new_initial_state(), random.Random(seed)).history())
    chosen = set(random.Random(seed + 1).sample(range(length), count))
    kept = []

    def keep(state, player, action) -> None:
        if len(state.history()) - 1 in chosen and state.current_player != CHANCE:
            kept.append(state.clone())

    end = meeple.play_out(game.new_initial_state(), random.Random(seed), on_move=keep)
    return kept + [end]


def views(players: int, options: dict[str, Any], seed: int = 0):
    """``(state, viewer, observation)`` for each position and every viewer, spectators too."""
    for s in positions(players, options, seed):
        for v in [None, *range(players)]:
            yield s, v, s.observation(v)


def _ids(configs=CONFIGS):
    return [f"{p}p-" + ("-".join(k for k, v in o.items() if v) or "basic") for p, o in configs]


def view_width(root: ET.Element) -> float:
    return float(root.get("viewBox").split()[2])


def visible(root: ET.Element) -> list[str]:
    return [" ".join("".join(e.itertext()).split()) for e in root.iter()
            if e.tag in (f"{NS}text", f"{NS}title")]


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


# ---------------------------------------------------------------------------- the phone
@pytest.mark.parametrize("players,options", CONFIGS, ids=_ids())
def test_every_text_reads_at_12_px_on_a_phone(players, options):
    for s, v, obs in views(players, options, seed=players):
        root = ET.fromstring(render.svg(obs, NAMES[:players] if v is not None else None))
        scale = PHONE / view_width(root)
        width = view_width(root)
        for t in root.iter(f"{NS}text"):
            size = float(t.get("font-size"))
            words = "".join(t.itertext())
            assert size * scale >= 12, (size, words, s.move_number(), v)
            # and it stays inside the picture (a bold sans letter is at most about 0.6 em)
            x, run = float(t.get("x")), len(words) * size * 0.6
            left = {"middle": x - run / 2, "end": x - run}.get(t.get("text-anchor"), x)
            assert 0 <= left and left + run <= width + 2, (words, left, run)
        box = root.get("viewBox").split()
        assert float(box[3]) <= 1600


@pytest.mark.parametrize("players,options", CONFIGS, ids=_ids())
def test_the_cells_to_click_are_marked_for_the_client_and_big_enough(players, options):
    """Every target ``describe_action`` names is drawn, carries the client's ``target`` class
    and is at least 28 px wide on a phone; nothing else carries the class."""
    seen = 0
    for s, v, obs in views(players, options, seed=players + 10):
        picture = render.svg(obs, NAMES[:players] if v is not None else None)
        root = ET.fromstring(picture)
        scale = PHONE / view_width(root)
        by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
        targets = set()
        acting = (s.pending_players() if s.current_player == SIMULTANEOUS
                  else [s.current_player])
        if v is not None and not s.is_terminal() and v in acting:
            for a in s.legal_actions(v):
                d = s.describe_action(a, v)
                for cid in d.get("cells", []):
                    assert cid in by_id, (cid, d["label"])
                if d.get("target"):
                    targets.add(d["target"])
        marked = {e.get("id") for e in root.iter() if "target" in e.get("class", "").split()}
        assert marked == targets, (s.move_number(), v, marked ^ targets)
        for cid in targets:
            rect = by_id[cid].find(f"{NS}rect")
            assert rect is not None
            assert float(rect.get("width")) * scale >= 28
            assert float(rect.get("height")) * scale >= 28
        seen += len(targets)
    assert seen


def test_reject_targets_follow_the_feasibility_rule():
    """In the variant, face-down cells are targets exactly when ``reject`` onto them is legal."""
    found = 0
    for seed in range(6):
        for s in positions(3, {"replacement_tiles": True}, seed, count=8):
            for v in s.pending_players() if s.current_player == SIMULTANEOUS else []:
                root = ET.fromstring(render.svg(s.observation(v)))
                legal = {s.describe_action(a, v)["target"] for a in s.legal_actions(v)
                         if s.describe_action(a, v)["kind"] == "reject"}
                drawn = {e.get("id") for e in root.iter()
                         if "facedown" in e.get("class", "") and "target" in e.get("class", "")}
                assert drawn == legal
                found += len(legal)
    assert found


@pytest.mark.parametrize("players,options", CONFIGS, ids=_ids())
def test_the_player_to_act_is_ringed_and_the_last_round_marked(players, options):
    for _s, _v, obs in views(players, options, seed=players + 20):
        root = ET.fromstring(render.svg(obs, NAMES[:players]))
        ringed = {int(g.get("data-seat")) for g in root.iter(f"{NS}g")
                  if "to-act" in g.get("class", "").split()}
        if obs["phase"] == "end_scoring":
            assert ringed == {obs["turn"]}
        elif obs["phase"] == "round":
            assert ringed == set(obs["pending"])
        else:
            assert not ringed
        for g in root.iter(f"{NS}g"):
            if "to-act" in g.get("class", "").split():
                assert g.find(f"{NS}circle[@class='current']") is not None
        last = {(q, tuple(c)) for q, r in enumerate(obs.get("last_round") or [])
                for c in (r["placed"], r["rejected"], r["flipped"]) if c}
        rings = []
        for q in range(players):
            layout = root.find(f".//{NS}g[@id='layout-{q}']")
            rings += [q for e in layout.iter() if e.get("class") == "last-move"]
        assert len(rings) == len(last)
        assert sorted(rings) == sorted(q for q, _ in last)


@pytest.mark.parametrize("players,options", CONFIGS, ids=_ids())
def test_no_internal_codes_in_what_the_svg_shows(players, options):
    for _s, v, obs in views(players, options, seed=players + 30):
        root = ET.fromstring(render.svg(obs, NAMES[:players] if v is not None else None))
        for line in visible(root):
            for what, pattern in CODE_PATTERNS.items():
                assert not pattern.search(line), (what, line)


def test_tiles_are_drawn_as_their_objects_in_their_colours_with_crowns():
    s = enter_scoring(make_state([M5, M2]))
    root = ET.fromstring(render.svg(s.observation(0), ["Ann", "Ben"]))
    drawings = {g.get("id") for g in root.iter(f"{NS}g") if g.get("id", "").startswith("mr-")}
    assert drawings == {f"mr-{o}" for o in OBJECTS} | {"mr-crown"}
    tiles = [g for g in root.iter(f"{NS}g") if g.get("class", "").startswith("cell tile")
             and "facedown" not in g.get("class")]
    assert len(tiles) == 25 + 9
    for g in tiles:
        colour, obj = g.get("data-tile").split("-")
        uses = [u.get("href") for u in g.iter(f"{NS}use")]
        assert uses[0] == f"#mr-{obj}"
        assert g.find(f"{NS}use").get("color") == render.FILL[colour]
        crown = obs_crown = "#mr-crown" in uses
        tip = "".join(g.find(f"{NS}title").itertext())
        assert tip.startswith(f"{colour} {obj}")
        assert crown == obs_crown == ("crown" in tip)
    crowns = sum(c["crown"] for lay in s.observation(0)["layouts"] for c in lay)
    assert crowns >= 4
    assert sum("#mr-crown" in [u.get("href") for u in g.iter(f"{NS}use")]
               for g in tiles) == crowns


def test_face_down_tiles_show_their_owners_colour_and_symbol():
    s = enter_scoring(make_state([M5, M2], down={0: [(1, 0), (2, 2)], 1: [(0, 0)]}))
    root = ET.fromstring(render.svg(s.observation(1)))
    for q, count in ((0, 2), (1, 1)):
        backs = root.findall(f".//{NS}g[@id='layout-{q}']//{NS}g[@class='cell tile facedown']")
        assert len(backs) == count
        for back in backs:
            assert back.find(f"{NS}rect").get("fill") == SEAT_COLOURS[q].fill
            assert SEAT_COLOURS[q].symbol in "".join(back.itertext())


def test_the_called_tile_is_drawn_large_and_named_in_words():
    s = positions(2, {}, 3)[0]
    while s.current_player != SIMULTANEOUS:
        meeple.play_out(s, random.Random(0), max_actions=1)
    obs = s.observation(0)
    root = ET.fromstring(render.svg(obs))
    called = root.find(f".//{NS}g[@id='called-tile']")
    assert called is not None
    face = called.find(f"{NS}rect")
    assert float(face.get("width")) >= 80 > render.BIG
    assert obs["called_tile"].replace("-", " ") in visible(root)


def test_the_chart_shows_every_shape_and_which_the_viewer_can_score():
    s = enter_scoring(make_state([M5, M2]))
    obs = s.observation(0)
    root = ET.fromstring(render.svg(obs))
    shapes = root.findall(f".//{NS}g[@class='chart']/{NS}g")
    assert len(shapes) == 17
    can = {c["shape"] for c in obs["my_combinations"]}
    from meeple.games.mops_royal.components import SHAPE_NAMES
    lit = {g.get("data-shape") for g in shapes if "scorable" in g.get("class")}
    assert lit == {SHAPE_NAMES[sid] for sid in can} and lit
    for g in shapes:  # each diagram has its cells, the marked ones dark
        cells = g.findall(f"{NS}rect")
        assert len([c for c in cells if c.get("fill") == "#5b5348"]) in (1, 2)
    spectator = ET.fromstring(render.svg(s.observation(None)))
    assert not [g for g in spectator.iter(f"{NS}g") if "scorable" in g.get("class", "")]


# ---------------------------------------------------------------------------- the terminal
LEGEND_HEADS = ("Colours:", "Objects:", "Marks:")


def split_legend(words: str) -> tuple[str, list[str]]:
    """The picture above the key, and the key's symbols."""
    lines = words.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith(LEGEND_HEADS)), len(lines))
    end = start
    while end < len(lines) and lines[end].strip() and (
            lines[end].startswith(LEGEND_HEADS) or lines[end].startswith(" ")):
        end += 1
    symbols = []
    for line in lines[start:end]:
        body = line.split(":", 1)[1] if line.startswith(LEGEND_HEADS) else line
        symbols += [item.split()[0] for item in re.split(r"\s{2,}", body.strip()) if item]
    return "\n".join(lines[:start] + lines[end:]), symbols


@pytest.mark.parametrize("players,options", CONFIGS, ids=_ids())
def test_terminal_lines_fit_80_columns_with_a_key_of_what_is_shown(players, options):
    for s, v, obs in views(players, options, seed=players + 40):
        words = plain(render.text(obs, NAMES[:players] if v is not None else None))
        for line in words.splitlines():
            assert len(line) <= 80, line
        picture, symbols = split_legend(words)
        if any(c["face_up"] for lay in obs["layouts"] for c in lay):
            assert symbols
        for sym in symbols:
            assert sym in picture, (sym, s.move_number(), v)
        if obs["called_tile"] and obs["phase"] == "round":
            assert obs["called_tile"].replace("-", " ") in picture
        assert not _words(TILES).search(words)
        assert not re.search(r"\bP\d+\b", words)


def test_the_terminal_key_names_only_the_colours_and_objects_shown():
    s = enter_scoring(make_state([{(0, 0): "Bb", (1, 0): "Bl"}, {(0, 0): "Gb"}]))
    words = plain(render.text(s.observation(0), ["Ann", "Ben"]))
    picture, symbols = split_legend(words)
    assert "B blue" in words and "G green" in words and "Y yellow" not in words
    assert "b bone" in words and "l pillow" in words and "m pug" not in words
    assert "* crown" in words  # blue-pillow has the crown
    assert "+ you may place here" not in words
    assert set(symbols) == {"B", "G", "b", "l", "*", "·"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_names_fit_their_panels_and_long_ones_keep_the_whole_name_as_a_tooltip(players):
    names = ["Alice", "Bartholomew Fitzgerald", "Carol", "Maximiliane"][:players]
    s = positions(players, {}, 7)[1]
    for v in [None, *range(players)]:
        root = ET.fromstring(render.svg(s.observation(v), names))
        for q in range(players):
            line = root.find(f".//{NS}g[@class='player-line'][@data-seat='{q}']")
            label = line.find(f"{NS}g")
            shown = "".join(label.find(f"{NS}text").itertext())
            full = names[q] + (" (you)" if q == v else "")
            panel = root.find(f".//{NS}g[@id='layout-{q}']/{NS}rect")
            room = float(panel.get("width")) - 20 - 21 * 1.3
            assert text_width(shown, 21, bold=True) <= room, shown
            if shown != full:
                cut = shown.removesuffix(" (you)")
                assert (cut != shown) == (q == v)
                assert cut.endswith("…") and names[q].startswith(cut[:-1])
                assert "".join(line.find(f".//{NS}title").itertext()) == full


def test_the_tiles_still_to_come_are_the_callers_stock():
    s = positions(3, {}, 2)[1]
    while s.current_player != SIMULTANEOUS:
        meeple.play_out(s, random.Random(0), max_actions=1)
    obs = s.observation(0)
    root = ET.fromstring(render.svg(obs))
    grid = root.find(f".//{NS}g[@class='to-come']")
    assert grid is not None
    drawn = sorted(f"{c}-{u.get('href')[4:]}" for u in grid.iter(f"{NS}use")
                   if u.get("href") != "#mr-crown"
                   for c, fill in render.FILL.items() if fill == u.get("color"))
    assert drawn == sorted(obs["caller_stock_left"]) and obs["called_tile"] not in drawn
    over = ET.fromstring(render.svg(positions(2, {}, 2)[-1].observation(0)))
    assert over.find(f".//{NS}g[@class='to-come']") is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tallest_pictures_fit(players):
    """Every layout as tall as it is ever drawn (4 rows and the ring around them), the called
    tile and a long status line: still within 1600 units."""
    from .test_examples import M4

    s = enter_placement(make_state([M4] * players), "Bl")
    for v in [None, *range(players)]:
        root = ET.fromstring(render.svg(s.observation(v), ["Bartholomew Fitzgerald"] * players))
        assert float(root.get("viewBox").split()[3]) <= 1600
