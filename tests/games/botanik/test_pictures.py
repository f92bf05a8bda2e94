"""Botanik's pictures as a player reads them: readable on a phone, the pieces drawn (not coded),
every place the client offers present and large enough, and a terminal picture of at most 80
columns whose legend lists exactly what it shows."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from rich.text import Text

import meeple
from meeple.engine import CHANCE
from meeple.games.botanik import Botanik, art, render
from meeple.games.botanik.components import TYPES, tile_set

from .helpers import build, fresh, set_registry

NS = "{http://www.w3.org/2000/svg}"
NAMES = ["Alice", "Bob"]
CONFIGS = Botanik.configurations()
PHONE = 360
"""CSS pixels the board gets on a 390-pixel-wide phone."""

ID_PATTERNS = (
    re.compile(r"\b[RYGBK]-(?:ST|EL|TE)[123]?\b"),
    re.compile(r"\b[RYGBK]-(?:CR|PL|VE|MB)\b"),
    re.compile(r"\b(?:ST|EL|TE)[123]\b"),
    re.compile(r"\b(?:CR|PL|VE|MB)\b"),
    re.compile(r"\bSRC\d\b"),
    re.compile(r"\bP[01]\b"),
    re.compile(r"forbid_loops|group_needs_pipe|tile_set|reconstructed_v1"),
)
"""The game's internal codes: tile ids and their parts, Sources, seats, option names."""


def positions(players, options, seeds=range(3)):
    """Random positions of a configuration, from the start to the end (with each position's
    state, to ask it for its legal actions)."""
    game = meeple.load("botanik", players=players, **options)
    out = []
    for seed in seeds:
        rng = random.Random(seed * 7 + len(options))
        s = game.new_initial_state()
        stops = sorted(rng.sample(range(1, 150), 5))
        n = 0
        while not s.is_terminal():
            if s.current_player != CHANCE and stops and n >= stops[0]:
                stops.pop(0)
                out.append(s.clone())
            meeple.play_out(s, rng, max_actions=1)
            n += 1
        out.append(s)
    return out


def viewbox_width(picture: str) -> float:
    return float(re.search(r'viewBox="0 0 ([\d.]+) [\d.]+"', picture)[1])


def visible_svg_text(picture: str) -> list[str]:
    """Every text a person can read in the picture: its texts and its tooltips."""
    root = ET.fromstring(picture)
    return ["".join(el.itertext()) for el in root.iter()
            if el.tag in (f"{NS}text", f"{NS}title")]


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


@pytest.mark.parametrize("players,options", CONFIGS)
def test_every_text_is_at_least_12_css_pixels_on_a_phone(players, options):
    for s in positions(players, options):
        for viewer in (None, 0, 1):
            picture = render.svg(s.observation(viewer), NAMES)
            scale = PHONE / viewbox_width(picture)
            sizes = [float(x) for x in re.findall(r'font-size="([\d.]+)"', picture)]
            assert sizes
            assert min(sizes) * scale >= 12, min(sizes)


@pytest.mark.parametrize("players,options", CONFIGS)
def test_no_internal_code_is_visible(players, options):
    for s in positions(players, options):
        obs = s.observation(0)
        seen = visible_svg_text(render.svg(obs, NAMES)) + [plain(render.text(obs, NAMES))]
        seen += [plain(render.text(s.observation(None)))]
        for words in seen:
            for pattern in ID_PATTERNS:
                assert not pattern.search(words), (pattern.pattern, words)


@pytest.mark.parametrize("players,options", CONFIGS)
def test_every_place_the_client_offers_is_in_the_picture_and_large_enough(players, options):
    checked = 0
    for s in positions(players, options):
        p = s.current_player
        if s.is_terminal() or p == CHANCE:
            continue
        picture = render.svg(s.observation(p), NAMES)
        root = ET.fromstring(picture)
        scale = PHONE / viewbox_width(picture)
        by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
        for a in s.legal_actions(p):
            d = s.describe_action(a, p)
            for elem in [d["target"], *d.get("cells", [])]:
                assert elem in by_id, (d, elem)
            el = by_id[d["target"]]
            # the place itself: a rect, or the group's highlight ring (the place and 3 units
            # round it)
            box = el if el.tag == f"{NS}rect" else el.find(f"{NS}rect")
            assert box is not None
            side = min(float(box.get("width")), float(box.get("height")))
            if el.tag != f"{NS}rect":
                assert box.get("class") == "bk-hit"
                side -= 6
            assert side * scale >= 28 or d["kind"] == "add", (d, side)
            if d["kind"] == "add":  # machine cells: 28 px while the machine is 11 cells wide
                cols = {t["cell"][1] for t in s.observation(p)["machines"][p]}
                if max(cols) - min(cols) + 3 <= 11:
                    assert side * scale >= 28 - 2, (d, side)
            checked += 1
    assert checked


