"""Long player names in the board pictures, in German: a name is shortened (with "…") where it
would otherwise run under the points beside it or past the picture's edge, and kept whole where
it fits."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

import meeple
from meeple.engine import CHANCE, i18n
from meeple.engine.svg import text_width

NS = "{http://www.w3.org/2000/svg}"
LONG = ["Bot (Gelegenheitsspieler) 2", "Spielerin mit sehr langem Namen 1",
        "Bot (Gelegenheidsspeler) 3", "Bot Ocasional Principiante 4"]
GAMES = ["koplus", "kozo", "mops_royal", "botanik", "kontor"]


@cache
def states(name: str) -> list:
    """The start, a few moves in, and the end of a game of two."""
    game = meeple.load(name, players=2)
    rng = random.Random(7)
    kept = [game.new_initial_state()]

    def keep(state, player, action) -> None:
        if len(kept) < 4 and state.current_player != CHANCE and rng.random() < 0.3:
            kept.append(state.clone())

    kept.append(meeple.play_out(game.new_initial_state(), rng, on_move=keep))
    return kept


def pictures(name: str, names: list[str]):
    module = __import__(f"meeple.games.{name}.render", fromlist=["svg"])
    for state in states(name):
        for viewer in (0, 1, None):
            with i18n.speaking("de"):
                yield ET.fromstring(module.svg(state.observation(viewer), names))


def words(el: ET.Element) -> str:
    return "".join(el.itertext())


def bold(el: ET.Element) -> bool:
    return el.get("font-weight") == "bold"


def left_right(el: ET.Element) -> tuple[float, float]:
    """Where a text starts and ends, as the pictures' own estimate measures it."""
    x, size = float(el.get("x", 0)), float(el.get("font-size", 12))
    w = text_width(words(el), size, bold=bold(el))
    anchor = el.get("text-anchor", "start")
    left = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    return left, left + w


def width_of(root: ET.Element) -> float:
    return float(root.get("viewBox", "0 0 0 0").split()[2])


@pytest.mark.parametrize("game", GAMES)
def test_a_long_name_never_reaches_the_points_nor_the_edge(game):
    lines = 0
    for root in pictures(game, LONG[:2]):
        for line in root.iter(NS + "g"):
            if "player-line" not in (line.get("class") or "").split():
                continue
            lines += 1
            label = next(g for g in line.iter(NS + "g")
                         if "player" in (g.get("class") or "").split())
            name = [t for t in label.iter(NS + "text")][-1]
            _, name_end = left_right(name)
            assert name_end <= width_of(root), words(name)
            for score in line.iter(NS + "text"):
                if "score" in (score.get("class") or "").split() and \
                        abs(float(score.get("y", 0)) - float(name.get("y", 0))) <= 5:
                    start, _ = left_right(score)
                    assert name_end < start, (words(name), words(score))
    assert lines


@pytest.mark.parametrize("game", GAMES)
def test_a_name_that_fits_is_not_shortened(game):
    short = ["Spieler 1", "Spieler 2"]
    seen = []
    for root in pictures(game, short):
        seen += [words(t) for t in root.iter(NS + "text")]
    text = " ".join(seen)
    assert "Spieler 1" in text and "Spieler 2" in text
    assert not re.search(r"Spiele?r?…", text)


def test_the_meca_pawn_holder_is_named_whole_where_it_fits():
    module = __import__("meeple.games.botanik.render", fromlist=["svg"])
    holders = []
    for state in states("botanik"):
        with i18n.speaking("de"):
            root = ET.fromstring(module.svg(state.observation(0), ["Spieler 1", "Spieler 2"]))
        for g in root.iter(NS + "g"):
            if "meca-pawn" in (g.get("class") or ""):
                holders += [words(t) for t in g.iter(NS + "text")]
    assert holders and any(h in ("Spieler 1", "Spieler 2") for h in holders)


def test_the_kontor_supply_label_never_meets_the_draw_piles_heading():
    seen = 0
    for root in pictures("kontor", LONG[:2]):
        headings = [t for t in root.iter(NS + "text") if words(t) == "Nachziehstapel"]
        if not headings:  # the game is over: no piles
            continue
        label = next(t for g in root.iter(NS + "g") if g.get("class") == "supply-label"
                     for t in g.iter(NS + "text"))
        assert left_right(headings[0])[1] < left_right(label)[0]
        assert words(label) == "Vorrat"
        seen += 1
    assert seen


@pytest.mark.parametrize("lang", ["en", "de", "es", "nl"])
def test_the_called_tile_s_name_stays_inside_the_picture(lang):
    """Mops Royal's called tile is named under it, on two lines where one would run past the
    picture's edge ("paarse voerbak", "grünes Kissen" were cut off on a phone)."""
    from meeple.games.mops_royal import render
    from meeple.games.mops_royal.components import TILE_INDEX

    state = next(s for s in states("mops_royal")
                 if s.observation(0).get("called_tile") and s.observation(0)["phase"] == "round")
    obs = state.observation(0)
    seen = 0
    for tile in TILE_INDEX:
        with i18n.speaking(lang):
            root = ET.fromstring(render.svg({**obs, "called_tile": tile}))
        called = next(g for g in root.iter(NS + "g") if g.get("id") == "called-tile")
        bottom = max(float(r.get("y", 0)) + float(r.get("height", 0))
                     for r in called.iter(NS + "rect"))
        under = [t for t in root.iter(NS + "text") if bold(t)
                 and bottom < float(t.get("y", 0)) < bottom + 60]
        assert under, tile
        for t in under:
            left, right = left_right(t)
            assert 0 <= left and right <= width_of(root), (tile, words(t))
            seen += 1
    assert seen >= len(TILE_INDEX)
