"""Named observation planes: every game's layout covers its tensor, the planes cut the very
tensor the game gives, the values stay in each plane's range, and the docs show the layout."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import meeple
from meeple.engine import registry
from meeple.engine.planes import bounds, layout, markdown, observation_planes

from .games import configurations

DOCS = Path(__file__).resolve().parents[2] / "docs" / "observations.md"


def _cheap(name, options):
    return not (name == "kozo" and options.get("stability") == "mujoco")


@pytest.mark.parametrize("name,players,options", configurations())
def test_planes_cover_the_tensor_and_hold_its_values(name, players, options):
    if not _cheap(name, options):
        options = {**options, "rounds": 1}
    game = meeple.load(name, players=players, **options)
    parts = layout(game)
    assert parts[0].start == 0 and parts[-1].stop == int(np.prod(game.observation_shape))
    assert all(a.stop == b.start for a, b in zip(parts, parts[1:], strict=False))
    low, high = bounds(game)
    seen = 0

    def check(state, player):
        nonlocal seen
        flat = np.ravel(state.observation_tensor(player))
        named = observation_planes(state, player)
        assert list(named) == [p.name for p in parts]
        for p in parts:
            assert named[p.name].shape == p.shape
            assert np.array_equal(named[p.name].reshape(-1), flat[p.slice])
        outside = np.flatnonzero((flat < low) | (flat > high))
        assert outside.size == 0, [
            (p.name, float(flat[i])) for i in outside for p in parts if p.start <= i < p.stop]
        seen += 1

    for seed in range(2):
        def policy(state, player, rng):
            check(state, player)
            return rng.choice(state.legal_actions(player))

        state = meeple.play_out(game.new_initial_state(), random.Random(seed), policy=policy)
        for p in range(players):
            check(state, p)
    assert seen > players


@pytest.mark.parametrize("name", registry.games())
def test_docs_show_each_games_layout(name):
    text = DOCS.read_text(encoding="utf-8")
    game = meeple.load(name)
    title = registry.game_class(name).title
    assert f"## {title}" in text
    assert markdown(game) in text


def test_the_planes_need_no_peer_and_are_importable_from_meeple():
    state = meeple.load("koplus", players=2).new_initial_state()
    meeple.play_out(state, random.Random(1), max_actions=20)
    named = meeple.observation_planes(state, 1)
    assert named["tiles"].shape == (2, 12, 12)
    assert named["tiles"][0].sum() == sum(5 for p, _ in state.placed if p == 1)