def test_the_client_target_class_rings_every_kind_of_place():
    """The client adds ``target`` to the places it offers; the picture's style rings them."""
    picture = render.svg(fresh().observation(0))
    style = re.search(r"<style>\.ghost.*?</style>", picture)[0]
    assert ".target>.bk-hit{stroke:" in style and ".slot.target{" in style
    root = ET.fromstring(picture)
    for el in root.iter():
        ident = el.get("id") or ""
        if re.fullmatch(r"row-\d-\d|pile-\d|arrival-.*", ident):
            assert el.find(f"{NS}rect").get("class") == "bk-hit", ident
        if re.fullmatch(r"m\d-cell-.*", ident) and el.tag == f"{NS}rect":
            assert el.get("class") == "slot"


@pytest.mark.parametrize("players,options", CONFIGS)
def test_terminal_picture_fits_80_columns_and_its_legend_lists_what_it_shows(players, options):
    for s in positions(players, options):
        for viewer in (None, 0):
            text = plain(render.text(s.observation(viewer), NAMES))
            lines = text.splitlines()
            assert all(len(line) <= 80 for line in lines), max(lines, key=len)
            start = next(i for i, line in enumerate(lines) if line.startswith("Legend: "))
            legend = " ".join(lines[start:])[len("Legend: "):]
            picture = "\n".join(lines[:start])
            for item in legend.split("; "):
                symbols = item.split(" ")[0]
                for ch in symbols:
                    assert ch in picture, (ch, item)
            # and every tile shape in the picture is in the legend
            for letter, sym in art.SYMBOL.items():
                if sym in picture:
                    assert f"{sym} {art.COLOUR_WORD[letter]}" in legend


def test_pile_heights_of_ten_and_more_keep_their_columns():
    s = fresh()
    set_registry(s, tops=["R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2"])
    under = [t for t in range(65) if t not in {p[0] for p in s.piles}]
    for j, extra in enumerate((0, 9, 2, 14, 8)):  # heights 1, 10, 3, 15, 9
        s.piles[j] = under[:extra] + s.piles[j]
        under = under[extra:]
    s._sync()
    lines = plain(render.text(s.observation(None))).splitlines()
    head = next(line for line in lines if line.startswith("Registry"))
    piles = next(line for line in lines if line.lstrip().startswith("piles"))
    for j, height in enumerate((1, 10, 3, 15, 9)):
        col = head.index(str(j))
        # the tile of pile j starts under its column number, its height ends 3 further on
        assert piles[col + 3:col + 6].strip() == str(height), (piles, j)
        assert piles[col] in art.SYMBOL.values()
    picture = render.svg(s.observation(None))
    for height in (1, 10, 3, 15, 9):
        assert ">" + ("1 tile" if height == 1 else f"{height} tiles") + "</text>" in picture


def test_a_long_machine_stays_in_80_columns_and_on_the_phone():
    s = fresh()
    line = [(f"{c}-ST{i}", 0, x, 1) for x, (c, i) in enumerate(
        [(c, i) for c in "RYGBK" for i in (1, 2, 3)], start=1)]
    line += [(f"{c}-ST{i}", 0, -x, 1) for x, (c, i) in enumerate(
        [(c, i) for c in "RYGBK" for i in (1, 2, 3)][:12], start=1)]
    build(s, 0, line)
    lines = plain(render.text(s.observation(None))).splitlines()
    assert all(len(x) <= 80 for x in lines)
    assert "      columns -12 to 15" in lines  # 28 columns: two characters each
    row = next(x for x in lines if x.startswith("    0 ") and "─" in x)
    # each tile: its shape, then its pipe, or its flower where it has one
    assert row.count("─") == 18 and row.count(render.FLOWER) == 9
    assert row.count(art.SYMBOL["R"]) == 6
    picture = render.svg(s.observation(None))
    assert viewbox_width(picture) == render.W
    root = ET.fromstring(picture)
    cell = root.find(f".//{NS}g[@id='m0-cell-0-15']/{NS}rect")
    assert float(cell.get("width")) >= render.MIN_CELL - 2


def tile_group(picture: str, elem_id: str) -> ET.Element:
    root = ET.fromstring(picture)
    el = root.find(f".//*[@id='{elem_id}']")
    assert el is not None, elem_id
    return el


