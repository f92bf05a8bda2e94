"""KoPlus pictures as a player knows them, on random positions of every configuration: the
SVG readable on a phone (texts, cells), the pieces drawn as pieces (aliens with their dots,
NET tiles by shape in their player's colour with the symbol, the hands by shape), the shared
marks (player to act, last move, legal places), no internal codes as visible text, and the
terminal picture within 80 columns with a key of only the symbols it shows."""

from __future__ import annotations

import base64
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from rich.text import Text

import meeple
from meeple.engine import game_class
from meeple.games.koplus import KoPlus, art, render
from meeple.games.koplus.components import BOARD_SECTIONS

NS = "{http://www.w3.org/2000/svg}"
PHONE = 360
"""The CSS pixels a 390 px wide phone gives the board."""
NAMES = ["Ann", "Bob", "Cleo", "Dov"]
CONFIGS = [pytest.param(players, options, id=f"{players}p-" + "-".join(
    f"{k}={v}" for k, v in options.items()) if options else f"{players}p")
    for players, options in game_class("koplus").configurations()]
CODES = [
    re.compile(r"\b(X|U[0-3]?)\s*@\s*\d+\s*,\s*\d+"),  # tile notation: X@3,4, U2@6,5
    re.compile(r"\bS\d{2}\b"),  # section ids: S05
    re.compile(r"\bP\d\b"),  # seats: P0
    re.compile(r"\bdeal\b"),
    re.compile(r"section_set|random_rotation|bonus_needs_points|end_when_any_blocked|"
               r"placeholder_v\d|_"),
    re.compile(r"\bSeat\b|\bseat\b|\bNone\b|\bTrue\b|\bFalse\b|[{}\[\]]"),
]
"""The game's internal codes, none of which may be visible text."""


def positions(players: int, options: dict[str, Any], count: int = 8):
    """States of random games at random moments: while dealing, in play and at the end."""
    game = meeple.load("koplus", players=players, **options)
    rng = random.Random(f"{players}/{sorted(options.items())}")
    sections = BOARD_SECTIONS[players][0] * BOARD_SECTIONS[players][1]
    moments: list[int | None] = [rng.randrange(1, sections), sections, sections + 1]
    moments += [rng.randrange(sections + 2, sections + 40) for _ in range(count - 4)] + [None]
    for i, moment in enumerate(moments):
        state = meeple.play_out(game.new_initial_state(), rng.randrange(10**6),
                                max_actions=moment)
        viewer = [None, *range(players)][i % (players + 1)]
        yield state, state.observation(viewer), NAMES[:players] if i % 2 else None


def scales(root: ET.Element):
    """Every element with the product of the ``scale(...)`` of its ancestors and itself."""
    def walk(el: ET.Element, k: float):
        m = re.search(r"scale\(([\d.]+)\)", el.get("transform") or "")
        k *= float(m.group(1)) if m else 1.0
        yield el, k
        for child in el:
            yield from walk(child, k)
    yield from walk(root, 1.0)


def view_width(root: ET.Element) -> float:
    return float((root.get("viewBox") or "").split()[2])


def visible_words(root: ET.Element) -> list[str]:
    """The texts a person can read: text elements and tooltips."""
    return ["".join(el.itertext()) for el in root.iter() if el.tag in (f"{NS}text",
                                                                       f"{NS}title")]


def classes(el: ET.Element) -> list[str]:
    return (el.get("class") or "").split()


@pytest.mark.parametrize("players,options", CONFIGS)
def test_every_text_is_readable_on_a_phone(players, options):
    for _, obs, names in positions(players, options):
        root = ET.fromstring(render.svg(obs, names))
        width = view_width(root)
        assert width <= PHONE + 40  # the picture is about as wide as the board
        texts = 0
        for el, k in scales(root):
            if el.tag != f"{NS}text":
                continue
            texts += 1
            size = float(el.get("font-size")) * k
            assert size * PHONE / width >= 12, ("".join(el.itertext()), size)
        assert texts >= obs["rows"] + obs["cols"] + obs["players"]


@pytest.mark.parametrize("players,options", CONFIGS)
def test_the_cells_are_as_large_as_the_board_allows(players, options):
    for state, obs, names in positions(players, options, count=5):
        picture = render.svg(obs, names)
        root = ET.fromstring(picture)
        px = PHONE / view_width(root)
        cells = [el for el in root.iter(f"{NS}rect") if "cell" in classes(el)]
        assert len(cells) == obs["rows"] * obs["cols"]
        for el in cells:
            size = float(el.get("width")) * px
            assert float(el.get("height")) == float(el.get("width"))
            # 28 CSS px on the 12-column boards; 16 columns fill the phone's width
            assert size >= min(28, 0.93 * PHONE / obs["cols"])
        assert obs["cols"] * float(cells[0].get("width")) >= 0.93 * view_width(root)
        # the cells take the pointer; everything drawn over them lets it through
        ids = {el.get("id") for el in cells}
        for a in state.legal_actions() if not state.is_chance_node() and not \
                state.is_terminal() else []:
            d = state.describe_action(a)
            if d["target"] is not None:
                assert d["target"] in ids and set(d["cells"]) <= ids
        for g in root.iter(f"{NS}g"):
            if {"aliens", "tiles", "sections", "coords"} & set(classes(g)):
                assert g.get("pointer-events") == "none"
        # legal places (the client adds "target") glow
        assert re.search(r"\.cell\.target\{fill:#[0-9a-f]{6}", picture)


