"""Every game's picture is made of regions a wide screen can lay out as a table: the board
first, then the panels, each a top-level ``<g class="region">`` with its box inside the
picture; together they hold everything the picture draws, and no two overlap."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

import meeple
from meeple.engine import game_class

NS = "{http://www.w3.org/2000/svg}"
NAMES = ["Ann", "Bob", "Cleo", "Dov", "Eve", "Finn"]
SLACK = 0.5
"""Rounding allowed at a box's edge, in the picture's units."""


def _params() -> Iterator[Any]:
    for game in meeple.games():
        configs = list(game_class(game).configurations())
        for players, options in {repr(c): c for c in (configs[0], configs[-1])}.values():
            label = "-".join([game, f"{players}p", *(f"{k}={v}" for k, v in options.items())])
            yield pytest.param(game, players, options, id=label)


def pictures(game: str, players: int, options: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The SVG of random positions (the start, the middle, the end) for every viewer."""
    g = meeple.load(game, players=players, **options)
    rng = random.Random(f"{game}/{players}/{sorted(options.items())}")
    for moment in (0, rng.randrange(4, 30), None):
        state = meeple.play_out(g.new_initial_state(), rng.randrange(10**6), max_actions=moment)
        for viewer in [None, *range(players)]:
            names = NAMES[:players] if viewer else None
            yield f"{moment}/{viewer}", g.renderer.svg(state.observation(viewer), names)


def _box(region: ET.Element) -> tuple[float, ...]:
    box = tuple(float(v) for v in (region.get("data-box") or "").split())
    assert len(box) == 4, region.get("data-box")
    return box


@pytest.mark.parametrize("game,players,options", list(_params()))
def test_the_picture_is_regions_the_board_first_with_boxes_inside_it(game, players, options):
    for where, picture in pictures(game, players, options):
        root = ET.fromstring(picture)
        _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
        regions = [el for el in root if el.tag == f"{NS}g" and "region" in
                   (el.get("class") or "").split()]
        names = [r.get("data-region") for r in regions]
        assert len(regions) >= 2 and names[0] == "board", (where, names)
        assert len(set(names)) == len(names), (where, names)
        boxes = []
        for r, name in zip(regions, names, strict=True):
            x, y, w, h = _box(r)
            assert w > 0 and h > 0, (where, name, (x, y, w, h))
            assert x >= -SLACK and y >= -SLACK, (where, name, (x, y, w, h))
            assert x + w <= width + SLACK and y + h <= height + SLACK, \
                (where, name, (x, y, w, h), (width, height))
            assert len(r), f"{where}: the {name} region is empty"
            boxes.append((name, x, y, w, h))
        for i, (a, ax, ay, aw, ah) in enumerate(boxes):
            for b, bx, by, bw, bh in boxes[i + 1:]:
                across = min(ax + aw, bx + bw) - max(ax, bx)
                down = min(ay + ah, by + bh) - max(ay, by)
                assert across <= SLACK or down <= SLACK, f"{where}: {a} and {b} overlap"
        # Everything drawn is in a region: outside them only styles, definitions and paper.
        for el in root:
            tag = el.tag.removeprefix(NS)
            if el in regions or tag in ("style", "defs"):
                continue
            assert tag == "rect" and el.get("width") == "100%" and el.get("height") == "100%", \
                f"{where}: a {tag} ({el.get('class')}) is drawn outside the regions"
        ids = [el.get("id") for el in root.iter() if el.get("id")]
        assert len(ids) == len(set(ids)), where