def test_the_pieces_are_drawn_as_the_pieces():
    """Pipes as brass pipes (a bend where they turn), flowers with petals, plants in pots,
    the Meca-Botanist as a face, the colour's shape on every coloured tile."""
    ts = tile_set()
    s = fresh()
    set_registry(s, tops=["R-EL1", "Y-TE1", "G-PL", "B-MB", "K-VE"],
                 rows={0: {0: "R-ST1", 1: "Y-CR"}}, arrival=["G-EL2", "B-ST3", "K-TE3"])
    picture = render.svg(s.observation(0), NAMES)
    for elem_id, tile in (("pile-0", "R-EL1"), ("pile-1", "Y-TE1"), ("pile-2", "G-PL"),
                          ("pile-3", "B-MB"), ("pile-4", "K-VE"), ("row-0-0", "R-ST1"),
                          ("row-0-1", "Y-CR"), ("arrival-G-EL2", "G-EL2")):
        g = tile_group(picture, elem_id)
        body = ET.tostring(g, encoding="unicode")
        kind = TYPES[ts.type[ts.index[tile]]]
        flowers = len(g.findall(f".//{NS}g[@class='flower']"))
        assert flowers == ts.flowers[ts.index[tile]], (tile, flowers)
        petals = [c for f in g.findall(f".//{NS}g[@class='flower']") for c in f]
        assert len(petals) == 6 * flowers  # five petals and a heart each
        assert (len(g.findall(f".//{NS}g[@class='meca-face']")) == 1) == (kind == "meca")
        if kind == "elbow":
            assert re.search(r'd="M[\d. ]+A', body), "an elbow bends"
        if kind in ("straight", "elbow", "tee", "cross"):
            assert art.BRASS in body and art.BRASS_DARK in body
        if kind == "plant":
            assert art.POT in body
        assert art.TILE_FILL[tile[0]] in body
        title = g.find(f".//{NS}title").text
        assert title.startswith(art.COLOUR_WORD[tile[0]])
    assert render.tile_words("G-PL", flowers=True) == "green plant with 3 flowers"
    assert render.tile_words("R-ST1", flowers=True) == "red straight pipe with a flower"
    assert render.tile_words("SRC1", NAMES) == "Bob's Source"


def test_the_source_and_the_meca_pawn():
    s = fresh()
    picture = render.svg(s.observation(1), NAMES)
    for p in range(2):
        src = ET.tostring(tile_group(picture, f"m{p}-cell-0-0"), encoding="unicode")
        assert Botanik.colours[p].fill in src and art.BRASS in src
    pawn = tile_group(picture, "meca-pawn") if 'id="meca-pawn"' in picture else None
    assert pawn is None
    root = ET.fromstring(picture)
    pawn = root.find(f".//{NS}g[@class='meca-pawn']")
    assert pawn is not None and pawn.get("data-seat") == str(s.meca_player)
    assert pawn.find(f".//{NS}g[@class='meca-face']") is not None


def test_the_player_to_act_is_ringed():
    s = fresh()
    set_registry(s, tops=["R-EL1", "Y-TE1", "G-PL", "B-MB", "K-VE"],
                 arrival=["G-EL2", "B-ST3", "K-TE3"], active=1)
    picture = render.svg(s.observation(1), NAMES)
    root = ET.fromstring(picture)
    acting = root.findall(f".//{NS}g[@class='player to-act']")
    assert [g.get("data-seat") for g in acting] == ["1"]
    assert acting[0].find(f"{NS}circle[@class='current']") is not None
    text = plain(render.text(s.observation(1), NAMES))
    assert "Bob (you) ◀" in text and "◀ to play" in text


def test_the_released_tile_is_previewed_at_each_place():
    s = fresh()
    s.pend_player, s.pend_tile = 0, s.ts.index["R-EL1"]
    s.phase = 3  # adding
    s.pend_adds = s.legal_adds(0, s.pend_tile)
    s._sync()
    obs = s.observation(0)
    picture = render.svg(obs, NAMES)
    places = obs["released"]["placements"]
    assert len(places) == 8
    for r, c, k, _ in places:
        g = tile_group(picture, f"m0-ghost-{r}-{c}-{k}")
        assert g.get("class") == "ghost"
    assert "Released to" in picture
    text = plain(render.text(obs, NAMES))
    assert "Released to  ●  Alice: ○└✿ red elbow with a flower" in text
    assert "It fits at row,column: -1,0  0,-1  0,1  1,0" in text