@pytest.mark.parametrize("players,options", CONFIGS)
def test_the_pieces_are_drawn_as_pieces(players, options):
    for _, obs, names in positions(players, options, count=6):
        root = ET.fromstring(render.svg(obs, names))
        # aliens: a creature (body, eyes, feelers) with as many dots as it is worth
        aliens = [el for el in root.iter() if "alien" in classes(el)]
        values = [v for row in obs["aliens"] for v in row if v]
        assert sorted(int(classes(g)[1].split("-")[1]) for g in aliens) == sorted(values)
        # each value's drawing once in the defs, as a picture of its own (an SVG data URL)
        images = {i.get("id"): i.get("href") for i in root.iter(f"{NS}image") if i.get("id")}
        for g in aliens:
            value = int(classes(g)[1].split("-")[1])
            (use,) = g.iter(f"{NS}use")  # the drawing of its value, drawn once in the defs
            assert use.get("href") == f"#{art.alien_id(value)}"
            kind, data = images[art.alien_id(value)].split(",", 1)
            assert kind == "data:image/svg+xml;base64"
            drawing = ET.fromstring(base64.b64decode(data))
            dots = [c for c in drawing.iter(f"{NS}circle") if c.get("fill") == art.ALIEN_INK
                    and float(c.get("r")) > 5]
            eyes = [e for e in drawing.iter(f"{NS}path") if "eyes" in classes(e)]
            assert len(dots) == value and len(eyes) == 1
            assert eyes[0].get("d").count("Z") == 2  # two eyes
            assert len(list(drawing.iter(f"{NS}path"))) >= 3  # feelers, body and eyes
        # tiles: a solid pentomino in the player's colour, the symbol on it
        tiles = [g for g in root.iter(f"{NS}g") if "tile" in classes(g)]
        assert len(tiles) == len(obs["tiles"])
        for g, tile in zip(tiles, obs["tiles"], strict=True):
            colour = KoPlus.colours[tile["player"]]
            squares = [r for r in g.iter(f"{NS}rect") if r.get("fill") == colour.fill]
            assert len(squares) == 5
            symbols = [t for t in g.iter(f"{NS}text") if t.text == colour.symbol]
            assert len(symbols) == 1
        # the last tile laid carries the shared last-move mark, and no other element does
        marked = [el for el in root.iter() if "last-move" in classes(el)]
        if obs["tiles"]:
            assert len(marked) == 1 and "last" in classes(tiles[-1])
            assert marked[0] in list(tiles[-1].iter())
        else:
            assert not marked
        # the hands: each tile still in hand by its shape, the next one first
        for p in range(players):
            seat = next(g for g in root.iter(f"{NS}g") if f"player-{p}" in classes(g)
                        and "seat" in classes(g))
            shapes = [classes(el)[1] for el in seat.iter() if "hand-tile" in classes(el)]
            assert len(shapes) == obs["tiles_left"][p]
            if shapes:
                assert shapes[0] == f"shape-{obs['next_shape'][p]}"
                assert all(a != b for a, b in zip(shapes, shapes[1:], strict=False))


@pytest.mark.parametrize("players,options", CONFIGS)
def test_the_player_to_act_is_ringed_and_each_colour_has_its_symbol(players, options):
    for _, obs, names in positions(players, options, count=5):
        root = ET.fromstring(render.svg(obs, names))
        labels = [g for g in root.iter(f"{NS}g") if classes(g)[:1] == ["player"]]
        assert len(labels) == players
        acting = obs["current_player"] if obs["phase"] == "play" else None
        for g in labels:
            p = int(g.get("data-seat"))
            ring = [c for c in g.iter(f"{NS}circle") if "current" in classes(c)]
            assert bool(ring) == (p == acting) == ("to-act" in classes(g))
            assert KoPlus.colours[p].symbol in "".join(g.itertext())


@pytest.mark.parametrize("players,options", CONFIGS)
def test_no_internal_code_is_visible(players, options):
    for _, obs, names in positions(players, options):
        root = ET.fromstring(render.svg(obs, names))
        words = visible_words(root)
        plain = Text.from_markup(render.text(obs, names)).plain
        for pattern in CODES:
            for w in words:
                assert not pattern.search(w), (pattern.pattern, w)
            assert not pattern.search(plain), (pattern.pattern, plain)


@pytest.mark.parametrize("players,options", CONFIGS)
def test_the_terminal_picture_fits_80_columns_with_a_key_of_what_it_shows(players, options):
    for _, obs, names in positions(players, options):
        markup = render.text(obs, names)
        lines = Text.from_markup(markup).plain.splitlines()
        for line in lines:
            assert len(line) <= 80, line
        start = next(i for i, line in enumerate(lines) if line.startswith("Key:"))
        end = start + 1
        while end < len(lines) and lines[end].startswith("     "):
            end += 1
        picture = "\n".join(lines[:start] + lines[end:])
        board = "\n".join(lines[2:start])
        key = " ".join(lines[start:end])[len("Key:"):].strip()
        items = [item for item in re.split(r"\s{2,}", key) if item]
        assert items
        for item in items:
            symbol = item.split()[0]
            for ch in symbol:
                assert ch in picture, (item, ch)
        # what the board shows is in the key
        shown = set(board) - set(" \n0123456789")
        keyed = {ch for item in items for ch in item.split()[0]}
        assert shown <= keyed, shown - keyed
        if any(v and p < 0 for row, own in zip(obs["aliens"], obs["owner"], strict=True)
               for v, p in zip(row, own, strict=True)):
            assert any(item.split()[0].isdigit() for item in items)
